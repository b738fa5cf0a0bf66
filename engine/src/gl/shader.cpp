#include "gl/shader.hpp"

#include "gl/gl_check.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstring>

namespace xfb::gl {

std::string infoLog(GLuint object, bool isProgram) {
    GLint length = 0;
    isProgram ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length)
              : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    isProgram ? glGetProgramInfoLog(object, length, nullptr, log.data())
              : glGetShaderInfoLog(object, length, nullptr, log.data());
    log.resize(std::strlen(log.c_str()));
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    return log;
}

ShaderName compileShader(GLenum stage, const std::string& source, const std::string& what) {
    auto shader = ShaderName::create(stage);
    const char* text = source.c_str();
    XFB_GL(glShaderSource(shader, 1, &text, nullptr));
    XFB_GL(glCompileShader(shader));
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        std::string log = infoLog(shader, false);
        throw Error(ErrorCode::ShaderCompile, what + " does not compile; the GL compiler says (source:line): " + log);
    }
    return shader;
}

ProgramName linkProgram(const std::vector<StageSource>& stages, const std::function<void(GLuint)>& beforeLink) {
    std::vector<ShaderName> shaders;
    for (const auto& s : stages) shaders.push_back(compileShader(s.stage, s.source, s.what));
    auto program = ProgramName::create();
    for (const auto& s : shaders) XFB_GL(glAttachShader(program, s));
    if (beforeLink) beforeLink(program);
    XFB_GL(glLinkProgram(program));
    for (const auto& s : shaders) XFB_GL(glDetachShader(program, s));
    return program; // the shaders are deleted here
}

void feedbackVaryings(GLuint program, const std::vector<std::string>& names, bool interleaved) {
    std::vector<const char*> pointers;
    for (const auto& n : names) pointers.push_back(n.c_str());
    glTransformFeedbackVaryings(program, GLsizei(pointers.size()), pointers.data(),
                                interleaved ? GL_INTERLEAVED_ATTRIBS : GL_SEPARATE_ATTRIBS);
}

std::optional<std::string> linkFailure(GLuint program) {
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    if (linked) return std::nullopt;
    return infoLog(program, true);
}

#ifndef __EMSCRIPTEN__ // WebGL2 has no compute shaders
ProgramName linkComputeProgram(const std::string& source, const std::string& what) {
    auto program = linkProgram({{GL_COMPUTE_SHADER, source, what}});
    if (auto log = linkFailure(program)) throw Error(ErrorCode::ProgramLink, what + " does not link: " + *log);
    return program;
}
#endif

} // namespace xfb::gl
