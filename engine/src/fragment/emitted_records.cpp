// The fragment backend's emitted outputs (xfb::EmitFragmentPasses): a step renders every
// element's clamped counts into level 0 of the pyramid, sums the levels above, then one gather
// pass per budget (and per maxDrawBuffers outputs) writes record r of the budget, found by
// descending the pyramid in input order, into its outputs' planes. The totals stay in the
// pyramid's top texel: nothing is read back in a step.
#include "fragment/fragment_backend.hpp"
#include "gl/draw_mode.hpp"
#include "gl/gl_check.hpp"
#include "plan/histopyramid_translation.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

namespace xfb::detail {

void FragmentBackend::buildEmits(const ProgramState& program, int maxTexture) {
    const std::string& label = program.desc.label;
    const EmitFragmentPasses& e = shader.emits;
    pyramid = HistoPyramid::build(program.device, e, shader.vertexSource,
                                  firstUnit + unitCount - GLuint(2 * e.pyramid.groups), maxTexture, label);
    emitPasses.push_back(link(
        program, e.count,
        plan::cat({"the emitted counts' pass generated from '", label, "' (line numbers are the vertex shader's)"})));
    for (const auto& g : e.gathers)
        emitPasses.push_back(link(program, g.source,
                                  plan::cat({"the gather of budget '", emits.budgets[std::size_t(g.budget)].count,
                                             "' generated from '", label, "' (line numbers are the vertex shader's)"}),
                                  g.budget / 4));
}

// Before the step's units are bound: each emitted output's planes hold its buffer's bytes, since
// a gather writes only the records below the total and the rest must stay as they are (the bytes
// the compute backend leaves).
void FragmentBackend::prepareEmitted(const std::vector<std::shared_ptr<BufferState>>& outputs) {
    for (std::size_t o = 0; o < emits.outputs.size(); ++o) {
        BufferState& b = *outputs[std::size_t(emits.outputs[o].entry)];
        PlaneMirror& m = mirrorOf(b, shader.emits.outputLayouts[o]);
        if (!b.bound.current || b.bound.exposed) {
            copier->upload(b.name, m);
            b.bound.current = true;
        }
    }
}

void FragmentBackend::runEmits(const ProgramState& program, const std::vector<std::shared_ptr<BufferState>>& outputs) {
    const EmitFragmentPasses& e = shader.emits;
    pyramid->bindAtlases();
    Pass& count = emitPasses.front();
    XFB_GL_COUNTED(glUseProgram(count.program));
    count.uniforms.flush(program.uniforms, program.versions);
    pyramid->target(0);
    XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    pyramid->sumLevels();
    for (std::size_t i = 0; i < e.gathers.size(); ++i) {
        const auto& g = e.gathers[i];
        Pass& pass = emitPasses[i + 1];
        key.clear();
        attachments.clear();
        for (int o : g.outputs) {
            const auto& m = static_cast<const PlaneMirror&>(
                *outputs[std::size_t(emits.outputs[std::size_t(o)].entry)]->bound.mirror);
            key.push_back(m.serial);
            attachments.push_back(m.planes[0]);
        }
        XFB_GL_COUNTED(glUseProgram(pass.program));
        pass.uniforms.flush(program.uniforms, program.versions);
        bindTargets(pass, program, "an emitted budget's gather");
        // The record slots below the budget's capacity (its smallest buffer's).
        const std::int64_t capacity = emits.budgets[std::size_t(g.budget)].capacity;
        XFB_GL_COUNTED(
            glViewport(0, 0, shader.textureWidth,
                       GLsizei(std::max<std::int64_t>(1, (capacity + shader.textureWidth - 1) / shader.textureWidth))));
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    }
    // The planes hold the records; a handed-out buffer gets them now, the others when read.
    for (std::size_t o = 0; o < emits.outputs.size(); ++o) {
        BufferState& b = *outputs[std::size_t(emits.outputs[o].entry)];
        b.bound.current = true;
        b.bound.stale = !b.bound.exposed;
        if (b.bound.exposed)
            copier->writeBack(static_cast<const PlaneMirror&>(*b.bound.mirror), b.name, 0, emits.outputs[o].capacity);
    }
}

FragmentBackend::SnippetValues FragmentBackend::snippetValues(std::size_t budget, DrawMode mode) const {
    if (mode != DrawMode::Points && mode != DrawMode::Lines && mode != DrawMode::Triangles)
        throw Error(ErrorCode::Unsupported,
                    plan::cat({"Pipeline::drawEmitted('", emits.budgets[budget].count, "', ", drawModeName(mode),
                               "): after a fragment-backend step the records past the GPU total are moved out of the "
                               "clip volume, whole primitives of a list only; draw points, lines or triangles"}));
    const HistoPyramid::Top t = pyramid->top(budget);
    return {GLint(t.unit), t.row, t.component, verticesPerPrimitive(mode)};
}

Error FragmentBackend::snippetMissing(std::size_t budget, const std::string& program) const {
    return Error(ErrorCode::InvalidArgument,
                 plan::cat({"Pipeline::drawEmitted('", emits.budgets[budget].count,
                            "'): the fragment backend keeps the total on the GPU (the top of its pyramid of counts), "
                            "and ",
                            program,
                            " does not read it; paste xfb::emittedDrawSnippet() into its vertex shader and write "
                            "gl_Position = xfb_emittedPosition(...)"}));
}

void FragmentBackend::drawEmitted(std::size_t budget, DrawMode mode, bool uniformsSet) const {
    const SnippetValues v = snippetValues(budget, mode);
    GLint program = 0;
    if (!uniformsSet && !gl::setEmittedSnippetUniforms(v.unit, v.row, v.component, v.perPrimitive, 0, &program))
        throw snippetMissing(budget, plan::cat({"the bound program (GL name ", std::to_string(program), ")"}));
    XFB_GL(glActiveTexture(GLenum(GL_TEXTURE0 + GLuint(v.unit))));
    XFB_GL(glBindTexture(GL_TEXTURE_2D, pyramid->top(budget).atlas));
    XFB_GL(glActiveTexture(GL_TEXTURE0));
    XFB_GL(glDrawArrays(gl::primitiveMode(mode), 0, GLsizei(emits.budgets[budget].capacity)));
}

} // namespace xfb::detail
