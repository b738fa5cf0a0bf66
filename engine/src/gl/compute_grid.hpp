#pragma once
// Internal: compute dispatches of more work groups than GL_MAX_COMPUTE_WORK_GROUP_COUNT holds in x
// (65535 is what ES 3.1 and many drivers give: 16.7M elements at 256 a group) as a 2-D grid of
// rows of `maxX` groups, as WebGPU's dispatches are; the kernels index groups row by row
// (plan::kFlatWorkGroup), so a 1-D dispatch indexes as before.
#include "gl/gl_check.hpp"
#include "xfb/error.hpp"

#include <algorithm>

#include <cstdint>
#include <string>

namespace xfb::gl {

struct ComputeGrid {
    GLuint x = 1, y = 1;
};

/// `groups` as rows of at most `maxX`.
/// @throws Error Unsupported when even `maxY` rows do not hold them
inline ComputeGrid computeGrid(std::int64_t groups, int maxX, int maxY) {
    const std::int64_t x = std::max<std::int64_t>(1, std::min<std::int64_t>(groups, maxX));
    const std::int64_t y = (groups + x - 1) / x;
    if (y > maxY)
        throw Error(ErrorCode::Unsupported, std::to_string(groups) + " compute work groups exceed a grid of " +
                                                std::to_string(maxX) + " x " + std::to_string(maxY) +
                                                " (GL_MAX_COMPUTE_WORK_GROUP_COUNT); run fewer elements per pass");
    return {GLuint(x), GLuint(std::max<std::int64_t>(1, y))};
}

#ifndef __EMSCRIPTEN__ // WebGL2 has no compute shaders
/// glDispatchCompute(grid.x, grid.y, 1), counted.
inline void dispatch(const ComputeGrid& grid) { XFB_GL_COUNTED(glDispatchCompute(grid.x, grid.y, 1)); }
#endif

} // namespace xfb::gl
