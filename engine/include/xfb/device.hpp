#pragma once
/// @file
/// @brief Device: the engine's view of one GL context (version, limits, features).

#include "xfb/limits.hpp"

#include <memory>
#include <string>
#include <vector>

namespace xfb {

namespace detail {
struct DeviceState;
struct Access;
}

/// What the current context offers. Queried once, when the Device is created.
struct Capabilities {
    bool es = false;                    ///< OpenGL ES / WebGL2 rather than desktop OpenGL
    int major = 0, minor = 0;           ///< context version (WebGL2 reports ES 3.0)
    std::string version;                ///< GL_VERSION
    std::string renderer;               ///< GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
    bool compute = false;               ///< compute shaders: desktop GL 4.3+ or ES 3.1+
    bool drawTransformFeedback = false; ///< glDrawTransformFeedback: desktop GL 4.0+
    /// gl_SkipComponents1..4 and gl_NextBuffer in glTransformFeedbackVaryings: desktop GL 4.0+
    /// (ARB_transform_feedback3). Without them a declared layout with gaps is refused (xfb/capture_plan.hpp).
    bool feedbackLayoutWords = false;
    /// Geometry shaders (ProgramDesc::geometry): desktop GL 4.0+ with vertex streams
    /// (ARB_transform_feedback3, ARB_gpu_shader5), OpenGL ES 3.2 (or ES 3.1 with
    /// GL_EXT_geometry_shader / GL_OES_geometry_shader) with stream 0 only; never WebGL2.
    bool geometry = false;
    /// GL_MAX_GEOMETRY_OUTPUT_VERTICES, _SHADER_INVOCATIONS, GL_MAX_VERTEX_STREAMS (1 on ES),
    /// GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS, queried where `geometry`.
    GeometryLimits geometryLimits;
    Limits limits; ///< GL_MAX_VERTEX_ATTRIBS, the three transform-feedback limits, the varying vectors
    // Compute limits (0 without compute): GL_MAX_COMPUTE_WORK_GROUP_SIZE (x),
    // GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS.
    int maxComputeGroupSizeX = 0, maxComputeInvocations = 0, maxComputeStorageBlocks = 0;
    /// GL_MAX_COMPUTE_WORK_GROUP_COUNT in x and y (0 without compute; ES 3.1 guarantees 65535): a
    /// dispatch of more groups than x holds is a 2-D grid (gl/compute_grid.hpp).
    int maxComputeGroupCountX = 0, maxComputeGroupCountY = 0;
    /// GL_KHR_shader_subgroup in compute shaders with its basic, ballot and arithmetic features
    /// (glGetIntegerv GL_SUBGROUP_SUPPORTED_STAGES_KHR / _FEATURES_KHR; NVIDIA has it, Mesa 22's
    /// llvmpipe does not): the compute backend's ordered emit then scans counts per subgroup.
    bool subgroupArithmetic = false;
};

/// How xfb shares the GL context (docs/guide/sharing-a-context.md).
struct DeviceOptions {
    /// false (default): every xfb call leaves the state that engines cache as it found it
    /// (program, vertex array, ARRAY/COPY/PIXEL_UNPACK buffer bindings, transform feedback
    /// binding, rasterizer discard, active texture and the textures it bound), at the cost of a
    /// few glGet* queries and rebinds per call. true: the application owns the context alone and
    /// accepts that xfb leaves its own program and vertex array bound after a step (the minimal
    /// step: the transform-feedback check and 9 calls). In both modes xfb sets the pixel-store unpack parameters and
    /// sampler bindings it relies on and restores them.
    bool ownsContext = false;
};

/// Wraps the GL context current on the calling thread. Every xfb object is created from a
/// Device and must be used while that context is current. Copies share the same state.
/// Every call of those objects that touches GL (creation, uploads, reads, steps, captures, draws)
/// first asks glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE) and throws Error FeedbackActive, having
/// made no other GL call, while the application's transform feedback is active or paused: end it
/// (glEndTransformFeedback) before calling xfb (docs/guide/sharing-a-context.md).
///
/// Needs OpenGL 3.0+ (transform feedback objects: 4.0 or ARB_transform_feedback2; every 4.x
/// context has them), OpenGL ES 3.0+, or WebGL2.
class Device {
public:
    /// Queries GL_VERSION, GL_RENDERER and the limits with glGetString / glGetIntegerv.
    /// @throws Error Unsupported when no context is current or it is older than GL 4.0 / ES 3.0.
    Device();
    /// The same, sharing the context as `options` says.
    explicit Device(DeviceOptions options);
    const Capabilities& capabilities() const;
    const Limits& limits() const { return capabilities().limits; }

    /// Call when the context is lost (WebGL's webglcontextlost): steps, uploads, readbacks and
    /// object creation throw ContextLost until contextRestored().
    void contextLost();
    /// Call once the context is back: recreates every live buffer (contents undefined: upload
    /// them again), program (recompiled, uniform values re-applied) and pipeline, with new GL names.
    void contextRestored();
    bool isContextLost() const;
    /// Blocks until the GPU has executed every command issued so far (glFenceSync +
    /// glClientWaitSync, then glDeleteSync), for timing in native tools; a frame loop never needs it.
    void finish() const;

    /// GL errors (GL_INVALID_OPERATION ...) that were already pending when an error-checking xfb
    /// call began (object creation, uploads, reads, PrimitiveCapture::capture): they were raised by
    /// other code on the context, so xfb neither reports them as its own nor drops them. GL cannot
    /// re-raise an error, so they are kept here, oldest first (at most 16), and cleared by this call.
    std::vector<unsigned> takeForeignErrors();

private:
    friend struct detail::Access; // the engine's way to the state (src/gl/access.hpp)
    std::shared_ptr<detail::DeviceState> state() const { return state_; }
    std::shared_ptr<detail::DeviceState> state_;
};

} // namespace xfb
