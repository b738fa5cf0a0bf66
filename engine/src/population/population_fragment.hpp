#pragma once
// Internal: a Population on the fragment backend (OpenGL ES 3.0, WebGL2's rules; also GL 4.3 core
// and ES 3.1+ when chosen). No compute and no indirect commands: a step runs the fragment backend's
// emitted-output passes (fragment/fragment_backend.hpp, built with a live count) over the capacity,
// masked by the live count, which stays in a texel on the GPU; the records land in the next
// state's planes in the stable order of the pyramid's gathers (the same compaction as a Pipeline's
// emitted outputs). Then one fragment moves the pyramid's top into the other count texel. A spawn
// draws its records as points after the live count (read in the vertex shader). Nothing is read
// back in a step or a spawn.
#include "fragment/fragment_backend.hpp"
#include "gl/names.hpp"
#include "xfb/population.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace xfb::detail {

/// The count texel's words: {live, requested, dropped, droppedUnchecked} (PopulationCount's).
using CountTexel = std::array<std::uint32_t, 4>;

struct PopulationFragment {
    std::unique_ptr<FragmentBackend> backend; // enrolled itself: forgets its own names
    std::shared_ptr<DeviceState> device;
    std::int64_t capacity = 0;
    // Two 1 x 1 RGBA32UI count texels, each with its framebuffer: a pass reads one and writes the other.
    std::array<gl::TextureName, 2> counts;
    std::array<gl::FramebufferName, 2> countTargets;
    int current = 0; // the count texel of the current state
    gl::ProgramName stepCount, spawnCount, spawnDraw;
    GLint spawnedAt = -1, wordsAt = -1;
    gl::VertexArrayName spawnArray;  // attribute 0: a spawned record's words, from the staging buffer
    gl::FramebufferName spawnTarget; // a field's plane, attached per spawn

    /// Builds the backend's passes (FragmentBackend::build with a live count), the count texels
    /// (an empty population) and the population's own passes.
    /// @throws Error the fragment backend's (Unsupported: the context's limits), ProgramLink
    void build(const std::shared_ptr<DeviceState>& device, const ProgramState& program, const PopulationPlan& plan);
    void forget();

    /// The StateGuard a step or a spawn needs: FragmentBackend::stepState() on the backend's units.
    unsigned guardBits() const { return FragmentBackend::stepState(); }
    GLuint firstUnit() const { return backend->firstUnit; }
    GLuint unitCount() const { return backend->unitCount; }

    /// The step's passes: the next state's records in its planes, the pyramid's top the total.
    void runPasses(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& inputs,
                   const std::vector<std::shared_ptr<BufferState>>& outputs);
    /// The pyramid's top into the other count texel, which becomes the current one (after runPasses()).
    void takeTotals();
    /// The records the last runPasses() asked for (the pyramid's top; glReadPixels, blocking).
    std::uint32_t requested() { return backend->requestedTotals().at(0); }
    /// Records [0, records) of `staging` (an array buffer of `strideWords`-word records) drawn
    /// into field `entry`'s planes of `state` after the live count; counted calls.
    void spawnField(BufferState& state, std::size_t entry, GLuint staging, std::int64_t records, int strideWords);
    /// The live count grows by `records` (at most the capacity), dropped ones counted; the other
    /// count texel becomes current.
    void countSpawned(std::int64_t records);

    /// The current count texel (glReadPixels, blocking).
    CountTexel readCount() const;
    /// The current count texel into `pack` (glReadPixels into a GL_PIXEL_PACK_BUFFER: no wait).
    void packCount(GLuint pack) const;
    /// Overwrites the current count texel (glTexSubImage2D).
    void writeCount(const CountTexel& words) const;
    /// The values of emittedDrawSnippet()'s uniforms for a draw in `mode`: the count texel's unit, row
    /// and component 0, the mode's vertices per primitive.
    /// @throws Error Unsupported (a strip, loop or fan)
    FragmentBackend::SnippetValues snippetValues(DrawMode mode) const;
    /// The refusal of a draw whose bound program (named as `program`) lacks the snippet.
    Error snippetMissing(const std::string& program) const;
    /// Population::draw(): the capacity, emittedDrawSnippet() of the bound program clipping the
    /// vertices of the primitives at or past the live count; `uniformsSet`: the caller set the
    /// snippet's uniforms (the npm package, on a WebGLProgram Emscripten cannot name).
    /// @throws Error Unsupported (a strip, loop or fan), InvalidArgument (no snippet in the program)
    void draw(DrawMode mode, bool uniformsSet) const;
};

/// A count texel as a PopulationCount.
PopulationCount decodeCountTexel(const CountTexel& words, std::int64_t capacity);

} // namespace xfb::detail
