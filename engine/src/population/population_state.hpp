#pragma once
// Internal: a Population's state (population.cpp): its plan, the state's buffers (two per field,
// swapped after every step) and one of its two forms: on compute, the count words on the GPU, the
// compute backend's pass built for a live count (compute/compute_pass.hpp, ComputePass::LiveCount)
// and the population's own kernels; on the fragment backend, its passes built for a live count and
// the count texels (population/population_fragment.hpp).
#include "compute/compute_pass.hpp"
#include "gl/recoverable.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "population/population_fragment.hpp"
#include "population/population_kernels.hpp"
#include "xfb/population.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace xfb::detail {

struct PopulationState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    std::shared_ptr<ProgramState> program;
    PopulationOptions options;
    PopulationPlan plan;
    CapturePlan noCapture;              // the pass captures nothing per slot: the records are the state
    Backend backend = Backend::Compute; // Compute or Fragment
    std::vector<Buffer> fields;         // per field: the current state, then (at fields.size() / 2 + j) the next
    // Compute: the count words (kPopulationCountWords). Fragment: 16 bytes a count texel is packed
    // into for countAsync().
    std::optional<Buffer> counts;
    std::unique_ptr<ComputePass> pass;   // compute
    PopulationKernels kernels;           // compute
    PopulationFragment fragment;         // fragment
    std::vector<gl::BufferName> staging; // per field: a spawn's records
    std::vector<std::uint64_t> stagingBytes;
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // the pass's entries, current side
    std::uint64_t steps = 0;
    int lastCalls = 0;

    std::size_t fieldCount() const { return plan.fields.size(); }
    bool onFragment() const { return backend == Backend::Fragment; }
    const Buffer& current(std::size_t f) const { return fields[f]; }
    const Buffer& next(std::size_t f) const { return fields[fieldCount() + f]; }
    GLuint countsName() const;

    /// Builds the pass and the kernels (at creation and after a context loss) and writes the count
    /// words of an empty population.
    void build();
    /// The step's passes over the current side: records of the next state, totals on the GPU.
    void runPasses();
    /// The step's totals into the count words (the count kernel).
    void takeTotals();
    /// The fields' buffers swap: the next state becomes the current one.
    void swap();
    /// The records the step just run asked for (blocking: for stepChecked()).
    std::uint32_t requested();
    /// The GL state a step or a spawn touches, and its texture units.
    gl::StateGuard guard(unsigned extra) const;
    /// The count words, read back (blocking).
    PopulationCount readCount() const;
    /// Zeroes the droppedUnchecked word of `c`, the count just read (a checked step has reported it).
    void clearUncheckedDrops(const PopulationCount& c);

    void forget() override;
    void restore() override;
};

/// A Population's state for the draw halves of the npm package (xfb/detail/emitted_draw.hpp).
struct PopulationAccess {
    static const PopulationState& state(const Population& p) { return liveState(p.state_, "Population"); }
};

/// The count words as a PopulationCount.
PopulationCount decodeCount(const std::vector<std::byte>& words, std::int64_t capacity);

} // namespace xfb::detail
