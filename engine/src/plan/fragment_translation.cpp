#include "xfb/fragment_translation.hpp"

#include "fusion_source.hpp"
#include "text.hpp"
#include "translated_source.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {

TexelLayout texelLayout(std::uint64_t bytes, int width) {
    TexelLayout l;
    l.words = std::int64_t(bytes / 4);
    l.texels = (l.words + 3) / 4;
    l.width = width;
    l.rows = int((l.texels + width - 1) / width);
    const std::int64_t whole = l.words / 4;
    l.fullRows = int(whole / width);
    l.lastRowTexels = int(whole % width);
    l.tailWords = int(l.words % 4);
    return l;
}

FragmentShader translateToFragment(std::string_view vertexSource, const ReadOptions& read, const PassPlan& pass,
                                   const CapturePlan& capture, std::size_t entryCount,
                                   const FragmentTranslationOptions& options) {
    using plan::cat;
    using std::to_string;
    if (options.textureWidth < 1 || options.maxDrawBuffers < 1)
        throw Error(ErrorCode::InvalidArgument,
                    cat({"the fragment translation needs a texture width and a number of draw buffers >= 1, got ",
                         to_string(options.textureWidth), " and ", to_string(options.maxDrawBuffers)}));
    const plan::TranslatedSource translated =
        plan::translateSource(vertexSource, read, pass, capture, options.substeps, false, "fragment shader");
    const plan::PreprocessedSource& pre = translated.pre;
    const std::int64_t count = pass.count;

    // Every output word of every buffer: a captured component, or a gap of a declared layout, which
    // transform feedback leaves as it was: a texel is written whole, so a gap word is the buffer's own,
    // read from a copy of it (its `kept` texture).
    FragmentShader result;
    result.keptSampler.assign(pass.outputs.size(), std::string());
    std::vector<std::vector<std::string>> words(pass.outputs.size());
    for (std::size_t o = 0; o < pass.outputs.size(); ++o) {
        const OutputBinding& out = pass.outputs[o];
        words[o].assign(std::size_t(out.stride / 4), std::string());
        for (const auto& f : capture.buffers[std::size_t(out.binding)].fields)
            for (int c = 0; c < f.components; ++c)
                words[o][std::size_t(f.offset / 4 + c)] = plan::capturedWordBits(capture, f, c);
        for (std::size_t w = 0; w < words[o].size(); ++w)
            if (words[o][w].empty()) {
                result.keptSampler[o] = cat({"xfb_kept", to_string(o)});
                words[o][w] = cat({"xfb_word(", result.keptSampler[o], ", xfb_e * ", to_string(out.stride / 4), "u + ",
                                   to_string(w), "u)"});
            }
    }

    // One texture width for the pipeline: the widest buffer's texels, at most the option.
    std::int64_t widest = 1;
    for (const auto& a : pass.attributes) widest = std::max(widest, (std::int64_t(a.stride) * count / 4 + 3) / 4);
    for (const auto& o : pass.outputs) widest = std::max(widest, (std::int64_t(o.stride) * count / 4 + 3) / 4);
    // A power of two (the widest buffer's texels rounded up, at most the option's power of two):
    // texel q is then (q & (T - 1), q >> log2 T). Measured in SwiftShader (the generated pass of a
    // 32-byte record at 2M texels, draw only): unsigned shifts and masks instead of signed / and %
    // took the pass from 39 to 26.5 ms.
    int T = 1, shift = 0;
    while (T * 2 <= options.textureWidth && T < widest) T *= 2, ++shift;
    result.textureWidth = T;
    const std::string mask = cat({to_string(T - 1), "u"}), log2 = to_string(shift);

    // The dialect of the user's source, so that what it uses compiles: GLSL ES from 3.00 (GL 4.3+
    // accepts ES 3.00 sources, ARB_ES3_compatibility), desktop GLSL from 3.30 (fragment outputs
    // with locations, uintBitsToFloat).
    const std::string version =
        cat({"#version ", to_string(std::max(pre.version, pre.es ? 300 : 330)), pre.es ? " es\n" : "\n"});
    result.vertexSource = cat({version, "void main() {\n    gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), "
                                        "float((gl_VertexID & 2) * 2 - 1), 0.0, 1.0);\n}\n"});

    std::string header = version;
    for (const auto& d : pre.passThrough) cat(header, {d, "\n"});
    // Fragment shaders default int to mediump and have no float default: the vertex stage's highp.
    if (pre.es) header += "precision highp float;\nprecision highp int;\nprecision highp usampler2D;\n";
    result.inputSampler.assign(entryCount, std::string());
    for (const auto& a : pass.attributes) {
        std::string& s = result.inputSampler[std::size_t(a.entry)];
        if (s.empty()) {
            s = cat({"xfb_in", to_string(a.entry)});
            cat(header, {"uniform highp usampler2D ", s, ";\n"});
        }
    }
    for (const auto& s : result.keptSampler)
        if (!s.empty()) cat(header, {"uniform highp usampler2D ", s, ";\n"});
    // Word w (texel w / 4, component w % 4) and texel q of a buffer's texture.
    cat(header, {"const uint xfb_count = ", to_string(count),
                 "u;\nuint xfb_word(highp usampler2D t, uint w) {\n    uint q = w >> 2;\n    return texelFetch(t, "
                 "ivec2(q & ",
                 mask, ", q >> ", log2,
                 "), 0)[w & 3u];\n}\nuvec4 xfb_quad(highp usampler2D t, uint q) {\n    return texelFetch(t, ivec2(q & ",
                 mask, ", q >> ", log2, "), 0);\n}\n", plan::kRenamedBuiltins});
    if (translated.substepDeclared) header += "int xfb_substep;\n";

    // Element xfb_i's work: its inputs from their textures, the user's main (substeps).
    plan::WordLoader load;
    load.word = [&](const AttributeBinding& a, int w) {
        return cat({"xfb_word(", result.inputSampler[std::size_t(a.entry)], ", xfb_i * ", to_string(a.stride / 4),
                    "u + ", to_string(w), "u)"});
    };
    load.quad = [&](const AttributeBinding& a, int w) {
        if (a.stride % 16 != 0 || w % 4 != 0) return std::string();
        return cat({"xfb_quad(", result.inputSampler[std::size_t(a.entry)], ", xfb_i * ", to_string(a.stride / 16),
                    "u + ", to_string(w / 4), "u)"});
    };
    std::string zeroFunctions;
    const std::string run = cat({"void xfb_run(uint xfb_i) {\n    xfb_vertex_id = int(xfb_i);\n",
                                 plan::elementWork(translated, pass, capture, load, zeroFunctions), "}\n"});

    // Passes: output buffers grouped by stride, at most maxDrawBuffers a pass.
    for (std::size_t o = 0; o < pass.outputs.size(); ++o) {
        const int stride = pass.outputs[o].stride / 4;
        auto it = std::find_if(result.passes.begin(), result.passes.end(), [&](const FragmentPass& p) {
            return p.strideWords == stride && int(p.outputs.size()) < options.maxDrawBuffers;
        });
        if (it == result.passes.end()) {
            FragmentPass p;
            p.strideWords = stride;
            p.layout = texelLayout(std::uint64_t(pass.outputs[o].stride) * std::uint64_t(count), T);
            result.passes.push_back(std::move(p));
            it = result.passes.end() - 1;
        }
        it->outputs.push_back(int(o));
    }
    for (auto& p : result.passes) {
        const int S = p.strideWords;
        const bool quads = S % 4 == 0;
        const std::string Sw = cat({to_string(S), "u"});
        if (!quads)
            if (const plan::Token* g = plan::firstMutableGlobal(pre.tokens))
                throw Error(
                    ErrorCode::Unsupported,
                    cat({"line ", to_string(g->line), ": global variable '", g->text,
                         "' would keep its value from one element to the next in the fragment backend, where "
                         "a texel of a ",
                         to_string(S * 4),
                         "-byte record holds words of two elements; declare it inside main() or make it const"}));
        std::string outputs, functions;
        for (std::size_t j = 0; j < p.outputs.size(); ++j) {
            const std::string n = to_string(j);
            const auto& w = words[std::size_t(p.outputs[j])];
            cat(outputs, {"layout(location = ", n, ") out highp uvec4 xfb_o", n, ";\n"});
            // Texel q of an element (quads: a chain of selects, measured as fast as an inline
            // switch in SwiftShader and faster than a switch in a function), or word w of it.
            if (quads) {
                auto quad = [&](int q) {
                    return cat({"uvec4(", w[std::size_t(4 * q)], ", ", w[std::size_t(4 * q + 1)], ", ",
                                w[std::size_t(4 * q + 2)], ", ", w[std::size_t(4 * q + 3)], ")"});
                };
                std::string chain = quad(S / 4 - 1);
                for (int q = S / 4 - 2; q >= 0; --q)
                    chain = cat({"q == ", to_string(q), "u ? ", quad(q), " : (", chain, ")"});
                cat(functions, {"uvec4 xfb_out", n, "(uint xfb_e, uint q) {\n    return ", chain, ";\n}\n"});
            } else {
                cat(functions, {"uint xfb_out", n, "(uint xfb_e, uint w) {\n    switch (w) {\n"});
                for (int k = 0; k < S; ++k)
                    cat(functions, {"    case ", to_string(k), "u: return ", w[std::size_t(k)], ";\n"});
                functions += "    }\n    return 0u;\n}\n";
            }
        }
        std::string main =
            cat({"void main() {\n    uint xfb_k = (uint(gl_FragCoord.y) << ", log2, ") | uint(gl_FragCoord.x);\n"});
        if (quads) {
            // One element per texel: its texel q of S / 4. Texels past the buffer's end (in its last
            // row) run the last element again (its inputs stay inside every texture; a branch
            // around the run measured 7% slower in SwiftShader) and are never read back.
            const int Q = S / 4;
            int qShift = -1;
            for (int b = 0; b < 31; ++b)
                if (Q == 1 << b) qShift = b;
            const std::string e = Q == 1       ? std::string("xfb_k")
                                  : qShift > 0 ? cat({"xfb_k >> ", to_string(qShift)})
                                               : cat({"xfb_k / ", to_string(Q), "u"});
            const std::string q = Q == 1       ? std::string("0u")
                                  : qShift > 0 ? cat({"xfb_k & ", to_string(Q - 1), "u"})
                                               : cat({"xfb_k - xfb_e * ", to_string(Q), "u"});
            cat(main, {"    uint xfb_e = ", e, ";\n    xfb_run(min(xfb_e, xfb_count - 1u));\n"});
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                cat(main, {"    xfb_o", to_string(j), " = xfb_out", to_string(j), "(xfb_e, ", q, ");\n"});
        } else {
            // Words 4k..4k+3 belong to one to four elements: each runs, and gives the words it holds.
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                cat(main, {"    uvec4 xfb_r", to_string(j), " = uvec4(0u);\n"});
            cat(main,
                {"    uint xfb_last = min((4u * xfb_k + 3u) / ", Sw,
                 ", xfb_count - 1u);\n    for (uint xfb_e = (4u * xfb_k) / ", Sw,
                 "; xfb_e <= xfb_last; ++xfb_e) {\n        xfb_run(xfb_e);\n        int xfb_w = int(4u * xfb_k) - "
                 "int(xfb_e * ",
                 Sw, ");\n"});
            for (int c = 0; c < 4; ++c) {
                const std::string w = c ? cat({"xfb_w + ", to_string(c)}) : std::string("xfb_w");
                cat(main, {"        if (", w, " >= 0 && ", w, " < ", to_string(S), ") {\n"});
                for (std::size_t j = 0; j < p.outputs.size(); ++j)
                    cat(main, {"            xfb_r", to_string(j), "[", to_string(c), "] = xfb_out", to_string(j),
                               "(xfb_e, uint(", w, "));\n"});
                main += "        }\n";
            }
            main += "    }\n";
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                cat(main, {"    xfb_o", to_string(j), " = xfb_r", to_string(j), ";\n"});
        }
        main += "}\n";
        p.source = cat({header, outputs, "#line 1\n", translated.body, "\n", zeroFunctions, run, functions, main});
    }
    return result;
}

} // namespace xfb
