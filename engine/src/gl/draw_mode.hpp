#pragma once
// Internal: xfb::DrawMode as a GL primitive mode, and the uniforms of emittedDrawSnippet() that a
// draw of records whose count stays on the GPU sets on the application's bound program.
#include "gl/gl_api.hpp"
#include "gl/gl_check.hpp"
#include "xfb/emit_plan.hpp"
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

/// Sets the bound program's emittedDrawSnippet() uniforms: `xfb_emitted_totals` to texture unit
/// `unit`, `xfb_emitted_at` to (row, component, perPrimitive, indirect). glGetIntegerv
/// (GL_CURRENT_PROGRAM), glGetUniformLocation, glUniform1i, glUniform4i. Returns false, setting
/// nothing, when no program is bound or it lacks either uniform; `program` gets its GL name.
inline bool setEmittedSnippetUniforms(GLint unit, GLint row, GLint component, GLint perPrimitive, GLint indirect,
                                      GLint* program = nullptr) {
    GLint bound = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &bound);
    if (program) *program = bound;
    const GLint totals = bound ? glGetUniformLocation(GLuint(bound), emittedTotalsUniform) : -1;
    const GLint at = bound ? glGetUniformLocation(GLuint(bound), emittedAtUniform) : -1;
    if (totals < 0 || at < 0) return false;
    XFB_GL(glUniform1i(totals, unit));
    XFB_GL(glUniform4i(at, row, component, perPrimitive, indirect));
    return true;
}

} // namespace xfb::gl
