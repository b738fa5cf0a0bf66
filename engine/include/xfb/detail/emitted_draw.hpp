#pragma once
/// @file
/// @brief NOT PUBLIC API (not installed): Pipeline::drawEmitted() and Population::draw() in two
/// halves, for the npm package's WebGL2 engine (web/src/engine_calls.cpp, webgl2/pipeline.ts,
/// webgl2/population.ts). After a fragment-backend step the bound program's emittedDrawSnippet()
/// uniforms must be set; the package sets them on the application's WebGLProgram itself, which
/// Emscripten's GL layer cannot name.

#include "xfb/pipeline.hpp"
#include "xfb/population.hpp"

#include <string>
#include <string_view>

namespace xfb::detail {

/// The values of emittedDrawSnippet()'s uniforms: `xfb_emitted_totals` = unit,
/// `xfb_emitted_at` = (row, component, perPrimitive, 0).
struct EmittedDrawUniforms {
    int unit = 0;
    int row = 0;
    int component = 0;
    int perPrimitive = 1;
};

/// What the caller sets on the bound program before drawEmittedWithUniformsSet(), after the checks
/// Pipeline::drawEmitted() makes. `programReadsTotal`: the bound program declares both uniforms;
/// false is refused, naming `program` (as the caller calls it) and the fix.
/// @throws Error InvalidArgument (no such budget, a mode outside DrawMode, the program without the
///         snippet), Unsupported (a strip, loop or fan; the last step ran on compute: draw with
///         Pipeline::drawEmitted(), which draws indirectly), ContextLost
EmittedDrawUniforms emittedDrawUniforms(const Pipeline& pipeline, std::string_view budget, DrawMode mode,
                                        bool programReadsTotal, const std::string& program);

/// Pipeline::drawEmitted() with the snippet's uniforms already set on the bound program
/// (emittedDrawUniforms()): binds the pyramid's top on its unit (restored after), glDrawArrays of
/// the budget's capacity.
void drawEmittedWithUniformsSet(const Pipeline& pipeline, std::string_view budget, DrawMode mode);

/// The same for a population on the fragment backend: the uniforms that read its count texel.
/// @throws Error as Population::draw() (InvalidArgument, Unsupported, ContextLost), and
///         Unsupported for a population on compute (draw it with Population::draw(): indirect)
EmittedDrawUniforms populationDrawUniforms(const Population& population, DrawMode mode, bool programReadsTotal,
                                           const std::string& program);
/// Population::draw() with the snippet's uniforms already set on the bound program.
void drawPopulationWithUniformsSet(const Population& population, DrawMode mode);

} // namespace xfb::detail
