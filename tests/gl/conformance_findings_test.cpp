// The findings of the conformance review (issue 23), one regression case each, on every context
// (gl43core, gles30, gles32) and every backend of it: values compared to what the GL must give.
#include "gl_fixture.hpp"

#include "../unit/test_util.hpp"

#include <cstring>

using namespace xfb;
using namespace xfbtest;

namespace {

// A recognisable value in every word a step or capture must not write (or must overwrite).
constexpr float kSentinel = -12345.0f;

std::vector<float> sentinelFloats(std::size_t n) { return std::vector<float>(n, kSentinel); }

// Writes one vec4 per vertex from gl_VertexID alone: [id, 1, 2, 3].
constexpr const char* kIdShader = "#version 300 es\nout vec4 out_p;\nvoid main() { out_p = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); }";

std::vector<float> idRecords(int n) {
    std::vector<float> v;
    for (int i = 0; i < n; ++i) v.insert(v.end(), {float(i), 1.0f, 2.0f, 3.0f});
    return v;
}

} // namespace

// Finding 6: a DrawMode outside the enum was a successful capture of nothing on ES.
TEST_CASE_FIXTURE(GlTest, "finding 6: a DrawMode outside the enum is refused by capture, sessions and every draw, naming the value") {
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
        const char* src = "#version 300 es\nout vec4 out_p;\nout vec4 emit_s[2];\nflat out int emit_n;\n"
                          "void main() { out_p = vec4(1.0); emit_n = 1; emit_s[0] = vec4(2.0); emit_s[1] = vec4(3.0); }";
        Program emitting(dev, {src, {}, {}, "emitting"});
        Buffer state(dev, vec4Format(0), 8), sparks(dev, vec4Format(0), 16);
        Pipeline pipeline(dev, emitting, {{nullptr, &state}, {nullptr, &sparks}}, {.count = 8, .backend = Backend::Compute, .emits = {{"emit_s", "emit_n"}}});
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

// The first `bytes` of GL buffer `name` as floats, read with the application's own GL calls.
std::vector<float> glFloats(unsigned name, std::size_t bytes) {
    std::vector<float> out(bytes / 4);
    glFinish();
    glBindBuffer(GL_COPY_READ_BUFFER, name);
    if (const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, GLsizeiptr(bytes), GL_MAP_READ_BIT)) {
        std::memcpy(out.data(), p, bytes);
        glUnmapBuffer(GL_COPY_READ_BUFFER);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return out;
}

std::vector<Expansion> expansionsOf(const Device& dev) {
    if (dev.capabilities().es) return {Expansion::Engine};
    return {Expansion::Driver, Expansion::Engine};
}

} // namespace

// Finding 5: after other code re-specified an output buffer smaller, capture() reported success.
TEST_CASE_FIXTURE(GlTest, "finding 5: a capture or session into an output buffer that other code re-specified smaller is refused, writing nothing") {
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
TEST_CASE_FIXTURE(GlTest, "finding 5: a checked step into an output that other code re-specified smaller writes nothing on every backend") {
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
