// The fragment translation is pure: its output is checked here as text and layout numbers; that it
// computes the same bytes as transform feedback is checked on the GPU in tests/gl/fragment_test.cpp.
#include "test_util.hpp"
#include "xfb/fragment_translation.hpp"

using namespace xfb;

namespace {
struct Translated {
    FragmentShader shader;
    bool has(std::size_t pass, const std::string& s) const {
        return shader.passes[pass].source.find(s) != std::string::npos;
    }
};

// One {input, output} state pair of the inputs packed (or {output} only when there are none) per
// captured buffer in order; `n` elements.
Translated translate(const std::string& src, CaptureOptions capture = {}, std::int64_t n = 10,
                     FragmentTranslationOptions options = {}) {
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, capture, Limits::portable());
    std::vector<EntryDesc> entries;
    std::vector<VertexAttribute> in;
    for (auto& a : attrs) in.push_back({a.semantic, *componentTypeOf(a.type.kind), a.components()});
    if (!in.empty()) {
        auto f = VertexFormat::interleaved(in);
        entries.push_back({BufferDesc{f, std::uint64_t(f.stride) * std::uint64_t(n)}, std::nullopt});
    }
    for (auto& b : cap.buffers)
        entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride) * std::uint64_t(n)}});
    auto pass = planPass(attrs, cap, entries, n);
    return {translateToFragment(src, {}, pass, cap, entries.size(), options)};
}
} // namespace

TEST_CASE("texel layouts: whole texels in rows, the trailing words") {
    TexelLayout l = texelLayout(36 * 3, 4096); // 27 words
    CHECK(l.words == 27);
    CHECK(l.texels == 7);
    CHECK(l.rows == 1);
    CHECK(l.tailWords == 3);
    l = texelLayout(32 * 5000, 4096); // 10000 texels: 2 full rows and part of a third
    CHECK(l.rows == 3);
    CHECK(l.tailWords == 0);
    l = texelLayout(16 * 8, 8); // exactly one row
    CHECK(l.rows == 1);
}

TEST_CASE("plane layouts: a plane per 4 words of the record, an element per texel") {
    PlaneLayout l = planeLayout(36, 5000, 4096); // 9 words: 3 planes, the last one word wide
    CHECK(l.strideWords == 9);
    CHECK(l.planes == 3);
    CHECK(l.rows == 2);
    CHECK_FALSE(l.linear());
    CHECK(planeLayout(16, 1, 1).linear());
    CHECK(planeLayout(16, 1, 1).rows == 1);
    CHECK(planeLayout(4, 0, 8).rows == 1);                                 // at least one row
    XFB_REQUIRE_ERROR(planeLayout(16, 10, 0), ErrorCode::InvalidArgument); // a division by zero otherwise
    XFB_REQUIRE_ERROR(texelLayout(16, -4), ErrorCode::InvalidArgument);
}

TEST_CASE("a 32-byte state: one fragment per element, two planes read at its texel, two written") {
    auto t = translate("#version 300 es\nin vec4 p;\nin vec4 v;\nuniform float dt;\nout vec4 out_p;\nout vec4 out_v;\n"
                       "void main() { out_p = p + v * dt; out_v = v; }",
                       {}, 777);
    REQUIRE(t.shader.passes.size() == 1);
    CHECK(t.shader.textureWidth == 2048); // 777 x 2 texels of the linear layout: the power of two above
    CHECK(t.shader.rows == 1);
    CHECK(t.shader.vertexSource.rfind("#version 300 es\n", 0) == 0);
    CHECK(t.has(0, "#version 300 es\n"));
    CHECK(t.has(0, "precision highp int;"));
    CHECK(t.has(0, "uniform highp usampler2D xfb_in0_0;"));
    CHECK(t.has(0, "uniform highp usampler2D xfb_in0_1;"));
    CHECK(t.has(0, "layout(location = 0) out highp uvec4 xfb_o0;"));
    CHECK(t.has(0, "layout(location = 1) out highp uvec4 xfb_o1;"));
    CHECK(t.has(0, "const uint xfb_count = 777u;"));
    CHECK(t.has(0, "p = uintBitsToFloat(texture(xfb_in0_0, xfb_uv));"));
    CHECK(t.has(0, "v = uintBitsToFloat(texture(xfb_in0_1, xfb_uv));"));
    CHECK(t.has(0, "uint xfb_e = (uint(gl_FragCoord.y) << 11) | uint(gl_FragCoord.x);"));
    CHECK(t.has(0, "xfb_uv = gl_FragCoord.xy / vec2(2048.0, 1.0);"));
    CHECK(t.has(0, "xfb_run(min(xfb_e, xfb_count - 1u));"));
    CHECK(t.has(0, "xfb_o0 = uvec4(floatBitsToUint(out_p[0]),"));
    CHECK(t.has(0, "xfb_o1 = uvec4(floatBitsToUint(out_v[0]),"));
    CHECK(t.has(0, "void xfb_user_main ( )"));
    const std::vector<FragmentPass::Target> targets = {{0, 0}, {0, 1}};
    REQUIRE(t.shader.passes[0].targets.size() == 2);
    for (std::size_t j = 0; j < 2; ++j) {
        CHECK(t.shader.passes[0].targets[j].output == targets[j].output);
        CHECK(t.shader.passes[0].targets[j].plane == targets[j].plane);
    }
    CHECK(t.shader.keptSamplers == std::vector<std::vector<std::string>>{{"", ""}});
    // Desktop GLSL stays desktop, at least 3.30.
    auto d = translate("#version 150\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }");
    CHECK(d.has(0, "#version 330\n"));
    CHECK_FALSE(d.has(0, "precision"));
}

TEST_CASE("a 36-byte record: three planes, the last one word wide, inputs word by word") {
    auto t = translate("#version 300 es\nin vec4 position;\nin vec3 normal;\nin vec2 uv;\nout vec4 out_position;\n"
                       "out vec3 out_normal;\nout vec2 out_uv;\nvoid main() { out_position = position; out_normal = "
                       "normal; out_uv = uv + vec2(gl_VertexID); }",
                       {}, 3);
    REQUIRE(t.shader.passes.size() == 1);
    REQUIRE(t.shader.passes[0].targets.size() == 3);
    CHECK(t.has(0, "normal = vec3(uintBitsToFloat(texture(xfb_in0_1, xfb_uv)[0]),"));
    CHECK(t.has(0, "uv = vec2(uintBitsToFloat(texture(xfb_in0_1, xfb_uv)[3]), uintBitsToFloat(texture(xfb_in0_2, "
                   "xfb_uv)[0]))"));
    CHECK(t.has(0, "xfb_o2 = uvec4(floatBitsToUint(out_uv[1]), 0u, 0u, 0u);"));
    CHECK(t.has(0, "out_uv = uv + vec2 ( xfb_vertex_id ) ;"));
    // A global variable is harmless: each fragment runs main() for one element.
    CHECK_NOTHROW(translate("#version 300 es\nin vec4 a;\nin vec3 b;\nout vec4 out_a;\nout vec3 out_b;\nfloat g;\n"
                            "void main() { g += 1.0; out_a = a * g; out_b = b; }"));
}

TEST_CASE("planes of every output share a pass (one colour attachment each), up to the draw buffers") {
    const std::string src = "#version 300 es\nin vec4 a;\nin vec4 b;\nin float c;\nout vec4 out_a;\nout vec4 out_b;\n"
                            "out float out_c;\nvoid main() { out_a = a; out_b = b; out_c = c; }";
    auto t = translate(src, {CaptureMode::Separate});
    REQUIRE(t.shader.passes.size() == 1);
    REQUIRE(t.shader.passes[0].targets.size() == 3);
    CHECK(t.shader.passes[0].targets[2].output == 2);
    CHECK(t.has(0, "layout(location = 2) out highp uvec4 xfb_o2;"));
    CHECK(t.has(0, "xfb_o2 = uvec4(floatBitsToUint(out_c), 0u, 0u, 0u);"));
    FragmentTranslationOptions two;
    two.maxDrawBuffers = 2;
    auto split = translate(src, {CaptureMode::Separate}, 10, two);
    REQUIRE(split.shader.passes.size() == 2);
    CHECK(split.shader.passes[1].targets.size() == 1);
}

TEST_CASE("the copies between a buffer's own layout and its planes") {
    const std::string version = "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                                "precision highp usampler2D;\n";
    const PlaneCopyShaders c = planeCopyShaders(planeLayout(36, 10, 16), 2, version);
    REQUIRE(c.spread.size() == 2); // 3 planes, 2 a pass
    CHECK(c.spread[0].rfind(version, 0) == 0);
    CHECK(contains(c.spread[0], "uint xfb_b = min(xfb_e, 9u) * 9u;"));
    CHECK(contains(c.spread[0], "xfb_o1 = uvec4(xfb_word(xfb_b + 4u), xfb_word(xfb_b + 5u)"));
    CHECK(contains(c.spread[1], "xfb_o0 = uvec4(xfb_word(xfb_b + 8u), 0u, 0u, 0u);"));
    CHECK(contains(c.spread[0], "texelFetch(xfb_linear, ivec2(int(q & 15u), int(q >> 4)), 0)[w & 3u]"));
    CHECK(contains(c.gather, "uniform highp usampler2D xfb_plane2;"));
    CHECK(contains(c.gather, "uint e = w / 9u, k = w - e * 9u, p = k >> 2, q = min(e, 9u);"));
    CHECK(contains(c.gather, "p == 0u ? texelFetch(xfb_plane0, c, 0) : p == 1u ? texelFetch(xfb_plane1, c, 0) : "
                             "texelFetch(xfb_plane2, c, 0)"));
    // What planeLayout() does not make is refused, never looped over or written as broken GLSL.
    XFB_REQUIRE_ERROR(planeCopyShaders(planeLayout(36, 10, 16), 0, version), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(planeCopyShaders(planeLayout(36, 0, 16), 2, version), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(planeCopyShaders(planeLayout(36, 10, 12), 2, version), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(planeCopyShaders(planeLayout(0, 10, 16), 2, version), ErrorCode::InvalidArgument);
    PlaneLayout forged = planeLayout(36, 10, 16);
    forged.planes = 1;
    XFB_REQUIRE_ERROR(planeCopyShaders(forged, 2, version), ErrorCode::InvalidArgument);
}

TEST_CASE("three-character operators are printed whole in the fragment passes") {
    auto t = translate("#version 300 es\nin uvec2 v;\nflat out uint out_a;\nflat out uint out_b;\n"
                       "void main() { out_a = v.x; out_a <<= 3u; out_b = v.y; out_b >>= 1u; }");
    CHECK(t.has(0, "out_a <<= 3u ;"));
    CHECK(t.has(0, "out_b >>= 1u ;"));
    CHECK(t.shader.passes[0].source.find("<< =") == std::string::npos);
}

TEST_CASE("fragment refusals and options") {
    // texture() in a vertex shader reads the base level; a fragment pass would derive a level from
    // its neighbouring elements, so it names level 0.0.
    CHECK(translate("#version 300 es\nuniform highp sampler2D s;\nin vec4 p;\nout vec4 out_p;\n"
                    "void main() { out_p = texture(s, p.xy); }")
              .has(0, "out_p = textureLod ( s , p . xy , 0.0 ) ;"));
    std::string msg =
        XFB_REQUIRE_ERROR(translate("#version 300 es\nuniform highp sampler2DArrayShadow s;\nin vec4 p;\nout float "
                                    "out_p;\nvoid main() { out_p = texture(s, p); }"),
                          ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "line 5"));
    CHECK(contains(msg, "sampler2DArrayShadow has no explicit-level form (textureLod) for a fragment shader"));
    msg = XFB_REQUIRE_ERROR(translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + "
                                      "vec4(gl_InstanceID); gl_ClipDistance[0] = 1.0; }"),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "'gl_ClipDistance' has no equivalent in a fragment shader"));
    FragmentTranslationOptions zero;
    zero.textureWidth = 0;
    XFB_REQUIRE_ERROR(
        translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }", {}, 10, zero),
        ErrorCode::InvalidArgument);
    // A width of 4 texels: rows of elements.
    FragmentTranslationOptions narrow;
    narrow.textureWidth = 4;
    auto t = translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }", {}, 10, narrow);
    CHECK(t.shader.textureWidth == 4);
    CHECK(t.shader.rows == 3);
    CHECK(t.has(0, "uint xfb_e = (uint(gl_FragCoord.y) << 2) | uint(gl_FragCoord.x);"));
    CHECK(t.has(0, "xfb_uv = gl_FragCoord.xy / vec2(4.0, 3.0);"));
}

TEST_CASE("the emitted counts' pyramid: levels of 4-node sums up to one node, alternating atlases") {
    auto nodes = [](const PyramidLayout& p) {
        std::vector<std::int64_t> n;
        for (const auto& l : p.levels) n.push_back(l.nodes);
        return n;
    };
    // 1 element: level 0 is the top. 4^k: exactly k levels above; 4^k + 1: one more.
    CHECK(nodes(pyramidLayout(1, 4, 1)) == std::vector<std::int64_t>{1});
    CHECK(nodes(pyramidLayout(3, 4, 1)) == std::vector<std::int64_t>{3, 1});
    CHECK(nodes(pyramidLayout(4, 4, 1)) == std::vector<std::int64_t>{4, 1});
    CHECK(nodes(pyramidLayout(5, 8, 1)) == std::vector<std::int64_t>{5, 2, 1});
    CHECK(nodes(pyramidLayout(256, 256, 1)) == std::vector<std::int64_t>{256, 64, 16, 4, 1});
    CHECK(nodes(pyramidLayout(257, 512, 1)) == std::vector<std::int64_t>{257, 65, 17, 5, 2, 1});
    // Past a row: 4097 nodes at 4096 a row take 2 rows; even levels stack in atlas 0, odd in atlas 1.
    const PyramidLayout p = pyramidLayout(4097, 4096, 5);
    CHECK(p.groups == 2); // 5 budgets: 4 in group 0's components, 1 in group 1's
    REQUIRE(p.levels.size() == 8);
    CHECK(p.levels[0].rows == 2);
    CHECK(p.levels[0].firstRow == 0);
    CHECK(p.levels[1].firstRow == 0); // the first of atlas 1
    CHECK(p.levels[2].firstRow == 2); // after level 0
    CHECK(p.levels[4].firstRow == 3);
    CHECK(p.atlasRows[0] == 2 + 1 + 1 + 1);
    CHECK(p.atlasRows[1] == 4);
    CHECK(pyramidLayout(1, 4, 1).atlasRows[1] == 1); // a texture even with no odd level
    XFB_REQUIRE_ERROR(pyramidLayout(0, 4, 1), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(pyramidLayout(4, 3, 1), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(pyramidLayout(4, 4, 0), ErrorCode::InvalidArgument);
}

TEST_CASE("emitted outputs' fragment passes: counts clamped as compute, a reduce per level, a gather per budget") {
    const char* src = "#version 300 es\nin vec4 a_p;\nout vec4 out_p;\nout vec4 emit_s[3];\nflat out int emit_n;\n"
                      "flat out uint emit_u[2];\nflat out uint emit_m;\n"
                      "void main() { out_p = a_p; emit_n = 2; emit_m = 1u; emit_s[0] = a_p; emit_u[0] = 1u; }";
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, {}, Limits::portable());
    const std::int64_t n = 100;
    auto vec4 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    auto uint1 = VertexFormat::interleaved({{attr(0), ComponentType::UInt32, 1}});
    std::vector<EntryDesc> entries = {{BufferDesc{vec4, 16 * n}, BufferDesc{vec4, 16 * n}},
                                      {std::nullopt, BufferDesc{vec4, 16 * 300}},
                                      {std::nullopt, BufferDesc{uint1, 4 * 150}}};
    auto pass = planPass(attrs, cap, entries, n, OutputSizing::PerElement, 2);
    const std::vector<EmitDesc> emits = {{"emit_s", "emit_n"}, {"emit_u", "emit_m"}};
    const EmitPlan plan = planEmits(iface, cap, emits, entries, pass.emitEntries, n);
    FragmentTranslationOptions options;
    options.emits = &plan;
    const FragmentShader shader = translateToFragment(src, {}, pass, cap, entries.size(), options);
    const EmitFragmentPasses& e = shader.emits;
    CHECK(shader.textureWidth == 512); // widened by the capacity of 300 records
    CHECK(contains(e.count, "uint(clamp(emit_n, 0, 3))"));
    CHECK(contains(e.count, "min(emit_m, 2u)"));
    CHECK(contains(e.count, "if (xfb_e < xfb_count)"));
    CHECK(e.reduce.size() == e.pyramid.levels.size() - 1);
    CHECK(e.pyramid.levels.size() == 5); // 100 -> 25 -> 7 -> 2 -> 1
    REQUIRE(e.gathers.size() == 2);
    CHECK(e.gathers[0].budget == 0);
    CHECK(e.gathers[0].outputs == std::vector<int>{0});
    CHECK(contains(e.gathers[0].source, "floatBitsToUint(emit_s[xfb_k][3])"));
    CHECK(contains(e.gathers[1].source, "uint(emit_u[xfb_k])"));
    CHECK(contains(e.gathers[1].source, "min(150u, texelFetch(xfb_pyramid0")); // top level 4: the even atlas
    CHECK(contains(e.gathers[1].source, "[1]"));                               // budget 1: component 1 of the group
    CHECK(contains(e.gathers[0].source, "discard"));
    REQUIRE(e.outputLayouts.size() == 2);
    CHECK(e.outputLayouts[0].count == 300);
    CHECK(e.outputLayouts[1].count == 150);
    // No emits: nothing generated.
    CHECK(translateToFragment(src, {}, pass, cap, entries.size()).emits.empty());
}
