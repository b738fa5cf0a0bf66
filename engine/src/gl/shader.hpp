#pragma once
// Internal: compiling shaders and reading GL's logs (programs of both backends).
#include "gl/gl_api.hpp"

#include <string>

namespace xfb::gl {

/// The info log of a shader or program, trailing whitespace removed.
std::string infoLog(GLuint object, bool isProgram);

/// Compiles `source`; on failure deletes the shader and throws Error(ShaderCompile):
/// "<what> does not compile; the GL compiler says (source:line): <log>".
GLuint compileShader(GLenum stage, const std::string& source, const std::string& what);

/// Compiles `source` as a compute shader and links it alone (GL 4.3 / ES 3.1).
/// @throws Error ShaderCompile, ProgramLink ("<what> does not link: <log>")
GLuint linkComputeProgram(const std::string& source, const std::string& what);

} // namespace xfb::gl
