#pragma once
// The plan of a simulation whose whole state is one interleaved buffer, for the tests of the
// passes built on it (fusion_plan_test, wgsl_translation_test).
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/shader_interface.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace xfbtest {

struct StatePlan {
    std::string source;
    xfb::CapturePlan capture;
    xfb::PassPlan pass;
};

/// One interleaved state entry of 8 elements, {input, output} with the same `layout` (every
/// input in declaration order), captured interleaved, planned with the portable limits.
inline StatePlan planState(const std::string& src, std::vector<xfb::VertexAttribute> layout) {
    using namespace xfb;
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, {CaptureMode::Interleaved}, Limits::portable());
    auto format = VertexFormat::interleaved(layout);
    std::uint64_t bytes = std::uint64_t(format.stride) * 8;
    std::vector<EntryDesc> entries{{BufferDesc{format, bytes}, BufferDesc{format, bytes}}};
    return {src, cap, planPass(attrs, cap, entries, std::int64_t(8))};
}

} // namespace xfbtest
