// Append captures (PrimitiveCapture::captureSession): several draws into one buffer, each part
// at its planned record range; byte for byte against single captures under both expansions;
// offsets, capacity and layout refusals; drawing one part or the whole session back.
#include "gl_fixture.hpp"
#include "offscreen.hpp"

#include "../unit/test_util.hpp"
#include "xfb_shaders.hpp"

using namespace xfb;
using namespace xfbtest;

namespace {

constexpr int kRecordFloats = 9; // capture_mesh.vert: vec4 + vec3 + vec2, 36 bytes

VertexFormat meshInput() {
    return VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}});
}
VertexFormat recordFormat() {
    return VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                      {attr(1), ComponentType::Float32, 3},
                                      {attr(2), ComponentType::Float32, 2}});
}

std::vector<Expansion> expansionsOf(const Device& dev) {
    if (dev.capabilities().es) return {Expansion::Engine};
    return {Expansion::Driver, Expansion::Engine};
}

struct Meshes {
    std::int64_t n = 24;
    std::vector<float> vertices = pseudoRandom(std::size_t(n) * 6, -1.0f, 1.0f, 11u);
    Program mesh, other;
    Buffer input;
    explicit Meshes(Device& dev)
        : mesh(dev, {std::string(xfb_shaders::capture_mesh_vert), {}, {}, "mesh"}),
          other(dev, {std::string(xfb_shaders::capture_mesh_second_material_vert), {}, {}, "other"}),
          input(dev, meshInput(), n, view(vertices)) {
        mesh.setUniform("u_scale", 2.0f);
    }
};

// Part sets: triangles only (on desktop GL parts 0 and 1 share one begin, paused between a
// non-indexed draw and an indexed one with restart; part 2's program begins again), and modes
// mixed (a new begin at each change).
std::vector<std::vector<CapturePart>> partSets(const Program& other) {
    std::vector<std::uint32_t> indices{3, 9, 4, 0xFFFFFFFFu, 20, 21, 22, 23, 2};
    return {{{{DrawMode::TriangleStrip, 6}},
             {{DrawMode::TriangleStrip, 0, indices, 0xFFFFFFFFu}},
             {{DrawMode::TriangleFan, 5}, &other}},
            {{{DrawMode::LineLoop, 5}, &other},
             {{DrawMode::Points, 7}},
             {{DrawMode::Triangles, 0, indices, 0xFFFFFFFFu}, &other}}};
}

std::vector<float> sentinel(std::size_t records) {
    std::vector<float> v(records * kRecordFloats);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = -1000.0f - float(i);
    return v;
}

} // namespace

TEST_CASE_FIXTURE(
    GlTest, "a three-part session equals three single captures laid end to end, byte for byte, under both expansions") {
    Meshes m(dev);
    for (const auto& parts : partSets(m.other)) {
        // The reference: each part captured alone, with its own program, by the driver's expansion where there is one.
        std::vector<float> want;
        for (const auto& p : parts) {
            Buffer single(dev, recordFormat(), 64);
            PrimitiveCapture alone(dev, p.program ? *p.program : m.mesh, {{&m.input, nullptr}, {nullptr, &single}},
                                   {std::nullopt, expansionsOf(dev)[0]});
            auto c = alone.capture(p.draw);
            REQUIRE(c.records > 0);
            auto got = single.readAs<float>();
            want.insert(want.end(), got.begin(), got.begin() + c.records * kRecordFloats);
        }
        for (Expansion e : expansionsOf(dev)) {
            CAPTURE(expansionName(e));
            Buffer out(dev, recordFormat(), 100);
            PrimitiveCapture capture(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
            const SessionPlan& s = capture.captureSession(parts);
            REQUIRE(s.parts.size() == 3);
            CHECK(s.parts[1].firstRecord == s.parts[0].records);
            CHECK(s.parts[2].firstRecord == s.parts[0].records + s.parts[1].records);
            REQUIRE(std::size_t(s.endRecord) * kRecordFloats == want.size());
            auto got = out.readAs<float>();
            got.resize(want.size());
            requireEqual(got, want, "session = single captures in a row");
        }
    }
}

TEST_CASE_FIXTURE(GlTest, "a session at a record offset leaves the records before and after it untouched") {
    Meshes m(dev);
    auto parts = partSets(m.other)[1];
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        auto before = sentinel(80);
        Buffer out(dev, recordFormat(), 80, view(before));
        PrimitiveCapture capture(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        Buffer atZero(dev, recordFormat(), 80);
        PrimitiveCapture reference(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &atZero}}, {std::nullopt, e});
        const SessionPlan& r = reference.captureSession(parts);
        const SessionPlan& s = capture.captureSession(parts, 7);
        CHECK(s.firstRecord == 7);
        CHECK(s.parts[0].firstByte == std::vector<std::uint64_t>{7 * 36});
        CHECK(s.endRecord == 7 + r.endRecord);
        auto got = out.readAs<float>(), zero = atZero.readAs<float>();
        auto want = before;
        std::copy(zero.begin(), zero.begin() + r.endRecord * kRecordFloats, want.begin() + 7 * kRecordFloats);
        requireEqual(got, want, "sentinels, then the session, then sentinels");
        // A single capture afterwards writes from record 0 again (the whole-buffer binding is back).
        CHECK(capture.capture({DrawMode::Points, 2}).records == 2);
        CHECK(out.readAs<float>()[2 * kRecordFloats + 3] == want[2 * kRecordFloats + 3]);
        CHECK(out.readAs<float>()[0] != want[0]);
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "an overflowing session is refused with both sizes and writes nothing, not even its first parts") {
    Meshes m(dev);
    auto parts = partSets(m.other)[0];
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        Buffer probe(dev, recordFormat(), 100);
        PrimitiveCapture sizing(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &probe}}, {std::nullopt, e});
        const std::int64_t records = sizing.captureSession(parts).records();
        auto before = sentinel(std::size_t(records + 2));
        Buffer out(dev, recordFormat(), records + 2, view(before)); // one record short from offset 3
        PrimitiveCapture capture(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        std::string msg = XFB_REQUIRE_ERROR(capture.captureSession(parts, 3), ErrorCode::Capacity);
        CHECK(contains(msg, "holds " + std::to_string((records + 2) * 36) + " bytes (" + std::to_string(records + 2) +
                                " records)"));
        CHECK(contains(msg, "needs " + std::to_string((records + 3) * 36) + " bytes"));
        requireEqual(out.readAs<float>(), before, "untouched buffer");
        CHECK(
            contains(XFB_REQUIRE_ERROR(capture.drawSession(), ErrorCode::InvalidArgument), "no session was captured"));
        // From offset 2 it fits exactly.
        CHECK(capture.captureSession(parts, 2).endRecord == records + 2);
    }
}

TEST_CASE_FIXTURE(
    GlTest,
    "a part whose program writes another layout, or reads an input the capture lacks, is refused before drawing") {
    Meshes m(dev);
    Program reordered(dev, {std::string(xfb_shaders::capture_mesh_reordered_vert), {}, {}, "reordered"});
    Program extraInput(dev, {"#version 300 es\nin vec4 a_position;\nin vec2 a_uv;\nin vec4 a_color;\nout vec4 "
                             "out_position;\nout vec3 out_normal;\n"
                             "out vec2 out_uv;\nvoid main() { out_position = a_position + a_color; out_normal = "
                             "vec3(0.0); out_uv = a_uv; }\n",
                             {},
                             {},
                             "extra"});
    auto before = sentinel(40);
    Buffer out(dev, recordFormat(), 40, view(before));
    PrimitiveCapture capture(dev, m.mesh, {{&m.input, nullptr}, {nullptr, &out}});
    std::vector<CapturePart> parts{{{DrawMode::Triangles, 3}}, {{DrawMode::Triangles, 3}, &reordered}};
    std::string msg = XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::OutputLayoutMismatch);
    CHECK(contains(msg, "part 1: program 'reordered'"));
    CHECK(contains(msg, "out_uv vec2 @16, out_normal vec3 @24"));
    CHECK(contains(
        msg,
        "'mesh' writes {interleaved, buffer 0 stride 36: out_position vec4 @0, out_normal vec3 @16, out_uv vec2 @28}"));
    parts[1].program = &extraInput;
    msg = XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::SemanticMissing);
    CHECK(contains(msg, "'a_color' (vec4) at location 2"));
    parts[1] = {{DrawMode::Triangles, 0, {0, 1, 99}}};
    CHECK(contains(XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::InvalidArgument),
                   "part 1: index 99 at position 2"));
    requireEqual(out.readAs<float>(), before, "nothing written by refused sessions");
}

TEST_CASE_FIXTURE(GlTest, "drawSession draws exactly one part, or the whole session, with the planned ranges") {
    const char* src = "#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = "
                      "a_position; gl_Position = a_position; }\n";
    const char* shifted =
        "#version 300 es\nin vec4 a_position;\nout vec4 out_position;\n"
        "void main() { out_position = a_position + vec4(0.0, 1.0, 0.0, 0.0); gl_Position = out_position; }\n";
    Program program(dev, {src, {}, {}, "quad"}), up(dev, {shifted, {}, {}, "up"});
    // Quads as strips: bottom-left (vertices 0..3), bottom-right (4..7); "up" moves the first to the top-left.
    std::vector<float> quads = {-1, -1, 0, 1, 0, -1, 0, 1, -1, 0, 0, 1, 0, 0, 0, 1, //
                                0,  -1, 0, 1, 1, -1, 0, 1, 0,  0, 0, 1, 1, 0, 0, 1};
    Buffer input(dev, vec4Format(0), 8, view(quads));
    constexpr int kQuadrant = RedCoverage::kSize * RedCoverage::kSize / 4;
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        // Stale records covering the top-right quadrant wherever a wrong range would read.
        std::vector<float> stale;
        for (int k = 0; k < 8; ++k) {
            std::vector<float> tr = {0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1};
            stale.insert(stale.end(), tr.begin(), tr.end());
        }
        Buffer out(dev, vec4Format(0), 24, view(stale));
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        std::vector<CapturePart> parts{{{DrawMode::TriangleStrip, 0, {4, 5, 6, 7}}}, // bottom-right
                                       {{DrawMode::TriangleStrip, 4}},               // bottom-left
                                       {{DrawMode::TriangleStrip, 4}, &up}};         // top-left
        const SessionPlan& s = capture.captureSession(parts, 3);
        CHECK(s.parts[2].firstRecord == 15);
        RedCoverage target(out);
        target.bind();
        capture.drawSession(0);
        CHECK(target.quadrants() == std::array{0, kQuadrant, 0, 0});
        target.bind();
        capture.drawSession(1);
        CHECK(target.quadrants() == std::array{kQuadrant, 0, 0, 0});
        target.bind();
        capture.drawSession(2, DrawMode::Triangles, 3); // instanced: the same pixels
        CHECK(target.quadrants() == std::array{0, 0, kQuadrant, 0});
        target.bind();
        capture.drawSession();
        CHECK(target.quadrants() == std::array{kQuadrant, kQuadrant, kQuadrant, 0});
        CHECK(
            contains(XFB_REQUIRE_ERROR(capture.drawSession(3), ErrorCode::InvalidArgument), "the session has 3 parts"));
        CHECK(contains(XFB_REQUIRE_ERROR(capture.drawCaptured(), ErrorCode::InvalidArgument), "drawSession()"));
        CHECK(contains(XFB_REQUIRE_ERROR(capture.drawSession(0, std::nullopt, 0), ErrorCode::InvalidArgument),
                       "instances"));
        // Mixed primitives: the whole session needs a mode.
        std::vector<CapturePart> mixed{{{DrawMode::TriangleStrip, 4}}, {{DrawMode::LineStrip, 3}}};
        capture.captureSession(mixed);
        CHECK(contains(XFB_REQUIRE_ERROR(capture.drawSession(), ErrorCode::InvalidArgument), "part 1 lines"));
        target.bind();
        capture.drawSession(0);
        CHECK(target.quadrants() == std::array{kQuadrant, 0, 0, 0});
    }
}
