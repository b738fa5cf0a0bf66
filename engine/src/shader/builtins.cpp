// GLSL's built-in functions and the type of each call (GLSL ES 3.00 section 8, and the ES 3.10 /
// GLSL 4.00 integer functions).
#include "builtins.hpp"

#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <string>

namespace xfb::shader {
namespace {

using S = std::string;

[[noreturn]] void refuse(Span at, const S& what) {
    throw Error(ErrorCode::ComputeTranslation, "WGSL: line " + std::to_string(at.line) + ": " + what);
}

// How a built-in's result type follows from its arguments.
enum class Rule {
    First,     // the first argument's type (sin, min, mix, ...)
    Last,      // the last argument's type (step, smoothstep)
    Float,     // float (length, dot, determinant)
    Bool,      // bool (any, all)
    BoolShape, // bvecN of the first argument (lessThan, equal, isnan)
    Vec3,      // cross
    IntShape,  // int / ivecN of the first argument (bitCount, findMSB, findLSB)
    Transpose, // matCxR -> matRxC
    Outer,     // outerProduct(vecR c, vecC r) -> matCxR
    ToInt,     // floatBitsToInt
    ToUint,    // floatBitsToUint
    ToFloat,   // intBitsToFloat, uintBitsToFloat
    Uint,      // packHalf2x16, ...
    Vec2,      // unpackHalf2x16, ...
    Vec4,      // unpackUnorm4x8, unpackSnorm4x8
    Void,      // umulExtended, imulExtended (their results are out arguments)
    Fetch,     // texelFetch, texelFetchOffset: the sampler's gvec4
    Sample,    // texture, textureLod, textureGrad, textureProj*, their Offset forms: vec4
    Size,      // textureSize: ivec2 / ivec3
};

struct Entry {
    const char* name;
    Rule rule;
};
constexpr Entry kTable[] = {
    {"abs", Rule::First},
    {"acos", Rule::First},
    {"acosh", Rule::First},
    {"all", Rule::Bool},
    {"any", Rule::Bool},
    {"asin", Rule::First},
    {"asinh", Rule::First},
    {"atan", Rule::First},
    {"atanh", Rule::First},
    {"bitCount", Rule::IntShape},
    {"bitfieldExtract", Rule::First},
    {"bitfieldInsert", Rule::First},
    {"bitfieldReverse", Rule::First},
    {"ceil", Rule::First},
    {"clamp", Rule::First},
    {"cos", Rule::First},
    {"cosh", Rule::First},
    {"cross", Rule::Vec3},
    {"degrees", Rule::First},
    {"determinant", Rule::Float},
    {"distance", Rule::Float},
    {"dot", Rule::Float},
    {"equal", Rule::BoolShape},
    {"exp", Rule::First},
    {"exp2", Rule::First},
    {"faceforward", Rule::First},
    {"findLSB", Rule::IntShape},
    {"findMSB", Rule::IntShape},
    {"floatBitsToInt", Rule::ToInt},
    {"floatBitsToUint", Rule::ToUint},
    {"floor", Rule::First},
    {"fma", Rule::First},
    {"frexp", Rule::First},
    {"fract", Rule::First},
    {"greaterThan", Rule::BoolShape},
    {"greaterThanEqual", Rule::BoolShape},
    {"imulExtended", Rule::Void},
    {"intBitsToFloat", Rule::ToFloat},
    {"inverse", Rule::First},
    {"inversesqrt", Rule::First},
    {"isinf", Rule::BoolShape},
    {"isnan", Rule::BoolShape},
    {"ldexp", Rule::First},
    {"length", Rule::Float},
    {"lessThan", Rule::BoolShape},
    {"lessThanEqual", Rule::BoolShape},
    {"log", Rule::First},
    {"log2", Rule::First},
    {"matrixCompMult", Rule::First},
    {"max", Rule::First},
    {"min", Rule::First},
    {"modf", Rule::First},
    {"mix", Rule::First},
    {"mod", Rule::First},
    {"normalize", Rule::First},
    {"not", Rule::First},
    {"notEqual", Rule::BoolShape},
    {"outerProduct", Rule::Outer},
    {"packHalf2x16", Rule::Uint},
    {"packSnorm2x16", Rule::Uint},
    {"packSnorm4x8", Rule::Uint},
    {"packUnorm2x16", Rule::Uint},
    {"packUnorm4x8", Rule::Uint},
    {"pow", Rule::First},
    {"radians", Rule::First},
    {"reflect", Rule::First},
    {"refract", Rule::First},
    {"round", Rule::First},
    {"roundEven", Rule::First},
    {"sign", Rule::First},
    {"sin", Rule::First},
    {"sinh", Rule::First},
    {"smoothstep", Rule::Last},
    {"sqrt", Rule::First},
    {"step", Rule::Last},
    {"tan", Rule::First},
    {"tanh", Rule::First},
    {"texelFetch", Rule::Fetch},
    {"texelFetchOffset", Rule::Fetch},
    {"texture", Rule::Sample},
    {"textureGrad", Rule::Sample},
    {"textureGradOffset", Rule::Sample},
    {"textureLod", Rule::Sample},
    {"textureLodOffset", Rule::Sample},
    {"textureOffset", Rule::Sample},
    {"textureProj", Rule::Sample},
    {"textureProjGrad", Rule::Sample},
    {"textureProjGradOffset", Rule::Sample},
    {"textureProjLod", Rule::Sample},
    {"textureProjLodOffset", Rule::Sample},
    {"textureProjOffset", Rule::Sample},
    {"textureSize", Rule::Size},
    {"transpose", Rule::Transpose},
    {"trunc", Rule::First},
    {"uaddCarry", Rule::First},
    {"uintBitsToFloat", Rule::ToFloat},
    {"umulExtended", Rule::Void},
    {"unpackHalf2x16", Rule::Vec2},
    {"unpackSnorm2x16", Rule::Vec2},
    {"unpackSnorm4x8", Rule::Vec4},
    {"unpackUnorm2x16", Rule::Vec2},
    {"unpackUnorm4x8", Rule::Vec4},
    {"usubBorrow", Rule::First},
};

constexpr std::string_view kDerivatives[] = {"dFdx", "dFdy", "fwidth"};

} // namespace

int builtinOutArgument(std::string_view name) {
    return name == "modf" || name == "frexp"                                                                 ? 1
           : name == "uaddCarry" || name == "usubBorrow" || name == "umulExtended" || name == "imulExtended" ? 2
                                                                                                             : -1;
}

int builtinArgumentCount(std::string_view name) {
    return name == "umulExtended" || name == "imulExtended" ? 4 : builtinOutArgument(name) + 1;
}

SamplingForm samplingForm(std::string_view n) {
    auto has = [&](std::string_view part) { return n.find(part) != std::string_view::npos; };
    return {has("Proj"), has("Lod"), has("Grad"), has("Offset")};
}

std::optional<std::string> refusedBuiltin(std::string_view name) {
    if (std::find(std::begin(kDerivatives), std::end(kDerivatives), name) != std::end(kDerivatives))
        return "'" + S(name) +
               "()' has no WGSL built-in equivalent in a compute shader (derivatives exist only in fragment shaders)";
    return std::nullopt;
}

std::optional<Type> builtinCall(std::string_view name, const std::vector<Type>& args, Span at) {
    const Entry* e = std::find_if(std::begin(kTable), std::end(kTable), [&](const Entry& x) { return name == x.name; });
    if (e == std::end(kTable)) return std::nullopt;
    const S n(name);
    if (args.empty()) refuse(at, "'" + n + "()' without arguments");
    const Type& first = args[0];
    if (e->rule != Rule::Fetch && e->rule != Rule::Size && e->rule != Rule::Sample)
        for (const Type& a : args)
            if (!a.numeric()) refuse(at, "'" + n + "()' of an array, struct or sampler");
    switch (e->rule) {
        case Rule::First: {
            if (name == "inverse" && !(first.matrix() && first.cols == first.rows))
                refuse(at, "'inverse()' takes a square matrix");
            if ((name == "matrixCompMult") && (args.size() != 2 || !first.matrix() || !(args[1] == first)))
                refuse(at, "'matrixCompMult()' takes two matrices of one type");
            if (name == "mod" && args.size() != 2) refuse(at, "mod() takes two arguments");
            if (name == "ldexp" && (args.size() != 2 || args[1].kind != ScalarKind::Int || args[1].rows != first.rows))
                refuse(at, "'ldexp()' takes a float and an int of its shape");
            return first;
        }
        case Rule::Last: return args.back();
        case Rule::Float: return Type::of(ScalarKind::Float);
        case Rule::Bool: return Type::of(ScalarKind::Bool);
        case Rule::BoolShape:
            if (!(name == "isnan" || name == "isinf") && args.size() != 2)
                refuse(at, "'" + n + "()' takes two vectors");
            return Type::of(ScalarKind::Bool, first.rows);
        case Rule::Vec3: return Type::of(ScalarKind::Float, 3);
        case Rule::IntShape:
            if (!first.integer() || first.matrix()) refuse(at, "'" + n + "()' takes an int or uint scalar or vector");
            return Type::of(ScalarKind::Int, first.rows);
        case Rule::Transpose: return Type::matrixOf(first.rows, first.cols);
        case Rule::Outer:
            if (args.size() != 2 || !first.vector() || !args[1].vector())
                refuse(at, "'outerProduct()' takes two float vectors");
            return Type::matrixOf(args[1].rows, first.rows);
        case Rule::ToInt: return Type::of(ScalarKind::Int, first.rows);
        case Rule::ToUint: return Type::of(ScalarKind::UInt, first.rows);
        case Rule::ToFloat: return Type::of(ScalarKind::Float, first.rows);
        case Rule::Uint: return Type::of(ScalarKind::UInt);
        case Rule::Vec2: return Type::of(ScalarKind::Float, 2);
        case Rule::Vec4: return Type::of(ScalarKind::Float, 4);
        case Rule::Void:
            if (!first.integer() || first.matrix() ||
                !std::all_of(args.begin(), args.end(), [&](auto& a) { return a == first; }))
                refuse(at, "'" + n + "()' takes four " + (n[0] == 'u' ? "uint" : "int") +
                               " scalars or vectors of one type");
            return Type::voidType();
        case Rule::Sample: {
            if (first.kind != ScalarKind::Opaque) refuse(at, "'" + n + "()' needs a sampler as its first argument");
            const S& sampler = first.name;
            if (sampler.find("Shadow") != S::npos)
                refuse(at, "'" + n + "()' of a " + sampler +
                               ": the WGSL translation samples sampler2D, sampler3D, samplerCube and sampler2DArray");
            if (sampler[0] != 's')
                refuse(at, "'" + n + "()' of an integer sampler (" + sampler +
                               "): WGSL samples float textures only; read it with texelFetch()");
            const auto [proj, lod, grad, offset] = samplingForm(name);
            const std::size_t count = 2 + (lod ? 1 : 0) + (grad ? 2 : 0) + (offset ? 1 : 0);
            if (args.size() == count + 1 && !lod && !grad)
                refuse(at, "'" + n + "()' with a bias: a vertex shader takes none (GLSL ES 3.00 section 8.8)");
            if (args.size() != count) refuse(at, "'" + n + "()' takes " + std::to_string(count) + " arguments");
            if ((proj || offset) && (sampler == "samplerCube" || (proj && sampler == "sampler2DArray")))
                refuse(at, "'" + n + "()' of a " + sampler + ": GLSL has no such lookup");
            return Type::of(ScalarKind::Float, 4);
        }
        case Rule::Fetch:
        case Rule::Size: {
            if (first.kind != ScalarKind::Opaque) refuse(at, "'" + n + "()' needs a sampler as its first argument");
            const bool array = first.name.find("Array") != S::npos, threeD = first.name.find("3D") != S::npos;
            if (e->rule == Rule::Size) return Type::of(ScalarKind::Int, threeD || array ? 3 : 2);
            if (args.size() != (name == "texelFetch" ? 3u : 4u))
                refuse(at, "'" + n + "()' takes a sampler, a coordinate, a level" +
                               (name == "texelFetch" ? "" : " and an offset"));
            ScalarKind k = first.name[0] == 'i'   ? ScalarKind::Int
                           : first.name[0] == 'u' ? ScalarKind::UInt
                                                  : ScalarKind::Float;
            return Type::of(k, 4);
        }
    }
    return std::nullopt;
}

} // namespace xfb::shader
