#pragma once
// Internal: compiling shaders, linking programs and reading GL's logs (every program of the
// engine: the user's, the generated compute kernels, the record gather, the prefix sums).
#include "gl/gl_api.hpp"
#include "gl/names.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace xfb::gl {

/// The info log of a shader or program, trailing whitespace removed.
std::string infoLog(GLuint object, bool isProgram);

/// Compiles `source`; on failure deletes the shader and throws Error(ShaderCompile):
/// "<what> does not compile; the GL compiler says (source:line): <log>".
ShaderName compileShader(GLenum stage, const std::string& source, const std::string& what);

/// One stage of a program: its source and how a compile error names it.
struct StageSource {
    GLenum stage;
    std::string source;
    std::string what;
};

/// The one link sequence: compiles every stage (glCompileShader), attaches them to a new
/// program (glCreateProgram), calls `beforeLink` with it for what must precede the link
/// (glBindAttribLocation, glTransformFeedbackVaryings), links (glLinkProgram), then detaches and
/// deletes the shaders. The program is returned owned whether it linked or not: read
/// linkFailure() and throw; nothing leaks either way.
/// @throws Error ShaderCompile (a stage does not compile; every shader made so far is deleted)
ProgramName linkProgram(const std::vector<StageSource>& stages, const std::function<void(GLuint)>& beforeLink = {});

/// glTransformFeedbackVaryings: the outputs to capture, in order, interleaved into one buffer
/// or one buffer each; for linkProgram()'s `beforeLink`.
void feedbackVaryings(GLuint program, const std::vector<std::string>& names, bool interleaved);

/// The linker's log when `program` did not link (GL_LINK_STATUS false), nothing when it did.
std::optional<std::string> linkFailure(GLuint program);

/// Compiles `source` as a compute shader and links it alone (GL 4.3 / ES 3.1).
/// @throws Error ShaderCompile, ProgramLink ("<what> does not link: <log>")
ProgramName linkComputeProgram(const std::string& source, const std::string& what);

} // namespace xfb::gl
