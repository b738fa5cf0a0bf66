#pragma once
// Internal: a generated compute program and the Program uniforms it uses (native GL 4.3+ /
// ES 3.1+): the compute backend's kernels (compute/compute_pass.hpp) and a geometry capture's
// (capture/geometry_compute.hpp) are built and used through it.
#include "gl/state.hpp"

#include <cstdint>
#include <string>

namespace xfb::detail {

/// A generated compute program and the Program uniforms it uses.
struct ComputeKernel {
    gl::ProgramName program;
    gl::UniformMirror uniforms; // the Program's values this kernel holds
    /// Compiles and links `source`; finds the Program's uniforms and sets xfb_count. `lines`: whose
    /// line numbers the compiler's log gives (the user's code keeps its lines in the kernel).
    void build(const ProgramState& program, const std::string& source, const std::string& what, std::int64_t count,
               const std::string& lines = "the vertex shader's");
    /// glUseProgram + glUniform* for values changed since the last call (counted in gl::callCount()).
    void use(const ProgramState& program);
};

} // namespace xfb::detail
