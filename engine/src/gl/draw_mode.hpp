#pragma once
// Internal: xfb::DrawMode as a GL primitive mode.
#include "gl/gl_api.hpp"
#include "xfb/primitive_count.hpp"

namespace xfb::gl {

inline GLenum primitiveMode(DrawMode m) {
    switch (m) {
        case DrawMode::Points: return GL_POINTS;
        case DrawMode::Lines: return GL_LINES;
        case DrawMode::LineStrip: return GL_LINE_STRIP;
        case DrawMode::LineLoop: return GL_LINE_LOOP;
        case DrawMode::Triangles: return GL_TRIANGLES;
        case DrawMode::TriangleStrip: return GL_TRIANGLE_STRIP;
        case DrawMode::TriangleFan: return GL_TRIANGLE_FAN;
    }
    return GL_POINTS;
}

} // namespace xfb::gl
