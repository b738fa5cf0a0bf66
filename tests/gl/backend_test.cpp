// Two backends, one simulation: switching between steps, the measured Auto choice, and errors.
#include "particles.hpp"

#include "gl/readback.hpp"

#include "../unit/test_util.hpp"

using namespace xfb;
using namespace xfbtest;

namespace {
// 777 particles (or `n`), some of which respawn within a few steps.
struct Particles : ParticleSim {
    explicit Particles(Device& dev, std::int64_t n = 777)
        : ParticleSim(dev, n, 0.0625f, {0.25f, -9.75f, 0.0f}, 13,
                      [](std::size_t e) { return 0.125f * float(e % 13); }) {}
};

// Without compute (the ES 3.0 run) a compute-only test checks the refusal instead: asking for
// Compute throws Unsupported naming the version, the pipeline stays on transform feedback, the
// state is untouched and the next step is right. Returns true when it did so.
bool refusesCompute(Device& dev) {
    if (dev.capabilities().compute) return false;
    Particles p(dev);
    Buffer a(dev, p.format, p.n, view(p.initial)), b(dev, p.format, p.n);
    std::string msg =
        XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&a, &b}}, {.backend = Backend::Compute}), ErrorCode::Unsupported);
    CHECK(contains(msg, "OpenGL ES 3.1+"));
    Pipeline pipeline(dev, p.program, {{&a, &b}}, {.backend = Backend::TransformFeedback});
    msg = XFB_REQUIRE_ERROR(pipeline.setBackend(Backend::Compute), ErrorCode::Unsupported);
    CHECK(contains(msg, "'" + dev.capabilities().version + "'"));
    CHECK(pipeline.backend().backend == Backend::TransformFeedback);
    requireEqual(a.readAs<float>(), p.initial, "state after the refusal");
    pipeline.step();
    std::vector<float> ref = p.initial;
    p.advance(ref);
    requireEqual(a.readAs<float>(), ref, "a step after the refusal");
    return true;
}
} // namespace

TEST_CASE_FIXTURE(GlTest, "switching backend between steps gives the same state as never switching") {
    Particles p(dev);
    Buffer a1(dev, p.format, p.n, view(p.initial)), b1(dev, p.format, p.n);
    Buffer a2(dev, p.format, p.n, view(p.initial)), b2(dev, p.format, p.n);
    Pipeline steady(dev, p.program, {{&a1, &b1}});
    Pipeline switching(dev, p.program, {{&a2, &b2}});
    const std::vector<Backend> backends = backendsOf(dev);
    std::vector<float> ref = p.initial;
    int switches = 0;
    for (int step = 0; step < 50; ++step) {
        if (step % 7 == 3) switching.setBackend(backends[std::size_t(++switches) % backends.size()]);
        steady.step();
        switching.step();
        p.advance(ref);
    }
    CHECK(switches == 7);
    CHECK(switching.backend().backend == backends[7 % backends.size()]);
    requireEqual(a2.readAs<float>(), a1.readAs<float>(), "switching vs steady");
    requireEqual(a1.readAs<float>(), ref, "steady vs reference");
    (void)refusesCompute(dev); // ES 3.0: asking for compute is refused, the state kept
}

TEST_CASE_FIXTURE(GlTest, "auto measures every backend once per context and shape, keeps the fastest, and says why") {
    // A count no other case steps: Auto's decisions live as long as the device, and a whole test
    // binary run in one process (the device script, tests/device/run.sh) shares one device.
    Particles p(dev, 781);
    const std::vector<float> sentinel(p.initial.size(), -7.0f);
    Buffer a(dev, p.format, p.n, view(p.initial)), b(dev, p.format, p.n, view(sentinel));
    Pipeline first(dev, p.program, {{&a, &b}}, {.backend = Backend::Auto});
    // Nothing is timed (or written) before the first step: the trial passes write the outputs.
    CHECK(first.backend().backend == Backend::Auto);
    CHECK(contains(first.backend().reason, "auto: the first step times transform feedback"));
    requireEqual(b.readAs<float>(), sentinel, "the output before the first step");
    first.step();
    const BackendChoice& c = first.backend();
    // Transform feedback and the fragment backend everywhere, compute where the context has it.
    CHECK(c.transformFeedbackMs > 0);
    CHECK(c.fragmentMs > 0);
    CHECK((c.computeMs > 0) == dev.capabilities().compute);
    if (!dev.capabilities().compute) CHECK(contains(c.reason, "compute is not available"));
    // The kept backend is the one whose trial passes were fastest, and the reason says so.
    std::vector<std::pair<double, Backend>> timed{{c.transformFeedbackMs, Backend::TransformFeedback},
                                                  {c.fragmentMs, Backend::Fragment}};
    if (dev.capabilities().compute) timed.emplace_back(c.computeMs, Backend::Compute);
    const Backend fastest = std::min_element(timed.begin(), timed.end())->second;
    CHECK(c.backend == fastest);
    const char* names[] = {"transform feedback", "compute", "auto", "fragment"};
    CHECK(contains(c.reason, "auto: " + std::string(names[int(fastest)]) + " was fastest"));
    CHECK(contains(c.reason, "ms per pass ("));
    CHECK(contains(c.reason, " trial passes at the first step"));
    MESSAGE("auto on ", dev.capabilities().renderer, ": ", c.reason);
    // Trial passes are not swapped: the state advanced by the one step asked for.
    CHECK(first.stepsTaken() == 1);
    std::vector<float> ref = p.initial;
    p.advance(ref);
    requireEqual(a.readAs<float>(), ref, "one step after auto's trial passes");
    Buffer a2(dev, p.format, p.n, view(p.initial)), b2(dev, p.format, p.n);
    Pipeline second(dev, p.program, {{&a2, &b2}}, {.backend = Backend::Auto});
    CHECK(second.backend().backend == c.backend);
    CHECK(contains(second.backend().reason, "decided earlier"));
}

TEST_CASE_FIXTURE(GlTest,
                  "a shader the compute path cannot express: an error for Compute, transform feedback for Auto") {
    // A lookup without an explicit-level form (implicit-level lookups of other samplers translate).
    const char* src = "#version 300 es\nuniform highp sampler2DArrayShadow table;\nin vec4 p;\nout vec4 out_p;\n"
                      "void main() { out_p = p + texture(table, p); }";
    Program program(dev, {src, {}, {}, "sampling"});
    std::vector<float> data = pseudoRandom(4 * 16, 0.0f, 1.0f, 2);
    Buffer a(dev, vec4Format(0), 16, view(data)), b(dev, vec4Format(0), 16);
    Pipeline pipeline(dev, program, {{&a, &b}});
    if (dev.capabilities().compute) {
        std::string msg = XFB_REQUIRE_ERROR(pipeline.setBackend(Backend::Compute), ErrorCode::ComputeTranslation);
        CHECK(contains(msg, "texture()"));
        CHECK(contains(msg, "line 5"));
    } else {
        XFB_REQUIRE_ERROR(pipeline.setBackend(Backend::Compute), ErrorCode::Unsupported);
    }
    CHECK(pipeline.backend().backend == Backend::TransformFeedback); // unchanged, still usable
    CHECK(pipeline.stepsTaken() == 0);
    requireEqual(a.readAs<float>(), data, "state after the refusal");
    pipeline.setBackend(Backend::Auto);
    CHECK(pipeline.backend().backend == Backend::TransformFeedback);
    CHECK(contains(pipeline.backend().reason, "compute is not available"));
    CHECK_NOTHROW(pipeline.step());
    CHECK(pipeline.stepsTaken() == 1);
}

TEST_CASE_FIXTURE(GlTest, "a checked compute step refuses a shrunk output before dispatching, the state survives") {
    if (refusesCompute(dev)) return;
    Particles p(dev);
    Buffer a(dev, p.format, p.n, view(p.initial)), b(dev, p.format, p.n);
    Pipeline pipeline(dev, p.program, {{&a, &b}}, {.backend = Backend::Compute});
    glBindBuffer(GL_COPY_WRITE_BUFFER, b.glName());
    glBufferData(GL_COPY_WRITE_BUFFER, 64, nullptr, GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    std::string msg = XFB_REQUIRE_ERROR(pipeline.stepChecked(), ErrorCode::ShortWrite);
    CHECK(contains(msg, "holds 64 bytes"));
    requireEqual(a.readAs<float>(), p.initial, "state after the refused step");
}

TEST_CASE_FIXTURE(GlTest, "gl_Position and gl_PointSize can be captured on both backends") {
    const char* src = "#version 300 es\nin vec4 p;\nout float out_w;\n"
                      "void main() { gl_Position = p.wzyx; gl_PointSize = p.x * 2.0; out_w = p.w; }";
    std::vector<float> data = pseudoRandom(4 * 32, -1.0f, 1.0f, 6);
    std::vector<float> ref;
    for (std::size_t e = 0; e < 32; ++e) {
        const float* q = &data[e * 4];
        for (float x : {q[3], q[2], q[1], q[0], q[0] * 2.0f, q[3]}) ref.push_back(x);
    }
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Program program(dev,
                        {src, {CaptureMode::Interleaved, {"gl_Position", "gl_PointSize", "out_w"}}, {}, "builtins"});
        Buffer in(dev, vec4Format(0), 32, view(data));
        Buffer out(dev, program.capture().buffers[0].asVertexFormat(), 32);
        Pipeline pipeline(dev, program, {{&in, nullptr}, {nullptr, &out}}, {.backend = backend});
        pipeline.step();
        requireEqual(out.readAs<float>(), ref, "captured builtins");
    }
}

TEST_CASE_FIXTURE(GlTest, "after a context loss every call says so, after restoration the objects work again") {
    Particles p(dev);
    Buffer a(dev, p.format, p.n, view(p.initial)), b(dev, p.format, p.n);
    Pipeline pipeline(dev, p.program, {{&a, &b}});
    pipeline.step();
    const unsigned before = a.glName(), scratch = b.glName(); // scratch: the initial state, the next step's target
    const std::uint64_t generation = a.generation();
    ReadbackRequest pendingRead = a.readAsync(); // its copy dies with the context
    dev.contextLost();
    CHECK(dev.isContextLost());
    std::string msg = XFB_REQUIRE_ERROR(pipeline.step(), ErrorCode::ContextLost);
    CHECK(contains(msg, "Pipeline::step"));
    // The context is really still there: GL itself shows the refused step wrote nothing.
    auto raw = xfb::gl::readBytes(scratch, 0, p.initial.size() * sizeof(float));
    std::vector<float> held(p.initial.size());
    std::memcpy(held.data(), raw.data(), raw.size());
    requireEqual(held, p.initial, "the refused step's output buffer");
    XFB_REQUIRE_ERROR(a.read(), ErrorCode::ContextLost);
    XFB_REQUIRE_ERROR(Buffer(dev, p.format, 4), ErrorCode::ContextLost);
    CHECK(pipeline.stepsTaken() == 1);
    dev.contextRestored(); // here the context never went away: new objects are made all the same
    CHECK_FALSE(dev.isContextLost());
    CHECK(a.glName() != before);
    CHECK(a.generation() != generation); // a vertex array bound to `a` must be bound again
    CHECK_FALSE(pendingRead.ready());
    msg = XFB_REQUIRE_ERROR(pendingRead.take(), ErrorCode::ContextLost);
    CHECK(contains(msg, "readAsync"));
    a.upload(view(p.initial)); // contents are undefined after a restoration: the user re-uploads
    pipeline.step();
    std::vector<float> ref = p.initial;
    p.advance(ref);
    requireEqual(a.readAs<float>(), ref, "a step after restoration");
}

TEST_CASE_FIXTURE(GlTest, "the compute work-group size comes from the device limits and can be overridden") {
    if (refusesCompute(dev)) return;
    Particles p(dev);
    Buffer a(dev, p.format, p.n, view(p.initial)), b(dev, p.format, p.n);
    Pipeline automatic(dev, p.program, {{&a, &b}}, {.backend = Backend::Compute});
    // The default is 256 wherever the device allows it (llvmpipe: 1024 both, ES 3.1's minimum 128).
    GLint maxX = 0, maxInvocations = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &maxX);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &maxInvocations);
    REQUIRE(maxX >= 256);
    REQUIRE(maxInvocations >= 256);
    CHECK(contains(automatic.computeSource(), "layout(local_size_x = 256) in;"));
    Pipeline small(dev, p.program, {{&a, &b}}, {.backend = Backend::Compute, .workGroupSize = 64});
    CHECK(contains(small.computeSource(), "layout(local_size_x = 64) in;"));
    small.step(); // 777 elements: 13 groups of 64, the last one partial
    std::vector<float> ref = p.initial;
    p.advance(ref);
    requireEqual(a.readAs<float>(), ref, "a step with 64-wide groups");
    std::string msg =
        XFB_REQUIRE_ERROR(Pipeline(dev, p.program, {{&a, &b}}, {.backend = Backend::Compute, .workGroupSize = 1 << 20}),
                          ErrorCode::InvalidArgument);
    CHECK(contains(msg, "work-group size"));
}
