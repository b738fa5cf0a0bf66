#include "xfb/fragment_translation.hpp"

#include "fusion_source.hpp"
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
    if (options.textureWidth < 1 || options.maxDrawBuffers < 1)
        throw Error(ErrorCode::InvalidArgument, "the fragment translation needs a texture width and a number of draw "
                                                "buffers >= 1, got " +
                                                    std::to_string(options.textureWidth) + " and " +
                                                    std::to_string(options.maxDrawBuffers));
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
                result.keptSampler[o] = "xfb_kept" + std::to_string(o);
                words[o][w] = "xfb_word(" + result.keptSampler[o] + ", xfb_e * " + std::to_string(out.stride / 4) +
                              " + " + std::to_string(w) + ")";
            }
    }

    // One texture width for the pipeline: the widest buffer's texels, at most the option.
    std::int64_t widest = 1;
    for (const auto& a : pass.attributes) widest = std::max(widest, (std::int64_t(a.stride) * count / 4 + 3) / 4);
    for (const auto& o : pass.outputs) widest = std::max(widest, (std::int64_t(o.stride) * count / 4 + 3) / 4);
    const int T = int(std::min<std::int64_t>(options.textureWidth, widest));
    result.textureWidth = T;
    const std::string Ts = std::to_string(T);

    // The dialect of the user's source, so that what it uses compiles: GLSL ES from 3.00 (GL 4.3+
    // accepts ES 3.00 sources, ARB_ES3_compatibility), desktop GLSL from 3.30 (fragment outputs
    // with locations, uintBitsToFloat).
    const std::string version = pre.es ? "#version " + std::to_string(std::max(pre.version, 300)) + " es\n"
                                       : "#version " + std::to_string(std::max(pre.version, 330)) + "\n";
    result.vertexSource = version +
                          "void main() {\n"
                          "    gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1), "
                          "0.0, 1.0);\n}\n";

    std::string header = version;
    for (const auto& d : pre.passThrough) header += d + "\n";
    // Fragment shaders default int to mediump and have no float default: the vertex stage's highp.
    if (pre.es) header += "precision highp float;\nprecision highp int;\nprecision highp usampler2D;\n";
    result.inputSampler.assign(entryCount, std::string());
    for (const auto& a : pass.attributes) {
        std::string& s = result.inputSampler[std::size_t(a.entry)];
        if (s.empty()) {
            s = "xfb_in" + std::to_string(a.entry);
            header += "uniform highp usampler2D " + s + ";\n";
        }
    }
    for (const auto& s : result.keptSampler)
        if (!s.empty()) header += "uniform highp usampler2D " + s + ";\n";
    header += "const int xfb_count = " + std::to_string(count) +
              ";\n"
              // Word w (texel w / 4, component w % 4) and texel q of a buffer's texture.
              "uint xfb_word(highp usampler2D t, int w) {\n"
              "    int q = w >> 2;\n"
              "    return texelFetch(t, ivec2(q % " +
              Ts + ", q / " + Ts +
              "), 0)[w & 3];\n}\n"
              "uvec4 xfb_quad(highp usampler2D t, int q) {\n"
              "    return texelFetch(t, ivec2(q % " +
              Ts + ", q / " + Ts + "), 0);\n}\n" + std::string(plan::kRenamedBuiltins);
    if (translated.substepDeclared) header += "int xfb_substep;\n";

    // Element xfb_i's work: its inputs from their textures, the user's main (substeps).
    plan::WordLoader load;
    load.word = [&](const AttributeBinding& a, int w) {
        return "xfb_word(" + result.inputSampler[std::size_t(a.entry)] + ", xfb_i * " + std::to_string(a.stride / 4) +
               " + " + std::to_string(w) + ")";
    };
    load.quad = [&](const AttributeBinding& a, int w) {
        if (a.stride % 16 != 0 || w % 4 != 0) return std::string();
        return "xfb_quad(" + result.inputSampler[std::size_t(a.entry)] + ", xfb_i * " + std::to_string(a.stride / 16) +
               " + " + std::to_string(w / 4) + ")";
    };
    std::string zeroFunctions;
    const std::string work = plan::elementWork(translated, pass, capture, load, zeroFunctions);
    const std::string run = "void xfb_run(int xfb_i) {\n    xfb_vertex_id = xfb_i;\n" + work + "}\n";

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
        if (!quads)
            if (const plan::Token* g = plan::firstMutableGlobal(pre.tokens))
                throw Error(ErrorCode::Unsupported,
                            "line " + std::to_string(g->line) + ": global variable '" + g->text +
                                "' would keep its value from one element to the next in the fragment backend, where a "
                                "texel of a " +
                                std::to_string(S * 4) +
                                "-byte record holds words of two elements; declare it inside main() or make it const");
        std::string outputs, functions;
        for (std::size_t j = 0; j < p.outputs.size(); ++j) {
            const std::string n = std::to_string(j);
            const auto& w = words[std::size_t(p.outputs[j])];
            outputs += "layout(location = " + n + ") out highp uvec4 xfb_o" + n + ";\n";
            // Texel q of an element (quads), or word w of it: a switch over the record's layout.
            std::string cases;
            if (quads) {
                for (int q = 0; q < S / 4; ++q)
                    cases += "    case " + std::to_string(q) + ": return uvec4(" + w[std::size_t(4 * q)] + ", " +
                             w[std::size_t(4 * q + 1)] + ", " + w[std::size_t(4 * q + 2)] + ", " +
                             w[std::size_t(4 * q + 3)] + ");\n";
                functions += "uvec4 xfb_out" + n + "(int xfb_e, int q) {\n    switch (q) {\n" + cases +
                             "    }\n    return uvec4(0u);\n}\n";
            } else {
                for (int k = 0; k < S; ++k)
                    cases += "    case " + std::to_string(k) + ": return " + w[std::size_t(k)] + ";\n";
                functions += "uint xfb_out" + n + "(int xfb_e, int w) {\n    switch (w) {\n" + cases +
                             "    }\n    return 0u;\n}\n";
            }
        }
        std::string main = "void main() {\n    int xfb_k = int(gl_FragCoord.y) * " + Ts + " + int(gl_FragCoord.x);\n";
        if (quads) {
            // One element per texel: its texel q of S / 4.
            const std::string Q = std::to_string(S / 4);
            main += "    int xfb_e = " + (S == 4 ? std::string("xfb_k") : "xfb_k / " + Q) +
                    ";\n    if (xfb_e >= xfb_count) {\n";
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                main += "        xfb_o" + std::to_string(j) + " = uvec4(0u);\n";
            main += "        return;\n    }\n    xfb_run(xfb_e);\n";
            const std::string q = S == 4 ? "0" : "xfb_k - xfb_e * " + Q;
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                main += "    xfb_o" + std::to_string(j) + " = xfb_out" + std::to_string(j) + "(xfb_e, " + q + ");\n";
        } else {
            // Words 4k..4k+3 belong to one to four elements: each runs, and gives the words it holds.
            const std::string Sw = std::to_string(S);
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                main += "    uvec4 xfb_r" + std::to_string(j) + " = uvec4(0u);\n";
            main += "    int xfb_last = min((4 * xfb_k + 3) / " + Sw +
                    ", xfb_count - 1);\n"
                    "    for (int xfb_e = (4 * xfb_k) / " +
                    Sw +
                    "; xfb_e <= xfb_last; ++xfb_e) {\n"
                    "        xfb_run(xfb_e);\n"
                    "        int xfb_w = 4 * xfb_k - xfb_e * " +
                    Sw + ";\n";
            for (int c = 0; c < 4; ++c) {
                const std::string w = c ? "xfb_w + " + std::to_string(c) : std::string("xfb_w");
                main += "        if (" + w + " >= 0 && " + w + " < " + Sw + ") {\n";
                for (std::size_t j = 0; j < p.outputs.size(); ++j)
                    main += "            xfb_r" + std::to_string(j) + "[" + std::to_string(c) + "] = xfb_out" +
                            std::to_string(j) + "(xfb_e, " + w + ");\n";
                main += "        }\n";
            }
            main += "    }\n";
            for (std::size_t j = 0; j < p.outputs.size(); ++j)
                main += "    xfb_o" + std::to_string(j) + " = xfb_r" + std::to_string(j) + ";\n";
        }
        main += "}\n";
        p.source = header + outputs + "#line 1\n" + translated.body + "\n" + zeroFunctions + run + functions + main;
    }
    return result;
}

} // namespace xfb
