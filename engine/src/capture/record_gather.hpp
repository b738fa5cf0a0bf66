#pragma once
// Internal: the Engine expansion of PrimitiveCapture, for OpenGL ES 3.0 / WebGL2, where a
// transform-feedback draw must use the capture's own primitive mode and cannot be indexed.
//
// The user's program runs once per vertex as POINTS into scratch buffers (one per captured
// buffer, same stride). The scratch words are copied into R32UI textures on the GPU
// (glTexSubImage2D from GL_PIXEL_UNPACK_BUFFER), and a generated vertex shader, drawn as POINTS
// over the expanded source-index list (expandPrimitives), fetches each record's words
// (texelFetch) and writes them as flat uint outputs to the real output buffers, so the bytes
// are the ones the user's shader produced, in primitive order. For non-indexed draws the source
// vertex of each record is computed from gl_VertexID in the shader: nothing is uploaded.
#include "gl/gl_api.hpp"
#include "gl/names.hpp"
#include "gl/state.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/device.hpp"
#include "xfb/primitive_count.hpp"

#include <cstdint>
#include <vector>

namespace xfb::detail {

struct RecordGather final : Recoverable {
    gl::TransformFeedbackName scratchFeedback; // writes the scratch buffers (pass 1)
    gl::TransformFeedbackName outputFeedback;  // writes the outputs (pass 2)
    gl::ProgramName program;
    gl::VertexArrayName vertexArray, computedVertexArray;
    gl::BufferName sources;
    // xfb_mode and xfb_vertices: their values and what the gather program holds of them.
    UniformValues values;
    std::uint64_t versions = 0;
    gl::UniformMirror mirror;
    GLuint vertices = 0;              // xfb_vertices as last set
    std::uint64_t sourceCapacity = 0; // bytes allocated in `sources`
    std::vector<gl::BufferName> scratch;
    std::vector<gl::TextureName> textures;
    std::vector<int> wordsPerRecord;
    int textureWidth = 0;
    GLuint firstUnit = 0; // texture units firstUnit.. are used during gather()

    /// Builds every GL object for up to `vertexCount` vertices; outputFeedback's buffers are bound by the caller.
    /// @throws Error Capacity (more words than a texture holds), Unsupported (a separate-mode
    ///         varying over 4 components), ShaderCompile / ProgramLink (never expected)
    RecordGather(const CapturePlan& capture, std::int64_t vertexCount, const std::shared_ptr<DeviceState>& device);

    /// Pass 2, after pass 1 wrote `vertices` records through scratchFeedback (transform feedback
    /// object unbound): copies them into the textures and writes the
    /// draw's `records` records in primitive order (expandPrimitives). Leaves the textures
    /// unbound, GL_TEXTURE0 active (the caller's StateGuard restores what was there).
    void gather(std::int64_t vertices, const DrawDesc& draw, std::int64_t records);
    /// Sets xfb_mode (a DrawMode, or -1: read the uploaded list) and xfb_vertices, uploading
    /// those that changed; the gather program must be current.
    void setSource(int mode, GLuint vertexCount);
    /// Forgets every GL name (after a context loss: they died with the context); the capture
    /// that owns it builds a new one.
    void forget() override;
};

} // namespace xfb::detail
