#include "population_passes.hpp"

#include "text.hpp"

namespace xfb::plan {

namespace {

int log2Of(int powerOfTwo) {
    int shift = 0;
    while ((1 << shift) < powerOfTwo) ++shift;
    return shift;
}

// The count texel after a step or a spawn, from `requested` (a uint expression).
std::string countPass(std::string_view version, const std::string& capacity, const std::string& declarations,
                      const std::string& requested) {
    return cat({version, "uniform highp usampler2D ", kCountsSampler, ";\n", declarations,
                "layout(location = 0) out highp uvec4 xfb_o0;\n"
                "uint xfb_saturated(uint a, uint b) { return a + min(b, 0xffffffffu - a); }\n"
                "void main() {\n    uvec4 xfb_before = texelFetch(",
                kCountsSampler, ", ivec2(0), 0);\n    uint xfb_requested = ", requested,
                ";\n    uint xfb_live = min(xfb_requested, ", capacity,
                ");\n    uint xfb_dropped = xfb_requested - xfb_live;\n"
                "    xfb_o0 = uvec4(xfb_live, xfb_requested, xfb_saturated(xfb_before.z, xfb_dropped), "
                "xfb_saturated(xfb_before.w, xfb_dropped));\n}\n"});
}

} // namespace

PopulationFragmentShaders populationFragmentShaders(std::string_view version, std::int64_t capacity, int width,
                                                    int rows, int topRow, int topComponent) {
    const std::string cap = cat({std::to_string(capacity), "u"});
    PopulationFragmentShaders s;
    s.step = countPass(version, cap, cat({"uniform highp usampler2D ", kTopSampler, ";\n"}),
                       cat({"texelFetch(", kTopSampler, ", ivec2(0, ", std::to_string(topRow), "), 0)[",
                            std::to_string(topComponent), "]"}));
    s.spawn = countPass(version, cap, cat({"uniform highp uint ", kSpawnedUniform, ";\n"}),
                        cat({"xfb_before.x + ", kSpawnedUniform}));
    s.spawnVertex =
        cat({version,
             "uniform highp usampler2D ",
             kCountsSampler,
             ";\nuniform highp uint ",
             kWordsUniform,
             ";\nlayout(location = 0) in highp uvec4 xfb_record;\nflat out highp uvec4 xfb_v;\nvoid main() {\n"
             "    uint xfb_slot = texelFetch(",
             kCountsSampler,
             ", ivec2(0), 0).x + uint(gl_VertexID);\n    xfb_v = xfb_record * uvec4(greaterThan(uvec4(",
             kWordsUniform,
             "), uvec4(0u, 1u, 2u, 3u)));\n    vec2 xfb_texel = vec2(float(xfb_slot & ",
             std::to_string(width - 1),
             "u), float(xfb_slot >> ",
             std::to_string(log2Of(width)),
             "u)) + 0.5;\n    gl_PointSize = 1.0;\n    gl_Position = xfb_slot < ",
             cap,
             " ? vec4(xfb_texel / vec2(",
             std::to_string(width),
             ".0, ",
             std::to_string(rows),
             ".0) * 2.0 - 1.0, 0.0, 1.0) : vec4(0.0, 0.0, 2.0, 1.0);\n}\n"});
    s.spawnFragment =
        cat({version, "flat in highp uvec4 xfb_v;\nlayout(location = 0) out highp uvec4 xfb_o0;\nvoid main() {\n"
                      "    xfb_o0 = xfb_v;\n}\n"});
    return s;
}

} // namespace xfb::plan
