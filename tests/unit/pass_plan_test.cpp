#include "test_util.hpp"
#include "xfb/pass_plan.hpp"

using namespace xfb;

namespace {
const char* kSeparate = R"(#version 300 es
in vec4 position; in vec4 velocity; in vec2 params;
out vec4 out_position; out vec4 out_velocity; out vec4 out_instance;
void main() {})";

VertexFormat vec4At(int slot) { return VertexFormat::interleaved({{attr(slot), ComponentType::Float32, 4}}); }
BufferDesc desc(VertexFormat f, std::uint64_t count) { return {f, count * std::uint64_t(f.stride)}; }

struct Fixture {
    ShaderInterface shader = readShaderInterface(kSeparate);
    std::vector<AttributeSlot> attrs = planAttributes(shader, Limits::portable());
    CapturePlan cap = planCapture(shader, {CaptureMode::Separate}, Limits::portable());
    VertexFormat params = VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}});
    std::vector<EntryDesc> entries(std::uint64_t n = 100) {
        return {{desc(vec4At(0), n), desc(vec4At(0), n)},
                {desc(vec4At(1), n), desc(vec4At(1), n)},
                {desc(params, n), std::nullopt},
                {std::nullopt, desc(vec4At(12), n)}};
    }
    PassPlan run(const std::vector<EntryDesc>& e, std::optional<std::int64_t> count = std::nullopt) {
        return planPass(attrs, cap, e, count);
    }
};
} // namespace

TEST_CASE("all three roles: output bindings skip input-only entries") {
    Fixture f;
    auto p = f.run(f.entries());
    CHECK(p.count == 100);
    REQUIRE(p.outputs.size() == 3);
    CHECK(p.outputs[0].entry == 0);
    CHECK(p.outputs[1].entry == 1);
    CHECK(p.outputs[2].entry == 3); // entry 2 is {input}: skipped
    CHECK(p.outputs[2].binding == 2);
    CHECK(p.outputs[2].bytesPerStep == 1600);
    REQUIRE(p.attributes.size() == 3);
    CHECK(p.attributes[2].entry == 2);
    CHECK(p.attributes[2].componentsPerLocation == 2);
}

TEST_CASE("output count and order mismatches list both sides") {
    Fixture f;
    auto e = f.entries();
    e.pop_back();
    auto msg = XFB_REQUIRE_ERROR(f.run(e), ErrorCode::OutputCountMismatch);
    CHECK(contains(msg, "out_instance"));
    CHECK(contains(msg, "entry #1 {input, output}"));
    Fixture i;
    i.cap = planCapture(i.shader, {CaptureMode::Interleaved}, Limits::portable());
    XFB_REQUIRE_ERROR(i.run(i.entries()), ErrorCode::OutputCountMismatch);
    XFB_REQUIRE_ERROR(f.run({{std::nullopt, std::nullopt}}), ErrorCode::RoleEmpty);
}

TEST_CASE("semantics must match the shader's assignment") {
    Fixture f;
    auto e = f.entries();
    e[2].input = desc(VertexFormat::interleaved({{attr(3), ComponentType::Float32, 2}}), 100);
    auto msg = XFB_REQUIRE_ERROR(f.run(e), ErrorCode::SemanticMissing);
    CHECK(contains(msg, "'params' (ATTR2)"));
    e = f.entries();
    e[2].input = desc(
        VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}, {attr(5), ComponentType::Float32, 1}}), 100);
    XFB_REQUIRE_ERROR(f.run(e), ErrorCode::SemanticUnused);
    e = f.entries();
    e[2].input = desc(VertexFormat::interleaved({{attr(2), ComponentType::Int32, 2}}), 100);
    msg = XFB_REQUIRE_ERROR(f.run(e), ErrorCode::SemanticTypeMismatch);
    CHECK(contains(msg, "int32x2"));
    e = f.entries();
    e[2].input = desc(
        VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}, {attr(1), ComponentType::Float32, 4}}), 100);
    XFB_REQUIRE_ERROR(f.run(e), ErrorCode::SemanticDuplicate);
}

TEST_CASE("counts, sizes and capacity") {
    Fixture f;
    auto e = f.entries();
    e[2].input = desc(f.params, 99);
    auto msg = XFB_REQUIRE_ERROR(f.run(e), ErrorCode::CountMismatch);
    CHECK(contains(msg, "99"));
    CHECK(contains(msg, "100"));
    e = f.entries();
    e[2].input->bytes += 4;
    XFB_REQUIRE_ERROR(f.run(e), ErrorCode::BufferSize);
    e = f.entries();
    e[3].output->bytes = 1599;
    msg = XFB_REQUIRE_ERROR(f.run(e), ErrorCode::Capacity);
    CHECK(contains(msg, "1599"));
    CHECK(contains(msg, "1600"));
    e = f.entries();
    e[0].output->bytes = 16 * 50;
    XFB_REQUIRE_ERROR(f.run(e), ErrorCode::StateFormatMismatch);
    XFB_REQUIRE_ERROR(f.run(f.entries(), 50), ErrorCode::CountMismatch);
    XFB_REQUIRE_ERROR(f.run({{std::nullopt, desc(vec4At(0), 10)}}), ErrorCode::InvalidArgument);
}

TEST_CASE("output formats must agree with what is captured into them") {
    auto shader = readShaderInterface("in vec4 p; out vec4 out_position; out vec3 out_normal; out vec2 out_uv;");
    auto attrs = planAttributes(shader, Limits::portable());
    auto cap = planCapture(shader, {}, Limits::portable());
    VertexFormat in = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}});
    // A render format reading position.xyz, life (w) and uv of the 36-byte record is fine.
    VertexFormat render = VertexFormat::interleaved({{attr(10), ComponentType::Float32, 3, 0},
                                                     {attr(11), ComponentType::Float32, 1, 12},
                                                     {attr(12), ComponentType::Float32, 2, 28}},
                                                    36);
    std::vector<EntryDesc> e{{desc(in, 8), std::nullopt}, {std::nullopt, desc(render, 8)}};
    CHECK(planPass(attrs, cap, e).outputs[0].stride == 36);
    e[1].output = desc(VertexFormat::interleaved({{attr(10), ComponentType::Float32, 4}}, 32), 9);
    XFB_REQUIRE_ERROR(planPass(attrs, cap, e), ErrorCode::OutputLayoutMismatch);
    e[1].output = desc(VertexFormat::interleaved({{attr(10), ComponentType::Int32, 4}}, 36), 8);
    XFB_REQUIRE_ERROR(planPass(attrs, cap, e), ErrorCode::OutputLayoutMismatch);
}

TEST_CASE("vertex formats are validated") {
    XFB_REQUIRE_ERROR(
        VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 4, 8}})
            .validate(),
        ErrorCode::FormatInvalid);
    XFB_REQUIRE_ERROR(VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}}, 8).validate(),
                      ErrorCode::FormatInvalid);
    XFB_REQUIRE_ERROR(VertexFormat::interleaved({{attr(0), ComponentType::Float32, 0}}).validate(),
                      ErrorCode::FormatInvalid);
    XFB_REQUIRE_ERROR(VertexFormat{}.validate(), ErrorCode::FormatInvalid);
    CHECK_NOTHROW(VertexFormat::interleaved({{attr(0), ComponentType::Float32, 3}, {attr(1), ComponentType::UInt32, 1}})
                      .validate());
}
