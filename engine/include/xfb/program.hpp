#pragma once
/// @file
/// @brief Program: a transform-feedback vertex shader, its plans, and its uniforms.

#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/device.hpp"

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
};

/// Plans attributes and capture (pure, against Device::limits()), then compiles the vertex
/// shader with a minimal fragment shader, binds attribute locations (glBindAttribLocation),
/// declares the captured varyings (glTransformFeedbackVaryings) and links. After the link it
/// checks with glGetTransformFeedbackVarying that every captured varying survived.
/// Uniform values are kept on the CPU and uploaded (glUniform*) at the next step.
class Program {
public:
    /// @throws Error from the planner, ShaderCompile / ProgramLink (with the GL log and the line),
    ///         VaryingOptimizedAway.
    Program(const Device& device, ProgramDesc desc);
    Program(Program&&) noexcept;
    Program& operator=(Program&&) noexcept;
    ~Program();

    const ShaderInterface& shader() const;
    const std::vector<AttributeSlot>& attributes() const;
    const CapturePlan& capture() const;
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
