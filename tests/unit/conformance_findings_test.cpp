// The planner's side of the conformance review's findings (issue 23); the GL side is
// tests/gl/conformance_findings_test.cpp.
#include "plan/vertex_wrapper.hpp"
#include "state_plan.hpp"
#include "test_util.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/primitive_count.hpp"
#include "xfb/wgsl_translation.hpp"

using namespace xfb;
using xfbtest::planState;
using xfbtest::StatePlan;

// Finding 6: the pure primitive-count planner refuses a DrawMode outside the enum, naming it.
TEST_CASE("finding 6: countCapture, expandPrimitives and planCaptureSession refuse a DrawMode outside the enum") {
    const CapturePlan plan = planCapture(readShaderInterface("out vec4 out_p;"), {}, Limits::portable());
    const auto bad = static_cast<DrawMode>(42);
    std::string msg = XFB_REQUIRE_ERROR(countCapture({bad, 4}, plan), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    CHECK(contains(msg, "points, lines, line_strip, line_loop, triangles, triangle_strip, triangle_fan"));
    XFB_REQUIRE_ERROR(countCapture({static_cast<DrawMode>(-1), 0, {1, 2, 3}}, plan), ErrorCode::InvalidArgument);
    msg = XFB_REQUIRE_ERROR(expandPrimitives({bad, 4}), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    XFB_REQUIRE_ERROR(capturedPrimitive(bad), ErrorCode::InvalidArgument);
    std::vector<DrawDesc> parts{{DrawMode::Lines, 4}, {static_cast<DrawMode>(7), 3}};
    msg = XFB_REQUIRE_ERROR(planCaptureSession(parts, plan), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "part 1"));
    CHECK(contains(msg, "draw mode 7"));
    // Every mode of the table still counts.
    for (int m = 0; m <= int(DrawMode::TriangleFan); ++m) CHECK(countCapture({DrawMode(m), 6}, plan).records > 0);
}

// Finding 1, the generated sources: every output is zeroed before the user's main() runs (every
// substep when fused), in the transform-feedback wrapper, the fused program, the GL compute
// shader and the fused WGSL; one WGSL pass relies on private variables starting at zero.
TEST_CASE("finding 1: the generated programs zero the outputs before the user's main(), every substep") {
    // Captured: out_position (the state); declared, not captured: b and i, zeroed as well.
    const std::string src =
        "#version 300 es\nin vec4 position;\nout vec4 out_position;\nout vec4 b;\nflat out ivec2 i[2];\n"
        "void main() {\n  out_position = position + vec4(1.0);\n  if (gl_VertexID > 100) b = vec4(7.0);\n}\n";
    StatePlan p = planState(src, {{attr(0), ComponentType::Float32, 4}});
    ComputeShader c = translateToCompute(src, {}, p.pass, p.capture, 1);
    CHECK(contains(c.source,
                   "    out_position = vec4(0);\n    b = vec4(0);\n    for (int xfb_z0 = 0; xfb_z0 < 2; ++xfb_z0) {\n"
                   "        i[xfb_z0] = ivec2(0);\n    }\n    xfb_user_main();\n"));
    ComputeShader fusedCompute = translateToCompute(src, {}, p.pass, p.capture, 1, {.substeps = 3});
    CHECK(
        contains(fusedCompute.source,
                 "for (int xfb_s = 0; xfb_s < 3; ++xfb_s) {\n        out_position = vec4(0);\n        b = vec4(0);\n"));
    const std::string fused = fuseVertexShader(src, {}, p.pass, p.capture, 3);
    CHECK(contains(
        fused, "for (int xfb_s = 0; xfb_s < 3; ++xfb_s) {\n        out_position = vec4(0);\n        b = vec4(0);\n"));
    WgslShader w = translateToWgsl(src, {}, p.pass, p.capture, 1);
    CHECK(contains(w.source, "var<private> b: vec4<f32>;\n")); // no initializer: WGSL zero-initialises privates
    WgslShader fusedWgsl = translateToWgsl(src, {}, p.pass, p.capture, 1, {.fuseSubsteps = true});
    CHECK(contains(
        fusedWgsl.source,
        "        out_position = vec4<f32>();\n        b = vec4<f32>();\n        i = array<vec2<i32>, 2>();\n"));
    CHECK(fusedWgsl.source.find("b = vec4<f32>();") < fusedWgsl.source.find("        xfb_user_main();"));
}

// Finding 1, the transform-feedback program: the user's main() renamed by a macro placed after
// #version (comments, strings and #if branches cannot misplace it), line numbers kept.
TEST_CASE("finding 1: wrapVertexMain zeroes the captured outputs in a main() of its own, after the user's lines") {
    const std::string src =
        "// a comment line\n/* a block\n   comment */ #version 300 es\n#if 0\nvoid main() { }\n#endif\n"
        "out vec4 out_a;\nout vec4 out_r[2];\nout vec4 not_captured;\nvoid main() { out_a = vec4(\"{\" == 0); }\n";
    const ShaderInterface s = readShaderInterface(src);
    const CapturePlan cap = planCapture(s, {CaptureMode::Interleaved, {"out_a", "out_r"}}, Limits::portable());
    const std::string w = plan::wrapVertexMain(src, s, cap);
    CHECK(w.starts_with("// a comment line\n/* a block\n   comment */ #version 300 es\n#define main "
                        "xfb_wrapped_main\n#line 4\n#if 0\n"));
    CHECK(contains(
        w,
        "void main() { out_a = vec4(\"{\" == 0); }\n\n\n#undef main\n"
        "out highp vec4 xfb_packed_out_r_0;\nout highp vec4 xfb_packed_out_r_1;\nvoid main() {\n    out_a = vec4(0);\n"
        "    for (int xfb_z0 = 0; xfb_z0 < 2; ++xfb_z0) {\n        out_r[xfb_z0] = vec4(0);\n    }\n    "
        "xfb_wrapped_main();\n"
        "    xfb_packed_out_r_0 = out_r[0];\n    xfb_packed_out_r_1 = out_r[1];\n}\n"));
    CHECK_FALSE(contains(w, "not_captured = ")); // only what is captured: the GL compiler must see those
}

// Finding 1: struct outputs are zeroed through one function per struct type, so nested structs do
// not multiply the text (hostile input: sixteen nested pairs would be 196 608 statements).
TEST_CASE("finding 1: struct outputs are zeroed by a function per struct type, callees first") {
    std::string src = "#version 300 es\nin vec4 position;\nout vec4 out_position;\nstruct S0 { vec2 p[2]; int k; };\n";
    for (int i = 1; i <= 16; ++i)
        src += "struct S" + std::to_string(i) + " { S" + std::to_string(i - 1) + " x; S" + std::to_string(i - 1) +
               " y; };\n";
    src += "out S16 extra;\nvoid main() { out_position = position; }\n";
    // Far over any varying limit (finding 4): planned with limits wide enough for the translation.
    const ShaderInterface s = readShaderInterface(src);
    Limits wide;
    wide.maxVaryingVectors = 1 << 20;
    const CapturePlan cap = planCapture(s, {}, wide);
    const VertexFormat f = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{{BufferDesc{f, 128}, BufferDesc{f, 128}}};
    const PassPlan pass = planPass(planAttributes(s, wide), cap, entries, std::nullopt);
    ComputeShader c = translateToCompute(src, {}, pass, cap, 1);
    CHECK(c.source.size() < 20000);
    CHECK(contains(
        c.source,
        "void xfb_zero_S0(inout S0 v) {\n    for (int xfb_z0 = 0; xfb_z0 < 2; ++xfb_z0) {\n        v.p[xfb_z0] = "
        "vec2(0);\n    }\n"
        "    v.k = int(0);\n}\nvoid xfb_zero_S1(inout S1 v) {\n    xfb_zero_S0(v.x);\n    xfb_zero_S0(v.y);\n}\n"));
    CHECK(contains(c.source, "    out_position = vec4(0);\n    xfb_zero_S16(extra);\n    xfb_user_main();\n"));
    CHECK(c.source.find("void xfb_zero_S16") < c.source.find("\nvoid main() {"));
}

// Finding 3: an element of an output array may be captured alone, as a varying of the element type.
TEST_CASE("finding 3: an element name out_r[1] plans as one varying of the element type, out of range names the size") {
    const ShaderInterface s =
        readShaderInterface("#version 300 es\nout vec2 out_r[2];\nout float out_f;\nout mat2 out_m[2];\n");
    CapturePlan one = planCapture(s, {CaptureMode::Interleaved, {"out_r[1]", "out_f"}}, Limits::portable());
    REQUIRE(one.varyings.size() == 2);
    CHECK(one.varyings[0].name == "out_r[1]");
    CHECK(one.varyings[0].type.name == "vec2");
    CHECK(one.varyings[0].arraySize == 0);
    CHECK(one.varyings[0].line == 2);
    REQUIRE(one.buffers.size() == 1);
    CHECK(one.buffers[0].stride == 12);
    CHECK(one.buffers[0].fields[0].varying == "out_r[1]");
    CHECK(one.buffers[0].fields[0].components == 2);
    CHECK(one.buffers[0].fields[1].offset == 8);
    CapturePlan separate =
        planCapture(s, {CaptureMode::Separate, {"out_r[1]", "out_r[0]", "out_m[1]"}}, Limits::portable());
    REQUIRE(separate.buffers.size() == 3);
    CHECK(separate.buffers[0].stride == 8);
    CHECK(separate.buffers[2].stride == 16);
    CHECK(separate.buffers[2].fields[0].varying == "out_m[1]");

    std::string msg = XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r[2]"}}, Limits::portable()),
                                        ErrorCode::UnknownVarying);
    CHECK(contains(msg, "'out_r[2]'"));
    CHECK(contains(msg, "2 elements"));
    CHECK(contains(msg, "out_r[0]..out_r[1]"));
    msg = XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_f[0]"}}, Limits::portable()),
                            ErrorCode::UnknownVarying);
    CHECK(contains(msg, "not an array"));
    XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r[-1]"}}, Limits::portable()),
                      ErrorCode::UnknownVarying);
    XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r[1"}}, Limits::portable()),
                      ErrorCode::UnknownVarying);
    XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r[99999999999999999999]"}}, Limits::portable()),
                      ErrorCode::UnknownVarying);
    msg = XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r", "out_r[1]"}}, Limits::portable()),
                            ErrorCode::DuplicateVarying);
    CHECK(contains(msg, "'out_r[1]'"));
    CHECK(contains(msg, "'out_r'"));
    XFB_REQUIRE_ERROR(planCapture(s, {CaptureMode::Interleaved, {"out_r[0]", "out_r[0]"}}, Limits::portable()),
                      ErrorCode::DuplicateVarying);

    // The compute and WGSL translations store the element's components at the planned offsets.
    const std::string src = "#version 300 es\nin vec4 position;\nout vec2 out_r[2];\nout float out_f;\n"
                            "void main() { out_r[0] = position.xy; out_r[1] = position.zw; out_f = position.x; }\n";
    const ShaderInterface iface = readShaderInterface(src);
    const CapturePlan cap = planCapture(iface, {CaptureMode::Interleaved, {"out_r[1]", "out_f"}}, Limits::portable());
    const VertexFormat in = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{{BufferDesc{in, 128}, std::nullopt},
                                   {std::nullopt, BufferDesc{cap.buffers[0].asVertexFormat(), 96}}};
    const PassPlan pass = planPass(planAttributes(iface, Limits::portable()), cap, entries, std::nullopt);
    const ComputeShader c = translateToCompute(src, {}, pass, cap, entries.size());
    CHECK(contains(c.source, "xfb_b1[xfb_i * 3u + 0u] = floatBitsToUint(out_r[1][0]);\n    xfb_b1[xfb_i * 3u + 1u] = "
                             "floatBitsToUint(out_r[1][1]);\n"
                             "    xfb_b1[xfb_i * 3u + 2u] = floatBitsToUint(out_f);\n"));
    const WgslShader w = translateToWgsl(src, {}, pass, cap, entries.size());
    CHECK(contains(w.source, "xfb_b2[xfb_i * 3u + 0u] = bitcast<u32>(out_r[1][0]);\n    xfb_b2[xfb_i * 3u + 1u] = "
                             "bitcast<u32>(out_r[1][1]);\n"));
}

namespace {
std::vector<VaryingShape> shapesOf(const std::string& declarations, CaptureOptions options = {}) {
    const ShaderInterface s = readShaderInterface("#version 300 es\n" + declarations);
    Limits wide;
    wide.maxVaryingVectors = 1 << 20;
    wide.maxInterleavedComponents = 1 << 20;
    return varyingShapes(s, planCapture(s, options, wide));
}
std::string vec4s(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += "out vec4 out_v" + std::to_string(i) + ";\n";
    return s;
}
} // namespace

// Finding 4: the varying-vector limit, counted with the GLSL ES packing rules (as ANGLE does for WebGL).
TEST_CASE("finding 4: the varying packing count: vec4s, vec3 + float, mat3, mat2, arrays of vec2") {
    CHECK(varyingsFit(shapesOf(vec4s(31)), 31));
    CHECK_FALSE(varyingsFit(shapesOf(vec4s(32)), 31));
    CHECK(varyingRows(shapesOf(vec4s(32))) == 32);
    // 8 vec3 in rows 0-7, columns 0-2; the 8 floats in column 3 beside them.
    std::string mixed;
    for (int i = 0; i < 8; ++i)
        mixed += "out float out_f" + std::to_string(i) + ";\nout vec3 out_c" + std::to_string(i) + ";\n";
    CHECK(varyingRows(shapesOf(mixed)) == 8);
    CHECK(varyingsFit(shapesOf(mixed), 8));
    CHECK_FALSE(varyingsFit(shapesOf(mixed), 7));
    auto mat3 = shapesOf("out mat3 out_m;\n");
    REQUIRE(mat3.size() == 1);
    CHECK(mat3[0].rows == 3);
    CHECK(mat3[0].columns == 3);
    CHECK(varyingRows(mat3) == 3);
    CHECK(varyingRows(shapesOf("out mat3 out_m;\nout float out_f[3];\n")) == 3); // the floats in column 3
    // mat2 takes two whole rows (WebGL's strict rule): a float needs a third.
    CHECK(varyingRows(shapesOf("out mat2 out_m;\nout float out_f;\n")) == 3);
    // Arrays take a row per element: vec2[4] twice packs into 4 rows, the second in columns 2-3.
    CHECK(varyingRows(shapesOf("out vec2 out_a[4];\nout vec2 out_b[4];\n")) == 4);
    CHECK(varyingRows(shapesOf("out vec4 out_a[3];\nout mat4 out_m[2];\n")) == 11);
    // Uncaptured outputs and struct members count; builtins do not.
    auto s = shapesOf("struct S { vec4 a; vec2 b[2]; };\nout S s;\nout vec4 out_p;\ninvariant gl_Position;\n",
                      {CaptureMode::Interleaved, {"out_p"}});
    CHECK(varyingRows(s) == 4);
    // The engine's packed vector of a separate-mode array counts too.
    CHECK(varyingRows(shapesOf("out vec2 out_r[2];\nout float out_f;\n", {CaptureMode::Separate})) == 3);
    CHECK(varyingRows({}) == 0);
}

TEST_CASE("finding 4: planCapture refuses outputs over Limits::maxVaryingVectors with XFB_VARYING_VECTORS, naming the "
          "rows, the limit and the fix") {
    Limits limits;
    limits.maxInterleavedComponents = 128;
    limits.maxVaryingVectors = 31; // WebGL2 on SwiftShader (ANGLE)
    const ShaderInterface fits = readShaderInterface("#version 300 es\n" + vec4s(31));
    CHECK(planCapture(fits, {}, limits).buffers.at(0).stride == 31 * 16);
    const ShaderInterface over = readShaderInterface("#version 300 es\n" + vec4s(32));
    std::string msg = XFB_REQUIRE_ERROR(planCapture(over, {}, limits), ErrorCode::VaryingVectors);
    CHECK(contains(msg, "32 rows"));
    CHECK(contains(msg, "MAX_VARYING_VECTORS is 31"));
    CHECK(contains(msg, "fewer"));
    // Captured or not: one captured vec4 among 32 declared is refused the same way.
    XFB_REQUIRE_ERROR(planCapture(over, {CaptureMode::Interleaved, {"out_v0"}}, limits), ErrorCode::VaryingVectors);
    // The portable preset is the ES 3.0 minimum.
    CHECK(Limits::portable().maxVaryingVectors == 15);
    msg = XFB_REQUIRE_ERROR(planCapture(readShaderInterface("#version 300 es\n" + vec4s(16)), {}, Limits::portable()),
                            ErrorCode::VaryingVectors);
    CHECK(contains(msg, "16 rows"));
    CHECK(contains(msg, "MAX_VARYING_VECTORS is 15"));
}

// Finding 6 (WebGPU arrays over 16 components), at the planner's depth: a captured field over 16
// components becomes several vertex attributes of at most 16 (an attribute holds 1..16), so the
// default roles of translateToWgsl (xfb-inspect --wgsl, createProgram on WebGPU) accept it.
TEST_CASE("finding 6: a field over 16 components is given as attributes of at most 16, and the default WGSL roles "
          "accept it") {
    const char* src = "#version 300 es\nout mat3 out_m[2];\nout vec2 out_t;\nvoid main() { out_m[0] = mat3(1.0); "
                      "out_m[1] = mat3(2.0); out_t = vec2(3.0); }\n";
    const CapturePlan plan = planCapture(readShaderInterface(src), {}, Limits::portable());
    const VertexFormat f = plan.buffers[0].asVertexFormat(20);
    REQUIRE(f.attributes.size() == 3);
    CHECK(f.stride == 80);
    CHECK((f.attributes[0].semantic == attr(20) && f.attributes[0].components == 16 && f.attributes[0].offset == 0));
    CHECK((f.attributes[1].semantic == attr(21) && f.attributes[1].components == 2 && f.attributes[1].offset == 64));
    CHECK((f.attributes[2].semantic == attr(22) && f.attributes[2].components == 2 && f.attributes[2].offset == 72));
    f.validate();
    const WgslShader w = translateToWgsl(src, {}, CaptureOptions{}, {});
    CHECK(contains(w.source, "out_m"));
}
