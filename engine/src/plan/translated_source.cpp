#include "translated_source.hpp"

#include "component_index.hpp"
#include "fusion_source.hpp"
#include "vertex_wrapper.hpp"
#include "xfb/error.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/glsl_dialect.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace xfb::plan {
namespace {

[[noreturn]] void untranslatable(int line, const std::string& what) {
    throw Error(ErrorCode::ComputeTranslation, "line " + std::to_string(line) + ": " + what);
}

// Builtins of the vertex stage and what they become in a generated shader.
const std::map<std::string, std::string, std::less<>> kRenamed = {{"gl_VertexID", "xfb_vertex_id"},
                                                                  {"gl_InstanceID", "xfb_instance_id"},
                                                                  {"gl_Position", "xfb_position"},
                                                                  {"gl_PointSize", "xfb_point_size"}};
const std::set<std::string, std::less<>> kNoEquivalent = {"gl_DrawID",       "gl_BaseVertex",   "gl_BaseInstance",
                                                          "gl_ClipDistance", "gl_CullDistance", "gl_PerVertex"};
// A geometry shader's builtins and functions, and what they become in a compute kernel (function
// statics: the browser modules, which translate no geometry shader, hold neither table).
const std::map<std::string, std::string, std::less<>>& geometryRenamed() {
    static const std::map<std::string, std::string, std::less<>> renamed = {
        {"gl_in", "xfb_in"},
        {"gl_PrimitiveIDIn", "xfb_primitive_id_in"},
        {"gl_InvocationID", "xfb_invocation_id"},
        {"EmitVertex", "xfb_emit_vertex"},
        {"EmitStreamVertex", "xfb_emit_stream_vertex"},
        {"EndPrimitive", "xfb_end_primitive"},
        {"EndStreamPrimitive", "xfb_end_stream_primitive"}};
    return renamed;
}
bool hasNoGeometryEquivalent(std::string_view name) {
    return name == "gl_PrimitiveID" || name == "gl_Layer" || name == "gl_ViewportIndex";
}
// Lookups with an implicit level of detail and their explicit-level forms. Outside a fragment shader
// the implicit level is the base level (GLSL ES 3.00 section 8.8), which is the explicit level 0.0:
// the translation is exact, in a compute shader (no derivatives) as in a fragment pass (whose
// derivatives would span neighbouring elements). The offset forms take the level before the offset.
// (Constant arrays, not maps: no static constructor in the wasm modules.)
struct ExplicitLod {
    std::string_view implicit, name;
    bool levelBeforeLast; // textureLodOffset(s, P, lod, offset)
};
constexpr ExplicitLod kImplicitLod[] = {{"texture", "textureLod", false},
                                        {"textureProj", "textureProjLod", false},
                                        {"textureOffset", "textureLodOffset", true},
                                        {"textureProjOffset", "textureProjLodOffset", true},
                                        {"texture2D", "textureLod", false},
                                        {"textureCube", "textureLod", false}};
// Shadow samplers whose lookups have no explicit-level form in GLSL ES 3.00 / GLSL 4.30.
constexpr std::string_view kNoExplicitLod[] = {"samplerCubeShadow", "sampler2DArrayShadow", "samplerCubeArrayShadow"};
const std::set<std::string, std::less<>> kInterfaceQualifiers = {"in",     "out",       "attribute",     "varying",
                                                                 "flat",   "smooth",    "noperspective", "centroid",
                                                                 "sample", "invariant", "precise"};

std::string scalarName(ScalarKind k) { return k == ScalarKind::Int ? "int" : k == ScalarKind::UInt ? "uint" : "float"; }
std::string vectorName(ScalarKind k, int n) {
    if (n == 1) return scalarName(k);
    return (k == ScalarKind::Int ? "ivec" : k == ScalarKind::UInt ? "uvec" : "vec") + std::to_string(n);
}

class Emitter {
public:
    std::string out;
    int line = 1;

    void token(const Token& t) {
        if ((long long)t.line > (long long)line + 256 || t.line < line) {
            // A #line jump in the source (up to 2^31-1): re-state the number instead of writing
            // that many newlines, so that the compiler's log still names the user's lines.
            out += "\n#line " + std::to_string(t.line) + "\n";
            line = t.line;
        } else if (t.line > line) {
            out.append(std::size_t(t.line - line), '\n');
            line = t.line;
        } else if (!out.empty() && out.back() != '\n') {
            out += ' ';
        }
        out += t.text;
    }
};

// `texture(s, P)` -> `textureLod(s, P, 0.0)` and the like (kImplicitLod), on the tokens.
std::vector<Token> withExplicitLod(const std::vector<Token>& t, const ShaderInterface& shader, std::string_view stage) {
    std::vector<Token> out;
    out.reserve(t.size());
    struct Open {
        const ExplicitLod* lod; // the lookup this '(' opens, if any
        std::size_t comma = 0;  // its last top-level comma in `out`
    };
    std::vector<Open> open;
    for (std::size_t i = 0; i < t.size(); ++i) {
        out.push_back(t[i]);
        const Token& tok = t[i];
        if (tok.text == "(") {
            const ExplicitLod* lod = nullptr;
            if (i > 0 && t[i - 1].kind == TokenKind::Identifier)
                for (const ExplicitLod& x : kImplicitLod)
                    if (x.implicit == t[i - 1].text) lod = &x;
            const Declaration* sampler = lod && i + 1 < t.size() ? shader.findUniform(t[i + 1].text) : nullptr;
            if (sampler && std::find(std::begin(kNoExplicitLod), std::end(kNoExplicitLod), sampler->type.name) !=
                               std::end(kNoExplicitLod))
                untranslatable(tok.line, "'" + t[i - 1].text + "()' of a " + sampler->type.name +
                                             " has no explicit-level form (textureLod) for a " + std::string(stage) +
                                             ", which has no implicit level; use another sampler type");
            if (lod) out[out.size() - 2].text = std::string(lod->name);
            open.push_back({lod});
        } else if (tok.text == "," && !open.empty()) {
            open.back().comma = out.size() - 1;
        } else if (tok.text == ")" && !open.empty()) {
            const auto [lod, comma] = open.back();
            open.pop_back();
            if (!lod) continue;
            Token level = tok, separator = tok;
            level.kind = TokenKind::Number;
            level.text = "0.0";
            separator.text = ",";
            if (lod->levelBeforeLast && comma) {
                out.insert(out.begin() + long(comma) + 1, {level, separator});
            } else {
                out.insert(out.end() - 1, {separator, level});
            }
        }
    }
    return out;
}

} // namespace

std::string heldName(const std::string& varying) {
    auto it = kRenamed.find(varying);
    return it == kRenamed.end() ? varying : it->second;
}

TranslatedSource translateSource(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                 const CapturePlan& capture, int substeps, bool emits, std::string_view stage,
                                 [[maybe_unused]] const GeometryStage* geometryStage) {
#ifdef __EMSCRIPTEN__ // neither browser module translates a geometry shader: its reader stays out of them
    constexpr const GeometryStage* geometry = nullptr;
#else
    const GeometryStage* geometry = geometryStage;
#endif
    const std::string modern = geometry ? std::string(vertexSource) : toGlslEs300(vertexSource);
    TranslatedSource result;
    result.shader = geometry ? readGeometryInterface(modern, read).shader : readShaderInterface(modern, read);
    result.pre = preprocess(modern, read.defines);
    result.pre.tokens = withExplicitLod(result.pre.tokens, result.shader, stage);
    if (substeps < 1) throw Error(ErrorCode::InvalidArgument, "substeps must be >= 1, got " + std::to_string(substeps));
    result.substeps = substeps;
    const bool fused = substeps > 1;
    if (fused) {
        if (emits) throw Error(ErrorCode::InvalidArgument, "emitted outputs cannot run fused substeps");
        FusionDecision decision = checkFusion(vertexSource, read, pass, capture);
        if (!decision.fused)
            throw Error(ErrorCode::InvalidArgument, "the substeps of this shader cannot be fused: " + decision.reason);
        std::string refusal;
        result.feedback = substepFeedback(
            result.shader, pass, capture, [](const std::string& n) { return n; }, heldName, "        ", refusal);
    }

    // The user's code, token by token on its own lines: interface qualifiers dropped (inputs and
    // outputs become plain globals), builtins renamed, main() renamed.
    Emitter body;
    const auto& t = result.pre.tokens;
    int depth = 0;
    std::size_t statementStart = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const Token& tok = t[i];
        if (tok.kind == TokenKind::Identifier) {
            if (tok.text.starts_with("xfb_") && tok.text != kSubstepUniform)
                untranslatable(tok.line, "identifier '" + tok.text + "' uses the reserved prefix xfb_; rename it");
            if (kNoEquivalent.count(tok.text) || (geometry && hasNoGeometryEquivalent(tok.text)))
                untranslatable(tok.line, "'" + tok.text + "' has no equivalent in a " + std::string(stage));
            if (geometry && tok.text == "gl_in") result.usesGlIn = true;
        }
        if (depth == 0 && i == statementStart) {
            // Start of a global statement: find its end to decide how to emit it.
            std::size_t end = i;
            while (end < t.size() && t[end].text != ";" && t[end].text != "{") ++end;
            if (fused && end < t.size() && declaresSubstepUniform(t, i, end)) {
                result.substepDeclared = true; // a plain global the substep loop assigns
                i = end;
                statementStart = i + 1;
                continue;
            }
            bool interfaceDecl = false;
            std::size_t k = i;
            while (k < end) {
                if (t[k].text == "layout") {
                    while (k < end && t[k].text != ")") ++k;
                    ++k;
                    continue;
                }
                if (!kInterfaceQualifiers.count(t[k].text)) break;
                interfaceDecl = interfaceDecl || (t[k].text != "invariant" && t[k].text != "precise");
                ++k;
            }
            bool onlyQualifiers = k < end && t[k].text.starts_with("gl_"); // `invariant gl_Position;`
            if (end < t.size() && t[end].text == "{" && (interfaceDecl || (k + 1 < end && t[k + 1].text == "{")))
                untranslatable(t[k].line,
                               "interface block '" + t[k].text + "': declare its members as separate inputs/outputs");
            if (onlyQualifiers) {
                i = end; // drop the whole redeclaration, ';' included
                statementStart = i + 1;
                continue;
            }
            if (interfaceDecl) {
                // A default such as `layout(xfb_buffer = 1, xfb_stride = 32) out;` declares nothing.
                if (k < end) {
                    for (std::size_t q = k; q < end; ++q) {
                        body.token(t[q]);
                        if (geometry && t[q].text == "[" && q + 1 < end && t[q + 1].text == "]") {
                            Token size = t[q]; // an unsized input: one element per input vertex
                            size.text = std::to_string(geometry->inputVertices);
                            body.token(size);
                        }
                    }
                    body.token(t[end]);
                }
                i = end;
                statementStart = i + 1;
                continue;
            }
        }
        Token copy = tok;
        if (auto it = kRenamed.find(tok.text); tok.kind == TokenKind::Identifier && it != kRenamed.end())
            copy.text = it->second;
        if (geometry && tok.kind == TokenKind::Identifier)
            if (auto it = geometryRenamed().find(tok.text); it != geometryRenamed().end()) copy.text = it->second;
        if (depth == 0 && tok.text == "main" && i + 1 < t.size() && t[i + 1].text == "(") copy.text = "xfb_user_main";
        body.token(copy);
        if (tok.text == "{") ++depth;
        if (tok.text == "}") --depth;
        if (depth == 0 && (tok.text == ";" || tok.text == "}")) statementStart = i + 1;
    }
    result.body = std::move(body.out);
    return result;
}

std::string elementWork(const TranslatedSource& t, const PassPlan& pass, const CapturePlan& capture,
                        const WordLoader& load, std::string& zeroFunctions) {
    auto fromBits = [](ScalarKind kind, const std::string& bits, int n) {
        if (kind == ScalarKind::Float) return "uintBitsToFloat(" + bits + ")";
        if (kind == ScalarKind::Int)
            return (n == 1 ? std::string("int(") : "ivec" + std::to_string(n) + "(") + bits + ")";
        return bits;
    };
    std::string work;
    for (const auto& a : pass.attributes) {
        const Declaration* d = t.shader.findInput(a.input);
        ScalarKind kind = d->type.kind;
        int perLocation = a.componentsPerLocation;
        for (int l = 0; l < a.locationCount; ++l) {
            int firstWord = a.offset / 4 + l * perLocation;
            std::string value, quad = perLocation == 4 && load.quad ? load.quad(a, firstWord) : std::string();
            if (!quad.empty()) {
                value = fromBits(kind, quad, 4);
            } else {
                std::string args;
                for (int c = 0; c < perLocation; ++c)
                    args += (c ? ", " : "") + fromBits(kind, load.word(a, firstWord + c), 1);
                value = perLocation == 1 ? args : vectorName(kind, perLocation) + "(" + args + ")";
            }
            std::string target = d->name;
            if (d->arraySize > 0) target += "[" + std::to_string(d->type.isMatrix() ? l / d->type.columns : l) + "]";
            if (d->type.isMatrix()) target += "[" + std::to_string(l % d->type.columns) + "]";
            work += "    " + target + " = " + value + ";\n";
        }
    }
    // The outputs are plain globals here, undefined until written: zeroed before the user's main()
    // runs (every substep), as the transform-feedback program does (plan/vertex_wrapper.hpp).
    const bool fused = t.substeps > 1;
    const ZeroCode zero = zeroOutputs(t.shader, capture, fused ? "        " : "    ", ZeroedOutputs::Declared,
                                      [](const std::string& n) { return heldName(n); });
    zeroFunctions = zero.functions;
    if (fused) {
        work += "    for (int xfb_s = 0; xfb_s < " + std::to_string(t.substeps) + "; ++xfb_s) {\n";
        if (t.substepDeclared) work += "        xfb_substep = xfb_s;\n";
        work += zero.statements + "        xfb_user_main();\n" + t.feedback + "    }\n";
    } else {
        work += zero.statements + "    xfb_user_main();\n";
    }
    return work;
}

std::string capturedWordBits(const CapturePlan& capture, const BufferField& f, int c) {
    const CapturedVarying& v =
        *std::find_if(capture.varyings.begin(), capture.varyings.end(), [&](auto& x) { return x.name == f.varying; });
    // Component c of the field, the varying's f.firstComponent + c (a partial capture), as uint bits.
    const std::string expr = componentExpression(heldName(v.name), v.type, v.arraySize > 0, f.firstComponent + c);
    return v.type.kind == ScalarKind::Float ? "floatBitsToUint(" + expr + ")" : "uint(" + expr + ")";
}

} // namespace xfb::plan
