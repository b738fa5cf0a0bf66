#pragma once
/// @file
/// @brief Population: a state with a capacity whose live count stays on the GPU. Each step runs the
/// program over the live elements only; each element writes 0 (dies), 1 (lives on) or k records of
/// the next state, compacted in a stable order (element order, then record order). The compute
/// backend (GL 4.3 / ES 3.1) or the fragment backend (GL 4.3 core, OpenGL ES 3.0 and later: WebGL2's
/// rules), with the same bytes on both; docs/guide/populations.md.
///
/// The records are written by the emitted-output machinery of the backend (emit_plan.hpp: on
/// compute the count pass and prefix sum, or the single pass with its look-back; on the fragment
/// backend the pyramid of counts and its gathers), whose output becomes the next step's input: one
/// compaction, shared with Pipeline's emitted outputs.

#include "xfb/buffer.hpp"
#include "xfb/device.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/pipeline.hpp"
#include "xfb/population_plan.hpp"
#include "xfb/primitive_count.hpp"
#include "xfb/program.hpp"
#include "xfb/readback.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace xfb {

namespace detail {
struct PopulationState;
struct PopulationAccess;
} // namespace detail

struct PopulationOptions {
    /// Elements the state holds: each field has two buffers of `capacity` records (the current state
    /// and the next one). > 0.
    std::int64_t capacity = 0;
    /// The fields of the state (population_plan.hpp): every shader input in one field, each with the
    /// emitted output array that writes its next records.
    std::vector<PopulationField> state;
    /// The int or uint output saying how many records of the next state an element writes (clamped to
    /// 0..the arrays' length): 0 dies, 1 lives on, k becomes k elements.
    std::string count;
    /// What happens to records past the capacity (from a step or a spawn). The GPU always keeps the
    /// first `capacity` records in the stable order and counts the others as dropped (count()).
    /// Error: stepChecked() throws Capacity for them; Clamp: not an error.
    EmitOverflow overflow = EmitOverflow::Error;
    /// Compute (GL 4.3 / ES 3.1: its main pass runs over the live elements only, by an indirect
    /// dispatch), Fragment (any context: OpenGL ES 3.0, WebGL2, GL 4.3 core; its passes run over the
    /// capacity, masked by the live count on the GPU) or Auto: Compute where the context has compute,
    /// else Fragment. TransformFeedback cannot write a variable count: Unsupported.
    Backend backend = Backend::Auto;
    /// Compute work-group size; 0 picks min(256, the device's limits). Not used by the fragment backend.
    int workGroupSize = 0;
};

/// The live count and its history, read back from the GPU (Population::count()).
struct PopulationCount {
    std::int64_t live = 0;      ///< elements of the current state
    std::int64_t capacity = 0;  ///< PopulationOptions::capacity
    std::int64_t requested = 0; ///< what the last step's elements asked for, or after a spawn the live
                                ///< elements plus the spawned records
    std::int64_t dropped = 0;   ///< records dropped past the capacity since the population was made,
                                ///< by steps and spawns (32-bit on the GPU: saturates at 2^32 - 1)
    /// Records dropped since the last checked step (what stepChecked() refuses under EmitOverflow::Error).
    std::int64_t droppedUnchecked = 0;
};

/// A count on its way from the GPU (Population::countAsync()): poll ready() once per frame.
class PopulationCountRequest {
public:
    /// glClientWaitSync(timeout 0): has the GPU finished the copy?
    bool ready() { return request_.ready(); }
    /// The count; waits for the copy first if it is not done (blocking).
    /// @throws Error Disposed when taken twice, ContextLost (ReadbackRequest::take())
    PopulationCount take();

private:
    friend class Population;
    PopulationCountRequest(ReadbackRequest request, std::int64_t capacity, bool texel)
        : request_(std::move(request)), capacity_(capacity), texel_(texel) {}
    ReadbackRequest request_;
    std::int64_t capacity_ = 0;
    bool texel_ = false; // the fragment backend's count texel, not the count words
};

/// The GPU words of a population's count (Population::countBuffer()), 48 bytes:
/// a DrawArraysIndirectCommand {live, 1, 0, 0} at byte 0 (glDrawArraysIndirect), a
/// DispatchIndirectCommand {max(1, ceil(live / work-group size)), 1, 1} at byte 16
/// (glDispatchComputeIndirect), then requested (byte 28), dropped (32), droppedUnchecked (36).
constexpr int kPopulationCountWords = 12;

/// A population. Made empty; spawn() adds elements.
///
/// A steady step makes no CPU readback. On compute: the count pass (over the capacity: the slots
/// past the live count store 0 without running the program), the prefix sum and the main pass
/// (indirect, over the live elements: glDispatchComputeIndirect from countBuffer()), or where the
/// driver keeps started work groups running the single ordered pass (indirect); then one
/// invocation moves the records written into the live count and the dispatch command
/// (glDispatchCompute(1, 1, 1)), and a glMemoryBarrier makes them visible to indirect commands,
/// vertex fetch and later passes. On the fragment backend (no compute, no indirect commands): the
/// live count is a texel (countTexture()); the count pass runs over the capacity, masked by that
/// texel (a slot at or past it counts 0 without running the program), the pyramid of counts is
/// summed and the gathers write each record of the next state, in the same order and with the same
/// bytes as on compute; one fragment then moves the pyramid's top into the other count texel. The
/// state's buffers then swap, as a Pipeline's state pairs do.
class Population {
public:
    /// Plans (planPopulation()), makes the state's buffers (2 per field, capacity records each) and
    /// the count (live 0), and builds the backend's passes.
    /// @throws Error planPopulation()'s; Unsupported (Backend::Compute on a context without compute:
    ///         OpenGL ES 3.0 and WebGL2; Backend::TransformFeedback; a program with a geometry shader;
    ///         on compute a capacity whose work groups exceed GL_MAX_COMPUTE_WORK_GROUP_COUNT in x; on
    ///         the fragment backend a capacity whose planes or pyramid pass GL_MAX_TEXTURE_SIZE); the
    ///         translations' and the link's
    Population(const Device& device, const Program& program, PopulationOptions options);
    Population(Population&&) noexcept;
    Population& operator=(Population&&) noexcept;
    ~Population();

    /// One step over the live elements: their records become the state, their number the live
    /// count, on the GPU. No readback, no wait. Records past the capacity are dropped (counted).
    /// @throws Error ContextLost, FeedbackActive; GlError in debug builds
    void step();
    /// step(), then waits for it and reads the count back (blocking, for tools and tests). Under
    /// EmitOverflow::Error it throws Capacity when records were dropped since the last checked step
    /// (by spawns or unchecked steps: before running, the step not run, the count of them reset) or
    /// when this step's records exceed the capacity (not swapped: the state and the live count stay
    /// as they were). Under Clamp it never throws Capacity.
    /// @throws Error Capacity, ContextLost, FeedbackActive
    PopulationCount stepChecked();

    /// Appends `records` after the live elements, on the GPU: glBufferData into a staging buffer per
    /// field (made at the first spawn), then on compute one dispatch per field copying the records to
    /// the live count's offset and one invocation adding them to the live count; on the fragment
    /// backend one draw of points per field into its planes, at the live count read by the vertex
    /// shader from the count texel, and one fragment adding them to it.
    /// Records past the capacity are dropped (the first ones are kept) and counted; no readback.
    /// One span per field of PopulationOptions::state, in order, each holding the same number of
    /// records of that field's format; the one-field form takes that field's records.
    /// @throws Error InvalidArgument (a span per field, whole records, the same number in each),
    ///         Capacity (more records than the capacity: nothing is spawned), ContextLost, FeedbackActive
    void spawn(std::span<const std::span<const std::byte>> fields);
    void spawn(std::span<const std::byte> records);
    template<class T>
    void spawn(std::span<const T> records) {
        spawn(std::as_bytes(records));
    }

    /// The live count, read back (blocking, for tools and tests): a fence, then glMapBufferRange
    /// (compute); glReadPixels of the count texel (fragment).
    PopulationCount count() const;
    /// The live count on its way back: a glCopyBufferSubData into a staging buffer and a fence
    /// (Buffer::readAsync()), after, on the fragment backend, a glReadPixels of the count texel into
    /// a pixel pack buffer; poll the request once per frame.
    PopulationCountRequest countAsync() const;

    /// Draws the live elements with the program and vertex array the caller bound (point the vertex
    /// array at state() with Buffer::bindAsVertexInput, again whenever its generation() moved). The
    /// count never visits the CPU. On compute: glBindBuffer(GL_DRAW_INDIRECT_BUFFER) +
    /// glDrawArraysIndirect from countBuffer() (GL 4.0 / ES 3.1), then unbinds it. On the fragment
    /// backend (ES 3.0 and WebGL2 have no indirect draw): glDrawArrays of the capacity, and the bound
    /// program must hold emittedDrawSnippet() (emit_plan.hpp) and write gl_Position =
    /// xfb_emittedPosition(...): its uniforms are set to read the count texel (on a texture unit of
    /// the fragment backend's, restored after the draw), and the vertices of every primitive at or
    /// past the live count go outside the clip volume. A program holding the snippet draws after
    /// either backend (on compute its uniforms are set to keep every vertex).
    /// @throws Error InvalidArgument (a mode outside DrawMode; on the fragment backend a bound
    ///         program without the snippet), Unsupported (on the fragment backend a strip, loop or
    ///         fan), ContextLost
    void draw(DrawMode mode) const;

    /// The buffer holding field `field`'s current state (records [0, live) are the elements); it
    /// names the latest state after every step, as a Pipeline's state buffers do.
    /// @throws Error InvalidArgument (no such field)
    const Buffer& state(std::size_t field = 0) const;
    /// The GL buffer of the count words (kPopulationCountWords): indirect draws and dispatches of
    /// the application's own may read it. 0 on the fragment backend (countTexture()).
    unsigned countBuffer() const;
    /// On the fragment backend, the GL texture (RGBA32UI, 1 x 1) whose texel holds {live,
    /// requested, dropped, droppedUnchecked}: the application's shaders may read it (texelFetch).
    /// Two textures alternate: it names another one after every step and spawn. 0 on compute.
    unsigned countTexture() const;
    /// The backend the population runs on: Compute or Fragment (PopulationOptions::backend).
    Backend backend() const;
    const PopulationPlan& plan() const;
    std::int64_t capacity() const;
    std::uint64_t stepsTaken() const;
    /// GL calls the last step or spawn made, counted where they are made (gl/call_count.hpp).
    int lastGlCalls() const;
    /// The generated compute shader of the step's main pass (empty on the fragment backend).
    std::string computeSource() const;

private:
    friend struct detail::PopulationAccess;
    std::unique_ptr<detail::PopulationState> state_;
};

} // namespace xfb
