#pragma once
// A counting layer under every GL call of the process: gl_call_counter.cpp defines each function
// <GL/glcorearb.h> declares (generated from the header, so nothing the engine calls is missed),
// counts it and forwards to the real entry point in glvnd's libOpenGL.so.0. The engine is a
// static library, so the linker binds its calls, the tests' and the benches' to these
// definitions. Link xfb::gl_call_counter into a native executable; not for Emscripten.
#include <map>
#include <string>

namespace xfbtest {

/// GL calls made since the last resetGlCalls().
struct GlCalls {
    long total = 0;                         ///< every GL function, glGetError included
    long getError = 0;                      ///< glGetError alone (debug builds check after each call)
    long created = 0;                       ///< glGen* / glCreate* / glFenceSync: GL objects created
    std::map<std::string, long> byFunction; ///< the functions called at least once

    long withoutGetError() const { return total - getError; }
    long of(const std::string& function) const;
    /// "glUseProgram 1, glBindVertexArray 1, ..." for failure messages.
    std::string describe() const;
};

void resetGlCalls();
/// The next `n` glLinkProgram calls of vertex programs fail for real: the counting layer first
/// asks to capture a varying no shader writes (glTransformFeedbackVaryings), so the GL linker
/// refuses the program with its own log. For provoking link errors the engine never expects.
void failNextLinks(int n);
/// Every call since the reset (cheap: one counter).
long glCallTotal();
GlCalls glCalls();

} // namespace xfbtest
