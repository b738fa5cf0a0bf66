#include "test_util.hpp"
#include "xfb/attribute_plan.hpp"

using namespace xfb;

static std::vector<AttributeSlot> plan(std::string_view src, Limits limits = Limits::portable()) {
    return planAttributes(readShaderInterface(src), limits);
}

TEST_CASE("ATTR0, ATTR1, ... by declaration order, a matN takes N slots") {
    auto a = plan("in vec4 aPosition; in mat4 aModel; in vec2 aUv[2]; in float aLast;");
    REQUIRE(a.size() == 4);
    CHECK(a[0].semantic == attr(0));
    CHECK(a[1].semantic == attr(1));
    CHECK(a[1].locationCount == 4);
    CHECK(a[2].semantic == attr(5));
    CHECK(a[2].locationCount == 2);
    CHECK(a[2].componentsPerLocation() == 2);
    CHECK(a[3].semantic == attr(7));
    CHECK(semanticName(a[3].semantic) == "ATTR7");
}

TEST_CASE("explicit locations are honoured, later inputs continue after them") {
    auto a = plan("layout(location = 4) in vec4 a; in vec4 b; layout(location = 0) in vec4 c;");
    CHECK(a[0].location == 4);
    CHECK(a[0].explicitLocation);
    CHECK(a[1].location == 5);
    CHECK(a[2].location == 0);
    auto msg =
        XFB_REQUIRE_ERROR(plan("in mat4 m; layout(location = 2) in vec4 x;"), ErrorCode::AttributeLocationCollision);
    CHECK(contains(msg, "'x'"));
    CHECK(contains(msg, "'m'"));
    XFB_REQUIRE_ERROR(plan("in vec4 b; layout(location = 0) in vec4 a;"), ErrorCode::AttributeLocationCollision);
}

TEST_CASE("standard names take standard semantics, mixing with custom names is an error naming both") {
    auto a = plan("in vec4 vertex_position; in vec3 vertex_normal;");
    CHECK(a[0].semantic == Semantic::Position);
    CHECK(a[0].location == 0);
    CHECK(a[1].semantic == Semantic::Normal);
    CHECK(a[1].location == 1);
    auto msg = XFB_REQUIRE_ERROR(plan("in vec4 vertex_position; in vec4 aVelocity;"), ErrorCode::MixedSemantics);
    CHECK(contains(msg, "vertex_position"));
    CHECK(contains(msg, "aVelocity"));
}

TEST_CASE("limits and types") {
    Limits small;
    small.maxVertexAttribs = 4;
    auto msg = XFB_REQUIRE_ERROR(plan("in vec4 a; in mat4 b;", small), ErrorCode::TooManyAttributes);
    CHECK(contains(msg, "'b'"));
    CHECK(contains(msg, "MAX_VERTEX_ATTRIBS is 4"));
    XFB_REQUIRE_ERROR(plan("in bool flag;"), ErrorCode::AttributeType);
    XFB_REQUIRE_ERROR(plan("in dvec2 d;"), ErrorCode::AttributeType);
}

TEST_CASE("semantic names round-trip") {
    for (auto s : {Semantic::Position, Semantic::TexCoord7, attr(0), attr(15)})
        CHECK(semanticFromName(semanticName(s)) == s);
    CHECK_FALSE(semanticFromName("ATTRx"));
    CHECK_FALSE(semanticFromName("ATTR99"));
}
