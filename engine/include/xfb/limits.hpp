#pragma once
/// @file
/// @brief The implementation limits the planner checks against.

namespace xfb {

/// Limits that decide whether a plan fits. On a live context they come from glGetIntegerv
/// (queried once per context, see Device::limits()); offline, use a preset.
struct Limits {
    int maxVertexAttribs = 16;             ///< GL_MAX_VERTEX_ATTRIBS
    int maxSeparateComponents = 4;         ///< GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS
    int maxSeparateAttribs = 4;            ///< GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
    int maxInterleavedComponents = 64;     ///< GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS

    /// The minimums every WebGL2 / OpenGL ES 3.0 implementation guarantees: 16 attributes,
    /// 4 separate components, 4 separate attributes, 64 interleaved components.
    static constexpr Limits portable() { return {}; }
};

} // namespace xfb
