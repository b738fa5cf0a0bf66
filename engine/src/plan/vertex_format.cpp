#include "xfb/vertex_format.hpp"

#include "xfb/error.hpp"

#include <algorithm>
#include <array>

namespace xfb {
namespace {

struct StandardName {
    std::string_view input;
    std::string_view semantic;
    Semantic value;
};
constexpr std::array<StandardName, 14> kStandard{{
    {"vertex_position", "POSITION", Semantic::Position},
    {"vertex_normal", "NORMAL", Semantic::Normal},
    {"vertex_tangent", "TANGENT", Semantic::Tangent},
    {"vertex_boneWeights", "BLENDWEIGHT", Semantic::BlendWeight},
    {"vertex_boneIndices", "BLENDINDICES", Semantic::BlendIndices},
    {"vertex_color", "COLOR", Semantic::Color},
    {"vertex_texCoord0", "TEXCOORD0", Semantic::TexCoord0},
    {"vertex_texCoord1", "TEXCOORD1", Semantic::TexCoord1},
    {"vertex_texCoord2", "TEXCOORD2", Semantic::TexCoord2},
    {"vertex_texCoord3", "TEXCOORD3", Semantic::TexCoord3},
    {"vertex_texCoord4", "TEXCOORD4", Semantic::TexCoord4},
    {"vertex_texCoord5", "TEXCOORD5", Semantic::TexCoord5},
    {"vertex_texCoord6", "TEXCOORD6", Semantic::TexCoord6},
    {"vertex_texCoord7", "TEXCOORD7", Semantic::TexCoord7},
}};

int componentBytes(ComponentType) { return 4; }

} // namespace

std::string semanticName(Semantic s) {
    int v = static_cast<int>(s);
    if (v >= static_cast<int>(Semantic::Attr0)) return "ATTR" + std::to_string(v - static_cast<int>(Semantic::Attr0));
    for (auto& e : kStandard)
        if (e.value == s) return std::string(e.semantic);
    return "SEMANTIC" + std::to_string(v);
}

std::optional<Semantic> semanticFromName(std::string_view name) {
    for (auto& e : kStandard)
        if (e.semantic == name) return e.value;
    if (name.starts_with("ATTR") && name.size() > 4 && name.size() <= 6) {
        int n = 0;
        for (char c : name.substr(4)) {
            if (c < '0' || c > '9') return std::nullopt;
            n = n * 10 + (c - '0');
        }
        if (n < 32) return attr(n);
    }
    return std::nullopt;
}

std::optional<Semantic> standardSemantic(std::string_view inputName) {
    for (auto& e : kStandard)
        if (e.input == inputName) return e.value;
    return std::nullopt;
}

int semanticLocation(Semantic s) {
    int v = static_cast<int>(s);
    int attr0 = static_cast<int>(Semantic::Attr0);
    return v >= attr0 ? v - attr0 : v; // standard semantics are numbered by their slot
}

std::string_view componentTypeName(ComponentType t) { return enumName(componentTypeNames, t); }

VertexFormat VertexFormat::interleaved(std::initializer_list<VertexAttribute> attributes, int stride) {
    return interleaved(std::vector<VertexAttribute>(attributes), stride);
}

VertexFormat VertexFormat::interleaved(std::vector<VertexAttribute> attributes, int stride) {
    VertexFormat f{std::move(attributes), stride};
    int cursor = 0;
    for (auto& a : f.attributes) {
        if (a.offset < 0) a.offset = cursor;
        cursor = std::max(cursor, a.offset + a.components * componentBytes(a.type));
    }
    if (f.stride == 0) f.stride = cursor;
    return f;
}

void VertexFormat::validate() const {
    auto fail = [&](const std::string& what) { throw Error(ErrorCode::FormatInvalid, "vertex format " + describe() + ": " + what); };
    if (attributes.empty()) fail("has no attributes; give at least one");
    if (stride <= 0 || stride % 4) fail("stride must be a positive multiple of 4 bytes, got " + std::to_string(stride));
    for (size_t i = 0; i < attributes.size(); ++i) {
        const auto& a = attributes[i];
        std::string name = semanticName(a.semantic);
        if (a.components < 1 || a.components > 16) fail(name + " must have 1..16 components, got " + std::to_string(a.components));
        if (a.offset < 0 || a.offset % 4) fail(name + " offset must be a non-negative multiple of 4, got " + std::to_string(a.offset));
        int end = a.offset + a.components * componentBytes(a.type);
        if (end > stride) fail(name + " ends at byte " + std::to_string(end) + ", beyond the stride " + std::to_string(stride) +
                               ": the format must be interleaved (every attribute inside one element)");
        for (size_t j = 0; j < i; ++j) {
            const auto& b = attributes[j];
            int bEnd = b.offset + b.components * componentBytes(b.type);
            if (a.semantic == b.semantic) fail(name + " appears twice");
            if (a.offset < bEnd && b.offset < end) fail(name + " overlaps " + semanticName(b.semantic));
        }
    }
}

const VertexAttribute* VertexFormat::find(Semantic s) const {
    for (auto& a : attributes)
        if (a.semantic == s) return &a;
    return nullptr;
}

std::string VertexFormat::describe() const {
    std::string s = "{";
    for (size_t i = 0; i < attributes.size(); ++i) {
        const auto& a = attributes[i];
        s += (i ? ", " : "") + semanticName(a.semantic) + " " + std::string(componentTypeName(a.type)) + "x" +
             std::to_string(a.components) + " @" + std::to_string(a.offset);
    }
    return s + "} stride " + std::to_string(stride);
}

} // namespace xfb
