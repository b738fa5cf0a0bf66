// The consumer application of tests/consumer: built outside xfb's build tree against an installed
// xfb (find_package, natively and with Emscripten) or a vendored one (add_subdirectory). Runs
// three transform-feedback steps of 64 particles and compares them with a C++ reference. The
// inputs are small multiples of 1/4 and dt = 1/2, so every value is exact in float and the
// comparison is bit for bit on any GPU, fused multiply-add or not. A shader that does not compile
// must reach the application as an xfb::Error (with Emscripten: only if -fwasm-exceptions, a usage
// requirement of xfb::xfb, is on the application's compile and link lines).
#include <xfb/xfb.hpp>
#ifdef __EMSCRIPTEN__
#include <emscripten/html5.h>
#else
#include <xfb/headless_context.hpp>
#endif

#include <cstdio>
#include <vector>

namespace {

constexpr const char* simulation = R"(#version 300 es
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() {
    out_position = position + velocity * dt;
    out_velocity = velocity * 0.5;
}
)";

int run() {
    const int count = 64, steps = 3;
    const float dt = 0.5f;
    std::vector<float> state(count * 8), reference;
    for (int i = 0; i < count; ++i)
        for (int c = 0; c < 4; ++c) {
            state[i * 8 + c] = float(i % 7 - c);                   // position
            state[i * 8 + 4 + c] = 0.25f * float((i + c) % 9 - 4); // velocity
        }
    reference = state;
    for (int s = 0; s < steps; ++s)
        for (int i = 0; i < count; ++i)
            for (int c = 0; c < 4; ++c) {
                float& p = reference[i * 8 + c];
                float& v = reference[i * 8 + 4 + c];
                p = p + v * dt;
                v = v * 0.5f;
            }

    xfb::Device device;
    xfb::Program sim(device, {simulation});
    auto format = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}});
    xfb::Buffer current(device, format, count, std::span<const float>(state));
    xfb::Buffer scratch(device, format, count);
    xfb::Pipeline pipeline(device, sim, {{&current, &scratch}});
    sim.setUniform("dt", dt);
    for (int s = 0; s < steps; ++s) pipeline.step();
    std::vector<float> result = current.readAs<float>();

    int wrong = 0;
    try {
        xfb::Program broken(device, {"#version 300 es\nin vec4 position;\nout vec4 out_position;\nvoid main() { "
                                     "out_position = undeclared; }\n"});
        std::printf("consumer: a shader that does not compile was accepted\n");
        ++wrong;
    } catch (const xfb::Error& e) {
        if (e.code() != xfb::ErrorCode::ShaderCompile) {
            std::printf("consumer: a shader that does not compile gave %s\n", e.what());
            ++wrong;
        }
    }
    for (std::size_t k = 0; k < reference.size(); ++k)
        if (k >= result.size() || result[k] != reference[k]) {
            if (++wrong <= 5)
                std::printf("consumer: value %zu is %g, expected %g\n", k, k < result.size() ? result[k] : -1.0f,
                            reference[k]);
        }
    std::printf("consumer: %d particles, %d steps, element 5 = (%g %g %g %g)\n", count, steps, result[40], result[41],
                result[42], result[43]);
    std::printf("consumer: %s (%d of %zu checks failed: values against the reference, ShaderCompile caught)\n",
                wrong ? "FAIL" : "PASS", wrong, reference.size() + 1);
    return wrong ? 1 : 0;
}

} // namespace

int main() {
    try {
#ifdef __EMSCRIPTEN__
        EmscriptenWebGLContextAttributes attributes;
        emscripten_webgl_init_context_attributes(&attributes);
        attributes.majorVersion = 2;
        EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = emscripten_webgl_create_context("#canvas", &attributes);
        if (gl <= 0 || emscripten_webgl_make_context_current(gl) != EMSCRIPTEN_RESULT_SUCCESS) {
            std::printf("consumer: FAIL (no WebGL2 context on #canvas)\n");
            return 1;
        }
#else
        xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
#endif
        return run();
    } catch (const xfb::Error& e) {
        std::printf("consumer: FAIL (%s)\n", e.what());
        return 1;
    }
}
