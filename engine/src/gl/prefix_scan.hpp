#pragma once
// Internal: exclusive prefix sum of uint counts on the GPU (compute, GL 4.3 / ES 3.1), for
// variable-count outputs. Scan-then-propagate over levels: each work group scans its slice in
// shared memory and writes its total; the totals are scanned the same way, level by level,
// and added back. Integer adds in a fixed order: the same offsets on every run.
// Then one invocation writes the budget's totals as indirect commands, so the count never
// has to visit the CPU.
#include "gl/gl_api.hpp"
#include "gl/names.hpp"
#include "gl/recoverable.hpp"

#include <cstdint>
#include <vector>

namespace xfb::detail {

/// Per budget in the totals buffer, 8 uints at byte 32 x slot:
/// DrawArraysIndirectCommand {written, 1, 0, 0}, DispatchIndirectCommand {groups, 1, 1},
/// then the requested total (before clamping to the capacity).
constexpr int kTotalsWords = 8;
/// Elements each scan invocation handles (a group scans groupSize x kPerThread).
constexpr int kPerThread = 8;

/// A GL_SHADER_STORAGE_BUFFER of `bytes`, contents undefined (glGenBuffers + glBufferData).
gl::BufferName storageBuffer(std::uint64_t bytes);

struct PrefixScan final : Recoverable {
    std::int64_t n = 0;
    int groupSize = 0;
    int maxGroupsX = 0, maxGroupsY = 0; // GL_MAX_COMPUTE_WORK_GROUP_COUNT: more groups run as rows
    gl::ProgramName scan, add, total;   // programs
    GLint scanN = -1, addN = -1;        // uniform locations
    GLint totalCapacity = -1, totalSlot = -1, totalN = -1;
    std::int64_t totalCount = -1;              // the count the total kernel's `n` holds
    std::vector<std::int64_t> sizes;           // elements per level for n; the last fits one group
    std::vector<gl::BufferName> sums, scanned; // per level >= 1 (index 0 unused), plus one spare sum
    /// `dispatchGroupSize`: the group size the indirect dispatch command is computed for;
    /// `maxX`, `maxY`: the device's GL_MAX_COMPUTE_WORK_GROUP_COUNT (gl/compute_grid.hpp).
    PrefixScan(std::int64_t n, int groupSize, int dispatchGroupSize, bool es, int maxX, int maxY);
    /// Forgets every GL name (after a context loss); the pipeline that owns it builds a new one.
    void forget() override;
    /// firsts[i] = counts[0] + ... + counts[i-1] for i < `count` (1..n; n when -1), totals slot
    /// `slot` from element count - 1: a geometry capture scans its live primitives, not the
    /// capacity its buffers grew to. Every call is counted in gl::callCount().
    void run(GLuint counts, GLuint firsts, GLuint totals, int slot, std::int64_t capacity, std::int64_t count = -1);
};

} // namespace xfb::detail
