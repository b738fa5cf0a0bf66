#include "test_util.hpp"
#include "xfb/primitive_count.hpp"

using namespace xfb;

namespace {
CapturePlan plan36() {
    return planCapture(readShaderInterface("out vec4 out_position; out vec3 out_normal; out vec2 out_uv;"), {},
                       Limits::portable());
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
    CHECK(records(DrawMode::Lines, 7) == 6);     // 3 lines, the 7th vertex is dropped
    CHECK(records(DrawMode::LineStrip, 5) == 8); // 4 lines
    CHECK(records(DrawMode::LineLoop, 5) == 10); // 5 lines, closing the loop
    CHECK(records(DrawMode::LineLoop, 1) == 0);
    CHECK(records(DrawMode::Triangles, 8) == 6); // 2 triangles
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
    auto p = planCapture(readShaderInterface("out vec4 out_a; out float out_b;"), {CaptureMode::Separate},
                         Limits::portable());
    auto c = countCapture({DrawMode::Lines, 10}, p);
    CHECK(c.records == 10);
    CHECK(c.bytes == std::vector<std::uint64_t>{160, 40});
}

TEST_CASE("expansion: the source vertex of every record, as the GL writes strips, loops and fans") {
    using V = std::vector<std::uint32_t>;
    CHECK(expandPrimitives({DrawMode::TriangleStrip, 4}) == V{0, 1, 2, 2, 1, 3}); // odd triangle keeps the winding
    CHECK(expandPrimitives({DrawMode::TriangleStrip, 5}) == V{0, 1, 2, 2, 1, 3, 2, 3, 4});
    CHECK(expandPrimitives({DrawMode::TriangleFan, 5}) == V{0, 1, 2, 0, 2, 3, 0, 3, 4});
    CHECK(expandPrimitives({DrawMode::LineStrip, 3}) == V{0, 1, 1, 2});
    CHECK(expandPrimitives({DrawMode::LineLoop, 3}) == V{0, 1, 1, 2, 2, 0});
    CHECK(expandPrimitives({DrawMode::Lines, 5}) == V{0, 1, 2, 3});
    CHECK(expandPrimitives({DrawMode::Triangles, 7}) == V{0, 1, 2, 3, 4, 5});
    CHECK(expandPrimitives({DrawMode::Points, 3}) == V{0, 1, 2});
    // Indexed with restart: runs are expanded separately, index values are the sources.
    DrawDesc d{DrawMode::TriangleStrip, 0, {7, 8, 9, 10, 0xFFFF, 4, 5, 6, 0xFFFF, 1, 2}, 0xFFFF};
    CHECK(expandPrimitives(d) == V{7, 8, 9, 9, 8, 10, 4, 5, 6});
    d.mode = DrawMode::LineLoop;
    CHECK(expandPrimitives(d) == V{7, 8, 8, 9, 9, 10, 10, 7, 4, 5, 5, 6, 6, 4, 1, 2, 2, 1});
    XFB_REQUIRE_ERROR(expandPrimitives({DrawMode::Points, -1}), ErrorCode::InvalidArgument);
}

TEST_CASE("expansion and counting agree for every mode, length and restart pattern") {
    auto p = plan36();
    for (int m = 0; m <= int(DrawMode::TriangleFan); ++m)
        for (std::uint32_t n = 0; n < 12; ++n) {
            DrawDesc plain{DrawMode(m), n};
            CHECK(expandPrimitives(plain).size() == std::size_t(countCapture(plain, p).records));
            DrawDesc restarted{DrawMode(m), 0, {}, 99u};
            for (std::uint32_t i = 0; i < n; ++i) restarted.indices.push_back(i % 4 == 3 ? 99u : i);
            CHECK(expandPrimitives(restarted).size() == std::size_t(countCapture(restarted, p).records));
        }
}
