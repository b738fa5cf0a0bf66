#pragma once
// Internal: the compute backend of a Pipeline (native GL 4.3+ / ES 3.1+). The compute shader is
// generated from the Program's vertex shader (xfb::translateToCompute) for this pipeline's
// buffer layout; uniforms are the Program's values, uploaded to this program's locations.
// With emitted outputs a step is one pass with a decoupled look-back (ordered_emit.hpp) where
// that is safe, else the count pass, a prefix sum per budget (prefix_scan.hpp), then the main
// pass; either writes the fixed outputs and the records in input order.
#include "gl/compute_grid.hpp"
#include "gl/compute_kernel.hpp"
#include "compute/ordered_emit.hpp"
#include "gl/prefix_scan.hpp"
#include "gl/state.hpp"
#include "xfb/compute_translation.hpp"

#include <map>
#include <memory>
#include <string>

namespace xfb::detail {

/// Where a live-count buffer (ComputePass::dispatch) holds its DispatchIndirectCommand.
constexpr GLintptr kLiveDispatchOffset = 16;

struct ComputePass final : Recoverable {
    ComputeKernel main, counting; // counting: only with emitted outputs on the multi-pass path
    ComputeShader shader;
    EmitPlan emits;
    int workGroupSize = 0;
    GLuint groups = 0;    // work groups of a pass over every element
    gl::ComputeGrid grid; // how they are dispatched: rows of at most GL_MAX_COMPUTE_WORK_GROUP_COUNT in x
    std::unique_ptr<OrderedEmitState> ordered; // the single pass's state, or null: the multi-pass path
    std::unique_ptr<PrefixScan> scan;
    std::vector<gl::BufferName> counts, firsts; // per budget: counts of the count pass, their prefix sum
    gl::BufferName totals;                      // per budget: indirect commands and totals (prefix_scan.hpp)

    ComputePass() = default;

    /// A population's pass (population/): the capture plan it keeps (none: its records are its
    /// state), and the live count read on the GPU (ComputeTranslationOptions::liveCount).
    struct LiveCount {
        const CapturePlan* capture = nullptr;
    };
    /// `substeps` > 1: the fused kernel (ComputeTranslationOptions::substeps). `live`: a
    /// population's pass; its passes over the elements are dispatched indirectly (dispatch()'s
    /// `liveCount`), so the capacity's groups must fit GL_MAX_COMPUTE_WORK_GROUP_COUNT in x.
    /// @throws Error Unsupported, ComputeTranslation, ShaderCompile, ProgramLink, InvalidArgument
    static std::unique_ptr<ComputePass> build(const ProgramState& program, const PassPlan& plan, std::size_t entryCount,
                                              const Capabilities& caps, int requestedGroupSize, const EmitPlan& emits,
                                              int substeps = 1, const LiveCount* live = nullptr);
    /// One pass: glUseProgram, changed uniforms, glBindBufferBase(GL_SHADER_STORAGE_BUFFER) for
    /// each entry's current input and output, glDispatchCompute, glMemoryBarrier; with emitted
    /// outputs either the look-back state and totals bound too (single pass), or the count pass
    /// and prefix sums first. Every call is counted in gl::callCount().
    /// `liveCount` (a pass built with LiveCount): the buffer holding the live count in its first
    /// word and a DispatchIndirectCommand at byte kLiveDispatchOffset; it is bound at
    /// shader.liveBinding and the passes over the elements (main, or the single pass) run with
    /// glDispatchComputeIndirect from it (GL_DISPATCH_INDIRECT_BUFFER unbound after).
    void dispatch(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                  const std::vector<std::shared_ptr<BufferState>>& outputs, GLuint liveCount = 0);
    /// Forgets every GL name (after a context loss: they died with the context); the pipeline
    /// that owns it builds a new one. Its prefix sum forgets its own.
    void forget() override;
};

} // namespace xfb::detail
