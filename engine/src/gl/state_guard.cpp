#include "gl/state_guard.hpp"

#include "gl/gl_check.hpp"
#include "gl/state.hpp"

#include <exception>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>

// WebGL: the engine's programs, buffers and textures have no Emscripten name, so the saved state
// is kept as WebGL objects on a small stack (guards nest). Numbers are GL enums.
// clang-format off
EM_JS(void, xfb_guard_save, (unsigned bits, unsigned firstUnit, unsigned units), {
  var g = GLctx, s = { b: bits, f: firstUnit, n: units }, i;
  // WebGL2 refuses a transform-feedback draw (INVALID_OPERATION) while a buffer it writes is also
  // bound to another target. GL.xfbUnbindWritten(g, writes, subject), used here and by index.js's
  // replayed steps (defined by the first guard, so before any replayed step: a recipe comes from a
  // step in wasm), clears the bindings that hold a buffer `writes(subject, buffer)` names, other
  // than ARRAY_BUFFER (the callers' own): the generic UNIFORM_BUFFER, PIXEL_PACK/UNPACK,
  // COPY_READ/WRITE bindings and the indexed UNIFORM_BUFFER points. It returns what
  // GL.xfbRebind(g, saved) binds again, or null when it cleared nothing.
  // Points cost a query each (72 in Chromium): all are read only when the generic UNIFORM_BUFFER
  // binding differs from the one found by the last call (bindBufferBase/Range set it: the
  // application bound uniform buffers since), otherwise only the points where an xfb buffer was
  // found then. A point's range (UNIFORM_BUFFER_START/SIZE: a GPU round trip each) is read once per
  // point and buffer. Not seen: an xfb buffer bound at a new point, or the same buffer at the same
  // point with another range, followed by a rebind of the generic binding to the very buffer it
  // held at the last xfb call.
  if (!GL['xfbRebind']) {
    GL['xfbUnbindWritten'] = function (g, writes, subject) {
      // t: UNIFORM, PIXEL_PACK, PIXEL_UNPACK, COPY_READ, COPY_WRITE as target, binding
      var m = GL.xfbUniform || (GL.xfbUniform = { generic: undefined, points: [], ranges: new Map(), max: g.getParameter(0x8A2F),
        t: [0x8A11, 0x8A28, 0x88EB, 0x88ED, 0x88EC, 0x88EF, 0x8F36, 0x8F36, 0x8F37, 0x8F37] });
      var ub = g.getParameter(0x8A28), t = m.t, s = null, i, k, b, r, list;
      for (i = 0; i < 10; i += 2) {
        b = i ? g.getParameter(t[i + 1]) : ub;
        if (b && writes(subject, b)) (s = s || { ub: ub, t: [], p: [] }).t.push(t[i], b), g.bindBuffer(t[i], null);
      }
      var scan = ub !== m.generic, n = scan ? m.max : m.points.length;
      if (!n) return s;
      for (list = [], k = 0; k < n; k++) {
        i = scan ? k : m.points[k];
        b = g.getIndexedParameter(0x8A28, i);
        if (!b || GL.buffers[b.name] !== b) continue; // not one of xfb's
        list.push(i);
        if (!writes(subject, b)) continue;
        if (!(r = m.ranges.get(b.name * 128 + i))) m.ranges.set(b.name * 128 + i, (r = [g.getIndexedParameter(0x8A29, i), g.getIndexedParameter(0x8A2A, i)]));
        (s = s || { ub: ub, t: [], p: [] }).p.push(i, b, r);
        g.bindBufferBase(0x8A11, i, null);
      }
      m.points = list;
      m.generic = ub;
      return s;
    };
    GL['xfbRebind'] = function (g, s) {
      for (var i = 0; i < s.p.length; i += 3) {
        var r = s.p[i + 2];
        if (r[1]) g.bindBufferRange(0x8A11, s.p[i], s.p[i + 1], r[0], r[1]);
        else g.bindBufferBase(0x8A11, s.p[i], s.p[i + 1]);
      }
      if (s.p.length) g.bindBuffer(0x8A11, s.ub); // bindBufferBase/Range set the generic binding too
      for (i = 0; i < s.t.length; i += 2) g.bindBuffer(s.t[i], s.t[i + 1]);
    };
  }
  // A program the application deleted while current stays current until replaced, and cannot be
  // made current again: its DELETE_STATUS is read now, while it still exists (after xfb's
  // useProgram the query would be an INVALID_VALUE). isProgram() would answer at restore, but in
  // Chromium it is a synchronous round trip to the GPU process (~100 us, most of a step's CPU time).
  if ((bits & 1) && (s.p = g.getParameter(0x8B8D))) s.pd = g.getProgramParameter(s.p, 0x8B80);
  if (bits & 2) s.v = g.getParameter(0x85B5);
  // Generic buffer bindings are cleared while xfb runs: WebGL2 refuses a transform-feedback
  // draw while one of its buffers is also bound to another target.
  if ((bits & 4) && (s.a = g.getParameter(0x8894))) g.bindBuffer(0x8892, null);
  if ((bits & 8) && (s.r = g.getParameter(0x8F36))) g.bindBuffer(0x8F36, null);
  if ((bits & 8) && (s.w = g.getParameter(0x8F37))) g.bindBuffer(0x8F37, null);
  if ((bits & 16) && (s.u = g.getParameter(0x88EF))) g.bindBuffer(0x88EC, null);
  // Entry points that draw: the other bindings of xfb's buffers too (above; xfb's code binds none).
  if (bits & 4) s.o = GL['xfbUnbindWritten'](g, function (_, b) { return GL.buffers[b.name] === b; }, 0);
  // The application's transform feedback object, unbound around copies, fences and passes.
  if ((bits & 40) && (s.t = g.getParameter(0x8E25))) g.bindTransformFeedback(0x8E22, null);
  if ((bits & 2048) && (s.fb = g.getParameter(0x8C8F))) g.bindBuffer(0x8C8E, null);
  if (bits & 64) s.d = g.isEnabled(0x8C89);
  if (bits & 640) {
    s.at = g.getParameter(0x84E0); s.tx = []; s.sm = [];
    for (i = 0; i < units; i++) {
      g.activeTexture(0x84C0 + firstUnit + i);
      if (bits & 128) s.tx.push(g.getParameter(0x8069));
      if (bits & 512) { s.sm.push(g.getParameter(0x8919)); if (s.sm[i]) g.bindSampler(firstUnit + i, null); }
    }
  }
  if (bits & 256) {
    // UNPACK_FLIP_Y_WEBGL, UNPACK_PREMULTIPLY_ALPHA_WEBGL, ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS, ALIGNMENT
    var names = [0x9240, 0x9241, 0x0CF2, 0x0CF3, 0x0CF4, 0x0CF5], values = [false, false, 0, 0, 0, 4];
    s.ps = [];
    for (i = 0; i < names.length; i++) {
      var v = g.getParameter(names[i]);
      if (v !== values[i]) { s.ps.push(names[i], v); g.pixelStorei(names[i], values[i]); }
    }
  }
  (GL.xfbGuards || (GL.xfbGuards = [])).push(s);
});

EM_JS(void, xfb_guard_restore, (int unwinding), {
  var g = GLctx, s = GL.xfbGuards.pop(), b = s.b, u = unwinding, i;
  // name 0: deleted by xfb's own glDeleteProgram (Emscripten's mark) during this call.
  if (b & 1) g.useProgram(s.p && !s.pd && s.p.name !== 0 ? s.p : null);
  if (b & 2) g.bindVertexArray(s.v);
  if ((b & 4) && (s.a || u)) g.bindBuffer(0x8892, s.a);
  if ((b & 8) && (s.r || u)) g.bindBuffer(0x8F36, s.r);
  if ((b & 8) && (s.w || u)) g.bindBuffer(0x8F37, s.w);
  if ((b & 16) && (s.u || u)) g.bindBuffer(0x88EC, s.u);
  if ((b & 40) && (s.t || (u && (b & 32)))) g.bindTransformFeedback(0x8E22, s.t);
  if (s.o) GL['xfbRebind'](g, s.o);
  if ((b & 2048) && (s.fb || u)) g.bindBuffer(0x8C8E, s.fb);
  if ((b & 64) && (s.d || u)) { if (s.d) g.enable(0x8C89); else g.disable(0x8C89); }
  for (i = 0; i < s.n; i++) {
    if (b & 128) { g.activeTexture(0x84C0 + s.f + i); g.bindTexture(0x0DE1, s.tx[i]); }
    if ((b & 512) && s.sm[i]) g.bindSampler(s.f + i, s.sm[i]);
  }
  if (b & 128) g.activeTexture(s.at);
  if (b & 256) for (i = 0; i < s.ps.length; i += 2) g.pixelStorei(s.ps[i], s.ps[i + 1]);
});
// clang-format on
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

constexpr unsigned kRelied = ReliedPixelStore | ReliedSamplers;

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
    if (bits_ & CachedCopyBuffers) clear(GL_COPY_READ_BUFFER_BINDING, GL_COPY_READ_BUFFER, copyRead_), clear(GL_COPY_WRITE_BUFFER_BINDING, GL_COPY_WRITE_BUFFER, copyWrite_);
    if (bits_ & CachedUnpackBuffer) clear(GL_PIXEL_UNPACK_BUFFER_BINDING, GL_PIXEL_UNPACK_BUFFER, unpack_);
    if (bits_ & (CachedTransformFeedback | CachedCopyBuffers)) feedback_ = getInt(GL_TRANSFORM_FEEDBACK_BINDING);
    // As on WebGL (above): the application's transform feedback object is unbound around copies,
    // unless it is active and not paused: it cannot be unbound then (xfb's entry points refuse).
    if ((bits_ & CachedCopyBuffers) && feedback_) {
        if (!getInt(GL_TRANSFORM_FEEDBACK_ACTIVE) || getInt(GL_TRANSFORM_FEEDBACK_PAUSED)) XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        else if (!(bits_ & CachedTransformFeedback)) feedback_ = 0; // left bound: nothing to rebind
    }
    if (bits_ & CachedFeedbackBuffer) clear(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, GL_TRANSFORM_FEEDBACK_BUFFER, feedbackBuffer_);
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
}

GLenum StateGuard::pixelStoreName(int i) const {
    static constexpr GLenum names[kPixelStore] = {GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_ALIGNMENT,
                                                  GL_UNPACK_SWAP_BYTES};
    return i == 4 && !desktop_ ? 0 : names[i]; // UNPACK_SWAP_BYTES is desktop only
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
    if (bits_ & CachedProgram) XFB_GL_COUNTED(glUseProgram(program_ && XFB_GL_COUNTED(glIsProgram(GLuint(program_))) ? GLuint(program_) : 0));
    if (bits_ & CachedVertexArray) XFB_GL_COUNTED(glBindVertexArray(GLuint(vertexArray_)));
    rebind(CachedArrayBuffer, arrayBuffer_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_ARRAY_BUFFER, n)); });
    rebind(CachedCopyBuffers, copyRead_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_COPY_READ_BUFFER, n)); });
    rebind(CachedCopyBuffers, copyWrite_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, n)); });
    rebind(CachedUnpackBuffer, unpack_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_PIXEL_UNPACK_BUFFER, n)); });
    // (CachedCopyBuffers alone: only an object it unbound; xfb's copies bind none.)
    if ((bits_ & CachedTransformFeedback) ? (feedback_ || all) : (bits_ & CachedCopyBuffers) && feedback_)
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, GLuint(feedback_)));
    rebind(CachedFeedbackBuffer, feedbackBuffer_, [](GLuint n) { XFB_GL_COUNTED(glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, n)); });
    if ((bits_ & CachedDiscard) && (discard_ || all)) discard_ ? XFB_GL_COUNTED(glEnable(GL_RASTERIZER_DISCARD)) : XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
    if ((bits_ & CachedDiscard) && desktop_ && (restart_ || all)) restart_ ? XFB_GL_COUNTED(glEnable(GL_PRIMITIVE_RESTART)) : XFB_GL_COUNTED(glDisable(GL_PRIMITIVE_RESTART));
    for (unsigned i = 0; i < units_; ++i) {
        if (bits_ & CachedTextures) {
            XFB_GL_COUNTED(glActiveTexture(GL_TEXTURE0 + firstUnit_ + i));
            XFB_GL_COUNTED(glBindTexture(GL_TEXTURE_2D, GLuint(textures_[i])));
        }
        if ((bits_ & ReliedSamplers) && samplers_[i]) XFB_GL_COUNTED(glBindSampler(firstUnit_ + i, GLuint(samplers_[i])));
    }
    if (bits_ & CachedTextures) XFB_GL_COUNTED(glActiveTexture(GLenum(activeTexture_)));
    if (bits_ & ReliedPixelStore)
        for (int i = 0; i < kPixelStore; ++i)
            if (GLenum name = pixelStoreName(i); name && pixelStore_[i] != pixelStoreDefault(i)) XFB_GL_COUNTED(glPixelStorei(name, pixelStore_[i]));
}

#endif

} // namespace xfb::gl
