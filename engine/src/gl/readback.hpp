#pragma once
// Internal: reading buffers back to the CPU and waiting for the GPU (readback.cpp, which also
// implements Buffer::readAsync and ReadbackRequest).
#include "gl/gl_api.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace xfb::gl {

/// `bytes` of a buffer from byte `offset`, copied to CPU memory (the GPU must be done writing
/// it): glMapBufferRange in 64 MiB windows, glGetBufferSubData on WebGL2.
std::vector<std::byte> readBytes(GLuint buffer, std::uint64_t offset, std::uint64_t bytes);

/// Waits on the CPU until `fence` is signalled (flushing first): glClientWaitSync (GL 3.2 / ES 3.0),
/// one second at a time. Not for WebGL, which cannot wait.
/// @throws Error GlError after 60 s without the fence signalled (a hung GPU), never waits forever
void waitFor(GLsync fence);
/// A fence after everything issued so far, waited for and deleted.
void finishWithFence();
/// A monotonic clock in milliseconds, for the backend trials (Backend::Auto). In WebAssembly
/// performance.now() itself: libc++'s steady_clock::now() may throw std::system_error, whose
/// message() brings printf and the locale tables into the module (about 8 KB raw).
double nowMs();

} // namespace xfb::gl
