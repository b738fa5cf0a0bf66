#include "glsl_version_rules.hpp"

#include "xfb/error.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace xfb::plan {
namespace {

// A built-in function and the first versions that have it (as glslang and the GL compilers judge).
struct BuiltinSince {
    std::string_view name;
    int es;      // GLSL ES version
    int desktop; // GLSL version
};
constexpr BuiltinSince kBuiltinsSince[] = {{"bitfieldExtract", 310, 400},
                                           {"bitfieldInsert", 310, 400},
                                           {"bitfieldReverse", 310, 400},
                                           {"bitCount", 310, 400},
                                           {"findLSB", 310, 400},
                                           {"findMSB", 310, 400},
                                           {"uaddCarry", 310, 400},
                                           {"usubBorrow", 310, 400},
                                           {"umulExtended", 310, 400},
                                           {"imulExtended", 310, 400},
                                           {"frexp", 310, 400},
                                           {"ldexp", 310, 400},
                                           {"packUnorm4x8", 310, 400},
                                           {"packSnorm4x8", 310, 400},
                                           {"unpackUnorm4x8", 310, 400},
                                           {"unpackSnorm4x8", 310, 400},
                                           {"textureGather", 310, 400},
                                           {"textureGatherOffset", 310, 400},
                                           {"fma", 320, 400},
                                           {"packUnorm2x16", 300, 400},
                                           {"unpackUnorm2x16", 300, 400},
                                           {"packSnorm2x16", 300, 420},
                                           {"unpackSnorm2x16", 300, 420},
                                           {"packHalf2x16", 300, 420},
                                           {"unpackHalf2x16", 300, 420}};

std::string versionName(int version, bool es) {
    std::string digits =
        std::to_string(version / 100) + "." + std::to_string(version % 100 / 10) + std::to_string(version % 10);
    return (es ? "GLSL ES " : "GLSL ") + digits;
}

[[noreturn]] void refuse(int line, const std::string& what) {
    throw Error(ErrorCode::ShaderCompile, "line " + std::to_string(line) + ": " + what);
}

void refuseUnflatIntegerOutputs(const PreprocessedSource& source, const ShaderInterface& shader) {
    if (!source.es || source.version != 300) return;
    for (const Declaration& d : shader.outputs) {
        const bool integer = d.type.kind == ScalarKind::Int || d.type.kind == ScalarKind::UInt;
        if (!integer || std::count(d.qualifiers.begin(), d.qualifiers.end(), "flat")) continue;
        refuse(d.line, "output '" + d.name + "' (" + d.type.name +
                           ") is an integer, which GLSL ES 3.00 requires be declared flat (section 4.3.6); write "
                           "'flat out " +
                           d.type.name + " " + d.name + "'");
    }
}

void refuseMissingBuiltins(const PreprocessedSource& source) {
    const std::vector<Token>& t = source.tokens;
    // Functions the shader defines or declares itself (`type name (` at global scope) are its own.
    std::set<std::string_view> own;
    int depth = 0;
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        depth += t[i].text == "{" ? 1 : t[i].text == "}" ? -1 : 0;
        if (depth == 0 && i > 0 && t[i].kind == TokenKind::Identifier && t[i - 1].kind == TokenKind::Identifier &&
            t[i + 1].text == "(")
            own.insert(t[i].text);
    }
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        if (t[i].kind != TokenKind::Identifier || t[i + 1].text != "(" || own.count(t[i].text)) continue;
        auto b = std::find_if(std::begin(kBuiltinsSince), std::end(kBuiltinsSince),
                              [&](const BuiltinSince& x) { return x.name == t[i].text; });
        if (b == std::end(kBuiltinsSince)) continue;
        const int since = source.es ? b->es : b->desktop;
        if (source.version >= since) continue;
        refuse(t[i].line, "'" + t[i].text + "()' is not a built-in function of " +
                              versionName(source.version, source.es) + "; it needs #version " + std::to_string(since) +
                              (source.es ? " es" : "") + ": raise the #version or write it out");
    }
}

} // namespace

void refuseWhatTheVersionForbids(const PreprocessedSource& source, const ShaderInterface& shader) {
    refuseUnflatIntegerOutputs(source, shader);
    refuseMissingBuiltins(source);
}

} // namespace xfb::plan
