// The WGSL translation is pure: its output is checked here as text and layout numbers; that it
// compiles and computes the same bytes as transform feedback is checked in headless Chromium
// (tests/web/page/webgpu.js).
#include "state_plan.hpp"
#include "test_util.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/wgsl_translation.hpp"

using namespace xfb;
using xfbtest::planState;

namespace {
struct Translated {
    WgslShader shader;
    bool has(const std::string& s) const { return shader.source.find(s) != std::string::npos; }
};

Translated wgsl(const std::string& src, CaptureOptions capture = {}) { return {translateToWgsl(src, {}, capture)}; }

std::string body(const std::string& code, const std::string& decls = "") {
    return "#version 300 es\nprecision highp float;\nin vec4 position;\n" + decls + "out vec4 out_position;\n" + code;
}

// The integer bit functions are GLSL ES 3.10 (ES 3.00 refuses them: ShaderCompile).
std::string es310(std::string src) { return src.replace(0, std::string("#version 300 es").size(), "#version 310 es"); }

std::string refused(const std::string& src) { return XFB_REQUIRE_ERROR(wgsl(src), ErrorCode::ComputeTranslation); }
} // namespace

TEST_CASE("WGSL: a 36-byte interleaved input is read word by word and outputs are stored with bitcast") {
    auto t = wgsl(R"(#version 300 es
in vec4 position;
in vec3 normal;
in vec2 uv;
in ivec2 ids;
uniform float scale;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = vec4(position.xyz * scale, position.w);
    out_normal = normal.zxy;
    out_uv = uv + vec2(0.5, 0.25) + vec2(ids);
})");
    // Input stride 4 + 3 + 2 + 2 = 11 words: a u32 view, bitcast per component.
    CHECK(t.has("@group(0) @binding(1) var<storage, read> xfb_b1: array<u32>;"));
    CHECK(t.has("position = bitcast<vec4<f32>>(vec4<u32>(xfb_b1[xfb_i * 11u + 0u], xfb_b1[xfb_i * 11u + 1u], "
                "xfb_b1[xfb_i * 11u + 2u], xfb_b1[xfb_i * 11u + 3u]));"));
    CHECK(t.has("normal = bitcast<vec3<f32>>(vec3<u32>(xfb_b1[xfb_i * 11u + 4u]"));
    CHECK(t.has("ids = bitcast<vec2<i32>>(vec2<u32>(xfb_b1[xfb_i * 11u + 9u], xfb_b1[xfb_i * 11u + 10u]));"));
    // Captured interleaved: 36 bytes, offsets 0, 16, 28.
    CHECK(t.has("var<storage, read_write> xfb_b2: array<u32>;"));
    CHECK(t.has("xfb_b2[xfb_i * 9u + 4u] = bitcast<u32>(out_normal[0]);"));
    CHECK(t.has("xfb_b2[xfb_i * 9u + 8u] = bitcast<u32>(out_uv[1]);"));
    CHECK(t.has("out_uv = ((uv + vec2<f32>(0.5f, 0.25f)) + vec2<f32>(ids));")); // constructor converts ivec2
    // The bound check, the 2-D index, the entry point.
    CHECK(t.has("let xfb_i = xfb_gid.x + xfb_gid.y * xfb_groups.x * 256u;"));
    CHECK(t.has("if (xfb_i >= xfb_u.xfb_count) {"));
    CHECK(t.has("@compute @workgroup_size(256)\nfn xfb_main("));
    CHECK(t.has("var<uniform> xfb_u: XfbUniforms;"));
    CHECK(t.shader.uniforms.size() == 1);
    CHECK(t.shader.uniforms[0].offset == 4);
    CHECK(t.shader.readBinding == std::vector<int>{1, -1});
    CHECK(t.shader.writeBinding == std::vector<int>{-1, 2});
}

TEST_CASE("WGSL: vec4-aligned buffers are viewed as vec4<u32>, separate mode gets a buffer per varying") {
    auto t = wgsl(R"(#version 300 es
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity; })",
                  {CaptureMode::Separate});
    CHECK(t.has("var<storage, read> xfb_b1: array<vec4<u32>>;"));
    CHECK(t.has("velocity = bitcast<vec4<f32>>(xfb_b1[xfb_i * 2u + 1u]);"));
    CHECK(t.has("xfb_b2[xfb_i * 1u + 0u] = bitcast<vec4<u32>>(out_position);"));
    CHECK(t.has("xfb_b3[xfb_i * 1u + 0u] = bitcast<vec4<u32>>(out_velocity);"));
    CHECK(t.shader.writeBinding == std::vector<int>{-1, 2, 3});
}

TEST_CASE("WGSL: uniforms follow the uniform address-space layout") {
    auto t = wgsl(body("void main() { out_position = position; }", R"(
uniform float a;
uniform vec3 b;
uniform vec2 c;
uniform mat3 m;
uniform mat4 bones[4];
uniform ivec4 ids[2];
uniform mat2 small;
uniform uint n;
)"));
    auto& u = t.shader.uniforms;
    REQUIRE(u.size() == 8);
    CHECK(u[0].offset == 4); // after xfb_count
    CHECK(u[1].offset == 16);
    CHECK(u[1].size == 12);   // vec3 aligned to 16
    CHECK(u[2].offset == 32); // vec2 aligned to 8, after 28
    CHECK(u[3].offset == 48);
    CHECK(u[3].columnStride == 16);
    CHECK(u[3].size == 48);
    CHECK(u[4].offset == 96);
    CHECK(u[4].arrayStride == 64);
    CHECK(u[4].size == 256);
    CHECK(u[5].offset == 352);
    CHECK(u[5].arrayStride == 16);
    CHECK(u[6].offset == 384);
    CHECK(u[6].columnStride == 8);
    CHECK(u[6].size == 16);
    CHECK(u[7].offset == 400);
    CHECK(t.shader.uniformBytes == 416);
    CHECK(t.has("@align(16) bones: array<mat4x4<f32>, 4>,"));
    CHECK(t.has("b: vec3<f32>,"));
}

TEST_CASE("WGSL: GLSL semantics that differ are translated exactly") {
    auto t = wgsl(body(R"(
float hash(float x) { return fract(sin(x * 12.9898) * 43758.5453); }
uint mixbits(uint x) { x ^= x >> 16; x *= 0x7feb352du; x <<= 3; return x; }
void split(vec3 v, out float len, inout int calls) { len = length(v); calls++; }
void main() {
    vec3 v = position.xyz, w = vec3(1.0);
    v.xz *= 0.8;
    float m = mod(position.x, 2.0);
    vec3 mv = mod(v, 2.0);
    int i = gl_VertexID / 3, r = gl_VertexID % 3;
    float s = i > 2 ? 1.0 : -1.0;
    float len; int calls = 0;
    split(v, len, calls);
    for (int k = 0; k < 4; ++k) { if (k == 2) continue; w += v; }
    int n = 0;
    while (n < 3) n++;
    do { n--; } while (n > 0);
    if (all(equal(v, w)) && v != w) s = 2.0; else s = inversesqrt(2.0);
    mat3 rot = mat3(mat4(1.0));
    v = clamp(v, 0.0, 1.0) + step(0.5, v) + mix(v, w, 0.5) + rot * v;
    bool b = v == w ^^ true;
    uint u = mixbits(uint(i)) << 2;
    float a = atan(v.y, v.x) + atan(v.z) + float(floatBitsToUint(s)) + float(-u);
    out_position = vec4(v, s + m + mv.x + float(r) + hash(len) + a + float(calls) + float(b));
})"));
    CHECK(t.has("fn hash(xfb_a_x: f32) -> f32 {\n    var x: f32 = xfb_a_x;\n    return fract((sin((x * 12.9898f)) * "
                "43758.5453f));"));
    CHECK(t.has("x = (x ^ (x >> u32(16)));")); // ^= with a shift amount as u32
    CHECK(t.has("x = (x << u32(3));"));        // <<= joined by the translator
    CHECK(t.has("x = (x * 0x7feb352du);"));
    CHECK(t.has("fn split(xfb_a_v: vec3<f32>, len: ptr<function, f32>, calls: ptr<function, i32>) {"));
    CHECK(t.has("(*len) = length(v);"));
    CHECK(t.has("(*calls)++;"));
    CHECK(t.has("split(v, &len, &calls);"));
    CHECK(t.has("{ let xfb_s = (v.xz * 0.8f); v.x = xfb_s.x; v.z = xfb_s.y; };"));
    CHECK(t.has("fn xfb_mod_ss(x: f32, y: f32) -> f32 { return x - y * floor(x / y); }"));
    CHECK(t.has("var mv: vec3<f32> = xfb_mod_v3s(v, 2.0f);"));
    CHECK(t.has("var i: i32 = (xfb_vertex_id / 3);"));
    CHECK(t.has("var s: f32 = select((-1.0f), 1.0f, (i > 2));"));
    CHECK(t.has("for (var k: i32 = 0; (k < 4); k++) {"));
    CHECK(t.has("if ((k == 2)) {\n            continue;"));
    CHECK(t.has("while ((n < 3)) {\n        n++;"));
    CHECK(t.has("loop {\n        n--;\n        continuing {\n            break if !((n > 0));"));
    CHECK(t.has("if ((all((v == w)) && (any(v != w)))) {"));
    CHECK(t.has("inverseSqrt(2.0f)"));
    CHECK(t.has("xfb_mat3x3_from4x4(xfb_diag4x4(1.0f))"));
    CHECK(t.has("fn xfb_mat3x3_from4x4(m: mat4x4<f32>) -> mat3x3<f32> { return mat3x3<f32>(vec3<f32>(m[0][0], m[0][1], "
                "m[0][2])"));
    CHECK(t.has("clamp(v, vec3<f32>(0.0f), vec3<f32>(1.0f))")); // scalars splatted to the vector
    CHECK(t.has("step(vec3<f32>(0.5f), v)"));
    CHECK(t.has("mix(v, w, 0.5f)"));
    CHECK(t.has("var b: bool = ((all(v == w)) != true);")); // vector == is all(), ^^ is !=
    CHECK(t.has("atan2(v.y, v.x)"));
    CHECK(t.has("atan(v.z)"));
    CHECK(t.has("bitcast<u32>(s)"));
    CHECK(t.has("(u32() - u)")); // unary minus of a uint wraps
    CHECK(t.has("fn xfb_user_main() {"));
}

TEST_CASE("WGSL: names reserved in WGSL are renamed, gl_ built-ins mapped, texelFetch becomes textureLoad") {
    auto t = wgsl(R"(#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;
uniform vec3 target;
uniform highp sampler2D positions;
uniform isampler2D ids;
out vec4 out_position;
vec4 fetchElement(highp sampler2D s, int i) { return texelFetch(s, ivec2(i % 1024, i / 1024), 0); }
void main() {
    ivec2 size = textureSize(positions, 0);
    int id = texelFetch(ids, ivec2(0), 0).x;
    out_position = fetchElement(positions, gl_VertexID) + vec4(target, float(id + size.x));
    gl_Position = out_position;
})");
    CHECK(t.has("@align(16)") == false);
    CHECK(t.has("xfb_r_target: vec3<f32>,"));
    CHECK(t.has("xfb_u.xfb_r_target"));
    CHECK(t.has("@group(0) @binding(1) var positions: texture_2d<f32>;"));
    CHECK(t.has("@group(0) @binding(2) var ids: texture_2d<i32>;"));
    CHECK(t.has("fn fetchElement(s: texture_2d<f32>, xfb_a_i: i32) -> vec4<f32> {"));
    CHECK(t.has("return textureLoad(s, vec2<i32>((i % 1024), (i / 1024)), 0);"));
    CHECK(t.has("vec2<i32>(textureDimensions(positions, 0))"));
    CHECK(t.has("fetchElement(positions, xfb_vertex_id)"));
    CHECK(t.has("xfb_position = out_position;"));
    REQUIRE(t.shader.textures.size() == 2);
    CHECK(t.shader.textures[1].sampleKind == ScalarKind::Int);
    CHECK(t.shader.readBinding[0] == 3); // storage after the textures
}

TEST_CASE("WGSL: integer attributes and outputs keep their bits, uint without bitcast") {
    auto t = wgsl(R"(#version 300 es
in uvec4 key;
in int id;
flat out uvec4 out_key;
flat out int out_id;
void main() { out_key = key + 1u; out_id = -id; })");
    CHECK(t.has("key = xfb_b1[xfb_i * 5u + 0u]") == false); // 20-byte stride: not a vec4 view
    CHECK(t.has("key = vec4<u32>(xfb_b1[xfb_i * 5u + 0u]"));
    CHECK(t.has("id = bitcast<i32>(xfb_b1[xfb_i * 5u + 4u]);"));
    CHECK(t.has("xfb_b2[xfb_i * 5u + 0u] = out_key[0];"));
    CHECK(t.has("xfb_b2[xfb_i * 5u + 4u] = bitcast<u32>(out_id);"));
}

TEST_CASE("WGSL: constructs outside the subset are coded errors naming the construct and the line") {
    CHECK(contains(refused(body("void main() {\n  out_position = vec4(texture(s, vec2(0.0)));\n}",
                                "uniform highp isampler2D s;\n")),
                   "line 7: 'texture()' of an integer sampler (isampler2D): WGSL samples float textures only"));
    CHECK(contains(refused(body("vec4 f(sampler2D t) { return textureLod(t, vec2(0.0), 0.0); }\n"
                                "void main() { out_position = f(s); }",
                                "uniform sampler2D s;\n")),
                   "'textureLod()' through a sampler parameter"));
    CHECK(contains(refused(body("void main() { out_position = vec4(dFdx(position.x)); }")), "'dFdx()' has no WGSL"));
    CHECK(contains(refused(body("void main() { out_position = position * float(gl_DrawID); }")),
                   "'gl_DrawID' has no equivalent"));
    CHECK(contains(refused(body("void main() { out_position = position; }", "uniform float weights[4];\n")),
                   "uniform array 'weights' of float"));
    CHECK(contains(refused(body("void main() { out_position = position; }", "uniform bool on[2];\n")),
                   "bool uniform array 'on'"));
    CHECK(contains(refused(body("void g(out float x) { x = 1.0; }\nvoid main() { g(out_position.x); }")),
                   "out/inout argument 'out_position.x'"));
    CHECK(
        contains(refused(body("void main() { float xfb_t = 1.0; out_position = position; }")), "reserved prefix xfb_"));
    CHECK(contains(refused(body("void main() { out_position = vec4(position.x % 2.0); }")), "% on floats"));
    CHECK(contains(
        refused(body("void main() {\n  switch (f) { case 0: break; default: break; }\n}", "uniform float f;\n")),
        "line 7: switch selector of type float"));
    CHECK(contains(refused(body("void main() {\n  int i = 1;\n  switch (i) { case 1: case 1: break; }\n}")),
                   "line 7: case label 1 appears twice"));
    CHECK(contains(refused(body("void main() {\n  float a[N];\n}", "uniform int N;\n")),
                   "line 7: array size 'N' is not a constant integer expression"));
    XFB_REQUIRE_ERROR(translateToWgsl(body("void main() { out_position = position; }"), {}, CaptureOptions{}, {512}),
                      ErrorCode::InvalidArgument);
}

TEST_CASE(
    "WGSL emitted outputs: a count pass stores clamped counts, main stores records at first + k within capacity") {
    const std::string src = R"(#version 300 es
in vec4 a;
out vec4 out_a;
out vec4 emit_spark[3];
out float emit_heat[3];
flat out int emit_count;
flat out uvec2 emit_id[2];
flat out uint emit_ids;
void main() { out_a = a; emit_count = 2; emit_ids = 1u; for (int k = 0; k < 3; ++k) { emit_spark[k] = a; emit_heat[k] = a.x; } emit_id[0] = uvec2(1u); emit_id[1] = uvec2(2u); }
)";
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, {}, Limits::portable());
    VertexFormat vec4 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{
        {BufferDesc{vec4, 160}, BufferDesc{vec4, 160}},
        {std::nullopt, BufferDesc{vec4, 16 * 25}},
        {std::nullopt, BufferDesc{VertexFormat::interleaved({{attr(0), ComponentType::Float32, 1}}), 4 * 30}},
        {std::nullopt, BufferDesc{VertexFormat::interleaved({{attr(0), ComponentType::UInt32, 2}}), 8 * 7}}};
    auto pass = planPass(attrs, cap, entries, std::nullopt, OutputSizing::PerElement, 3);
    std::vector<EmitDesc> descs{{"emit_spark", "emit_count"}, {"emit_heat", "emit_count"}, {"emit_id", "emit_ids"}};
    EmitPlan plan = planEmits(iface, cap, descs, entries, pass.emitEntries, pass.count);
    WgslTranslationOptions options;
    options.emits = &plan;
    auto w = translateToWgsl(src, {}, pass, cap, entries.size(), options);
    auto in = [](const std::string& text, const std::string& s) { return text.find(s) != std::string::npos; };
    // Bindings: uniforms 0, input 1, output 2, the three emitted outputs 3..5, then counts and firsts per budget.
    CHECK(w.writeBinding == std::vector<int>{2, 3, 4, 5});
    CHECK(w.countsBinding == std::vector<int>{6, 8});
    CHECK(w.firstBinding == std::vector<int>{7, 9});
    CHECK(in(w.countSource, "@group(0) @binding(6) var<storage, read_write> xfb_emitted0: array<u32>;"));
    CHECK(in(w.countSource, "xfb_emitted0[xfb_i] = u32(clamp(emit_count, 0, 3));"));
    CHECK(in(w.countSource, "xfb_emitted1[xfb_i] = min(emit_ids, 2u);"));
    CHECK_FALSE(in(w.countSource, "xfb_first0"));
    CHECK_FALSE(in(w.countSource, "xfb_k"));
    CHECK(in(w.source, "@group(0) @binding(7) var<storage, read> xfb_first0: array<u32>;"));
    CHECK_FALSE(in(w.source, "xfb_emitted0"));
    // Records at first + k, never at or past the budget's capacity (the smaller buffer: 25 records).
    CHECK(in(
        w.source,
        "for (var xfb_k = 0u; xfb_k < u32(clamp(emit_count, 0, 3)) && (xfb_first0[xfb_i] + xfb_k) < 25u; xfb_k++) {"));
    CHECK(in(w.source, "xfb_b3[(xfb_first0[xfb_i] + xfb_k) * 1u + 0u] = bitcast<vec4<u32>>(emit_spark[xfb_k]);"));
    CHECK(in(w.source, "xfb_b4[(xfb_first0[xfb_i] + xfb_k) * 1u + 0u] = bitcast<u32>(emit_heat[xfb_k]);"));
    CHECK(in(w.source, "(xfb_first1[xfb_i] + xfb_k) < 7u; xfb_k++) {"));
    CHECK(in(w.source, "xfb_b5[(xfb_first1[xfb_i] + xfb_k) * 2u + 1u] = emit_id[xfb_k][1];"));
    // Without an emit plan, emitted entries are refused.
    XFB_REQUIRE_ERROR(translateToWgsl(src, {}, pass, cap, entries.size()), ErrorCode::InvalidArgument);
}

TEST_CASE("WGSL fused substeps: the body loops xfb_u.xfb_substeps times, captured words feed the state by offset, "
          "stores follow the loop") {
    // State record {uint id, int hits, float x}; the outputs are declared in another order.
    const std::string src = R"(#version 300 es
precision highp float;
in float x;
in uint id;
in int hits;
uniform float scale;
uniform int xfb_substep;
flat out uint out_id;
flat out int out_hits;
out float out_x;
void main() { out_id = id + 1u; out_hits = hits - xfb_substep; out_x = x * scale; gl_PointSize = 1.0; }
)";
    auto p = planState(src, {{attr(1), ComponentType::UInt32, 1},
                             {attr(2), ComponentType::Int32, 1},
                             {attr(0), ComponentType::Float32, 1}});
    auto in = [](const std::string& text, const std::string& s) { return text.find(s) != std::string::npos; };
    WgslTranslationOptions options;
    options.fuseSubsteps = true;
    auto fused = translateToWgsl(src, {}, p.pass, p.capture, 1, options);
    auto single = translateToWgsl(src, {}, p.pass, p.capture, 1);
    // The uniform layout is the ordinary one plus the substep count after the shader's uniforms.
    REQUIRE(fused.uniforms.size() == 2);
    CHECK(fused.uniforms[1].name == "xfb_substep");
    CHECK(fused.uniforms[1].offset == 8);
    CHECK(fused.substepsOffset == 12);
    CHECK(single.substepsOffset == -1);
    CHECK(fused.uniformBytes == 16);
    CHECK(in(fused.source, "    xfb_substep: i32,\n    xfb_substeps: u32,\n};"));
    CHECK_FALSE(in(single.source, "xfb_substeps"));
    // The built-in is a private the loop (or, unfused, the uniform) sets.
    CHECK(in(fused.source, "var<private> xfb_substep: i32;"));
    // Each substep starts from zeroed outputs, as k single passes would.
    CHECK(in(fused.source,
             "for (var xfb_s = 0u; xfb_s < xfb_u.xfb_substeps; xfb_s++) {\n        xfb_substep = i32(xfb_s);\n"
             "        out_id = u32();\n        out_hits = i32();\n        out_x = f32();\n        xfb_user_main();\n"));
    CHECK(in(single.source, "    xfb_substep = xfb_u.xfb_substep;\n    xfb_user_main();\n"));
    CHECK_FALSE(in(single.source, "xfb_s++"));
    CHECK(in(fused.source, "out_hits = ((hits - xfb_substep) + 1)") ==
          false); // the user's code reads the private as is
    CHECK(in(fused.source, "out_hits = (hits - xfb_substep);"));
    // Feedback by offset, in the inputs' order: x reads word 2 (out_x), id word 0 (out_id), hits word 1 (out_hits).
    CHECK(in(fused.source, "        x = out_x;\n        id = out_id;\n        hits = out_hits;\n    }\n"));
    // Loads before the loop, stores after it (once).
    auto loop = fused.source.find("for (var xfb_s"), store = fused.source.find("xfb_b2[xfb_i * 3u + 0u] = out_id;");
    CHECK(fused.source.find("id = xfb_b1[xfb_i * 3u + 0u];") < loop);
    CHECK(store != std::string::npos);
    CHECK(store > loop);
    CHECK(fused.source.find("xfb_b2[", store + 1) != std::string::npos);
    // Refusals: a sampler (the planner's reason), emitted outputs, a mistyped built-in.
    const std::string texel = "#version 300 es\nprecision highp float;\nin vec4 position;\nuniform highp sampler2D "
                              "s;\nout vec4 out_position;\n"
                              "void main() { out_position = position + texelFetch(s, ivec2(0), 0); }\n";
    auto t = planState(texel, {{attr(0)}});
    CHECK(in(XFB_REQUIRE_ERROR(translateToWgsl(texel, {}, t.pass, t.capture, 1, options), ErrorCode::InvalidArgument),
             "uniform 's' is a sampler2D"));
    EmitPlan someEmits;
    someEmits.outputs.push_back({});
    WgslTranslationOptions withEmits = options;
    withEmits.emits = &someEmits;
    CHECK(in(XFB_REQUIRE_ERROR(translateToWgsl(src, {}, p.pass, p.capture, 1, withEmits), ErrorCode::InvalidArgument),
             "emitted outputs"));
    CHECK(in(refused(body("void main() { out_position = position * float(xfb_substep); }\n",
                          "uniform float xfb_substep;\n")),
             "the built-in 'xfb_substep' must be declared `uniform int xfb_substep;`"));
    CHECK(in(refused(body("void main() { xfb_substep = 2; out_position = position; }\n", "uniform int xfb_substep;\n")),
             "needs a variable"));
}

TEST_CASE("WGSL: switch with fall-through, merged labels, default and continue") {
    auto t = wgsl(body(R"(
void main() {
    int r = 0;
    for (int k = 0; k < 4; ++k) {
        switch (gl_VertexID + k) {
            case 0:
            case 1: r += 1; break;
            case 2: r += 10;
            case 3: r += 100; break;
            case 4: continue;
            default: r -= 1;
        }
    }
    uint u = uint(r);
    switch (u) { case 7u: r = 0; }
    out_position = vec4(float(r));
})"));
    CHECK(t.has("switch ((xfb_vertex_id + k)) {\n            case 0, 1: {\n                r = (r + 1);\n"
                "                break;\n            }\n"));
    // case 2 falls into case 3: its statements are copied up to case 3's break.
    CHECK(t.has("case 2: {\n                r = (r + 10);\n                r = (r + 100);\n"
                "                break;\n            }\n            case 3: {\n                r = (r + 100);"));
    CHECK(t.has("case 4: {\n                continue;\n"));
    CHECK(t.has("default: {\n                r = (r - 1);\n"));
    CHECK(t.has("switch (u) {\n        case 7u: {\n            r = 0;\n        }\n        default: {\n        }\n"));
}

TEST_CASE("WGSL: side effects inside expressions are hoisted in GLSL's order, exactly where they run") {
    auto t = wgsl(body(R"(
float f(float x) { out_position = vec4(x); return x; }
void main() {
    float r[4];
    int i = 0;
    r[i++] = 1.0;
    float a, b;
    a = b = 2.0;
    int j = i++ + 1;
    int k = (i, 2);
    for (int m = 0, n = 3; m < n; m++, n--) a += 1.0;
    float y = gl_VertexID > 0 ? f(1.0) : 0.0;
    bool c = gl_VertexID > 2 && (i++ > 3);
    while ((i += 1) < 9) b += 1.0;
    out_position = vec4(a + b + y + r[0], float(j + k), float(c), 0.0);
})"));
    CHECK(t.has("let xfb_t0 = i;\n    i++;\n    r[xfb_t0] = 1.0f;"));     // r[i++]: the old i
    CHECK(t.has("let xfb_t1 = 2.0f;\n    b = xfb_t1;\n    a = xfb_t1;")); // a = b = 2.0
    CHECK(t.has("let xfb_t2 = i;\n    i++;\n    var j: i32 = (xfb_t2 + 1);"));
    CHECK(t.has("var k: i32 = (2);")); // the comma's left side has no effect: `_ = i;` hoisted
    CHECK(t.has("_ = i;"));
    // A for whose init declares two variables and whose update has a comma: a loop with continuing.
    CHECK(t.has("var m: i32 = 0;\n        var n: i32 = 3;\n        loop {\n            if !((m < n)) {\n"
                "                break;\n            }\n            a = (a + 1.0f);\n            continuing {\n"
                "                m++;\n                n--;\n            }\n"));
    // ?: whose side writes: if/else, f() runs only when the condition holds.
    CHECK(t.has("var xfb_t3: f32;\n    if ((xfb_vertex_id > 0)) {\n        xfb_t3 = f(1.0f);\n    } else {\n"
                "        xfb_t3 = 0.0f;\n    }\n    var y: f32 = xfb_t3;"));
    // && with an effect on its right: the increment runs only when the left side holds.
    CHECK(t.has("var xfb_t4 = (xfb_vertex_id > 2);\n    if (xfb_t4) {\n        let xfb_t5 = i;\n        i++;\n"
                "        xfb_t4 = ((xfb_t5 > 3));\n    }\n    var c: bool = xfb_t4;"));
    // A loop condition with an effect runs before every test.
    CHECK(t.has("loop {\n        let xfb_t6 = (i + 1);\n        i = xfb_t6;\n        if !(((xfb_t6) < 9)) {\n"
                "            break;\n        }\n        b = (b + 1.0f);\n    }"));
}

TEST_CASE("WGSL: a matrix from components across its columns, fma") {
    auto t = wgsl(body(R"(
void main() {
    mat2 m = mat2(position);
    mat3x2 n = mat3x2(position.xyz, ivec2(1, 2), 0.5);
    out_position = vec4(m[1], n[2]);
})"));
    CHECK(t.has("var m: mat2x2<f32> = mat2x2<f32>((position).x, (position).y, (position).z, (position).w);"));
    CHECK(t.has("mat3x2<f32>((position.xyz).x, (position.xyz).y, (position.xyz).z, f32((vec2<i32>(1, 2)).x), "
                "f32((vec2<i32>(1, 2)).y), 0.5f)"));
    auto f = wgsl("#version 430\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = fma(p, p, vec4(1.0)); }");
    CHECK(f.has("fma(p, p, vec4<f32>(1.0f))"));
    // smoothstep() written out as GLSL defines it (WGSL's rounds differently on SwiftShader).
    auto s = wgsl(body("void main() { out_position = vec4(smoothstep(0.0, 2.0, position.x), smoothstep(vec3(0.0), "
                       "vec3(2.0), position.xyz)); }"));
    CHECK(s.has("fn xfb_smoothstep(e0: f32, e1: f32, x: f32) -> f32 {\n    let t = clamp((x - e0) / (e1 - e0), "
                "f32(0.0f), f32(1.0f));\n    return t * t * (3.0f - 2.0f * t);\n}"));
    CHECK(s.has("xfb_smoothstep_v3(vec3<f32>(0.0f), vec3<f32>(2.0f), position.xyz)"));
}

TEST_CASE("WGSL: == and != of structs and arrays, member by member, element by element") {
    auto t = wgsl(body(R"(
struct Inner { vec2 v; mat2 m; };
struct Outer { float f; Inner i[2]; };
void main() {
    Inner a = Inner(position.xy, mat2(1.0));
    Outer o = Outer(1.0, Inner[2](a, a)), p = o;
    float r[3] = float[3](1.0, 2.0, position.x);
    bool same = o == p, different = r != float[3](1.0, 2.0, 3.0);
    out_position = vec4(float(same), float(different), 0.0, 1.0);
})"));
    CHECK(t.has(
        "fn xfb_equal_Inner(a: Inner, b: Inner) -> bool {\n    return all(a.v == b.v) && xfb_mat2x2_equal(a.m, b.m);"));
    CHECK(t.has("fn xfb_equal_Outer(a: Outer, b: Outer) -> bool {\n    return (a.f == b.f) && "
                "xfb_equal_array2_Inner(a.i, b.i);"));
    CHECK(t.has("for (var i = 0; i < 2; i++) {\n        if (!xfb_equal_Inner(a[i], b[i])) { return false; }"));
    CHECK(t.has("xfb_equal_Outer(o, p)"));
    CHECK(t.has("(!xfb_equal_array3_"));
}

TEST_CASE("WGSL: built-ins with an out argument (modf, uaddCarry, usubBorrow) become statements before theirs") {
    auto t = wgsl(es310(body(R"(
void main() {
    vec2 whole;
    vec2 f = modf(position.xy * 3.5, whole);
    uvec2 carry, borrow;
    uvec2 sum = uaddCarry(uvec2(position.zw), uvec2(4294967295u), carry);
    uvec2 diff = usubBorrow(uvec2(1u, 5u), uvec2(2u), borrow);
    out_position = vec4(f + whole, vec2(sum + carry + diff + borrow));
})")));
    CHECK(t.has("let xfb_t0 = modf((position.xy * 3.5f));\n    whole = xfb_t0.whole;"));
    CHECK(t.has("var f: vec2<f32> = xfb_t0.fract;"));
    CHECK(t.has("let xfb_t1 = vec2<u32>(position.zw) + vec2<u32>(4294967295u);"));
    CHECK(t.has("carry = select(vec2<u32>(0u), vec2<u32>(1u), xfb_t1 < vec2<u32>(position.zw));"));
    CHECK(t.has("borrow = select(vec2<u32>(0u), vec2<u32>(1u), vec2<u32>(1u, 5u) < vec2<u32>(2u));"));
}

TEST_CASE("WGSL: inverse, integer bit functions, isnan/isinf, outerProduct, matrixCompMult, matrix operators") {
    auto t = wgsl(es310(body(R"(
void main() {
    mat2 m2 = inverse(mat2(2.0, 0.0, 1.0, 4.0));
    mat3 m3 = inverse(mat3(1.0));
    mat4 m4 = inverse(mat4(2.0));
    int bits = bitCount(7u) + bitCount(-1) + findMSB(8u) + findLSB(0);
    ivec2 msb = findMSB(ivec2(1, -1));
    uint x = bitfieldExtract(0xF0u, 4, 4) + bitfieldInsert(0u, 1u, 3, 1) + bitfieldReverse(1u);
    bool n = isnan(position.x) || isinf(position.y);
    bvec3 nv = isnan(position.xyz);
    mat3x2 op = outerProduct(vec2(1.0), vec3(2.0));
    mat2 cm = matrixCompMult(m2, m2);
    mat2 d = m2 / 2.0 + 1.0 - m2 / m2;
    bool same = m2 == cm, different = m2 != cm;
    out_position = vec4(m3[0][0] + m4[1][1] + op[2][1] + cm[0][0] + d[1][1], float(bits + msb.y), float(x), float(n && same && different && nv.x));
})")));
    CHECK(t.has(
        "fn xfb_inverse2x2(m: mat2x2<f32>) -> mat2x2<f32> {\n    let d = 1.0f / determinant(m);\n"
        "    return mat2x2<f32>(vec2<f32>((m[1][1]), -(m[0][1])) * d, vec2<f32>(-(m[1][0]), (m[0][0])) * d);\n}"));
    CHECK(t.has("fn xfb_inverse3x3("));
    CHECK(t.has("fn xfb_inverse4x4("));
    CHECK(t.has("var m2: mat2x2<f32> = xfb_inverse2x2(mat2x2<f32>(2.0f, 0.0f, 1.0f, 4.0f));"));
    CHECK(t.has("bitcast<i32>(countOneBits(7u))")); // GLSL's bitCount returns int
    CHECK(t.has("countOneBits((-1))"));
    CHECK(t.has("bitcast<i32>(firstLeadingBit(8u))"));
    CHECK(t.has("firstTrailingBit(0)"));
    CHECK(t.has("var msb: vec2<i32> = firstLeadingBit(vec2<i32>(1, (-1)));"));
    CHECK(t.has("extractBits(0xF0u, u32(4), u32(4))"));
    CHECK(t.has("insertBits(0u, 1u, u32(3), u32(1))"));
    CHECK(t.has("reverseBits(1u)"));
    CHECK(t.has("((bitcast<u32>(position.x) & 0x7fffffffu) > 0x7f800000u)"));
    CHECK(t.has("((bitcast<u32>(position.y) & 0x7fffffffu) == 0x7f800000u)"));
    CHECK(t.has("((bitcast<vec3<u32>>(position.xyz) & vec3<u32>(0x7fffffffu)) > vec3<u32>(0x7f800000u))"));
    CHECK(t.has("fn xfb_outer3x2(c: vec2<f32>, r: vec3<f32>) -> mat3x2<f32> { return mat3x2<f32>(c * r[0], c * r[1], c "
                "* r[2]); }"));
    CHECK(t.has("fn xfb_mat2x2_mul_mm(a: mat2x2<f32>, b: mat2x2<f32>) -> mat2x2<f32> { return mat2x2<f32>(a[0] * b[0], "
                "a[1] * b[1]); }"));
    CHECK(t.has("(xfb_mat2x2_add_ms(xfb_mat2x2_div_ms(m2, 2.0f), 1.0f) - xfb_mat2x2_div_mm(m2, m2))"));
    CHECK(t.has("fn xfb_mat2x2_equal(a: mat2x2<f32>, b: mat2x2<f32>) -> bool { return all(a[0] == b[0]) && all(a[1] == "
                "b[1]); }"));
    CHECK(t.has("var different: bool = (!xfb_mat2x2_equal(m2, cm));"));
}

TEST_CASE(
    "WGSL: sampling (texture, textureLod, textureOffset, textureProj, textureGrad) through a sampler per uniform") {
    auto t = wgsl(body(R"(
uniform sampler2D field;
uniform highp sampler2DArray layers;
uniform samplerCube sky;
uniform highp sampler3D volume;
uniform highp isampler2D ids;
void main() {
    vec2 uv = position.xy;
    vec4 a = texture(field, uv) + textureLod(field, uv, 2.0) + textureOffset(field, uv, ivec2(1, -1));
    vec4 b = textureProj(field, vec3(uv, 2.0)) + textureProjLod(volume, position, 1.0) + textureGrad(field, uv, vec2(0.0), vec2(0.0));
    vec4 c = texture(layers, vec3(uv, 1.6)) + texture(sky, position.xyz) + textureLodOffset(volume, position.xyz, 0.5, ivec3(0, 1, 0));
    ivec4 d = texelFetchOffset(ids, ivec2(2), 0, ivec2(1, 0)) + ivec4(textureSize(layers, 0), 0);
    out_position = a + b + c + vec4(d);
})"));
    CHECK(t.has("textureSampleLevel(field, xfb_sampler_field, uv, 0.0f)")); // the vertex stage reads level 0
    CHECK(t.has("textureSampleLevel(field, xfb_sampler_field, uv, 2.0f)"));
    CHECK(t.has("textureSampleLevel(field, xfb_sampler_field, uv, 0.0f, vec2<i32>(1, (-1)))"));
    CHECK(t.has("textureSampleLevel(field, xfb_sampler_field, (vec3<f32>(uv, 2.0f)).xy / (vec3<f32>(uv, 2.0f)).z, "
                "0.0f)"));
    CHECK(t.has("textureSampleLevel(volume, xfb_sampler_volume, (position).xyz / (position).w, 1.0f)"));
    CHECK(t.has("textureSampleGrad(field, xfb_sampler_field, uv, vec2<f32>(0.0f), vec2<f32>(0.0f))"));
    CHECK(
        t.has("textureSampleLevel(layers, xfb_sampler_layers, (vec3<f32>(uv, 1.6f)).xy, i32(clamp(floor((vec3<f32>(uv, "
              "1.6f)).z + 0.5f), 0.0f, f32(textureNumLayers(layers)) - 1.0f)), 0.0f)"));
    CHECK(t.has("textureSampleLevel(sky, xfb_sampler_sky, position.xyz, 0.0f)"));
    CHECK(t.has("textureSampleLevel(volume, xfb_sampler_volume, position.xyz, 0.5f, vec3<i32>(0, 1, 0))"));
    CHECK(t.has("textureLoad(ids, (vec2<i32>(2) + vec2<i32>(1, 0)), 0)"));
    CHECK(t.has("vec3<i32>(vec2<i32>(textureDimensions(layers, 0)), i32(textureNumLayers(layers)))"));
    CHECK(t.has("var sky: texture_cube<f32>;"));
    // A sampler binding per sampled uniform, after every other binding; ids (texelFetch) has none.
    REQUIRE(t.shader.textures.size() == 5);
    CHECK(t.shader.textures[0].samplerBinding == 8);
    CHECK(t.shader.textures[1].samplerBinding == 10);
    CHECK(t.shader.textures[2].samplerBinding == 11);
    CHECK(t.shader.textures[3].samplerBinding == 9);
    CHECK(t.shader.textures[4].samplerBinding == -1);
    CHECK(t.shader.writeBinding[1] == 7);
    CHECK(t.has("@group(0) @binding(8) var xfb_sampler_field: sampler;"));
}

TEST_CASE("WGSL: function-like macros are expanded (WGSL has no preprocessor)") {
    auto t = wgsl(body("#define TWICE(x) ((x) * 2.0)\n#define PICK(v, c) v.c\n"
                       "void main() { out_position = TWICE(position) + PICK(position, wzyx) + float(__LINE__); }"));
    CHECK(t.has("out_position = (((((position) * 2.0f)) + position.wzyx) + f32(7));"));
}

TEST_CASE("WGSL: umulExtended / imulExtended (the high word by 16-bit halves), frexp, ldexp, the 4x8 packings") {
    auto t = wgsl(es310(body(R"(
void main() {
    uvec2 hi, lo;
    umulExtended(uvec2(position.xy), uvec2(4000000000u), hi, lo);
    int ihi, ilo;
    imulExtended(int(position.z), -7, ihi, ilo);
    int e;
    float m = frexp(position.w, e);
    out_position = vec4(vec2(hi + lo), float(ihi + ilo), ldexp(m, e)) + unpackUnorm4x8(packSnorm4x8(position));
})")));
    CHECK(t.has("fn xfb_mul_high_v2(x: vec2<u32>, y: vec2<u32>) -> vec2<u32> {"));
    CHECK(t.has("return xh * yh + (lh >> vec2<u32>(16u)) + (hl >> vec2<u32>(16u)) + (mid >> vec2<u32>(16u));"));
    CHECK(t.has(
        "hi = xfb_mul_high_v2(vec2<u32>(position.xy), vec2<u32>(4000000000u));\n    lo = vec2<u32>(position.xy) * "
        "vec2<u32>(4000000000u);"));
    CHECK(t.has("ihi = bitcast<i32>(xfb_mul_high(bitcast<u32>(i32(position.z)), bitcast<u32>((-7))) - select(u32(0u), "
                "bitcast<u32>((-7)), i32(position.z) < i32(0)) - select(u32(0u), bitcast<u32>(i32(position.z)), (-7) < "
                "i32(0)));"));
    CHECK(t.has("ilo = i32(position.z) * (-7);"));
    CHECK(t.has("let xfb_t0 = frexp(position.w);\n    e = xfb_t0.exp;\n    var m: f32 = xfb_t0.fract;"));
    CHECK(t.has("ldexp(m, e)"));
    CHECK(t.has("unpack4x8unorm(pack4x8snorm(position))"));
}

TEST_CASE("WGSL: variables declared with their struct (struct S { ... } s, t[2])") {
    auto t = wgsl(body(R"(
struct Particle { vec3 p; float life; } spark, sparks[2];
void main() {
    spark.p = position.xyz;
    sparks[1].life = position.w;
    out_position = vec4(spark.p, sparks[1].life);
})"));
    CHECK(t.has("struct Particle {\n    p: vec3<f32>,\n    life: f32,\n};"));
    CHECK(t.has("var<private> spark: Particle;"));
    CHECK(t.has("var<private> sparks: array<Particle, 2>;"));
    CHECK(t.has("sparks[1].life = position.w;"));
}
