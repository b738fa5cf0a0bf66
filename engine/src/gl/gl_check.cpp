#include "gl/gl_check.hpp"

#include "xfb/error.hpp"

#include <string>

namespace xfb::gl {

const char* errorName(GLenum error) {
    switch (error) {
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
        default: return "unknown GL error";
    }
}

void drainErrors(std::vector<GLenum>* into) {
    for (int i = 0; i < 16; ++i) {
        GLenum e = glGetError();
        if (e == GL_NO_ERROR) return;
        if (into) into->push_back(e);
    }
}

GLenum takeFirstError() {
    GLenum first = glGetError();
    drainErrors();
    return first;
}

void check(const char* what) {
    GLenum first = glGetError();
    if (first == GL_NO_ERROR) return;
    drainErrors(); // so the next check reports only its own call
    std::string hint = first == GL_INVALID_FRAMEBUFFER_OPERATION
                           ? " (no complete framebuffer is bound: a headless context needs one, see HeadlessContext)"
                       : first == GL_OUT_OF_MEMORY ? " (reduce the element count)"
                                                   : "";
    throw Error(ErrorCode::GlError, std::string(what) + " raised " + errorName(first) + hint);
}

} // namespace xfb::gl
