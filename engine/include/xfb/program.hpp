#pragma once
/// @file
/// @brief Program: a transform-feedback vertex shader, its plans, and its uniforms.

#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/device.hpp"
#include "xfb/geometry_plan.hpp"

#include <glm/glm.hpp>

#include <memory>
#include <span>
#include <string>

namespace xfb {

namespace detail {
struct ProgramState;
struct Access;
}

struct ProgramDesc {
    std::string source;     ///< GLSL ES 1.00/3.00 or GLSL 3.30+ vertex shader (the simulation)
    CaptureOptions capture; ///< mode, varyings (default: every out_*), portability
    ReadOptions read;       ///< extra `#define`s for the declaration reader; also prepended for GL
    std::string label;      ///< used in messages
    /// A geometry shader run after the vertex shader (empty: none). Transform feedback then
    /// captures its outputs, per vertex stream (xfb/geometry_plan.hpp): GLSL 1.50+ / 4.00 for
    /// streams on desktop GL 4.0+, GLSL ES 3.20 on OpenGL ES 3.2 (stream 0 only). The vertex shader
    /// feeds it; `capture` applies to its outputs; `read` defines are given to it too. Runtimes
    /// without geometry shaders (OpenGL ES 3.0, WebGL2) refuse it: GeometryUnsupported.
    std::string geometry;
    /// The fragment shader used when a capture or a pipeline keeps rasterizing
    /// (CaptureRunOptions::rasterize, PipelineOptions::rasterize); empty: a generated one writing
    /// vec4(0) to its one output, which a rasterizing Pipeline refuses (InvalidArgument). Its inputs
    /// are the outputs of the last vertex-processing stage. Native GL and WebGL2 (JS `fragment`).
    std::string fragment;
};

/// Plans attributes and capture (pure, against Device::limits()), then compiles the vertex
/// shader with a minimal fragment shader, binds attribute locations (glBindAttribLocation),
/// declares the captured varyings (glTransformFeedbackVaryings) and links. After the link it
/// checks with glGetTransformFeedbackVarying that every captured varying survived.
/// With a geometry shader (ProgramDesc::geometry) the capture is planned from the geometry shader
/// (planCapture() per stream, planGeometry()), the three stages are linked, and the varyings
/// are declared by their names with gl_NextBuffer between the buffers of the streams
/// (glTransformFeedbackVaryings, GL 4.0 / ARB_transform_feedback3). On OpenGL ES a vertex shader
/// of another GLSL ES version than the geometry shader's is compiled with the geometry shader's
/// `#version` (GLSL ES links only shaders of one version).
/// Uniform values are kept on the CPU and uploaded (glUniform*) at the next step.
class Program {
public:
    /// @throws Error from the planner, ShaderCompile / ProgramLink (with the GL log and the line),
    ///         VaryingOptimizedAway; with a geometry shader GeometryUnsupported (OpenGL ES 3.0,
    ///         WebGL2: checked before anything else), GeometryLayout, GeometryStream (a stream over
    ///         GL_MAX_VERTEX_STREAMS: any stream but 0 on OpenGL ES 3.2), LayoutStream,
    ///         Unsupported (a layout the GL cannot write for it, see plan::geometryDriverList)
    Program(const Device& device, ProgramDesc desc);
    Program(Program&&) noexcept;
    Program& operator=(Program&&) noexcept;
    ~Program();

    const ShaderInterface& shader() const;
    const std::vector<AttributeSlot>& attributes() const;
    const CapturePlan& capture() const;
    /// The geometry shader's plan; null without a geometry shader.
    const GeometryPlan* geometry() const;
    /// The geometry shader's declarations (capture() is planned from them); null without one.
    const ShaderInterface* geometryShader() const;
    unsigned glName() const;

    /// Sets a uniform by name; the value's type must match the declaration (float/vecN, int/ivecN,
    /// uint/uvecN, matN; arrays take a span). Applied at the next step.
    /// @throws Error UnknownUniform (not active: misspelt or optimised away), UniformType
    void setUniform(std::string_view name, float v);
    void setUniform(std::string_view name, int v);
    void setUniform(std::string_view name, unsigned v);
    void setUniform(std::string_view name, const glm::vec2& v);
    void setUniform(std::string_view name, const glm::vec3& v);
    void setUniform(std::string_view name, const glm::vec4& v);
    void setUniform(std::string_view name, const glm::ivec2& v);
    void setUniform(std::string_view name, const glm::ivec3& v);
    void setUniform(std::string_view name, const glm::ivec4& v);
    void setUniform(std::string_view name, const glm::mat3& v);
    void setUniform(std::string_view name, const glm::mat4& v);
    /// Raw form: `values` components of `kind` (a vec3[2] takes 6 floats).
    void setUniform(std::string_view name, ScalarKind kind, std::span<const std::byte> values);

private:
    friend struct detail::Access; // the engine's way to the state (src/gl/access.hpp)
    std::shared_ptr<detail::ProgramState> state() const { return state_; }
    std::shared_ptr<detail::ProgramState> state_;
};

} // namespace xfb
