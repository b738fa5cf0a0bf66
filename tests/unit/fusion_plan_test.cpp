// Fused substeps, the pure half: which shaders are element-local (and the reason when not), the
// feedback from captured varyings to state inputs through the buffer layout, the generated
// source. That the fused pass equals k single passes bit for bit is checked on the GPU (tests/gl).
#include "state_plan.hpp"
#include "test_util.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/fusion_plan.hpp"

using namespace xfb;
using xfbtest::planState;

namespace {
const char* kParticles = R"(#version 300 es
precision highp float;
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() {
    out_velocity = velocity + vec4(0.0, -1.0, 0.0, 0.0) * dt;
    out_position = position + out_velocity * dt;
}
)";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
} // namespace

TEST_CASE("element-local simulations fuse") {
    auto d = checkElementLocal(kParticles);
    CHECK(d.fused);
    CHECK(has(d.reason, "element-local"));
}

TEST_CASE("a sampler, a texel fetch, an image, a storage buffer or a mutable global refuses fusion, with the line") {
    auto d = checkElementLocal("#version 300 es\nprecision highp float;\nprecision highp sampler2D;\nin vec4 "
                               "p;\nuniform sampler2D positions;\nout vec4 o;\n"
                               "void main() { o = p + texelFetch(positions, ivec2(gl_VertexID, 0), 0); }\n");
    CHECK_FALSE(d.fused);
    CHECK_MESSAGE(has(d.reason, "line 5: uniform 'positions' is a sampler2D"), d.reason);

    d = checkElementLocal("#version 310 es\nin vec4 p;\nlayout(std430, binding = 0) buffer B { vec4 all_[]; };\nout "
                          "vec4 o;\nvoid main() { o = p; }\n");
    CHECK_FALSE(d.fused);
    CHECK_MESSAGE(has(d.reason, "line 3: a shader storage buffer"), d.reason);

    d = checkElementLocal(
        "#version 300 es\nin vec4 p;\nout vec4 o;\nvec4 acc = vec4(0.0);\nvoid main() { acc += p; o = acc; }\n");
    CHECK_FALSE(d.fused);
    CHECK_MESSAGE(has(d.reason, "line 4: global variable 'acc'"), d.reason);

    d = checkElementLocal("#version 300 es\nin vec4 p;\nout vec4 o;\nvec4 f(vec4 x);\nconst float k = 2.0;\nvoid "
                          "main() { o = f(p) * k; }\nvec4 f(vec4 x) { return x; }\n");
    CHECK_MESSAGE(d.fused, d.reason); // a prototype and a const are not state

    d = checkElementLocal("#version 300 es\nin vec4 p;\nuniform int n, xfb_substep;\nout vec4 o;\nvoid main() { o = p "
                          "* float(xfb_substep); }\n");
    CHECK_FALSE(d.fused);
    CHECK_MESSAGE(has(d.reason, "line 3: the built-in 'xfb_substep' must be declared alone"), d.reason);
}

TEST_CASE(
    "the fused vertex shader keeps the attributes, runs the body k times on private copies and feeds the state back") {
    auto p = planState(kParticles, {{attr(0)}, {attr(1)}});
    CHECK(checkFusion(p.source, {}, p.pass, p.capture).fused);
    std::string fused = fuseVertexShader(p.source, {}, p.pass, p.capture, 4);
    CHECK(has(fused, "in vec4 position ; vec4 xfb_state_position;"));
    CHECK(has(fused, "void xfb_user_main"));
    CHECK(has(fused, "xfb_state_velocity + vec4"));
    CHECK(has(fused, "for (int xfb_s = 0; xfb_s < 4; ++xfb_s)"));
    CHECK(has(fused, "xfb_state_position[3] = out_position[3];"));
    CHECK(has(fused, "xfb_state_velocity[0] = out_velocity[0];"));
    XFB_REQUIRE_ERROR(fuseVertexShader(p.source, {}, p.pass, p.capture, 0), ErrorCode::InvalidArgument);
}

TEST_CASE("int and uint state feed back by offset in the interleaved record") {
    // The state record is {uint id, int hits, float x}; captured in declaration order of the outputs,
    // which differs from the inputs' order: words are matched by offset, not by name.
    const char* src = R"(#version 300 es
precision highp float;
in float x;
in uint id;
in int hits;
uniform int xfb_substep;
flat out uint out_id;
flat out int out_hits;
out float out_x;
void main() { out_id = id + 1u; out_hits = hits - xfb_substep; out_x = x * 0.5; }
)";
    auto p = planState(src, {{attr(1), ComponentType::UInt32, 1},
                             {attr(2), ComponentType::Int32, 1},
                             {attr(0), ComponentType::Float32, 1}});
    std::string fused = fuseVertexShader(src, {}, p.pass, p.capture, 3);
    CHECK(has(fused, "xfb_state_id = out_id;"));
    CHECK(has(fused, "xfb_state_hits = out_hits;"));
    CHECK(has(fused, "xfb_state_x = out_x;"));
    CHECK(has(fused, "int xfb_substep;\n"));
    CHECK(has(fused, "xfb_substep = xfb_s;"));
    CHECK_FALSE(has(fused, "uniform int xfb_substep"));
}

TEST_CASE("a state word that no captured varying writes refuses fusion") {
    const char* src =
        "#version 300 es\nin vec4 position;\nout vec3 out_position;\nvoid main() { out_position = position.xyz; }\n";
    auto iface = readShaderInterface(src);
    auto attrs = planAttributes(iface, Limits::portable());
    auto cap = planCapture(iface, {CaptureMode::Interleaved}, Limits::portable());
    auto format = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    std::vector<EntryDesc> entries{{BufferDesc{format, 16 * 8}, std::nullopt},
                                   {std::nullopt, BufferDesc{cap.buffers[0].asVertexFormat(), 12 * 8}}};
    auto pass = planPass(attrs, cap, entries, std::int64_t(8));
    CHECK(checkFusion(src, {}, pass, cap).fused); // no state pair: nothing to feed back
    CHECK_FALSE(checkFusion(src, {}, pass, cap, true).fused);
    CHECK(has(checkFusion(src, {}, pass, cap, true).reason, "emitted outputs"));
}

TEST_CASE("the compute translation loops the body with the same feedback") {
    auto p = planState(kParticles, {{attr(0)}, {attr(1)}});
    auto shader = translateToCompute(p.source, {}, p.pass, p.capture, 1, {false, 64, nullptr, 16});
    CHECK(has(shader.source, "for (int xfb_s = 0; xfb_s < 16; ++xfb_s)"));
    CHECK(has(shader.source, "position[3] = out_position[3];"));
    auto single = translateToCompute(p.source, {}, p.pass, p.capture, 1, {false, 64});
    CHECK_FALSE(has(single.source, "xfb_s"));
    const char* texel = "#version 300 es\nprecision highp float;\nin vec4 position;\nuniform highp sampler2D s;\nout "
                        "vec4 out_position;\n"
                        "void main() { out_position = position + textureLod(s, vec2(0.0), 0.0); }\n";
    auto t = planState(texel, {{attr(0)}});
    auto message = XFB_REQUIRE_ERROR(translateToCompute(texel, {}, t.pass, t.capture, 1, {false, 64, nullptr, 2}),
                                     ErrorCode::InvalidArgument);
    CHECK(has(message, "uniform 's' is a sampler2D"));
}
