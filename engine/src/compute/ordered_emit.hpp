#pragma once
// Internal: the single-pass ordered emit of the compute backend (ComputeTranslationOptions::
// singlePassEmit): when it is safe, and the look-back state it needs between steps.
//
// The pass waits on other work groups: a tile spins until its predecessor has published. Tiles
// are numbered by an atomic ticket, so the tile waited on has started, and the wait ends on
// drivers that keep a started work group running until it finishes: resident work groups are not
// preempted in favour of one that has not started (measured on NVIDIA, the H200; AMD and Intel
// GPUs schedule the same way but were not measured).
//
// Not on Mesa's llvmpipe, measured: it cannot hang there (its thread pool runs each work group
// to completion on one thread, in dispatch order), but gallivm ends every loop of an invocation
// after 65535 iterations in all (one guard shared by all loops, against endless loops), so a spin
// whose predecessor runs on a descheduled thread gives up and the tile takes a wrong offset. The
// spin reads 64 times per iteration to make that rare, and llvmpipe takes the multi-pass path
// unless a test forces the single pass.
//
// Where the driver has GL_KHR_shader_subgroup (Capabilities::subgroupArithmetic; NVIDIA does,
// Mesa 22's llvmpipe does not) the tile scans and looks back with subgroup operations
// (ComputeTranslationOptions::subgroupScan); measured on the H200 at 1M-16M elements: 0.67x-0.88x
// an unordered atomic append, against 1.16x-1.34x for the shared-memory scan in the same run.
#include "gl/names.hpp"
#include "xfb/device.hpp"
#include "xfb/emit_plan.hpp"

#include <cstdint>
#include <string>

namespace xfb::detail {

enum class OrderedEmitPath { Auto, SinglePass, MultiPass };

/// Which path compute passes built from now on use (process-wide): Auto chooses the single pass
/// where singlePassEmitByDefault() and singlePassEmitUnsafe() agree; SinglePass skips the first
/// (llvmpipe too), not the second (a forced single pass must still hold its values); MultiPass
/// always takes the count pass + prefix sum. For tests and benches.
extern OrderedEmitPath orderedEmitPath;

/// Whether the single pass scans with subgroup operations where Capabilities::subgroupArithmetic
/// says the driver has them (process-wide, true); false forces the shared-memory scan. For tests
/// and benches.
extern bool orderedEmitSubgroupScan;

/// Whether the driver keeps started work groups running to the end without a loop guard: false
/// for Mesa's llvmpipe (GL_RENDERER "llvmpipe ..."), true otherwise.
bool singlePassEmitByDefault(const Capabilities& caps);

/// Why the single pass cannot run this plan, or "" when it can: a budget total that could reach
/// 2^30 (the status words hold 30-bit values), or scan arrays larger than the 16 KB of shared
/// memory OpenGL ES 3.1 guarantees.
std::string singlePassEmitUnsafe(const EmitPlan& emits, std::int64_t count, int groupSize);

/// Two look-back states (uint ticket, then a status word per tile and budget), zeroed at first:
/// a step uses one and clears the other for the next step, so no clear call is needed.
struct OrderedEmitState {
    gl::BufferName buffers[2];
    int current = 0;
    OrderedEmitState(std::int64_t tiles, std::size_t budgets);
    /// glBindBufferBase of this step's state and the next one's, then flips.
    void bind(int stateBinding, int nextStateBinding);
    /// Forgets the GL names (context loss).
    void forget() { buffers[0].forget(), buffers[1].forget(); }
};

} // namespace xfb::detail
