#pragma once
// Internal: the single-pass ordered emit of the compute backend (ComputeTranslationOptions::
// singlePassEmit): when it is safe, and the look-back state it needs between steps.
//
// The pass waits on other work groups: a tile spins until its predecessor has published. Tiles
// are numbered by an atomic ticket, so the tile waited on has started, and the wait ends on every
// driver that keeps a started work group running until it finishes: NVIDIA, AMD and Intel GPUs
// (resident work groups are not preempted for one that is not), and Mesa's llvmpipe, whose
// thread pool runs each work group to completion on one thread (a group's invocations are
// coroutines on that thread) and takes groups in dispatch order; with no pool threads
// (LP_NUM_THREADS=0) the groups run one after the other, in ticket order.
#include "gl/gl_api.hpp"
#include "xfb/emit_plan.hpp"

#include <cstdint>
#include <string>

namespace xfb::detail {

enum class OrderedEmitPath { Auto, SinglePass, MultiPass };

/// Which path compute passes built from now on use (process-wide): Auto chooses the single pass
/// where singlePassEmitUnsafe() finds nothing; SinglePass does too (a forced single pass must
/// still be correct); MultiPass always takes the count pass + prefix sum. For tests and benches.
extern OrderedEmitPath orderedEmitPath;

/// Why the single pass cannot run this plan, or "" when it can: a budget total that could reach
/// 2^30 (the status words hold 30-bit values), or scan arrays larger than the 16 KB of shared
/// memory OpenGL ES 3.1 guarantees.
std::string singlePassEmitUnsafe(const EmitPlan& emits, std::int64_t count, int groupSize);

/// Two look-back states (uint ticket, then a status word per tile and budget), zeroed at first:
/// a step uses one and clears the other for the next step, so no clear call is needed.
struct OrderedEmitState {
    GLuint buffers[2]{};
    int current = 0;
    OrderedEmitState(std::int64_t tiles, std::size_t budgets);
    OrderedEmitState(const OrderedEmitState&) = delete;
    OrderedEmitState& operator=(const OrderedEmitState&) = delete;
    ~OrderedEmitState();
    /// glBindBufferBase of this step's state and the next one's, then flips. Returns GL calls (2).
    int bind(int stateBinding, int nextStateBinding);
    /// Forgets the GL names (context loss).
    void forget() { buffers[0] = buffers[1] = 0; }
};

} // namespace xfb::detail
