// The compute translation is pure: its output is checked here as text; that it computes the same
// bytes as transform feedback is checked on the GPU in tests/gl.
#include "test_util.hpp"
#include "xfb/compute_translation.hpp"

using namespace xfb;

namespace {
struct Translated {
    ComputeShader shader;
    bool has(const std::string& s) const { return shader.source.find(s) != std::string::npos; }
};

Translated translate(const std::string& src, CaptureOptions capture = {}, std::vector<EntryDesc> entries = {},
                     bool es = false) {
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, capture, Limits::portable());
    if (entries.empty()) {
        // One {input} buffer holding every input packed, one {output} per captured buffer.
        std::vector<VertexAttribute> in;
        for (auto& a : attrs) in.push_back({a.semantic, *componentTypeOf(a.type.kind), a.components()});
        if (!in.empty()) entries.push_back({BufferDesc{VertexFormat::interleaved(in), 0}, std::nullopt});
        for (auto& b : cap.buffers)
            entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride) * 10}});
        if (!in.empty()) entries[0].input->bytes = std::uint64_t(entries[0].input->format.stride) * 10;
    }
    auto pass = planPass(attrs, cap, entries, std::int64_t(10));
    return {translateToCompute(src, {}, pass, cap, entries.size(), {es, 64})};
}
} // namespace

TEST_CASE("inputs become globals loaded from storage buffers, outputs are stored at their offsets") {
    auto t = translate(R"(#version 300 es
#define SCALE(x) ((x) * 2.0)
layout(location = 0) in vec4 position;
in vec3 normal;
in vec2 uv;
flat out int out_id;
out vec4 out_position;
out vec3 out_normal;
invariant gl_Position;
void main() {
    out_id = gl_VertexID;
    out_position = SCALE(position);
    out_normal = normal;
    gl_Position = position;
})");
    CHECK(t.has("#version 430"));
    CHECK(t.has("layout(local_size_x = 64) in;"));
    CHECK(t.has("#define SCALE(x) ((x) * 2.0)")); // function-like macros are re-emitted
    CHECK(t.has("\nvec4 position ;"));            // qualifiers dropped: a plain global
    CHECK(t.has("\nint out_id ;"));
    CHECK_FALSE(t.has("invariant"));
    CHECK(t.has("void xfb_user_main ( )"));
    CHECK(t.has("out_id = xfb_vertex_id ;"));
    CHECK(t.has("xfb_position = position ;"));
    CHECK(t.has("if (xfb_i >= xfb_count) return;")); // the last partial work group
    // 36-byte input (vec4 + vec3 + vec2): word addressing, not std430 struct packing.
    CHECK(t.has("uint xfb_b0[]"));
    CHECK(t.has("normal = vec3(uintBitsToFloat(xfb_b0[xfb_i * 9u + 4u]), uintBitsToFloat(xfb_b0[xfb_i * 9u + 5u]), "
                "uintBitsToFloat(xfb_b0[xfb_i * 9u + 6u]));"));
    CHECK(t.has("uv = vec2(uintBitsToFloat(xfb_b0[xfb_i * 9u + 7u])"));
    // Interleaved output: int at 0, vec4 at 4, vec3 at 20 (stride 32 bytes = 8 words).
    CHECK(t.has("xfb_b1[xfb_i * 8u + 0u] = uint(out_id);"));
    CHECK(t.has("xfb_b1[xfb_i * 8u + 5u] = floatBitsToUint(out_normal[0]);"));
    CHECK(t.shader.readBinding == std::vector<int>{0, -1});
    CHECK(t.shader.writeBinding == std::vector<int>{-1, 1});
}

TEST_CASE("aligned vec4 buffers are read and written as uvec4 (vectorised)") {
    auto t = translate("#version 300 es\nin vec4 p;\nin vec4 v;\nout vec4 out_p;\nout vec4 out_v;\nvoid main() { out_p "
                       "= p; out_v = v; }",
                       {CaptureMode::Separate}, {}, true);
    CHECK(t.has("#version 310 es"));
    CHECK(t.has("precision highp int;"));
    CHECK(t.has("uvec4 xfb_b0[]"));
    CHECK(t.has("p = uintBitsToFloat(xfb_b0[xfb_i * 2u + 0u]);"));
    CHECK(t.has("v = uintBitsToFloat(xfb_b0[xfb_i * 2u + 1u]);"));
    CHECK(t.has("xfb_b2[xfb_i * 1u + 0u] = uvec4(floatBitsToUint(out_v[0]), floatBitsToUint(out_v[1]), "
                "floatBitsToUint(out_v[2]), floatBitsToUint(out_v[3]));"));
}

TEST_CASE("matrices and arrays are loaded per location and stored per component") {
    auto t = translate(
        "#version 300 es\nin mat3 m;\nin float w[2];\nout mat2 out_m;\nvoid main() { out_m = mat2(m) * w[1]; }");
    CHECK(t.has("m[0] = vec3("));
    CHECK(t.has("m[2] = vec3("));
    CHECK(t.has("w[1] = uintBitsToFloat("));
    CHECK(t.has("floatBitsToUint(out_m[1][0]), floatBitsToUint(out_m[1][1])"));
}

TEST_CASE("what a compute shader cannot express is an error naming the construct and the line") {
    // A lookup of a sampler with no explicit-level form (the implicit ones become textureLod below).
    auto msg =
        XFB_REQUIRE_ERROR(translate("#version 300 es\nuniform highp samplerCubeShadow s;\nin vec4 uv;\nout float "
                                    "out_c;\nvoid main() {\n  out_c = texture(s, uv);\n}"),
                          ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "line 6"));
    CHECK(contains(msg, "'texture()' of a samplerCubeShadow has no explicit-level form"));
    CHECK_NOTHROW(translate("#version 300 es\nuniform sampler2D s;\nin vec2 uv;\nout vec4 out_c;\nvoid main() { out_c "
                            "= textureLod(s, uv, 0.0); }"));
    msg = XFB_REQUIRE_ERROR(
        translate("#version 460\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * float(gl_DrawID); }"),
        ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "gl_DrawID"));
    msg = XFB_REQUIRE_ERROR(
        translate("#version 300 es\nin vec4 p;\nout vec4 out_p;\nfloat xfb_i;\nvoid main() { out_p = p; }"),
        ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "reserved prefix"));
    msg = XFB_REQUIRE_ERROR(
        translate("#version 430\nin vec4 p;\nout Block { vec4 q; } blk;\nout vec4 out_p;\nvoid main() { out_p = p; }"),
        ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "interface block"));
    msg = XFB_REQUIRE_ERROR(
        translate("#version 430\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; gl_ClipDistance[0] = 1.0; }"),
        ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "gl_ClipDistance"));
}

TEST_CASE("three-character operators are printed whole: <<= and >>= stay one token") {
    auto t = translate("#version 300 es\nin uvec2 v;\nflat out uint out_a;\nflat out uint out_b;\n"
                       "void main() { out_a = v.x; out_a <<= 3u; out_b = v.y; out_b >>= 1u; }");
    CHECK(t.has("out_a <<= 3u ;"));
    CHECK(t.has("out_b >>= 1u ;"));
    CHECK_FALSE(t.has("<< ="));
    CHECK_FALSE(t.has(">> ="));
}

// Outside a fragment shader the implicit level of detail is the base level (GLSL ES 3.00 section 8.8),
// which compute shaders, without one, name explicitly: level 0.0, before an offset.
TEST_CASE("implicit-level lookups become their explicit level-0 forms") {
    auto t = translate("#version 300 es\nuniform sampler2D s;\nuniform highp sampler3D v;\nin vec2 uv;\n"
                       "out vec4 out_c;\nvoid main() {\n  out_c = texture(s, uv) + textureOffset(s, texture(s, uv).xy, "
                       "ivec2(1, 0)) + textureProj(v, vec4(uv, 1.0, 2.0)) + textureProjOffset(s, vec3(uv, 2.0), "
                       "ivec2(0, 1));\n}");
    CHECK(
        t.has("textureLod ( s , uv , 0.0 ) + textureLodOffset ( s , textureLod ( s , uv , 0.0 ) . xy , 0.0 , ivec2 "
              "( 1 , 0 ) ) + textureProjLod ( v , vec4 ( uv , 1.0 , 2.0 ) , 0.0 ) + textureProjLodOffset ( s , vec3 ( "
              "uv , 2.0 ) , 0.0 , ivec2 ( 0 , 1 ) )"));
    CHECK_FALSE(t.has("texture ("));
}

TEST_CASE("legacy sources are translated from their GLSL ES 3.00 form") {
    auto t =
        translate("attribute vec4 vertex_position;\nvarying vec4 out_p;\nvoid main() { out_p = vertex_position; }");
    CHECK(t.has("vec4 vertex_position ;"));
    CHECK_FALSE(t.has("attribute"));
}

TEST_CASE("emitted outputs: a count pass stores clamped counts, main stores records at first + k within capacity") {
    const std::string src = R"(#version 300 es
in vec4 a;
out vec4 out_a;
out vec4 emit_spark[3];
out float emit_heat[3];
flat out int emit_count;
void main() { out_a = a; emit_count = 2; for (int k = 0; k < 3; ++k) { emit_spark[k] = a; emit_heat[k] = a.x; } }
)";
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, {}, Limits::portable());
    VertexFormat vec4 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{
        {BufferDesc{vec4, 160}, BufferDesc{vec4, 160}},
        {std::nullopt, BufferDesc{vec4, 16 * 25}},
        {std::nullopt, BufferDesc{VertexFormat::interleaved({{attr(0), ComponentType::Float32, 1}}), 4 * 30}}};
    auto pass = planPass(attrs, cap, entries, std::nullopt, OutputSizing::PerElement, 2);
    CHECK(pass.emitEntries == std::vector<int>{1, 2});
    std::vector<EmitDesc> emits{{"emit_spark", "emit_count"}, {"emit_heat", "emit_count"}};
    EmitPlan plan = planEmits(iface, cap, emits, entries, pass.emitEntries, pass.count);
    REQUIRE(plan.budgets.size() == 1);
    CHECK(plan.budgets[0].maxRecords == 3);
    CHECK(plan.budgets[0].capacity == 25); // the smaller buffer of the budget
    CHECK(plan.outputs[1].stride == 4);
    auto shader = translateToCompute(src, {}, pass, cap, entries.size(), {false, 64, &plan});
    auto in = [](const std::string& text, const std::string& s) { return text.find(s) != std::string::npos; };
    CHECK(in(shader.countSource, "xfb_emitted0[xfb_i] = uint(clamp(emit_count, 0, 3));"));
    CHECK_FALSE(in(shader.countSource, "xfb_first0"));
    CHECK(in(shader.source, "xfb_r = xfb_first0[xfb_i]; xfb_k < xfb_n && xfb_r + xfb_k < 25u; ++xfb_k)"));
    CHECK(in(shader.source, "xfb_b" + std::to_string(shader.writeBinding[1]) +
                                "[(xfb_r + xfb_k) * 1u + 0u] = uvec4(floatBitsToUint(emit_spark[xfb_k][0])"));
    CHECK(in(shader.source, "[(xfb_r + xfb_k) * 1u + 0u] = floatBitsToUint(emit_heat[xfb_k]);"));
    CHECK(shader.countsBinding.size() == 1);
    CHECK(shader.firstBinding.size() == 1);

    // The single pass: no count pass; the element index from the tile ticket, not gl_WorkGroupID;
    // records at the tile's base + the element's exclusive scan; three more bindings.
    auto single = translateToCompute(src, {}, pass, cap, entries.size(), {false, 64, &plan, 1, true});
    CHECK(single.countSource.empty());
    CHECK(single.countsBinding.empty());
    CHECK(single.firstBinding.empty());
    CHECK(single.stateBinding == shader.bindingCount - 2);
    CHECK(single.nextStateBinding == single.stateBinding + 1);
    CHECK(single.totalsBinding == single.stateBinding + 2);
    CHECK(single.bindingCount == shader.bindingCount + 1);
    CHECK(in(single.source, "xfb_tile = atomicAdd(xfb_ticket, 1u);"));
    CHECK(in(single.source, "uint xfb_t = xfb_tile, xfb_i = xfb_t * 64u + xfb_l;"));
    CHECK_FALSE(in(single.source, "gl_WorkGroupID"));
    CHECK_FALSE(in(single.source, "gl_GlobalInvocationID"));
    CHECK(in(single.source,
             "xfb_r = xfb_base0 + xfb_scan0[xfb_l] - xfb_c0; xfb_k < xfb_n && xfb_r + xfb_k < 25u; ++xfb_k)"));
    CHECK(in(single.source, "if (xfb_t == xfb_last) xfb_write_totals(0u, xfb_base0 + xfb_total0, 25u);"));
    CHECK(in(single.source, "for (uint xfb_d = 1u; xfb_d < 64u; xfb_d <<= 1u)"));
    CHECK_FALSE(in(single.source, "subgroup"));

    // With subgroups: the extensions, each subgroup's inclusive scan, its last invocation's value
    // in shared memory, the subgroups before this one added in, no Hillis-Steele loop.
    auto sub = translateToCompute(src, {}, pass, cap, entries.size(), {false, 64, &plan, 1, true, true});
    CHECK(sub.source.rfind("#version 430\n#extension GL_KHR_shader_subgroup_basic : require\n#extension "
                           "GL_KHR_shader_subgroup_ballot : require\n"
                           "#extension GL_KHR_shader_subgroup_arithmetic : require\n",
                           0) == 0);
    CHECK(in(sub.source, "uint xfb_s0 = subgroupInclusiveAdd(xfb_c0);"));
    CHECK(in(sub.source, "if (gl_SubgroupInvocationID == xfb_top) xfb_scan0[gl_SubgroupID] = xfb_s0;"));
    CHECK(in(sub.source, "for (uint xfb_g = 0u; xfb_g < gl_SubgroupID; ++xfb_g) xfb_s0 += xfb_scan0[xfb_g];"));
    CHECK(in(sub.source, "for (uint xfb_g = 0u; xfb_g < gl_NumSubgroups; ++xfb_g) xfb_sum0 += xfb_scan0[xfb_g];"));
    CHECK(in(sub.source, "xfb_r = xfb_base0 + xfb_s0 - xfb_c0; xfb_k < xfb_n && xfb_r + xfb_k < 25u; ++xfb_k)"));
    CHECK_FALSE(in(sub.source, "xfb_d <<= 1u"));
    CHECK_FALSE(in(sub.source, "atomicAdd(xfb_total0"));
    // ... and subgroup 0 alone looks back, one predecessor per invocation, no barrier in the loop.
    CHECK(in(sub.source, "    if (gl_SubgroupID == 0u) {\n        uint xfb_sum0 = 0u;\n"));
    CHECK(in(sub.source,
             "uint xfb_w = gl_SubgroupInvocationID < xfb_j ? atomicAdd(xfb_status[xfb_at], 0u) : XFB_PREFIX;"));
    // A predecessor that has taken its ticket but not published (word 0) is read again until it has.
    CHECK(in(sub.source, "while (subgroupBallot(xfb_w == 0u) != uvec4(0u))\n                if (xfb_w == 0u) xfb_w = "
                         "atomicAdd(xfb_status[xfb_at], 0u);"));
    CHECK(in(sub.source, "xfb_before0 += subgroupAdd(gl_SubgroupInvocationID <= xfb_near ? xfb_w & XFB_VALUE : 0u);"));
    CHECK(in(sub.source, "if (xfb_t == xfb_last) xfb_write_totals(0u, xfb_before0 + xfb_sum0, 25u);"));
    CHECK_FALSE(in(sub.source, "xfb_walk_window(0u"));
    CHECK(in(single.source, "xfb_walk_window(0u"));
    // The multi-pass path ignores the option.
    CHECK_FALSE(in(translateToCompute(src, {}, pass, cap, entries.size(), {false, 64, &plan, 1, false, true}).source,
                   "subgroup"));

    // Declaration errors.
    XFB_REQUIRE_ERROR(planEmits(iface, cap, std::vector<EmitDesc>{{"emit_spark", "emit_count"}}, entries,
                                pass.emitEntries, pass.count),
                      ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(planEmits(iface, cap, std::vector<EmitDesc>{{"out_a", "emit_count"}, {"emit_heat", "emit_count"}},
                                entries, pass.emitEntries, pass.count),
                      ErrorCode::VaryingType);
    // Records asked for must fit the GPU's 32-bit totals: 1431655766 elements x 3 records pass 2^32.
    const std::string msg = XFB_REQUIRE_ERROR(planEmits(iface, cap, emits, entries, pass.emitEntries, 1431655766),
                                              ErrorCode::BufferTooLarge);
    CHECK(in(msg, "budget 'emit_count': 1431655766 elements x up to 3 records each may ask for 4294967298 records"));
    CHECK_NOTHROW(planEmits(iface, cap, emits, entries, pass.emitEntries, 1431655765)); // 2^32 - 1 records
}
