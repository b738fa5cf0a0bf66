#include "gl/shader.hpp"

#include "gl/gl_check.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstring>

namespace xfb::gl {

std::string infoLog(GLuint object, bool isProgram) {
    GLint length = 0;
    isProgram ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length) : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    isProgram ? glGetProgramInfoLog(object, length, nullptr, log.data()) : glGetShaderInfoLog(object, length, nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    return log;
}

GLuint compileShader(GLenum stage, const std::string& source, const std::string& what) {
    GLuint shader = glCreateShader(stage);
    const char* text = source.c_str();
    XFB_GL(glShaderSource(shader, 1, &text, nullptr));
    XFB_GL(glCompileShader(shader));
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::string log = infoLog(shader, false);
        glDeleteShader(shader);
        throw Error(ErrorCode::ShaderCompile, what + " does not compile; the GL compiler says (source:line): " + log);
    }
    return shader;
}

#ifndef __EMSCRIPTEN__ // WebGL2 has no compute shaders
GLuint linkComputeProgram(const std::string& source, const std::string& what) {
    GLuint cs = compileShader(GL_COMPUTE_SHADER, source, what);
    GLuint program = glCreateProgram();
    glAttachShader(program, cs);
    glLinkProgram(program);
    glDeleteShader(cs); // flagged; freed with the program
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        std::string log = infoLog(program, true);
        glDeleteProgram(program);
        throw Error(ErrorCode::ProgramLink, what + " does not link: " + log);
    }
    return program;
}
#endif

} // namespace xfb::gl
