#include "xfb/fusion_plan.hpp"

#include "component_index.hpp"
#include "fusion_source.hpp"
#include "shader/preprocessor.hpp"
#include "vertex_wrapper.hpp"
#include "xfb/error.hpp"
#include "xfb/glsl_dialect.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace xfb {
namespace plan {
namespace {

const std::set<std::string, std::less<>> kPrecision = {"highp", "mediump", "lowp"};
const std::set<std::string, std::less<>> kStorage = {"const",         "uniform",  "in",     "out",  "attribute",
                                                     "varying",       "buffer",   "shared", "flat", "smooth",
                                                     "noperspective", "centroid", "sample", "patch"};

// First token of a global statement past `layout(...)`, precision and invariance qualifiers.
std::size_t skipLeadingQualifiers(const std::vector<Token>& t, std::size_t k, std::size_t end) {
    while (k < end) {
        if (t[k].text == "layout") {
            while (k < end && t[k].text != ")") ++k;
            ++k;
        } else if (kPrecision.count(t[k].text) || t[k].text == "invariant" || t[k].text == "precise") {
            ++k;
        } else {
            break;
        }
    }
    return k;
}

// End of the global statement starting at `i`: its ';' or the '{' that opens a body.
std::size_t statementEnd(const std::vector<Token>& t, std::size_t i) {
    while (i < t.size() && t[i].text != ";" && t[i].text != "{") ++i;
    return i;
}

// Calls `visit(start, end)` for every global statement; `end` is its ';' or '{'.
template<class F>
void forEachGlobalStatement(const std::vector<Token>& t, F&& visit) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (depth == 0 && i == start) visit(i, statementEnd(t, i));
        if (t[i].text == "{") ++depth;
        if (t[i].text == "}") --depth;
        if (depth == 0 && (t[i].text == ";" || t[i].text == "}")) start = i + 1;
    }
}

bool readsOtherElements(const std::string& name) {
    return name.starts_with("texture") || name.starts_with("texel") || name.starts_with("image") ||
           name.starts_with("atomic") || name == "interpolateAtCentroid";
}

ScalarKind kindOf(ComponentType t) {
    return t == ComponentType::Int32    ? ScalarKind::Int
           : t == ComponentType::UInt32 ? ScalarKind::UInt
                                        : ScalarKind::Float;
}

} // namespace

bool declaresSubstepUniform(const std::vector<Token>& t, std::size_t start, std::size_t end) {
    std::vector<std::string> words;
    for (std::size_t k = skipLeadingQualifiers(t, start, end); k < end; ++k)
        if (!kPrecision.count(t[k].text)) words.push_back(t[k].text);
    return words == std::vector<std::string>{"uniform", "int", std::string(kSubstepUniform)};
}

std::string substepFeedback(const ShaderInterface& shader, const PassPlan& pass, const CapturePlan& capture,
                            const std::function<std::string(const std::string&)>& inputName,
                            const std::function<std::string(const std::string&)>& varyingName,
                            const std::string& indent, std::string& refusal) {
    std::string out;
    for (const auto& a : pass.attributes) {
        auto o = std::find_if(pass.outputs.begin(), pass.outputs.end(),
                              [&](const OutputBinding& b) { return b.entry == a.entry; });
        if (o == pass.outputs.end()) continue; // a per-element constant: never written
        const Declaration* d = shader.findInput(a.input);
        const auto& fields = capture.buffers[std::size_t(o->binding)].fields;
        if (kindOf(a.type) != d->type.kind) {
            refusal = "input '" + a.input + "' converts " + std::string(componentTypeName(a.type)) + " data to " +
                      d->type.name + " when it is fetched, so its bytes are not the captured ones";
            return {};
        }
        for (int l = 0; l < a.locationCount; ++l)
            for (int c = 0; c < a.componentsPerLocation; ++c) {
                int word = a.offset / 4 + l * a.componentsPerLocation + c;
                auto f = std::find_if(fields.begin(), fields.end(), [&](const BufferField& x) {
                    return word >= x.offset / 4 && word < x.offset / 4 + x.components;
                });
                if (f == fields.end()) {
                    refusal = "input '" + a.input + "' reads bytes " + std::to_string(word * 4) + ".." +
                              std::to_string(word * 4 + 3) + " of entry #" + std::to_string(a.entry) +
                              ", which no captured varying writes: a step reads what the output buffer held before";
                    return {};
                }
                const CapturedVarying& v = *std::find_if(capture.varyings.begin(), capture.varyings.end(),
                                                         [&](auto& x) { return x.name == f->varying; });
                // Component `vc` of the flattened varying; a partial field starts at its firstComponent.
                const std::string source = plan::componentExpression(varyingName(v.name), v.type, v.arraySize > 0,
                                                                     word - f->offset / 4 + f->firstComponent);
                std::string target = inputName(d->name);
                if (d->arraySize > 0)
                    target += "[" + std::to_string(d->type.isMatrix() ? l / d->type.columns : l) + "]";
                if (d->type.isMatrix()) target += "[" + std::to_string(l % d->type.columns) + "]";
                if (d->type.rows > 1) target += "[" + std::to_string(c) + "]";
                out += indent + target + " = " + source + ";\n"; // planPass matched the kinds
            }
    }
    return out;
}

} // namespace plan

using plan::Token;

FusionDecision checkElementLocal(std::string_view vertexSource, const ReadOptions& read) {
    const std::string modern = toGlslEs300(vertexSource);
    const ShaderInterface shader = readShaderInterface(modern, read);
    const plan::PreprocessedSource pre = plan::preprocess(modern, read.defines);
    for (const auto& u : shader.uniforms)
        if (u.type.kind == ScalarKind::Opaque)
            return {false, "line " + std::to_string(u.line) + ": uniform '" + u.name + "' is a " + u.type.name +
                               ": what an element reads through it may be another element's state, which changes "
                               "between substeps"};
    const auto& t = pre.tokens;
    for (std::size_t i = 0; i + 1 < t.size(); ++i)
        if (t[i].kind == plan::TokenKind::Identifier && t[i + 1].text == "(" && plan::readsOtherElements(t[i].text))
            return {false, "line " + std::to_string(t[i].line) + ": '" + t[i].text +
                               "()' reads memory that other elements write"};
    std::string refusal;
    plan::forEachGlobalStatement(t, [&](std::size_t start, std::size_t end) {
        if (!refusal.empty()) return;
        std::size_t k = plan::skipLeadingQualifiers(t, start, end);
        if (k < end && t[k].text == "buffer") {
            refusal =
                "line " + std::to_string(t[k].line) + ": a shader storage buffer is memory that other elements write";
            return;
        }
        if (end >= t.size() || t[end].text != ";") return; // functions, structs, blocks
        if (k >= end || t[k].text == "precision" || t[k].text.starts_with("gl_")) return;
        bool mentionsSubstep = std::any_of(t.begin() + long(start), t.begin() + long(end),
                                           [](const Token& x) { return x.text == kSubstepUniform; });
        if (mentionsSubstep && !plan::declaresSubstepUniform(t, start, end)) {
            refusal = "line " + std::to_string(t[k].line) + ": the built-in '" + std::string(kSubstepUniform) +
                      "' must be declared alone as `uniform int xfb_substep;`";
            return;
        }
        if (plan::kStorage.count(t[k].text) || k + 1 >= end) return;
        // `type name (` is a prototype; `type name ;`, `= ...` or `[...]` a global variable.
        if (k + 2 < end && t[k + 2].text == "(") return;
        refusal = "line " + std::to_string(t[k + 1].line) + ": global variable '" + t[k + 1].text +
                  "' would keep its value from one substep to the next; declare it inside main() or make it const";
    });
    if (!refusal.empty()) return {false, refusal};
    return {true, "element-local: each element reads only its own attributes, constants, uniforms and gl_VertexID"};
}

FusionDecision checkFusion(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                           const CapturePlan& capture, bool hasEmittedOutputs) {
    FusionDecision local = checkElementLocal(vertexSource, read);
    if (!local.fused) return local;
    if (hasEmittedOutputs) return {false, "emitted outputs are counted and ordered per step, between passes"};
    const ShaderInterface shader = readShaderInterface(toGlslEs300(vertexSource), read);
    std::string refusal;
    auto same = [](const std::string& n) { return n; };
    plan::substepFeedback(shader, pass, capture, same, same, "", refusal);
    if (!refusal.empty()) return {false, refusal};
    return {true, "element-local, and every state input is fed by a captured varying: k substeps run in one pass"};
}

std::string fuseVertexShader(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                             const CapturePlan& capture, int substeps) {
    if (substeps < 1) throw Error(ErrorCode::InvalidArgument, "substeps must be >= 1, got " + std::to_string(substeps));
    FusionDecision decision = checkFusion(vertexSource, read, pass, capture);
    if (!decision.fused)
        throw Error(ErrorCode::InvalidArgument, "the substeps of this shader cannot be fused: " + decision.reason);
    const std::string modern = toGlslEs300(vertexSource);
    const ShaderInterface shader = readShaderInterface(modern, read);
    const plan::PreprocessedSource pre = plan::preprocess(modern, read.defines);
    auto stateName = [](const std::string& input) { return "xfb_state_" + input; };
    bool hasSubstep = false;

    // The user's code with its line numbers: inputs stay attributes, every other use of an input
    // reads its private copy xfb_state_<name>, main() becomes xfb_user_main().
    std::string body;
    int line = 1;
    auto emit = [&](const Token& tok, const std::string& text) {
        if (tok.line > line)
            body.append(std::size_t(tok.line - line), '\n'), line = tok.line;
        else if (!body.empty() && body.back() != '\n')
            body += ' ';
        body += text;
    };
    const auto& t = pre.tokens;
    std::set<std::size_t> skipped, verbatim;
    std::map<std::size_t, std::string> afterToken; // the private copies, declared after their input
    plan::forEachGlobalStatement(t, [&](std::size_t start, std::size_t end) {
        if (end >= t.size() || t[end].text != ";") return;
        if (plan::declaresSubstepUniform(t, start, end)) {
            hasSubstep = true;
            for (std::size_t k = start; k <= end; ++k) skipped.insert(k);
            return;
        }
        std::size_t k = plan::skipLeadingQualifiers(t, start, end);
        while (k < end && plan::kStorage.count(t[k].text) && t[k].text != "in") ++k;
        if (k >= end || t[k].text != "in") return;
        for (std::size_t q = start; q <= end; ++q) verbatim.insert(q);
        for (const auto& d : shader.inputs)
            if (std::any_of(t.begin() + long(start), t.begin() + long(end),
                            [&](const Token& x) { return x.text == d.name; }))
                afterToken[end] += " " + d.type.name + " " + stateName(d.name) +
                                   (d.arraySize > 0 ? "[" + std::to_string(d.arraySize) + "]" : "") + ";";
    });
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (skipped.count(i)) continue;
        std::string text = t[i].text;
        bool member = i > 0 && t[i - 1].text == ".";
        if (!verbatim.count(i) && t[i].kind == plan::TokenKind::Identifier && !member && shader.findInput(text))
            text = stateName(text);
        if (text == "main" && i + 1 < t.size() && t[i + 1].text == "(") text = "xfb_user_main";
        emit(t[i], text);
        if (auto it = afterToken.find(i); it != afterToken.end()) body += it->second;
    }

    std::string header = "#version " + std::to_string(pre.version) + (pre.es && pre.version != 100 ? " es" : "") + "\n";
    for (const auto& d : pre.passThrough) header += d + "\n";
    if (hasSubstep) header += "int xfb_substep;\n";
    std::string refusal;
    auto same = [](const std::string& n) { return n; };
    std::string feedback = plan::substepFeedback(shader, pass, capture, stateName, same, "        ", refusal);
    const plan::ZeroCode zero = plan::zeroOutputs(shader, capture, "        ");
    std::string main = "\n" + zero.functions + "void main() {\n";
    for (const auto& d : shader.inputs) main += "    " + stateName(d.name) + " = " + d.name + ";\n";
    main += "    for (int xfb_s = 0; xfb_s < " + std::to_string(substeps) + "; ++xfb_s) {\n";
    if (hasSubstep) main += "        xfb_substep = xfb_s;\n";
    // Every substep starts from zeroed outputs, as k separate steps would (vertex_wrapper.hpp).
    main += zero.statements + "        xfb_user_main();\n" + feedback + "    }\n}\n";
    return header + "#line 1\n" + body + "\n" + main;
}

} // namespace xfb
