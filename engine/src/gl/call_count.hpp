#pragma once
// Internal: the count of GL calls xfb makes, kept where the calls are made (XFB_GL and
// XFB_GL_COUNTED in gl/gl_check.hpp) rather than summed by hand. Pipeline::lastStepGlCalls()
// is its difference over a pass. The glGetError of error checks is not counted.

#include <cstdint>

namespace xfb::gl {

/// GL calls made through XFB_GL / XFB_GL_COUNTED on this thread so far (a GL context is current
/// on one thread at a time, so a thread's count is its context's).
inline std::uint64_t& callCount() {
    thread_local std::uint64_t count = 0;
    return count;
}

} // namespace xfb::gl
