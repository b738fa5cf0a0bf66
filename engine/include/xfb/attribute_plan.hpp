#pragma once
/// @file
/// @brief Attribute semantics: which location (ATTR slot) each shader input gets. Pure, no GL.

#include "xfb/limits.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <vector>

namespace xfb {

/// One shader input and the attribute slot(s) it occupies.
struct AttributeSlot {
    std::string name;
    GlslType type;
    int arraySize = 0;
    Semantic semantic = Semantic::Attr0; ///< of its first location
    int location = 0;                    ///< first location; the GL program is linked with it
    int locationCount = 1;               ///< a mat4 takes 4, a vec2[3] takes 3
    bool explicitLocation = false;       ///< from layout(location = N)
    int line = 0;

    int components() const { return type.components() * (arraySize > 0 ? arraySize : 1); }
    /// Components read per location: a vector's size, a matrix column's rows.
    int componentsPerLocation() const { return type.rows; }
};

/// Assigns ATTR0, ATTR1, ... in declaration order (a matN takes N consecutive slots; an
/// input after an explicit layout(location) continues after it). Standard names
/// (vertex_position ...) take their standard semantic instead, and cannot be mixed with custom
/// names. Checks every slot fits `limits.maxVertexAttribs`.
/// @throws Error AttributeType, AttributeLocationCollision, MixedSemantics, TooManyAttributes
std::vector<AttributeSlot> planAttributes(const ShaderInterface& shader, const Limits& limits);

/// ComponentType matching a shader scalar kind (Float -> Float32 ...); empty for others.
std::optional<ComponentType> componentTypeOf(ScalarKind kind);

} // namespace xfb
