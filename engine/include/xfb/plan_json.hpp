#pragma once
/// @file
/// @brief The plan as JSON: what xfb-inspect prints and what the JavaScript API returns
/// (format in engine/tools/README.md; fields are only ever added). Target xfb::plan_json.
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/limits.hpp"
#include "xfb/primitive_count.hpp"

#include <nlohmann/json.hpp>

namespace xfb {

nlohmann::ordered_json toJson(const Limits& limits);
nlohmann::ordered_json toJson(const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes, const CapturePlan& capture);
nlohmann::ordered_json toJson(const DrawDesc& draw, const CaptureCount& count);

} // namespace xfb
