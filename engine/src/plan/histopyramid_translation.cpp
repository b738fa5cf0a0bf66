#include "histopyramid_translation.hpp"

#include "text.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {

PyramidLayout pyramidLayout(std::int64_t elements, int width, std::size_t budgets) {
    if (elements < 1 || width < 1 || (width & (width - 1)) || budgets < 1)
        throw Error(ErrorCode::InvalidArgument,
                    plan::cat({"pyramidLayout: ", std::to_string(elements), " elements, width ", std::to_string(width),
                               ", ", std::to_string(budgets),
                               " budgets; give 1 or more elements and budgets and a power-of-two width"}));
    PyramidLayout p;
    p.width = width;
    p.groups = int((budgets + 3) / 4);
    for (std::int64_t nodes = elements;; nodes = (nodes + 3) / 4) {
        const int atlas = int(p.levels.size() % 2);
        const int rows = int((nodes + width - 1) / width);
        p.levels.push_back({nodes, p.atlasRows[atlas], rows});
        p.atlasRows[atlas] += rows;
        if (nodes == 1) break;
    }
    p.atlasRows[1] = std::max(p.atlasRows[1], 1); // a texture even where one level has no odd partner
    return p;
}

std::string_view emittedDrawSnippet() {
    // A primitive is drawn whole or not at all: every vertex of one past the total goes to the same
    // point outside the clip volume (z = 2 > w), so nothing of it is rasterized, whatever the mode.
    // An indirect draw (after a compute step, .w = 1) draws the total's records only: all kept.
    static const std::string snippet =
        plan::cat({"uniform highp usampler2D ",
                   plan::kEmittedTotalsUniform,
                   ";\n",
                   "uniform highp ivec4 ",
                   plan::kEmittedAtUniform,
                   ";\n",
                   "vec4 xfb_emittedPosition(vec4 position) {\n",
                   "    uint total = texelFetch(",
                   plan::kEmittedTotalsUniform,
                   ", ivec2(0, ",
                   plan::kEmittedAtUniform,
                   ".x), 0)[",
                   plan::kEmittedAtUniform,
                   ".y];\n",
                   "    int per = ",
                   plan::kEmittedAtUniform,
                   ".z;\n",
                   "    return ",
                   plan::kEmittedAtUniform,
                   ".w != 0 || uint((gl_VertexID / per + 1) * per) <= total ? position : ",
                   "vec4(0.0, 0.0, 2.0, 1.0);\n",
                   "}\n"});
    return snippet;
}

namespace plan {

namespace {

int log2Of(int powerOfTwo) {
    int shift = 0;
    while ((1 << shift) < powerOfTwo) ++shift;
    return shift;
}

std::string u(std::int64_t v) { return cat({std::to_string(v), "u"}); }

// The texel of node `j` (a uint expression) of `level`.
std::string nodeTexel(const PyramidLayout& p, const PyramidLayout::Level& level, const std::string& j) {
    return cat({"ivec2(int(", j, " & ", u(p.width - 1), "), ", std::to_string(level.firstRow), " + int(", j, " >> ",
                std::to_string(log2Of(p.width)), "))"});
}

// The clamped count of a budget, as the compute translation takes it: 0..maxRecords.
std::string clampedCount(const EmitBudgetPlan& b) {
    const std::string max = std::to_string(b.maxRecords);
    return b.kind == ScalarKind::UInt ? cat({"min(", b.count, ", ", max, "u)"})
                                      : cat({"uint(clamp(", b.count, ", 0, ", max, "))"});
}

std::string outputs(int n) {
    std::string s;
    for (int j = 0; j < n; ++j) {
        const std::string k = std::to_string(j);
        cat(s, {"layout(location = ", k, ") out highp uvec4 xfb_o", k, ";\n"});
    }
    return s;
}

std::string countPass(const FragmentPrelude& prelude, const EmitPlan& emits, int groups, bool liveCount) {
    std::string main = cat({"void main() {\n", prelude.elementAtFragment});
    for (int g = 0; g < groups; ++g) cat(main, {"    uvec4 xfb_c", std::to_string(g), " = uvec4(0u);\n"});
    // A population's slots at or past its live count (a texel on the GPU: kLiveCountSampler) count
    // 0 without running.
    cat(main, {"    if (xfb_e < ", liveCount ? "min(xfb_count, texelFetch(xfb_live, ivec2(0), 0).x)" : "xfb_count",
               ") {\n        xfb_run(xfb_e);\n"});
    for (int g = 0; g < groups; ++g) {
        std::string counts;
        for (int c = 0; c < 4; ++c) {
            const std::size_t b = std::size_t(4 * g + c);
            cat(counts, {c ? ", " : "", b < emits.budgets.size() ? clampedCount(emits.budgets[b]) : "0u"});
        }
        cat(main, {"        xfb_c", std::to_string(g), " = uvec4(", counts, ");\n"});
    }
    main += "    }\n";
    for (int g = 0; g < groups; ++g) cat(main, {"    xfb_o", std::to_string(g), " = xfb_c", std::to_string(g), ";\n"});
    return cat({prelude.code, liveCount ? "uniform highp usampler2D xfb_live;\n" : "", outputs(groups), main, "}\n"});
}

// Level `l` from level l - 1: node j sums nodes 4j .. 4j + 3 below (those that exist).
std::string reducePass(const FragmentPrelude& prelude, const PyramidLayout& p, std::size_t l) {
    const auto& level = p.levels[l];
    const auto& below = p.levels[l - 1];
    std::string s(prelude.version);
    for (int g = 0; g < p.groups; ++g) cat(s, {"uniform highp usampler2D xfb_below", std::to_string(g), ";\n"});
    cat(s, {outputs(p.groups), "void main() {\n    uint xfb_j = ((uint(gl_FragCoord.y) - ", u(level.firstRow), ") << ",
            std::to_string(log2Of(p.width)), ") | uint(gl_FragCoord.x);\n"});
    for (int g = 0; g < p.groups; ++g) cat(s, {"    uvec4 xfb_s", std::to_string(g), " = uvec4(0u);\n"});
    cat(s, {"    for (uint xfb_k = 4u * xfb_j; xfb_k < min(4u * xfb_j + 4u, ", u(below.nodes), "); ++xfb_k) {\n"});
    for (int g = 0; g < p.groups; ++g)
        cat(s, {"        xfb_s", std::to_string(g), " += texelFetch(xfb_below", std::to_string(g), ", ",
                nodeTexel(p, below, "xfb_k"), ", 0);\n"});
    s += "    }\n";
    for (int g = 0; g < p.groups; ++g) cat(s, {"    xfb_o", std::to_string(g), " = xfb_s", std::to_string(g), ";\n"});
    return s + "}\n";
}

// Word c of record xfb_k of an emitted output, as uint bits.
std::string recordWord(const EmitOutputPlan& out, int c) {
    if (c >= out.type.rows) return "0u";
    const std::string expr =
        cat({out.varying, "[xfb_k]", out.type.rows > 1 ? cat({"[", std::to_string(c), "]"}) : std::string()});
    return out.type.kind == ScalarKind::Float ? cat({"floatBitsToUint(", expr, ")"}) : cat({"uint(", expr, ")"});
}

std::string gatherPass(const FragmentPrelude& prelude, const EmitPlan& emits, const PyramidLayout& p, int budget,
                       const std::vector<int>& written) {
    const EmitBudgetPlan& b = emits.budgets[std::size_t(budget)];
    const std::string component = cat({"[", std::to_string(budget % 4), "]"});
    auto atlas = [](std::size_t level) { return cat({"xfb_pyramid", std::to_string(level % 2)}); };
    const std::size_t top = p.levels.size() - 1;
    const int T = prelude.width;
    std::string main = cat({"void main() {\n    uint xfb_r = (uint(gl_FragCoord.y) << ", std::to_string(log2Of(T)),
                            ") | uint(gl_FragCoord.x);\n",
                            // Past the written records: nothing written, the buffer keeps its bytes (as on compute).
                            "    if (xfb_r >= min(", u(b.capacity), ", texelFetch(", atlas(top), ", ",
                            nodeTexel(p, p.levels[top], "0u"), ", 0)", component, ")) discard;\n",
                            "    uint xfb_left = xfb_r, xfb_node = 0u;\n"});
    // Down from the top: the child holding record xfb_left, those before it skipped (input order).
    for (std::size_t l = top; l > 0; --l)
        cat(main,
            {"    xfb_node *= 4u;\n    for (int xfb_c = 0; xfb_c < 3; ++xfb_c) {\n        uint xfb_n = texelFetch(",
             atlas(l - 1), ", ", nodeTexel(p, p.levels[l - 1], "xfb_node"), ", 0)", component,
             ";\n        if (xfb_left < xfb_n) break;\n        xfb_left -= xfb_n;\n        ++xfb_node;\n    }\n"});
    cat(main, {"    xfb_uv = (vec2(float(xfb_node & ", u(T - 1), "), float(xfb_node >> ", std::to_string(log2Of(T)),
               ")) + 0.5) / vec2(", std::to_string(T), ".0, ", std::to_string(prelude.rows),
               ".0);\n    xfb_run(xfb_node);\n    uint xfb_k = xfb_left;\n"});
    for (std::size_t j = 0; j < written.size(); ++j) {
        const EmitOutputPlan& out = emits.outputs[std::size_t(written[j])];
        cat(main, {"    xfb_o", std::to_string(j), " = uvec4(", recordWord(out, 0), ", ", recordWord(out, 1), ", ",
                   recordWord(out, 2), ", ", recordWord(out, 3), ");\n"});
    }
    return cat({prelude.code, "uniform highp usampler2D xfb_pyramid0;\nuniform highp usampler2D xfb_pyramid1;\n",
                outputs(int(written.size())), main, "}\n"});
}

} // namespace

EmitFragmentPasses emitFragmentPasses(const FragmentPrelude& prelude, const EmitPlan& emits, std::int64_t count,
                                      int maxDrawBuffers, bool liveCount) {
    EmitFragmentPasses passes;
    if (emits.empty()) return passes;
    passes.pyramid = pyramidLayout(std::max<std::int64_t>(count, 1), prelude.width, emits.budgets.size());
    const PyramidLayout& p = passes.pyramid;
    if (p.groups > maxDrawBuffers)
        throw Error(ErrorCode::Unsupported,
                    cat({std::to_string(emits.budgets.size()), " emitted budgets need ", std::to_string(p.groups),
                         " RGBA32UI pyramid textures written by one pass in the fragment backend, over this "
                         "context's ",
                         std::to_string(maxDrawBuffers),
                         " draw buffers (GL_MAX_DRAW_BUFFERS); share count outputs between emitted outputs or use "
                         "the compute backend"}));
    for (const auto& o : emits.outputs)
        passes.outputLayouts.push_back(planeLayout(o.stride, o.capacity, prelude.width));
    passes.count = countPass(prelude, emits, p.groups, liveCount);
    for (std::size_t l = 1; l < p.levels.size(); ++l) passes.reduce.push_back(reducePass(prelude, p, l));
    for (std::size_t b = 0; b < emits.budgets.size(); ++b) {
        const auto& outs = emits.budgets[b].outputs;
        for (std::size_t first = 0; first < outs.size(); first += std::size_t(maxDrawBuffers)) {
            EmitFragmentPasses::Gather g;
            g.budget = int(b);
            g.outputs.assign(outs.begin() + std::ptrdiff_t(first),
                             outs.begin() + std::ptrdiff_t(std::min(outs.size(), first + std::size_t(maxDrawBuffers))));
            g.source = gatherPass(prelude, emits, p, int(b), g.outputs);
            passes.gathers.push_back(std::move(g));
        }
    }
    return passes;
}

} // namespace plan
} // namespace xfb
