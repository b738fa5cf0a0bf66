#include "test_util.hpp"
#include "xfb/capture_plan.hpp"

using namespace xfb;

static CapturePlan capture(std::string_view src, CaptureOptions o = {}, Limits l = Limits::portable()) {
    return planCapture(readShaderInterface(src), o, l);
}

TEST_CASE("the 36-byte example: vec4 + vec3 + vec2 interleaved -> stride 36, offsets 0, 16, 28") {
    auto p = capture("out vec4 out_position; out vec3 out_normal; out vec2 out_uv; out vec4 color;");
    REQUIRE(p.buffers.size() == 1);
    CHECK(p.varyings.size() == 3); // `color` lacks the out_ prefix: not captured
    CHECK(p.buffers[0].stride == 36);
    REQUIRE(p.buffers[0].fields.size() == 3);
    CHECK(p.buffers[0].fields[0].offset == 0);
    CHECK(p.buffers[0].fields[1].offset == 16);
    CHECK(p.buffers[0].fields[2].offset == 28);
    // Re-bound as vertex input, the same buffer uses the same offsets.
    VertexFormat f = p.buffers[0].asVertexFormat();
    CHECK(f.stride == 36);
    CHECK(f.attributes[1].offset == 16);
    CHECK(f.attributes[1].components == 3);
    CHECK(f.attributes[2].offset == 28);
}

TEST_CASE("separate mode: one buffer per varying, bindings in order") {
    CaptureOptions o{CaptureMode::Separate, {"out_b", "out_a"}};
    auto p = capture("out vec4 out_a; flat out ivec2 out_b;", o);
    REQUIRE(p.buffers.size() == 2);
    CHECK(p.buffers[0].binding == 0);
    CHECK(p.buffers[0].fields[0].varying == "out_b");
    CHECK(p.buffers[0].fields[0].type == ComponentType::Int32);
    CHECK(p.buffers[0].stride == 8);
    CHECK(p.buffers[1].binding == 1);
    CHECK(p.buffers[1].stride == 16);
}

TEST_CASE("separate mode rejects 5+ components even where the driver allows them") {
    Limits llvmpipe{16, 64, 4, 64};
    CaptureOptions o{CaptureMode::Separate};
    // A vec4 + float struct flattened into one vec4[2]-sized varying by mistake, and a mat4.
    auto msg = XFB_REQUIRE_ERROR(capture("out vec4 out_position; out mat4 out_transform;", o, llvmpipe),
                                 ErrorCode::SeparateComponents);
    CHECK(contains(msg, "'out_transform'"));
    CHECK(contains(msg, "16 components"));
    CHECK(contains(msg, "4-component limit"));
    CHECK(contains(msg, "split it"));
    CHECK(contains(msg, "interleaved"));
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_state[2];", o, llvmpipe), ErrorCode::SeparateComponents);
    CHECK(contains(msg, "8 components"));
    // The same shader passes on a driver that allows it when portability is off...
    o.portable = false;
    CHECK(capture("out mat4 out_transform;", o, llvmpipe).buffers[0].stride == 64);
    // ...and is still checked against the driver's own limit.
    XFB_REQUIRE_ERROR(capture("out mat4 out_transform;", o, Limits::portable()), ErrorCode::SeparateComponentsDriver);
    // Interleaved is the other fix.
    CHECK(capture("out vec4 out_position; out mat4 out_transform;").buffers[0].stride == 80);
}

TEST_CASE("separate attribs and interleaved components limits") {
    CaptureOptions sep{CaptureMode::Separate};
    auto msg =
        XFB_REQUIRE_ERROR(capture("out float out_a, out_b, out_c, out_d, out_e;", sep), ErrorCode::SeparateAttribs);
    CHECK(contains(msg, "5 varyings"));
    Limits l;
    l.maxInterleavedComponents = 8;
    msg = XFB_REQUIRE_ERROR(capture("out vec4 out_a; out vec4 out_b; out float out_c;", {}, l),
                            ErrorCode::InterleavedComponents);
    CHECK(contains(msg, "9 components"));
}

TEST_CASE("capture list errors") {
    // The message names the outputs there are and the two fixes, or says there is no output at all.
    auto none = XFB_REQUIRE_ERROR(capture("out vec4 position; out vec2 uv;"), ErrorCode::NoCapturedVaryings);
    CHECK(contains(none, "none of the shader's outputs (position, uv) is named out_*"));
    CHECK(contains(none, "pass the ones to capture as the varying list (e.g. [\"position\"])"));
    CHECK(contains(none, "rename them out_* (out_position)"));
    auto empty =
        XFB_REQUIRE_ERROR(capture("in vec4 p; void main() { gl_Position = p; }"), ErrorCode::NoCapturedVaryings);
    CHECK(contains(empty, "the shader declares no output variable, so there is nothing to capture"));
    CHECK(contains(empty, "list \"gl_Position\""));
    auto msg = XFB_REQUIRE_ERROR(capture("in vec4 velocity; out vec4 out_p;", {CaptureMode::Interleaved, {"velocity"}}),
                                 ErrorCode::UnknownVarying);
    CHECK(contains(msg, "is an input"));
    CHECK(contains(msg, "out_p"));
    XFB_REQUIRE_ERROR(capture("out vec4 out_p;", {CaptureMode::Interleaved, {"out_p", "out_p"}}),
                      ErrorCode::DuplicateVarying);
    XFB_REQUIRE_ERROR(capture("struct S { vec4 a; float b; }; out S out_s;"), ErrorCode::VaryingType);
    auto p = capture("out vec4 out_p;", {CaptureMode::Interleaved, {"gl_Position", "out_p", "gl_PointSize"}});
    CHECK(p.buffers[0].stride == 36);
}
