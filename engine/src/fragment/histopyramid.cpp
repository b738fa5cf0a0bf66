#include "fragment/histopyramid.hpp"

#include "fragment/plane_mirror.hpp"
#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "gl/state_guard.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

namespace xfb::detail {

std::unique_ptr<HistoPyramid> HistoPyramid::build(const std::shared_ptr<DeviceState>& device,
                                                  const EmitFragmentPasses& passes, const std::string& triangle,
                                                  GLuint firstUnit, int maxTextureSize, const std::string& label) {
    using plan::cat;
    auto p = std::make_unique<HistoPyramid>();
    p->enroll(device);
    p->device = device.get();
    p->layout = passes.pyramid;
    p->firstUnit = firstUnit;
    const PyramidLayout& l = p->layout;
    for (int parity = 0; parity < 2; ++parity)
        if (l.atlasRows[parity] > maxTextureSize)
            throw Error(
                ErrorCode::Unsupported,
                cat({"program '", label, "': the emitted counts' pyramid of ", std::to_string(l.levels[0].nodes),
                     " elements needs ", std::to_string(l.atlasRows[parity]), " rows of ", std::to_string(l.width),
                     " RGBA32UI texels in the fragment backend, over this context's GL_MAX_TEXTURE_SIZE of ",
                     std::to_string(maxTextureSize),
                     "; run fewer elements per pipeline or use the compute "
                     "backend"}));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit));
    for (int g = 0; g < l.groups; ++g)
        for (int parity = 0; parity < 2; ++parity) {
            gl::TextureName t = gl::TextureName::create();
            XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, t));
            XFB_GL_COUNTED(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, l.width, l.atlasRows[parity]));
            XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
            XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
            p->atlases.push_back(std::move(t));
        }
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    GLenum drawBuffers[16] = {};
    for (int parity = 0; parity < 2; ++parity) {
        p->levels[parity] = gl::FramebufferName::create();
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, p->levels[parity]));
        for (int g = 0; g < l.groups; ++g) {
            XFB_GL_COUNTED(glFramebufferTexture2D(GL_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + g), GL_TEXTURE_2D,
                                                  p->atlases[std::size_t(2 * g + parity)], 0));
            drawBuffers[g] = GLenum(GL_COLOR_ATTACHMENT0 + g);
        }
        XFB_GL_COUNTED(glDrawBuffers(l.groups, drawBuffers));
        if (GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE)
            throw Error(ErrorCode::Unsupported,
                        cat({"program '", label, "': the fragment backend cannot render the emitted counts into ",
                             std::to_string(l.groups), " RGBA32UI textures at once here (framebuffer status ",
                             std::to_string(status), "); use the compute backend"}));
    }
    p->topReader = gl::FramebufferName::create();
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    for (std::size_t level = 1; level < l.levels.size(); ++level) {
        const std::string what =
            cat({"the emitted counts' pyramid pass of '", label, "' (level ", std::to_string(level), ")"});
        gl::ProgramName program = gl::linkProgram({{GL_VERTEX_SHADER, triangle, "the fragment backend's triangle"},
                                                   {GL_FRAGMENT_SHADER, passes.reduce[level - 1], what}});
        if (auto log = gl::linkFailure(program))
            throw Error(ErrorCode::ProgramLink, cat({what, " does not link: ", *log}));
        XFB_GL_COUNTED(glUseProgram(program));
        for (int g = 0; g < l.groups; ++g)
            if (GLint at = glGetUniformLocation(program, cat({"xfb_below", std::to_string(g)}).c_str()); at >= 0)
                XFB_GL_COUNTED(glUniform1i(at, GLint(firstUnit) + 2 * g + GLint((level - 1) % 2)));
        p->reduce.push_back(std::move(program));
    }
    XFB_GL_COUNTED(glUseProgram(0));
    return p;
}

void HistoPyramid::bindAtlases() const {
    for (std::size_t k = 0; k < atlases.size(); ++k) {
        XFB_GL_COUNTED(glActiveTexture(GLenum(GL_TEXTURE0 + firstUnit + k)));
        XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, atlases[k]));
    }
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
}

void HistoPyramid::target(std::size_t level) const {
    const PyramidLayout::Level& l = layout.levels[level];
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, levels[level % 2]));
    XFB_GL_COUNTED(glViewport(0, l.firstRow, layout.width, l.rows));
}

void HistoPyramid::sumLevels() const {
    for (std::size_t level = 1; level < layout.levels.size(); ++level) {
        XFB_GL_COUNTED(glUseProgram(reduce[level - 1]));
        target(level);
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    }
}

HistoPyramid::Top HistoPyramid::top(std::size_t budget) const {
    const std::size_t topLevel = layout.levels.size() - 1;
    const std::size_t atlas = 2 * (budget / 4) + topLevel % 2;
    return {atlases[atlas], firstUnit + GLuint(atlas), layout.levels[topLevel].firstRow, int(budget % 4)};
}

std::vector<std::uint32_t> HistoPyramid::totals(std::size_t budgets) {
    gl::StateGuard guard(*device, gl::ReliedFramebuffer | kPlaneTransferState);
    std::vector<std::uint32_t> out(budgets);
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, topReader));
    for (int g = 0; g < layout.groups; ++g) {
        const Top t = top(std::size_t(4 * g));
        XFB_GL_COUNTED(glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.atlas, 0));
        std::uint32_t texel[4] = {};
        XFB_GL_COUNTED(glReadPixels(0, t.row, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, texel));
        for (int c = 0; c < 4 && std::size_t(4 * g + c) < budgets; ++c) out[std::size_t(4 * g + c)] = texel[c];
    }
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
    return out;
}

void HistoPyramid::forget() {
    for (auto& a : atlases) a.forget();
    for (auto& f : levels) f.forget();
    for (auto& r : reduce) r.forget();
    topReader.forget();
}

} // namespace xfb::detail
