#include "xfb/vertex_format.hpp"

#include "xfb/error.hpp"

#include <algorithm>
#include <array>
#include <cmath>

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

std::string_view standardInputName(Semantic s) {
    for (auto& e : kStandard)
        if (e.value == s) return e.input;
    return {};
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
    auto fail = [&](const std::string& what) {
        throw Error(ErrorCode::FormatInvalid, "vertex format " + describe() + ": " + what);
    };
    if (attributes.empty()) fail("has no attributes; give at least one");
    // An unaligned offset first: it is the cause of the unaligned stride it implies.
    for (const auto& a : attributes)
        if (a.offset < 0 || a.offset % 4)
            fail(semanticName(a.semantic) + " offset must be a non-negative multiple of 4, got " +
                 std::to_string(a.offset));
    if (stride <= 0 || stride % 4) fail("stride must be a positive multiple of 4 bytes, got " + std::to_string(stride));
    for (size_t i = 0; i < attributes.size(); ++i) {
        const auto& a = attributes[i];
        std::string name = semanticName(a.semantic);
        if (a.components < 1 || a.components > 16)
            fail(name + " must have 1..16 components, got " + std::to_string(a.components));
        if (a.offset < 0 || a.offset % 4)
            fail(name + " offset must be a non-negative multiple of 4, got " + std::to_string(a.offset));
        int end = a.offset + a.components * componentBytes(a.type);
        if (end > stride)
            fail(name + " ends at byte " + std::to_string(end) + ", beyond the stride " + std::to_string(stride) +
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

namespace {

// A number as JavaScript prints it (2, -4, 2.5), up to six decimals; what it was when it was not
// one. Hand-formatted: printf's float formatting would add kilobytes to the WebAssembly modules.
std::string shown(double v) {
    if (std::isnan(v)) return "a value that is not a number";
    if (!(std::fabs(v) < 1e15))
        return v < 0 ? "-Infinity or a number below -10^15" : "Infinity or a number above 10^15";
    long long micro = std::llround(std::fabs(v) * 1e6);
    std::string text = (v < 0 && micro ? "-" : "") + std::to_string(micro / 1000000);
    if (long long fraction = micro % 1000000) {
        std::string digits = std::to_string(1000000 + fraction).substr(1);
        text += "." + digits.substr(0, digits.find_last_not_of('0') + 1);
    }
    return text;
}

std::string typeList() {
    std::string list;
    constexpr auto n = std::size(componentTypeNames);
    for (std::size_t i = 0; i < n; ++i)
        list += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(componentTypeNames[i]);
    return list;
}

} // namespace

VertexFormat parseVertexFormat(const std::vector<AttributeDescription>& described, std::string_view what) {
    auto fail = [](const std::string& message) { throw Error(ErrorCode::InvalidArgument, message); };
    if (described.empty())
        fail(std::string(what) + " must be a non-empty array of { semantic, type?, components?, offset? }");
    std::vector<VertexAttribute> attributes;
    for (std::size_t i = 0; i < described.size(); ++i) {
        const auto& d = described[i];
        std::string field = std::string(what) + "[" + std::to_string(i) + "]";
        if (!d.semantic) fail(field + ".semantic must be a string such as 'ATTR0' or 'POSITION'");
        auto semantic = semanticFromName(*d.semantic);
        if (!semantic)
            fail(field +
                 ".semantic must be ATTR0..ATTR31, POSITION, NORMAL, TANGENT, BLENDWEIGHT, BLENDINDICES, COLOR or "
                 "TEXCOORD0..TEXCOORD7, got '" +
                 *d.semantic + "'");
        VertexAttribute a{*semantic};
        if (d.type) {
            auto type = enumFromName<ComponentType>(componentTypeNames, *d.type);
            if (!type) fail(field + ".type must be " + typeList() + ", got '" + *d.type + "'");
            a.type = *type;
        }
        if (d.components) {
            double c = *d.components;
            if (!(c >= 1 && c <= 16 && c == std::floor(c)))
                fail(field + ".components must be an integer 1..16, got " + shown(c));
            a.components = static_cast<int>(c);
        }
        if (d.offset) {
            double o = *d.offset; // bounded so that offset + 64 bytes stays far inside int
            if (!(o >= 0 && o < 1073741824.0 && o == std::floor(o)))
                fail(field + ".offset must be a non-negative integer number of bytes below 2^30, got " + shown(o));
            a.offset = static_cast<int>(o);
        }
        attributes.push_back(a);
    }
    VertexFormat format = VertexFormat::interleaved(std::move(attributes));
    format.validate();
    return format;
}

} // namespace xfb
