#include "xfb/shader_interface.hpp"

#include "glsl_version_rules.hpp"
#include "shader/int_expression.hpp"
#include "shader/preprocessor.hpp"
#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <algorithm>
#include <set>
#include <span>

namespace xfb {

std::optional<GlslType> builtinType(std::string_view name) {
    std::string n(name);
    auto make = [&](ScalarKind k, int cols, int rows) { return GlslType{n, k, cols, rows}; };
    if (n == "float") return make(ScalarKind::Float, 1, 1);
    if (n == "int") return make(ScalarKind::Int, 1, 1);
    if (n == "uint") return make(ScalarKind::UInt, 1, 1);
    if (n == "bool") return make(ScalarKind::Bool, 1, 1);
    if (n == "double") return make(ScalarKind::Double, 1, 1);
    if (n.size() == 4 && n.compare(0, 3, "vec") == 0 && n[3] >= '2' && n[3] <= '4')
        return make(ScalarKind::Float, 1, n[3] - '0');
    if (n.size() == 5 && n[1] == 'v' && n.compare(1, 3, "vec") == 0 && n[4] >= '2' && n[4] <= '4') {
        int size = n[4] - '0';
        switch (n[0]) {
            case 'i': return make(ScalarKind::Int, 1, size);
            case 'u': return make(ScalarKind::UInt, 1, size);
            case 'b': return make(ScalarKind::Bool, 1, size);
            case 'd': return make(ScalarKind::Double, 1, size);
            default: break;
        }
    }
    // matN, matNxM, dmatN, dmatNxM
    std::string_view m = name;
    ScalarKind kind = ScalarKind::Float;
    if (m.starts_with("dmat")) {
        kind = ScalarKind::Double;
        m.remove_prefix(1);
    }
    if (m.starts_with("mat") && (m.size() == 4 || (m.size() == 6 && m[4] == 'x'))) {
        int cols = m[3] - '0';
        int rows = m.size() == 6 ? m[5] - '0' : cols;
        if (cols >= 2 && cols <= 4 && rows >= 2 && rows <= 4) return make(kind, cols, rows);
    }
    static const std::set<std::string, std::less<>> opaquePrefixes = {"sampler", "isampler", "usampler",   "image",
                                                                      "iimage",  "uimage",   "atomic_uint"};
    for (auto& p : opaquePrefixes)
        if (name.starts_with(p)) return make(ScalarKind::Opaque, 1, 1);
    return std::nullopt;
}

static const Declaration* findIn(const std::vector<Declaration>& v, std::string_view name) {
    auto it = std::find_if(v.begin(), v.end(), [&](const Declaration& d) { return d.name == name; });
    return it == v.end() ? nullptr : &*it;
}
const Declaration* ShaderInterface::findOutput(std::string_view name) const { return findIn(outputs, name); }
const Declaration* ShaderInterface::findInput(std::string_view name) const { return findIn(inputs, name); }
const Declaration* ShaderInterface::findUniform(std::string_view name) const { return findIn(uniforms, name); }
bool ShaderInterface::declaresXfbLayout() const {
    return !xfbStrides.empty() || unplacedXfbLine != 0 ||
           std::any_of(outputs.begin(), outputs.end(), [](const Declaration& d) { return d.xfbOffset.has_value(); });
}

namespace {

using plan::Token;
using plan::TokenKind;

const std::set<std::string, std::less<>> kInterpolationAndPrecision = {
    "flat",  "smooth",  "noperspective", "centroid", "sample",   "patch",    "invariant", "precise",
    "highp", "mediump", "lowp",          "coherent", "volatile", "restrict", "readonly",  "writeonly"};

[[noreturn]] void syntaxError(int line, const std::string& what) {
    throw Error(ErrorCode::ShaderSyntax, "line " + std::to_string(line) + ": " + what);
}

// What the readers of one source share: the global reader and the readers of struct bodies
// (which work on a span of the same tokens, so nesting never copies them).
struct ReaderState {
    const plan::PreprocessedSource& src;
    std::map<std::string, StructDefinition> structs;
    std::map<std::string, long long> consts;
    std::set<std::string, std::less<>> functionMacros;
    int declarations = 0;  // in/out/uniform declarators and struct members so far
    int xfbBuffer = 0;     // the default xfb_buffer of outputs (`layout(xfb_buffer = N) out;`)
    int stream = 0;        // the default vertex stream of outputs (`layout(stream = N) out;`)
    bool geometry = false; // readGeometryInterface(): inputs may be unsized arrays
};

// The integer-valued layout qualifiers the reader keeps (others, such as `std140`, are ignored).
struct LayoutValues {
    std::optional<int> location, xfbBuffer, xfbOffset, xfbStride;
    std::optional<int> stream; // a geometry shader's output
    int xfbLine = 0;           // the line of the first xfb_* qualifier
};

/// The array size the reader gives a geometry shader's unsized input until the input primitive is known.
constexpr int kUnsized = -1;

class DeclarationReader {
public:
    DeclarationReader(ReaderState& state, std::span<const Token> tokens, int depth)
        : state_(state), tokens_(tokens), depth_(depth) {
        result_.version = state.src.version;
        result_.es = state.src.es;
        if (depth_ > limits::maxNestingDepth)
            syntaxLimit(ErrorCode::NestingDepth, tokens.empty() ? 0 : tokens[0].line,
                        "struct definitions nested deeper than " + std::to_string(limits::maxNestingDepth) + " levels");
    }

    ShaderInterface run() {
        const auto& t = tokens_;
        std::vector<Token> statement;
        for (size_t i = 0; i < t.size(); ++i) {
            const Token& tok = t[i];
            if (tok.kind == TokenKind::Punct && tok.text == "{") {
                i = braceBlock(statement, i);
                continue;
            }
            if (tok.kind == TokenKind::Punct && tok.text == ";") {
                if (!statement.empty()) declaration(statement);
                statement.clear();
                continue;
            }
            if (tok.kind == TokenKind::Punct && tok.text == "}") syntaxError(tok.line, "unbalanced '}'");
            statement.push_back(tok);
        }
        if (!statement.empty()) syntaxError(statement.back().line, "declaration not terminated by ';'");
        return std::move(result_);
    }

    /// The global reader's result, with every struct the source defines.
    ShaderInterface runGlobal() {
        ShaderInterface r = run();
        r.structs = std::move(state_.structs);
        return r;
    }

private:
    // Handles '{' at global scope: a function body (skipped), a struct definition or an
    // interface block. Returns the index of the matching '}'. For structs and blocks the
    // statement continues (instance names may follow) until ';'.
    size_t braceBlock(std::vector<Token>& statement, size_t open) {
        const auto& t = tokens_;
        size_t close = matchingBrace(open);
        bool isFunction = false; // a '(' that does not open a layout qualifier
        for (size_t k = 1; k < statement.size(); ++k)
            if (statement[k].text == "(" && statement[k - 1].text != "layout") isFunction = true;
        if (isFunction || statement.empty()) {
            statement.clear();
            return close;
        }
        auto structPos =
            std::find_if(statement.begin(), statement.end(), [](const Token& x) { return x.text == "struct"; });
        if (structPos != statement.end()) {
            if (structPos + 1 == statement.end())
                syntaxError(structPos->line, "anonymous structs are not supported; name the struct");
            StructDefinition def{(structPos + 1)->text, {}};
            DeclarationReader inner(state_, t.subspan(open + 1, close - open - 1), depth_ + 1);
            inner.memberMode_ = true;
            def.members = inner.run().inputs;
            state_.structs[def.name] = std::move(def);
            // `struct S {...} s;` declares `s` of type S: continue with "S" as the type.
            statement.erase(statement.begin(), structPos + 1);
            return close;
        }
        // Interface block: `[layout(...)] in|out|uniform|buffer Name { ... } [instance];`
        std::string name = statement.back().text;
        result_.interfaceBlocks.push_back(name);
        auto isXfb = [](const Token& x) {
            return x.text == "xfb_buffer" || x.text == "xfb_offset" || x.text == "xfb_stride";
        };
        for (const Token& x : statement)
            if (isXfb(x) && !result_.unplacedXfbLine) result_.unplacedXfbLine = x.line;
        for (size_t k = open; k < close; ++k)
            if (isXfb(t[k]) && !result_.unplacedXfbLine) result_.unplacedXfbLine = t[k].line;
        statement.clear();
        // Skip the instance name and the ';'.
        size_t i = close + 1;
        while (i < t.size() && t[i].text != ";") ++i;
        return i;
    }

    size_t matchingBrace(size_t open) const {
        const auto& t = tokens_;
        int depth = 0;
        for (size_t i = open; i < t.size(); ++i) {
            if (t[i].kind != TokenKind::Punct) continue;
            if (t[i].text == "{")
                ++depth;
            else if (t[i].text == "}" && --depth == 0)
                return i;
        }
        syntaxError(t[open].line, "'{' without a matching '}'");
    }

    long long constant(const std::vector<Token>& expr, int line, const std::string& what) {
        if (expr.empty()) syntaxError(line, what + " is empty");
        try {
            return plan::evaluateIntExpression(expr, [&](const std::string& id) -> std::optional<long long> {
                if (state_.functionMacros.count(id))
                    throw plan::Unevaluable{"function-like macro '" + id +
                                            "' is not expanded by the declaration reader"};
                auto it = state_.consts.find(id);
                if (it != state_.consts.end()) return it->second;
                return std::nullopt;
            });
        } catch (const plan::ExpressionError& e) {
            syntaxLimit(e.code, line, what + ": " + e.reason);
        } catch (const plan::Unevaluable& u) {
            throw Error(ErrorCode::PreprocessorUnevaluable,
                        "line " + std::to_string(line) + ": cannot evaluate " + what + ": " + u.reason +
                            ". Use an integer literal, a #define, or a global const int.");
        }
    }

    void layoutQualifier(const std::vector<Token>& s, size_t& i, LayoutValues& values) {
        // s[i] == "layout"
        if (i + 1 >= s.size() || s[i + 1].text != "(") syntaxError(s[i].line, "'layout' must be followed by '('");
        size_t close = i + 2;
        int depth = 1;
        for (; close < s.size(); ++close) {
            if (s[close].text == "(") ++depth;
            if (s[close].text == ")" && --depth == 0) break;
        }
        if (close >= s.size()) syntaxError(s[i].line, "layout( without ')'");
        // Split the inside at top-level commas: `id` or `id = expr`.
        size_t b = i + 2;
        while (b < close) {
            size_t e = b;
            int d = 0;
            while (e < close && !(d == 0 && s[e].text == ",")) {
                if (s[e].text == "(") ++d;
                if (s[e].text == ")") --d;
                ++e;
            }
            const std::string& id = s[b].text;
            std::optional<int>* slot = id == "location"     ? &values.location
                                       : id == "xfb_buffer" ? &values.xfbBuffer
                                       : id == "xfb_offset" ? &values.xfbOffset
                                       : id == "xfb_stride" ? &values.xfbStride
                                       : id == "stream"     ? &values.stream
                                                            : nullptr;
            if (e > b && slot) {
                const std::string what = "layout(" + id + ")";
                if (e < b + 3 || s[b + 1].text != "=") syntaxError(s[b].line, what + " needs '= N'");
                long long v =
                    constant(std::vector<Token>(s.begin() + long(b) + 2, s.begin() + long(e)), s[b].line, what);
                // Locations and streams within the array limit; byte offsets and strides within the
                // largest declaration.
                const long long max = slot == &values.location || slot == &values.stream
                                          ? limits::maxArraySize
                                          : limits::maxDeclarationComponents * 4LL;
                if (v < 0 || v > max)
                    syntaxLimit(ErrorCode::ConstantExpression, s[b].line,
                                "layout(" + id + " = " + std::to_string(v) + ") is out of range 0.." +
                                    std::to_string(max));
                *slot = int(v);
                if (id.starts_with("xfb_") && !values.xfbLine) values.xfbLine = s[b].line;
            }
            b = e + 1;
        }
        i = close + 1;
    }

    void declaration(const std::vector<Token>& s) {
        if (s[0].text == "precision") return;
        std::optional<StorageQualifier> storage;
        bool isConst = false, isBuffer = false;
        LayoutValues layout;
        std::vector<std::string> qualifiers;
        size_t i = 0;
        while (i < s.size()) {
            const std::string& w = s[i].text;
            if (w == "layout") {
                layoutQualifier(s, i, layout);
                continue;
            }
            if (w == "in" || w == "attribute")
                storage = StorageQualifier::In;
            else if (w == "out" || w == "varying")
                storage = StorageQualifier::Out;
            else if (w == "uniform")
                storage = StorageQualifier::Uniform;
            else if (w == "const")
                isConst = true;
            else if (w == "buffer" || w == "shared")
                isBuffer = true;
            else if (kInterpolationAndPrecision.count(w))
                qualifiers.push_back(w);
            else
                break;
            ++i;
        }
        // An output's buffer: its own xfb_buffer, else the default; an xfb_stride names that buffer.
        const bool isOutput = storage == StorageQualifier::Out && !memberMode_;
        const int xfbBuffer = layout.xfbBuffer.value_or(state_.xfbBuffer);
        if (isOutput && layout.xfbStride)
            result_.xfbStrides.push_back({xfbBuffer, *layout.xfbStride, layout.xfbLine});
        else if (layout.xfbLine && !result_.unplacedXfbLine && (!isOutput || memberMode_))
            result_.unplacedXfbLine = layout.xfbLine; // on an input, a uniform or a struct member
        if (i >= s.size()) {                          // e.g. `layout(...) in;` defaults: nothing declared
            if (isOutput && layout.xfbBuffer) state_.xfbBuffer = *layout.xfbBuffer;
            if (isOutput && layout.stream) state_.stream = *layout.stream;
            return;
        }
        if (memberMode_) storage = StorageQualifier::In; // struct members are collected as inputs
        // `invariant gl_Position;` re-declares a builtin; no type follows.
        if (s[i].text.starts_with("gl_")) return;
        if (s.size() > i + 1 && s[i + 1].text == "(") return; // constructor call or prototype without storage
        if (std::any_of(s.begin() + long(i), s.end(), [](const Token& x) { return x.text == "("; }) && !storage &&
            !isConst)
            return; // function prototype such as `vec3 f(vec3 x);`
        if (s[i].kind != TokenKind::Identifier) syntaxError(s[i].line, "expected a type, found '" + s[i].text + "'");

        GlslType type;
        if (auto b = builtinType(s[i].text))
            type = *b;
        else if (state_.structs.count(s[i].text))
            type = GlslType{s[i].text, ScalarKind::Struct, 1, structComponents(s[i].text)};
        else if (storage || memberMode_)
            syntaxError(s[i].line, "unknown type '" + s[i].text + "'");
        else
            return; // a global of a type we do not know (not an interface variable): irrelevant here
        ++i;
        // A geometry shader's inputs are arrays of one element per input vertex, often unsized.
        const bool unsizedAllowed = state_.geometry && storage == StorageQualifier::In && !memberMode_;
        int typeArray = arraySuffix(s, i, s[i - 1].line, unsizedAllowed);

        // Declarators: name [array] [= init], separated by top-level commas.
        while (i < s.size()) {
            if (s[i].kind != TokenKind::Identifier)
                syntaxError(s[i].line, "expected a variable name, found '" + s[i].text + "'");
            Declaration d;
            d.name = s[i].text;
            d.line = s[i].line;
            d.type = type;
            d.location = layout.location;
            if (isOutput) {
                d.xfbOffset = layout.xfbOffset;
                d.xfbBuffer = xfbBuffer;
                d.stream = layout.stream.value_or(state_.stream);
            }
            d.qualifiers = qualifiers;
            ++i;
            int arr = arraySuffix(s, i, d.line, unsizedAllowed);
            d.arraySize = arr ? arr : typeArray;
            // Sizes are checked one by one (arraySuffix); their product with the type's too, so
            // components() and bytes never overflow further down.
            if ((long long)d.type.components() * d.elementCount() > limits::maxDeclarationComponents)
                syntaxLimit(
                    ErrorCode::ArraySize, d.line,
                    "'" + d.name + "' (" + d.type.name + (d.arraySize ? "[" + std::to_string(d.arraySize) + "]" : "") +
                        ") has " + std::to_string((long long)d.type.components() * d.elementCount()) +
                        " components; at most " + std::to_string(limits::maxDeclarationComponents) + " are accepted");
            size_t initStart = 0, initEnd = 0;
            if (i < s.size() && s[i].text == "=") {
                initStart = ++i;
                int depth = 0;
                while (i < s.size() && !(depth == 0 && s[i].text == ",")) {
                    if (s[i].text == "(" || s[i].text == "[" || s[i].text == "{") ++depth;
                    if (s[i].text == ")" || s[i].text == "]" || s[i].text == "}") --depth;
                    ++i;
                }
                initEnd = i;
            }
            if (i < s.size()) {
                if (s[i].text != ",") syntaxError(s[i].line, "unexpected '" + s[i].text + "' after '" + d.name + "'");
                ++i;
                if (i >= s.size()) syntaxError(s[i - 1].line, "a declaration ends with ','");
            }
            if (isConst && !storage && (type.kind == ScalarKind::Int || type.kind == ScalarKind::UInt) &&
                d.arraySize == 0 && initEnd > initStart) {
                try {
                    state_.consts[d.name] = constant(
                        std::vector<Token>(s.begin() + long(initStart), s.begin() + long(initEnd)), d.line, "const");
                } catch (const Error&) {
                    // A const the reader cannot fold is fine unless an array size uses it.
                }
            }
            if (isBuffer || !storage) continue;
            if (++state_.declarations > limits::maxDeclarations)
                syntaxLimit(ErrorCode::TooManyDeclarations, d.line,
                            "more than " + std::to_string(limits::maxDeclarations) +
                                " in/out/uniform declarations (struct members included); the reader stops at '" +
                                d.name + "'");
            d.storage = *storage;
            auto& list = *storage == StorageQualifier::In    ? result_.inputs
                         : *storage == StorageQualifier::Out ? result_.outputs
                                                             : result_.uniforms;
            list.push_back(std::move(d));
        }
    }

    /// The size of a `[N]` at s[i], 0 without one; kUnsized for `[]` where `unsizedAllowed`.
    int arraySuffix(const std::vector<Token>& s, size_t& i, int line, bool unsizedAllowed = false) {
        if (i >= s.size() || s[i].text != "[") return 0;
        size_t b = ++i;
        int depth = 1;
        while (i < s.size()) {
            if (s[i].text == "[") ++depth;
            if (s[i].text == "]" && --depth == 0) break;
            ++i;
        }
        if (i >= s.size()) syntaxError(line, "'[' without ']'");
        std::vector<Token> expr(s.begin() + long(b), s.begin() + long(i));
        ++i;
        if (expr.empty() && unsizedAllowed) return kUnsized;
        if (expr.empty()) syntaxError(line, "unsized arrays are not supported in interface declarations; give a size");
        long long n = constant(expr, line, "array size");
        if (n <= 0) syntaxError(line, "array size must be > 0, got " + std::to_string(n));
        if (n > limits::maxArraySize)
            syntaxLimit(
                ErrorCode::ArraySize, line,
                "array size " + std::to_string(n) + " is over the limit of " + std::to_string(limits::maxArraySize) +
                    " elements (xfb/limits.hpp; no GL implementation accepts such an array in a vertex shader)");
        if (i < s.size() && s[i].text == "[")
            syntaxError(line, "arrays of arrays are not supported in interface declarations");
        return int(n);
    }

    // Members were each checked against maxDeclarationComponents; so is their sum.
    int structComponents(const std::string& name) const {
        long long n = 0;
        const auto& def = state_.structs.at(name);
        for (auto& m : def.members) n += m.components();
        if (n > limits::maxDeclarationComponents)
            syntaxLimit(ErrorCode::ArraySize, def.members.empty() ? 0 : def.members[0].line,
                        "struct " + name + " has " + std::to_string(n) + " components; at most " +
                            std::to_string(limits::maxDeclarationComponents) + " are accepted");
        return int(n);
    }

    [[noreturn]] static void syntaxLimit(ErrorCode code, int line, const std::string& what) {
        throw Error(code, "line " + std::to_string(line) + ": " + what);
    }

    ReaderState& state_;
    std::span<const Token> tokens_;
    int depth_ = 0;
    ShaderInterface result_;
    bool memberMode_ = false;
};

} // namespace

ShaderInterface readShaderInterface(std::string_view source, const ReadOptions& options) {
    const plan::PreprocessedSource src = plan::preprocess(source, options.defines);
    ReaderState state{src, {}, {}, {src.functionMacros.begin(), src.functionMacros.end()}, 0};
    ShaderInterface shader = DeclarationReader(state, src.tokens, 0).runGlobal();
    plan::refuseWhatTheVersionForbids(src, shader);
    return shader;
}

namespace {

// Every global `layout(...) in;` / `layout(...) out;` of `t` (the preprocessed tokens): its bare
// words and the values of max_vertices, invocations and stream. A pass of its own, so the
// declaration reader that vertex shaders share carries none of it.
std::vector<LayoutDefault> readLayoutDefaults(const std::vector<Token>& t) {
    std::vector<LayoutDefault> out;
    int depth = 0;
    bool start = true; // at the start of a global statement
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string& w = t[i].text;
        if (w == "{" || w == "}") {
            depth += w == "{" ? 1 : -1;
            start = w == "}";
            continue;
        }
        if (w == ";") {
            start = true;
            continue;
        }
        const bool layout = depth == 0 && start && w == "layout" && i + 1 < t.size() && t[i + 1].text == "(";
        start = false;
        if (!layout) continue;
        std::size_t close = i + 2;
        for (int d = 1; close < t.size(); ++close) {
            if (t[close].text == "(") ++d;
            if (t[close].text == ")" && --d == 0) break;
        }
        if (close + 2 >= t.size() || (t[close + 1].text != "in" && t[close + 1].text != "out") ||
            t[close + 2].text != ";") {
            i = close;
            continue;
        }
        LayoutDefault d{t[close + 1].text == "in" ? StorageQualifier::In : StorageQualifier::Out, {}, {}, t[i].line};
        for (std::size_t b = i + 2; b < close;) { // `id` or `id = expr`, split at top-level commas
            std::size_t e = b;
            for (int nest = 0; e < close && !(nest == 0 && t[e].text == ","); ++e)
                nest += t[e].text == "(" ? 1 : t[e].text == ")" ? -1 : 0;
            const std::string& id = t[b].text;
            if (e == b + 1) d.identifiers.push_back(id);
            if (e > b + 2 && t[b + 1].text == "=" && (id == "max_vertices" || id == "invocations" || id == "stream")) {
                const std::string at = "line " + std::to_string(t[b].line) + ": layout(" + id + ")";
                long long v = 0;
                try {
                    v = plan::evaluateIntExpression(std::span<const Token>(t).subspan(b + 2, e - b - 2),
                                                    [](const std::string&) { return std::optional<long long>(); });
                } catch (const plan::ExpressionError& x) {
                    throw Error(x.code, at + ": " + x.reason);
                } catch (const plan::Unevaluable& u) {
                    throw Error(ErrorCode::PreprocessorUnevaluable,
                                at + ": cannot evaluate: " + u.reason + ". Use an integer literal or a #define");
                }
                if (v < 0 || v > limits::maxArraySize)
                    throw Error(ErrorCode::ConstantExpression, at + " = " + std::to_string(v) + " is out of range 0.." +
                                                                   std::to_string(limits::maxArraySize));
                d.values.emplace_back(id, int(v));
            }
            b = e + 1;
        }
        out.push_back(std::move(d));
        i = close + 2;
        start = true;
    }
    return out;
}

} // namespace

GeometryInterface readGeometryInterface(std::string_view source, const ReadOptions& options) {
    const plan::PreprocessedSource src = plan::preprocess(source, options.defines);
    ReaderState state{src, {}, {}, {src.functionMacros.begin(), src.functionMacros.end()}, 0};
    state.geometry = true;
    GeometryInterface geometry;
    geometry.shader = DeclarationReader(state, src.tokens, 0).runGlobal();
    geometry.layoutDefaults = readLayoutDefaults(src.tokens);
    // Unsized inputs hold one element per vertex of the input primitive (the last one declared).
    int vertices = 1;
    for (const LayoutDefault& d : geometry.layoutDefaults)
        if (d.storage == StorageQualifier::In)
            for (const std::string& id : d.identifiers)
                vertices = id == "points"                ? 1
                           : id == "lines"               ? 2
                           : id == "lines_adjacency"     ? 4
                           : id == "triangles"           ? 3
                           : id == "triangles_adjacency" ? 6
                                                         : vertices;
    for (Declaration& d : geometry.shader.inputs)
        if (d.arraySize == kUnsized) d.arraySize = vertices;
    return geometry;
}

} // namespace xfb
