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

TEST_CASE("texel layouts: rows of whole texels, the last row's texels, the trailing words") {
    TexelLayout l = texelLayout(36 * 3, 4096); // 27 words
    CHECK(l.words == 27);
    CHECK(l.texels == 7);
    CHECK(l.rows == 1);
    CHECK(l.fullRows == 0);
    CHECK(l.lastRowTexels == 6);
    CHECK(l.tailWords == 3);
    l = texelLayout(32 * 5000, 4096); // 10000 texels: 2 full rows, 1808 in the third
    CHECK(l.rows == 3);
    CHECK(l.fullRows == 2);
    CHECK(l.lastRowTexels == 1808);
    CHECK(l.tailWords == 0);
    l = texelLayout(16 * 8, 8); // exactly one row
    CHECK(l.rows == 1);
    CHECK(l.fullRows == 1);
    CHECK(l.lastRowTexels == 0);
}

TEST_CASE("a 32-byte state: one element per texel, inputs by whole texels, the user's dialect kept") {
    auto t = translate("#version 300 es\nin vec4 p;\nin vec4 v;\nuniform float dt;\nout vec4 out_p;\nout vec4 out_v;\n"
                       "void main() { out_p = p + v * dt; out_v = v; }",
                       {}, 777);
    REQUIRE(t.shader.passes.size() == 1);
    CHECK(t.shader.textureWidth == 2048); // 777 x 2 texels: the power of two above, narrower than 4096
    CHECK(t.shader.vertexSource.rfind("#version 300 es\n", 0) == 0);
    CHECK(t.has(0, "#version 300 es\n"));
    CHECK(t.has(0, "precision highp int;"));
    CHECK(t.has(0, "uniform highp usampler2D xfb_in0;"));
    CHECK(t.has(0, "layout(location = 0) out highp uvec4 xfb_o0;"));
    CHECK(t.has(0, "const uint xfb_count = 777u;"));
    CHECK(t.has(0, "p = uintBitsToFloat(xfb_quad(xfb_in0, xfb_i * 2u + 0u));"));
    CHECK(t.has(0, "v = uintBitsToFloat(xfb_quad(xfb_in0, xfb_i * 2u + 1u));"));
    CHECK(t.has(0, "texelFetch(t, ivec2(q & 2047u, q >> 11), 0)"));
    CHECK(t.has(0, "uint xfb_k = (uint(gl_FragCoord.y) << 11) | uint(gl_FragCoord.x);"));
    CHECK(t.has(0, "uint xfb_e = xfb_k >> 1;"));
    CHECK(t.has(0, "xfb_run(min(xfb_e, xfb_count - 1u));"));
    CHECK(t.has(0, "xfb_o0 = xfb_out0(xfb_e, xfb_k & 1u);"));
    CHECK(t.has(0, "return q == 0u ? uvec4(floatBitsToUint(out_p[0]),"));
    CHECK(t.has(0, ") : (uvec4(floatBitsToUint(out_v[0]), floatBitsToUint(out_v[1])"));
    CHECK(t.has(0, "void xfb_user_main ( )"));
    CHECK(t.shader.passes[0].strideWords == 8);
    CHECK(t.shader.passes[0].layout.texels == 1554);
    CHECK(t.shader.keptSampler == std::vector<std::string>{""});
    // Desktop GLSL stays desktop, at least 3.30.
    auto d = translate("#version 150\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }");
    CHECK(d.has(0, "#version 330\n"));
    CHECK_FALSE(d.has(0, "precision"));
}

TEST_CASE("a 36-byte record: words of two elements per texel, each element run, inputs word by word") {
    auto t = translate("#version 300 es\nin vec4 position;\nin vec3 normal;\nin vec2 uv;\nout vec4 out_position;\n"
                       "out vec3 out_normal;\nout vec2 out_uv;\nvoid main() { out_position = position; out_normal = "
                       "normal; out_uv = uv + vec2(gl_VertexID); }",
                       {}, 3);
    REQUIRE(t.shader.passes.size() == 1);
    CHECK(t.shader.passes[0].strideWords == 9);
    CHECK(t.shader.passes[0].layout.tailWords == 3);
    CHECK(t.has(0, "normal = vec3(uintBitsToFloat(xfb_word(xfb_in0, xfb_i * 9u + 4u)),"));
    CHECK(t.has(0, "uint xfb_last = min((4u * xfb_k + 3u) / 9u, xfb_count - 1u);"));
    CHECK(t.has(0, "for (uint xfb_e = (4u * xfb_k) / 9u; xfb_e <= xfb_last; ++xfb_e) {"));
    CHECK(t.has(0, "if (xfb_w + 3 >= 0 && xfb_w + 3 < 9) {"));
    CHECK(t.has(0, "case 8u: return floatBitsToUint(out_uv[1]);"));
    CHECK(t.has(0, "out_uv = uv + vec2 ( xfb_vertex_id ) ;"));
    // A global variable would carry one element's value into the next's run: refused, named.
    std::string msg = XFB_REQUIRE_ERROR(
        translate("#version 300 es\nin vec4 a;\nin vec3 b;\nout vec4 out_a;\nout vec3 out_b;\nfloat g;\n"
                  "void main() { g += 1.0; out_a = a * g; out_b = b; }"),
        ErrorCode::Unsupported);
    CHECK(contains(msg, "line 6: global variable 'g'"));
    CHECK(contains(msg, "28-byte record"));
    // With whole texels per element the same global is harmless: each fragment runs main() once.
    CHECK_NOTHROW(
        translate("#version 300 es\nin vec4 a;\nout vec4 out_a;\nfloat g;\nvoid main() { g = 2.0; out_a = a * g; }"));
}

TEST_CASE("separate buffers of one stride share a pass (one colour attachment each), up to the draw buffers") {
    const std::string src = "#version 300 es\nin vec4 a;\nin vec4 b;\nin float c;\nout vec4 out_a;\nout vec4 out_b;\n"
                            "out float out_c;\nvoid main() { out_a = a; out_b = b; out_c = c; }";
    auto t = translate(src, {CaptureMode::Separate});
    REQUIRE(t.shader.passes.size() == 2);
    CHECK(t.shader.passes[0].outputs == std::vector<int>{0, 1});
    CHECK(t.shader.passes[1].outputs == std::vector<int>{2});
    CHECK(t.has(0, "layout(location = 1) out highp uvec4 xfb_o1;"));
    CHECK(t.has(1, "uint xfb_last = min((4u * xfb_k + 3u) / 1u, xfb_count - 1u);")); // 4 elements a texel
    FragmentTranslationOptions one;
    one.maxDrawBuffers = 1;
    auto single = translate(src, {CaptureMode::Separate}, 10, one);
    CHECK(single.shader.passes.size() == 3);
}

TEST_CASE("fragment refusals and options") {
    std::string msg =
        XFB_REQUIRE_ERROR(translate("#version 300 es\nuniform highp sampler2D s;\nin vec4 p;\nout vec4 out_p;\n"
                                    "void main() { out_p = texture(s, p.xy); }"),
                          ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "line 5"));
    CHECK(contains(msg, "a fragment shader derives from neighbouring elements"));
    CHECK(contains(msg, "textureLod"));
    msg = XFB_REQUIRE_ERROR(translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + "
                                      "vec4(gl_InstanceID); gl_ClipDistance[0] = 1.0; }"),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "'gl_ClipDistance' has no equivalent in a fragment shader"));
    FragmentTranslationOptions zero;
    zero.textureWidth = 0;
    XFB_REQUIRE_ERROR(
        translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }", {}, 10, zero),
        ErrorCode::InvalidArgument);
    // A width of 4 texels: rows of the widest buffer.
    FragmentTranslationOptions narrow;
    narrow.textureWidth = 4;
    auto t = translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }", {}, 10, narrow);
    CHECK(t.shader.textureWidth == 4);
    CHECK(t.shader.passes[0].layout.rows == 3);
    CHECK(t.has(0, "ivec2(q & 3u, q >> 2)"));
}
