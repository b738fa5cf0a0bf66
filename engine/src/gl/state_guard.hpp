#pragma once
// Internal: the shared-context contract (docs/guide/sharing-a-context.md) in one place. Every public
// entry point that touches GL state opens one StateGuard naming what it touches; the guard
//  - sets the state xfb relies on and cannot assume (pixel-store unpack parameters, no sampler
//    object on the texture units it samples), always, and restores it afterwards;
//  - saves the state that engines cache (program, vertex array, buffer bindings, active texture
//    and the textures it binds, transform feedback binding, rasterizer discard) and restores
//    it when the guard ends, unless the Device was created with DeviceOptions::ownsContext.
// Code inside a guard leaves what it binds at zero where it can; the guard then rebinds only
// what differs, so an application that keeps those bindings at zero pays queries, not binds.
// On WebGL the saved state is kept as JavaScript objects (the engine's programs and buffers have
// no Emscripten name), so the web build saves and restores in JavaScript: state_guard_library.js,
// the one JavaScript guard, which the npm package's replayed steps call too.
#include "gl/gl_api.hpp"

#include <bit>

namespace xfb::detail {
struct DeviceState;
}

namespace xfb::gl {

/// What an entry point touches. Cached* bits are restored unless the context is owned;
/// Relied* bits are set to what xfb needs and restored in both modes.
enum StateBit : unsigned {
    CachedProgram = 1u << 0,     // glUseProgram
    CachedVertexArray = 1u << 1, // glBindVertexArray (and with it ELEMENT_ARRAY_BUFFER)
    // Generic buffer bindings: a non-zero one is unbound when the guard starts (a transform-feedback
    // draw fails on WebGL2 while its buffer is bound to another target) and rebound when it ends.
    CachedArrayBuffer = 1u << 2, // glBindBuffer(GL_ARRAY_BUFFER)
    // Copies and fences: also a non-zero transform feedback object is unbound around them (WebGL
    // refuses a copy from or into a buffer the bound object holds; Chromium was seen losing the page's
    // contexts on a copy and a fence with one bound). On WebGL a guard with CachedTransformFeedback
    // (passes, captures) unbinds it at the start as well.
    CachedCopyBuffers = 1u << 3,       // glBindBuffer(GL_COPY_READ_BUFFER / GL_COPY_WRITE_BUFFER)
    CachedUnpackBuffer = 1u << 4,      // glBindBuffer(GL_PIXEL_UNPACK_BUFFER)
    CachedTransformFeedback = 1u << 5, // glBindTransformFeedback
    CachedDiscard = 1u << 6,           // glEnable/glDisable(GL_RASTERIZER_DISCARD) (+ PRIMITIVE_RESTART natively)
    CachedTextures = 1u << 7,          // glActiveTexture + glBindTexture(GL_TEXTURE_2D) on the guarded units
    ReliedPixelStore = 1u << 8,        // UNPACK_ROW_LENGTH/SKIP_*/ALIGNMENT (+ FLIP_Y/PREMULTIPLY on WebGL) at defaults
    ReliedSamplers = 1u << 9,          // no sampler object on the guarded units (glBindSampler(unit, 0))
    CachedFeedbackBuffer = 1u << 11,   // the generic GL_TRANSFORM_FEEDBACK_BUFFER binding (glBindBufferBase sets it)
    // WebGL only (native GL draws regardless): every binding that holds a buffer the guarded work
    // may write is cleared and rebound: ARRAY_BUFFER, the generic UNIFORM_BUFFER, PIXEL_PACK/UNPACK,
    // COPY_READ/WRITE and the indexed UNIFORM_BUFFER points. The entry points that draw set it
    // (their buffers: xfb's), and so does the package's replayed step (its recipe's buffers).
    CachedWrittenBindings = 1u << 12,
    // The fragment backend (fragment/fragment_backend.hpp) renders into its own framebuffers and
    // reads them back into buffers. The framebuffer bindings are restored in both modes: with the
    // application's own context a draw into framebuffer 0 is still not what it asked for (and with
    // no surface, 0 is incomplete: every later draw would fail).
    ReliedFramebuffer = 1u << 13, // glBindFramebuffer(GL_DRAW_FRAMEBUFFER / GL_READ_FRAMEBUFFER)
    CachedPackBuffer = 1u << 14,  // glBindBuffer(GL_PIXEL_PACK_BUFFER)
    ReliedPackStore = 1u << 15,   // PACK_ROW_LENGTH/SKIP_*/ALIGNMENT (+ PACK_SWAP_BYTES natively) at defaults
    // The state a draw into xfb's framebuffer relies on, set and restored in both modes (an owned
    // context keeps its own viewport): the viewport, SCISSOR_TEST and CULL_FACE off, the colour
    // write mask all true; natively also COLOR_LOGIC_OP off and POLYGON_MODE FILL.
    ReliedRaster = 1u << 16,
    // Not state: the entry point checks glGetError when it ends, so errors already pending when it
    // starts are the application's. They are drained into DeviceState::foreignErrors (kept, not
    // blamed on xfb, not thrown) so the check reports only what xfb's own calls raised.
    TakeForeignErrors = 1u << 10,
};

/// The state bits by the names JavaScript reads them under (state_guard_library.js, which the
/// bindings give them to at start-up, and the npm package's replayed step): never retyped there.
// One row per line (clang-format would fold macro rows into each other).
// clang-format off
#define XFB_GUARDED_STATE(X)                                                                                           \
    X(CachedProgram, "program")                                                                                        \
    X(CachedVertexArray, "vertexArray")                                                                                \
    X(CachedArrayBuffer, "arrayBuffer")                                                                                \
    X(CachedCopyBuffers, "copyBuffers")                                                                                \
    X(CachedUnpackBuffer, "unpackBuffer")                                                                              \
    X(CachedTransformFeedback, "transformFeedback")                                                                    \
    X(CachedDiscard, "discard")                                                                                        \
    X(CachedTextures, "textures")                                                                                      \
    X(ReliedPixelStore, "pixelStore")                                                                                  \
    X(ReliedSamplers, "samplers")                                                                                      \
    X(CachedFeedbackBuffer, "feedbackBuffer")                                                                          \
    X(CachedWrittenBindings, "writtenBindings")                                                                        \
    X(ReliedFramebuffer, "framebuffer")                                                                                \
    X(CachedPackBuffer, "packBuffer")                                                                                  \
    X(ReliedPackStore, "packStore")                                                                                    \
    X(ReliedRaster, "raster")
// clang-format on
#define XFB_STATE_BIT_OR(bit, name) | bit

/// What a transform-feedback step touches (ARRAY_BUFFER: cleared, see CachedArrayBuffer).
constexpr unsigned kStepState = CachedProgram | CachedVertexArray | CachedArrayBuffer | CachedWrittenBindings |
                                CachedTransformFeedback | CachedDiscard;
/// Everything (object creation, context restoration, captures): every bit but TakeForeignErrors.
constexpr unsigned kAllState = 0u XFB_GUARDED_STATE(XFB_STATE_BIT_OR);
#define XFB_STATE_BIT_COUNT(bit, name) +1
static_assert(std::popcount(kAllState) == 0 XFB_GUARDED_STATE(XFB_STATE_BIT_COUNT),
              "XFB_GUARDED_STATE: one row per bit, no bit twice");
static_assert(!(kAllState & TakeForeignErrors), "TakeForeignErrors is no state: the JavaScript guard never sees it");

class StateGuard {
public:
    /// Saves (and for Relied* bits, sets) the state in `bits`; texture units [firstUnit,
    /// firstUnit + units) for CachedTextures / ReliedSamplers.
    StateGuard(detail::DeviceState& device, unsigned bits, unsigned firstUnit = 0, unsigned units = 0);
    ~StateGuard();
    StateGuard(const StateGuard&) = delete;
    StateGuard& operator=(const StateGuard&) = delete;

private:
    unsigned bits_ = 0;
    int exceptions_ = 0; // std::uncaught_exceptions() at construction: tells a throwing exit
#ifndef __EMSCRIPTEN__
    // units: one per captured buffer (record gather), one per input entry (fragment backend)
    static constexpr int kMaxUnits = 16, kPixelStore = 5;
    GLenum pixelStoreName(int i, bool pack = false) const;
    static GLint pixelStoreDefault(int i);
    bool desktop_ = false;
    GLint program_ = 0, vertexArray_ = 0, arrayBuffer_ = 0, copyRead_ = 0, copyWrite_ = 0, unpack_ = 0, feedback_ = 0,
          feedbackBuffer_ = 0;
    GLboolean discard_ = GL_FALSE, restart_ = GL_FALSE;
    GLint activeTexture_ = 0, textures_[kMaxUnits] = {}, samplers_[kMaxUnits] = {}, pixelStore_[kPixelStore] = {},
          packStore_[kPixelStore] = {};
    GLint drawFramebuffer_ = 0, readFramebuffer_ = 0, pack_ = 0, viewport_[4] = {}, polygonMode_[2] = {};
    GLboolean scissor_ = GL_FALSE, cull_ = GL_FALSE, logicOp_ = GL_FALSE, colorMask_[4] = {};
    unsigned firstUnit_ = 0, units_ = 0;
#endif
};

} // namespace xfb::gl
