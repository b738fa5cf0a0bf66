#pragma once
// Internal: turning GL errors into xfb::Error.

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

// XFB_GL(call): in debug builds every call is followed by a check naming it.
#ifdef XFB_GL_CHECK_EVERY_CALL
#define XFB_GL(call) do { call; ::xfb::gl::check(#call); } while (0)
#else
#define XFB_GL(call) call
#endif
