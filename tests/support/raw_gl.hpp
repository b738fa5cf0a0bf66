#pragma once
// Raw GL for the hand-written baselines (tests/bench) and the driver probes (tests/device): a
// shader compiled and a program linked, each failure thrown with the driver's log and `what`.
#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/glcorearb.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace xfbtest {

/// glCreateShader + glShaderSource + glCompileShader; throws the info log when it fails.
inline GLuint compileShader(GLenum stage, const std::string& source, const std::string& what) {
    const GLuint s = glCreateShader(stage);
    const char* text = source.c_str();
    glShaderSource(s, 1, &text, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        glDeleteShader(s);
        throw std::runtime_error(what + ": the shader does not compile: " + log);
    }
    return s;
}

/// glLinkProgram of `program` (its shaders attached, transform feedback varyings set); throws the
/// info log when it fails. Returns `program`.
inline GLuint linkProgram(GLuint program, const std::string& what) {
    glLinkProgram(program);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(program, sizeof log, nullptr, log);
        throw std::runtime_error(what + ": the program does not link: " + log);
    }
    return program;
}

/// A compute program of one shader, linked (the shader deleted once attached).
inline GLuint computeProgram(const std::string& source, const std::string& what) {
    const GLuint program = glCreateProgram();
    const GLuint cs = compileShader(GL_COMPUTE_SHADER, source, what);
    glAttachShader(program, cs);
    glDeleteShader(cs);
    return linkProgram(program, what);
}

/// A transform-feedback program of one vertex shader whose input `a` is at location 0 and whose
/// output `o` is captured (interleaved), linked (the shader deleted once attached).
inline GLuint feedbackProgram(const std::string& vertexSource, const std::string& what) {
    const GLuint program = glCreateProgram();
    const GLuint vs = compileShader(GL_VERTEX_SHADER, vertexSource, what);
    glAttachShader(program, vs);
    glDeleteShader(vs);
    const char* varyings[] = {"o"};
    glTransformFeedbackVaryings(program, 1, varyings, GL_INTERLEAVED_ATTRIBS);
    glBindAttribLocation(program, 0, "a");
    return linkProgram(program, what);
}

/// A probe's main(): `run`'s exit status, or 2 with the log of a shader or program the driver refused.
inline int probeMain(int (*run)()) {
    try {
        return run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}

} // namespace xfbtest
