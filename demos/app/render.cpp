#include "render.hpp"

#include <stdexcept>

namespace demos {

static GLuint compile(GLenum stage, const char* source) {
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("render shader: ") + log);
    }
    return s;
}

GLuint makeProgram(const char* vertex, const char* fragment) {
    GLuint p = glCreateProgram(), v = compile(GL_VERTEX_SHADER, vertex), f = compile(GL_FRAGMENT_SHADER, fragment);
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("render program does not link");
    return p;
}

BufferTexture::~BufferTexture() {
    if (texture_) glDeleteTextures(1, &texture_);
}

void BufferTexture::update(const xfb::Buffer& buffer) {
    int rows = int((buffer.count() + kWidth - 1) / kWidth);
    if (!texture_ || count_ != buffer.count()) {
        if (texture_) glDeleteTextures(1, &texture_);
        glGenTextures(1, &texture_);
        glBindTexture(GL_TEXTURE_2D, texture_);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, kWidth, rows);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        count_ = buffer.count();
    }
    glBindTexture(GL_TEXTURE_2D, texture_);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer.glName());
    int full = int(buffer.count() / kWidth), rest = int(buffer.count() % kWidth);
    if (full) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kWidth, full, GL_RGBA, GL_FLOAT, nullptr);
    if (rest)
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, full, rest, 1, GL_RGBA, GL_FLOAT,
                        reinterpret_cast<const void*>(std::uintptr_t(std::int64_t(full) * kWidth * 16)));
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

} // namespace demos
