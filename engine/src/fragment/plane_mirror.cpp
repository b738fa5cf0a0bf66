#include "fragment/plane_mirror.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"
#include "gl/state_guard.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb::detail {

namespace {

// An RGBA32UI texture, sampled only at texel centres (NEAREST: integer textures are incomplete
// with a linear filter, and read 0 then).
gl::TextureName wordTexture(int width, int rows) {
    gl::TextureName t = gl::TextureName::create();
    XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, t));
    XFB_GL_COUNTED(glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32UI, width, std::max(rows, 1)));
    XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    XFB_GL_COUNTED(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST));
    return t;
}

void* byteOffset(std::int64_t bytes) { return reinterpret_cast<void*>(std::uintptr_t(bytes)); }

// Texels [t0, t1) of a linear texture `width` wide, texel t at byte 16 t of the buffer bound to
// GL_PIXEL_PACK_BUFFER (pack: from the read framebuffer) or GL_PIXEL_UNPACK_BUFFER (into the
// texture bound on the active unit): a partial first row, the full rows, a partial last row.
void transferTexels(bool pack, int width, std::int64_t t0, std::int64_t t1) {
    auto rect = [&](std::int64_t t, std::int64_t w, std::int64_t h) {
        const GLint x = GLint(t % width), y = GLint(t / width);
        if (pack)
            XFB_GL_COUNTED(
                glReadPixels(x, y, GLsizei(w), GLsizei(h), GL_RGBA_INTEGER, GL_UNSIGNED_INT, byteOffset(t * 16)));
        else
            XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, GLsizei(w), GLsizei(h), GL_RGBA_INTEGER,
                                           GL_UNSIGNED_INT, byteOffset(t * 16)));
    };
    if (t0 < t1 && t0 % width) {
        const std::int64_t n = std::min<std::int64_t>(width - t0 % width, t1 - t0);
        rect(t0, n, 1);
        t0 += n;
    }
    if (const std::int64_t rows = (t1 - t0) / width; rows > 0) {
        rect(t0, width, rows);
        t0 += rows * width;
    }
    if (t0 < t1) rect(t0, t1 - t0, 1);
}

} // namespace

std::shared_ptr<PlaneCopier> PlaneCopier::create(const std::shared_ptr<DeviceState>& device,
                                                 const FragmentShader& shader, int maxDrawBuffers, int planes,
                                                 GLuint firstUnit, std::int64_t linearTexels) {
    auto c = std::make_shared<PlaneCopier>();
    c->enroll(device);
    c->device = device.get();
    c->version = shader.version;
    c->triangle = shader.vertexSource;
    const int width = c->width = shader.textureWidth;
    c->maxDrawBuffers = maxDrawBuffers;
    c->planes = planes;
    c->firstUnit = firstUnit;
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit));
    c->linear = wordTexture(width, int((linearTexels + width - 1) / width));
    c->toLinear = gl::FramebufferName::create();
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, c->toLinear));
    XFB_GL_COUNTED(glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, c->linear, 0));
    if (GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE)
        throw Error(ErrorCode::Unsupported,
                    plan::cat({"the fragment backend cannot render into an RGBA32UI texture here (framebuffer status ",
                               std::to_string(status), "); use the transform-feedback or compute backend"}));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    c->toPlanes = gl::FramebufferName::create();
    c->vertexArray = gl::VertexArrayName::create();
    c->scratch = gl::BufferName::create();
    XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, c->scratch));
    XFB_GL_COUNTED(glBufferData(GL_COPY_WRITE_BUFFER, 16, nullptr, GL_DYNAMIC_COPY));
    XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
    return c;
}

void PlaneCopier::forget() {
    for (auto& p : programs) {
        for (auto& s : p.spread) s.forget();
        p.gather.forget();
    }
    linear.forget();
    toLinear.forget();
    toPlanes.forget();
    vertexArray.forget();
    scratch.forget();
}

std::unique_ptr<PlaneMirror> PlaneCopier::mirror(const std::shared_ptr<DeviceState>& device,
                                                 const PlaneLayout& layout) {
    auto m = std::make_unique<PlaneMirror>();
    m->enroll(device);
    m->layout = layout;
    m->serial = ++serials;
    m->maker = this;
    m->copier = shared_from_this();
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit));
    for (int p = 0; p < layout.planes; ++p) m->planes.push_back(wordTexture(width, layout.rows));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
    return m;
}

PlaneCopier::Programs& PlaneCopier::programsFor(const PlaneLayout& layout) {
    for (auto& p : programs)
        if (p.layout == layout) return p;
    const PlaneCopyShaders shaders = planeCopyShaders(layout, maxDrawBuffers, version);
    auto link = [&](const std::string& fragment, const char* what) {
        gl::ProgramName program = gl::linkProgram(
            {{GL_VERTEX_SHADER, triangle, "the fragment backend's triangle"}, {GL_FRAGMENT_SHADER, fragment, what}});
        if (auto log = gl::linkFailure(program))
            throw Error(ErrorCode::ProgramLink, plan::cat({what, " does not link: ", *log}));
        XFB_GL_COUNTED(glUseProgram(program));
        for (int p = 0; p < layout.planes; ++p)
            if (GLint at = glGetUniformLocation(program, plan::cat({"xfb_plane", std::to_string(p)}).c_str()); at >= 0)
                XFB_GL_COUNTED(glUniform1i(at, GLint(firstUnit) + p));
        if (GLint at = glGetUniformLocation(program, "xfb_linear"); at >= 0)
            XFB_GL_COUNTED(glUniform1i(at, GLint(firstUnit)));
        XFB_GL_COUNTED(glUseProgram(0));
        return program;
    };
    Programs p;
    p.layout = layout;
    for (const auto& s : shaders.spread) p.spread.push_back(link(s, "the fragment backend's copy into planes"));
    p.gather = link(shaders.gather, "the fragment backend's copy out of planes");
    programs.push_back(std::move(p));
    return programs.back();
}

void PlaneCopier::upload(GLuint name, const PlaneMirror& m) {
    gl::StateGuard transfer(*device, kPlaneTransferState);
    const PlaneLayout& l = m.layout;
    const TexelLayout t = texelLayout(std::uint64_t(l.strideWords) * 4 * std::uint64_t(l.count), width);
    const std::int64_t whole = t.words / 4;
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit));
    // A 16-byte record's plane is its own layout: copied straight in.
    XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, l.linear() ? m.planes[0] : linear));
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, name));
    transferTexels(false, width, 0, whole);
    if (t.tailWords) { // a pixel transfer reads whole texels: the last 1-3 words through the scratch buffer
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, scratch));
        XFB_GL_COUNTED(glCopyBufferSubData(GL_PIXEL_UNPACK_BUFFER, GL_COPY_WRITE_BUFFER, GLintptr(whole * 16), 0,
                                           GLsizeiptr(t.tailWords * 4)));
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
        XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, scratch));
        XFB_GL_COUNTED(glTexSubImage2D(GL_TEXTURE_2D, 0, GLint(whole % width), GLint(whole / width), 1, 1,
                                       GL_RGBA_INTEGER, GL_UNSIGNED_INT, nullptr));
    }
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0));
    XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0)); // `linear` stays bound on firstUnit for the spread
    if (l.linear()) return;
    // The spread passes, `linear` on firstUnit: up to maxDrawBuffers planes each.
    Programs& programs = programsFor(l);
    XFB_GL_COUNTED(glBindVertexArray(vertexArray));
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, toPlanes));
    XFB_GL_COUNTED(glViewport(0, 0, width, l.rows));
    for (std::size_t j = 0; j < programs.spread.size(); ++j) {
        GLenum drawBuffers[16] = {};
        int n = 0;
        for (int k = 0; k < maxDrawBuffers; ++k) {
            const std::size_t p = j * std::size_t(maxDrawBuffers) + std::size_t(k);
            // Every slot set: an attachment left from another mirror would limit the render area.
            XFB_GL_COUNTED(glFramebufferTexture2D(GL_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + k), GL_TEXTURE_2D,
                                                  p < m.planes.size() ? m.planes[p].get() : 0u, 0));
            if (p < m.planes.size() && n < 16) drawBuffers[n++] = GLenum(GL_COLOR_ATTACHMENT0 + k);
        }
        XFB_GL_COUNTED(glDrawBuffers(n, drawBuffers));
        XFB_GL_COUNTED(glUseProgram(programs.spread[j]));
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
    }
    XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
}

void PlaneCopier::writeBack(const PlaneMirror& m, GLuint name, std::int64_t first, std::int64_t count) {
    const PlaneLayout& l = m.layout;
    first = std::clamp<std::int64_t>(first, 0, l.count);
    const std::int64_t end = std::clamp<std::int64_t>(first + count, first, l.count);
    if (first == end) return;
    gl::StateGuard transfer(*device, kPlaneTransferState);
    const std::int64_t words = l.count * l.strideWords, whole = words / 4;
    const std::int64_t w0 = first * l.strideWords, w1 = end * l.strideWords;
    const std::int64_t t0 = w0 / 4, t1 = std::min((w1 + 3) / 4, whole);
    const bool tail = words % 4 != 0 && w1 > whole * 4; // the buffer's last, partial texel
    if (l.linear()) {
        XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, toPlanes));
        XFB_GL_COUNTED(
            glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m.planes[0], 0));
    } else {
        // The gather over the rows that hold texels [t0, t1] into `linear`, then read from there.
        const Programs& programs = programsFor(l);
        for (std::size_t p = 0; p < m.planes.size(); ++p) {
            XFB_GL_COUNTED(glActiveTexture(GLenum(GL_TEXTURE0 + firstUnit + p)));
            XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, m.planes[p]));
        }
        XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0));
        const std::int64_t last = tail ? whole : t1 - 1;
        const GLint r0 = GLint(t0 / width), r1 = GLint(last / width) + 1;
        XFB_GL_COUNTED(glBindVertexArray(vertexArray));
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, toLinear));
        XFB_GL_COUNTED(glViewport(0, r0, width, r1 - r0));
        XFB_GL_COUNTED(glUseProgram(programs.gather));
        XFB_GL_COUNTED(glDrawArrays(GL_TRIANGLES, 0, 3));
        XFB_GL_COUNTED(glBindFramebuffer(GL_FRAMEBUFFER, 0));
        XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, toLinear));
    }
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, name));
    transferTexels(true, width, t0, t1);
    if (tail) { // a pixel transfer writes whole texels: the last 1-3 words through the scratch buffer
        XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, scratch));
        XFB_GL_COUNTED(
            glReadPixels(GLint(whole % width), GLint(whole / width), 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, nullptr));
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, name));
        XFB_GL_COUNTED(glCopyBufferSubData(GL_PIXEL_PACK_BUFFER, GL_COPY_WRITE_BUFFER, 0, GLintptr(whole * 16),
                                           GLsizeiptr((words % 4) * 4)));
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
    }
    XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, 0));
}

void PlaneMirror::writeBack(DeviceState& device, GLuint name, std::int64_t first, std::int64_t count) {
    gl::StateGuard guard(device, kPlaneDrawState, copier->firstUnit, GLuint(copier->planes));
    XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD)); // the gather is a draw
    copier->writeBack(*this, name, first, count);
}

void PlaneMirror::forget() {
    for (auto& p : planes) p.forget();
    dead = true;
}

} // namespace xfb::detail
