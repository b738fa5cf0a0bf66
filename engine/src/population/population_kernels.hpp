#pragma once
// Internal: the two small compute kernels a population adds to the compute backend's passes
// (GL 4.3 / ES 3.1): the count kernel, one invocation that moves a step's emitted totals (or a
// spawn's records) into the population's count words, and the spawn kernel, which copies records
// from a staging buffer to the slots after the live elements. Neither reads anything back.
#include "gl/names.hpp"

#include <cstdint>

namespace xfb::detail {

/// Words of the population's count buffer (xfb/population.hpp, kPopulationCountWords).
enum PopulationWord : int {
    kLiveWord = 0,             // DrawArraysIndirectCommand {live, 1, 0, 0}
    kDispatchWord = 4,         // DispatchIndirectCommand {max(1, ceil(live / group)), 1, 1}
    kRequestedWord = 7,        // the last step's requested records, or live + spawned after a spawn
    kDroppedWord = 8,          // dropped past the capacity since creation (saturating)
    kDroppedUncheckedWord = 9, // dropped since the last checked step (saturating)
};

struct PopulationKernels {
    gl::ProgramName count, spawn;
    GLint countSpawnedAt = -1;               // count kernel: 0 for a step
    GLint spawnWords = -1, spawnStride = -1; // spawn kernel
    static constexpr int kSpawnGroup = 64;
    int maxGroupsX = 0, maxGroupsY = 0;

    /// Compiles and links both kernels; `capacity` and `groupSize` (of the step's passes) are fixed
    /// in the count kernel's uniforms and the spawn kernel's.
    void build(bool es, std::int64_t capacity, int groupSize, int maxX, int maxY);
    void forget() {
        count.forget();
        spawn.forget();
    }
    /// The step's totals (slot 0 of the compute pass's totals buffer) into the count words, then a
    /// barrier for indirect commands, vertex fetch and later passes. Counted calls.
    void afterStep(GLuint totals, GLuint counts);
    /// Field records [0, records) of `staging` (strideWords words each) to the slots after the live
    /// count in `state`; then, for the last field, the count words. Counted calls.
    void copySpawned(GLuint staging, GLuint state, GLuint counts, std::int64_t records, int strideWords);
    void countSpawned(GLuint counts, std::int64_t records);
};

} // namespace xfb::detail
