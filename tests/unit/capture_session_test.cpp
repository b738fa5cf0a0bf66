#include "test_util.hpp"
#include "xfb/capture_session.hpp"

using namespace xfb;

namespace {
CapturePlan plan36(const char* src = "out vec4 out_position; out vec3 out_normal; out vec2 out_uv;",
                   CaptureMode mode = CaptureMode::Interleaved) {
    return planCapture(readShaderInterface(src), {mode}, Limits::portable());
}
} // namespace

TEST_CASE("a session of three parts: each part starts where the last one stopped, from a record offset") {
    std::vector<DrawDesc> parts{{DrawMode::TriangleStrip, 5},                         // 3 triangles, 9 records
                                {DrawMode::LineLoop, 4},                              // 4 lines, 8 records
                                {DrawMode::Triangles, 0, {0, 1, 2, 9, 3, 4, 5}, 9u}}; // restart: 2 triangles, 6 records
    auto s = planCaptureSession(parts, plan36(), 10);
    REQUIRE(s.parts.size() == 3);
    CHECK(s.firstRecord == 10);
    CHECK(s.endRecord == 33);
    CHECK(s.records() == 23);
    CHECK(s.endBytes == std::vector<std::uint64_t>{33 * 36});
    CHECK(s.parts[0].primitive == DrawMode::Triangles);
    CHECK(s.parts[0].firstRecord == 10);
    CHECK(s.parts[0].records == 9);
    CHECK(s.parts[0].firstByte == std::vector<std::uint64_t>{360});
    CHECK(s.parts[0].bytes == std::vector<std::uint64_t>{324});
    CHECK(s.parts[1].primitive == DrawMode::Lines);
    CHECK(s.parts[1].primitives == 4);
    CHECK(s.parts[1].firstRecord == 19);
    CHECK(s.parts[1].firstByte == std::vector<std::uint64_t>{684});
    CHECK(s.parts[2].primitives == 2);
    CHECK(s.parts[2].firstRecord == 27);
    CHECK(s.parts[2].records == 6);
    CHECK(s.parts[2].bytes == std::vector<std::uint64_t>{216});
}

TEST_CASE("separate mode: one first byte and byte count per buffer") {
    std::vector<DrawDesc> parts{{DrawMode::Points, 3}, {DrawMode::Lines, 4}};
    auto s = planCaptureSession(
        parts, plan36("out vec4 out_position; out vec3 out_normal; out vec2 out_uv;", CaptureMode::Separate));
    CHECK(s.parts[1].firstRecord == 3);
    CHECK(s.parts[1].firstByte == std::vector<std::uint64_t>{48, 36, 24});
    CHECK(s.parts[1].bytes == std::vector<std::uint64_t>{64, 48, 32});
    CHECK(s.endBytes == std::vector<std::uint64_t>{112, 84, 56});
}

TEST_CASE("a session that does not fit is refused as a whole, with both sizes") {
    std::vector<DrawDesc> parts{{DrawMode::Triangles, 6}, {DrawMode::Triangles, 6}};
    auto s = planCaptureSession(parts, plan36(), 4); // records 4..16
    std::vector<std::uint64_t> small{15 * 36};
    auto msg = XFB_REQUIRE_ERROR(checkSessionCapacity(s, small), ErrorCode::Capacity);
    CHECK(contains(msg, "holds 540 bytes (15 records)"));
    CHECK(contains(msg, "records 4..16"));
    CHECK(contains(msg, "needs 576 bytes"));
    std::vector<std::uint64_t> exact{16 * 36};
    CHECK_NOTHROW(checkSessionCapacity(s, exact));
}

TEST_CASE("bad sessions name the part") {
    std::vector<DrawDesc> none;
    CHECK(contains(XFB_REQUIRE_ERROR(planCaptureSession(none, plan36()), ErrorCode::InvalidArgument),
                   "at least one part"));
    std::vector<DrawDesc> parts{{DrawMode::Points, 3}, {DrawMode::Points, -1}};
    CHECK(contains(XFB_REQUIRE_ERROR(planCaptureSession(parts, plan36()), ErrorCode::InvalidArgument),
                   "part 1: vertex count must be >= 0"));
    CHECK(contains(
        XFB_REQUIRE_ERROR(planCaptureSession(std::span(parts).first(1), plan36(), -2), ErrorCode::InvalidArgument),
        "first record"));
    // Far offsets are errors, never wrapped byte positions (2^62 or 2^63 - 2 records of 36 bytes).
    CHECK(contains(XFB_REQUIRE_ERROR(planCaptureSession(std::span(parts).first(1), plan36(), std::int64_t(1) << 62),
                                     ErrorCode::BufferTooLarge),
                   "record 4611686018427387904"));
    CHECK(contains(XFB_REQUIRE_ERROR(planCaptureSession(std::span(parts).first(1), plan36(), INT64_MAX - 1),
                                     ErrorCode::BufferTooLarge),
                   "record 9223372036854775806"));
}

TEST_CASE("capture layouts: equal records match whatever the varyings are called, others are described") {
    auto a = plan36();
    auto renamed = plan36("out vec4 out_p; out vec3 out_n; out vec2 out_t;");
    auto other = plan36("out vec4 out_position; out vec2 out_uv; out vec3 out_normal;");
    CHECK(sameCaptureLayout(a, renamed));
    CHECK_FALSE(sameCaptureLayout(a, other));
    CHECK_FALSE(sameCaptureLayout(
        a, plan36("out vec4 out_position; out vec3 out_normal; out vec2 out_uv;", CaptureMode::Separate)));
    CHECK_FALSE(sameCaptureLayout(a, plan36("out vec4 out_position; out vec3 out_normal; out ivec2 out_uv;")));
    CHECK(describeCaptureLayout(a) ==
          "interleaved, buffer 0 stride 36: out_position vec4 @0, out_normal vec3 @16, out_uv vec2 @28");
    CHECK(describeCaptureLayout(other) ==
          "interleaved, buffer 0 stride 36: out_position vec4 @0, out_uv vec2 @16, out_normal vec3 @24");
}
