// The population plan (xfb/population_plan.hpp), the compute and fragment translations of a
// population's step (ComputeTranslationOptions::liveCount, FragmentTranslationOptions::liveCount)
// and the fragment backend's count and spawn passes (plan/population_passes.hpp) are pure: checked
// here; the bytes on the GPU in tests/gl/population_test.cpp.
#include "plan/population_passes.hpp"
#include "test_util.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/fragment_translation.hpp"
#include "xfb/population_plan.hpp"

using namespace xfb;

namespace {

constexpr const char* kSparks = R"(#version 300 es
in vec4 a_p;
in uint a_tag;
out vec4 emit_p[3];
flat out uint emit_tag[3];
flat out int emit_n;
void main() {
    emit_n = a_p.z > 0.0 ? 2 : 0;
    for (int k = 0; k < 3; ++k) { emit_p[k] = a_p; emit_tag[k] = a_tag; }
    gl_Position = vec4(0.0);
})";

struct Planned {
    ShaderInterface shader;
    std::vector<AttributeSlot> attributes;
    explicit Planned(const char* src = kSparks)
        : shader(readShaderInterface(src)), attributes(planAttributes(shader, Limits::portable())) {}
    PopulationPlan plan(std::int64_t capacity, std::vector<PopulationField> fields,
                        std::string count = "emit_n") const {
        return planPopulation(shader, attributes, capacity, fields, count);
    }
};

const std::vector<PopulationField> kFields{{"a_p", "emit_p"}, {"a_tag", "emit_tag"}};

} // namespace

TEST_CASE("a population's plan: per field a current {input} and a next {output} buffer, one budget") {
    Planned t;
    PopulationPlan p = t.plan(100, kFields);
    CHECK(p.capacity == 100);
    CHECK(p.maxRecords == 3);
    REQUIRE(p.fields.size() == 2);
    CHECK(p.fields[0].format.describe() == "{ATTR0 float32x4 @0} stride 16");
    CHECK(p.fields[1].format.describe() == "{ATTR1 uint32x1 @0} stride 4");
    REQUIRE(p.entries.size() == 4);
    CHECK(p.entries[0].role() == "{input}");
    CHECK(p.entries[0].input->bytes == 1600);
    CHECK(p.entries[1].input->bytes == 400);
    CHECK(p.entries[2].role() == "{output}");
    CHECK(p.pass.count == 100);
    CHECK(p.pass.outputs.empty()); // nothing captured per slot: the records are the state
    CHECK(p.pass.emitEntries == std::vector<int>{2, 3});
    REQUIRE(p.emits.budgets.size() == 1);
    CHECK(p.emits.budgets[0].count == "emit_n");
    CHECK(p.emits.budgets[0].capacity == 100);
    CHECK(p.emits.outputs[0].entry == 2);
    CHECK(p.emits.outputs[1].entry == 3);
}

TEST_CASE("a population's plan refuses what cannot be a population, with a code and the fix") {
    Planned t;
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(0, kFields), ErrorCode::InvalidArgument), "capacity must be > 0, got 0"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(-4, kFields), ErrorCode::InvalidArgument), "got -4"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(10, {}), ErrorCode::InvalidArgument), "needs its state"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(10, kFields, ""), ErrorCode::InvalidArgument), "needs its count output"));
    // A program without the emitted state output.
    auto msg = XFB_REQUIRE_ERROR(t.plan(10, {{"a_p", "emit_q"}, {"a_tag", "emit_tag"}}), ErrorCode::UnknownVarying);
    CHECK(contains(msg, "state field #0 {a_p, emit_q}: the program declares no output 'emit_q'"));
    CHECK(contains(msg, "declare `out vec4 emit_q[N];`"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(10, kFields, "emit_count"), ErrorCode::UnknownVarying),
                   "count output 'emit_count' is not an output of the shader"));
    CHECK(
        contains(XFB_REQUIRE_ERROR(t.plan(10, {{"a_q", "emit_p"}, {"a_tag", "emit_tag"}}), ErrorCode::InvalidArgument),
                 "'a_q' is not an input of the shader (inputs: a_p, a_tag)"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(10, {{"a_p", "emit_p"}}), ErrorCode::SemanticMissing),
                   "shader input 'a_tag' is in no field"));
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(10, {{"a_p", "emit_p"}, {"a_p", "emit_tag"}}), ErrorCode::InvalidArgument),
                   "names 'a_p' as state field #0 does"));
    msg = XFB_REQUIRE_ERROR(t.plan(10, {{"a_p", "emit_tag"}, {"a_tag", "emit_p"}}), ErrorCode::SemanticTypeMismatch);
    CHECK(contains(msg, "input 'a_p' is vec4 but emitted output 'emit_tag' (line 5) writes uint records"));
    // The count must be a scalar int or uint; an emitted output an array.
    Planned bad(R"(#version 300 es
in vec4 a_p;
out vec4 emit_p;
out vec4 emit_q[2];
flat out ivec2 emit_n;
void main() { emit_p = a_p; emit_q[0] = a_p; emit_q[1] = a_p; emit_n = ivec2(1); })");
    CHECK(contains(XFB_REQUIRE_ERROR(bad.plan(10, {{"a_p", "emit_p"}}), ErrorCode::VaryingType), "must be an array"));
    CHECK(contains(XFB_REQUIRE_ERROR(bad.plan(10, {{"a_p", "emit_q"}}), ErrorCode::VaryingType),
                   "count output 'emit_n' (line 5) must be a single int or uint"));
    // What the elements may ask for must fit the GPU's 32-bit counts: capacity x 3 < 2^32.
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(1431655766, kFields), ErrorCode::BufferTooLarge), "4294967298 records"));
    CHECK_NOTHROW(t.plan(1431655765, kFields));
    // A capacity whose bytes overflow 64 bits (JavaScript's 1e300 reaches wasm as INT64_MAX).
    CHECK(contains(XFB_REQUIRE_ERROR(t.plan(INT64_MAX, kFields), ErrorCode::BufferTooLarge), "field 'a_p'"));
}

TEST_CASE("a population's compute step reads its live count on the GPU, the count pass zeroes the dead slots") {
    Planned t;
    PopulationPlan p = t.plan(1000, kFields);
    const CapturePlan none;
    ComputeTranslationOptions o;
    o.workGroupSize = 64;
    o.emits = &p.emits;
    o.liveCount = true;
    ComputeShader multi = translateToCompute(kSparks, {}, p.pass, none, p.entries.size(), o);
    // Bindings: the two current fields, the two next ones, the live count, then the counts and firsts.
    CHECK(multi.readBinding == std::vector<int>{0, 1, -1, -1});
    CHECK(multi.writeBinding == std::vector<int>{-1, -1, 2, 3});
    CHECK(multi.liveBinding == 4);
    const std::string block = "layout(std430, binding = 4) readonly buffer xfb_live_block { uint xfb_live_count; };";
    CHECK(contains(multi.source, block));
    CHECK(contains(multi.source, "if (xfb_i >= xfb_live_count) return;"));
    CHECK(contains(multi.countSource, block));
    CHECK(contains(multi.countSource, "    if (xfb_i >= xfb_count) return;\n    if (xfb_i >= xfb_live_count) {\n"
                                      "        xfb_emitted0[xfb_i] = 0u;\n        return;\n    }\n"));
    // The single pass: the live count's tiles, at least one, clearing the capacity's tiles between them.
    o.singlePassEmit = true;
    ComputeShader single = translateToCompute(kSparks, {}, p.pass, none, p.entries.size(), o);
    CHECK(single.liveBinding == 4);
    CHECK(single.stateBinding == 5);
    CHECK(contains(single.source, "bool xfb_live = xfb_i < xfb_live_count;"));
    CHECK(contains(single.source, "uint xfb_last = max((xfb_live_count + 64u - 1u) / 64u, 1u) - 1u;"));
    CHECK(contains(single.source, "for (uint xfb_u = xfb_t, xfb_tiles = max((xfb_live_count + 64u - 1u) / 64u, 1u); "
                                  "xfb_u < (xfb_count + 64u - 1u) / 64u; xfb_u += xfb_tiles)"));
    CHECK(contains(single.source, "xfb_next_status[xfb_u * 1u + xfb_b] = 0u;"));
    // The same with the subgroup scan (NVIDIA's path; llvmpipe has no GL_KHR_shader_subgroup).
    o.subgroupScan = true;
    ComputeShader subgroups = translateToCompute(kSparks, {}, p.pass, none, p.entries.size(), o);
    CHECK(contains(subgroups.source, "#extension GL_KHR_shader_subgroup_arithmetic : require"));
    CHECK(contains(subgroups.source, "bool xfb_live = xfb_i < xfb_live_count;"));
    CHECK(contains(subgroups.source, "uint xfb_last = max((xfb_live_count + 64u - 1u) / 64u, 1u) - 1u;"));
    CHECK(contains(subgroups.source, "xfb_u += xfb_tiles)"));
    o.subgroupScan = false;
    // Without it nothing changes: the element count is the uniform, no live block.
    o.liveCount = false;
    ComputeShader plain = translateToCompute(kSparks, {}, p.pass, none, p.entries.size(), o);
    CHECK(plain.liveBinding == -1);
    CHECK_FALSE(contains(plain.source, "xfb_live_count"));
    CHECK(contains(plain.source, "bool xfb_live = xfb_i < xfb_count;"));
    CHECK(contains(plain.source, "xfb_next_status[xfb_t * 1u + xfb_b] = 0u;"));
}

TEST_CASE("a population's fragment step: the count pass reads the live count from a texel, nothing else changes") {
    Planned t;
    PopulationPlan p = t.plan(1000, kFields);
    const CapturePlan none;
    FragmentTranslationOptions o;
    o.textureWidth = 256;
    o.emits = &p.emits;
    o.liveCount = true;
    const FragmentShader live = translateToFragment(kSparks, {}, p.pass, none, p.entries.size(), o);
    CHECK(live.passes.empty()); // nothing captured per slot: the records are the state
    CHECK(live.textureWidth == 256);
    CHECK(live.emits.pyramid.levels.front().nodes == 1000); // over the capacity
    CHECK(contains(live.emits.count, "uniform highp usampler2D xfb_live;\n"));
    CHECK(contains(live.emits.count, "    if (xfb_e < min(xfb_count, texelFetch(xfb_live, ivec2(0), 0).x)) {\n"
                                     "        xfb_run(xfb_e);\n"));
    CHECK(contains(live.emits.count, "const uint xfb_count = 1000u;"));
    // Without it: the count is the constant; the pyramid and the gathers are the same text either way.
    o.liveCount = false;
    const FragmentShader plain = translateToFragment(kSparks, {}, p.pass, none, p.entries.size(), o);
    CHECK_FALSE(contains(plain.emits.count, "xfb_live"));
    CHECK(contains(plain.emits.count, "    if (xfb_e < xfb_count) {\n"));
    CHECK(plain.emits.reduce == live.emits.reduce);
    REQUIRE(plain.emits.gathers.size() == live.emits.gathers.size());
    for (std::size_t g = 0; g < plain.emits.gathers.size(); ++g)
        CHECK(plain.emits.gathers[g].source == live.emits.gathers[g].source);
}

TEST_CASE("a population's fragment passes: the count texel after a step or a spawn, the spawn at the live count") {
    const std::string version = "#version 300 es\nprecision highp float;\nprecision highp int;\n";
    const plan::PopulationFragmentShaders s = plan::populationFragmentShaders(version, 1000, 256, 4, 7, 0);
    for (const std::string* pass : {&s.step, &s.spawn}) {
        CHECK(pass->rfind(version, 0) == 0);
        CHECK(contains(*pass, "uvec4 xfb_before = texelFetch(xfb_counts, ivec2(0), 0);"));
        CHECK(contains(*pass, "uint xfb_live = min(xfb_requested, 1000u);"));
        // {live, requested, dropped, droppedUnchecked}: both dropped counts saturate at 2^32 - 1.
        CHECK(contains(*pass, "xfb_o0 = uvec4(xfb_live, xfb_requested, xfb_saturated(xfb_before.z, xfb_dropped), "
                              "xfb_saturated(xfb_before.w, xfb_dropped));"));
        CHECK(contains(*pass, "uint xfb_saturated(uint a, uint b) { return a + min(b, 0xffffffffu - a); }"));
    }
    // A step's requested records: the pyramid's top (row 7, budget 0); a spawn's: live + spawned.
    CHECK(contains(s.step, "uint xfb_requested = texelFetch(xfb_top, ivec2(0, 7), 0)[0];"));
    CHECK_FALSE(contains(s.step, "xfb_spawned"));
    CHECK(contains(s.spawn, "uniform highp uint xfb_spawned;"));
    CHECK(contains(s.spawn, "uint xfb_requested = xfb_before.x + xfb_spawned;"));
    CHECK_FALSE(contains(s.spawn, "xfb_top"));
    // The spawn draw: record r at texel live + r of a 256-wide plane of 4 rows; past the capacity, clipped.
    CHECK(contains(s.spawnVertex, "uint xfb_slot = texelFetch(xfb_counts, ivec2(0), 0).x + uint(gl_VertexID);"));
    CHECK(contains(s.spawnVertex, "vec2 xfb_texel = vec2(float(xfb_slot & 255u), float(xfb_slot >> 8u)) + 0.5;"));
    CHECK(contains(s.spawnVertex, "gl_Position = xfb_slot < 1000u ? vec4(xfb_texel / vec2(256.0, 4.0) * 2.0 - 1.0, "
                                  "0.0, 1.0) : vec4(0.0, 0.0, 2.0, 1.0);"));
    CHECK(contains(s.spawnVertex, "xfb_v = xfb_record * uvec4(greaterThan(uvec4(xfb_words), uvec4(0u, 1u, 2u, 3u)));"));
    CHECK(contains(s.spawnFragment, "xfb_o0 = xfb_v;"));
    // Another budget component, row and width.
    const plan::PopulationFragmentShaders t = plan::populationFragmentShaders(version, 5, 1, 5, 0, 2);
    CHECK(contains(t.step, "texelFetch(xfb_top, ivec2(0, 0), 0)[2]"));
    CHECK(contains(t.spawnVertex, "float(xfb_slot & 0u), float(xfb_slot >> 0u)"));
}
