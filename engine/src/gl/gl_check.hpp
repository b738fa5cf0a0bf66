#pragma once
// Internal: turning GL errors into xfb::Error.

#include "gl/gl_api.hpp"

namespace xfb::gl {

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
