#pragma once
/// @file
/// @brief Population: a state with a capacity whose live count stays on the GPU. Each step runs the
/// program over the live elements only; each element writes 0 (dies), 1 (lives on) or k records of
/// the next state, compacted in a stable order (element order, then record order). GL 4.3 / ES 3.1
/// (the compute backend); docs/guide/populations.md.
///
/// The records are written by the emitted-output machinery of the compute backend (emit_plan.hpp:
/// the count pass and prefix sum, or the single pass with its look-back), whose output becomes the
/// next step's input: one compaction, shared with Pipeline's emitted outputs.

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
}

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
    /// Auto or Compute: the compute backend (GL 4.3 / ES 3.1). TransformFeedback cannot write a
    /// variable count and the fragment backend's population is not built yet (issue 42): Unsupported.
    Backend backend = Backend::Auto;
    /// Compute work-group size; 0 picks min(256, the device's limits).
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
    PopulationCountRequest(ReadbackRequest request, std::int64_t capacity)
        : request_(std::move(request)), capacity_(capacity) {}
    ReadbackRequest request_;
    std::int64_t capacity_ = 0;
};

/// The GPU words of a population's count (Population::countBuffer()), 48 bytes:
/// a DrawArraysIndirectCommand {live, 1, 0, 0} at byte 0 (glDrawArraysIndirect), a
/// DispatchIndirectCommand {max(1, ceil(live / work-group size)), 1, 1} at byte 16
/// (glDispatchComputeIndirect), then requested (byte 28), dropped (32), droppedUnchecked (36).
constexpr int kPopulationCountWords = 12;

/// A population on the compute backend (GL 4.3 / ES 3.1). Made empty; spawn() adds elements.
///
/// A steady step makes no CPU readback: the count pass (over the capacity: the slots past the live
/// count store 0 without running the program), the prefix sum and the main pass (indirect, over the
/// live elements: glDispatchComputeIndirect from countBuffer()), or where the driver keeps started
/// work groups running the single ordered pass (indirect); then one invocation moves the records
/// written into the live count and the dispatch command (glDispatchCompute(1, 1, 1)), and a
/// glMemoryBarrier makes them visible to indirect commands, vertex fetch and later passes. The
/// state's buffers then swap, as a Pipeline's state pairs do.
class Population {
public:
    /// Plans (planPopulation()), makes the state's buffers (2 per field, capacity records each) and
    /// the count buffer (live 0), and builds the compute passes.
    /// @throws Error planPopulation()'s; Unsupported (no compute on this context: OpenGL ES 3.0 and
    ///         WebGL2; a backend other than Auto and Compute; a program with a geometry shader; a
    ///         capacity whose work groups exceed GL_MAX_COMPUTE_WORK_GROUP_COUNT in x); the compute
    ///         translation's and the link's
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

    /// Appends `records` after the live elements, on the GPU: glBufferSubData into a staging buffer
    /// (made or grown only when a spawn is larger than any before), one dispatch per field copying
    /// the records to the live count's offset, and one invocation adding them to the live count.
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

    /// The live count, read back (a fence, then glMapBufferRange; blocking, for tools and tests).
    PopulationCount count() const;
    /// The live count on its way back: a glCopyBufferSubData into a staging buffer and a fence
    /// (Buffer::readAsync()); poll the request once per frame.
    PopulationCountRequest countAsync() const;

    /// Draws the live elements with the program and vertex array the caller bound (point the vertex
    /// array at state() with Buffer::bindAsVertexInput, again whenever its generation() moved):
    /// glBindBuffer(GL_DRAW_INDIRECT_BUFFER) + glDrawArraysIndirect from countBuffer() (GL 4.0 /
    /// ES 3.1), then unbinds it. The count never visits the CPU.
    /// @throws Error InvalidArgument (a mode outside DrawMode), ContextLost
    void draw(DrawMode mode) const;

    /// The buffer holding field `field`'s current state (records [0, live) are the elements); it
    /// names the latest state after every step, as a Pipeline's state buffers do.
    /// @throws Error InvalidArgument (no such field)
    const Buffer& state(std::size_t field = 0) const;
    /// The GL buffer of the count words (kPopulationCountWords): indirect draws and dispatches of
    /// the application's own may read it.
    unsigned countBuffer() const;
    const PopulationPlan& plan() const;
    std::int64_t capacity() const;
    std::uint64_t stepsTaken() const;
    /// GL calls the last step or spawn made, counted where they are made (gl/call_count.hpp).
    int lastGlCalls() const;
    /// The generated compute shader of the step's main pass.
    std::string computeSource() const;

private:
    std::unique_ptr<detail::PopulationState> state_;
};

} // namespace xfb
