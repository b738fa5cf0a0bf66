// The findings of the conformance review (issue 23), one regression case each, on every context
// (gl43core, gles30, gles32) and every backend of it: values compared to what the GL must give.
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

#include <cstring>
#include <functional>

using namespace xfb;
using namespace xfbtest;

namespace {

// A recognisable value in every word a step or capture must not write (or must overwrite).
constexpr float kSentinel = -12345.0f;

std::vector<float> sentinelFloats(std::size_t n) { return std::vector<float>(n, kSentinel); }

// Writes one vec4 per vertex from gl_VertexID alone: [id, 1, 2, 3].
constexpr const char* kIdShader =
    "#version 300 es\nout vec4 out_p;\nvoid main() { out_p = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); }";

std::vector<float> idRecords(int n) {
    std::vector<float> v;
    for (int i = 0; i < n; ++i) v.insert(v.end(), {float(i), 1.0f, 2.0f, 3.0f});
    return v;
}

} // namespace

// Finding 6: a DrawMode outside the enum was a successful capture of nothing on ES.
TEST_CASE_FIXTURE(
    GlTest, "finding 6: a DrawMode outside the enum is refused by capture, sessions and every draw, naming the value") {
    const auto bad = static_cast<DrawMode>(42);
    Program program(dev, {kIdShader, {}, {}, "modes"});
    const auto sentinel = sentinelFloats(16 * 4);
    Buffer out(dev, vec4Format(0), 16, view(sentinel));
    PrimitiveCapture capture(dev, program, {{nullptr, &out}}, {.vertexCount = 16});

    std::string msg = XFB_REQUIRE_ERROR(capture.capture({bad, 4}), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    CHECK(contains(msg, "triangle_strip")); // the fix: the modes there are
    std::vector<CapturePart> parts{{{DrawMode::Points, 4}}, {{bad, 4}}};
    msg = XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "part 1"));
    CHECK(contains(msg, "42"));
    requireEqual(out.readAs<float>(), sentinel, "nothing written by the refused capture and session");

    CHECK(capture.capture({DrawMode::Points, 4}).records == 4);
    msg = XFB_REQUIRE_ERROR(capture.drawCaptured(bad), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    std::vector<CapturePart> good{{{DrawMode::Points, 2}}, {{DrawMode::Points, 3}}};
    capture.captureSession(good);
    msg = XFB_REQUIRE_ERROR(capture.drawSession(std::nullopt, bad), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    msg = XFB_REQUIRE_ERROR(capture.drawSession(1, bad), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    std::vector<float> want = idRecords(2), second = idRecords(3); // each part draws from vertex 0
    want.insert(want.end(), second.begin(), second.end());
    want.resize(sentinel.size(), kSentinel);
    requireEqual(out.readAs<float>(), want, "the session's records");

    if (dev.capabilities().compute) {
        const char* src =
            "#version 300 es\nout vec4 out_p;\nout vec4 emit_s[2];\nflat out int emit_n;\n"
            "void main() { out_p = vec4(1.0); emit_n = 1; emit_s[0] = vec4(2.0); emit_s[1] = vec4(3.0); }";
        Program emitting(dev, {src, {}, {}, "emitting"});
        Buffer state(dev, vec4Format(0), 8), sparks(dev, vec4Format(0), 16);
        Pipeline pipeline(dev, emitting, {{nullptr, &state}, {nullptr, &sparks}},
                          {.count = 8, .backend = Backend::Compute, .emits = {{"emit_s", "emit_n"}}});
        pipeline.step();
        msg = XFB_REQUIRE_ERROR(pipeline.drawEmitted("emit_n", bad), ErrorCode::InvalidArgument);
        CHECK(contains(msg, "42"));
    }
}

namespace {

// Re-specifies buffer `name` as `bytes` bytes of sentinel floats, as other code sharing the context might.
void respecifyWithSentinel(unsigned name, std::size_t bytes) {
    std::vector<float> fill(bytes / 4, kSentinel);
    glBindBuffer(GL_COPY_WRITE_BUFFER, name);
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), fill.data(), GL_DYNAMIC_COPY);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

std::vector<Expansion> expansionsOf(const Device& dev) {
    if (dev.capabilities().es) return {Expansion::Engine};
    return {Expansion::Driver, Expansion::Engine};
}

} // namespace

// Finding 5: after other code re-specified an output buffer smaller, capture() reported success.
TEST_CASE_FIXTURE(GlTest, "finding 5: a capture or session into an output buffer that other code re-specified smaller "
                          "is refused, writing nothing") {
    Program program(dev, {kIdShader, {}, {}, "respecified"});
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        Buffer out(dev, vec4Format(0), 8, view(sentinelFloats(32)));
        PrimitiveCapture capture(dev, program, {{nullptr, &out}}, {.vertexCount = 8, .expansion = e});
        CHECK(capture.capture({DrawMode::Points, 8}).records == 8); // fits as created: 128 bytes
        respecifyWithSentinel(out.glName(), 20);
        std::string msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::Points, 6}), ErrorCode::Capacity);
        CHECK(contains(msg, "GL buffer " + std::to_string(out.glName())));
        CHECK(contains(msg, "holds 20 bytes"));
        CHECK(contains(msg, "96 bytes"));
        requireEqual(glFloats(out.glName(), 20), sentinelFloats(5), "the shrunk buffer after the refused capture");
        std::vector<CapturePart> parts{{{DrawMode::Points, 1}}, {{DrawMode::Lines, 2}}};
        msg = XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::Capacity);
        CHECK(contains(msg, "holds 20 bytes"));
        CHECK(contains(msg, "48 bytes"));
        requireEqual(glFloats(out.glName(), 20), sentinelFloats(5), "the shrunk buffer after the refused session");
        // Its size given back, the capture works again.
        respecifyWithSentinel(out.glName(), 128);
        CHECK(capture.capture({DrawMode::Points, 8}).records == 8);
        requireEqual(out.readAs<float>(), idRecords(8), "after the size was given back");
    }
}

// Finding 5, Pipeline::stepChecked: refused (XFB_SHORT_WRITE, not swapped) on every backend, and
// without drawing into the shrunk buffer.
TEST_CASE_FIXTURE(
    GlTest,
    "finding 5: a checked step into an output that other code re-specified smaller writes nothing on every backend") {
    Program program(dev, {kIdShader, {}, {}, "respecified"});
    for (Backend b : backendsOf(dev)) {
        CAPTURE(backendName(b));
        Buffer out(dev, vec4Format(0), 8, view(sentinelFloats(32)));
        Pipeline pipeline(dev, program, {{nullptr, &out}}, {.count = 8, .backend = b});
        respecifyWithSentinel(out.glName(), 20);
        std::string msg = XFB_REQUIRE_ERROR(pipeline.stepChecked(), ErrorCode::ShortWrite);
        CHECK(contains(msg, "holds 20 bytes"));
        CHECK(contains(msg, "128"));
        CHECK(pipeline.stepsTaken() == 0);
        requireEqual(glFloats(out.glName(), 20), sentinelFloats(5), "the shrunk buffer after the refused step");
    }
}

namespace {

// The application's own transform feedback, made with plain GL: its program captures
// `v = vec4(gl_VertexID, 1, 2, 3)` into its own buffer (two records) through its own object.
struct ApplicationFeedback {
    GLuint program = 0, buffer = 0, feedback = 0, vertexArray = 0;
    ApplicationFeedback() {
        program = glCreateProgram();
        const char* sources[2] = {
            "#version 300 es\nout vec4 v;\nvoid main() { v = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); gl_Position = "
            "vec4(0.0); }\n",
            "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"};
        const GLenum stages[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
        for (int i = 0; i < 2; ++i) {
            GLuint s = glCreateShader(stages[i]);
            glShaderSource(s, 1, &sources[i], nullptr);
            glCompileShader(s);
            glAttachShader(program, s);
            glDeleteShader(s);
        }
        const char* varyings[] = {"v"};
        glTransformFeedbackVaryings(program, 1, varyings, GL_INTERLEAVED_ATTRIBS);
        glLinkProgram(program);
        GLint linked = 0;
        glGetProgramiv(program, GL_LINK_STATUS, &linked);
        REQUIRE(linked);
        std::vector<float> fill(8, kSentinel);
        glGenBuffers(1, &buffer);
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
        glBufferData(GL_COPY_WRITE_BUFFER, 32, fill.data(), GL_DYNAMIC_COPY);
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        glGenTransformFeedbacks(1, &feedback);
        glGenVertexArrays(1, &vertexArray);
    }
    ~ApplicationFeedback() {
        glDeleteVertexArrays(1, &vertexArray);
        glDeleteTransformFeedbacks(1, &feedback);
        glDeleteBuffers(1, &buffer);
        glDeleteProgram(program);
    }
    // Begins and draws the first point (gl_VertexID 0).
    void begin() {
        glUseProgram(program);
        glBindVertexArray(vertexArray);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, 1);
    }
    // Draws the second point (gl_VertexID 1), ends and unbinds everything.
    void finish() {
        glDrawArrays(GL_POINTS, 1, 1);
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
        glBindVertexArray(0);
        glUseProgram(0);
    }
    static bool flag(GLenum name) {
        GLboolean b = GL_FALSE;
        glGetBooleanv(name, &b);
        return b == GL_TRUE;
    }
};

} // namespace

// Finding 2: xfb calls inside the application's transform feedback ended it (its next draw
// failed) or left GL_INVALID_OPERATION pending.
TEST_CASE_FIXTURE(GlTest, "finding 2: every xfb call inside the application's active or paused transform feedback is "
                          "refused before touching GL, but making a buffer while it is paused") {
    Program program(dev, {kIdShader, {}, {}, "inside"});
    const auto sentinel = sentinelFloats(32);
    Buffer pipelineOut(dev, vec4Format(0), 8, view(sentinel)), captureOut(dev, vec4Format(0), 8, view(sentinel));
    Pipeline pipeline(dev, program, {{nullptr, &pipelineOut}}, {.count = 8, .backend = Backend::TransformFeedback});
    PrimitiveCapture capture(dev, program, {{nullptr, &captureOut}}, {.vertexCount = 8});
    capture.capture({DrawMode::Points, 8});
    const std::vector<float> captured = idRecords(8);
    requireEqual(captureOut.readAs<float>(), captured, "the capture before");
    const std::vector<std::byte> bytes(64);

    for (bool paused : {false, true}) {
        CAPTURE(paused);
        ApplicationFeedback app;
        app.begin();
        if (paused) glPauseTransformFeedback();
        REQUIRE(glGetError() == GL_NO_ERROR);
        std::vector<std::pair<const char*, std::function<void()>>> calls = {
            {"Program",
             [&] {
                 Program p(dev, {kIdShader, {}, {}, "new"});
             }},
            {"Buffer", [&] { Buffer b(dev, vec4Format(0), 4); }},
            {"Buffer::adopt", [&] { (void)Buffer::adopt(dev, vec4Format(0), 2, app.buffer); }},
            {"upload", [&] { pipelineOut.upload(std::span<const std::byte>(bytes)); }},
            {"read", [&] { (void)pipelineOut.read(); }},
            {"readAsync", [&] { (void)pipelineOut.readAsync(); }},
            {"bindAsVertexInput", [&] { pipelineOut.bindAsVertexInput(0, attr(0)); }},
            {"Pipeline",
             [&] {
                 Pipeline p(dev, program, {{nullptr, &pipelineOut}},
                            {.count = 8, .backend = Backend::TransformFeedback});
             }},
            {"PrimitiveCapture",
             [&] {
                 PrimitiveCapture c(dev, program, {{nullptr, &captureOut}}, {.vertexCount = 8});
             }},
            {"step", [&] { pipeline.step(); }},
            {"step(3)", [&] { pipeline.step(3); }},
            {"stepChecked", [&] { (void)pipeline.stepChecked(); }},
            {"beginCheckedStep", [&] { pipeline.beginCheckedStep(); }},
            {"setBackend", [&] { pipeline.setBackend(Backend::TransformFeedback); }},
            {"drawEmitted", [&] { pipeline.drawEmitted("emit_n", DrawMode::Points); }},
            {"capture",
             [&] {
                 (void)capture.capture({DrawMode::Points, 8});
             }},
            {"captureSession",
             [&] {
                 std::vector<CapturePart> parts{{{DrawMode::Points, 2}}};
                 (void)capture.captureSession(parts);
             }},
            {"drawCaptured", [&] { capture.drawCaptured(); }},
            {"drawSession", [&] { capture.drawSession(); }},
        };
        for (const auto& [name, call] : calls) {
            INFO("call: ", name);
            // Making a buffer binds no program and draws nothing: allowed while paused (issue 39,
            // as on WebGL2), with the application's capture going on as below.
            if (paused && std::string_view(name).starts_with("Buffer"))
                call();
            else {
                std::string msg = XFB_REQUIRE_ERROR(call(), ErrorCode::FeedbackActive);
                CHECK(contains(msg, paused ? "is paused" : "is active"));
                CHECK(contains(msg, "transform feedback object " + std::to_string(app.feedback)));
                CHECK(contains(msg, "glEndTransformFeedback"));
            }
            // Nothing touched: the application's object bound, active (paused), its program current, no error.
            CHECK(glGetError() == GL_NO_ERROR);
            GLint bound = 0, current = 0;
            glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &bound);
            glGetIntegerv(GL_CURRENT_PROGRAM, &current);
            CHECK(GLuint(bound) == app.feedback);
            CHECK(GLuint(current) == app.program);
            CHECK(ApplicationFeedback::flag(GL_TRANSFORM_FEEDBACK_ACTIVE));
            CHECK(ApplicationFeedback::flag(GL_TRANSFORM_FEEDBACK_PAUSED) == paused);
        }
        if (paused) glResumeTransformFeedback();
        app.finish();
        CHECK(glGetError() == GL_NO_ERROR);
        requireEqual(glFloats(app.buffer, 32), {0.0f, 1.0f, 2.0f, 3.0f, 1.0f, 1.0f, 2.0f, 3.0f},
                     "the application's capture");
    }
    requireEqual(pipelineOut.readAs<float>(), sentinel, "xfb's pipeline output, unchanged");
    requireEqual(captureOut.readAs<float>(), captured, "xfb's capture output, unchanged");
    CHECK(pipeline.stepsTaken() == 0);
    // Afterwards xfb runs as before.
    pipeline.step();
    requireEqual(pipelineOut.readAs<float>(), idRecords(8),
                 "a step after the application ended its transform feedback");
}

// Finding 1: a declared, captured output that no code path writes captured leftovers (3, 5, 7, ...)
// on GL 4.5 and ES 3.0, transform feedback and compute, where WebGL2 and WebGPU give 0.
TEST_CASE_FIXTURE(
    GlTest,
    "finding 1: a captured output the shader never writes reads 0 on every backend, fused or not, and in captures") {
    const char* unwritten = "#version 300 es\nout vec4 out_a;\nout vec4 out_b;\n"
                            "void main() {\n  out_a = vec4(float(gl_VertexID), 1.0, 2.0, 3.0);\n  if (gl_VertexID > "
                            "100) out_b = vec4(7.0);\n}";
    // The same with a state the substeps of step(3) feed (fused: one pass of three substeps).
    const char* stateful = "#version 300 es\nin vec4 a_p;\nout vec4 out_a;\nout vec4 out_b;\n"
                           "void main() {\n  out_a = a_p + vec4(1.0);\n  if (gl_VertexID > 100) out_b = vec4(7.0);\n}";
    const std::vector<float> zeros(32, 0.0f), ids = idRecords(8);
    auto interleave = [](const std::vector<float>& a, const std::vector<float>& b) {
        std::vector<float> out;
        for (std::size_t e = 0; e < a.size() / 4; ++e) {
            out.insert(out.end(), a.begin() + long(e * 4), a.begin() + long(e * 4 + 4));
            out.insert(out.end(), b.begin() + long(e * 4), b.begin() + long(e * 4 + 4));
        }
        return out;
    };
    const VertexFormat pair =
        VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 4}});
    for (CaptureMode mode : {CaptureMode::Interleaved, CaptureMode::Separate}) {
        CAPTURE(captureModeName(mode));
        Program program(dev, {unwritten, {mode}, {}, "unwritten"});
        Program state(dev, {stateful, {mode, {"out_a", "out_b"}}, {}, "stateful"});
        for (Backend b : backendsOf(dev)) {
            CAPTURE(backendName(b));
            if (mode == CaptureMode::Interleaved) {
                Buffer out(dev, pair, 8, view(sentinelFloats(64)));
                Pipeline pipeline(dev, program, {{nullptr, &out}}, {.count = 8, .backend = b});
                pipeline.step();
                requireEqual(out.readAs<float>(), interleave(ids, zeros), "interleaved [out_a, out_b]");
            } else {
                Buffer a(dev, vec4Format(0), 8, view(sentinelFloats(32))),
                    c(dev, vec4Format(1), 8, view(sentinelFloats(32)));
                Pipeline pipeline(dev, program, {{nullptr, &a}, {nullptr, &c}}, {.count = 8, .backend = b});
                pipeline.step();
                requireEqual(a.readAs<float>(), ids, "out_a");
                requireEqual(c.readAs<float>(), zeros, "out_b");
            }
            if (mode == CaptureMode::Separate) {
                const std::vector<float> initial = pseudoRandom(32, -1.0f, 1.0f, 3);
                std::vector<float> after = initial;
                for (float& x : after) x = x + 1.0f + 1.0f + 1.0f;
                Buffer s(dev, vec4Format(0), 8, view(initial)), t(dev, vec4Format(0), 8, view(sentinelFloats(32)));
                Buffer c(dev, vec4Format(1), 8, view(sentinelFloats(32)));
                Pipeline pipeline(dev, state, {{&s, &t}, {nullptr, &c}}, {.backend = b});
                REQUIRE(pipeline.fusion().fused);
                pipeline.step(3);
                requireEqual(s.readAs<float>(), after, "the state after three fused substeps");
                requireEqual(c.readAs<float>(), zeros, "out_b after three fused substeps");
            }
        }
        for (Expansion e : expansionsOf(dev)) {
            CAPTURE(expansionName(e));
            if (mode == CaptureMode::Interleaved) {
                Buffer out(dev, pair, 8, view(sentinelFloats(64)));
                PrimitiveCapture capture(dev, program, {{nullptr, &out}}, {.vertexCount = 8, .expansion = e});
                capture.capture({DrawMode::Points, 8});
                requireEqual(out.readAs<float>(), interleave(ids, zeros), "captured [out_a, out_b]");
            } else {
                Buffer a(dev, vec4Format(0), 8, view(sentinelFloats(32))),
                    c(dev, vec4Format(1), 8, view(sentinelFloats(32)));
                PrimitiveCapture capture(dev, program, {{nullptr, &a}, {nullptr, &c}},
                                         {.vertexCount = 8, .expansion = e});
                capture.capture({DrawMode::Points, 8});
                requireEqual(a.readAs<float>(), ids, "captured out_a");
                requireEqual(c.readAs<float>(), zeros, "captured out_b");
            }
        }
    }
}

// Finding 1: an output captured and never assigned at all is kept and reads 0 (the GL linker used
// to drop it, a misleading XFB_VARYING_OPTIMIZED_AWAY).
TEST_CASE_FIXTURE(GlTest, "finding 1: a captured output no statement assigns reads 0 on every backend") {
    // s_extra: a struct output, not captured, zeroed in the compute shader through xfb_zero_S().
    const char* src =
        "#version 300 es\nstruct S { vec4 a; vec2 b; };\nout vec4 out_a;\nout vec4 out_c;\nout S s_extra;\n"
        "void main() { out_a = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); if (gl_VertexID > 100) s_extra.b = vec2(1.0); "
        "}";
    Program program(dev, {src, {CaptureMode::Separate}, {}, "never-written"});
    for (Backend b : backendsOf(dev)) {
        CAPTURE(backendName(b));
        Buffer a(dev, vec4Format(0), 8, view(sentinelFloats(32))), c(dev, vec4Format(1), 8, view(sentinelFloats(32)));
        Pipeline pipeline(dev, program, {{nullptr, &a}, {nullptr, &c}}, {.count = 8, .backend = b});
        pipeline.step();
        requireEqual(a.readAs<float>(), idRecords(8), "out_a");
        requireEqual(c.readAs<float>(), std::vector<float>(32, 0.0f), "out_c, never assigned");
    }
}

namespace {
// What glGetTransformFeedbackVarying reports the driver was asked to capture, in order.
std::vector<std::string> driverVaryings(const Program& program) {
    GLint count = 0;
    glGetProgramiv(program.glName(), GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
    std::vector<std::string> names;
    for (GLint i = 0; i < count; ++i) {
        char name[128] = {};
        GLsizei size = 0;
        GLenum type = 0;
        glGetTransformFeedbackVarying(program.glName(), GLuint(i), sizeof name, nullptr, &size, &type, name);
        names.push_back(std::string(name) + " x" + std::to_string(size));
    }
    return names;
}
} // namespace

// Finding 3: ANGLE (WebGL2 in Chromium) refuses to link a whole array in glTransformFeedbackVaryings;
// the driver gets element names (or, in separate mode, one packed vector) for the same bytes, and
// an element name is a varying of its own.
TEST_CASE_FIXTURE(GlTest, "finding 3: array varyings are captured as their elements, and an element alone, with the "
                          "same bytes on every backend") {
    const char* src = "#version 300 es\nout vec2 out_r[2];\nout float out_f;\n"
                      "void main() {\n  float id = float(gl_VertexID);\n  out_r[0] = vec2(id, 10.0 + id);\n  out_r[1] "
                      "= vec2(20.0 + id, 30.0 + id);\n"
                      "  out_f = 40.0 + id;\n}";
    constexpr int n = 8;
    // Element e's values: r0 = (e, 10+e), r1 = (20+e, 30+e), f = 40+e.
    auto values = [](std::initializer_list<int> offsets) {
        std::vector<float> v;
        for (int e = 0; e < n; ++e)
            for (int o : offsets) v.push_back(float(o + e));
        return v;
    };
    struct Case {
        const char* what;
        CaptureOptions options;
        std::vector<std::vector<float>> expected; // per captured buffer
        std::vector<std::string> driver;          // what the driver was asked to capture
    };
    const std::vector<Case> cases = {
        {"interleaved, whole array",
         {CaptureMode::Interleaved},
         {values({0, 10, 20, 30, 40})},
         {"xfb_packed_out_r_0 x1", "xfb_packed_out_r_1 x1", "out_f x1"}},
        {"separate, whole array",
         {CaptureMode::Separate},
         {values({0, 10, 20, 30}), values({40})},
         {"xfb_packed_out_r x1", "out_f x1"}},
        {"interleaved, one element",
         {CaptureMode::Interleaved, {"out_r[1]", "out_f"}},
         {values({20, 30, 40})},
         {"xfb_packed_out_r_1 x1", "out_f x1"}},
        {"separate, elements",
         {CaptureMode::Separate, {"out_r[1]", "out_f", "out_r[0]"}},
         {values({20, 30}), values({40}), values({0, 10})},
         {"xfb_packed_out_r_1 x1", "out_f x1", "xfb_packed_out_r_0 x1"}},
    };
    for (const Case& c : cases) {
        INFO("case: ", c.what);
        Program program(dev, {src, c.options, {}, c.what});
        CHECK(driverVaryings(program) == c.driver);
        const CapturePlan& plan = program.capture();
        REQUIRE(plan.buffers.size() == c.expected.size());
        for (Backend b : backendsOf(dev)) {
            CAPTURE(backendName(b));
            std::vector<Buffer> outs;
            for (const auto& layout : plan.buffers)
                outs.emplace_back(dev, layout.asVertexFormat(), n,
                                  view(sentinelFloats(std::size_t(layout.stride / 4 * n))));
            std::vector<Entry> entries;
            for (const auto& o : outs) entries.push_back({nullptr, &o});
            Pipeline pipeline(dev, program, entries, {.count = n, .backend = b});
            pipeline.step();
            for (std::size_t i = 0; i < outs.size(); ++i)
                requireEqual(outs[i].readAs<float>(), c.expected[i], "a captured buffer");
        }
        std::vector<Buffer> outs;
        for (const auto& layout : plan.buffers)
            outs.emplace_back(dev, layout.asVertexFormat(), n,
                              view(sentinelFloats(std::size_t(layout.stride / 4 * n))));
        std::vector<Entry> entries;
        for (const auto& o : outs) entries.push_back({nullptr, &o});
        PrimitiveCapture capture(dev, program, entries, {.vertexCount = n});
        capture.capture({DrawMode::Points, n});
        for (std::size_t i = 0; i < outs.size(); ++i)
            requireEqual(outs[i].readAs<float>(), c.expected[i], "a primitive capture's buffer");
    }
}

// Finding 4: outputs over the varying-vector limit failed at link with a misleading
// XFB_VARYING_OPTIMIZED_AWAY (WebGL2: 32 vec4 over MAX_VARYING_VECTORS 31).
TEST_CASE_FIXTURE(
    GlTest,
    "finding 4: the varying-vector limit is queried, outputs at it link and one row past it is XFB_VARYING_VECTORS") {
    GLint v = 0;
    if (dev.capabilities().es)
        glGetIntegerv(GL_MAX_VARYING_VECTORS, &v);
    else
        glGetIntegerv(GL_MAX_VERTEX_OUTPUT_COMPONENTS, &v), v = v / 4 - 1; // one vector kept for gl_Position
    CHECK(dev.limits().maxVaryingVectors == v);
    REQUIRE(v >= 15);
    MESSAGE("varying vectors: ", v);
    // `rows` written vec4 outputs, out_v0 captured (the transform-feedback limits stay out of the way).
    auto shader = [](int rows) {
        std::string s = "#version 300 es\n";
        for (int i = 0; i < rows; ++i) s += "out vec4 out_v" + std::to_string(i) + ";\n";
        s += "void main() {\n";
        for (int i = 0; i < rows; ++i)
            s += "  out_v" + std::to_string(i) + " = vec4(float(gl_VertexID + " + std::to_string(i) + "));\n";
        return s + "}\n";
    };
    Program atLimit(
        dev, {shader(v), {CaptureMode::Interleaved, {"out_v0", "out_v" + std::to_string(v - 1)}}, {}, "at the limit"});
    Buffer out(dev,
               VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 4}}),
               4);
    Pipeline pipeline(dev, atLimit, {{nullptr, &out}}, {.count = 4, .backend = Backend::TransformFeedback});
    pipeline.step();
    std::vector<float> want;
    for (int e = 0; e < 4; ++e) {
        for (int c = 0; c < 4; ++c) want.push_back(float(e));
        for (int c = 0; c < 4; ++c) want.push_back(float(e + v - 1));
    }
    requireEqual(out.readAs<float>(), want, "the first and last of the outputs at the limit");
    std::string msg = XFB_REQUIRE_ERROR(
        Program(dev, {shader(v + 1), {CaptureMode::Interleaved, {"out_v0"}}, {}, "over"}), ErrorCode::VaryingVectors);
    CHECK(contains(msg, std::to_string(v + 1) + " rows"));
    CHECK(contains(msg, "MAX_VARYING_VECTORS is " + std::to_string(v)));
    CHECK(glGetError() == GL_NO_ERROR);
}
