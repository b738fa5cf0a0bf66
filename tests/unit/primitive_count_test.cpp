#include "test_util.hpp"
#include "xfb/primitive_count.hpp"

using namespace xfb;

namespace {
CapturePlan plan36() {
    return planCapture(readShaderInterface("out vec4 out_position; out vec3 out_normal; out vec2 out_uv;"), {}, Limits::portable());
}
} // namespace

TEST_CASE("a 4-vertex triangle strip writes 2 triangles: 6 records of 36 bytes = 216 bytes") {
    auto c = countCapture({DrawMode::TriangleStrip, 4}, plan36());
    CHECK(c.primitive == DrawMode::Triangles);
    CHECK(c.primitives == 2);
    CHECK(c.records == 6);
    REQUIRE(c.bytes.size() == 1);
    CHECK(c.bytes[0] == 216);
    // A 144-byte buffer holds 4 records: refused before drawing, with both sizes.
    std::vector<std::uint64_t> small{144};
    auto msg = XFB_REQUIRE_ERROR(checkCaptureCapacity(c, small), ErrorCode::Capacity);
    CHECK(contains(msg, "144 bytes (4 records)"));
    CHECK(contains(msg, "6 records of 36 bytes = 216 bytes"));
    std::vector<std::uint64_t> enough{216};
    CHECK_NOTHROW(checkCaptureCapacity(c, enough));
}

TEST_CASE("records per mode: lists, strips, loops and fans") {
    auto p = plan36();
    auto records = [&](DrawMode m, std::int64_t n) { return countCapture({m, n}, p).records; };
    CHECK(records(DrawMode::Points, 7) == 7);
    CHECK(records(DrawMode::Lines, 7) == 6);      // 3 lines, the 7th vertex is dropped
    CHECK(records(DrawMode::LineStrip, 5) == 8);  // 4 lines
    CHECK(records(DrawMode::LineLoop, 5) == 10);  // 5 lines, closing the loop
    CHECK(records(DrawMode::LineLoop, 1) == 0);
    CHECK(records(DrawMode::Triangles, 8) == 6);  // 2 triangles
    CHECK(records(DrawMode::TriangleFan, 6) == 12);
    CHECK(records(DrawMode::TriangleStrip, 2) == 0);
    XFB_REQUIRE_ERROR(countCapture({DrawMode::Points, -1}, p), ErrorCode::InvalidArgument);
}

TEST_CASE("primitive restart splits strips into runs counted separately") {
    DrawDesc d{DrawMode::TriangleStrip, 0, {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7, 8, 0xFFFF, 9, 10}, 0xFFFF};
    auto c = countCapture(d, plan36());
    CHECK(c.primitives == 2 + 3 + 0);
    CHECK(c.records == 15);
    d.restartIndex.reset(); // without restart, 0xFFFF is an ordinary vertex: one strip of 13
    CHECK(countCapture(d, plan36()).primitives == 11);
    CHECK(drawModeFromName("triangle_fan") == DrawMode::TriangleFan);
    CHECK_FALSE(drawModeFromName("quads"));
}

TEST_CASE("separate mode: bytes per output buffer") {
    auto p = planCapture(readShaderInterface("out vec4 out_a; out float out_b;"), {CaptureMode::Separate}, Limits::portable());
    auto c = countCapture({DrawMode::Lines, 10}, p);
    CHECK(c.records == 10);
    CHECK(c.bytes == std::vector<std::uint64_t>{160, 40});
}
