// WGSL's spelling of GLSL names and types (wgsl_names.hpp).
#include "wgsl_names.hpp"

#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb::shader {
namespace {

// WGSL keywords, reserved words and the predeclared names the translation emits: a user
// identifier spelled like one is renamed (xfb_r_name).
constexpr std::string_view kWgslReserved[] = {
    // sorted: binary search
    "NULL",
    "Self",
    "abstract",
    "active",
    "alias",
    "alignas",
    "alignof",
    "all",
    "any",
    "array",
    "as",
    "asm",
    "asm_fragment",
    "async",
    "atan2",
    "atomic",
    "attribute",
    "auto",
    "await",
    "become",
    "binding_array",
    "bitcast",
    "break",
    "case",
    "cast",
    "catch",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "coherent",
    "column_major",
    "common",
    "compile",
    "compile_fragment",
    "concept",
    "const",
    "const_assert",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "continue",
    "continuing",
    "crate",
    "debugger",
    "decltype",
    "default",
    "delete",
    "demote",
    "demote_to_helper",
    "diagnostic",
    "discard",
    "do",
    "dynamic_cast",
    "else",
    "enable",
    "enum",
    "explicit",
    "export",
    "extends",
    "extern",
    "external",
    "f16",
    "f32",
    "faceForward",
    "fallthrough",
    "false",
    "filter",
    "final",
    "finally",
    "fn",
    "for",
    "friend",
    "from",
    "function",
    "fxgroup",
    "get",
    "goto",
    "groupshared",
    "highp",
    "i32",
    "if",
    "impl",
    "implements",
    "import",
    "inline",
    "instanceof",
    "interface",
    "inverseSqrt",
    "layout",
    "let",
    "loop",
    "lowp",
    "macro",
    "macro_rules",
    "main",
    "mat2x2",
    "mat2x3",
    "mat2x4",
    "mat3x2",
    "mat3x3",
    "mat3x4",
    "mat4x2",
    "mat4x3",
    "mat4x4",
    "match",
    "mediump",
    "meta",
    "mod",
    "module",
    "move",
    "mut",
    "mutable",
    "namespace",
    "new",
    "nil",
    "noexcept",
    "noinline",
    "nointerpolation",
    "non_coherent",
    "noncoherent",
    "noperspective",
    "null",
    "nullptr",
    "of",
    "override",
    "pack2x16float",
    "pack2x16snorm",
    "pack2x16unorm",
    "package",
    "packoffset",
    "partition",
    "pass",
    "patch",
    "pixelfragment",
    "precise",
    "precision",
    "premerge",
    "priv",
    "private",
    "protected",
    "ptr",
    "pub",
    "public",
    "read",
    "read_write",
    "readonly",
    "ref",
    "regardless",
    "register",
    "reinterpret_cast",
    "require",
    "requires",
    "resource",
    "restrict",
    "return",
    "round",
    "sampler",
    "select",
    "self",
    "set",
    "shared",
    "sizeof",
    "smooth",
    "snorm",
    "static",
    "static_assert",
    "static_cast",
    "std",
    "storage",
    "struct",
    "subroutine",
    "super",
    "switch",
    "target",
    "template",
    "textureDimensions",
    "textureLoad",
    "texture_2d",
    "this",
    "thread_local",
    "throw",
    "trait",
    "true",
    "try",
    "type",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "u32",
    "uniform",
    "union",
    "unless",
    "unorm",
    "unpack2x16float",
    "unpack2x16snorm",
    "unpack2x16unorm",
    "unsafe",
    "unsized",
    "use",
    "using",
    "var",
    "varying",
    "vec2",
    "vec3",
    "vec4",
    "virtual",
    "volatile",
    "wgsl",
    "where",
    "while",
    "with",
    "writeonly",
    "yield",
};

} // namespace

std::string wgslIdent(const std::string& name) {
    return std::binary_search(std::begin(kWgslReserved), std::end(kWgslReserved), name) ? "xfb_r_" + name : name;
}

std::string wgslScalar(ScalarKind k) {
    return k == ScalarKind::Int ? "i32" : k == ScalarKind::UInt ? "u32" : k == ScalarKind::Bool ? "bool" : "f32";
}

std::string wgslShape(ScalarKind k, int rows) {
    return rows == 1 ? wgslScalar(k) : "vec" + std::to_string(rows) + "<" + wgslScalar(k) + ">";
}

std::string wgslType(const Type& t, int line) {
    std::string s;
    if (t.kind == ScalarKind::Struct)
        s = wgslIdent(t.name);
    else if (t.kind == ScalarKind::Opaque) {
        ScalarKind k = t.name[0] == 'i' ? ScalarKind::Int : t.name[0] == 'u' ? ScalarKind::UInt : ScalarKind::Float;
        std::string base = k == ScalarKind::Float ? t.name : t.name.substr(1);
        const char* dim = base == "sampler2D"        ? "2d"
                          : base == "sampler3D"      ? "3d"
                          : base == "sampler2DArray" ? "2d_array"
                          : t.name == "samplerCube"  ? "cube"
                                                     : nullptr;
        if (!dim)
            throw Error(ErrorCode::ComputeTranslation,
                        plan::cat({"WGSL: line ", std::to_string(line), ": '", t.name,
                                   "': the WGSL translation reads sampler2D, sampler3D and sampler2DArray (and their "
                                   "i/u forms) and samplerCube only"}));
        s = std::string("texture_") + dim + "<" + wgslScalar(k) + ">";
    } else if (t.kind == ScalarKind::Double)
        throw Error(ErrorCode::ComputeTranslation,
                    "WGSL: line " + std::to_string(line) + ": double types have no WGSL equivalent");
    else if (t.cols > 1)
        s = "mat" + std::to_string(t.cols) + "x" + std::to_string(t.rows) + "<f32>";
    else
        s = wgslShape(t.kind, t.rows);
    return t.array ? "array<" + s + ", " + std::to_string(t.array) + ">" : s;
}

} // namespace xfb::shader
