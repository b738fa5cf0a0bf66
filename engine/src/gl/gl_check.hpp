#pragma once
// Internal: turning GL errors into xfb::Error.

#include "gl/call_count.hpp"
#include "gl/gl_api.hpp"

#include <vector>

namespace xfb::gl {

/// Clears every pending error flag: glGetError until GL_NO_ERROR, at most 16 times (a lost
/// context may never answer GL_NO_ERROR). The errors cleared are appended to `into` when given.
void drainErrors(std::vector<GLenum>* into = nullptr);

/// The first error pending (GL_NO_ERROR when none), then drainErrors(): nothing is left pending.
/// Always two glGetError calls or more; glGetError stalls WebGL, so only where asked for.
GLenum takeFirstError();

/// "GL_INVALID_OPERATION" etc.
const char* errorName(GLenum error);

/// Throws Error(GlError) naming `what` if glGetError reports an error (drains all flags).
void check(const char* what);

} // namespace xfb::gl

// XFB_GL_COUNTED(call): the call, counted in gl::callCount(); an expression with the call's value.
// Used alone on the step's paths, whose errors are collected once after the pass.
#define XFB_GL_COUNTED(call) (++::xfb::gl::callCount(), call)

// XFB_GL(call): counted as well, and in debug builds followed by a check naming it (whose
// glGetError is not counted).
#ifdef XFB_GL_CHECK_EVERY_CALL
#define XFB_GL(call)                                                                                                   \
    do {                                                                                                               \
        XFB_GL_COUNTED(call);                                                                                          \
        ::xfb::gl::check(#call);                                                                                       \
    } while (0)
#else
#define XFB_GL(call) XFB_GL_COUNTED(call)
#endif
