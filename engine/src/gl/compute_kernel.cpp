#include "gl/compute_kernel.hpp"

#include "gl/gl_check.hpp"
#include "gl/shader.hpp"

namespace xfb::detail {

#ifndef __EMSCRIPTEN__ // WebGL2 has no compute shaders
void ComputeKernel::build(const ProgramState& program, const std::string& source, const std::string& what,
                          std::int64_t count, const std::string& lines) {
    this->program = gl::linkComputeProgram(source, what + " (line numbers are " + lines + ")");
    for (const auto& [name, u] : program.uniforms) {
        GLint location = glGetUniformLocation(this->program, name.c_str());
        if (location >= 0) uniforms.track(name, location);
    }
    glUseProgram(this->program);
    glUniform1ui(glGetUniformLocation(this->program, "xfb_count"), GLuint(count));
    glUseProgram(0);
}

void ComputeKernel::use(const ProgramState& program) {
    XFB_GL_COUNTED(glUseProgram(this->program));
    uniforms.flush(program.uniforms, program.versions);
}
#endif

} // namespace xfb::detail
