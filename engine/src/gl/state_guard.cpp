#include "gl/state_guard.hpp"

#include "gl/gl_check.hpp"
#include "gl/state.hpp"

#include <exception>

#ifdef __EMSCRIPTEN__
// WebGL: the one JavaScript guard (state_guard_library.js) keeps the saved state as WebGL objects.
extern "C" void xfb_guard_save(unsigned bits, unsigned firstUnit, unsigned units);
extern "C" void xfb_guard_restore(int unwinding);
extern "C" void xfb_state_guard_bit(const char* name, unsigned bit);
extern "C" void xfb_state_guard_ready();

namespace {
// The JavaScript guard learns the bits by name once, when the module starts.
[[maybe_unused]] const bool bitsGiven = [] {
    struct Row {
        const char* name;
        unsigned bit;
    };
#define XFB_STATE_BIT_ROW(bit, name) Row{name, xfb::gl::bit},
    static constexpr Row rows[] = {XFB_GUARDED_STATE(XFB_STATE_BIT_ROW)};
#undef XFB_STATE_BIT_ROW
    for (const Row& r : rows) xfb_state_guard_bit(r.name, r.bit);
    xfb_state_guard_ready();
    return true;
}();
} // namespace
#endif

namespace xfb::gl {

namespace {

/// Drains the errors pending before an xfb call into `device.foreignErrors` (at most 16 kept).
void takeForeignErrors(detail::DeviceState& device) {
    std::vector<GLenum> pending;
    drainErrors(&pending);
    for (GLenum e : pending)
        if (device.foreignErrors.size() < 16) device.foreignErrors.push_back(e);
}

constexpr unsigned kRelied = ReliedPixelStore | ReliedSamplers | ReliedPackStore | ReliedRaster | ReliedFramebuffer;

} // namespace

#ifdef __EMSCRIPTEN__

StateGuard::StateGuard(detail::DeviceState& device, unsigned bits, unsigned firstUnit, unsigned units) {
    if (bits & TakeForeignErrors) takeForeignErrors(device);
    bits_ = (device.ownsContext ? bits & kRelied : bits) & kAllState;
    exceptions_ = std::uncaught_exceptions();
    if (bits_) xfb_guard_save(bits_, firstUnit, units);
}

StateGuard::~StateGuard() {
    if (bits_) xfb_guard_restore(std::uncaught_exceptions() > exceptions_ ? 1 : 0);
}

#else

namespace {
GLint getInt(GLenum name) {
    GLint v = 0;
    XFB_GL_COUNTED(glGetIntegerv(name, &v));
    return v;
}
} // namespace

StateGuard::StateGuard(detail::DeviceState& device, unsigned bits, unsigned firstUnit, unsigned units) {
    if (bits & TakeForeignErrors) takeForeignErrors(device);
    bits_ = (device.ownsContext ? bits & kRelied : bits) & kAllState;
    exceptions_ = std::uncaught_exceptions();
    desktop_ = !device.caps.es;
    firstUnit_ = firstUnit;
    units_ = units < kMaxUnits ? units : kMaxUnits;
    if (bits_ & CachedProgram) program_ = getInt(GL_CURRENT_PROGRAM);
    if (bits_ & CachedVertexArray) vertexArray_ = getInt(GL_VERTEX_ARRAY_BINDING);
    // Generic buffer bindings are cleared while xfb runs (WebGL2 refuses a transform-feedback draw
    // while one of its buffers is also bound to another target; xfb's code leaves them at zero).
    auto clear = [](GLenum query, GLenum target, GLint& saved) {
        if ((saved = getInt(query))) XFB_GL_COUNTED(glBindBuffer(target, 0));
    };
    if (bits_ & CachedArrayBuffer) clear(GL_ARRAY_BUFFER_BINDING, GL_ARRAY_BUFFER, arrayBuffer_);
    if (bits_ & CachedCopyBuffers)
        clear(GL_COPY_READ_BUFFER_BINDING, GL_COPY_READ_BUFFER, copyRead_),
            clear(GL_COPY_WRITE_BUFFER_BINDING, GL_COPY_WRITE_BUFFER, copyWrite_);
    if (bits_ & CachedUnpackBuffer) clear(GL_PIXEL_UNPACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER, unpack_);
    if (bits_ & CachedPackBuffer) clear(GL_PIXEL_PACK_BUFFER_BINDING, GL_PIXEL_PACK_BUFFER, pack_);
    if (bits_ & ReliedFramebuffer) {
        drawFramebuffer_ = getInt(GL_DRAW_FRAMEBUFFER_BINDING);
        readFramebuffer_ = getInt(GL_READ_FRAMEBUFFER_BINDING);
    }
    if (bits_ & ReliedRaster) {
        // Set by the fragment backend's passes (viewport) or here (the rest), restored at the end.
        XFB_GL_COUNTED(glGetIntegerv(GL_VIEWPORT, viewport_));
        if ((scissor_ = XFB_GL_COUNTED(glIsEnabled(GL_SCISSOR_TEST)))) XFB_GL_COUNTED(glDisable(GL_SCISSOR_TEST));
        if ((cull_ = XFB_GL_COUNTED(glIsEnabled(GL_CULL_FACE)))) XFB_GL_COUNTED(glDisable(GL_CULL_FACE));
        XFB_GL_COUNTED(glGetBooleanv(GL_COLOR_WRITEMASK, colorMask_));
        if (!(colorMask_[0] && colorMask_[1] && colorMask_[2] && colorMask_[3]))
            XFB_GL_COUNTED(glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE));
        if (desktop_) {
            if ((logicOp_ = XFB_GL_COUNTED(glIsEnabled(GL_COLOR_LOGIC_OP))))
                XFB_GL_COUNTED(glDisable(GL_COLOR_LOGIC_OP));
            XFB_GL_COUNTED(glGetIntegerv(GL_POLYGON_MODE, polygonMode_));
            if (polygonMode_[0] != GL_FILL) XFB_GL_COUNTED(glPolygonMode(GL_FRONT_AND_BACK, GL_FILL));
        }
    }
    if (bits_ & (CachedTransformFeedback | CachedCopyBuffers)) feedback_ = getInt(GL_TRANSFORM_FEEDBACK_BINDING);
    // As on WebGL (above): the application's transform feedback object is unbound around copies,
    // unless it is active and not paused: it cannot be unbound then (xfb's entry points refuse).
    if ((bits_ & CachedCopyBuffers) && feedback_) {
        if (!getInt(GL_TRANSFORM_FEEDBACK_ACTIVE) || getInt(GL_TRANSFORM_FEEDBACK_PAUSED))
            XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        else if (!(bits_ & CachedTransformFeedback))
            feedback_ = 0; // left bound: nothing to rebind
    }
    if (bits_ & CachedFeedbackBuffer)
        clear(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER, feedbackBuffer_);
    if (bits_ & CachedDiscard) {
        discard_ = XFB_GL_COUNTED(glIsEnabled(GL_RASTERIZER_DISCARD));
        if (desktop_) restart_ = XFB_GL_COUNTED(glIsEnabled(GL_PRIMITIVE_RESTART));
    }
    if (bits_ & (CachedTextures | ReliedSamplers)) {
        activeTexture_ = getInt(GL_ACTIVE_TEXTURE);
        for (unsigned i = 0; i < units_; ++i) {
            XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit_ + i));
            if (bits_ & CachedTextures) textures_[i] = getInt(GL_TEXTURE_BINDING_2D);
            if (bits_ & ReliedSamplers) {
                samplers_[i] = getInt(GL_SAMPLER_BINDING);
                if (samplers_[i]) XFB_GL_COUNTED(glBindSampler(firstUnit_ + i, 0));
            }
        }
        // The query walked the units: put the active one back now when no restore will (an owned
        // context does not cache textures).
        if (!(bits_ & CachedTextures)) XFB_GL_COUNTED(glActiveTexture(GLenum(activeTexture_)));
    }
    if (bits_ & ReliedPixelStore) {
        // Only the parameters that differ from the defaults are set (and restored).
        for (int i = 0; i < kPixelStore; ++i) {
            GLenum name = pixelStoreName(i);
            if (!name) continue;
            pixelStore_[i] = getInt(name);
            if (pixelStore_[i] != pixelStoreDefault(i)) XFB_GL_COUNTED(glPixelStorei(name, pixelStoreDefault(i)));
        }
    }
    if (bits_ & ReliedPackStore) {
        for (int i = 0; i < kPixelStore; ++i) {
            GLenum name = pixelStoreName(i, true);
            if (!name) continue;
            packStore_[i] = getInt(name);
            if (packStore_[i] != pixelStoreDefault(i)) XFB_GL_COUNTED(glPixelStorei(name, pixelStoreDefault(i)));
        }
    }
}

GLenum StateGuard::pixelStoreName(int i, bool pack) const {
    static constexpr GLenum unpack[kPixelStore] = {GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
                                                   GL_UNPACK_ALIGNMENT, GL_UNPACK_SWAP_BYTES};
    static constexpr GLenum packed[kPixelStore] = {GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
                                                   GL_PACK_ALIGNMENT, GL_PACK_SWAP_BYTES};
    return i == 4 && !desktop_ ? 0 : (pack ? packed : unpack)[i]; // *_SWAP_BYTES is desktop only
}

GLint StateGuard::pixelStoreDefault(int i) { return i == 3 ? 4 : 0; }

StateGuard::~StateGuard() {
    if (!bits_) return;
    // A throwing entry point may stop between a bind and its unbind: then restore everything.
    const bool all = std::uncaught_exceptions() > exceptions_;
    auto rebind = [&](unsigned bit, GLint saved, auto&& bind) {
        if ((bits_ & bit) && (saved || all)) bind(GLuint(saved));
    };
    // A program deleted while current stays current until replaced; it cannot be made current again.
    if (bits_ & CachedProgram)
        XFB_GL_COUNTED(glUseProgram(program_ && XFB_GL_COUNTED(glIsProgram(GLuint(program_))) ? GLuint(program_) : 0));
    if (bits_ & CachedVertexArray) XFB_GL_COUNTED(glBindVertexArray(GLuint(vertexArray_)));
    rebind(CachedArrayBuffer, arrayBuffer_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_ARRAY_BUFFER, n)); });
    rebind(CachedCopyBuffers, copyRead_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_COPY_READ_BUFFER, n)); });
    rebind(CachedCopyBuffers, copyWrite_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, n)); });
    rebind(CachedUnpackBuffer, unpack_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, n)); });
    rebind(CachedPackBuffer, pack_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_PACK_BUFFER, n)); });
    // The fragment backend leaves both bindings at zero.
    rebind(ReliedFramebuffer, drawFramebuffer_,
           [](GLuint n) { XFB_GL_COUNTED(glBindFramebuffer(GL_DRAW_FRAMEBUFFER, n)); });
    rebind(ReliedFramebuffer, readFramebuffer_,
           [](GLuint n) { XFB_GL_COUNTED(glBindFramebuffer(GL_READ_FRAMEBUFFER, n)); });
    if (bits_ & ReliedRaster) {
        XFB_GL_COUNTED(glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]));
        if (scissor_) XFB_GL_COUNTED(glEnable(GL_SCISSOR_TEST));
        if (cull_) XFB_GL_COUNTED(glEnable(GL_CULL_FACE));
        if (!(colorMask_[0] && colorMask_[1] && colorMask_[2] && colorMask_[3]))
            XFB_GL_COUNTED(glColorMask(colorMask_[0], colorMask_[1], colorMask_[2], colorMask_[3]));
        if (logicOp_) XFB_GL_COUNTED(glEnable(GL_COLOR_LOGIC_OP));
        if (desktop_ && polygonMode_[0] != GL_FILL)
            XFB_GL_COUNTED(glPolygonMode(GL_FRONT_AND_BACK, GLenum(polygonMode_[0])));
    }
    // (CachedCopyBuffers alone: only an object it unbound; xfb's copies bind none.)
    if ((bits_ & CachedTransformFeedback) ? (feedback_ || all) : (bits_ & CachedCopyBuffers) && feedback_)
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, GLuint(feedback_)));
    rebind(CachedFeedbackBuffer, feedbackBuffer_,
           [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, n)); });
    if ((bits_ & CachedDiscard) && (discard_ || all))
        discard_ ? XFB_GL_COUNTED(glEnable(GL_RASTERIZER_DISCARD)) : XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
    if ((bits_ & CachedDiscard) && desktop_ && (restart_ || all))
        restart_ ? XFB_GL_COUNTED(glEnable(GL_PRIMITIVE_RESTART)) : XFB_GL_COUNTED(glDisable(GL_PRIMITIVE_RESTART));
    for (unsigned i = 0; i < units_; ++i) {
        if (bits_ & CachedTextures) {
            XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit_ + i));
            XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, GLuint(textures_[i])));
        }
        if ((bits_ & ReliedSamplers) && samplers_[i])
            XFB_GL_COUNTED(glBindSampler(firstUnit_ + i, GLuint(samplers_[i])));
    }
    if (bits_ & CachedTextures) XFB_GL_COUNTED(glActiveTexture(GLenum(activeTexture_)));
    if (bits_ & ReliedPixelStore)
        for (int i = 0; i < kPixelStore; ++i)
            if (GLenum name = pixelStoreName(i); name && pixelStore_[i] != pixelStoreDefault(i))
                XFB_GL_COUNTED(glPixelStorei(name, pixelStore_[i]));
    if (bits_ & ReliedPackStore)
        for (int i = 0; i < kPixelStore; ++i)
            if (GLenum name = pixelStoreName(i, true); name && packStore_[i] != pixelStoreDefault(i))
                XFB_GL_COUNTED(glPixelStorei(name, packStore_[i]));
}

#endif

} // namespace xfb::gl
