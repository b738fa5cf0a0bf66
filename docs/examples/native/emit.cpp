// The guide's variable-count output example (docs/guide/variable-count-output.md), run by ctest
// docs.example.emit on a headless GL 4.3 core context (compute backend): 256 particles each emit
// 0..3 sparks; the sparks must land in input order and the totals match a C++ count.
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <xfb/xfb.hpp>
#include <xfb/headless_context.hpp>

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const char* what) {
    ++checks;
    if (!ok) {
        std::printf("docs.example.emit: FAIL: %s\n", what);
        ++failures;
    }
}

const char* sparksSource = R"(#version 300 es
in vec4 particle;
uniform float threshold;
// [docs:emit-shader]
out vec4 out_particle;       // state, one record per element as usual
out vec4 emit_spark[3];      // up to 3 records per element
out vec2 emit_color[3];
flat out int emit_count;     // how many this element emits: both outputs share this budget
// [docs:end]
void main() {
    float energy = particle.w;
    out_particle = particle;                           // the state stays: every step emits the same sparks
    emit_count = int(energy / threshold) - 1;          // clamped by the engine to 0..3
    for (int k = 0; k < 3; ++k) {
        emit_spark[k] = vec4(particle.xyz + float(k), float(gl_VertexID));
        emit_color[k] = vec2(float(k), energy);
    }
})";

void run() {
    xfb::HeadlessContext context(xfb::Api::OpenGL43Core);
    xfb::Device device;
    const std::int64_t count = 256;
    std::vector<float> particles(count * 4);
    std::vector<float> expectedSparks;
    for (std::int64_t i = 0; i < count; ++i) {
        float* p = &particles[i * 4];
        p[0] = float(i % 5), p[1] = float(i % 3), p[2] = 1, p[3] = 0.5f * float((i * 7) % 11);
        for (int k = 0; k < std::clamp(int(p[3] / 0.5f) - 1, 0, 3); ++k)
            expectedSparks.insert(expectedSparks.end(), {p[0] + float(k), p[1] + float(k), p[2] + float(k), float(i)});
    }
    const std::int64_t expectedTotal = std::int64_t(expectedSparks.size() / 4);
    xfb::Program sim(device, {sparksSource});
    sim.setUniform("threshold", 0.5f);
    auto vec4 = xfb::VertexFormat::interleaved({{xfb::attr(0)}});
    auto vec2 = xfb::VertexFormat::interleaved({{xfb::attr(0), xfb::ComponentType::Float32, 2}});
    xfb::Buffer state(device, vec4, count, std::span<const float>(particles));
    xfb::Buffer scratch(device, vec4, count);
    xfb::Buffer sparks(device, vec4, count * 3), colors(device, vec2, count * 3);
    GLuint vao = 0; // drawEmitted() draws with the caller's vertex array (here, an empty one)
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    // [docs:emit-pipeline]
    xfb::PipelineOptions o;
    o.backend = xfb::Backend::Compute;
    o.emits = {{"emit_spark", "emit_count"}, {"emit_color", "emit_count"}};
    o.overflow = xfb::EmitOverflow::Error; // or Clamp
    xfb::Pipeline p(device, sim, {{&state, &scratch}, {nullptr, &sparks}, {nullptr, &colors}}, o);
    p.step();                                           // one pass (or count pass + prefix sum), records in input order
    p.drawEmitted("emit_count", xfb::DrawMode::Points); // glDrawArraysIndirect: the total stays on the GPU
    p.stepChecked();                                    // XFB_CAPACITY with the numbers and no swap on overflow
    // [docs:end]
    std::vector<xfb::EmitReport> totals = p.emitted();
    check(totals.size() == 1 && totals[0].budget == "emit_count", "one budget, named by its count output");
    check(totals.size() == 1 && totals[0].requested == expectedTotal && totals[0].written == expectedTotal,
          "the GPU's total equals the C++ count");
    std::vector<float> written = sparks.readAs<float>();
    written.resize(expectedSparks.size());
    check(written == expectedSparks, "the sparks land in input order, as the reference");
    glBindVertexArray(0);
    glDeleteVertexArrays(1, &vao);
}

} // namespace

int main() {
    try {
        run();
    } catch (const xfb::Error& e) {
        std::printf("docs.example.emit: FAIL: %s\n", e.what());
        return 1;
    }
    std::printf("docs.example.emit: %s\nxfb-test-run: cases=1 asserts=%d\n", failures ? "FAIL" : "PASS", checks);
    return failures ? 1 : 0;
}
