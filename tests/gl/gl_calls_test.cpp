// The GL calls of a steady step, measured by the counting layer under every GL function
// (tests/support/gl_call_counter), not taken from the engine's own bookkeeping. Exact figures per
// build type: Debug builds of the engine read glGetError once when the step begins (an error the
// application left pending is kept apart, not blamed on xfb: docs/guide/sharing-a-context.md) and after
// the pass (the first error, then the drain that finds none); other builds never call it in a step.
#include "gl_call_counter.hpp"
#include "particles.hpp"
#include "compute/ordered_emit.hpp"
#include "gl/call_count.hpp"

#include <map>

using namespace xfb;
using namespace xfbtest;

namespace {

#ifdef XFB_TEST_ENGINE_CHECKS_EVERY_CALL
constexpr long kGetErrorPerStep = 3;
#else
constexpr long kGetErrorPerStep = 0;
#endif

using Calls = std::map<std::string, long>;

// Every step first asks whether the application's transform feedback is active (one
// glGetBooleanv, gl::refuseApplicationFeedback), outside the pass that lastStepGlCalls() counts.
constexpr long kEntryCheck = 1;

// One counted step after two uncounted ones (the first flushes the uniforms set at set-up). The
// engine's own count of the pass (lastStepGlCalls(), counted where its calls are made) must be the
// measured one less glGetError, the entry check and the `guardCalls` of the shared-context guard around the pass;
// the engine's counter over the whole step (gl::callCount()) must be the measured one less glGetError.
GlCalls steadyStep(Pipeline& pipeline, long guardCalls = 0) {
    pipeline.step();
    pipeline.step();
    resetGlCalls();
    const std::uint64_t before = gl::callCount();
    pipeline.step();
    const auto counted = long(gl::callCount() - before);
    GlCalls calls = glCalls();
    MESSAGE("measured: ", calls.describe());
    CHECK(counted == calls.withoutGetError());
    CHECK(pipeline.lastStepGlCalls() == calls.withoutGetError() - kEntryCheck - guardCalls);
    return calls;
}

// What a step must call besides glGetError and the entry check, which this adds.
void requireCalls(const GlCalls& measured, Calls expected) {
    expected["glGetBooleanv"] += kEntryCheck;
    long total = 0;
    for (const auto& [f, n] : expected) total += n;
    if (kGetErrorPerStep) expected["glGetError"] = kGetErrorPerStep;
    GlCalls want;
    want.byFunction = expected;
    INFO("measured: ", measured.describe());
    INFO("expected: ", want.describe());
    CHECK(measured.byFunction == expected);
    CHECK(measured.getError == kGetErrorPerStep);
    CHECK(measured.withoutGetError() == total);
    CHECK(measured.created == 0);
}

const Calls kTransformFeedbackStep = {{"glUseProgram", 1},
                                      {"glBindVertexArray", 1},
                                      {"glBindTransformFeedback", 2},
                                      {"glEnable", 1},
                                      {"glBeginTransformFeedback", 1},
                                      {"glDrawArrays", 1},
                                      {"glEndTransformFeedback", 1},
                                      {"glDisable", 1}};

struct SeparateParticles {
    Program program;
    Buffer position, positionNext, velocity, velocityNext;
    SeparateParticles(Device& dev, std::int64_t n)
        : program(dev, {"#version 300 es\nin vec4 position;\nin vec4 velocity;\nuniform float dt;\nout vec4 "
                        "out_position;\nout vec4 out_velocity;\n"
                        "void main() { out_velocity = velocity; out_position = position + velocity * dt; }",
                        {CaptureMode::Separate},
                        {},
                        "separate"}),
          position(dev, vec4Format(0), n, view(pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 5))),
          positionNext(dev, vec4Format(0), n),
          velocity(dev, vec4Format(1), n, view(pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 6))),
          velocityNext(dev, vec4Format(1), n) {
        program.setUniform("dt", 0.5f);
    }
};

// The minimal step is the one of an application that owns its context (DeviceOptions::ownsContext);
// the default mode adds the shared-context guard's queries and rebinds (measured apart below).
Device& owningDevice() {
    static Device owning(DeviceOptions{.ownsContext = true});
    return owning;
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "measured GL calls: a steady interleaved transform-feedback step makes 9 calls in its pass "
                          "and 1 check besides glGetError, and creates nothing") {
    Device& owner = owningDevice();
    ParticleSim sim(owner, 64, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; });
    Buffer state(owner, sim.format, sim.n, view(sim.initial)), scratch(owner, sim.format, sim.n);
    Pipeline pipeline(owner, sim.program, {{&state, &scratch}}, {.backend = Backend::TransformFeedback});
    requireCalls(steadyStep(pipeline), kTransformFeedbackStep);
}

TEST_CASE_FIXTURE(GlTest, "measured GL calls: a steady separate transform-feedback step makes 9 calls in its pass and "
                          "1 check besides glGetError, and creates nothing") {
    Device& owner = owningDevice();
    SeparateParticles p(owner, 64);
    Pipeline pipeline(owner, p.program, {{&p.position, &p.positionNext}, {&p.velocity, &p.velocityNext}},
                      {.backend = Backend::TransformFeedback});
    requireCalls(steadyStep(pipeline), kTransformFeedbackStep);
}

TEST_CASE_FIXTURE(GlTest,
                  "measured GL calls: a changed uniform adds exactly one glUniform call to the next step only") {
    Device& owner = owningDevice();
    ParticleSim sim(owner, 64, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; });
    Buffer state(owner, sim.format, sim.n, view(sim.initial)), scratch(owner, sim.format, sim.n);
    Pipeline pipeline(owner, sim.program, {{&state, &scratch}}, {.backend = Backend::TransformFeedback});
    steadyStep(pipeline);
    sim.program.setUniform("dt", 0.25f);
    resetGlCalls();
    pipeline.step();
    GlCalls calls = glCalls();
    CHECK(pipeline.lastStepGlCalls() ==
          calls.withoutGetError() - kEntryCheck); // the upload is counted by the engine too
    // Exactly one glUniform* call (which variant is the engine's business), then the usual 9.
    long uniformCalls = 0;
    for (auto it = calls.byFunction.begin(); it != calls.byFunction.end();)
        if (it->first.starts_with("glUniform"))
            uniformCalls += it->second, calls.total -= it->second, it = calls.byFunction.erase(it);
        else
            ++it;
    CHECK(uniformCalls == 1);
    requireCalls(calls, kTransformFeedbackStep);
    requireCalls(steadyStep(pipeline), kTransformFeedbackStep);
}

TEST_CASE_FIXTURE(GlTest, "measured GL calls: a steady compute step makes 3 calls plus one glBindBufferBase per "
                          "buffer, and the check, and creates nothing") {
    Device& owner = owningDevice();
    if (!owner.capabilities().compute) return; // no compute on this context: the transform-feedback cases cover it
    SUBCASE("interleaved state pair") {
        ParticleSim sim(owner, 64, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; });
        Buffer state(owner, sim.format, sim.n, view(sim.initial)), scratch(owner, sim.format, sim.n);
        Pipeline pipeline(owner, sim.program, {{&state, &scratch}}, {.backend = Backend::Compute});
        requireCalls(steadyStep(pipeline),
                     {{"glUseProgram", 1}, {"glBindBufferBase", 2}, {"glDispatchCompute", 1}, {"glMemoryBarrier", 1}});
    }
    SUBCASE("two separate state pairs") {
        SeparateParticles p(owner, 64);
        Pipeline pipeline(owner, p.program, {{&p.position, &p.positionNext}, {&p.velocity, &p.velocityNext}},
                          {.backend = Backend::Compute});
        requireCalls(steadyStep(pipeline),
                     {{"glUseProgram", 1}, {"glBindBufferBase", 4}, {"glDispatchCompute", 1}, {"glMemoryBarrier", 1}});
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "measured GL calls: a steady emitting compute step, single pass and multi-pass, creates nothing") {
    Device& owner = owningDevice();
    if (!owner.capabilities().compute) return;
    const char* src =
        "#version 300 es\nin vec4 a_p;\nout vec4 out_p;\nout vec4 emit_s[3];\nflat out int emit_n;\n"
        "void main() { out_p = a_p; emit_n = gl_VertexID % 4; for (int k = 0; k < 3; ++k) emit_s[k] = a_p; }";
    Program program(owner, {src, {}, {}, "emitting"});
    Buffer state(owner, vec4Format(0), 64, view(std::vector<float>(256, 1.0f))), scratch(owner, vec4Format(0), 64),
        sparks(owner, vec4Format(0), 192);
    PipelineOptions o;
    o.backend = Backend::Compute;
    o.emits = {{"emit_s", "emit_n"}};
    SUBCASE("single pass: one dispatch binding input, output, records, both look-back states and the totals") {
        detail::orderedEmitPath = detail::OrderedEmitPath::SinglePass;
        Pipeline pipeline(owner, program, {{&state, &scratch}, {nullptr, &sparks}}, o);
        detail::orderedEmitPath = detail::OrderedEmitPath::Auto;
        GlCalls calls = steadyStep(pipeline);
        requireCalls(calls,
                     {{"glUseProgram", 1}, {"glBindBufferBase", 6}, {"glDispatchCompute", 1}, {"glMemoryBarrier", 1}});
    }
    SUBCASE("multi-pass: the count pass, one scan level and the totals kernel, then the main pass") {
        detail::orderedEmitPath = detail::OrderedEmitPath::MultiPass;
        Pipeline pipeline(owner, program, {{&state, &scratch}, {nullptr, &sparks}}, o);
        detail::orderedEmitPath = detail::OrderedEmitPath::Auto;
        GlCalls calls = steadyStep(pipeline);
        requireCalls(calls, {{"glUseProgram", 4},
                             {"glUniform1ui", 3},
                             {"glBindBufferBase", 12},
                             {"glDispatchCompute", 4},
                             {"glMemoryBarrier", 3}});
    }
}

TEST_CASE_FIXTURE(GlTest, "measured GL calls: a steady emitting fragment step reads nothing back and creates nothing") {
    // ES 3.0 and WebGL2's path for emitted outputs: the total stays in the pyramid's top texel.
    Device& owner = owningDevice();
    const char* src =
        "#version 300 es\nin vec4 a_p;\nout vec4 out_p;\nout vec4 emit_s[3];\nflat out int emit_n;\n"
        "void main() { out_p = a_p; emit_n = gl_VertexID % 4; for (int k = 0; k < 3; ++k) emit_s[k] = a_p; }";
    Program program(owner, {src, {}, {}, "emitting"});
    Buffer state(owner, vec4Format(0), 64, view(std::vector<float>(256, 1.0f))), scratch(owner, vec4Format(0), 64),
        sparks(owner, vec4Format(0), 192);
    PipelineOptions o;
    o.backend = Backend::Fragment;
    o.emits = {{"emit_s", "emit_n"}};
    Pipeline pipeline(owner, program, {{&state, &scratch}, {nullptr, &sparks}}, o);
    pipeline.step();
    pipeline.step();
    resetGlCalls();
    const std::uint64_t before = gl::callCount();
    pipeline.step();
    const GlCalls calls = glCalls();
    MESSAGE("measured: ", calls.describe());
    CHECK(long(gl::callCount() - before) == calls.withoutGetError());
    // The pass itself (the fragment guard's saves and restores come on top): rasterizer discard off;
    // the input's plane on its unit (3); the vertex array; the state's pass (4); the pyramid's two
    // atlases on theirs (5); the count pass, 3 levels and the gather (4 each: program, framebuffer,
    // viewport, draw); the framebuffer unbound.
    CHECK(pipeline.lastStepGlCalls() == 1 + 3 + 1 + 4 + 5 + 4 * 5 + 1);
    CHECK(calls.created == 0);
    for (const char* readBack : {"glReadPixels", "glGetBufferSubData", "glMapBufferRange", "glClientWaitSync",
                                 "glFinish", "glGetTexImage", "glTexSubImage2D"})
        CHECK_MESSAGE(calls.of(readBack) == 0, readBack, " in a steady step: ", calls.describe());
    // The state's pass, the count pass, 3 pyramid levels (64 -> 16 -> 4 -> 1 nodes) and one gather.
    CHECK(calls.of("glDrawArrays") == 6);
    // What the records cost to read is paid when they are read: 96 sparks asked for (16 x (0 + 1 + 2 + 3)).
    CHECK(pipeline.emitted().at(0).requested == 16 * 6);
}

TEST_CASE_FIXTURE(
    GlTest,
    "measured GL calls: the default shared-context step adds the guard's queries and rebinds, and creates nothing") {
    ParticleSim sim(dev, 64, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; });
    Buffer state(dev, sim.format, sim.n, view(sim.initial)), scratch(dev, sim.format, sim.n);
    Pipeline pipeline(dev, sim.program, {{&state, &scratch}}, {.backend = Backend::TransformFeedback});
    // What the application had bound is read (program, vertex array, array buffer, transform
    // feedback; rasterizer discard and, on desktop GL, primitive restart) and bound again after.
    Calls expected = kTransformFeedbackStep;
    expected["glGetIntegerv"] = 4;
    expected["glIsEnabled"] = dev.capabilities().drawTransformFeedback ? 2 : 1; // desktop GL: + primitive restart
    expected["glUseProgram"] += 1;
    expected["glBindVertexArray"] += 1;
    long guardCalls = 0;
    for (const auto& [f, n] : expected)
        guardCalls += n - (kTransformFeedbackStep.count(f) ? kTransformFeedbackStep.at(f) : 0);
    requireCalls(steadyStep(pipeline, guardCalls), expected); // lastStepGlCalls(): the pass alone, 9
    CHECK(pipeline.lastStepGlCalls() == 9);
}

TEST_CASE_FIXTURE(GlTest, "the counting layer counts the GL calls a test makes itself, glGetError apart") {
    resetGlCalls();
    GLint value = 0;
    glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &value);
    (void)glGetError();
    GLuint buffer = 0;
    glGenBuffers(1, &buffer);
    glDeleteBuffers(1, &buffer);
    GlCalls calls = glCalls();
    CHECK(calls.byFunction ==
          Calls{{"glGetIntegerv", 1}, {"glGetError", 1}, {"glGenBuffers", 1}, {"glDeleteBuffers", 1}});
    CHECK(calls.total == 4);
    CHECK(glCallTotal() == 4);
    CHECK(calls.getError == 1);
    CHECK(calls.created == 1);
}
