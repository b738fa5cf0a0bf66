#pragma once
/// @file
/// @brief The plan as JSON: what xfb-inspect prints and what the JavaScript API returns
/// (format in engine/tools/README.md; fields are only ever added). Target xfb::plan_json.
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/limits.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/primitive_count.hpp"

#include <nlohmann/json.hpp>

#include <span>

namespace xfb {

nlohmann::ordered_json toJson(const Limits& limits);
nlohmann::ordered_json toJson(const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes,
                              const CapturePlan& capture);
nlohmann::ordered_json toJson(const DrawDesc& draw, const CaptureCount& count);
/// A geometry program's budget (countGeometryCapture()): the draw's fields, "budget": true,
/// "input_primitives" and per stream { stream, captured_as, primitives, records, buffers, bytes }.
nlohmann::ordered_json toJson(const DrawDesc& draw, const CaptureCount& budget, const GeometryPlan& geometry);
/// A geometry program's per-stream plan: primitives, max_vertices, invocations, and per captured
/// stream its buffers, strides, varyings and budget per invocation and per input primitive.
nlohmann::ordered_json toJson(const GeometryPlan& geometry, const CapturePlan& capture);
nlohmann::ordered_json toJson(const GeometryLimits& limits);
/// An append session: its range and each part's draw and range (first record, first byte per buffer).
nlohmann::ordered_json toJson(std::span<const DrawDesc> parts, const SessionPlan& session);

} // namespace xfb
