// GLSL ES 3.00 vertex shader -> WGSL compute shader. A small recursive-descent parser over the
// preprocessor's tokens: statements are re-emitted with WGSL syntax, expressions carry their
// GLSL type so that conversions, splats and built-in renames are exact. See wgsl_translation.hpp.
#include "xfb/wgsl_translation.hpp"

#include "component_index.hpp"
#include "wgsl_code.hpp"
#include "fusion_source.hpp"
#include "text.hpp"
#include "preprocessor.hpp"
#include "xfb/error.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/glsl_dialect.hpp"

#include <algorithm>
#include <cctype>
#include <span>
#include <string_view>
#include <map>
#include <set>

namespace xfb {
namespace {

using plan::Token;
using plan::TokenKind;
using S = std::string;

using plan::cat; // strings built by appending pieces (plan/text.hpp)
[[noreturn]] void refuse(int line, std::initializer_list<std::string_view> what) {
    throw Error(ErrorCode::ComputeTranslation, cat({"WGSL: line ", std::to_string(line), ": "}) + cat(what));
}
[[noreturn]] void refuse(int line, std::string_view what) { refuse(line, {what}); }

// WGSL keywords, reserved words and the predeclared names this translation emits: a user
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

bool inTable(std::span<const std::string_view> sorted, std::string_view name) {
    return std::binary_search(sorted.begin(), sorted.end(), name);
}

S ident(const S& name) { return inTable(kWgslReserved, name) ? "xfb_r_" + name : name; }
// A captured varying's variable: an element `a[1]` (CaptureOptions::varyings) keeps its index.
S identVarying(const S& name) {
    auto open = name.find('[');
    return open == S::npos ? ident(name) : ident(name.substr(0, open)) + name.substr(open);
}

// gl_in[]'s element in a geometry shader: a struct of the generated code (wgsl_geometry.cpp).
constexpr std::string_view kPerVertex = "xfb_per_vertex";

// A GLSL type during translation: scalar, vector (cols 1), matrix, array of them, struct, texture.
struct Ty {
    ScalarKind kind = ScalarKind::Float;
    int cols = 1, rows = 1, array = 0;
    S name; // struct name, or the sampler type's name
    bool isVoid = false;
    bool scalar() const { return cols == 1 && rows == 1 && array == 0 && kind <= ScalarKind::Bool; }
    bool vector() const { return cols == 1 && rows > 1 && array == 0; }
    bool matrix() const { return cols > 1 && array == 0; }
    bool numeric() const { return array == 0 && kind <= ScalarKind::Bool; }
    bool operator==(const Ty& o) const {
        return kind == o.kind && cols == o.cols && rows == o.rows && array == o.array && name == o.name &&
               isVoid == o.isVoid;
    }
};
Ty scalarTy(ScalarKind k) { return Ty{k}; }
Ty vecTy(ScalarKind k, int n) { return Ty{k, 1, n}; }

S scalarW(ScalarKind k) {
    return k == ScalarKind::Int ? "i32" : k == ScalarKind::UInt ? "u32" : k == ScalarKind::Bool ? "bool" : "f32";
}
S shapeW(ScalarKind k, int rows) {
    return rows == 1 ? scalarW(k) : "vec" + std::to_string(rows) + "<" + scalarW(k) + ">";
}

S wgslType(const Ty& t, int line) {
    S s;
    if (t.kind == ScalarKind::Struct)
        s = ident(t.name);
    else if (t.kind == ScalarKind::Opaque) {
        ScalarKind k = t.name[0] == 'i' ? ScalarKind::Int : t.name[0] == 'u' ? ScalarKind::UInt : ScalarKind::Float;
        S base = k == ScalarKind::Float ? t.name : t.name.substr(1);
        const char* dim = base == "sampler2D"        ? "2d"
                          : base == "sampler3D"      ? "3d"
                          : base == "sampler2DArray" ? "2d_array"
                                                     : nullptr;
        if (!dim)
            refuse(
                line,
                {"'", t.name,
                 "': the WGSL translation reads sampler2D, sampler3D and sampler2DArray (and their i/u forms) only"});
        s = S("texture_") + dim + "<" + scalarW(k) + ">";
    } else if (t.kind == ScalarKind::Double)
        refuse(line, "double types have no WGSL equivalent");
    else if (t.cols > 1)
        s = "mat" + std::to_string(t.cols) + "x" + std::to_string(t.rows) + "<f32>";
    else
        s = shapeW(t.kind, t.rows);
    return t.array ? "array<" + s + ", " + std::to_string(t.array) + ">" : s;
}

// Where a name lives, which decides how a reference to it is spelled.
enum class Where { Private, Uniform, Texture, Local, Const, PtrParam };
struct Var {
    Ty type;
    Where where = Where::Local;
    S wgsl;
};

struct Fn {
    std::vector<Ty> params;
    std::vector<bool> byPointer;
    Ty result;
    S wgsl;
    bool pure = true;
    bool defined = false;
};

// A translated expression.
struct Ex {
    S s;
    Ty ty;
    bool lvalue = false;    // a reference that can be assigned
    bool effects = false;   // calls something that writes (a user function that is not pure)
    S root;                 // lvalue: the variable at its root
    S swizzleBase, swizzle; // lvalue of 2+ swizzled components: base text and the components
    bool wholeVar = false;  // a bare variable name
    bool literal = false;
    bool incdec = false;   // x++ / x--: a statement of its own in WGSL
    bool userCall = false; // a call of a user function: a statement of its own in WGSL
};

struct Builtin {
    const char* glsl;
    const char* wgsl;
    enum Result { First, Last, Float, Bool, BoolShape, Vec3, Custom } result;
    enum Splat { None, ToFirst, ToLast } splat = None;
};
const Builtin kBuiltins[] = {
    {"radians", "radians", Builtin::First},
    {"degrees", "degrees", Builtin::First},
    {"sin", "sin", Builtin::First},
    {"cos", "cos", Builtin::First},
    {"tan", "tan", Builtin::First},
    {"asin", "asin", Builtin::First},
    {"acos", "acos", Builtin::First},
    {"sinh", "sinh", Builtin::First},
    {"cosh", "cosh", Builtin::First},
    {"tanh", "tanh", Builtin::First},
    {"asinh", "asinh", Builtin::First},
    {"acosh", "acosh", Builtin::First},
    {"atanh", "atanh", Builtin::First},
    {"pow", "pow", Builtin::First},
    {"exp", "exp", Builtin::First},
    {"log", "log", Builtin::First},
    {"exp2", "exp2", Builtin::First},
    {"log2", "log2", Builtin::First},
    {"sqrt", "sqrt", Builtin::First},
    {"inversesqrt", "inverseSqrt", Builtin::First},
    {"abs", "abs", Builtin::First},
    {"sign", "sign", Builtin::First},
    {"floor", "floor", Builtin::First},
    {"ceil", "ceil", Builtin::First},
    {"trunc", "trunc", Builtin::First},
    {"round", "round", Builtin::First},
    {"roundEven", "round", Builtin::First},
    {"fract", "fract", Builtin::First},
    {"min", "min", Builtin::First, Builtin::ToFirst},
    {"max", "max", Builtin::First, Builtin::ToFirst},
    {"clamp", "clamp", Builtin::First, Builtin::ToFirst},
    {"mix", "mix", Builtin::First},
    {"step", "step", Builtin::Last, Builtin::ToLast},
    {"smoothstep", "smoothstep", Builtin::Last, Builtin::ToLast},
    {"length", "length", Builtin::Float},
    {"distance", "distance", Builtin::Float},
    {"dot", "dot", Builtin::Float},
    {"cross", "cross", Builtin::Vec3},
    {"normalize", "normalize", Builtin::First},
    {"faceforward", "faceForward", Builtin::First},
    {"reflect", "reflect", Builtin::First},
    {"refract", "refract", Builtin::First},
    {"transpose", "transpose", Builtin::Custom},
    {"determinant", "determinant", Builtin::Float},
    {"any", "any", Builtin::Bool},
    {"all", "all", Builtin::Bool},
    {"not", "!", Builtin::First},
    {"lessThan", "<", Builtin::BoolShape},
    {"lessThanEqual", "<=", Builtin::BoolShape},
    {"greaterThan", ">", Builtin::BoolShape},
    {"greaterThanEqual", ">=", Builtin::BoolShape},
    {"equal", "==", Builtin::BoolShape},
    {"notEqual", "!=", Builtin::BoolShape},
    {"floatBitsToInt", "bitcast", Builtin::Custom},
    {"floatBitsToUint", "bitcast", Builtin::Custom},
    {"intBitsToFloat", "bitcast", Builtin::Custom},
    {"uintBitsToFloat", "bitcast", Builtin::Custom},
    {"packHalf2x16", "pack2x16float", Builtin::Custom},
    {"unpackHalf2x16", "unpack2x16float", Builtin::Custom},
    {"packUnorm2x16", "pack2x16unorm", Builtin::Custom},
    {"unpackUnorm2x16", "unpack2x16unorm", Builtin::Custom},
    {"packSnorm2x16", "pack2x16snorm", Builtin::Custom},
    {"unpackSnorm2x16", "unpack2x16snorm", Builtin::Custom},
    {"texelFetch", "textureLoad", Builtin::Custom},
    {"textureSize", "textureDimensions", Builtin::Custom},
    {"atan", "atan", Builtin::Custom},
    {"mod", "mod", Builtin::Custom},
};
constexpr std::string_view kRefusedBuiltins[] = {
    // sorted
    "dFdx",
    "dFdy",
    "fwidth",
    "inverse",
    "isinf",
    "isnan",
    "matrixCompMult",
    "outerProduct",
    "texelFetchOffset",
    "texture",
    "textureGrad",
    "textureGradOffset",
    "textureLod",
    "textureLodOffset",
    "textureOffset",
    "textureProj",
    "textureProjGrad",
    "textureProjLod",
    "textureProjOffset",
};
constexpr std::string_view kAssignOps[] = {"%=", "&=", "*=", "+=", "-=", "/=", "<<=", "=", ">>=", "^=", "|="};

int precedence(std::string_view op) {
    static constexpr std::pair<std::string_view, int> table[] = {
        {"||", 1}, {"^^", 2}, {"&&", 3}, {"|", 4},  {"^", 5},  {"&", 6},  {"==", 7}, {"!=", 7}, {"<", 8}, {">", 8},
        {"<=", 8}, {">=", 8}, {"<<", 9}, {">>", 9}, {"+", 10}, {"-", 10}, {"*", 11}, {"/", 11}, {"%", 11}};
    for (auto& [o, p] : table)
        if (o == op) return p;
    return 0;
}

class Translator {
public:
    Translator(const std::vector<Token>& tokens, const std::vector<S>& functionMacros)
        : macros_(functionMacros.begin(), functionMacros.end()) {
        // The lexer splits the three-character operators and ^^: join adjacent pieces.
        for (const Token& k : tokens) {
            if (!t_.empty()) {
                Token& b = t_.back();
                bool adjacent =
                    b.line == k.line && b.column + int(b.text.size()) == k.column && k.kind == TokenKind::Punct;
                if (adjacent &&
                    ((k.text == "=" && (b.text == "<<" || b.text == ">>")) || (k.text == "^" && b.text == "^"))) {
                    b.text += k.text;
                    continue;
                }
            }
            t_.push_back(k);
        }
    }

    std::map<S, Var> globals;
    std::map<S, std::vector<std::pair<S, Ty>>> structs;
    S out;                       // module-scope WGSL of the user's code
    S helpers;                   // generated helper functions (mod, matrix resizes)
    bool substepBuiltin = false; // `uniform int xfb_substep;`: read as the private xfb_substep
    int geometryVertices = 0;    // > 0: a geometry shader of that many input vertices (wgsl_code.hpp)
    S uniformBlock = "xfb_u";    // the var<uniform> holding the shader's uniforms

    /// An input or output of the shader as a private global the entry point loads and stores:
    /// registered under its name; returns its type. Refuses the reserved prefix.
    Ty declarePrivate(const Declaration& d) {
        if (d.name.starts_with("xfb_"))
            refuse(d.line, {"identifier '", d.name, "' uses the reserved prefix xfb_; rename it"});
        Ty ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize,
              d.type.kind == ScalarKind::Struct ? d.type.name : S()};
        globals[d.name] = {ty, Where::Private, ident(d.name)};
        return ty;
    }

    void translateModule() {
        while (!atEnd()) globalDeclaration();
    }

private:
    std::vector<Token> t_;
    std::set<S> macros_;
    std::size_t p_ = 0;
    std::vector<std::map<S, Var>> scopes_;
    std::map<S, std::vector<Fn>> functions_;
    std::map<S, int> constInts_;
    std::set<S> helperNames_;
    Fn* current_ = nullptr;
    int indent_ = 0;
    std::size_t statementStart_ = 0;

    // Tokens -------------------------------------------------------------------------------
    bool atEnd() const { return p_ >= t_.size(); }
    const Token& tok(std::size_t k = 0) const {
        static const Token end{TokenKind::Punct, "<end>", 0};
        return p_ + k < t_.size() ? t_[p_ + k] : end;
    }
    int line() const { return atEnd() ? (t_.empty() ? 1 : t_.back().line) : tok().line; }
    bool is(const char* s, std::size_t k = 0) const { return tok(k).text == s; }
    bool accept(const char* s) {
        if (!is(s)) return false;
        ++p_;
        return true;
    }
    void expect(const char* s) {
        if (!accept(s)) refuse(line(), {"expected '", S(s), "' before '", tok().text, "'"});
    }
    S name() {
        if (tok().kind != TokenKind::Identifier) refuse(line(), {"expected a name, found '", tok().text, "'"});
        return t_[p_++].text;
    }
    S pad() const { return S(std::size_t(indent_ * 4), ' '); }

    // Types --------------------------------------------------------------------------------
    bool isTypeName(std::size_t k = 0) const {
        const S& n = tok(k).text;
        return tok(k).kind == TokenKind::Identifier && (n == "void" || builtinType(n) || structs.count(n));
    }
    static bool isQualifier(const S& n) {
        return n == "highp" || n == "mediump" || n == "lowp" || n == "const" || n == "precise" || n == "invariant";
    }
    Ty typeName() {
        int l = line();
        S n = name();
        Ty t;
        if (n == "void")
            t.isVoid = true;
        else if (structs.count(n))
            t = Ty{ScalarKind::Struct, 1, 1, 0, n};
        else if (auto b = builtinType(n))
            t = Ty{b->kind, b->columns, b->rows, 0, b->kind == ScalarKind::Opaque ? n : S()};
        else
            refuse(l, {"unknown type '", n, "'"});
        if (t.kind == ScalarKind::Double) refuse(l, {"'", n, "': double types have no WGSL equivalent"});
        return t;
    }
    int arraySize() { // after '[': a literal or a const int, then ']'
        int l = line();
        int n = 0;
        if (tok().kind == TokenKind::Number)
            n = std::stoi(t_[p_++].text, nullptr, 0);
        else if (tok().kind == TokenKind::Identifier && constInts_.count(tok().text))
            n = constInts_[t_[p_++].text];
        else
            refuse(l, {"array size '", tok().text,
                       "': the WGSL translation needs a literal or a const int initialised with a literal"});
        expect("]");
        if (n <= 0) refuse(l, "array size must be > 0");
        return n;
    }

    // Names --------------------------------------------------------------------------------
    const Var* lookup(const S& n) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
            if (auto f = it->find(n); f != it->end()) return &f->second;
        auto g = globals.find(n);
        return g == globals.end() ? nullptr : &g->second;
    }
    void declare(const S& n, Var v, int l) {
        if (n.starts_with("xfb_")) refuse(l, {"identifier '", n, "' uses the reserved prefix xfb_; rename it"});
        if (scopes_.empty())
            globals[n] = std::move(v);
        else
            scopes_.back()[n] = std::move(v);
    }

    // Module scope -------------------------------------------------------------------------
    void globalDeclaration() {
        int l = line();
        if (accept(";")) return;
        if (is("precision")) {
            skipTo(";");
            return;
        }
        if (is("struct")) {
            structDefinition();
            return;
        }
        // Interface declarations (in/out/uniform, layout(...)) were read by readShaderInterface().
        std::size_t k = 0;
        bool interface = false, isConst = false;
        while (true) {
            const S& q = tok(k).text;
            if (q == "layout") {
                while (!is(")", k) && p_ + k < t_.size()) ++k;
                ++k;
                continue;
            }
            if (q == "in" || q == "out" || q == "uniform" || q == "attribute" || q == "varying" || q == "buffer" ||
                q == "shared")
                interface = true;
            else if (q == "const")
                isConst = true;
            else if (!(q == "flat" || q == "smooth" || q == "noperspective" || q == "centroid" || isQualifier(q)))
                break;
            ++k;
        }
        if (tok(k).text.starts_with("gl_")) {
            skipTo(";");
            return;
        } // `invariant gl_Position;`
        if (interface) {
            if (tok(k).kind == TokenKind::Identifier && is("{", k + 1))
                refuse(l, {"interface block '", tok(k).text, "': declare its members as separate variables"});
            skipTo(";");
            return;
        }
        p_ += k;
        Ty type = typeName();
        if (is("[")) {
            ++p_;
            type.array = arraySize();
        }
        S n = name();
        if (is("(")) {
            function(type, n, l);
            return;
        }
        variables(type, n, isConst, true);
    }
    void skipTo(const char* s) {
        while (!atEnd() && !is(s)) ++p_;
        ++p_;
    }

    void structDefinition() {
        int l = line();
        expect("struct");
        S n = name();
        if (n.starts_with("xfb_")) refuse(l, {"identifier '", n, "' uses the reserved prefix xfb_; rename it"});
        expect("{");
        std::vector<std::pair<S, Ty>> members;
        S body;
        while (!accept("}")) {
            while (isQualifier(tok().text)) ++p_;
            Ty mt = typeName();
            do {
                S m = name();
                Ty t = mt;
                if (accept("[")) t.array = arraySize();
                cat(body, {"    ", ident(m), ": ", wgslType(t, l), ",\n"});
                members.push_back({m, t});
            } while (accept(","));
            expect(";");
        }
        if (!is(";")) refuse(l, {"struct '", n, "': declare variables of it in a separate declaration"});
        expect(";");
        structs[n] = members;
        cat(out, {"struct ", ident(n), " {\n", body, "};\n\n"});
    }

    // `T a = x, b[3], c;` after the first name. Globals become var<private> (const: const),
    // locals var (const: let).
    void variables(Ty type, S n, bool isConst, bool global) {
        while (true) {
            int l = line();
            Ty t = type;
            if (accept("[")) t.array = arraySize();
            S init;
            if (accept("=")) {
                Ex e = conditional();
                init = convertTo(e, t, l);
                if (isConst && t.kind == ScalarKind::Int && t.scalar() && e.literal &&
                    std::isdigit((unsigned char)e.s[0]))
                    constInts_[n] = int(std::stoll(e.s, nullptr, 0));
            }
            if (t.kind == ScalarKind::Opaque) refuse(l, {"'", n, "': a sampler can only be a uniform or a parameter"});
            S w = ident(n);
            declare(n, {t, isConst ? Where::Const : global ? Where::Private : Where::Local, w}, l);
            S kw = global ? (isConst ? "const " : "var<private> ") : (isConst ? "let " : "var ");
            cat(out, {(global ? S() : pad()), kw, w, ": ", wgslType(t, l), (init.empty() ? S() : " = " + init), ";\n"});
            if (!accept(",")) break;
            n = name();
        }
        expect(";");
    }

    void function(Ty result, const S& n, int l) {
        if (n.starts_with("xfb_")) refuse(l, {"identifier '", n, "' uses the reserved prefix xfb_; rename it"});
        expect("(");
        Fn f;
        f.result = result;
        std::vector<S> names;
        if (is("void") && is(")", 1)) ++p_;
        while (!is(")")) {
            bool pointer = false;
            while (true) {
                if (is("out") || is("inout"))
                    pointer = true;
                else if (!(is("in") || isQualifier(tok().text)))
                    break;
                ++p_;
            }
            Ty pt = typeName();
            S pn = tok().kind == TokenKind::Identifier ? name() : S();
            if (accept("[")) pt.array = arraySize();
            f.params.push_back(pt);
            f.byPointer.push_back(pointer);
            names.push_back(pn);
            if (!accept(",")) break;
        }
        expect(")");
        auto& overloads = functions_[n];
        Fn* fn = nullptr;
        for (auto& o : overloads)
            if (o.params == f.params) fn = &o;
        if (!fn) {
            f.wgsl = n == "main"         ? "xfb_user_main"
                     : overloads.empty() ? ident(n)
                                         : "xfb_o" + std::to_string(overloads.size()) + "_" + n;
            overloads.push_back(f);
            fn = &overloads.back();
        }
        if (accept(";")) return; // a prototype: WGSL needs none
        if (fn->defined) refuse(l, {"function '", n, "' is defined twice"});
        fn->defined = true;
        for (bool b : f.byPointer) fn->pure = fn->pure && !b;
        S head = cat({"fn ", fn->wgsl, "("}), prelude;
        scopes_.emplace_back();
        indent_ = 1;
        for (std::size_t i = 0; i < f.params.size(); ++i) {
            const Ty& pt = f.params[i];
            S pn = names[i], w = ident(pn);
            if (i) head += ", ";
            if (pn.empty()) {
                head += "xfb_unused" + std::to_string(i) + ": " + wgslType(pt, l);
                continue;
            }
            if (f.byPointer[i]) {
                cat(head, {w, ": ptr<function, ", wgslType(pt, l), ">"});
                declare(pn, {pt, Where::PtrParam, w}, l);
            } else if (pt.kind == ScalarKind::Opaque) {
                cat(head, {w, ": ", wgslType(pt, l)});
                declare(pn, {pt, Where::Texture, w}, l);
            } else { // WGSL parameters are immutable; GLSL's are copies the body may assign
                cat(head, {"xfb_a_", pn, ": ", wgslType(pt, l)});
                cat(prelude, {"    var ", w, ": ", wgslType(pt, l), " = xfb_a_", pn, ";\n"});
                declare(pn, {pt, Where::Local, w}, l);
            }
        }
        cat(head, {")", (result.isVoid ? S() : " -> " + wgslType(result, l)), " {\n"});
        S saved;
        std::swap(saved, out);
        current_ = fn;
        expect("{");
        while (!accept("}")) {
            if (atEnd()) refuse(l, {"function '", n, "' has no closing '}'"});
            statement();
        }
        current_ = nullptr;
        std::swap(saved, out);
        scopes_.pop_back();
        indent_ = 0;
        cat(out, {head, prelude, saved, "}\n\n"});
    }

    // Statements ---------------------------------------------------------------------------
    void block() { // a statement as a braced block
        ++indent_;
        scopes_.emplace_back();
        if (accept("{")) {
            while (!accept("}")) {
                if (atEnd()) refuse(line(), "missing '}'");
                statement();
            }
        } else
            statement();
        scopes_.pop_back();
        --indent_;
    }

    bool declarationAhead() const {
        std::size_t k = 0;
        while (isQualifier(tok(k).text)) ++k;
        if (!isTypeName(k)) return false;
        if (tok(k + 1).kind == TokenKind::Identifier) return true;
        return is("[", k + 1); // float[3] a  (or float[3](...) : checked by the caller)
    }

    void statement() {
        int l = line();
        statementStart_ = p_;
        if (accept(";")) return;
        if (is("{")) {
            cat(out, {pad(), "{\n"});
            block();
            cat(out, {pad(), "}\n"});
            return;
        }
        if (is("precision")) {
            skipTo(";");
            return;
        }
        if (accept("if")) {
            expect("(");
            Ex c = expression();
            expect(")");
            requireBool(c, l, "if");
            cat(out, {pad(), "if (", c.s, ") {\n"});
            block();
            cat(out, {pad(), "}"});
            if (accept("else")) {
                out += " else {\n";
                block();
                cat(out, {pad(), "}"});
            }
            out += "\n";
            return;
        }
        if (accept("for")) {
            forLoop(l);
            return;
        }
        if (accept("while")) {
            expect("(");
            Ex c = expression();
            expect(")");
            requireBool(c, l, "while");
            cat(out, {pad(), "while (", c.s, ") {\n"});
            block();
            cat(out, {pad(), "}\n"});
            return;
        }
        if (accept("do")) { // loop { body continuing { break if !cond; } }: `continue` reaches the test as in GLSL
            cat(out, {pad(), "loop {\n"});
            block();
            expect("while");
            expect("(");
            Ex c = expression();
            expect(")");
            expect(";");
            requireBool(c, l, "do-while");
            cat(out, {pad(), "    continuing {\n", pad(), "        break if !(", c.s, ");\n", pad(), "    }\n", pad(),
                      "}\n"});
            return;
        }
        if (is("switch"))
            refuse(l, "switch has no exact WGSL equivalent (its cases fall through in GLSL); write it as if/else");
        if (is("discard")) refuse(l, "discard exists only in fragment shaders");
        if (accept("return")) {
            if (accept(";")) {
                out += pad() + "return;\n";
                return;
            }
            Ex e = expression();
            expect(";");
            cat(out, {pad(), "return ", (current_ ? convertTo(e, current_->result, l) : e.s), ";\n"});
            return;
        }
        if (accept("break")) {
            expect(";");
            out += pad() + "break;\n";
            return;
        }
        if (accept("continue")) {
            expect(";");
            out += pad() + "continue;\n";
            return;
        }
        if (declarationAhead() && !(isTypeName() && is("[", 1) && constructorArrayAhead())) {
            out += localDeclaration();
            expect(";");
            return;
        }
        cat(out, {pad(), simpleStatement(l), ";\n"});
        expect(";");
    }
    bool constructorArrayAhead() const { // float[3](...) is an expression
        std::size_t k = 2;
        while (k < 6 && !is("]", k)) ++k;
        return is("(", k + 1);
    }
    void requireBool(const Ex& c, int l, const char* what) {
        if (!(c.ty.kind == ScalarKind::Bool && c.ty.scalar())) refuse(l, {S(what), " condition must be a bool"});
    }

    S localDeclaration() {
        bool isConst = false;
        while (isQualifier(tok().text)) {
            bool c = t_[p_++].text == "const";
            isConst = isConst || c;
        }
        Ty type = typeName();
        if (accept("[")) type.array = arraySize();
        S saved;
        std::swap(saved, out);
        variables(type, name(), isConst, false);
        --p_; // variables() consumed ';': give it back to the caller
        std::swap(saved, out);
        return saved;
    }

    void forLoop(int l) {
        expect("(");
        scopes_.emplace_back();
        S init, cond, update;
        if (!is(";")) {
            if (declarationAhead()) {
                init = localDeclaration();
                init = init.substr(init.find_first_not_of(' '));
                init.pop_back(); // ";\n"
                init.pop_back();
                if (std::count(init.begin(), init.end(), '\n'))
                    refuse(l, "for: declare one loop variable only (WGSL's for takes one)");
            } else
                init = simpleStatement(l);
        }
        expect(";");
        if (!is(";")) {
            Ex c = expression();
            requireBool(c, l, "for");
            cond = c.s;
        }
        expect(";");
        if (!is(")")) update = simpleStatement(l);
        expect(")");
        if (update.find('{') != S::npos)
            refuse(l, "for: the update of a loop cannot assign several swizzled components");
        cat(out, {pad(), "for (", init, "; ", cond, "; ", update, ") {\n"});
        block();
        cat(out, {pad(), "}\n"});
        scopes_.pop_back();
    }

    // An assignment, increment or call, without ';'.
    S simpleStatement(int l) {
        statementStart_ = p_;
        if (is("++") || is("--")) {
            S op = t_[p_++].text;
            Ex e = postfix();
            requireLvalue(e, l, op);
            return e.s + op;
        }
        Ex lhs = conditional();
        if (lhs.incdec) return lhs.s;
        if (!inTable(kAssignOps, tok().text)) {
            if (is(",")) refuse(l, "the comma operator has no WGSL equivalent; write separate statements");
            if (!is(";") && !is(")")) refuse(l, {"unexpected '", tok().text, "'"});
            return lhs.userCall ? lhs.s : "_ = " + lhs.s;
        }
        S op = t_[p_++].text;
        requireLvalue(lhs, l, op);
        Ex rhs = conditional();
        if (inTable(kAssignOps, tok().text))
            refuse(l, "an assignment inside an expression has no WGSL equivalent; assign in a statement of its own");
        if (is(",")) refuse(l, "the comma operator has no WGSL equivalent; write separate statements");
        S value;
        if (op == "=")
            value = convertTo(rhs, lhs.ty, l);
        else
            value = binary(withoutSwizzleTarget(lhs), op.substr(0, op.size() - 1), rhs, l).s;
        markWrite(lhs);
        if (!lhs.swizzle.empty()) { // v.xz = e -> { let t = e; v.x = t.x; v.z = t.y; }
            static const char* xyzw = "xyzw";
            S r = cat({"{ let xfb_s = ", value, ";"});
            for (std::size_t i = 0; i < lhs.swizzle.size(); ++i)
                r += S(" ") + lhs.swizzleBase + "." + lhs.swizzle[i] + " = xfb_s." + xyzw[i] + ";";
            return r + " }";
        }
        return lhs.s + " = " + value;
    }
    static Ex withoutSwizzleTarget(Ex e) {
        e.lvalue = false;
        return e;
    }
    void requireLvalue(const Ex& e, int l, const S& op) {
        if (!e.lvalue)
            refuse(l, {"'", op, "' needs a variable, an element or a component on its left, got '", e.s, "'"});
        const Var* v = lookup(e.root);
        if (v && (v->where == Where::Uniform || v->where == Where::Const))
            refuse(l, {"'", e.root, "' cannot be assigned (a uniform or a const)"});
        markWrite(e);
    }
    void markWrite(const Ex& e) {
        const Var* v = lookup(e.root);
        bool local = false;
        for (auto& s : scopes_)
            if (s.count(e.root)) local = true;
        if (current_ && (!local || (v && v->where == Where::PtrParam))) current_->pure = false;
    }

    // Expressions --------------------------------------------------------------------------
    Ex expression() {
        Ex e = conditional();
        if (inTable(kAssignOps, tok().text))
            refuse(line(),
                   "an assignment inside an expression has no WGSL equivalent; assign in a statement of its own");
        if (is(",")) refuse(line(), "the comma operator has no WGSL equivalent; write separate statements");
        return e;
    }

    Ex conditional() {
        int l = line();
        Ex c = binaryChain(1);
        if (!accept("?")) return c;
        Ex a = conditional();
        expect(":");
        Ex b = conditional();
        requireBool(c, l, "?:");
        if (a.effects || b.effects)
            refuse(
                l,
                "?: with a function call that writes to a variable: WGSL's select() evaluates both sides; use if/else");
        if (!(a.ty == b.ty)) refuse(l, "?: with sides of different types");
        if (a.ty.array || a.ty.kind == ScalarKind::Struct) refuse(l, "?: of arrays or structs: use if/else");
        return {"select(" + b.s + ", " + a.s + ", " + c.s + ")", a.ty, false, c.effects};
    }

    Ex binaryChain(int minPrec) {
        Ex lhs = unary();
        while (true) {
            S op = tok().text;
            int prec = tok().kind == TokenKind::Punct ? precedence(op) : 0;
            if (prec == 0 || prec < minPrec) return lhs;
            int l = line();
            ++p_;
            Ex rhs = binaryChain(prec + 1);
            lhs = binary(lhs, op, rhs, l);
        }
    }

    S splat(const Ex& e, const Ty& to) {
        return e.ty.scalar() && to.vector() ? shapeW(e.ty.kind, to.rows) + "(" + e.s + ")" : e.s;
    }

    Ex binary(const Ex& a, const S& op, const Ex& b, int l) {
        bool effects = a.effects || b.effects;
        auto make = [&](S s, Ty t) { return Ex{"(" + s + ")", t, false, effects}; };
        if (!a.ty.numeric() || !b.ty.numeric()) refuse(l, {"operator ", op, " on arrays, structs or samplers"});
        if (op == "&&" || op == "||") return make(a.s + " " + op + " " + b.s, scalarTy(ScalarKind::Bool));
        if (op == "^^") return make(a.s + " != " + b.s, scalarTy(ScalarKind::Bool));
        if (op == "==" || op == "!=") {
            if (a.ty.matrix()) refuse(l, {"operator ", op, " on matrices has no WGSL equivalent; compare the columns"});
            S s = cat({a.s, " ", op, " ", b.s});
            if (a.ty.vector()) s = (op == "==" ? "all(" : "any(") + s + ")";
            return make(s, scalarTy(ScalarKind::Bool));
        }
        if (op == "<" || op == ">" || op == "<=" || op == ">=")
            return make(a.s + " " + op + " " + b.s, scalarTy(ScalarKind::Bool));
        if (op == "<<" || op == ">>") {
            S amount = b.ty.kind == ScalarKind::UInt && b.ty.rows == a.ty.rows
                           ? b.s
                           : shapeW(ScalarKind::UInt, a.ty.rows) + "(" + b.s + ")";
            return make(a.s + " " + op + " " + amount, a.ty);
        }
        if (op == "%" && (a.ty.kind == ScalarKind::Float || b.ty.kind == ScalarKind::Float))
            refuse(l, "operator % on floats does not exist in GLSL; use mod()");
        if (a.ty.matrix() || b.ty.matrix()) {
            if (op != "*" && !(a.ty == b.ty && (op == "+" || op == "-")))
                refuse(l, {"matrix ", op, " ", (b.ty.matrix() ? S("matrix") : S("scalar")),
                           ": WGSL has only +, - between matrices and * ; write it per column"});
            Ty r = a.ty;
            if (a.ty.matrix() && b.ty.matrix())
                r = Ty{ScalarKind::Float, b.ty.cols, a.ty.rows};
            else if (a.ty.matrix() && b.ty.vector())
                r = vecTy(ScalarKind::Float, a.ty.rows);
            else if (a.ty.vector() && b.ty.matrix())
                r = vecTy(ScalarKind::Float, b.ty.cols);
            else if (a.ty.scalar())
                r = b.ty;
            return make(a.s + " " + op + " " + b.s, r);
        }
        Ty r = a.ty.scalar() ? b.ty : a.ty;
        if (op == "&" || op == "|" || op == "^")
            return make(splat(a, r) + " " + op + " " + splat(b, r), r); // WGSL: no scalar-vector mix
        return make(a.s + " " + op + " " + b.s, r);
    }

    Ex unary() {
        int l = line();
        if (is("++") || is("--"))
            refuse(l, {"'", tok().text,
                       "' inside an expression has no WGSL equivalent; increment in a statement of its own"});
        if (accept("+")) return unary();
        for (const char* op : {"-", "!", "~"})
            if (accept(op)) {
                Ex e = unary();
                if (S(op) == "-" && e.ty.kind == ScalarKind::UInt) // WGSL has no unary minus on u32; GLSL wraps
                    return {"(" + shapeW(ScalarKind::UInt, e.ty.rows) + "() - " + e.s + ")", e.ty, false, e.effects};
                return {"(" + S(op) + e.s + ")", e.ty, false, e.effects};
            }
        return postfix();
    }

    Ex postfix() {
        std::size_t start = p_;
        Ex e = primary();
        while (true) {
            int l = line();
            if (accept("[")) {
                Ex i = expression();
                expect("]");
                Ty t = e.ty;
                if (t.array)
                    t.array = 0;
                else if (t.matrix())
                    t = vecTy(ScalarKind::Float, t.rows);
                else if (t.vector())
                    t = scalarTy(t.kind);
                else
                    refuse(l, {"'", e.s, "' cannot be indexed"});
                e = {e.s + "[" + i.s + "]", t, e.lvalue && e.swizzle.empty(), e.effects || i.effects, e.root};
            } else if (accept(".")) {
                S m = name();
                if (m == "length" && accept("(")) {
                    expect(")");
                    if (!e.ty.array) refuse(l, ".length() of a non-array");
                    e = {std::to_string(e.ty.array),
                         scalarTy(ScalarKind::Int),
                         false,
                         e.effects,
                         "",
                         "",
                         "",
                         false,
                         true};
                } else if (e.ty.kind == ScalarKind::Struct && !e.ty.array) {
                    auto& members = structs.at(e.ty.name);
                    auto it = std::find_if(members.begin(), members.end(), [&](auto& x) { return x.first == m; });
                    if (it == members.end()) refuse(l, {"struct '", e.ty.name, "' has no member '", m, "'"});
                    e = {e.s + "." + ident(m), it->second, e.lvalue, e.effects, e.root};
                } else if (e.ty.vector()) {
                    S sw;
                    for (char c : m) {
                        static const S sets[3] = {"xyzw", "rgba", "stpq"};
                        std::size_t at = S::npos;
                        for (auto& set : sets)
                            if ((at = set.find(c)) != S::npos) break;
                        if (at == S::npos || int(at) >= e.ty.rows)
                            refuse(l, {"swizzle '.", m, "' of a vector of ", std::to_string(e.ty.rows)});
                        sw += "xyzw"[at];
                    }
                    if (sw.size() > 4) refuse(l, {"swizzle '.", m, "' is longer than 4"});
                    Ex r{e.s + "." + sw, sw.size() == 1 ? scalarTy(e.ty.kind) : vecTy(e.ty.kind, int(sw.size())),
                         e.lvalue, e.effects, e.root};
                    S sorted = sw;
                    std::sort(sorted.begin(), sorted.end());
                    bool repeated = std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
                    if (repeated) r.lvalue = false;
                    if (r.lvalue && sw.size() > 1) {
                        r.swizzleBase = e.s;
                        r.swizzle = sw;
                    }
                    e = r;
                } else
                    refuse(l, {"'.", m, "' on '", e.s, "'"});
            } else if (is("++") || is("--")) {
                S op = t_[p_++].text;
                requireLvalue(e, l, op);
                if (start != statementStart_ || (!is(";") && !is(")")))
                    refuse(l, {"'", op,
                               "' inside an expression has no WGSL equivalent; increment in a statement of its own"});
                e = {e.s + op, e.ty};
                e.incdec = true;
                return e;
            } else
                return e;
        }
    }

    Ex primary() {
        int l = line();
        const Token& k = tok();
        if (accept("(")) {
            Ex e = expression();
            expect(")");
            e.s = "(" + e.s + ")";
            if (!e.swizzle.empty()) e.swizzleBase = "(" + e.swizzleBase + ")";
            return e;
        }
        if (k.kind == TokenKind::Number) {
            ++p_;
            return number(k.text, l);
        }
        if (k.kind != TokenKind::Identifier) refuse(l, {"unexpected '", k.text, "'"});
        const S n = k.text;
        if (n == "true" || n == "false") {
            ++p_;
            return {n, scalarTy(ScalarKind::Bool), false, false, "", "", "", false, true};
        }
        if (macros_.count(n)) refuse(l, {"function-like macro '", n, "': WGSL has no preprocessor; expand it by hand"});
        if (n.starts_with("xfb_")) {
            if (n == kSubstepUniform && substepBuiltin && !is("(", 1)) {
                ++p_;
                return {"xfb_substep", scalarTy(ScalarKind::Int)};
            } // not assignable
            refuse(l, {"identifier '", n, "' uses the reserved prefix xfb_; rename it"});
        }
        if (isTypeName() && (is("(", 1) || is("[", 1))) return constructor(l);
        if (is("(", 1)) return call(l);
        ++p_;
        if (n == "gl_VertexID") return {"xfb_vertex_id", scalarTy(ScalarKind::Int)};
        if (n == "gl_InstanceID") return {"xfb_instance_id", scalarTy(ScalarKind::Int)};
        if (n == "gl_Position") return {"xfb_position", vecTy(ScalarKind::Float, 4), true, false, n, "", "", true};
        if (n == "gl_PointSize") return {"xfb_point_size", scalarTy(ScalarKind::Float), true, false, n, "", "", true};
        if (geometryVertices && n == "gl_in")
            return {"xfb_in", Ty{ScalarKind::Struct, 1, 1, geometryVertices, S(kPerVertex)}, false, false, n};
        if (geometryVertices && n == "gl_PrimitiveIDIn") return {"xfb_primitive_id_in", scalarTy(ScalarKind::Int)};
        if (geometryVertices && n == "gl_InvocationID") return {"xfb_invocation_id", scalarTy(ScalarKind::Int)};
        if (n.starts_with("gl_")) refuse(l, {"'", n, "' has no equivalent in a WebGPU compute shader"});
        const Var* v = lookup(n);
        // Not a construct WGSL lacks: the GLSL does not compile (XFB_SHADER_COMPILE, as the GL compiler says on
        // WebGL2).
        if (!v) throw Error(ErrorCode::ShaderCompile, cat({"line ", std::to_string(l), ": '", n, "' is not declared"}));
        S s = v->where == Where::Uniform    ? uniformBlock + "." + v->wgsl
              : v->where == Where::PtrParam ? "(*" + v->wgsl + ")"
                                            : v->wgsl;
        if (v->where == Where::Uniform && v->type.kind == ScalarKind::Bool) // an i32 in the buffer
            s = "(" + s + " != " + (v->type.rows == 1 ? S("0") : shapeW(ScalarKind::Int, v->type.rows) + "(0)") + ")";
        return {s, v->type, v->where != Where::Texture, false, n, "", "", true};
    }

    Ex number(S text, int l) {
        Ex e{"", scalarTy(ScalarKind::Int), false, false, "", "", "", false, true};
        bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        char last = char(text.back());
        if (last == 'u' || last == 'U') {
            e.ty = scalarTy(ScalarKind::UInt);
            text.back() = 'u';
        } else if (!hex && (text.find_first_of(".eEfF") != S::npos)) {
            e.ty = scalarTy(ScalarKind::Float);
            if (last == 'f' || last == 'F') text.pop_back();
            if (text.back() == '.') text += "0";
            text += "f"; // f32, not an abstract float: constants fold in f32 as in GLSL
        }
        if (!hex && e.ty.kind != ScalarKind::Float && text.size() > 1 && text[0] == '0') { // octal
            std::size_t end = text.back() == 'u' ? text.size() - 1 : text.size();
            unsigned long v = std::stoul(text.substr(0, end), nullptr, 8);
            text = std::to_string(v) + (end < text.size() ? "u" : "");
        }
        if (e.ty.kind != ScalarKind::Float) {
            std::size_t digits = text.back() == 'u' ? text.size() - 1 : text.size();
            unsigned long long v = std::stoull(text.substr(0, digits), nullptr, 0);
            if (v > 0xFFFFFFFFull) refuse(l, {"integer literal ", text, " does not fit 32 bits"});
            if (e.ty.kind == ScalarKind::Int && v > 0x7FFFFFFFull)
                text = "i32(" + std::to_string(v) + "u)"; // GLSL: wraps to negative
        }
        e.s = text;
        return e;
    }

    std::vector<Ex> arguments() {
        std::vector<Ex> args;
        expect("(");
        if (is("void") && is(")", 1)) ++p_;
        while (!accept(")")) {
            args.push_back(conditional());
            if (inTable(kAssignOps, tok().text))
                refuse(line(),
                       "an assignment inside an expression has no WGSL equivalent; assign in a statement of its own");
            if (!is(")")) expect(",");
        }
        return args;
    }

    // Converts e to type t the way a GLSL constructor argument or an initializer needs it.
    S convertTo(const Ex& e, const Ty& t, int l) {
        if (e.ty == t || !t.numeric()) return e.s;
        if (e.ty.rows == t.rows && e.ty.cols == t.cols && e.ty.numeric() && t.cols == 1)
            return shapeW(t.kind, t.rows) + "(" + e.s + ")";
        if (e.literal && e.ty.scalar() && t.scalar()) return scalarW(t.kind) + "(" + e.s + ")";
        refuse(l, {"a ", describe(e.ty), " where a ", describe(t), " is needed"});
    }
    static S describe(const Ty& t) {
        if (t.isVoid) return "void";
        if (t.kind == ScalarKind::Struct || t.kind == ScalarKind::Opaque) return t.name;
        S k = t.kind == ScalarKind::Int    ? "i"
              : t.kind == ScalarKind::UInt ? "u"
              : t.kind == ScalarKind::Bool ? "b"
                                           : "";
        S s = t.cols > 1   ? "mat" + std::to_string(t.cols) + "x" + std::to_string(t.rows)
              : t.rows > 1 ? k + "vec" + std::to_string(t.rows)
                           : (t.kind == ScalarKind::Int    ? "int"
                              : t.kind == ScalarKind::UInt ? "uint"
                              : t.kind == ScalarKind::Bool ? "bool"
                                                           : "float");
        return t.array ? s + "[" + std::to_string(t.array) + "]" : s;
    }

    Ex constructor(int l) {
        Ty t = typeName();
        if (accept("[")) {
            if (is("]")) {
                ++p_;
                t.array = -1;
            } else
                t.array = arraySize();
        }
        std::vector<Ex> args = arguments();
        bool effects = std::any_of(args.begin(), args.end(), [](auto& a) { return a.effects; });
        auto joined = [&](auto&& f) {
            S s;
            for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + f(args[i]);
            return s;
        };
        if (t.array) {
            if (t.array < 0) t.array = int(args.size());
            if (int(args.size()) != t.array)
                refuse(l, {"array constructor with ", std::to_string(args.size()), " values for ",
                           std::to_string(t.array), " elements"});
            Ty el = t;
            el.array = 0;
            return {wgslType(t, l) + "(" + joined([&](const Ex& a) { return convertTo(a, el, l); }) + ")", t, false,
                    effects};
        }
        if (t.kind == ScalarKind::Struct)
            return {ident(t.name) + "(" + joined([](const Ex& a) { return a.s; }) + ")", t, false, effects};
        if (args.empty()) refuse(l, {"constructor ", describe(t), "() without arguments"});
        for (auto& a : args)
            if (!a.ty.numeric()) refuse(l, {"constructor ", describe(t), " of an array, struct or sampler"});
        const S w = wgslType(t, l);
        if (t.scalar()) { // first component, converted
            const Ex& a = args[0];
            S v = a.ty.matrix() ? a.s + "[0][0]" : a.ty.vector() ? a.s + ".x" : a.s;
            return {a.ty.kind == t.kind && a.ty.scalar() ? a.s : w + "(" + v + ")", t, false, effects};
        }
        if (t.vector()) {
            if (args.size() == 1 && args[0].ty.scalar())
                return {w + "(" + convertTo(args[0], scalarTy(t.kind), l) + ")", t, false, effects};
            if (args.size() == 1 && args[0].ty.vector() && args[0].ty.rows == t.rows)
                return {convertTo(args[0], t, l), t, false, effects};
            if (args.size() == 1 && args[0].ty.vector() && args[0].ty.rows > t.rows)
                return {w + "(" + args[0].s + "." + S("xyzw").substr(0, std::size_t(t.rows)) + ")", t, false, effects};
            int total = 0;
            for (auto& a : args) {
                if (a.ty.matrix()) refuse(l, {"constructor ", describe(t), " from a matrix: take its columns"});
                total += a.ty.rows;
            }
            if (total != t.rows)
                refuse(l, {"constructor ", describe(t), " with ", std::to_string(total), " components"});
            return {w + "(" + joined([&](const Ex& a) { return convertTo(a, vecTy(t.kind, a.ty.rows), l); }) + ")", t,
                    false, effects};
        }
        // Matrices.
        if (args.size() == 1 && args[0].ty.scalar()) { // diagonal
            S d = helper("xfb_diag" + std::to_string(t.cols) + "x" + std::to_string(t.rows), [&](const S& fn) {
                S body;
                for (int c = 0; c < t.cols; ++c)
                    for (int r = 0; r < t.rows; ++r) body += S(c || r ? ", " : "") + (c == r ? "s" : "0.0f");
                return "fn " + fn + "(s: f32) -> " + w + " { return " + w + "(" + body + "); }\n";
            });
            return {d + "(" + convertTo(args[0], scalarTy(ScalarKind::Float), l) + ")", t, false, effects};
        }
        if (args.size() == 1 && args[0].ty.matrix()) { // resize: the upper-left part, identity elsewhere
            const Ty& m = args[0].ty;
            if (m == t) return {args[0].s, t, false, effects};
            S fn = helper(
                "xfb_mat" + std::to_string(t.cols) + "x" + std::to_string(t.rows) + "_from" + std::to_string(m.cols) +
                    "x" + std::to_string(m.rows),
                [&](const S& fn) {
                    S cols;
                    for (int c = 0; c < t.cols; ++c) {
                        S col = cat({"vec", std::to_string(t.rows), "<f32>("});
                        for (int r = 0; r < t.rows; ++r)
                            cat(col, {S(r ? ", " : ""), (c < m.cols && r < m.rows
                                                             ? "m[" + std::to_string(c) + "][" + std::to_string(r) + "]"
                                                         : c == r ? "1.0f"
                                                                  : "0.0f")});
                        cat(cols, {S(c ? ", " : ""), col, ")"});
                    }
                    return "fn " + fn + "(m: " + wgslType(m, l) + ") -> " + w + " { return " + w + "(" + cols +
                           "); }\n";
                });
            return {fn + "(" + args[0].s + ")", t, false, effects};
        }
        bool columns = int(args.size()) == t.cols && std::all_of(args.begin(), args.end(), [&](auto& a) {
                           return a.ty.vector() && a.ty.rows == t.rows;
                       });
        bool scalars = int(args.size()) == t.cols * t.rows &&
                       std::all_of(args.begin(), args.end(), [](auto& a) { return a.ty.scalar(); });
        if (!columns && !scalars)
            refuse(l, {"constructor ", describe(t), ": give ", std::to_string(t.cols), " columns or ",
                       std::to_string(t.cols * t.rows), " scalars"});
        return {w + "(" + joined([&](const Ex& a) { return convertTo(a, vecTy(ScalarKind::Float, a.ty.rows), l); }) +
                    ")",
                t, false, effects};
    }

    template<class F>
    S helper(const S& fn, F&& make) {
        if (helperNames_.insert(fn).second) helpers += make(fn);
        return fn;
    }

    Ex call(int l) {
        S n = name();
        if (inTable(kRefusedBuiltins, n)) {
            if (n.starts_with("texture"))
                refuse(l,
                       {"'", n,
                        "()' samples through a sampler; the WGSL translation reads textures with texelFetch() only"});
            refuse(l, {"'", n, "()' has no WGSL built-in equivalent; write it out"});
        }
        if (functions_.count(n)) return userCall(n, l);
        if (geometryVertices &&
            (n == "EmitVertex" || n == "EndPrimitive" || n == "EmitStreamVertex" || n == "EndStreamPrimitive"))
            return emitCall(n, l);
        const Builtin* b = nullptr;
        for (auto& x : kBuiltins)
            if (n == x.glsl) b = &x;
        if (!b) refuse(l, {"unknown function '", n, "'"});
        std::vector<Ex> args = arguments();
        if (args.empty()) refuse(l, {"'", n, "()' without arguments"});
        bool effects = std::any_of(args.begin(), args.end(), [](auto& a) { return a.effects; });
        const Ty& first = args[0].ty;
        auto list = [&](std::size_t from = 0) {
            S s;
            for (std::size_t i = from; i < args.size(); ++i) s += (i > from ? ", " : "") + args[i].s;
            return s;
        };
        auto make = [&](S s, Ty t) { return Ex{s, t, false, effects}; };
        S w = b->wgsl;
        switch (b->result) {
            case Builtin::First:
                if (n == "not") return make("(!" + args[0].s + ")", first);
                if (n == "mix" && args.size() == 3 && args[2].ty.kind == ScalarKind::Bool)
                    return make("select(" + list() + ")", first);
                if (b->splat == Builtin::ToFirst)
                    for (std::size_t i = 1; i < args.size(); ++i) args[i].s = splat(args[i], first);
                return make(w + "(" + list() + ")", first);
            case Builtin::Last: {
                Ty t = args.back().ty;
                for (std::size_t i = 0; i + 1 < args.size(); ++i) args[i].s = splat(args[i], t);
                return make(w + "(" + list() + ")", t);
            }
            case Builtin::Float: return make(w + "(" + list() + ")", scalarTy(ScalarKind::Float));
            case Builtin::Bool: return make(w + "(" + list() + ")", scalarTy(ScalarKind::Bool));
            case Builtin::Vec3: return make(w + "(" + list() + ")", vecTy(ScalarKind::Float, 3));
            case Builtin::BoolShape:
                if (args.size() != 2) refuse(l, {"'", n, "()' takes two vectors"});
                return make("(" + args[0].s + " " + w + " " + args[1].s + ")", vecTy(ScalarKind::Bool, first.rows));
            case Builtin::Custom: break;
        }
        if (n == "transpose")
            return make("transpose(" + args[0].s + ")", Ty{ScalarKind::Float, first.rows, first.cols});
        if (n == "atan") return make((args.size() == 2 ? "atan2(" : "atan(") + list() + ")", first);
        if (n == "mod") {
            if (args.size() != 2) refuse(l, "mod() takes two arguments");
            const Ty& y = args[1].ty;
            S fn = helper("xfb_mod_" + S(first.rows > 1 ? "v" + std::to_string(first.rows) : "s") +
                              (y.rows > 1 ? "v" : "s"),
                          [&](const S& fn) {
                              return "fn " + fn + "(x: " + shapeW(ScalarKind::Float, first.rows) +
                                     ", y: " + shapeW(ScalarKind::Float, y.rows) + ") -> " +
                                     shapeW(ScalarKind::Float, first.rows) + " { return x - y * floor(x / y); }\n";
                          });
            return make(fn + "(" + list() + ")", first);
        }
        if (n.find("Bits") != S::npos) {
            ScalarKind to = n.starts_with("floatBitsToInt")    ? ScalarKind::Int
                            : n.starts_with("floatBitsToUint") ? ScalarKind::UInt
                                                               : ScalarKind::Float;
            return make("bitcast<" + shapeW(to, first.rows) + ">(" + args[0].s + ")", vecTy(to, first.rows));
        }
        if (n.starts_with("pack")) return make(w + "(" + list() + ")", scalarTy(ScalarKind::UInt));
        if (n.starts_with("unpack")) return make(w + "(" + list() + ")", vecTy(ScalarKind::Float, 2));
        if (first.kind != ScalarKind::Opaque) refuse(l, {"'", n, "()' needs a sampler as its first argument"});
        ScalarKind k = first.name[0] == 'i'   ? ScalarKind::Int
                       : first.name[0] == 'u' ? ScalarKind::UInt
                                              : ScalarKind::Float;
        int dims = first.name.find("3D") != S::npos || first.name.find("Array") != S::npos ? 3 : 2;
        if (n == "textureSize") {
            if (first.name.find("Array") != S::npos) refuse(l, "textureSize() of an array texture: not translated");
            return make(shapeW(ScalarKind::Int, dims) + "(textureDimensions(" + list() + "))",
                        vecTy(ScalarKind::Int, dims));
        }
        if (args.size() != 3) refuse(l, "texelFetch() takes a sampler, a coordinate and a level");
        S coords = args[1].s;
        if (first.name.find("Array") != S::npos) coords = args[1].s + ".xy, " + args[1].s + ".z";
        return make("textureLoad(" + args[0].s + ", " + coords + ", " + args[2].s + ")", vecTy(k, 4));
    }

    // A geometry shader's EmitVertex / EndPrimitive and their stream forms: calls of the functions
    // the generated kernels define (wgsl_geometry.cpp), stream 0 for the forms without a stream.
    Ex emitCall(const S& n, int l) {
        std::vector<Ex> args = arguments();
        const bool stream = n.find("Stream") != S::npos;
        if (args.size() != (stream ? 1u : 0u))
            refuse(l, {"'", n, "()' takes ", (stream ? "one argument, the stream" : "no argument")});
        if (stream &&
            !(args[0].ty.scalar() && (args[0].ty.kind == ScalarKind::Int || args[0].ty.kind == ScalarKind::UInt)))
            refuse(l, {"'", n, "()': the stream must be an int"});
        Ty none;
        none.isVoid = true;
        Ex e{cat({(n.starts_with("Emit") ? "xfb_emit_stream_vertex(" : "xfb_end_stream_primitive("),
                  (stream ? "i32(" + args[0].s + ")" : S("0")), ")"}),
             none, false, true};
        e.userCall = true;
        if (current_) current_->pure = false;
        return e;
    }

    Ex userCall(const S& n, int l) {
        std::vector<Ex> args = arguments();
        Fn* fn = nullptr;
        for (auto& o : functions_[n]) {
            bool match = o.params.size() == args.size();
            for (std::size_t i = 0; match && i < args.size(); ++i)
                match = o.params[i] == args[i].ty || (args[i].literal && o.params[i].scalar() && args[i].ty.scalar());
            if (match && (!fn || std::equal(o.params.begin(), o.params.end(), args.begin(),
                                            [](auto& p, auto& a) { return p == a.ty; })))
                fn = &o;
        }
        if (!fn) refuse(l, {"no function '", n, "' takes these argument types"});
        bool effects = !fn->pure;
        S s = cat({fn->wgsl, "("});
        for (std::size_t i = 0; i < args.size(); ++i) {
            const Ex& a = args[i];
            effects = effects || a.effects;
            S v = convertTo(a, fn->params[i], l);
            if (fn->byPointer[i]) {
                const Var* var = a.wholeVar ? lookup(a.root) : nullptr;
                bool local = false;
                for (auto& sc : scopes_)
                    if (sc.count(a.root)) local = true;
                if (!var || !local || (var->where != Where::Local && var->where != Where::PtrParam))
                    refuse(l, {"out/inout argument '", a.s, "' of '", n,
                               "': the WGSL translation passes whole local variables only; copy into a local first"});
                v = var->where == Where::PtrParam ? var->wgsl : "&" + var->wgsl;
                markWrite(a);
            }
            cat(s, {(i ? ", " : ""), v});
        }
        if (current_ && !fn->pure) current_->pure = false;
        Ex e{s + ")", fn->result, false, effects};
        e.userCall = true;
        return e;
    }
};

// Size and alignment of a host-shareable type in the uniform address space (WGSL rules).
struct Layout {
    int align, size, columnStride = 0;
};
Layout uniformLayout(const GlslType& t) {
    int vecAlign = t.rows == 1 ? 4 : t.rows == 2 ? 8 : 16, vecSize = 4 * t.rows;
    if (t.columns == 1) return {vecAlign, vecSize};
    int stride = (vecSize + vecAlign - 1) / vecAlign * vecAlign;
    return {vecAlign, stride * t.columns, stride};
}
int roundUp(int v, int a) { return (v + a - 1) / a * a; }

// One uniform of a shader's uniform block (the vertex kernel's XfbUniforms, the geometry kernels'
// XfbGeometryUniforms): placed at `cursor` by WGSL's uniform rules (cursor and maxAlign advanced),
// its member appended to `fields`. WebGPU buffers hold no bool: a bool / bvecN uniform is an i32 /
// vecN<i32> in the buffer (setUniform takes ints for it on every runtime, as GL's glUniform1i
// does), read as `!= 0` where the shader names it (Translator::variable).
WgslUniform layoutUniform(const Declaration& d, const Ty& ty, int& cursor, int& maxAlign, S& fields) {
    const bool isBool = d.type.kind == ScalarKind::Bool;
    if (isBool && d.arraySize)
        refuse(d.line, {"bool uniform array '", d.name, "': declare it int[", std::to_string(d.arraySize),
                        "] (or ivecN[]) and compare with 0"});
    if (d.type.kind != ScalarKind::Float && d.type.kind != ScalarKind::Int && d.type.kind != ScalarKind::UInt &&
        !isBool)
        refuse(d.line, {"uniform '", d.name, "' of type ", d.type.name,
                        ": the WGSL translation takes float, int, uint and bool vectors and matrices"});
    Layout lay = uniformLayout(d.type);
    WgslUniform u{d.name, d.type, d.arraySize, 0, lay.size, 0, lay.columnStride};
    int align = lay.align;
    if (d.arraySize) {
        u.arrayStride = roundUp(lay.size, lay.align);
        if (u.arrayStride % 16)
            refuse(d.line, {"uniform array '", d.name, "' of ", d.type.name,
                            ": WGSL uniform arrays need a 16-byte element stride; declare it vec4[" +
                                std::to_string(d.arraySize),
                            "] (or ivec4/uvec4)"});
        align = roundUp(align, 16);
        u.size = u.arrayStride * d.arraySize;
    }
    u.offset = cursor = roundUp(cursor, align);
    cursor += u.size;
    maxAlign = std::max(maxAlign, align);
    cat(fields, {S("    "), (d.arraySize ? "@align(16) " : ""), ident(d.name), ": ",
                 isBool ? shapeW(ScalarKind::Int, d.type.rows) : wgslType(ty, d.line), ",\n"});
    return u;
}

} // namespace

WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                           const CapturePlan& capture, std::size_t entryCount, const WgslTranslationOptions& options) {
    if (options.workGroupSize < 1 || options.workGroupSize > 256)
        throw Error(ErrorCode::InvalidArgument, "work-group size must be 1..256");
    const std::string modern = toGlslEs300(vertexSource);
    const ShaderInterface shader = readShaderInterface(modern, read);
    plan::PreprocessedSource pre = plan::preprocess(modern, read.defines);
    const bool fused = options.fuseSubsteps;
    const bool gather = options.gather;
    if (gather && (fused || (options.emits && !options.emits->empty())))
        throw Error(ErrorCode::InvalidArgument,
                    "a primitive capture's translation (gather) runs neither fused substeps nor emitted outputs");
    if (fused) {
        if (options.emits && !options.emits->empty())
            throw Error(ErrorCode::InvalidArgument, "emitted outputs cannot run fused substeps");
        FusionDecision decision = checkFusion(vertexSource, read, pass, capture);
        if (!decision.fused)
            throw Error(ErrorCode::InvalidArgument, "the substeps of this shader cannot be fused: " + decision.reason);
    }

    WgslShader result;
    result.workGroupSize = options.workGroupSize;
    result.readBinding.assign(entryCount, -1);
    result.writeBinding.assign(entryCount, -1);
    Translator tr(pre.tokens, pre.functionMacros);

    // Uniform buffer: the element count, then the shader's uniforms by WGSL's uniform rules.
    S uniformStruct = "struct XfbUniforms {\n    xfb_count: u32,\n";
    int cursor = 4, maxAlign = 16, binding = 1;
    for (const auto& d : shader.uniforms) {
        Ty ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize,
              d.type.kind == ScalarKind::Opaque ? d.type.name : S()};
        if (d.type.kind == ScalarKind::Opaque) {
            if (d.arraySize) refuse(d.line, {"sampler array '", d.name, "': declare one sampler per texture"});
            S w = wgslType(ty, d.line);
            ScalarKind k = d.type.name[0] == 'i'   ? ScalarKind::Int
                           : d.type.name[0] == 'u' ? ScalarKind::UInt
                                                   : ScalarKind::Float;
            result.textures.push_back({d.name, binding, k});
            cat(tr.helpers,
                {"@group(0) @binding(", std::to_string(binding++), ") var ", ident(d.name), ": ", w, ";\n"});
            tr.globals[d.name] = {ty, Where::Texture, ident(d.name)};
            continue;
        }
        if (d.name == kSubstepUniform && (d.type.kind != ScalarKind::Int || d.type.components() != 1 || d.arraySize))
            refuse(d.line, {"the built-in '", d.name, "' must be declared `uniform int ", d.name, ";`"});
        const WgslUniform u = layoutUniform(d, ty, cursor, maxAlign, uniformStruct);
        const bool substep = d.name == kSubstepUniform;
        if (substep)
            tr.substepBuiltin = true; // the entry point (or the substep loop) sets the private
        else
            tr.globals[d.name] = {ty, Where::Uniform, ident(d.name)};
        result.uniforms.push_back(u);
    }
    if (fused) {
        result.substepsOffset = cursor = roundUp(cursor, 4);
        cursor += 4;
        uniformStruct += "    xfb_substeps: u32,\n";
    }
    if (gather) {
        result.gatherOffset = cursor = roundUp(cursor, 4);
        cursor += 8;
        uniformStruct += "    xfb_first_record: u32,\n    xfb_first_source: u32,\n";
    }
    result.uniformBytes = roundUp(cursor, maxAlign);
    uniformStruct += "};\n@group(0) @binding(0) var<uniform> xfb_u: XfbUniforms;\n";

    // Storage buffers, after the textures: word views as in the GL compute translation.
    std::map<int, std::pair<bool, bool>> views; // binding -> {read-only, vec4 view}
    for (const auto& a : pass.attributes) {
        int& b = result.readBinding[std::size_t(a.entry)];
        if (b < 0) views[b = binding++] = {true, true};
        views[b].second = views[b].second && a.componentsPerLocation == 4 && a.stride % 16 == 0 && a.offset % 16 == 0;
    }
    for (const auto& o : pass.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)] = binding++;
        views[b] = {false, true};
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields) {
            auto v = std::find_if(capture.varyings.begin(), capture.varyings.end(),
                                  [&](auto& x) { return x.name == f.varying; });
            views[b].second = views[b].second && v->type.rows == 4 && f.firstComponent % 4 == 0 &&
                              f.components % 4 == 0 && f.offset % 16 == 0 && o.stride % 16 == 0;
        }
    }
    const EmitPlan noEmits;
    const EmitPlan& emits = options.emits ? *options.emits : noEmits;
    if (pass.emitEntries.size() != emits.outputs.size())
        throw Error(ErrorCode::InvalidArgument, "the pass plan has " + std::to_string(pass.emitEntries.size()) +
                                                    " emitted entries but the emit plan " +
                                                    std::to_string(emits.outputs.size()) +
                                                    " outputs; give WgslTranslationOptions::emits from planEmits()");
    for (const auto& o : emits.outputs)
        views[result.writeBinding[std::size_t(o.entry)] = binding++] = {false, o.type.rows == 4};
    S buffers, countBuffers, firstBuffers;
    if (gather) {
        result.sourceBinding = binding++;
        buffers += "@group(0) @binding(" + std::to_string(result.sourceBinding) +
                   ") var<storage, read> xfb_source: array<u32>;\n";
    }
    for (const auto& [b, v] : views)
        buffers += "@group(0) @binding(" + std::to_string(b) + ") var<storage, " + (v.first ? "read" : "read_write") +
                   "> xfb_b" + std::to_string(b) + ": array<" + (v.second ? "vec4<u32>" : "u32") + ">;\n";
    for (std::size_t k = 0; k < emits.budgets.size(); ++k) {
        result.countsBinding.push_back(binding++);
        result.firstBinding.push_back(binding++);
        S n = std::to_string(k), head = "@group(0) @binding(";
        cat(countBuffers, {head, std::to_string(result.countsBinding[k]), ") var<storage, read_write> xfb_emitted", n,
                           ": array<u32>;\n"});
        cat(firstBuffers,
            {head, std::to_string(result.firstBinding[k]), ") var<storage, read> xfb_first", n, ": array<u32>;\n"});
    }

    // Interface variables: private globals the entry point loads and stores.
    S privates = "var<private> xfb_vertex_id: i32;\nconst xfb_instance_id: i32 = 0;\nvar<private> xfb_position: "
                 "vec4<f32>;\nvar<private> xfb_point_size: f32;\n";
    for (const auto& d : shader.inputs)
        privates += "var<private> " + ident(d.name) + ": " + wgslType(tr.declarePrivate(d), d.line) + ";\n";
    if (tr.substepBuiltin) privates += "var<private> xfb_substep: i32;\n";
    // Struct outputs need their struct definitions first: their declarations follow the user's code.
    // Private variables start at zero in WGSL, so one pass reads 0 from an output no code path
    // writes, as the GL programs do (plan/vertex_wrapper.hpp); fused substeps zero them again each.
    S outputs, zeroes;
    std::set<S, std::less<>> zeroed;
    for (const auto& d : shader.outputs) {
        S type = wgslType(tr.declarePrivate(d), d.line);
        outputs += "var<private> " + ident(d.name) + ": " + type + ";\n";
        if (zeroed.insert(d.name).second) zeroes += "        " + ident(d.name) + " = " + type + "();\n";
    }
    for (const auto& v : capture.varyings)
        if (v.name == "gl_Position")
            zeroes += "        xfb_position = vec4<f32>();\n";
        else if (v.name == "gl_PointSize")
            zeroes += "        xfb_point_size = 0.0;\n";

    tr.translateModule();

    // Entry point: the index, the bound check, loads, the user's main, stores.
    // Inputs are read at the vertex, outputs written at the record: both the invocation index,
    // except in a gather (the source vertex, the capture's record).
    const S vertex = gather ? "xfb_v" : "xfb_i", record = gather ? "xfb_r" : "xfb_i";
    auto element = [&](int b, int strideWords, int word, const S& index) {
        bool vec4 = views.at(b).second;
        int div = vec4 ? 4 : 1;
        return "xfb_b" + std::to_string(b) + "[" + index + " * " + std::to_string(strideWords / div) + "u + " +
               std::to_string(word / div) + "u]";
    };
    S wg = std::to_string(options.workGroupSize);
    S main = "@compute @workgroup_size(" + wg +
             ")\nfn xfb_main(@builtin(global_invocation_id) xfb_gid: vec3<u32>, @builtin(num_workgroups) xfb_groups: "
             "vec3<u32>) {\n"
             "    let xfb_i = xfb_gid.x + xfb_gid.y * xfb_groups.x * " +
             wg + "u;\n    if (xfb_i >= xfb_u.xfb_count) {\n        return;\n    }\n";
    if (gather)
        main += "    let xfb_v = xfb_source[xfb_u.xfb_first_source + xfb_i];\n"
                "    let xfb_r = xfb_u.xfb_first_record + xfb_i;\n";
    main += "    xfb_vertex_id = i32(" + vertex + ");\n";
    for (const auto& a : pass.attributes) {
        const Declaration* d = shader.findInput(a.input);
        int b = result.readBinding[std::size_t(a.entry)];
        int n = a.componentsPerLocation;
        for (int l = 0; l < a.locationCount; ++l) {
            int word = a.offset / 4 + l * n;
            S bits;
            if (views.at(b).second)
                bits = element(b, a.stride / 4, word, vertex);
            else if (n == 1)
                bits = element(b, a.stride / 4, word, vertex);
            else {
                bits = "vec" + std::to_string(n) + "<u32>(";
                for (int c = 0; c < n; ++c) bits += (c ? ", " : "") + element(b, a.stride / 4, word + c, vertex);
                bits += ")";
            }
            S target = ident(d->name);
            if (d->arraySize > 0) target += "[" + std::to_string(d->type.isMatrix() ? l / d->type.columns : l) + "]";
            if (d->type.isMatrix()) target += "[" + std::to_string(l % d->type.columns) + "]";
            cat(main,
                {"    ", target, " = ",
                 (d->type.kind == ScalarKind::UInt ? bits : "bitcast<" + shapeW(d->type.kind, n) + ">(" + bits + ")"),
                 ";\n"});
        }
    }
    if (fused) {
        // The state stays in the input privates between substeps; stores follow the loop, so
        // write-only outputs keep the last substep's values.
        std::string refusal;
        S feedback = plan::substepFeedback(
            shader, pass, capture, [](const S& n) { return ident(n); },
            [](const S& n) {
                return n == "gl_Position"    ? S("xfb_position")
                       : n == "gl_PointSize" ? S("xfb_point_size")
                                             : identVarying(n);
            },
            "        ", refusal);
        main += "    for (var xfb_s = 0u; xfb_s < xfb_u.xfb_substeps; xfb_s++) {\n";
        if (tr.substepBuiltin) main += "        xfb_substep = i32(xfb_s);\n";
        main += zeroes + "        xfb_user_main();\n" + feedback + "    }\n";
    } else {
        if (tr.substepBuiltin) main += "    xfb_substep = xfb_u.xfb_substep;\n";
        main += "    xfb_user_main();\n";
    }
    // Per budget: the element's count, clamped to 0..maxRecords (the count pass stores it).
    S countMain = main;
    auto clampedCount = [&](const EmitBudgetPlan& b) {
        S max = std::to_string(b.maxRecords);
        return b.kind == ScalarKind::UInt ? "min(" + ident(b.count) + ", " + max + "u)"
                                          : "u32(clamp(" + ident(b.count) + ", 0, " + max + "))";
    };
    for (std::size_t k = 0; k < emits.budgets.size(); ++k)
        cat(countMain, {"    xfb_emitted", std::to_string(k), "[xfb_i] = ", clampedCount(emits.budgets[k]), ";\n"});
    countMain += "}\n";
    for (const auto& o : pass.outputs) {
        int b = result.writeBinding[std::size_t(o.entry)];
        bool vec4 = views.at(b).second;
        for (const auto& f : capture.buffers[std::size_t(o.binding)].fields) {
            const CapturedVarying& v = *std::find_if(capture.varyings.begin(), capture.varyings.end(),
                                                     [&](auto& x) { return x.name == f.varying; });
            S name = v.name == "gl_Position"    ? "xfb_position"
                     : v.name == "gl_PointSize" ? "xfb_point_size"
                                                : identVarying(v.name);
            const int rows = v.type.rows, cols = v.type.columns;
            // `per` components at a time: a whole column when the view is vec4, else one; the
            // field's component c is the varying's f.firstComponent + c (a partial capture).
            for (int fc = 0; fc < f.components; fc += vec4 ? 4 : 1) {
                const plan::ComponentIndex i = plan::componentIndex(v.type, f.firstComponent + fc);
                S expr = cat({name, (v.arraySize > 0 ? "[" + std::to_string(i.element) + "]" : ""),
                              (cols > 1 ? "[" + std::to_string(i.column) + "]" : "")});
                if (!vec4 && rows > 1) expr += "[" + std::to_string(i.row) + "]";
                int n = vec4 ? 4 : 1;
                S value = v.type.kind == ScalarKind::UInt
                              ? expr
                              : "bitcast<" + shapeW(ScalarKind::UInt, n) + ">(" + expr + ")";
                cat(main, {"    ", element(b, o.stride / 4, f.offset / 4 + fc, record), " = ", value, ";\n"});
            }
        }
    }
    // Emitted records: the k-th record of element i at first + k, in input order, within capacity.
    for (std::size_t k = 0; k < emits.budgets.size(); ++k) {
        const EmitBudgetPlan& bp = emits.budgets[k];
        S n = std::to_string(k), r = "(xfb_first" + n + "[xfb_i] + xfb_k)";
        cat(main, {"    for (var xfb_k = 0u; xfb_k < ", clampedCount(bp), " && ", r, " < ", std::to_string(bp.capacity),
                   "u; xfb_k++) {\n"});
        for (int oi : bp.outputs) {
            const EmitOutputPlan& o = emits.outputs[std::size_t(oi)];
            int b = result.writeBinding[std::size_t(o.entry)], rows = o.type.rows;
            bool vec4 = views.at(b).second;
            for (int c = 0; c < rows; c += vec4 ? 4 : 1) {
                S expr = ident(o.varying) + "[xfb_k]" + (!vec4 && rows > 1 ? "[" + std::to_string(c) + "]" : "");
                S value = o.type.kind == ScalarKind::UInt
                              ? expr
                              : "bitcast<" + shapeW(ScalarKind::UInt, vec4 ? 4 : 1) + ">(" + expr + ")";
                int div = vec4 ? 4 : 1;
                cat(main, {"        xfb_b", std::to_string(b), "[", r, " * ", std::to_string(o.stride / 4 / div),
                           "u + ", std::to_string(c / div), "u] = ", value, ";\n"});
            }
        }
        main += "    }\n";
    }
    main += "}\n";
    S shared = "// Generated by xfb from a GLSL vertex shader: one invocation per element.\n" + uniformStruct + buffers;
    S code = tr.helpers + privates + outputs + "\n" + tr.out;
    result.source = shared + firstBuffers + code + main;
    if (!emits.empty()) result.countSource = shared + countBuffers + code + countMain;
    return result;
}

WgslShader translateToWgsl(std::string_view vertexSource, const ReadOptions& read, const CaptureOptions& captureOptions,
                           const WgslTranslationOptions& options) {
    const ShaderInterface shader = readShaderInterface(toGlslEs300(vertexSource), read);
    const auto attributes = planAttributes(shader, Limits::portable());
    const auto capture = planCapture(shader, captureOptions, Limits::webgpu());
    std::vector<EntryDesc> entries;
    std::vector<VertexAttribute> packed;
    for (const auto& a : attributes) {
        auto type = componentTypeOf(a.type.kind);
        if (!type) throw Error(ErrorCode::AttributeType, "input '" + a.name + "' cannot be a vertex attribute");
        packed.push_back({a.semantic, *type, a.components()});
    }
    if (!packed.empty()) {
        VertexFormat f = VertexFormat::interleaved(packed);
        entries.push_back({BufferDesc{f, std::uint64_t(f.stride)}, std::nullopt});
    }
    for (const auto& b : capture.buffers)
        entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride)}});
    const auto pass = planPass(attributes, capture, entries, std::int64_t(1));
    return translateToWgsl(vertexSource, read, pass, capture, entries.size(), options);
}

namespace plan {

WgslGeometryCode translateGeometryCodeToWgsl(std::string_view geometrySource, const ShaderInterface& shader,
                                             const ReadOptions& read, int inputVertices, int firstUniformByte) {
    PreprocessedSource pre = preprocess(geometrySource, read.defines);
    Translator tr(pre.tokens, pre.functionMacros);
    tr.geometryVertices = inputVertices;
    tr.uniformBlock = "xfb_g";
    WgslGeometryCode result;
    // The shader's uniforms join the kernels' uniform block after its counts, laid out as the
    // vertex kernel's (layoutUniform).
    int cursor = firstUniformByte, maxAlign = 16;
    for (const auto& d : shader.uniforms) {
        if (d.name.starts_with("xfb_"))
            refuse(d.line, {"identifier '", d.name, "' uses the reserved prefix xfb_; rename it"});
        if (d.type.kind == ScalarKind::Opaque)
            refuse(d.line, {"sampler '", d.name,
                            "' of the geometry shader: the WebGPU geometry capture's kernels bind no textures; "
                            "read the texture in the vertex shader and pass the value as an output"});
        Ty ty{d.type.kind, d.type.columns, d.type.rows, d.arraySize, S()};
        result.uniforms.push_back(layoutUniform(d, ty, cursor, maxAlign, result.uniformFields));
        tr.globals[d.name] = {ty, Where::Uniform, ident(d.name)};
    }
    result.uniformBytes = roundUp(cursor, maxAlign);
    tr.structs[S(kPerVertex)] = {{"gl_Position", vecTy(ScalarKind::Float, 4)},
                                 {"gl_PointSize", scalarTy(ScalarKind::Float)}};
    auto declare = [&](const Declaration& d) {
        result.privates += "var<private> " + ident(d.name) + ": " + wgslType(tr.declarePrivate(d), d.line) + ";\n";
    };
    for (const auto& d : shader.inputs) declare(d);
    for (const auto& d : shader.outputs) declare(d);
    tr.translateModule();
    result.code = tr.helpers + tr.out;
    return result;
}

std::string wgslCapturedWord(const CapturePlan& capture, const BufferField& f, int c) {
    const CapturedVarying& v =
        *std::find_if(capture.varyings.begin(), capture.varyings.end(), [&](auto& x) { return x.name == f.varying; });
    const S name = v.name == "gl_Position"    ? S("xfb_position")
                   : v.name == "gl_PointSize" ? S("xfb_point_size")
                                              : identVarying(v.name);
    const S expr = componentExpression(name, v.type, v.arraySize > 0, f.firstComponent + c);
    return v.type.kind == ScalarKind::UInt ? expr : "bitcast<u32>(" + expr + ")";
}

std::string wgslShape(ScalarKind kind, int rows) { return shapeW(kind, rows); }

} // namespace plan
} // namespace xfb
