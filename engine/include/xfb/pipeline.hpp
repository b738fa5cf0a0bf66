#pragma once
/// @file
/// @brief Pipeline: a Program bound to buffers with roles; one step = one transform-feedback pass.

#include "xfb/enum_tables.hpp"
#include "xfb/buffer.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/primitive_count.hpp"
#include "xfb/program.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace xfb {

namespace detail {
struct PipelineState;
struct StepReplay;
}

/// One entry of the role list (see EntryDesc): {input, output} state, {input} constants,
/// {output} write-only. Buffers are shared with the pipeline: the Buffer objects may be moved
/// or destroyed by the user without invalidating the pipeline.
struct Entry {
    const Buffer* input = nullptr;
    const Buffer* output = nullptr;
};

/// Result of a step whose PRIMITIVES_WRITTEN query was read.
struct StepReport {
    std::uint64_t step = 0;    ///< 0-based index of the step
    std::int64_t written = 0;  ///< records written (TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
    std::int64_t expected = 0; ///< the element count
    bool ok() const { return written == expected; }
};

/// How a step runs. Every backend reads and writes the same buffers with the same layout, so a
/// pipeline can switch between two steps without re-uploading anything.
/// TransformFeedback ("tf"): vertex shader + transform feedback (GL 4.0 / ES 3.0 / WebGL2).
/// Compute ("compute"): the same source as a generated compute shader (GL 4.3 / ES 3.1).
/// Fragment ("fragment"): the same source as generated fragment shaders over RGBA32UI textures
/// of the buffers' words (xfb/fragment_translation.hpp; GL 4.3 / ES 3.0 / WebGL2): for drivers
/// that run fragments in parallel and vertices less so (SwiftShader, some mobile GPUs).
/// Auto ("auto"): times a few trial passes of every backend the context has once per context and
/// shape, keeps the fastest.
/// Rows and names: XFB_BACKENDS (xfb/enum_tables.hpp).
enum class Backend { XFB_BACKENDS(XFB_ENUMERATOR) };
std::string_view backendName(Backend b); // "tf", "compute", "auto", "fragment"

/// Which backend a pipeline uses and why.
struct BackendChoice {
    /// Auto only between creating (or setBackend(Auto)) and the first step, which runs the trial passes
    Backend backend = Backend::TransformFeedback;
    std::string reason;
    /// Per trial pass, when Auto measured them (0 for a backend it did not time).
    double transformFeedbackMs = 0, computeMs = 0, fragmentMs = 0;
};

struct PipelineOptions {
    /// Element count when no entry has an input; must match the buffers otherwise.
    std::optional<std::int64_t> count;
    /// Wrap every transform-feedback step() in a PRIMITIVES_WRITTEN query; results arrive
    /// through pollQueries(). Compute and fragment steps have no such query and report nothing,
    /// so Auto with queries keeps transform feedback.
    bool queries = false;
    /// Auto (the default) builds each backend the context has when the pipeline is created (a
    /// refusal comes then), times trial passes of each at the first step (once per context and
    /// simulation shape; not swapped, they write what that step writes, so nothing is written
    /// before a step) and keeps the fastest: backend() says which and why.
    Backend backend = Backend::Auto;
    /// Compute work-group size; 0 picks min(256, the device's limits).
    int workGroupSize = 0;
    /// Variable-count outputs (emit_plan.hpp): on the compute backend, or on the fragment backend
    /// through a pyramid of counts (docs/guide/variable-count-output.md); Auto times both at the
    /// first step where the context has both (transform feedback cannot write them), else takes
    /// the one there is. Their {output} entries come after the captured ones, one per EmitDesc,
    /// in the same order.
    std::vector<EmitDesc> emits;
    EmitOverflow overflow = EmitOverflow::Error;
    /// step(k > 1) fuses the substeps of an element-local simulation into one pass (fusion());
    /// off: always k ordinary passes (for comparisons and benchmarks).
    bool fuseSubsteps = true;
    /// Keep the rasterizer on (no GL_RASTERIZER_DISCARD) in every transform-feedback pass of the
    /// pipeline (step(), stepChecked(), beginCheckedStep()), so one pass both captures the state and
    /// draws the elements as points (GL_POINTS: the vertex shader's gl_Position and gl_PointSize;
    /// desktop GL takes gl_PointSize only with the caller's glEnable(GL_PROGRAM_POINT_SIZE), else
    /// glPointSize) with the Program's fragment shader (ProgramDesc::fragment) into the framebuffer,
    /// viewport and per-fragment state (blend, depth, scissor...) the caller set: a particle system
    /// that simulates and draws in one pass, as a capture does with CaptureRunOptions::rasterize.
    /// The pass calls glDisable(GL_RASTERIZER_DISCARD) instead of glEnable before and glDisable
    /// after it (8 calls, not 9); the shared-context guard puts the application's discard back.
    /// GL 3.0 / ES 3.0 / WebGL2. Only transform feedback rasterizes: Backend::Auto keeps it (with
    /// that reason); Compute and Fragment are Unsupported, at creation and in setBackend(). step(k)
    /// does not fuse (fusion() says why): it runs k passes and only the last one draws, so a frame
    /// shows the state after the k substeps. Not replayed by the npm package's JavaScript step.
    /// @throws (at creation) InvalidArgument for a program without ProgramDesc::fragment.
    bool rasterize = false;
};

/// One budget of emitted records after a step, read from the GPU.
struct EmitReport {
    std::string budget;         ///< the count output's name
    std::int64_t requested = 0; ///< records the elements asked for
    std::int64_t written = 0;   ///< records written: min(requested, capacity)
    std::int64_t capacity = 0;  ///< records the budget's smallest buffer holds
    bool overflowed() const { return requested > capacity; }
};

/// Transform-feedback backend: builds, once, one vertex array object and one transform feedback object per ping-pong
/// side (glGenVertexArrays, glGenTransformFeedbacks, glVertexAttrib(I)Pointer, glBindBufferBase). A steady-state step
/// creates no GL object. The pass makes 9 GL calls (plus glUniform* for changed uniforms): glUseProgram,
/// glBindVertexArray, glBindTransformFeedback, glEnable(RASTERIZER_DISCARD), glBeginTransformFeedback(POINTS),
/// glDrawArrays(POINTS), glEndTransformFeedback, glDisable, and glBindTransformFeedback(0), so no buffer stays bound
/// for transform feedback (with PipelineOptions::rasterize 8: glDisable(RASTERIZER_DISCARD) before, none after). Before
/// it, one glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE) refuses to run inside the application's transform feedback
/// (FeedbackActive; every entry point makes it). By default (DeviceOptions::ownsContext false) the shared-context guard
/// adds glGetIntegerv x4 and glIsEnabled (1, desktop GL 2) to read what the application had bound, then binds its
/// program and vertex array again (docs/guide/sharing-a-context.md); with ownsContext the step is the check and the 9
/// calls (10) and its vertex array object stays bound: bind your own before setting attribute pointers. Measured in
/// tests/gl/gl_calls_test.cpp. Needs GL 4.0 / ES 3.0 / WebGL2.
///
/// Compute backend (GL 4.3 / ES 3.1): the same check, then glUseProgram, glBindBufferBase(GL_SHADER_STORAGE_BUFFER)
/// per buffer, glDispatchCompute, glMemoryBarrier (so vertex fetch, transform feedback, the next
/// dispatch and readbacks see the writes).
///
/// Fragment backend (GL 4.3 / ES 3.0 / WebGL2; xfb/fragment_translation.hpp): per input buffer
/// glActiveTexture, glBindTexture, glBindBuffer(GL_PIXEL_UNPACK_BUFFER), glTexSubImage2D (1-2, plus
/// a glCopyBufferSubData through a 16-byte scratch buffer for 1-3 trailing words); per pass
/// glUseProgram, changed uniforms, glBindFramebuffer, glViewport, glDrawArrays(GL_TRIANGLES, 0, 3);
/// per output glBindFramebuffer(GL_READ_FRAMEBUFFER), glBindBuffer(GL_PIXEL_PACK_BUFFER),
/// glReadPixels (1-2, likewise); 17 calls for one 32-byte state pair that fills whole rows
/// (tests/gl/fragment_test.cpp). Its guard also saves the framebuffers, viewport, scissor, culling,
/// colour mask, pixel pack/unpack state and the textures and samplers of its units, and restores
/// the framebuffers, viewport and pixel store in both modes (docs/guide/sharing-a-context.md).
class Pipeline {
public:
    /// @throws Error from planPass() (roles, semantics, counts, capacity) and planEmits();
    ///         Unsupported (emitted outputs on transform feedback; PipelineOptions::rasterize
    ///         with Backend::Compute or Fragment); InvalidArgument (rasterize with a Program without
    ///         ProgramDesc::fragment)
    Pipeline(const Device& device, const Program& program, std::vector<Entry> entries, PipelineOptions options = {});
    Pipeline(Pipeline&&) noexcept;
    Pipeline& operator=(Pipeline&&) noexcept;
    ~Pipeline();

    /// Runs `substeps` steps and swaps every {input, output} pair after each. Pipelined: does not
    /// wait for the GPU. (Capacity was checked when the pipeline was built; buffers keep their
    /// size. A buffer re-specified by foreign GL code is caught by stepChecked().)
    /// With substeps > 1 and an element-local simulation (fusion()), the substeps run inside one
    /// pass of a generated program (fusion_plan.hpp), built for this k and backend the first time
    /// and kept: the state is read and written once, the swap happens once, stepsTaken() grows
    /// by k, a PipelineOptions::queries report covers the fused pass, and the state's partner
    /// buffer holds the state from before the call (k substeps back). Otherwise k ordinary passes.
    /// Either way a `uniform int xfb_substep;` holds the substep's index (0 for a plain step()).
    /// @throws Error InvalidArgument (substeps outside 1..limits::maxSubsteps), ContextLost, FeedbackActive; GlError in
    /// debug builds;
    ///         ShaderCompile / ProgramLink / ComputeTranslation while building a fused program
    void step(int substeps = 1);
    /// Whether step(k > 1) runs the k substeps in one pass, and why not
    /// (xfb::checkFusion(): a texture or buffer read, a global variable, emitted outputs, a state
    /// word that no captured varying writes).
    const FusionDecision& fusion() const;
    /// Runs one pass, waits for its PRIMITIVES_WRITTEN query (glGetQueryObjectuiv, blocking) and
    /// swaps only if every element was written. Otherwise throws ShortWrite and leaves the state
    /// buffers as they were before the step (write-only outputs are undefined). Both backends check
    /// the GL size of every output buffer (glGetBufferParameteri64v; iv on WebGL) first: one that
    /// other code re-specified smaller is ShortWrite naming it, and nothing is drawn or dispatched.
    /// With emitted outputs and EmitOverflow::Error, a budget whose records exceeded its
    /// capacity throws Capacity with both numbers, not swapped.
    /// @throws Error ShortWrite, Capacity, ContextLost, FeedbackActive
    StepReport stepChecked();
    /// The non-blocking form of stepChecked(), for WebGL (where query results arrive in a later
    /// task) and frame loops: beginCheckedStep() runs the pass; pollCheckedStep() returns nothing
    /// while the query is pending, then swaps and returns the report, or throws ShortWrite
    /// without swapping. No other step may run in between (InvalidArgument).
    void beginCheckedStep();
    std::optional<StepReport> pollCheckedStep();
    /// With PipelineOptions::queries: delivers the results that are available, oldest first,
    /// without blocking (GL_QUERY_RESULT_AVAILABLE). Returns how many were delivered.
    int pollQueries(const std::function<void(const StepReport&)>& onResult);

    /// Switches backend before the next step; the state stays where it is. Auto measures at the
    /// next step (trial passes that are not swapped, so the state does not advance) or reuses
    /// this context's decision for the same shader, mode and count.
    /// @throws Error Unsupported (no compute on this context; the fragment backend's limits or a
    ///         global variable it cannot keep per element; emitted outputs on tf;
    ///         PipelineOptions::rasterize on compute or fragment),
    ///         ComputeTranslation (a construct the compute or fragment translation cannot express)
    void setBackend(Backend backend);
    /// Which backend steps run and why; Auto until the first step of an Auto pipeline has timed them.
    const BackendChoice& backend() const;
    /// The generated compute shader (empty until the compute backend was first used).
    std::string computeSource() const;

    const PassPlan& plan() const;
    std::int64_t count() const;
    std::uint64_t stepsTaken() const;
    /// GL calls the last pass itself made (9 for transform feedback, plus glUniform* for changed
    /// values), counted as the engine makes them; the shared-context guard's calls and the
    /// glGetError of Debug builds are not included. After steps replayed outside the pipeline (the
    /// npm package's, not public API), the count they reported.
    int lastStepGlCalls() const;

    /// Emitted outputs: per budget, the last step's totals, read back (a fence, then
    /// glGetBufferSubData / glMapBufferRange; after a fragment-backend step, glReadPixels of the
    /// pyramid's top texel; blocking, for tools and tests: a frame loop draws with drawEmitted()
    /// and never needs them).
    /// @throws Error InvalidArgument (no emitted outputs)
    std::vector<EmitReport> emitted() const;
    /// The GL buffer with each budget's totals, 32 bytes per budget in PipelineOptions order:
    /// a DrawArraysIndirectCommand {written, 1, 0, 0} at byte 32 b (glDrawArraysIndirect), a
    /// DispatchIndirectCommand {ceil(written / work-group size), 1, 1} at 32 b + 16
    /// (glDispatchComputeIndirect), the requested total at 32 b + 28. Written on the GPU by
    /// every step: the count never visits the CPU.
    /// @throws Error InvalidArgument (no emitted outputs), Unsupported (the last step ran the
    ///         fragment backend, whose totals stay in its pyramid's top texel)
    unsigned emitTotalsBuffer() const;
    /// Draws the records of `budget` (its count output's name) with the program and vertex
    /// array the caller bound. After a compute step: glBindBuffer(GL_DRAW_INDIRECT_BUFFER) +
    /// glDrawArraysIndirect (GL 4.0 / ES 3.1), then unbinds it. After a fragment-backend step
    /// (ES 3.0, WebGL2: no indirect draw): glDrawArrays of the budget's capacity, the bound
    /// program's vertex shader holding emittedDrawSnippet() (emit_plan.hpp), whose uniforms it
    /// sets and whose texture (the pyramid's top) it binds on a unit of the fragment backend's,
    /// restoring that unit's binding after; records at or past the GPU total are clipped away
    /// (points, lines and triangles). Its vertex cost is the capacity, whatever the total.
    /// @throws Error InvalidArgument (no such budget, a mode outside DrawMode, a bound program
    ///         without the snippet after a fragment step), Unsupported (after a fragment step, a
    ///         strip, loop or fan)
    void drawEmitted(std::string_view budget, DrawMode mode) const;

private:
    friend struct detail::StepReplay; // the npm package's replayed step and emitted draw (xfb/detail/)
    std::unique_ptr<detail::PipelineState> state_;
};

} // namespace xfb
