#pragma once
// Small helpers for the demos' render passes (not part of the engine).
#include "gl.hpp"

#include "xfb/buffer.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace demos {

/// Compiles and links a GLSL ES 3.00 vertex + fragment program; throws std::runtime_error with the log.
GLuint makeProgram(const char* vertex, const char* fragment);

/// A render program that looks each uniform location up once (no glGetUniformLocation per frame).
class RenderProgram {
public:
    RenderProgram(const char* vertex, const char* fragment) : id_(makeProgram(vertex, fragment)) {}
    RenderProgram(const RenderProgram&) = delete;
    RenderProgram& operator=(const RenderProgram&) = delete;
    ~RenderProgram() { glDeleteProgram(id_); }
    void use() const { glUseProgram(id_); }
    GLint operator[](const std::string& uniform) {
        auto it = locations_.find(uniform);
        if (it == locations_.end()) it = locations_.emplace(uniform, glGetUniformLocation(id_, uniform.c_str())).first;
        return it->second;
    }

private:
    GLuint id_;
    std::unordered_map<std::string, GLint> locations_;
};

/// A copy of a vec4 buffer in an RGBA32F texture (glTexSubImage2D from GL_PIXEL_UNPACK_BUFFER,
/// GPU to GPU), so a shader can read other elements with texelFetch: the neighbours of a boid,
/// of a cloth vertex, the previous point of a trail.
class BufferTexture {
public:
    static constexpr int kWidth = 1024;
    BufferTexture() = default;
    BufferTexture(const BufferTexture&) = delete;
    BufferTexture& operator=(const BufferTexture&) = delete;
    ~BufferTexture();
    void update(const xfb::Buffer& buffer);
    GLuint texture() const { return texture_; }

private:
    GLuint texture_ = 0;
    std::int64_t count_ = 0;
};

/// GLSL for fetching element i of a BufferTexture bound as `sampler`.
inline constexpr const char* kFetchGlsl =
    "vec4 fetchElement(highp sampler2D s, int i) { return texelFetch(s, ivec2(i % 1024, i / 1024), 0); }\n";

} // namespace demos
