#include "xfb/compute_translation.hpp"

#include "compute_index.hpp"
#include "translated_source.hpp"
#include "xfb/error.hpp"

#include <map>

namespace xfb {
namespace {

// How one SSBO is viewed: as uvec4[] when every access is 4 aligned words (vectorised), else uint[].
struct BufferView {
    int binding;
    bool readOnly;
    bool vec4 = true;
};

} // namespace

ComputeShader translateToCompute(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                 const CapturePlan& capture, std::size_t entryCount,
                                 const ComputeTranslationOptions& options) {
    if (options.workGroupSize <= 0) throw Error(ErrorCode::InvalidArgument, "work-group size must be > 0");
    const plan::TranslatedSource translated =
        plan::translateSource(vertexSource, read, pass, capture, options.substeps,
                              options.emits && !options.emits->empty(), "compute shader");
    const plan::PreprocessedSource& pre = translated.pre;
    const bool substepDeclared = translated.substepDeclared;

    ComputeShader result;
    result.readBinding.assign(entryCount, -1);
    result.writeBinding.assign(entryCount, -1);
    std::map<int, BufferView> views; // binding -> view
    for (const auto& a : pass.attributes) {
        int& b = result.readBinding[std::size_t(a.entry)];
        if (b < 0) {
            b = result.bindingCount++;
            views[b] = {b, true};
        }
        bool aligned = a.componentsPerLocation == 4 && a.stride % 16 == 0 && a.offset % 16 == 0;
        views[b].vec4 = views[b].vec4 && aligned;
    }
    for (const auto& o : pass.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)] = result.bindingCount++;
        views[b] = {b, false};
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields)
            views[b].vec4 = views[b].vec4 && f.components % 4 == 0 && f.offset % 16 == 0 && o.stride % 16 == 0;
    }
    const EmitPlan noEmits;
    const EmitPlan& emits = options.emits ? *options.emits : noEmits;
    for (const auto& o : emits.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)] = result.bindingCount++;
        views[b] = {b, false, o.type.components() == 4};
    }
    const bool singlePass = options.singlePassEmit && !emits.empty();
    if (options.liveCount) result.liveBinding = result.bindingCount++;
    if (singlePass) {
        result.stateBinding = result.bindingCount++;
        result.nextStateBinding = result.bindingCount++;
        result.totalsBinding = result.bindingCount++;
    } else {
        for (std::size_t k = 0; k < emits.budgets.size(); ++k) {
            result.countsBinding.push_back(result.bindingCount++);
            result.firstBinding.push_back(result.bindingCount++);
        }
    }

    // Header: version, re-emitted directives, work group, buffers, the renamed builtins.
    std::string header = options.es ? "#version 310 es\n" : "#version 430\n";
    for (const auto& d : pre.passThrough) header += d + "\n";
    if (singlePass && options.subgroupScan)
        header +=
            "#extension GL_KHR_shader_subgroup_basic : require\n#extension GL_KHR_shader_subgroup_ballot : require\n"
            "#extension GL_KHR_shader_subgroup_arithmetic : require\n";
    header += "layout(local_size_x = " + std::to_string(options.workGroupSize) + ") in;\n";
    if (options.es) header += "precision highp float;\nprecision highp int;\n";
    for (const auto& [b, v] : views) {
        std::string n = std::to_string(b);
        header += "layout(std430, binding = " + n + ") " + (v.readOnly ? "readonly" : "writeonly") +
                  " buffer xfb_buffer" + n + " { " + (v.vec4 ? "uvec4" : "uint") + " xfb_b" + n + "[]; };\n";
    }
    std::string countHeader, writeHeader, orderedHeader;
    for (std::size_t k = 0; k < result.countsBinding.size(); ++k) {
        std::string n = std::to_string(k);
        countHeader += "layout(std430, binding = " + std::to_string(result.countsBinding[k]) +
                       ") writeonly buffer xfb_counts" + n + " { uint xfb_emitted" + n + "[]; };\n";
        writeHeader += "layout(std430, binding = " + std::to_string(result.firstBinding[k]) +
                       ") readonly buffer xfb_firsts" + n + " { uint xfb_first" + n + "[]; };\n";
    }
    header += "uniform uint xfb_count;\n" + std::string(plan::kRenamedBuiltins);
    // The elements a pass runs: all of them, or a population's live ones (counted on the GPU).
    const std::string elements = options.liveCount ? "xfb_live_count" : "xfb_count";
    if (options.liveCount)
        header += "layout(std430, binding = " + std::to_string(result.liveBinding) +
                  ") readonly buffer xfb_live_block { uint xfb_live_count; };\n";

    // main(): load inputs, run the user's main, store the captured varyings.
    // Word `offsetWord` of element xfb_i in a buffer of `strideWords`; constant parts folded here.
    // A uvec4 view is addressed in whole vec4s: the compiler emits one 128-bit access.
    auto element = [&](int binding, int strideWords, int offsetWord, const std::string& index = "xfb_i") {
        std::string b = "xfb_b" + std::to_string(binding);
        if (views.at(binding).vec4)
            return b + "[" + index + " * " + std::to_string(strideWords / 4) + "u + " + std::to_string(offsetWord / 4) +
                   "u]";
        return b + "[" + index + " * " + std::to_string(strideWords) + "u + " + std::to_string(offsetWord) + "u]";
    };
    // The element's work: load its inputs, run the user's main.
    plan::WordLoader load;
    load.word = [&](const AttributeBinding& a, int w) {
        return element(result.readBinding[std::size_t(a.entry)], a.stride / 4, w);
    };
    load.quad = [&](const AttributeBinding& a, int w) {
        const int binding = result.readBinding[std::size_t(a.entry)];
        return views.at(binding).vec4 ? element(binding, a.stride / 4, w) : std::string();
    };
    std::string zeroFunctions;
    const std::string work = plan::elementWork(translated, pass, capture, load, zeroFunctions);
    // Per budget: the element's count, clamped to 0..maxRecords.
    auto clampedCount = [&](const EmitBudgetPlan& b) {
        std::string max = std::to_string(b.maxRecords);
        return b.kind == ScalarKind::UInt ? "min(" + b.count + ", " + max + "u)"
                                          : "uint(clamp(" + b.count + ", 0, " + max + "))";
    };
    const std::string flatIndex = "\nvoid main() {\n    uint xfb_i = " + std::string(plan::kFlatWorkGroup) +
                                  " * gl_WorkGroupSize.x + gl_LocalInvocationID.x;\n";
    const std::string multiPassPrologue =
        flatIndex + "    if (xfb_i >= " + elements + ") return;\n    xfb_vertex_id = int(xfb_i);\n";
    // A population's count pass runs over the capacity: the slots past the live count count 0.
    std::string deadSlots;
    if (options.liveCount) {
        deadSlots = "    if (xfb_i >= xfb_count) return;\n    if (xfb_i >= xfb_live_count) {\n";
        for (std::size_t k = 0; k < emits.budgets.size(); ++k)
            deadSlots += "        xfb_emitted" + std::to_string(k) + "[xfb_i] = 0u;\n";
        deadSlots += "        return;\n    }\n    xfb_vertex_id = int(xfb_i);\n";
    }
    std::string countMain = (options.liveCount ? flatIndex + deadSlots : multiPassPrologue) + work;
    for (std::size_t k = 0; k < emits.budgets.size(); ++k)
        countMain += "    xfb_emitted" + std::to_string(k) + "[xfb_i] = " + clampedCount(emits.budgets[k]) + ";\n";
    countMain += "}\n";
    // The captured varyings, stored at the element's offsets.
    std::string stores;
    for (const auto& o : pass.outputs) {
        int binding = result.writeBinding[std::size_t(o.entry)];
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields) {
            auto bits = [&](int c) { return plan::capturedWordBits(capture, f, c); };
            bool vec4 = views.at(binding).vec4;
            for (int c = 0; c < f.components; c += vec4 ? 4 : 1) {
                std::string value =
                    vec4 ? "uvec4(" + bits(c) + ", " + bits(c + 1) + ", " + bits(c + 2) + ", " + bits(c + 3) + ")"
                         : bits(c);
                stores += "    " + element(binding, o.stride / 4, f.offset / 4 + c) + " = " + value + ";\n";
            }
        }
    }
    // Emitted records: k-th record of the element at first + k, in input order, within capacity.
    auto records = [&](std::size_t k, const std::string& count, const std::string& first) {
        const EmitBudgetPlan& b = emits.budgets[k];
        std::string loop = "    for (uint xfb_k = 0u, xfb_n = " + count + ", xfb_r = " + first +
                           "; xfb_k < xfb_n && xfb_r + xfb_k < " + std::to_string(b.capacity) + "u; ++xfb_k) {\n";
        for (int o : b.outputs) {
            const EmitOutputPlan& out = emits.outputs[std::size_t(o)];
            int binding = result.writeBinding[std::size_t(out.entry)];
            int rows = out.type.rows;
            auto bits = [&](int c) {
                std::string expr = out.varying + "[xfb_k]" + (rows > 1 ? "[" + std::to_string(c) + "]" : "");
                return out.type.kind == ScalarKind::Float ? "floatBitsToUint(" + expr + ")" : "uint(" + expr + ")";
            };
            bool vec4 = views.at(binding).vec4;
            for (int c = 0; c < rows; c += vec4 ? 4 : 1) {
                std::string value =
                    vec4 ? "uvec4(" + bits(c) + ", " + bits(c + 1) + ", " + bits(c + 2) + ", " + bits(c + 3) + ")"
                         : bits(c);
                loop += "        " + element(binding, out.stride / 4, c, "(xfb_r + xfb_k)") + " = " + value + ";\n";
            }
        }
        return loop + "    }\n";
    };
    std::string main;
    if (singlePass) {
        // One pass (ComputeTranslationOptions::singlePassEmit): tiles in ticket order, each scans
        // its counts in shared memory and takes its offset from its predecessors' published
        // status words (decoupled look-back); the last tile writes the totals.
        const std::string G = std::to_string(options.workGroupSize);
        const std::size_t budgets = emits.budgets.size();
        const std::string B = std::to_string(budgets);
        // The subgroup scan (options.subgroupScan) sums the tile's totals from its subgroups';
        // the shared-memory scan adds them up with shared atomics from zero.
        const bool subgroups = options.subgroupScan;
        std::string zeroTotals;
        for (std::size_t k = 0; k < budgets && !subgroups; ++k)
            zeroTotals += "        xfb_total" + std::to_string(k) + " = 0u;\n";
        main = "\nvoid main() {\n"
               "    uint xfb_l = gl_LocalInvocationID.x;\n"
               "    if (xfb_l == 0u) {\n        xfb_tile = atomicAdd(xfb_ticket, 1u);\n" +
               zeroTotals +
               "    }\n"
               "    memoryBarrierShared();\n    barrier();\n"
               // The element index comes from the ticket, not gl_WorkGroupID: every tile before this one has started.
               "    uint xfb_t = xfb_tile, xfb_i = xfb_t * " +
               G +
               "u + xfb_l;\n"
               "    bool xfb_live = xfb_i < " +
               elements +
               ";\n"
               // The next step's ticket and this tile's status words there: that state is not in use in this step.
               // A population's next step may run more tiles than this one: the tiles of the capacity
               // are cleared between this step's, tile t clearing t, t + tiles, t + 2 tiles, ...
               "    if (xfb_l == 0u) {\n"
               "        if (xfb_t == 0u) xfb_next_ticket = 0u;\n" +
               (options.liveCount
                    ? "        for (uint xfb_u = xfb_t, xfb_tiles = max((xfb_live_count + " + G + "u - 1u) / " + G +
                          "u, 1u); xfb_u < (xfb_count + " + G + "u - 1u) / " + G + "u; xfb_u += xfb_tiles)\n    "
                    : std::string()) +
               "        for (uint xfb_b = 0u; xfb_b < " + B + "u; ++xfb_b) xfb_next_status[" +
               (options.liveCount ? "xfb_u" : "xfb_t") + " * " + B +
               "u + xfb_b] = 0u;\n"
               "    }\n";
        std::string counts = "    if (xfb_live) {\n        xfb_vertex_id = int(xfb_i);\n";
        for (std::size_t p = 0; p < work.size();) { // indent the element's work one level
            std::size_t e = work.find('\n', p);
            counts += "    " + work.substr(p, e + 1 - p);
            p = e + 1;
        }
        for (std::size_t p = 0; p < stores.size();) {
            std::size_t e = stores.find('\n', p);
            counts += "    " + stores.substr(p, e + 1 - p);
            p = e + 1;
        }
        counts += "    }\n";
        main += counts;
        // The tile's total per budget, published before the look-back so that the chain of
        // look-backs never waits for a tile's scan: from shared atomics, or with subgroups from
        // each subgroup's inclusive scan (its last invocation's value, one shared word per
        // subgroup), which is then the whole scan but for adding the subgroups before it.
        std::string step1, step2;
        if (subgroups) main += "    uint xfb_top = subgroupBallotFindMSB(subgroupBallot(true));\n";
        for (std::size_t k = 0; k < budgets; ++k) {
            std::string n = std::to_string(k);
            main += "    uint xfb_c" + n + " = xfb_live ? " + clampedCount(emits.budgets[k]) + " : 0u;\n";
            if (subgroups)
                main += "    uint xfb_s" + n + " = subgroupInclusiveAdd(xfb_c" + n +
                        ");\n    if (gl_SubgroupInvocationID == xfb_top) xfb_scan" + n + "[gl_SubgroupID] = xfb_s" + n +
                        ";\n";
            else
                main += "    xfb_scan" + n + "[xfb_l] = xfb_c" + n + ";\n    if (xfb_c" + n +
                        " != 0u) atomicAdd(xfb_total" + n + ", xfb_c" + n + ");\n";
            step1 += "        uint xfb_a" + n + " = xfb_l >= xfb_d ? xfb_scan" + n + "[xfb_l - xfb_d] : 0u;\n";
            step2 += "        xfb_scan" + n + "[xfb_l] += xfb_a" + n + ";\n";
        }
        main += "    memoryBarrierShared();\n    barrier();\n";
        // The last tile writes the totals; a population with no live element runs one tile, the last.
        main += options.liveCount
                    ? "    uint xfb_last = max((xfb_live_count + " + G + "u - 1u) / " + G + "u, 1u) - 1u;\n"
                    : "    uint xfb_last = (xfb_count + " + G + "u - 1u) / " + G + "u - 1u;\n";
        if (subgroups) {
            // The subgroups before this one, then subgroup 0 alone publishes the aggregates and
            // looks back, a window of one predecessor per invocation, without barriers: the
            // nearest inclusive prefix by ballot, the values up to it by subgroupAdd.
            std::string aggregates = "        if (subgroupElect()) {\n", lookBack;
            for (std::size_t k = 0; k < budgets; ++k) {
                const std::string n = std::to_string(k), total = "xfb_before" + n + " + xfb_sum" + n;
                main += "    for (uint xfb_g = 0u; xfb_g < gl_SubgroupID; ++xfb_g) xfb_s" + n + " += xfb_scan" + n +
                        "[xfb_g];\n";
                aggregates = "        uint xfb_sum" + n +
                             " = 0u;\n        for (uint xfb_g = 0u; xfb_g < gl_NumSubgroups; ++xfb_g) xfb_sum" + n +
                             " += xfb_scan" + n + "[xfb_g];\n" + aggregates + "            xfb_publish(xfb_t, " + n +
                             "u, xfb_t == 0u ? XFB_PREFIX : XFB_AGGREGATE, xfb_sum" + n + ");\n";
                lookBack += "        uint xfb_before" + n +
                            " = 0u;\n"
                            "        for (uint xfb_j = xfb_t; xfb_j > 0u;) {\n"
                            "            uint xfb_at = (xfb_j - 1u - gl_SubgroupInvocationID) * " +
                            B + "u + " + n +
                            "u;\n"
                            "            uint xfb_w = gl_SubgroupInvocationID < xfb_j ? atomicAdd(xfb_status[xfb_at], "
                            "0u) : XFB_PREFIX;\n"
                            "            while (subgroupBallot(xfb_w == 0u) != uvec4(0u))\n"
                            "                if (xfb_w == 0u) xfb_w = atomicAdd(xfb_status[xfb_at], 0u);\n"
                            "            uvec4 xfb_p = subgroupBallot(xfb_w >= XFB_PREFIX);\n"
                            "            bool xfb_found = subgroupBallotBitCount(xfb_p) != 0u;\n"
                            "            uint xfb_near = xfb_found ? subgroupBallotFindLSB(xfb_p) : gl_SubgroupSize;\n"
                            "            xfb_before" +
                            n +
                            " += subgroupAdd(gl_SubgroupInvocationID <= xfb_near ? xfb_w & XFB_VALUE : 0u);\n"
                            "            xfb_j = xfb_found ? 0u : xfb_j - gl_SubgroupSize;\n"
                            "        }\n"
                            "        if (subgroupElect()) {\n"
                            "            xfb_base" +
                            n + " = xfb_before" + n +
                            ";\n"
                            "            if (xfb_t != 0u) xfb_publish(xfb_t, " +
                            n + "u, XFB_PREFIX, " + total +
                            ");\n"
                            "            if (xfb_t == xfb_last) xfb_write_totals(" +
                            n + "u, " + total + ", " + std::to_string(emits.budgets[k].capacity) +
                            "u);\n"
                            "        }\n";
            }
            main += "    if (gl_SubgroupID == 0u) {\n" + aggregates + "        }\n" + lookBack + "    }\n";
        }
        // One invocation publishes the tile's aggregates; then per budget the group looks back in
        // windows of W predecessors read at once (one memory latency for W tiles), one invocation
        // walks each window, and publishes the inclusive prefix.
        const std::string W = std::to_string(std::min(32, options.workGroupSize));
        if (!subgroups) main += "    if (xfb_l == 0u) {\n";
        for (std::size_t k = 0; k < budgets && !subgroups; ++k) {
            std::string n = std::to_string(k);
            main += "        xfb_publish(xfb_t, " + n + "u, xfb_t == 0u ? XFB_PREFIX : XFB_AGGREGATE, xfb_total" + n +
                    ");\n";
        }
        if (!subgroups) main += "    }\n";
        for (std::size_t k = 0; k < budgets && !subgroups; ++k) {
            const EmitBudgetPlan& b = emits.budgets[k];
            std::string n = std::to_string(k), total = "xfb_base" + n + " + xfb_total" + n;
            main += "    memoryBarrierShared();\n    barrier();\n"
                    "    if (xfb_l == 0u) {\n        xfb_walk[0] = xfb_t;\n        xfb_walk[1] = 0u;\n    }\n"
                    "    memoryBarrierShared();\n    barrier();\n"
                    "    while (xfb_walk[0] > 0u) {\n"
                    "        uint xfb_j = xfb_walk[0];\n"
                    "        if (xfb_l < " +
                    W + "u) xfb_window[xfb_l] = xfb_l < xfb_j ? atomicAdd(xfb_status[(xfb_j - 1u - xfb_l) * " + B +
                    "u + " + n +
                    "u], 0u) : XFB_PREFIX;\n"
                    "        memoryBarrierShared();\n        barrier();\n"
                    "        if (xfb_l == 0u) xfb_walk_window(" +
                    n +
                    "u, xfb_j);\n"
                    "        memoryBarrierShared();\n        barrier();\n"
                    "    }\n"
                    "    if (xfb_l == 0u) {\n"
                    "        xfb_base" +
                    n +
                    " = xfb_walk[1];\n"
                    "        if (xfb_t != 0u) xfb_publish(xfb_t, " +
                    n + "u, XFB_PREFIX, " + total +
                    ");\n"
                    "        if (xfb_t == xfb_last) xfb_write_totals(" +
                    n + "u, " + total + ", " + std::to_string(b.capacity) +
                    "u);\n"
                    "    }\n";
        }
        // Without subgroups: the inclusive scan of each budget's counts over the tile
        // (Hillis-Steele in shared memory, every budget per step).
        if (!subgroups)
            main += "    for (uint xfb_d = 1u; xfb_d < " + G + "u; xfb_d <<= 1u) {\n" + step1 +
                    "        memoryBarrierShared();\n        barrier();\n" + step2 +
                    "        memoryBarrierShared();\n        barrier();\n    }\n";
        main += "    memoryBarrierShared();\n    barrier();\n    if (!xfb_live) return;\n";
        for (std::size_t k = 0; k < budgets; ++k) {
            std::string n = std::to_string(k);
            main += records(k, "xfb_c" + n,
                            "xfb_base" + n + " + " + (subgroups ? "xfb_s" + n : "xfb_scan" + n + "[xfb_l]") +
                                " - xfb_c" + n);
        }
        main += "}\n";
        std::string spinReads;
        constexpr int kSpinReads = 64;
        for (int r = 0; r < kSpinReads; ++r)
            spinReads +=
                "            if (word == 0u) word = atomicAdd(xfb_status[(j - 1u - i) * " + B + "u + budget], 0u);\n";
        // Status word of (tile, budget): 2 bits of state, 30 bits of value, one atomic for both.
        orderedHeader = "layout(std430, binding = " + std::to_string(result.stateBinding) +
                        ") buffer xfb_state { uint xfb_ticket; uint xfb_status[]; };\n"
                        "layout(std430, binding = " +
                        std::to_string(result.nextStateBinding) +
                        ") writeonly buffer xfb_next_state { uint xfb_next_ticket; uint xfb_next_status[]; };\n"
                        "layout(std430, binding = " +
                        std::to_string(result.totalsBinding) +
                        ") writeonly buffer xfb_totals { uint xfb_totals_words[]; };\n"
                        "shared uint xfb_tile;\nshared uint xfb_window[" +
                        W + "];\nshared uint xfb_walk[2];\n";
        for (std::size_t k = 0; k < budgets; ++k)
            orderedHeader += "shared uint xfb_scan" + std::to_string(k) + "[" + G + "];\nshared uint xfb_base" +
                             std::to_string(k) + ", xfb_total" + std::to_string(k) + ";\n";
        orderedHeader +=
            "const uint XFB_AGGREGATE = 1u << 30, XFB_PREFIX = 2u << 30, XFB_VALUE = (1u << 30) - 1u;\n"
            "void xfb_publish(uint tile, uint budget, uint state, uint value) { atomicExchange(xfb_status[tile * " +
            B +
            "u + budget], state | value); }\n"
            // Walks one window of predecessors, nearest first, adding their values up
            // to the first inclusive prefix (entries before tile 0 read as prefix 0).
            // A word still 0 belongs to a tile that has taken its ticket: it will
            // publish, so it is read again until it has. Mesa's llvmpipe ends all loops
            // of an invocation after 65535 iterations in all (one shared guard): each
            // iteration reads up to kSpinReads times, so that a wait lasts that much longer.
            "void xfb_walk_window(uint budget, uint j) {\n"
            "    uint sum = xfb_walk[1];\n"
            "    for (uint i = 0u; i < " +
            W +
            "u; ++i) {\n"
            "        uint word = xfb_window[i];\n"
            "        while (word == 0u) {\n" +
            spinReads +
            "        }\n"
            "        sum += word & XFB_VALUE;\n"
            "        if (word >= XFB_PREFIX) {\n"
            "            xfb_walk[0] = 0u;\n"
            "            xfb_walk[1] = sum;\n"
            "            return;\n"
            "        }\n"
            "    }\n"
            "    xfb_walk[0] = j - " +
            W +
            "u;\n"
            "    xfb_walk[1] = sum;\n"
            "}\n"
            // The budget's indirect commands and totals (gl/prefix_scan.hpp, kTotalsWords).
            "void xfb_write_totals(uint budget, uint requested, uint capacity) {\n"
            "    uint written = min(requested, capacity), o = budget * 8u;\n"
            "    xfb_totals_words[o] = written;\n    xfb_totals_words[o + 1u] = 1u;\n"
            "    xfb_totals_words[o + 2u] = 0u;\n    xfb_totals_words[o + 3u] = 0u;\n"
            "    xfb_totals_words[o + 4u] = (written + " +
            G + "u - 1u) / " + G +
            "u;\n"
            "    xfb_totals_words[o + 5u] = 1u;\n    xfb_totals_words[o + 6u] = 1u;\n"
            "    xfb_totals_words[o + 7u] = requested;\n"
            "}\n";
    } else {
        main = multiPassPrologue + work + stores;
        for (std::size_t k = 0; k < emits.budgets.size(); ++k)
            main += records(k, clampedCount(emits.budgets[k]), "xfb_first" + std::to_string(k) + "[xfb_i]");
        main += "}\n";
    }
    if (substepDeclared) header += "int xfb_substep;\n";
    result.source = header + (singlePass ? orderedHeader : writeHeader) + "#line 1\n" + translated.body + "\n" +
                    zeroFunctions + main;
    if (!emits.empty() && !singlePass)
        result.countSource = header + countHeader + "#line 1\n" + translated.body + "\n" + zeroFunctions + countMain;
    return result;
}

} // namespace xfb
