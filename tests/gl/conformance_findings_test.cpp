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
