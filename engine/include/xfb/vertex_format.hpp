#pragma once
/// @file
/// @brief Semantics and vertex formats: how a buffer's bytes map to shader inputs.

#include "xfb/enum_tables.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xfb {

/// What an attribute means. Custom inputs get Attr0, Attr1, ... in declaration order (location
/// = N); inputs with a standard name (vertex_position, vertex_normal, ...) get the standard
/// semantic at its fixed location. The two kinds must not be mixed in one shader.
enum class Semantic : std::uint8_t {
    Position,
    Normal,
    Tangent,
    BlendWeight,
    BlendIndices,
    Color,
    TexCoord0,
    TexCoord1,
    TexCoord2,
    TexCoord3,
    TexCoord4,
    TexCoord5,
    TexCoord6,
    TexCoord7,
    Attr0 = 32, // Attr0 + n for n in [0, 32)
};

/// Attr0 + n.
constexpr Semantic attr(int n) { return static_cast<Semantic>(static_cast<int>(Semantic::Attr0) + n); }
/// "POSITION", "TEXCOORD0", "ATTR3", ...
std::string semanticName(Semantic s);
/// Inverse of semanticName(); empty for an unknown name.
std::optional<Semantic> semanticFromName(std::string_view name);
/// The standard semantic of a shader input name ("vertex_position" -> Position), if any.
std::optional<Semantic> standardSemantic(std::string_view inputName);
/// The standard input name of a semantic (Position -> "vertex_position"); empty for Attr n.
std::string_view standardInputName(Semantic s);
/// The attribute location of a semantic: Attr n -> n; standard ones -> their fixed slot
/// (Position 0, Normal 1, Tangent 2, BlendWeight 3, BlendIndices 4, Color 5, TexCoord n -> 6 + n).
int semanticLocation(Semantic s);

/// Component type of an attribute. Transform feedback writes 32-bit values only, so these are
/// the types a buffer that is both read and written can hold.
enum class ComponentType : std::uint8_t {
    XFB_COMPONENT_TYPES(XFB_ENUMERATOR)
};                                                   // names: XFB_COMPONENT_TYPES (xfb/enum_tables.hpp)
std::string_view componentTypeName(ComponentType t); // "float32", "int32", "uint32"

/// One attribute of an interleaved vertex format.
struct VertexAttribute {
    Semantic semantic = Semantic::Attr0;
    ComponentType type = ComponentType::Float32;
    int components = 4; ///< 1..4, or columns x rows for a matrix input (e.g. 16 for mat4)
    int offset = -1;    ///< byte offset in the element; -1: packed after the previous attribute
};

/// An interleaved layout: each element is `stride` bytes holding the attributes at their offsets.
/// A single-attribute format is the degenerate case. Built with VertexFormat::interleaved().
struct VertexFormat {
    std::vector<VertexAttribute> attributes;
    int stride = 0; ///< bytes per element; 0: the packed size

    /// Fills packed offsets (for offset -1) and the stride (for 0).
    static VertexFormat interleaved(std::initializer_list<VertexAttribute> attributes, int stride = 0);
    static VertexFormat interleaved(std::vector<VertexAttribute> attributes, int stride = 0);
    /// Checks 1..16 components, 4-byte alignment, no overlap, every attribute inside the stride.
    /// @throws Error FormatInvalid, naming the attribute.
    void validate() const;
    const VertexAttribute* find(Semantic s) const;
    std::string describe() const; // "{ATTR0 float32x4 @0, ATTR1 float32x4 @16} stride 32"
};

/// One attribute as a text description gives it (a scenario file, a JavaScript object), names
/// not yet resolved. Readers fill it without judging values: parseVertexFormat() is the one
/// place that checks them, so the CLI, C++ and JavaScript report the same code and message.
struct AttributeDescription {
    std::optional<std::string> semantic; ///< "ATTR0", "POSITION", ...; nullopt: missing or not a string
    std::optional<std::string> type;     ///< "float32", "int32", "uint32"; nullopt: float32
    std::optional<double> components;    ///< nullopt: 4; NaN: given but not a number
    std::optional<double> offset;        ///< bytes; nullopt: packed after the previous one; NaN: not a number
};

/// Resolves and checks a described format (`what` names it in messages: "format",
/// "buffers[0].format"), packs it (VertexFormat::interleaved()) and validates it.
/// @throws Error InvalidArgument naming `what`[i], the field and the rule (empty list, unknown
///         semantic or type, components outside 1..16, offset not a non-negative integer);
///         FormatInvalid from VertexFormat::validate() (overlap, misalignment, outside the stride).
VertexFormat parseVertexFormat(const std::vector<AttributeDescription>& attributes, std::string_view what = "format");

} // namespace xfb
