#pragma once
// Internal: turning GL errors into xfb::Error.

#include "gl/gl_api.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace xfb::gl {

/// "GL_INVALID_OPERATION" etc.
const char* errorName(GLenum error);

/// Throws Error(GlError) naming `what` if glGetError reports an error (drains all flags).
void check(const char* what);

/// The first `bytes` of a buffer, copied to CPU memory (the GPU must be done writing it).
std::vector<std::byte> readBytes(GLuint buffer, std::uint64_t bytes);

/// Waits on the CPU until `fence` is signalled (flushing first). Not for WebGL, which cannot wait.
void waitFor(GLsync fence);
/// A fence after everything issued so far, waited for and deleted.
void finishWithFence();

} // namespace xfb::gl

// XFB_GL(call): in debug builds every call is followed by a check naming it.
#ifdef XFB_GL_CHECK_EVERY_CALL
#define XFB_GL(call) do { call; ::xfb::gl::check(#call); } while (0)
#else
#define XFB_GL(call) call
#endif
