// PipelineOptions::rasterize: a step that captures the state and draws the elements as points in
// one pass (the caller's framebuffer), its bytes against a plain step's and the C++ reference, the
// last-substep rule of step(k), the discard state it leaves, and each refusal.
#include "gl_fixture.hpp"
#include "offscreen.hpp"

#include "xfb/detail/step_replay.hpp"
#include "xfb/pipeline.hpp"

#include "../unit/test_util.hpp"

#include <set>
#include <utility>

using namespace xfb;
using namespace xfbtest;

namespace {
constexpr int kSide = 16; // the target: 16 x 16 pixels
constexpr int kParticles = 8;

std::string header(const Device& dev) { return dev.capabilities().es ? "#version 300 es\n" : "#version 330 core\n"; }

// Each element is (x, y, vx, vy): it moves by its velocity and is drawn where it lands.
std::string simulation(const Device& dev) {
    return header(dev) + R"(in vec4 a_state;
out vec4 out_state;
void main() {
    out_state = vec4(a_state.xy + a_state.zw, a_state.zw);
    gl_Position = vec4(out_state.xy, 0.0, 1.0);
    gl_PointSize = 1.0;
}
)";
}

std::string redFragment(const Device& dev) {
    return header(dev) + (dev.capabilities().es ? "precision mediump float;\n" : "") +
           "out vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n";
}

// The centre of pixel i in clip space: exact binary fractions.
float centre(int i) { return (float(i) + 0.5f) / float(kSide / 2) - 1.0f; }

// Particle e starts on pixel (e, 2e mod 16) and moves one pixel right a step.
std::vector<float> initialState() {
    std::vector<float> v;
    for (int e = 0; e < kParticles; ++e) v.insert(v.end(), {centre(e), centre(2 * e % kSide), 2.0f / kSide, 0.0f});
    return v;
}

// The C++ reference of `steps` steps.
std::vector<float> reference(int steps) {
    std::vector<float> v = initialState();
    for (int s = 0; s < steps; ++s)
        for (std::size_t e = 0; e < std::size_t(kParticles); ++e) {
            v[e * 4] += v[e * 4 + 2];
            v[e * 4 + 1] += v[e * 4 + 3];
        }
    return v;
}

// The lit pixels (column, row) expected after `steps` steps: each particle where its last pass put it.
std::set<std::pair<int, int>> expectedPixels(int steps) {
    std::set<std::pair<int, int>> out;
    for (int e = 0; e < kParticles; ++e) out.insert({e + steps, 2 * e % kSide});
    return out;
}

std::set<std::pair<int, int>> litPixels(const Offscreen& screen) {
    std::set<std::pair<int, int>> out;
    const std::vector<bool> lit = screen.lit();
    for (std::size_t k = 0; k < lit.size(); ++k)
        if (lit[k]) out.insert({int(k) % kSide, int(k) / kSide});
    return out;
}

VertexFormat stateFormat() { return VertexFormat::interleaved({{attr(0)}}); }
} // namespace

TEST_CASE_FIXTURE(GlTest, "a rasterizing step draws the elements' points and captures the plain step's state") {
    const std::vector<float> initial = initialState();
    Offscreen screen(kSide, kSide);
    // [docs:pipeline-rasterize]
    Program program(dev, {simulation(dev), {}, {}, "particles", {}, redFragment(dev)}); // drawn with `fragment`
    Buffer a(dev, stateFormat(), kParticles, view(initial)), b(dev, stateFormat(), kParticles);
    PipelineOptions options;
    options.rasterize = true; // the points land in the framebuffer and viewport bound now
    Pipeline particles(dev, program, {{&a, &b}}, options);
    screen.clear();
    particles.step(); // simulates, captures and draws in one pass
    // [docs:end]
    CHECK(litPixels(screen) == expectedPixels(1));
    requireEqual(a.readAs<float>(), reference(1), "the rasterizing step's state");
    CHECK(particles.backend().backend == Backend::TransformFeedback);
    CHECK(contains(particles.backend().reason, "the backend that rasterizes"));

    // The same program without rasterize: the same bytes, nothing drawn, one GL call more (discard on and off).
    Buffer c(dev, stateFormat(), kParticles, view(initial)), d(dev, stateFormat(), kParticles);
    Pipeline plain(dev, program, {{&c, &d}}, {.backend = Backend::TransformFeedback});
    screen.clear();
    plain.step();
    CHECK(litPixels(screen).empty());
    requireEqual(c.readAs<float>(), a.readAs<float>(), "plain step vs rasterizing step");
    CHECK(particles.lastStepGlCalls() == 8);
    CHECK(plain.lastStepGlCalls() == 9);

    // The caller's framebuffer stays bound; discard that the application left on is turned off for
    // the pass (the points are drawn) and on again after it.
    screen.clear();
    glEnable(GL_RASTERIZER_DISCARD);
    particles.step();
    CHECK(glIsEnabled(GL_RASTERIZER_DISCARD));
    glDisable(GL_RASTERIZER_DISCARD);
    GLint bound = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
    CHECK(GLuint(bound) == screen.fbo);
    CHECK(litPixels(screen) == expectedPixels(2));
    requireEqual(a.readAs<float>(), reference(2), "after the second step");

    // step(k): not fused; k passes, only the last one draws (the state after the k substeps).
    CHECK_FALSE(particles.fusion().fused);
    CHECK(contains(particles.fusion().reason, "PipelineOptions::rasterize is on"));
    CHECK(plain.fusion().fused); // the same simulation fuses without rasterize
    screen.clear();
    particles.step(3);
    CHECK(litPixels(screen) == expectedPixels(5));
    CHECK(particles.stepsTaken() == 5);
    requireEqual(a.readAs<float>(), reference(5), "after step(3)");

    // The npm package's JavaScript replay refuses it (the wasm step runs); the plain pipeline replays.
    CHECK(detail::stepRecipe(particles).refusal == "rasterize: the pass keeps the rasterizer on");
    CHECK(detail::stepRecipe(plain).refusal.empty());

    // A checked step rasterizes too.
    screen.clear();
    const StepReport report = particles.stepChecked();
    CHECK(report.ok());
    CHECK(report.written == kParticles);
    CHECK(litPixels(screen) == expectedPixels(6));
    requireEqual(a.readAs<float>(), reference(6), "after the checked step");
}

TEST_CASE_FIXTURE(GlTest, "rasterize refusals: no fragment shader, the compute and fragment backends, setBackend") {
    const std::vector<float> initial = initialState();
    Buffer a(dev, stateFormat(), kParticles, view(initial)), b(dev, stateFormat(), kParticles);
    PipelineOptions options;
    options.rasterize = true;

    Program bare(dev, {simulation(dev), {}, {}, "bare"});
    std::string msg = XFB_REQUIRE_ERROR(Pipeline(dev, bare, {{&a, &b}}, options), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "program 'bare' has no fragment shader"));
    CHECK(contains(msg, "ProgramDesc::fragment"));

    Program program(dev, {simulation(dev), {}, {}, "particles", {}, redFragment(dev)});
    for (Backend wanted : {Backend::Compute, Backend::Fragment}) {
        options.backend = wanted;
        msg = XFB_REQUIRE_ERROR(Pipeline(dev, program, {{&a, &b}}, options), ErrorCode::Unsupported);
        CHECK(contains(msg, "has no pass that draws"));
        CHECK(contains(msg, "use Backend::TransformFeedback or Auto"));
    }
    CHECK(contains(msg, "rasterize: the fragment backend"));

    options.backend = Backend::TransformFeedback;
    Pipeline pipeline(dev, program, {{&a, &b}}, options);
    for (Backend wanted : {Backend::Compute, Backend::Fragment}) {
        msg = XFB_REQUIRE_ERROR(pipeline.setBackend(wanted), ErrorCode::Unsupported);
        CHECK(contains(msg, std::string("rasterize: the ") + (wanted == Backend::Compute ? "compute" : "fragment")));
        CHECK(pipeline.backend().backend == Backend::TransformFeedback);
    }
    pipeline.setBackend(Backend::Auto); // keeps transform feedback, decided at once
    CHECK(pipeline.backend().backend == Backend::TransformFeedback);
    requireEqual(a.readAs<float>(), initial, "nothing stepped by the refusals");
    pipeline.step();
    requireEqual(a.readAs<float>(), reference(1), "a step after the refusals");
}
