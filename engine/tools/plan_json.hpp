#pragma once
// The JSON that xfb-inspect prints (documented in engine/tools/README.md; keep it stable).
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/limits.hpp"

#include <nlohmann/json.hpp>

namespace xfb::tools {

nlohmann::ordered_json toJson(const Limits& limits);
nlohmann::ordered_json toJson(const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes, const CapturePlan& capture);

} // namespace xfb::tools
