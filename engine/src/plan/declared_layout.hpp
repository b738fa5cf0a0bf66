#pragma once
// Internal: declared capture layouts (xfb/capture_plan.hpp). The shader's xfb_* qualifiers, a
// Direct3D-style declaration and GL's gl_SkipComponents / gl_NextBuffer list all become one list
// of placements, and one function checks it and lays the buffers out. Pure, no GL.

#include "xfb/capture_plan.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::plan {

/// Outputs by name (the first declaration wins, as ShaderInterface::findOutput()).
using OutputIndex = std::map<std::string_view, const Declaration*>;
OutputIndex indexOutputs(const ShaderInterface& shader);

/// A list for a message: the first 16 names, then how many there are in all.
std::string joinedNames(const std::vector<std::string>& names);

/// The captured varying `name` names: an output, an element `a[i]`, gl_Position or gl_PointSize.
/// @throws Error UnknownVarying, VaryingType (capture_plan.cpp)
CapturedVarying lookUpVarying(const ShaderInterface& shader, const OutputIndex& outputs, const std::string& name);

/// Whether a layout is declared: xfb_* qualifiers in the shader, a declaration, strides, or
/// gl_SkipComponents / gl_NextBuffer in the varyings.
bool declaresLayout(const ShaderInterface& shader, const CaptureOptions& options);

/// The declared plan (CapturePlan::declared), checked; see planCapture().
CapturePlan planDeclaredLayout(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits);

} // namespace xfb::plan
