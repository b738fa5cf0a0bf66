// Primitive capture: strips, loops, fans, indices and restart captured as whole primitives,
// byte for byte against a C++ reference; both expansions where the context has both; capacity
// refused before drawing; drawing the captured vertices without reading the count.
#include "gl_fixture.hpp"
#include "offscreen.hpp"

#include "../unit/test_util.hpp"
#include "xfb_shaders.hpp"

#include <array>
#include <cstring>
#include <initializer_list>

using namespace xfb;
using namespace xfbtest;

namespace {

constexpr int kRecordFloats = 9;

struct Mesh {
    std::int64_t n;
    std::vector<float> vertices; // per vertex: position xyzw, uv
    Program program;
    Buffer input;
    Mesh(Device& dev, std::int64_t n, CaptureMode mode = CaptureMode::Interleaved)
        : n(n),
          vertices(pseudoRandom(std::size_t(n) * 6, -1.0f, 1.0f, 7u)),
          program(dev, {std::string(xfb_shaders::capture_mesh_vert), {mode}, {}, "mesh"}),
          input(dev,
                VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}}),
                n, view(vertices)) {
        program.setUniform("u_scale", 2.0f);
    }
    // What the shader writes for vertex v: the C++ reference, in the interleaved layout.
    std::array<float, kRecordFloats> record(std::uint32_t v) const {
        const float* p = &vertices[v * 6];
        return {p[0] * 2.0f, p[1] * 2.0f, p[2] * 2.0f + float(v), p[3] * 2.0f, p[5], -p[4], 1.0f,
                p[4] * 2.0f, p[5] * 2.0f};
    }
    std::vector<float> expected(const std::vector<std::uint32_t>& sources) const {
        std::vector<float> out;
        for (auto v : sources) {
            auto r = record(v);
            out.insert(out.end(), r.begin(), r.end());
        }
        return out;
    }
};

VertexFormat recordFormat() {
    return VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                      {attr(1), ComponentType::Float32, 3},
                                      {attr(2), ComponentType::Float32, 2}});
}

// The expansions this context can run: the engine's everywhere, the driver's on desktop GL.
std::vector<Expansion> expansionsOf(const Device& dev) {
    if (dev.capabilities().es) return {Expansion::Engine};
    return {Expansion::Driver, Expansion::Engine};
}

// The source vertex of every record `draw` writes, in transform-feedback order, written here from
// the GL's decomposition apart from the engine's expandPrimitives: runs split at the restart
// index, incomplete primitives dropped, odd strip triangles (i+1, i, i+2), loops closed.
std::vector<std::uint32_t> glRecordOrder(const DrawDesc& draw) {
    std::vector<std::vector<std::uint32_t>> runs(1);
    if (draw.indices.empty())
        for (std::uint32_t v = 0; v < std::uint32_t(draw.vertexCount); ++v) runs[0].push_back(v);
    for (std::uint32_t i : draw.indices) {
        if (draw.restartIndex && i == *draw.restartIndex)
            runs.emplace_back();
        else
            runs.back().push_back(i);
    }
    std::vector<std::uint32_t> out;
    for (const auto& r : runs) {
        const std::size_t n = r.size();
        auto emit = [&](std::initializer_list<std::size_t> at) {
            for (std::size_t k : at) out.push_back(r[k]);
        };
        switch (draw.mode) {
            case DrawMode::Points:
                for (std::size_t i = 0; i < n; ++i) emit({i});
                break;
            case DrawMode::Lines:
                for (std::size_t i = 0; i + 1 < n; i += 2) emit({i, i + 1});
                break;
            case DrawMode::LineStrip:
                for (std::size_t i = 0; i + 1 < n; ++i) emit({i, i + 1});
                break;
            case DrawMode::LineLoop:
                for (std::size_t i = 0; i + 1 < n; ++i) emit({i, i + 1});
                if (n >= 2) emit({n - 1, 0});
                break;
            case DrawMode::Triangles:
                for (std::size_t i = 0; i + 2 < n; i += 3) emit({i, i + 1, i + 2});
                break;
            case DrawMode::TriangleStrip:
                for (std::size_t i = 0; i + 2 < n; ++i) {
                    if (i % 2)
                        emit({i + 1, i, i + 2});
                    else
                        emit({i, i + 1, i + 2});
                }
                break;
            case DrawMode::TriangleFan:
                for (std::size_t i = 0; i + 2 < n; ++i) emit({0, i + 1, i + 2});
                break;
        }
    }
    return out;
}

std::vector<float> firstFloats(const Buffer& b, std::size_t n) {
    auto all = b.readAs<float>();
    all.resize(n);
    return all;
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "a 4-vertex triangle strip captures 2 triangles: 6 records, 216 bytes, as the reference") {
    Mesh mesh(dev, 4);
    CHECK(mesh.program.capture().buffers[0].stride == 36);
    auto asInput = mesh.program.capture().buffers[0].asVertexFormat();
    REQUIRE(asInput.attributes.size() == 3);
    CHECK(asInput.attributes[0].offset == 0);
    CHECK(asInput.attributes[1].offset == 16);
    CHECK(asInput.attributes[2].offset == 28);
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        Buffer out(dev, recordFormat(), 6);
        PrimitiveCapture capture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        CaptureCount c = capture.capture({DrawMode::TriangleStrip, 4});
        CHECK(c.primitives == 2);
        CHECK(c.records == 6);
        CHECK(c.bytes == std::vector<std::uint64_t>{216});
        // The second triangle is (2, 1, 3): the strip's odd triangle keeps its winding.
        requireEqual(out.readAs<float>(), mesh.expected({0, 1, 2, 2, 1, 3}), "captured strip");
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "a buffer too small for the records is refused before drawing, with both sizes, nothing is written") {
    Mesh mesh(dev, 4);
    Buffer small(dev, recordFormat(), 4); // 144 bytes: 4 of the 6 records
    std::vector<float> sentinel(4 * kRecordFloats, 42.0f);
    small.upload(view(sentinel));
    PrimitiveCapture capture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &small}});
    std::string msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::TriangleStrip, 4}), ErrorCode::Capacity);
    CHECK(contains(msg, "144 bytes (4 records)"));
    CHECK(contains(msg, "216 bytes"));
    requireEqual(small.readAs<float>(), sentinel, "untouched buffer");
    // A strip that fits (3 vertices: one triangle) is captured into the same buffer.
    CHECK(capture.capture({DrawMode::TriangleStrip, 3}).records == 3);
    auto got = small.readAs<float>();
    auto want = mesh.expected({0, 1, 2});
    want.insert(want.end(), sentinel.begin() + 3 * kRecordFloats, sentinel.end());
    requireEqual(got, want, "one triangle, then the untouched tail");
}

TEST_CASE_FIXTURE(GlTest, "every mode, indexed and with primitive restart: the GL's expansion, the engine's and the "
                          "reference agree byte for byte") {
    Mesh mesh(dev, 40);
    constexpr std::uint32_t kRestart = 0xFFFFFFFFu;
    std::vector<std::uint32_t> indices;
    unsigned seed = 3;
    for (int k = 0; k < 64; ++k) {
        seed = seed * 1664525u + 1013904223u;
        indices.push_back(k % 11 == 10 ? kRestart : (seed >> 8) % 40u);
    }
    for (int m = 0; m <= int(DrawMode::TriangleFan); ++m) {
        for (bool indexed : {false, true}) {
            DrawDesc draw{DrawMode(m), 37};
            if (indexed) draw = {DrawMode(m), 0, indices, kRestart};
            CAPTURE(drawModeName(draw.mode));
            CAPTURE(indexed);
            std::vector<float> want = mesh.expected(glRecordOrder(draw));
            REQUIRE(!want.empty());
            for (Expansion e : expansionsOf(dev)) {
                CAPTURE(expansionName(e));
                Buffer out(dev, recordFormat(), 200);
                PrimitiveCapture capture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &out}},
                                         {std::nullopt, e});
                CaptureCount c = capture.capture(draw);
                REQUIRE(std::size_t(c.records) * kRecordFloats == want.size());
                requireEqual(firstFloats(out, want.size()), want, "captured records");
            }
        }
    }
}

TEST_CASE_FIXTURE(GlTest, "separate mode: lines captured into one buffer per varying") {
    Mesh mesh(dev, 6, CaptureMode::Separate);
    Buffer pos(dev, vec4Format(0), 10), nrm(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 3}}), 10),
        uv(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 2}}), 10);
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        PrimitiveCapture capture(dev, mesh.program,
                                 {{&mesh.input, nullptr}, {nullptr, &pos}, {nullptr, &nrm}, {nullptr, &uv}},
                                 {std::nullopt, e});
        CaptureCount c = capture.capture({DrawMode::LineLoop, 5});
        CHECK(c.records == 10);
        CHECK(c.bytes == std::vector<std::uint64_t>{160, 120, 80});
        std::vector<float> wantPos, wantNrm, wantUv;
        for (auto v : std::vector<std::uint32_t>{0, 1, 1, 2, 2, 3, 3, 4, 4, 0}) {
            auto r = mesh.record(v);
            wantPos.insert(wantPos.end(), r.begin(), r.begin() + 4);
            wantNrm.insert(wantNrm.end(), r.begin() + 4, r.begin() + 7);
            wantUv.insert(wantUv.end(), r.begin() + 7, r.end());
        }
        requireEqual(pos.readAs<float>(), wantPos, "positions");
        requireEqual(nrm.readAs<float>(), wantNrm, "normals");
        requireEqual(uv.readAs<float>(), wantUv, "uvs");
    }
}

TEST_CASE_FIXTURE(GlTest, "bad draws and entries get clear errors") {
    Mesh mesh(dev, 4);
    Buffer out(dev, recordFormat(), 12), spare(dev, recordFormat(), 12);
    std::vector<float> sentinel(12 * kRecordFloats, -7.0f);
    out.upload(view(sentinel));
    PrimitiveCapture capture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &out}});
    CHECK(contains(XFB_REQUIRE_ERROR(capture.drawCaptured(), ErrorCode::InvalidArgument), "nothing was captured yet"));
    std::string msg =
        XFB_REQUIRE_ERROR(capture.capture({DrawMode::Triangles, 0, {0, 1, 9}}), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "index 9 at position 2 is outside the 4 input vertices"));
    CHECK(contains(XFB_REQUIRE_ERROR(capture.capture({DrawMode::Triangles, 6}), ErrorCode::InvalidArgument),
                   "the inputs hold 4"));
    requireEqual(out.readAs<float>(), sentinel, "the output after the refused captures");
    capture.capture({DrawMode::Triangles, 3});
    CHECK(contains(XFB_REQUIRE_ERROR(capture.drawCaptured(std::nullopt, 0), ErrorCode::InvalidArgument), "instances"));
    XFB_REQUIRE_ERROR(PrimitiveCapture(dev, mesh.program, {{&out, &spare}}), ErrorCode::InvalidArgument);
    if (dev.capabilities().es) {
        msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &out}},
                                                 {std::nullopt, Expansion::Driver}),
                                ErrorCode::Unsupported);
        CHECK(contains(msg, "Expansion::Engine"));
    }
}

TEST_CASE_FIXTURE(GlTest, "drawCaptured draws exactly the captured vertices, not the stale records after them") {
    // A strip covering the left half (x in [-1, 0]).
    const char* src = R"(#version 300 es
in vec4 a_position;
out vec4 out_position;
void main() { out_position = a_position; gl_Position = a_position; }
)";
    Program program(dev, {src, {}, {}, "quad"});
    std::vector<float> strip = {-1, -1, 0, 1, 0, -1, 0, 1, -1, 1, 0, 1, 0, 1, 0, 1};
    Buffer input(dev, vec4Format(0), 4, view(strip));
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        // Stale records covering the right half, where the 7th.. records would be read.
        std::vector<float> stale;
        for (int k = 0; k < 4; ++k) {
            std::vector<float> right = {0, -1, 0, 1, 1, -1, 0, 1, 1, 1, 0, 1};
            stale.insert(stale.end(), right.begin(), right.end());
        }
        Buffer out(dev, vec4Format(0), 12, view(stale));
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        CHECK(capture.capture({DrawMode::TriangleStrip, 4}).records == 6);
        RedCoverage target(out);
        // Red pixels in the left and right halves.
        auto coverage = [&] {
            auto q = target.quadrants();
            return std::pair{q[0] + q[2], q[1] + q[3]};
        };
        target.bind();
        capture.drawCaptured();
        auto [left, right] = coverage();
        CHECK(left == RedCoverage::kSize * RedCoverage::kSize / 2);
        CHECK(right == 0);
        // Instanced: the same vertices twice, still only the left half.
        target.bind();
        capture.drawCaptured(DrawMode::Triangles, 2);
        CHECK(coverage() == std::pair{RedCoverage::kSize * RedCoverage::kSize / 2, 0});
    }
}

TEST_CASE_FIXTURE(GlTest, "a capture reads the latest state of a Pipeline, whose buffer names swap every step") {
    const char* step = "#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = "
                       "a_position + vec4(1.0, 0.0, 0.0, 0.0); }\n";
    const char* mesh = "#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = "
                       "a_position * 2.0; }\n";
    Program simulation(dev, {step, {}, {}, "step"}), meshProgram(dev, {mesh, {}, {}, "mesh"});
    std::vector<float> initial = pseudoRandom(16, -1.0f, 1.0f, 9u);
    Buffer state(dev, vec4Format(0), 4, view(initial)), scratch(dev, vec4Format(0), 4);
    Pipeline pipeline(dev, simulation, {{&state, &scratch}});
    for (Expansion e : expansionsOf(dev)) {
        CAPTURE(expansionName(e));
        Buffer out(dev, vec4Format(0), 6);
        PrimitiveCapture capture(dev, meshProgram, {{&state, nullptr}, {nullptr, &out}}, {std::nullopt, e});
        for (int s = 0; s < 3; ++s) {
            pipeline.step();
            capture.capture({DrawMode::TriangleStrip, 4});
            auto now = state.readAs<float>();
            std::vector<float> want;
            for (auto v : std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3})
                for (int c = 0; c < 4; ++c) want.push_back(now[v * 4 + std::uint32_t(c)] * 2.0f);
            requireEqual(out.readAs<float>(), want, "captured from the state after the step");
        }
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "a handle moved from answers XFB_DISPOSED naming its class and the fix, for every handle class") {
    Mesh mesh(dev, 4);
    Buffer out(dev, recordFormat(), 6);
    PrimitiveCapture capture(dev, mesh.program, {{&mesh.input, nullptr}, {nullptr, &out}});
    Buffer scratch(dev, mesh.input.format(), 4);
    Program doubling(
        dev, {"#version 300 es\nin vec4 p; out vec4 out_p; void main() { out_p = p * 2.0; }", {}, {}, "double"});
    Buffer state(dev, vec4Format(0), 4), next(dev, vec4Format(0), 4);
    Pipeline pipeline(dev, doubling, {{&state, &next}});
    PrimitiveCapture capturedInto = std::move(capture);
    Pipeline pipelinedInto = std::move(pipeline);
    Program programInto = std::move(doubling);
    Buffer bufferInto = std::move(scratch);
    const std::string fix = " it was moved into";
    std::string msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::TriangleStrip, 4}), ErrorCode::Disposed);
    CHECK(msg.find("this PrimitiveCapture was moved from; use the PrimitiveCapture" + fix) != std::string::npos);
    msg = XFB_REQUIRE_ERROR(pipeline.step(), ErrorCode::Disposed);
    CHECK(msg.find("this Pipeline was moved from; use the Pipeline" + fix) != std::string::npos);
    msg = XFB_REQUIRE_ERROR(doubling.setUniform("k", 1.0f), ErrorCode::Disposed);
    CHECK(msg.find("this Program was moved from; use the Program" + fix) != std::string::npos);
    msg = XFB_REQUIRE_ERROR(scratch.readAsync(), ErrorCode::Disposed);
    CHECK(msg.find("this Buffer was moved from; use the Buffer" + fix) != std::string::npos);
    // The handles moved into keep working.
    CHECK(capturedInto.capture({DrawMode::TriangleStrip, 4}).records == 6);
    pipelinedInto.step();
    CHECK(bufferInto.bytes() == mesh.input.bytes());
}
