#pragma once
// Internal: a geometry program's capture as compute passes (PrimitiveCapture with
// Backend::Compute; native GL 4.3+ / ES 3.1+). The kernels come from translateGeometryToCompute()
// (xfb/compute_translation.hpp): the vertex pass into a scratch buffer, the geometry shader's count
// pass, per vertex stream the prefix sum of its counts (gl/prefix_scan.hpp) and its totals, then
// the write pass storing each stream's records in the GL's order. The totals hold per stream the
// records requested and written: the statistics, and the indirect command a stream is drawn with.
#include "gl/compute_kernel.hpp"
#include "gl/prefix_scan.hpp"
#include "gl/state.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/primitive_count.hpp"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace xfb::detail {

struct GeometryCompute {
    GeometryComputeShaders shaders;
    ComputeKernel vertex, count, write;
    gl::BufferName scratch; // the vertex pass's records, one per input vertex
    gl::BufferName sources; // per input primitive its vertices (expandPrimitives)
    std::uint64_t sourcesBytes = 0;
    std::int64_t sourceVertices = 0; // how many `sources` holds now
    // The non-indexed draw (mode, vertex count) `sources` was expanded from: the same draw again
    // (a capture of the same mesh every frame) skips the expansion and its upload.
    std::optional<std::pair<DrawMode, std::int64_t>> sourcesDraw;
    gl::BufferName totals;                      // per stream kTotalsWords uints (gl/prefix_scan.hpp)
    std::vector<gl::BufferName> counts, firsts; // per stream, `items` uints
    std::int64_t items = 0; // the items (primitives x invocations) the scan and counts are sized for
    std::unique_ptr<PrefixScan> scan;
    // The kernels' per-capture uniforms, found once when they are linked.
    GLint vertexCountAt = -1, countCountAt = -1, countItemsAt = -1, writeItemsAt = -1, writeCapacityAt = -1;
    int groupSize = 64, vertexGroupSize = 256, scanGroup = 64;
    int maxGroupsX = 0, maxGroupsY = 0;
    bool es = false;

    /// Translates and links the three kernels; makes the scratch and totals buffers.
    /// @throws Error ComputeTranslation, ShaderCompile, ProgramLink, Unsupported (more storage
    ///         buffers than the device has)
    GeometryCompute(const ProgramState& program, const PassPlan& plan, std::size_t entryCount,
                    const Capabilities& caps);
    /// Runs `draw` (checked: every vertex below `vertices`) through the kernels, writing
    /// `outputs` (per buffer of the capture plan) up to `capacity` records per stream (a multiple
    /// of its primitive's vertices). Grows the sources, counts and scan when a draw needs more
    /// (the only GL objects a capture may make: the first draw of a larger size).
    void run(const ProgramState& program, const DrawDesc& draw, std::int64_t vertexCount,
             const std::vector<std::shared_ptr<BufferState>>& inputs, const std::vector<GLuint>& outputs,
             const std::vector<std::int64_t>& capacity);
    /// Per stream: {records requested, records written} of the last run (reads the totals: waits).
    std::vector<std::pair<std::int64_t, std::int64_t>> readTotals() const;
    void forget();
};

} // namespace xfb::detail
