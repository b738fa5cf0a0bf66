// Step semantics: capacity, overflow detection without losing state, async queries, no GL
// objects created in the steady state, lifetime of shared buffers.
#include "gl_call_counter.hpp"
#include "particles.hpp"
#include "xfb/detail/step_replay.hpp"

#include "../unit/test_util.hpp"

#include <chrono>
#include <thread>

using namespace xfb;
using namespace xfbtest;

namespace {
// 256 particles that do not respawn during these tests, with a state pair and the reference.
struct Particles : ParticleSim {
    std::vector<float> ref = initial;
    Buffer state, scratch;
    explicit Particles(Device& dev)
        : ParticleSim(dev, 256, 0.5f, {0.0f, -1.0f, 0.0f}, 3, [](std::size_t) { return 3.0f; }),
          state(dev, format, n, view(initial)),
          scratch(dev, format, n) {}
    void advanceReference() { advance(ref); }
};

// Re-specifies a buffer behind the engine's back, as foreign code sharing the context might.
void respecify(unsigned name, std::size_t bytes) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, name);
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}
} // namespace

TEST_CASE_FIXTURE(GlTest, "an output buffer below count x stride is refused before anything is drawn") {
    Particles p(dev);
    Buffer tooSmall(dev, p.format, p.n - 1);
    std::string msg =
        XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, nullptr}, {nullptr, &tooSmall}}), ErrorCode::Capacity);
    CHECK(contains(msg, "8160 bytes"));
    CHECK(contains(msg, "8192"));
    requireEqual(p.state.readAs<float>(), p.ref, "state untouched");
}

TEST_CASE_FIXTURE(GlTest, "a checked step that writes short is reported and not swapped, the state survives") {
    Particles p(dev);
    Pipeline pipeline(dev, p.program, {{&p.state, &p.scratch}}, {.backend = Backend::TransformFeedback});
    CHECK(pipeline.stepChecked().written == p.n);
    p.advanceReference();
    requireEqual(p.state.readAs<float>(), p.ref, "after a good checked step");

    // Foreign code shrinks the buffer the next step writes into: only half the records fit.
    const unsigned before = p.state.glName();
    respecify(p.scratch.glName(), std::size_t(p.n / 2) * 32);
    std::string msg = XFB_REQUIRE_ERROR(pipeline.stepChecked(), ErrorCode::ShortWrite);
    CHECK(contains(msg, "of 256 records"));
    CHECK(contains(msg, "not swapped"));
    CHECK(p.state.glName() == before);
    CHECK(pipeline.stepsTaken() == 1);
    requireEqual(p.state.readAs<float>(), p.ref, "state after the failed step");

    // Give the buffer its size back: the simulation continues from the intact state.
    respecify(p.scratch.glName(), std::size_t(p.n) * 32);
    pipeline.stepChecked();
    p.advanceReference();
    requireEqual(p.state.readAs<float>(), p.ref, "after recovery");
}

TEST_CASE_FIXTURE(GlTest, "unchecked steps report their PRIMITIVES_WRITTEN asynchronously, in order") {
    Particles p(dev);
    Pipeline pipeline(dev, p.program, {{&p.state, &p.scratch}}, {.queries = true});
    for (int i = 0; i < 5; ++i) pipeline.step();
    std::vector<StepReport> reports;
    glFlush(); // a frame's swap would do this; without it results may never become available
    for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         reports.size() < 5 && std::chrono::steady_clock::now() < until;) {
        pipeline.pollQueries([&](const StepReport& r) { reports.push_back(r); });
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(reports.size() == 5);
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(reports[i].step == i);
        CHECK(reports[i].written == p.n);
        CHECK(reports[i].ok());
    }
}

TEST_CASE_FIXTURE(GlTest, "the steady-state step creates no GL object") {
    Particles p(dev);
    Pipeline pipeline(dev, p.program, {{&p.state, &p.scratch}}, {.queries = true});
    auto probe = [] {
        GLuint b, v, t, q;
        glGenBuffers(1, &b);
        glGenVertexArrays(1, &v);
        glGenTransformFeedbacks(1, &t);
        glGenQueries(1, &q);
        std::array<GLuint, 4> names{b, v, t, q};
        glDeleteBuffers(1, &b);
        glDeleteVertexArrays(1, &v);
        glDeleteTransformFeedbacks(1, &t);
        glDeleteQueries(1, &q);
        return names;
    };
    // Warm up so the query pool reaches its size, then count names handed out around 100 steps.
    for (int i = 0; i < 4; ++i) pipeline.step();
    glFinish();
    pipeline.pollQueries([](const StepReport&) {});
    // Names handed out between two probes with nothing in between calibrate the allocator (Mesa
    // does not reuse a freed name at once); 100 steps must not change that distance.
    auto calibrate = probe();
    auto before = probe();
    for (int i = 0; i < 100; ++i) {
        pipeline.step();
        if (i % 4 == 3) {
            glFinish();
            pipeline.pollQueries([](const StepReport&) {});
        }
    }
    auto after = probe();
    for (std::size_t i = 0; i < 4; ++i) CHECK(after[i] - before[i] == before[i] - calibrate[i]);
}

TEST_CASE_FIXTURE(GlTest, "buffers are shared with the pipeline: the user's handles may go away") {
    auto format = vec4Format(0);
    std::vector<float> data = pseudoRandom(64, 0.0f, 1.0f, 4);
    Program program(dev,
                    {"#version 300 es\nin vec4 p; out vec4 out_p; void main() { out_p = p * 2.0; }", {}, {}, "double"});
    auto a = std::make_unique<Buffer>(dev, format, 16, view(data));
    auto b = std::make_unique<Buffer>(dev, format, 16);
    Pipeline pipeline(dev, program, {{a.get(), b.get()}}, {.backend = Backend::TransformFeedback});
    Buffer kept = std::move(*a); // moving the handle keeps the pipeline's buffer
    a.reset();
    { Buffer destroyedSoon = std::move(*b); }
    XFB_REQUIRE_ERROR(b->glName(), ErrorCode::Disposed);
    b.reset();
    pipeline.step();
    pipeline.step();
    for (auto& x : data) x = x * 2.0f * 2.0f;
    requireEqual(kept.readAs<float>(), data, "state after the handles moved");
}

TEST_CASE_FIXTURE(GlTest, "role errors reach the user from the Pipeline constructor") {
    Particles p(dev);
    Buffer other(dev, p.format, p.n);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, &p.scratch}, {nullptr, &other}}),
                      ErrorCode::OutputCountMismatch);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, &p.state}}), ErrorCode::InvalidArgument);
    // Aliasing WebGL2/GL forbid, refused before the roles are planned: one buffer bound twice for
    // transform feedback, and a buffer read as an attribute while it is written (both orders).
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, &p.scratch}, {nullptr, &p.scratch}}),
                      ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, &p.scratch}, {&p.scratch, nullptr}}),
                      ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, nullptr}, {nullptr, &p.state}}), ErrorCode::InvalidArgument);
    Buffer wrongCount(dev, p.format, p.n + 1);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&p.state, &wrongCount}}), ErrorCode::StateFormatMismatch);
    Buffer moved = std::move(other);
    XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&other, &p.scratch}}), ErrorCode::Disposed);
    XFB_REQUIRE_ERROR(Buffer(dev, p.format, 0), ErrorCode::InvalidArgument);
    std::vector<float> wrongSize(7);
    XFB_REQUIRE_ERROR(Buffer(dev, p.format, 2, view(wrongSize)), ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(p.state.upload(view(wrongSize), p.state.bytes() - 4), ErrorCode::InvalidArgument);
    requireEqual(p.state.readAs<float>(), p.ref, "state after the refusals");
}

TEST_CASE_FIXTURE(GlTest, "the non-blocking checked step: begin, poll until a report, nothing else in between") {
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Particles p(dev);
        Pipeline pipeline(dev, p.program, {{&p.state, &p.scratch}}, {.backend = backend});
        pipeline.beginCheckedStep();
        XFB_REQUIRE_ERROR(pipeline.step(), ErrorCode::InvalidArgument);
        XFB_REQUIRE_ERROR(pipeline.beginCheckedStep(), ErrorCode::InvalidArgument);
        std::optional<StepReport> report;
        glFlush();
        for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
             !report && std::chrono::steady_clock::now() < until;)
            report = pipeline.pollCheckedStep();
        REQUIRE(report);
        CHECK(report->written == p.n);
        CHECK(pipeline.stepsTaken() == 1);
        p.advanceReference();
        requireEqual(p.state.readAs<float>(), p.ref, "after the polled step");
        XFB_REQUIRE_ERROR(pipeline.pollCheckedStep(), ErrorCode::InvalidArgument);
    }
}

TEST_CASE_FIXTURE(GlTest, "two pipelines sharing a state pair stay consistent, and a step makes 9 GL calls in its pass "
                          "and 1 check besides glGetError (measured)") {
    // An application that owns its context gets the minimal step (the shared-context default adds
    // the guard's calls: gl_calls_test.cpp).
    Device owner(DeviceOptions{.ownsContext = true});
    Particles p(owner);
    Pipeline first(owner, p.program, {{&p.state, &p.scratch}}, {.backend = Backend::TransformFeedback});
    Program doubled(
        owner,
        {"#version 300 es\nin vec4 position;\nin vec4 velocity;\nout vec4 out_position;\nout vec4 out_velocity;\n"
         "void main() { out_position = position * 2.0; out_velocity = velocity; }",
         {},
         {},
         "doubled"});
    Pipeline second(owner, doubled, {{&p.state, &p.scratch}}, {.backend = Backend::TransformFeedback});
    first.step();
    p.advanceReference();
    second.step(); // must read what `first` wrote, although its own parity has not moved
    for (std::size_t e = 0; e < p.ref.size(); e += 8)
        for (int i = 0; i < 4; ++i) p.ref[e + std::size_t(i)] = p.ref[e + std::size_t(i)] * 2.0f;
    requireEqual(p.state.readAs<float>(), p.ref, "after the second pipeline's step");
    resetGlCalls(); // the counting layer under every GL function (tests/support/gl_call_counter.hpp)
    first.step();
    const GlCalls calls = glCalls();
    p.advanceReference();
    requireEqual(p.state.readAs<float>(), p.ref, "interleaved use of two pipelines");
    INFO("measured: ", calls.describe());
    CHECK(calls.withoutGetError() == 10);
    CHECK(calls.byFunction.at("glGetBooleanv") ==
          1); // the entry check: is the application's transform feedback active?
    CHECK(calls.created == 0);
    CHECK(first.lastStepGlCalls() ==
          calls.withoutGetError() - 1); // the engine's own figure of the pass agrees with the measured one
}

TEST_CASE_FIXTURE(GlTest, "steps made from stepRecipe() and reported with stepsReplayed() advance like step(), and "
                          "stepRecipe() says why it refuses") {
    Particles p(dev);
    Pipeline pipe(dev, p.program, {{&p.state, &p.scratch}}, {.backend = Backend::TransformFeedback});
    pipe.step();
    p.advanceReference();
    detail::StepRecipe r = detail::stepRecipe(pipe);
    REQUIRE(r.refusal.empty());
    CHECK(r.count == p.n);
    GLint dt = -1;
    for (const auto& u : r.uniforms)
        if (u.name == "dt") dt = u.location;
    REQUIRE(dt >= 0);
    // Three steps made here as StepRecipe describes them, dt changed (and uploaded here) before the second.
    int side = r.side;
    for (int i = 0; i < 3; ++i) {
        glUseProgram(r.program);
        if (i == 1) {
            p.program.setUniform("dt", 0.25f);
            glUniform1f(dt, 0.25f);
            detail::uniformUploaded(p.program, "dt");
        }
        glBindVertexArray(r.vertexArrays[side]);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, r.transformFeedbacks[side]);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, GLsizei(r.count));
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        side ^= 1;
    }
    glBindVertexArray(0);
    glUseProgram(0);
    const auto generation = p.state.generation();
    std::string msg = XFB_REQUIRE_ERROR(detail::stepsReplayed(pipe, 1, -1), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "lastCalls -1"));
    CHECK(p.state.generation() == generation); // refused: nothing swapped
    detail::stepsReplayed(pipe, 3, 10);
    p.advanceReference();
    p.dt = 0.25f;
    p.advanceReference();
    p.advanceReference();
    CHECK(pipe.stepsTaken() == 4);
    CHECK(pipe.lastStepGlCalls() == 10);
    CHECK(p.state.generation() == generation + 3);
    CHECK(detail::stepRecipe(pipe).side == (r.side ^ 1));
    requireEqual(p.state.readAs<float>(), p.ref, "after three replayed steps (the state pair swapped by their parity)");
    pipe.step(); // dt is on the GL program already (detail::uniformUploaded): nothing to upload
    p.advanceReference();
    CHECK(pipe.lastStepGlCalls() == 9);
    requireEqual(p.state.readAs<float>(), p.ref, "a step() after the replayed ones");
    {
        Pipeline queried(dev, p.program, {{&p.state, &p.scratch}}, {.queries = true});
        CHECK(contains(detail::stepRecipe(queried).refusal, "queries"));
        CHECK(contains(detail::stepRecipe(pipe).refusal, "shared with another pipeline"));
    }
    CHECK(detail::stepRecipe(pipe).refusal.empty()); // the other pipeline is gone
}
