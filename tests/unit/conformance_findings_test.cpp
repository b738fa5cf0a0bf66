// The planner's side of the conformance review's findings (issue 23); the GL side is
// tests/gl/conformance_findings_test.cpp.
#include "test_util.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/primitive_count.hpp"

using namespace xfb;

// Finding 6: the pure primitive-count planner refuses a DrawMode outside the enum, naming it.
TEST_CASE("finding 6: countCapture, expandPrimitives and planCaptureSession refuse a DrawMode outside the enum") {
    const CapturePlan plan = planCapture(readShaderInterface("out vec4 out_p;"), {}, Limits::portable());
    const auto bad = static_cast<DrawMode>(42);
    std::string msg = XFB_REQUIRE_ERROR(countCapture({bad, 4}, plan), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    CHECK(contains(msg, "points, lines, line_strip, line_loop, triangles, triangle_strip, triangle_fan"));
    XFB_REQUIRE_ERROR(countCapture({static_cast<DrawMode>(-1), 0, {1, 2, 3}}, plan), ErrorCode::InvalidArgument);
    msg = XFB_REQUIRE_ERROR(expandPrimitives({bad, 4}), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "42"));
    XFB_REQUIRE_ERROR(capturedPrimitive(bad), ErrorCode::InvalidArgument);
    std::vector<DrawDesc> parts{{DrawMode::Lines, 4}, {static_cast<DrawMode>(7), 3}};
    msg = XFB_REQUIRE_ERROR(planCaptureSession(parts, plan), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "part 1"));
    CHECK(contains(msg, "draw mode 7"));
    // Every mode of the table still counts.
    for (int m = 0; m <= int(DrawMode::TriangleFan); ++m) CHECK(countCapture({DrawMode(m), 6}, plan).records > 0);
}
