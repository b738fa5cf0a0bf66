#pragma once
// Internal: how generated compute kernels index their work group. Dispatches of more groups than
// GL_MAX_COMPUTE_WORK_GROUP_COUNT holds in x run as rows of groups (gl/compute_grid.hpp), as
// WebGPU's do; a kernel counts groups row by row, so a 1-D dispatch indexes as before.
#include <string_view>

namespace xfb::plan {

/// The flat index of the work group, in GLSL: the groups of the rows before it plus its column.
inline constexpr std::string_view kFlatWorkGroup = "(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x)";

} // namespace xfb::plan
