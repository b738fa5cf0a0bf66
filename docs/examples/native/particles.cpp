// The README's native example (region native-readme) and the guide's step examples
// (docs/guide/simulation-steps.md), run by ctest docs.example.particles on a headless context:
// every result is compared with a C++ reference, so a quoted line that stops working fails.
// The inputs are multiples of 1/4 and dt = 1/2: every value is exact in float, bit for bit.
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>

#include <cstdio>
#include <cstring>
#include <span>
#include <vector>

// [docs:native-readme]
#include <xfb/xfb.hpp>
#include <xfb/headless_context.hpp> // or make your own GLFW / EGL context current

const char* simulation = R"(#version 300 es
in vec4 position;                     // ATTR0: inputs take ATTR0, ATTR1, ... in declaration order
in vec4 velocity;                     // ATTR1
uniform float dt;
out vec4 out_position;                // captured: every out_ output, in declaration order
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity * 0.5; })";

std::vector<float> simulate(std::span<const float> initial, std::int64_t count, int steps) {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    xfb::Device device; // limits queried once
    xfb::Program sim(device, {simulation});
    auto format = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}}); // vec4 + vec4
    xfb::Buffer state(device, format, count, initial);
    xfb::Buffer scratch(device, format, count);
    xfb::Pipeline pipeline(device, sim, {{&state, &scratch}}); // {input, output}: state
    sim.setUniform("dt", 0.5f);
    for (int s = 0; s < steps; ++s) pipeline.step(); // `state` is the new data
    return state.readAs<float>();                    // blocking: fence + map
}
// [docs:end]

namespace {

int failures = 0, checks = 0;

void check(bool ok, const char* what) {
    ++checks;
    if (!ok) {
        std::printf("docs.example.particles: FAIL: %s\n", what);
        ++failures;
    }
}

std::vector<float> reference(std::vector<float> s, int steps) {
    for (int k = 0; k < steps; ++k)
        for (std::size_t e = 0; e < s.size(); e += 8)
            for (int c = 0; c < 4; ++c) {
                s[e + c] = s[e + c] + s[e + 4 + c] * 0.5f;
                s[e + 4 + c] = s[e + 4 + c] * 0.5f;
            }
    return s;
}

// The checked step, the non-blocking readback and drawing the state with your own vertex array.
void checkedStepAndDraw(std::span<const float> initial, std::int64_t count) {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    xfb::Device device;
    xfb::Program sim(device, {simulation});
    auto format = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}});
    xfb::Buffer state(device, format, count, initial);
    xfb::Buffer scratch(device, format, count);
    xfb::Pipeline pipeline(device, sim, {{&state, &scratch}});
    sim.setUniform("dt", 0.5f);
    GLuint vao = 0;
    glGenVertexArrays(1, &vao);
    std::uint64_t bound = ~0ull;
    for (int s = 0; s < 2; ++s) {
        // [docs:checked-step]
        xfb::StepReport report = pipeline.stepChecked(); // waits for PRIMITIVES_WRITTEN
        // report.written == report.expected; a short write throws and the state is kept
        // [docs:end]
        check(report.ok() && report.written == count, "stepChecked() reports every element written");
        // [docs:bind-vertex-input]
        if (state.generation() != bound) { // once per step: the step swapped the GL names
            glBindVertexArray(vao);
            state.bindAsVertexInput(0, xfb::attr(0)); // position
            state.bindAsVertexInput(1, xfb::attr(1)); // velocity
            bound = state.generation();
        }
        // [docs:end]
    }
    GLint name = 0;
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &name);
    check(name != 0, "the vertex array reads a buffer after bindAsVertexInput()");
    // [docs:read-async]
    xfb::ReadbackRequest request = state.readAsync(); // a copy + fence; later steps do not change it
    while (!request.ready()) {                        /* render a frame */
    }
    std::vector<std::byte> bytes = request.take();
    // [docs:end]
    const std::vector<float> expected = reference({initial.begin(), initial.end()}, 2);
    check(bytes.size() == expected.size() * sizeof(float), "readAsync() returns the whole buffer");
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    check(values == expected, "two checked steps equal the reference");
    glDeleteVertexArrays(1, &vao);
}

} // namespace

int main() {
    try {
        const std::int64_t count = 64;
        std::vector<float> initial(count * 8);
        for (std::size_t i = 0; i < initial.size(); ++i) initial[i] = 0.25f * float(int(i % 11) - 5);
        std::vector<float> result = simulate(initial, count, 3);
        check(result == reference(initial, 3), "three steps equal the reference bit for bit");
        checkedStepAndDraw(initial, count);
    } catch (const xfb::Error& e) {
        std::printf("docs.example.particles: FAIL: %s\n", e.what());
        return 1;
    }
    std::printf("docs.example.particles: %s\nxfb-test-run: cases=1 asserts=%d\n", failures ? "FAIL" : "PASS", checks);
    return failures ? 1 : 0;
}
