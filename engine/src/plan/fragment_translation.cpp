#include "xfb/fragment_translation.hpp"

#include "histopyramid_translation.hpp"
#include "text.hpp"
#include "translated_source.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {

namespace {

void requireWidth(int width, const char* what) {
    if (width < 1)
        throw Error(ErrorCode::InvalidArgument,
                    plan::cat({what, ": a width of ", std::to_string(width), " texels; give 1 or more"}));
}

} // namespace

TexelLayout texelLayout(std::uint64_t bytes, int width) {
    requireWidth(width, "texelLayout");
    TexelLayout l;
    l.words = std::int64_t(bytes / 4);
    l.texels = (l.words + 3) / 4;
    l.width = width;
    l.rows = int((l.texels + width - 1) / width);
    l.tailWords = int(l.words % 4);
    return l;
}

PlaneLayout planeLayout(int strideBytes, std::int64_t count, int width) {
    requireWidth(width, "planeLayout");
    PlaneLayout l;
    l.strideWords = strideBytes / 4;
    l.planes = (l.strideWords + 3) / 4;
    l.count = count;
    l.width = width;
    l.rows = int(std::max<std::int64_t>(1, (count + width - 1) / width));
    return l;
}

namespace {

int log2Of(int powerOfTwo) {
    int shift = 0;
    while ((1 << shift) < powerOfTwo) ++shift;
    return shift;
}

// Element xfb_e of the fragment (its texel), and the texture coordinate of that texel in every
// plane. Measured in SwiftShader (docs/performance.md): texture() at the fragment's coordinate read
// twice as fast as texelFetch at the same texel; NEAREST filtering keeps every word exact.
std::string fragmentElement(int width, int rows) {
    return plan::cat({"    uint xfb_e = (uint(gl_FragCoord.y) << ", std::to_string(log2Of(width)),
                      ") | uint(gl_FragCoord.x);\n    xfb_uv = gl_FragCoord.xy / vec2(", std::to_string(width), ".0, ",
                      std::to_string(rows), ".0);\n"});
}

std::string planeSampler(const char* prefix, std::size_t index, int plane) {
    return plan::cat({prefix, std::to_string(index), "_", std::to_string(plane)});
}

} // namespace

PlaneCopyShaders planeCopyShaders(const PlaneLayout& l, int maxDrawBuffers, std::string_view version) {
    using plan::cat;
    using std::to_string;
    if (maxDrawBuffers < 1 || l.strideWords < 1 || l.planes != (l.strideWords + 3) / 4 || l.count < 1 || l.width < 1 ||
        (l.width & (l.width - 1)) || l.rows < 1)
        throw Error(ErrorCode::InvalidArgument,
                    "planeCopyShaders: give a layout planeLayout() made (a record or more, a power-of-two width) "
                    "and 1 or more draw buffers");
    const int S = l.strideWords, T = l.width;
    const std::string mask = cat({to_string(T - 1), "u"}), log2 = to_string(log2Of(T)), Sw = cat({to_string(S), "u"});
    const std::string texel = cat({"ivec2(int(q & ", mask, "), int(q >> ", log2, "))"});
    PlaneCopyShaders out;
    // Spread: record e's plane p from words e*S + 4p .. of the linear texture (0 past the record).
    const std::string spreadHead = cat({std::string(version),
                                        "uniform highp usampler2D xfb_linear;\nvec2 xfb_uv;\nuint xfb_word(uint w) {\n "
                                        "   uint q = w >> 2;\n    return texelFetch(xfb_linear, ",
                                        texel, ", 0)[w & 3u];\n}\n"});
    for (int first = 0; first < l.planes; first += maxDrawBuffers) {
        std::string s = spreadHead, main;
        for (int p = first; p < std::min(l.planes, first + maxDrawBuffers); ++p) {
            const std::string j = to_string(p - first);
            cat(s, {"layout(location = ", j, ") out highp uvec4 xfb_o", j, ";\n"});
            std::string words;
            for (int c = 0; c < 4; ++c) {
                const int w = 4 * p + c;
                cat(words, {c ? ", " : "", w < S ? cat({"xfb_word(xfb_b + ", to_string(w), "u)"}) : std::string("0u")});
            }
            cat(main, {"    xfb_o", j, " = uvec4(", words, ");\n"});
        }
        cat(s, {"void main() {\n", fragmentElement(T, l.rows), "    uint xfb_b = min(xfb_e, ", to_string(l.count - 1),
                "u) * ", Sw, ";\n", main, "}\n"});
        out.spread.push_back(std::move(s));
    }
    // Gather: linear texel t's words 4t .. 4t + 3, each from its record's plane.
    std::string g = std::string(version);
    for (int p = 0; p < l.planes; ++p) cat(g, {"uniform highp usampler2D xfb_plane", to_string(p), ";\n"});
    std::string select = cat({"texelFetch(xfb_plane", to_string(l.planes - 1), ", c, 0)"});
    for (int p = l.planes - 2; p >= 0; --p)
        select = cat({"p == ", to_string(p), "u ? texelFetch(xfb_plane", to_string(p), ", c, 0) : ", select});
    cat(g, {"layout(location = 0) out highp uvec4 xfb_o0;\nuint xfb_word(uint w) {\n    uint e = w / ", Sw,
            ", k = w - e * ", Sw, ", p = k >> 2, q = min(e, ", to_string(l.count - 1), "u);\n    ivec2 c = ", texel,
            ";\n    return (", select, ")[k & 3u];\n}\nvoid main() {\n    uint t = (uint(gl_FragCoord.y) << ", log2,
            ") | uint(gl_FragCoord.x), w = 4u * t;\n    xfb_o0 = uvec4(xfb_word(w), xfb_word(w + 1u), "
            "xfb_word(w + 2u), xfb_word(w + 3u));\n}\n"});
    out.gather = std::move(g);
    return out;
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
    const bool emits = options.emits && !options.emits->empty();
    const plan::TranslatedSource translated =
        plan::translateSource(vertexSource, read, pass, capture, options.substeps, emits, "fragment shader");
    const plan::PreprocessedSource& pre = translated.pre;
    const std::int64_t count = pass.count;
    FragmentShader result;

    // One texture width for the pipeline, a power of two (texel q is (q & (T - 1), q >> log2 T)),
    // at most the option: the elements of a row of planes, the texels of a row of a linear texture.
    std::int64_t widest = std::max<std::int64_t>(1, count);
    for (const auto& a : pass.attributes) widest = std::max(widest, (std::int64_t(a.stride) * count / 4 + 3) / 4);
    for (const auto& o : pass.outputs) widest = std::max(widest, (std::int64_t(o.stride) * count / 4 + 3) / 4);
    if (emits) // an emitted output's planes hold its capacity, one record a texel
        for (const auto& o : options.emits->outputs) widest = std::max(widest, o.capacity);
    int T = 1;
    while (T * 2 <= options.textureWidth && T < widest) T *= 2;
    result.textureWidth = T;
    result.rows = planeLayout(4, count, T).rows;

    // Every output word of every buffer: a captured component, or a gap of a declared layout, which
    // transform feedback leaves as it was: a texel is written whole, so a gap word is the buffer's own,
    // read from its plane as it was before the step (a `kept` sampler).
    result.keptSamplers.resize(pass.outputs.size());
    std::vector<std::vector<std::string>> words(pass.outputs.size());
    for (std::size_t o = 0; o < pass.outputs.size(); ++o) {
        const OutputBinding& out = pass.outputs[o];
        const int S = out.stride / 4;
        words[o].assign(std::size_t(4 * ((S + 3) / 4)), std::string("0u"));
        result.keptSamplers[o].assign(std::size_t((S + 3) / 4), std::string());
        for (int w = 0; w < S; ++w) words[o][std::size_t(w)].clear();
        for (const auto& f : capture.buffers[std::size_t(out.binding)].fields)
            for (int c = 0; c < f.components; ++c)
                words[o][std::size_t(f.offset / 4 + c)] = plan::capturedWordBits(capture, f, c);
        for (int w = 0; w < S; ++w)
            if (words[o][std::size_t(w)].empty()) {
                std::string& kept = result.keptSamplers[o][std::size_t(w / 4)];
                kept = planeSampler("xfb_kept", o, w / 4);
                words[o][std::size_t(w)] = cat({"texture(", kept, ", xfb_uv)[", to_string(w % 4), "]"});
            }
    }

    // The dialect of the user's source, so that what it uses compiles: GLSL ES from 3.00 (GL 4.3+
    // accepts ES 3.00 sources, ARB_ES3_compatibility), desktop GLSL from 3.30 (fragment outputs
    // with locations, uintBitsToFloat). Fragment shaders default int to mediump and have no float
    // default: the vertex stage's highp.
    result.version = cat({"#version ", to_string(std::max(pre.version, pre.es ? 300 : 330)), pre.es ? " es\n" : "\n",
                          pre.es ? "precision highp float;\nprecision highp int;\nprecision highp usampler2D;\n" : ""});
    result.vertexSource =
        cat({"#version ", to_string(std::max(pre.version, pre.es ? 300 : 330)), pre.es ? " es\n" : "\n",
             "void main() {\n    gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), "
             "float((gl_VertexID & 2) * 2 - 1), 0.0, 1.0);\n}\n"});

    std::string header = result.version;
    for (const auto& d : pre.passThrough) cat(header, {d, "\n"});
    // The planes the attributes read: a sampler each.
    result.inputSamplers.resize(entryCount);
    for (const auto& a : pass.attributes) {
        auto& planes = result.inputSamplers[std::size_t(a.entry)];
        planes.resize(std::size_t((a.stride / 4 + 3) / 4));
        const int words = a.locationCount * a.componentsPerLocation;
        for (int w = a.offset / 4; w < a.offset / 4 + words; ++w) {
            std::string& s = planes[std::size_t(w / 4)];
            if (s.empty()) s = planeSampler("xfb_in", std::size_t(a.entry), w / 4);
        }
    }
    for (const auto* list : {&result.inputSamplers, &result.keptSamplers})
        for (const auto& planes : *list)
            for (const auto& s : planes)
                if (!s.empty()) cat(header, {"uniform highp usampler2D ", s, ";\n"});
    cat(header, {"const uint xfb_count = ", to_string(count), "u;\nvec2 xfb_uv;\n", plan::kRenamedBuiltins});
    if (translated.substepDeclared) header += "int xfb_substep;\n";

    // Element xfb_i's work: its inputs from its texel of their planes, the user's main (substeps).
    plan::WordLoader load;
    load.word = [&](const AttributeBinding& a, int w) {
        return cat({"texture(", result.inputSamplers[std::size_t(a.entry)][std::size_t(w / 4)], ", xfb_uv)[",
                    to_string(w % 4), "]"});
    };
    load.quad = [&](const AttributeBinding& a, int w) {
        if (w % 4 != 0) return std::string();
        return cat({"texture(", result.inputSamplers[std::size_t(a.entry)][std::size_t(w / 4)], ", xfb_uv)"});
    };
    std::string zeroFunctions;
    const std::string run = cat({"void xfb_run(uint xfb_i) {\n    xfb_vertex_id = int(xfb_i);\n",
                                 plan::elementWork(translated, pass, capture, load, zeroFunctions), "}\n"});

    // Passes: every plane of every output, at most maxDrawBuffers a pass; each runs every element.
    for (std::size_t o = 0; o < pass.outputs.size(); ++o)
        for (int p = 0; p < int(words[o].size() / 4); ++p) {
            if (result.passes.empty() || int(result.passes.back().targets.size()) == options.maxDrawBuffers)
                result.passes.emplace_back();
            result.passes.back().targets.push_back({int(o), p});
        }
    for (auto& p : result.passes) {
        std::string outputs, main = cat({"void main() {\n", fragmentElement(T, result.rows),
                                         // Texels past the last element (in the last row) run it again
                                         // and are never read back.
                                         "    xfb_run(min(xfb_e, xfb_count - 1u));\n"});
        for (std::size_t j = 0; j < p.targets.size(); ++j) {
            const std::string n = to_string(j);
            const auto& w = words[std::size_t(p.targets[j].output)];
            const std::size_t q = std::size_t(4 * p.targets[j].plane);
            cat(outputs, {"layout(location = ", n, ") out highp uvec4 xfb_o", n, ";\n"});
            cat(main, {"    xfb_o", n, " = uvec4(", w[q], ", ", w[q + 1], ", ", w[q + 2], ", ", w[q + 3], ");\n"});
        }
        main += "}\n";
        p.source = cat({header, outputs, "#line 1\n", translated.body, "\n", zeroFunctions, run, main});
    }
    if (emits) {
        const std::string code = cat({header, "#line 1\n", translated.body, "\n", zeroFunctions, run});
        const std::string element = fragmentElement(T, result.rows);
        result.emits = plan::emitFragmentPasses({result.version, code, element, T, result.rows}, *options.emits, count,
                                                options.maxDrawBuffers, options.liveCount);
    }
    return result;
}

} // namespace xfb
