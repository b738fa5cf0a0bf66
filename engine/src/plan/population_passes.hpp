#pragma once
// Internal: the fragment passes a population adds to the fragment backend's emitted outputs
// (xfb/population.hpp on OpenGL ES 3.0 / WebGL2): the count pass that moves a step's total (the
// pyramid's top) or a spawn's records into the population's count texel, and the draw that
// places a spawn's records after the live elements. Pure, no GL.
#include <cstdint>
#include <string>
#include <string_view>

namespace xfb::plan {

/// The count texel: an RGBA32UI texel (0, 0) holding {live, requested, dropped, droppedUnchecked}
/// (xfb::PopulationCount's words), read by the next step's count pass (kLiveCountSampler), the
/// spawn draw and emittedDrawSnippet() (row 0, component 0).
inline constexpr const char* kCountsSampler = "xfb_counts";   ///< the count texel before the pass
inline constexpr const char* kTopSampler = "xfb_top";         ///< the pyramid's top atlas (a step)
inline constexpr const char* kSpawnedUniform = "xfb_spawned"; ///< uint: records spawned (a spawn)
inline constexpr const char* kWordsUniform = "xfb_words";     ///< uint: words of a spawned record, 1..4

struct PopulationFragmentShaders {
    /// Fragment shaders drawn over one texel (the fragment backend's triangle, a 1 x 1 viewport)
    /// into the other count texel: requested = the pyramid's top (`step`) or live + xfb_spawned
    /// (`spawn`); live = min(requested, capacity); both dropped counts grow by requested - live,
    /// saturating at 2^32 - 1.
    std::string step, spawn;
    /// The spawn draw: one point per record (the vertex attribute `xfb_record` at location 0, a
    /// uvec4 of the record's words), at texel live + gl_VertexID of the field's plane; a record
    /// at or past the capacity is moved out of the clip volume (dropped). Words from xfb_words on
    /// are 0, as the gathers write them.
    std::string spawnVertex, spawnFragment;
};

/// @param version FragmentShader::version (the `#version` line and the precision statements)
/// @param capacity the population's capacity
/// @param width, rows the planes' layout (planeLayout() of `capacity` records)
/// @param topRow, topComponent where the pyramid's top level holds the budget's total
///        (PyramidLayout::levels.back().firstRow, budget % 4)
PopulationFragmentShaders populationFragmentShaders(std::string_view version, std::int64_t capacity, int width,
                                                    int rows, int topRow, int topComponent);

} // namespace xfb::plan
