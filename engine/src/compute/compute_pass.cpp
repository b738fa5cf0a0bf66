#include "compute/compute_pass.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstring>

namespace xfb::detail {

#ifdef __EMSCRIPTEN__ // WebGL2 has no compute shaders: the pipeline keeps transform feedback.
std::unique_ptr<ComputePass> ComputePass::build(const ProgramState&, const PassPlan&, std::size_t,
                                                const Capabilities& caps, int, const EmitPlan&, int, const LiveCount*) {
    throw Error(ErrorCode::Unsupported, "the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+; this context is '" +
                                            caps.version +
                                            "' (WebGL2 has no compute shaders). Use the transform-feedback backend");
}
void ComputePass::dispatch(const ProgramState&, const std::vector<std::shared_ptr<BufferState>>&,
                           const std::vector<std::shared_ptr<BufferState>>&, GLuint) {}
void ComputePass::forget() {}
#else

void ComputePass::forget() {
    main.program.forget();
    counting.program.forget();
    totals.forget();
    for (auto& b : counts) b.forget();
    for (auto& b : firsts) b.forget();
    if (ordered) ordered->forget();
}

std::unique_ptr<ComputePass> ComputePass::build(const ProgramState& program, const PassPlan& plan,
                                                std::size_t entryCount, const Capabilities& caps,
                                                int requestedGroupSize, const EmitPlan& emits, int substeps,
                                                const LiveCount* live) {
    const std::string& label = program.desc.label;
    const CapturePlan& capture = live ? *live->capture : program.capture;
    if (!caps.compute)
        throw Error(ErrorCode::Unsupported,
                    "the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+; this context is '" + caps.version +
                        "'. Use the transform-feedback backend");
    int maxGroup = std::min(caps.maxComputeGroupSizeX, caps.maxComputeInvocations);
    int groupSize = requestedGroupSize > 0 ? requestedGroupSize : std::min(256, maxGroup);
    if (groupSize > maxGroup)
        throw Error(ErrorCode::InvalidArgument, "work-group size " + std::to_string(groupSize) +
                                                    " exceeds this device's limit of " + std::to_string(maxGroup) +
                                                    " (GL_MAX_COMPUTE_WORK_GROUP_SIZE / _INVOCATIONS)");
    auto pass = std::make_unique<ComputePass>();
    pass->enroll(program.device);
    pass->workGroupSize = groupSize;
    pass->emits = emits;
    // The single pass takes its tiles by ticket, one per group of a 1-D dispatch: past the x limit
    // the multi-pass path runs, its passes dispatched as rows.
    const std::int64_t groups = (plan.count + groupSize - 1) / groupSize;
    if (live && groups > caps.maxComputeGroupCountX)
        throw Error(
            ErrorCode::Unsupported,
            "program '" + label + "': a population of " + std::to_string(plan.count) + " elements needs " +
                std::to_string(groups) + " work groups of " + std::to_string(groupSize) +
                " in one indirect dispatch, over this device's " + std::to_string(caps.maxComputeGroupCountX) +
                " (GL_MAX_COMPUTE_WORK_GROUP_COUNT in x); give it a smaller capacity or a larger workGroupSize");
    bool singlePass = !emits.empty() && orderedEmitPath != OrderedEmitPath::MultiPass &&
                      groups <= caps.maxComputeGroupCountX &&
                      singlePassEmitUnsafe(emits, plan.count, groupSize).empty() &&
                      (orderedEmitPath == OrderedEmitPath::SinglePass || singlePassEmitByDefault(caps));
    const bool subgroupScan = singlePass && orderedEmitSubgroupScan && caps.subgroupArithmetic;
    pass->shader =
        translateToCompute(program.desc.source, program.desc.read, plan, capture, entryCount,
                           {caps.es, groupSize, &pass->emits, substeps, singlePass, subgroupScan, live != nullptr});
    if (singlePass && pass->shader.bindingCount > caps.maxComputeStorageBlocks) {
        // The single pass binds 3 buffers where the multi-pass path binds 2 per budget: with one
        // budget on a device at its storage-block limit, the multi-pass path may still fit.
        singlePass = false;
        pass->shader = translateToCompute(program.desc.source, program.desc.read, plan, capture, entryCount,
                                          {caps.es, groupSize, &pass->emits, substeps, false, false, live != nullptr});
    }
    if (pass->shader.bindingCount > caps.maxComputeStorageBlocks)
        throw Error(ErrorCode::Unsupported,
                    "program '" + label + "' needs " + std::to_string(pass->shader.bindingCount) +
                        " shader storage buffers in the compute backend but this device allows " +
                        std::to_string(caps.maxComputeStorageBlocks) + "; use the transform-feedback backend");
    pass->groups = GLuint(groups);
    pass->grid = gl::computeGrid(groups, caps.maxComputeGroupCountX, caps.maxComputeGroupCountY);
    pass->main.build(program, pass->shader.source, "the compute shader generated from '" + label + "'", plan.count);
    if (singlePass) {
        pass->ordered = std::make_unique<OrderedEmitState>(std::int64_t(pass->groups), emits.budgets.size());
        pass->totals = storageBuffer(emits.budgets.size() * kTotalsWords * 4);
    } else if (!emits.empty()) {
        pass->counting.build(program, pass->shader.countSource, "the count pass generated from '" + label + "'",
                             plan.count);
        // The scan's group size: the pass's, rounded down to a power of two (its shared-memory
        // loop doubles the stride), at most 256 (9 KB of shared memory; ES 3.1 guarantees 16).
        int scanGroup = 1;
        while (scanGroup * 2 <= std::min(groupSize, 256)) scanGroup *= 2;
        pass->scan = std::make_unique<PrefixScan>(plan.count, scanGroup, groupSize, caps.es, caps.maxComputeGroupCountX,
                                                  caps.maxComputeGroupCountY);
        pass->scan->enroll(program.device);
        for (std::size_t b = 0; b < emits.budgets.size(); ++b) {
            pass->counts.push_back(storageBuffer(std::uint64_t(plan.count) * 4));
            pass->firsts.push_back(storageBuffer(std::uint64_t(plan.count) * 4));
        }
        pass->totals = storageBuffer(emits.budgets.size() * kTotalsWords * 4);
    }
    gl::check(("building the compute backend of '" + label + "'").c_str());
    return pass;
}

void ComputePass::dispatch(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                           const std::vector<std::shared_ptr<BufferState>>& outputs, GLuint liveCount) {
    auto bindInputs = [&] {
        for (std::size_t e = 0; e < inputs.size(); ++e)
            if (int b = shader.readBinding[e]; b >= 0)
                XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), inputs[e]->name));
        if (liveCount)
            XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shader.liveBinding), liveCount));
    };
    if (ordered) {
        // The single pass: this step's look-back state, the next step's, the totals it writes.
        ordered->bind(shader.stateBinding, shader.nextStateBinding);
        XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shader.totalsBinding), totals));
    } else if (!emits.empty()) {
        // Counts, then each budget's prefix sum and totals: where every element's records start.
        counting.use(program);
        bindInputs();
        for (std::size_t b = 0; b < counts.size(); ++b)
            XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shader.countsBinding[b]), counts[b]));
        gl::dispatch(grid);
        XFB_GL_COUNTED(glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT));
        for (std::size_t b = 0; b < counts.size(); ++b)
            scan->run(counts[b], firsts[b], totals, int(b), emits.budgets[b].capacity);
        for (std::size_t b = 0; b < firsts.size(); ++b)
            XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(shader.firstBinding[b]), firsts[b]));
    }
    main.use(program);
    bindInputs();
    for (std::size_t e = 0; e < outputs.size(); ++e)
        if (int b = shader.writeBinding[e]; b >= 0)
            XFB_GL_COUNTED(glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(b), outputs[e]->name));
    // The single pass: one row of groups, one tile per ticket (its grid is 1-D there). A
    // population's: the groups of its live elements, from the GPU.
    if (liveCount) {
        XFB_GL_COUNTED(glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, liveCount));
        XFB_GL_COUNTED(glDispatchComputeIndirect(kLiveDispatchOffset));
        XFB_GL_COUNTED(glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0));
    } else {
        gl::dispatch(grid);
    }
    // Whoever reads next: vertex fetch (a draw or a transform-feedback step), transform feedback
    // writing over these buffers (a backend switch), the next dispatch, a readback, or an
    // indirect draw / dispatch of the emitted totals.
    XFB_GL_COUNTED(glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT |
                                   GL_TRANSFORM_FEEDBACK_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                                   GL_ELEMENT_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT));
}
#endif

} // namespace xfb::detail
