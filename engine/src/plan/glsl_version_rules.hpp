#pragma once
// Internal: what the GL compiler refuses in a vertex shader of a given #version, refused here with
// the code it would give (ShaderCompile), so the printers (compute, fragment, WGSL) never translate
// a shader that transform feedback could not compile.

#include "shader/preprocessor.hpp"
#include "xfb/shader_interface.hpp"

namespace xfb::plan {

/// @throws Error ShaderCompile naming the line and the fix for:
///   - an int / uint output without `flat` in GLSL ES 3.00 (section 4.3.6; ES 3.10 allows it);
///   - a call of a built-in function the version lacks (bitCount, findMSB, ldexp, packUnorm4x8, fma,
///     ... in GLSL ES 3.00; packHalf2x16 in GLSL 3.30), unless the shader defines a function of
///     that name itself.
void refuseWhatTheVersionForbids(const PreprocessedSource& source, const ShaderInterface& shader);

} // namespace xfb::plan
