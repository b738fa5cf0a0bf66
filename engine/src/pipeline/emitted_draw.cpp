// Drawing emitted records: Pipeline::drawEmitted() (an indirect draw of the compute backend's
// totals, or the capacity clipped at the pyramid's top by emittedDrawSnippet() after a fragment
// step) and its two halves for the npm package (xfb/detail/emitted_draw.hpp).
#include "xfb/detail/emitted_draw.hpp"

#include "gl/draw_mode.hpp"
#include "pipeline/pipeline_state.hpp"
#include "xfb/primitive_count.hpp"

namespace xfb {

namespace detail {

namespace {

// The checks every draw of emitted records makes first; the budget's index.
std::size_t checkedBudget(const PipelineState& s, std::string_view budget, DrawMode mode) {
    s.device->requireContext("Pipeline::drawEmitted");
    checkDrawMode(mode, "Pipeline::drawEmitted");
    return s.budgetIndex(budget);
}

bool pyramidHoldsTotals(const PipelineState& s) { return s.emittedByFragment || !s.compute; }

// Binds the pyramid's top on its unit and draws, restoring that unit's binding after.
void drawFromPyramid(const PipelineState& s, std::size_t b, DrawMode mode, bool uniformsSet) {
    gl::StateGuard guard(*s.device, gl::CachedTextures | gl::ReliedSamplers | gl::TakeForeignErrors,
                         s.fragment->pyramid->top(b).unit, 1);
    s.fragment->drawEmitted(b, mode, uniformsSet);
}

const PipelineState& fragmentDrawn(const Pipeline& pipeline, std::string_view budget, DrawMode mode, std::size_t& b) {
    const auto& s = StepReplay::state(pipeline);
    b = checkedBudget(s, budget, mode);
    if (!pyramidHoldsTotals(s))
        throw Error(ErrorCode::Unsupported,
                    plan::cat({"drawing budget '", s.emits.budgets[b].count,
                               "': the last step ran on compute, whose totals are an indirect-draw command; draw "
                               "with Pipeline::drawEmitted()"}));
    return s;
}

} // namespace

EmittedDrawUniforms emittedDrawUniforms(const Pipeline& pipeline, std::string_view budget, DrawMode mode,
                                        bool programReadsTotal, const std::string& program) {
    std::size_t b = 0;
    const auto& s = fragmentDrawn(pipeline, budget, mode, b);
    const auto v = s.fragment->snippetValues(b, mode);
    if (!programReadsTotal) throw s.fragment->snippetMissing(b, program);
    return {v.unit, v.row, v.component, v.perPrimitive};
}

void drawEmittedWithUniformsSet(const Pipeline& pipeline, std::string_view budget, DrawMode mode) {
    std::size_t b = 0;
    const auto& s = fragmentDrawn(pipeline, budget, mode, b);
    drawFromPyramid(s, b, mode, true);
}

} // namespace detail

void Pipeline::drawEmitted(std::string_view budget, DrawMode mode) const {
    const auto& s = detail::StepReplay::state(*this);
    const std::size_t b = detail::checkedBudget(s, budget, mode);
    if (detail::pyramidHoldsTotals(s)) {
        // No indirect draw (ES 3.0, WebGL2): the capacity, the records past the total clipped away.
        detail::drawFromPyramid(s, b, mode, false);
        return;
    }
#ifndef __EMSCRIPTEN__
    // A program holding emittedDrawSnippet() (one that also draws after fragment steps, which Auto
    // may choose) keeps every vertex of the indirect draw: xfb_emitted_at.w = 1. Its sampler, not
    // read then, goes to the last unit, where no other sampler type of the program is likely.
    GLint units = 1;
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    (void)gl::setEmittedSnippetUniforms(units - 1, 0, 0, 1, 1);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, s.computeTotals("Pipeline::drawEmitted"));
    glDrawArraysIndirect(gl::primitiveMode(mode),
                         reinterpret_cast<const void*>(std::uintptr_t(b * detail::kTotalsWords * 4)));
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
#endif
}

} // namespace xfb
