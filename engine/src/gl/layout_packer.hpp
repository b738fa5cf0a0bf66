#pragma once
// Internal: a declared capture layout with gaps, padding or several buffers on OpenGL ES 3.0 /
// WebGL2, which have neither gl_SkipComponents nor gl_NextBuffer (plan::stagedLayout()).
//
// The user's program captures every field tight into one staging buffer. Then, per output buffer,
// the buffer is copied into a keep buffer (glCopyBufferSubData) when it has gap words, and a
// generated pass (POINTS, rasterizer off) reads the field words from the staging buffer and the gap
// words from the keep buffer as uint attributes (bit for bit) and writes whole records into the
// output: the gap bytes are written back with the bytes they held, so what the application keeps
// there (a sentinel, another capture's fields) survives. One pass and one copy per buffer on top
// of the step, rather than a variant of the user's program per buffer reading the gap words as
// extra attributes: the user's shader runs once, and its attribute budget stays its own.
#include "gl/gl_api.hpp"
#include "gl/names.hpp"
#include "gl/state.hpp"
#include "plan/vertex_wrapper.hpp"

#include <cstdint>
#include <vector>

namespace xfb::detail {

struct LayoutPacker final : Recoverable {
    gl::BufferName staging;                    // one tight staging record per element
    gl::TransformFeedbackName stagingFeedback; // binds `staging` for the user's pass
    struct Pass {
        gl::ProgramName program;
        gl::VertexArrayName vertexArray; // field words from `staging`, gap words from `keep`
        gl::BufferName keep;             // the output's bytes before the pass; none without gaps
        int stride = 0;                  // the buffer's stride
    };
    std::vector<Pass> passes; // per buffer of the plan
    gl::TransformFeedbackName outputFeedback;
    std::int64_t count = 0; // records the staging and keep buffers hold
    int stagingStride = 0;

    /// Builds every GL object for `count` records of `capture` (a staged layout).
    /// @throws Error Unsupported (a buffer needs more attributes than MAX_VERTEX_ATTRIBS),
    ///         ShaderCompile / ProgramLink (never expected)
    LayoutPacker(const CapturePlan& capture, std::int64_t count, const std::shared_ptr<DeviceState>& device);

    /// After the user's pass (or a primitive capture's gather) wrote staging records
    /// `first`..`first + records - 1`: writes those records of each output (`outputs[b]`: the GL
    /// buffer of the plan's buffer b, at the same record positions), gap words kept. Leaves no
    /// buffer, vertex array or transform feedback object bound but the program, and the generic
    /// transform-feedback and copy bindings at 0 (the caller's StateGuard restores them).
    void pack(const std::vector<GLuint>& outputs, std::int64_t first, std::int64_t records);
    void forget() override;
};

} // namespace xfb::detail
