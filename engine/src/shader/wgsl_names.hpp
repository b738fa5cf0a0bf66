#pragma once
// Internal: how WGSL spells GLSL's names and types, shared by the printer and the entry-point code
// (plan/wgsl_translation.cpp, plan/wgsl_geometry.cpp).
#include "module.hpp"

#include <string>

namespace xfb::shader {

/// A user identifier, renamed xfb_r_<name> when WGSL reserves or predeclares it.
std::string wgslIdent(const std::string& name);
/// `f32`, `i32`, `u32`, `bool`.
std::string wgslScalar(ScalarKind k);
/// `vecN<f32|i32|u32|bool>`, or the scalar when rows is 1.
std::string wgslShape(ScalarKind k, int rows);
/// The WGSL type of a GLSL type; refuses (ComputeTranslation at `line`) double types and samplers
/// other than (i/u)sampler2D, sampler3D and sampler2DArray.
std::string wgslType(const Type& t, int line);

} // namespace xfb::shader
