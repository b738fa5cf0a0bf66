#pragma once
// Drawing in GL tests: a small RGBA8 framebuffer and a flat-colour program, for tests that check
// what a draw covered (drawCaptured, drawEmitted).
#include "gl/gl_api.hpp"
#include "xfb/buffer.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace xfbtest {

/// Links a vertex and fragment shader (test sources, known to compile).
inline GLuint linkDrawProgram(const char* vertex, const char* fragment) {
    GLuint program = glCreateProgram();
    for (auto [stage, src] : {std::pair{GL_VERTEX_SHADER, vertex}, std::pair{GL_FRAGMENT_SHADER, fragment}}) {
        GLuint s = glCreateShader(stage);
        glShaderSource(s, 1, &src, nullptr);
        glCompileShader(s);
        glAttachShader(program, s);
        glDeleteShader(s); // freed with the program
    }
    glLinkProgram(program);
    return program;
}

/// A width x height framebuffer, bound and cleared to black by clear(); restores the binding it
/// found (the headless context's own framebuffer) when destroyed.
struct Offscreen {
    int width, height;
    GLuint fbo = 0, color = 0;
    GLint previous = 0;
    Offscreen(int w, int h) : width(w), height(h) {
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
        glGenFramebuffers(1, &fbo);
        glGenRenderbuffers(1, &color);
        glBindRenderbuffer(GL_RENDERBUFFER, color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    }
    ~Offscreen() {
        glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
        glDeleteFramebuffers(1, &fbo);
        glDeleteRenderbuffers(1, &color);
    }
    void clear() const {
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, width, height);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
    }
    /// Whether each pixel's red is above half, row by row from the bottom.
    std::vector<bool> lit() const {
        std::vector<std::uint8_t> px(std::size_t(width * height) * 4);
        glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
        std::vector<bool> out(std::size_t(width * height));
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = px[i * 4] > 128;
        return out;
    }
};

/// A captured buffer's positions (the vec4 at offset 0 of each `stride`-byte record) drawn flat
/// red into a kSize x kSize framebuffer, for checking which records a draw (drawCaptured,
/// drawSession) reads. bind() clears and binds the program and vertex array; the draw follows.
struct RedCoverage {
    static constexpr int kSize = 16;
    Offscreen screen{kSize, kSize};
    GLuint program = linkDrawProgram(
        "#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = vec4(p.xy, 0.0, 1.0); }\n",
        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0, 0.0, 0.0, 1.0); }\n");
    GLuint vao = 0;
    explicit RedCoverage(const xfb::Buffer& captured, int stride = 16) {
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, captured.glName());
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glBindVertexArray(0);
    }
    ~RedCoverage() {
        glUseProgram(0);
        glBindVertexArray(0);
        glDeleteProgram(program);
        glDeleteVertexArrays(1, &vao);
    }
    RedCoverage(const RedCoverage&) = delete;
    RedCoverage& operator=(const RedCoverage&) = delete;
    void bind() const {
        screen.clear();
        glUseProgram(program);
        glBindVertexArray(vao);
    }
    /// Lit pixels: bottom-left, bottom-right, top-left, top-right.
    std::array<int, 4> quadrants() const {
        auto lit = screen.lit();
        std::array<int, 4> q{};
        for (std::size_t i = 0; i < lit.size(); ++i)
            if (lit[i]) q[std::size_t((int(i) / kSize >= kSize / 2) * 2 + (int(i) % kSize >= kSize / 2))]++;
        return q;
    }
};

} // namespace xfbtest
