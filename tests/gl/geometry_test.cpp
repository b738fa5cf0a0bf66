// Geometry programs (ProgramDesc::geometry, issue 27): transform feedback of a geometry shader's
// output, per vertex stream. Amplification (triangles in, points and lines out), two and four
// streams with their statistics and draws, invocations, capture while rasterizing, overflow, and
// every refusal with its code. Each record is compared with a C++ reference of the same shader.
// Desktop GL 4.5 runs everything; OpenGL ES 3.2 stream 0 (non-indexed); OpenGL ES 3.0 refuses.
#include "gl/access.hpp"
#include "gl/state.hpp"
#include "gl_fixture.hpp"
#include "offscreen.hpp"
#include "xfb_shaders.hpp"

#include "../unit/test_util.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <fstream>

using namespace xfb;
using namespace xfbtest;

namespace {

bool desktop(const Device& dev) { return !dev.capabilities().es; }

// Every stream this file uses: desktop GL 4.0+ (llvmpipe: GL_MAX_VERTEX_STREAMS 4).
bool fourStreams(const Device& dev) {
    return dev.capabilities().geometry && desktop(dev) && dev.capabilities().geometryLimits.maxStreams >= 4;
}

// The geometry shaders' dialect: GLSL 4.00 (streams, `precise`) or GLSL ES 3.20.
std::string gsHeader(const Device& dev) {
    return desktop(dev) ? "#version 400 core\n" : "#version 320 es\nprecision highp float;\nprecision highp int;\n";
}
// The vertex shaders keep their own dialect: desktop GLSL 3.30 beside GLSL 4.00 (desktop GL links
// versions together), GLSL ES 3.00 on ES, which the engine compiles as 3.20 (one version per program).
std::string vsHeader(const Device& dev) { return desktop(dev) ? "#version 330 core\n" : "#version 300 es\n"; }

// shaders/geometry_pass.vert: positions and the vertex's index, handed to the geometry shader.
std::string vertexSource(const Device& dev) { return vsHeader(dev) + std::string(xfb_shaders::geometry_pass_vert); }

// Per vertex: x, y, z, 1 with exact binary fractions.
std::vector<float> positions(std::size_t n, unsigned seed) {
    auto v = pseudoRandom(n * 4, -1.0f, 1.0f, seed);
    for (std::size_t i = 0; i < n; ++i) v[i * 4 + 3] = 1.0f;
    return v;
}

std::uint32_t bits(int i) { return std::uint32_t(i); }

// Records as words: floats by their bits, compared with requireSimulated where arithmetic made them.
struct Records {
    std::vector<float> floats;       // every float field, in record order
    std::vector<std::uint32_t> ints; // every integer field, in record order
};

// Splits `words` (records of `stride` words) into float and int fields: the first `floatWords`
// of each record are floats, the rest ints.
Records split(const std::vector<std::uint32_t>& words, int strideWords, int floatWords, std::size_t records) {
    Records r;
    for (std::size_t k = 0; k < records; ++k)
        for (int w = 0; w < strideWords; ++w) {
            std::uint32_t x = words.at(k * std::size_t(strideWords) + std::size_t(w));
            if (w < floatWords)
                r.floats.push_back(std::bit_cast<float>(x));
            else
                r.ints.push_back(x);
        }
    return r;
}

void requireRecords(const Records& gpu, const Records& ref, const char* what) {
    requireSimulated(gpu.floats, ref.floats, what);
    requireEqual(gpu.ints, ref.ints, what);
}

// shaders/geometry_face_points.geom: every triangle in, its centroid and face normal out as two points.
const std::string_view kFacePoints = xfb_shaders::geometry_face_points_geom;

struct Vec3 {
    float x, y, z;
};
Vec3 at(const std::vector<float>& p, std::uint32_t v) { return {p[v * 4], p[v * 4 + 1], p[v * 4 + 2]}; }
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 crossOf(Vec3 u, Vec3 v) { return {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x}; }

// kFacePoints by hand, over the triangles `draw` gives (expandPrimitives: the GL's order).
Records facePointsReference(const std::vector<float>& p, const DrawDesc& draw) {
    Records r;
    auto sources = expandPrimitives(draw);
    for (std::size_t t = 0; t * 3 < sources.size(); ++t) {
        const std::uint32_t s0 = sources[t * 3], s1 = sources[t * 3 + 1], s2 = sources[t * 3 + 2];
        const Vec3 a = at(p, s0), b = at(p, s1), c = at(p, s2);
        const Vec3 sum = a + b + c, n = crossOf(b - a, c - a);
        const std::uint32_t order = s0 * 256 + s1 * 16 + s2;
        r.floats.insert(r.floats.end(), {sum.x, sum.y, sum.z, 0.0f, n.x, n.y, n.z, 1.0f});
        r.ints.insert(r.ints.end(), {std::uint32_t(t), 0, order, 7, std::uint32_t(t), 1, order, 7});
    }
    return r;
}

VertexFormat pointTagFormat() {
    return VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Int32, 4}});
}

// The center of pixel k of a 16 x 16 target, in clip space.
std::array<float, 2> pixelCenter(int k) {
    return {(float(k % 16) + 0.5f) / 8.0f - 1.0f, (float(k / 16) + 0.5f) / 8.0f - 1.0f};
}

// The capture of `draw` with Backend::TransformFeedback (the GL's geometry shader) and with
// Backend::Compute (its compute translation), each into fresh buffers of the capture plan's formats
// (`records[b]` records for buffer b) filled with a sentinel: every byte of every buffer, the
// budget and every stream's statistics must be equal. Returns the compute capture's statistics.
std::vector<StreamStatistics> requireSameBothWays(const Device& dev, const Program& program, const Buffer& input,
                                                  const DrawDesc& draw, const std::vector<std::int64_t>& records,
                                                  CaptureRunOptions run = {}) {
    REQUIRE(dev.capabilities().compute);
    const CapturePlan& plan = program.capture();
    REQUIRE(plan.buffers.size() == records.size());
    std::array<std::vector<Buffer>, 2> outs;
    std::array<std::vector<std::vector<std::uint32_t>>, 2> words;
    std::array<CaptureCount, 2> budgets;
    std::array<std::vector<StreamStatistics>, 2> stats;
    const Backend backends[2] = {Backend::TransformFeedback, Backend::Compute};
    for (int k = 0; k < 2; ++k) {
        std::vector<Entry> entries{{&input, nullptr}};
        for (std::size_t b = 0; b < records.size(); ++b) {
            const std::vector<std::uint32_t> sentinel(std::size_t(records[b]) * std::size_t(plan.buffers[b].stride) / 4,
                                                      0xDEADBEEFu);
            outs[std::size_t(k)].emplace_back(dev, plan.buffers[b].asVertexFormat(), records[b], view(sentinel));
        }
        for (auto& o : outs[std::size_t(k)]) entries.push_back({nullptr, &o});
        // [docs:geometry-compute]
        PrimitiveCapture capture(dev, program, entries, {std::nullopt, Expansion::Auto, backends[k]}); // or Compute
        budgets[std::size_t(k)] = capture.capture(draw, run); // the same budget, Error / Clamp alike
        stats[std::size_t(k)] = capture.statistics();         // compute: from the passes' totals
        // [docs:end]
        CHECK(capture.backend() == backends[k]);
        for (auto& o : outs[std::size_t(k)]) words[std::size_t(k)].push_back(o.readAs<std::uint32_t>());
    }
    for (std::size_t b = 0; b < records.size(); ++b) {
        CAPTURE(b);
        requireEqual(words[1][b], words[0][b], "compute vs geometry shader, every word of the buffer");
    }
    CHECK(budgets[1].records == budgets[0].records);
    CHECK(budgets[1].bytes == budgets[0].bytes);
    CHECK(budgets[1].inputPrimitives == budgets[0].inputPrimitives);
    REQUIRE(stats[1].size() == stats[0].size());
    for (std::size_t s = 0; s < stats[0].size(); ++s) {
        CAPTURE(s);
        CHECK(stats[1][s].captured == stats[0][s].captured);
        CHECK(stats[1][s].primitivesGenerated == stats[0][s].primitivesGenerated);
        CHECK(stats[1][s].primitivesWritten == stats[0][s].primitivesWritten);
        CHECK(stats[1][s].recordsWritten == stats[0][s].recordsWritten);
    }
    return stats[1];
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "a geometry program on a runtime without geometry shaders is XFB_GEOMETRY_UNSUPPORTED") {
    const Capabilities& caps = dev.capabilities();
    // OpenGL ES 3.0 (the WebGL2 rules) has none; desktop GL 4.5 and ES 3.2 have them.
    CHECK(caps.geometry == (apiNameUnderTest() != "gles30"));
    ProgramDesc desc{vertexSource(dev), {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)};
    if (caps.geometry) {
        Program program(dev, desc);
        REQUIRE(program.geometry());
        CHECK(program.geometry()->input == GeometryInput::Triangles);
        CHECK(program.capture().buffers[0].stride == 32);
        return;
    }
    std::string msg = XFB_REQUIRE_ERROR(Program(dev, desc), ErrorCode::GeometryUnsupported);
    CHECK(contains(msg, "program 'faces' has a geometry shader"));
    CHECK(contains(msg, caps.version));
    CHECK(contains(msg, "OpenGL ES 3.0 and WebGL2"));
    CHECK(contains(msg, "desktop OpenGL 4.0+"));
    CHECK(contains(msg, "OpenGL ES 3.2 (stream 0 only)"));
}

// A uniform both shaders declare is one value of one type: two types fail the GL's link, the code
// the WebGPU translation gives too (translateGeometryToWgsl, tests/web/page/geometry.js).
TEST_CASE_FIXTURE(GlTest,
                  "a uniform of the vertex and geometry shaders with two types is XFB_PROGRAM_LINK, as on WebGPU") {
    if (!dev.capabilities().geometry) return; // no geometry shader is linked
    const std::string vertex = vsHeader(dev) + std::string(xfb_shaders::geometry_pass_scaled_vert);
    std::string geometry = gsHeader(dev) + std::string(xfb_shaders::geometry_fins_uniform_geom);
    Program same(dev, {vertex, {}, {}, "fins-uniform", geometry}); // u_scale: float in both
    CHECK(same.capture().buffers[0].stride == 20);
    for (auto [from, to] : {std::pair<std::string, std::string>{"uniform float u_scale;", "uniform vec2 u_scale;"},
                            {"* u_scale)", "* u_scale.x)"}})
        geometry.replace(geometry.find(from), from.size(), to);
    XFB_REQUIRE_ERROR(Program(dev, {vertex, {}, {}, "fins-uniform-vec2", geometry}), ErrorCode::ProgramLink);
}

TEST_CASE_FIXTURE(GlTest, "a compute capture expands a draw again unless it is the same non-indexed draw as the last") {
    if (!dev.capabilities().geometry || !dev.capabilities().compute) return;
    Program program(dev, {vertexSource(dev), {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)});
    const std::vector<float> p = positions(9, 5u);
    Buffer input(dev, vec4Format(0), 9, view(p));
    const std::vector<std::uint32_t> sentinel(std::size_t(16) * 8, 0xDEADBEEFu);
    Buffer byShader(dev, pointTagFormat(), 16, view(sentinel)), byCompute(dev, pointTagFormat(), 16, view(sentinel));
    PrimitiveCapture shader(dev, program, {{&input, nullptr}, {nullptr, &byShader}},
                            {std::nullopt, Expansion::Auto, Backend::TransformFeedback});
    PrimitiveCapture compute(dev, program, {{&input, nullptr}, {nullptr, &byCompute}},
                             {std::nullopt, Expansion::Auto, Backend::Compute});
    // The same draw twice (kept), fewer vertices, another mode with as many, indexed with as many
    // indices (ES: non-indexed only), and the first draw again.
    std::vector<DrawDesc> draws{{DrawMode::TriangleStrip, 7},
                                {DrawMode::TriangleStrip, 7},
                                {DrawMode::TriangleStrip, 5},
                                {DrawMode::TriangleFan, 5}};
    if (desktop(dev)) draws.push_back({DrawMode::TriangleStrip, 0, {4, 3, 2, 1, 0}});
    draws.push_back({DrawMode::TriangleStrip, 7});
    for (std::size_t i = 0; i < draws.size(); ++i) {
        CAPTURE(i);
        const CaptureCount a = shader.capture(draws[i]), b = compute.capture(draws[i]);
        CHECK(b.records == a.records);
        requireEqual(byCompute.readAs<std::uint32_t>(), byShader.readAs<std::uint32_t>(),
                     "compute vs geometry shader after this draw");
        CHECK(compute.statistics()[0].recordsWritten == shader.statistics()[0].recordsWritten);
    }
}

TEST_CASE_FIXTURE(GlTest, "amplification: every triangle in, its centroid and face normal out as two points") {
    if (!dev.capabilities().geometry) return; // the refusal is the case above
    Program program(dev, {vertexSource(dev), {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)});
    const std::vector<float> p = positions(9, 3u);
    Buffer input(dev, vec4Format(0), 9, view(p));
    std::vector<DrawDesc> draws{{DrawMode::TriangleStrip, 5}, {DrawMode::Triangles, 9}, {DrawMode::TriangleFan, 6}};
    if (desktop(dev)) // ES restricts transform feedback to non-indexed draws
        draws.push_back({DrawMode::Triangles, 0, {8, 0, 3, 0xFFFFu, 2, 7, 5, 1, 4}, 0xFFFFu});
    for (const DrawDesc& draw : draws) {
        CAPTURE(drawModeName(draw.mode));
        CAPTURE(draw.indices.size());
        const Records ref = facePointsReference(p, draw);
        const std::size_t records = ref.floats.size() / 4;
        std::vector<std::uint32_t> sentinel(std::size_t(records + 3) * 8, 0xDEADBEEFu);
        Buffer out(dev, pointTagFormat(), std::int64_t(records) + 3, view(sentinel));
        // The GL's geometry shader, named: Auto times it against compute and may keep either.
        PrimitiveCaptureOptions driver;
        driver.backend = Backend::TransformFeedback;
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}}, driver);
        CHECK(capture.expansion() == Expansion::Driver);
        const CaptureCount budget = capture.capture(draw);
        CHECK(budget.primitive == DrawMode::Points);
        CHECK(budget.inputPrimitives == std::int64_t(records / 2));
        CHECK(budget.records == std::int64_t(records)); // max_vertices 2, and each triangle emits 2
        auto words = out.readAs<std::uint32_t>();
        requireRecords(split(words, 8, 4, records), ref, "centroids and normals");
        // Past the records, the buffer is as it was.
        requireEqual(std::vector<std::uint32_t>(words.begin() + long(records) * 8, words.end()),
                     std::vector<std::uint32_t>(24, 0xDEADBEEFu), "after the records");
        const auto stats = capture.statistics();
        REQUIRE(stats.size() == 1);
        CHECK(stats[0].captured);
        CHECK(stats[0].primitivesGenerated == std::int64_t(records));
        CHECK(stats[0].primitivesWritten == std::int64_t(records));
        CHECK(stats[0].recordsWritten == std::int64_t(records));
        CHECK_FALSE(stats[0].overflow());
        // The compute translation: the same bytes (sentinels past the records too), the same statistics.
        if (dev.capabilities().compute) requireSameBothWays(dev, program, input, draw, {std::int64_t(records) + 3});
    }
    if (!desktop(dev)) {
        Buffer out(dev, pointTagFormat(), 8);
        PrimitiveCaptureOptions driver; // ES's geometry shader takes non-indexed draws only
        driver.backend = Backend::TransformFeedback;
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}}, driver);
        std::string msg =
            XFB_REQUIRE_ERROR(capture.capture({DrawMode::Triangles, 0, {0, 1, 2}}), ErrorCode::Unsupported);
        CHECK(contains(msg, "non-indexed"));
    }
}

TEST_CASE_FIXTURE(GlTest, "extruded fins: triangles in, line strips out, captured as lines") {
    if (!dev.capabilities().geometry) return;
    // Per vertex of the triangle, a fin from it along +z by its distance to the next vertex's x.
    const std::string fins = gsHeader(dev) + std::string(xfb_shaders::geometry_fins_geom);
    Program program(dev, {vertexSource(dev), {}, {}, "fins", fins});
    REQUIRE(program.geometry());
    CHECK(program.geometry()->capturedPrimitive() == DrawMode::Lines);
    const std::vector<float> p = positions(6, 11u);
    Buffer input(dev, vec4Format(0), 6, view(p));
    const DrawDesc draw{DrawMode::TriangleStrip, 6}; // 4 triangles
    // The budget: a strip of 6 vertices is 5 lines, 10 records, per triangle.
    Buffer out(dev, vec4Format(0), 40);
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
    const CaptureCount budget = capture.capture(draw);
    CHECK(budget.primitive == DrawMode::Lines);
    CHECK(budget.primitives == 20);
    CHECK(budget.records == 40);
    CHECK(budget.bytes == std::vector<std::uint64_t>{640});
    std::vector<float> ref;
    auto sources = expandPrimitives(draw);
    for (std::size_t t = 0; t * 3 < sources.size(); ++t)
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t v = sources[t * 3 + std::size_t(i)], next = sources[t * 3 + std::size_t((i + 1) % 3)];
            const float* q = &p[v * 4];
            ref.insert(ref.end(), {q[0], q[1], q[2], q[3], q[0], q[1], q[2] + (p[next * 4] - q[0]), q[3]});
        }
    auto got = out.readAs<float>();
    got.resize(ref.size());
    requireSimulated(got, ref, "fins");
    const auto stats = capture.statistics();
    CHECK(stats[0].primitivesGenerated == 12); // 3 lines per triangle
    CHECK(stats[0].primitivesWritten == 12);
    CHECK(stats[0].recordsWritten == 24);
    if (dev.capabilities().compute) requireSameBothWays(dev, program, input, draw, {40}); // lines closed in order
    // A buffer one line short of the budget is refused before drawing.
    Buffer small(dev, vec4Format(0), 38);
    PrimitiveCapture tight(dev, program, {{&input, nullptr}, {nullptr, &small}});
    std::string msg = XFB_REQUIRE_ERROR(tight.capture(draw), ErrorCode::Capacity);
    CHECK(contains(msg, "output buffer 0 (stream 0) holds 608 bytes (38 records)"));
    CHECK(contains(msg, "4 input primitives x 1 invocations x 10 records (max_vertices 6 as lines)"));
    CHECK(contains(msg, "Nothing was drawn"));
}

TEST_CASE_FIXTURE(GlTest, "invocations: each triangle runs the shader 3 times, their records in invocation order") {
    if (!dev.capabilities().geometry) return;
    const std::string source = gsHeader(dev) + std::string(xfb_shaders::geometry_invocations_geom);
    Program program(dev, {vertexSource(dev), {}, {}, "invocations", source});
    CHECK(program.geometry()->invocations == 3);
    const std::vector<float> p = positions(6, 5u);
    Buffer input(dev, vec4Format(0), 6, view(p));
    Buffer out(dev, pointTagFormat(), 6);
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
    const DrawDesc draw{DrawMode::Triangles, 6};
    CHECK(capture.capture(draw).records == 6); // 2 triangles x 3 invocations x max_vertices 1
    Records ref;
    for (int t = 0; t < 2; ++t)
        for (int i = 0; i < 3; ++i) {
            const int v = t * 3 + i;
            ref.floats.insert(ref.floats.end(), p.begin() + v * 4, p.begin() + v * 4 + 4);
            ref.ints.insert(ref.ints.end(), {bits(t), bits(i), bits(v), 0});
        }
    requireRecords(split(out.readAs<std::uint32_t>(), 8, 4, 6), ref, "one point per invocation");
    CHECK(capture.statistics()[0].primitivesGenerated == 6);
    if (dev.capabilities().compute) requireSameBothWays(dev, program, input, draw, {6});
}

TEST_CASE_FIXTURE(GlTest, "two streams: centroids to stream 0, tagged normals to stream 1, each into its own buffers") {
    if (!fourStreams(dev)) return; // ES 3.2 has stream 0 only: the refusal below
    // Stream 1 gets a normal only for triangles of odd primitive ID: the streams' counts differ.
    const std::string source = gsHeader(dev) + std::string(xfb_shaders::geometry_two_streams_geom);
    const std::vector<float> p = positions(7, 21u);
    Buffer input(dev, vec4Format(0), 7, view(p));
    const DrawDesc draw{DrawMode::TriangleStrip, 7}; // 5 triangles: 5 centroids, 2 normals
    auto triangles = expandPrimitives(draw);
    std::vector<float> centroids, normals;
    std::vector<std::uint32_t> faces;
    for (std::size_t t = 0; t < 5; ++t) {
        const Vec3 a = at(p, triangles[t * 3]), b = at(p, triangles[t * 3 + 1]), c = at(p, triangles[t * 3 + 2]);
        const Vec3 s = a + b + c, n = crossOf(b - a, c - a);
        centroids.insert(centroids.end(), {s.x, s.y, s.z, 1.0f});
        if (t % 2) {
            normals.insert(normals.end(), {n.x, n.y, n.z});
            faces.push_back(std::uint32_t(t));
        }
    }

    SUBCASE("interleaved: one buffer per stream") {
        // [docs:geometry-capture]
        Program program(dev, {vertexSource(dev), {}, {}, "streams", source}); // ProgramDesc::geometry = source
        const CapturePlan& plan = program.capture(); // buffer 0: stream 0 (stride 16), buffer 1: stream 1 (16)
        Buffer first(dev, plan.buffers[0].asVertexFormat(), 10), second(dev, plan.buffers[1].asVertexFormat(), 10);
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &first}, {nullptr, &second}});
        const CaptureCount budget = capture.capture({DrawMode::TriangleStrip, 7}); // 5 triangles x 2 points a stream
        const std::vector<StreamStatistics> stats = capture.statistics();          // generated / written per stream
        // [docs:end]
        REQUIRE(plan.buffers.size() == 2);
        CHECK(plan.buffers[0].stream == 0);
        CHECK(plan.buffers[1].stream == 1);
        CHECK(plan.buffers[1].stride == 16);
        REQUIRE(budget.streams.size() == 2);
        CHECK(budget.streams[1].records == 10);
        CHECK(budget.bytes == std::vector<std::uint64_t>{160, 160});
        auto a = first.readAs<float>();
        a.resize(centroids.size());
        requireSimulated(a, centroids, "stream 0");
        const Records b = split(second.readAs<std::uint32_t>(), 4, 3, 2);
        requireSimulated(b.floats, normals, "stream 1's normals");
        requireEqual(b.ints, faces, "stream 1's faces");
        REQUIRE(stats.size() == 2);
        CHECK(stats[0].primitivesGenerated == 5);
        CHECK(stats[0].primitivesWritten == 5);
        CHECK(stats[1].stream == 1);
        CHECK(stats[1].primitivesGenerated == 2);
        CHECK(stats[1].recordsWritten == 2);
        CHECK_FALSE(stats[1].overflow());
        requireSameBothWays(dev, program, input, draw, {10, 10});
    }
    SUBCASE("separate mode: a buffer per varying, each of its stream") {
        Program program(dev, {vertexSource(dev), {CaptureMode::Separate}, {}, "streams", source});
        REQUIRE(program.capture().buffers.size() == 3);
        CHECK(program.capture().buffers[2].stream == 1);
        Buffer c(dev, vec4Format(0), 10), n(dev, program.capture().buffers[1].asVertexFormat(), 10),
            f(dev, program.capture().buffers[2].asVertexFormat(), 10);
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &c}, {nullptr, &n}, {nullptr, &f}});
        capture.capture(draw);
        auto got = n.readAs<float>();
        got.resize(normals.size());
        requireSimulated(got, normals, "stream 1's normals, separate");
        auto gotFaces = f.readAs<std::uint32_t>();
        gotFaces.resize(2);
        requireEqual(gotFaces, faces, "stream 1's faces, separate");
        requireSameBothWays(dev, program, input, draw, {10, 10, 10});
    }
    SUBCASE("GL's list: a gap word and gl_NextBuffer, stream 1 first in the list") {
        Program program(dev, {vertexSource(dev),
                              {CaptureMode::Interleaved,
                               {"out_face", "gl_SkipComponents1", "out_normal", "gl_NextBuffer", "out_centroid"}},
                              {},
                              "streams",
                              source});
        const CapturePlan& plan = program.capture();
        REQUIRE(plan.buffers.size() == 2);
        CHECK(plan.buffers[0].stream == 1);
        CHECK(plan.buffers[0].stride == 20);
        std::vector<std::uint32_t> sentinel(50, 0xABCDu);
        Buffer tagged(dev, plan.buffers[0].asVertexFormat(), 10, view(sentinel));
        Buffer centroid(dev, vec4Format(0), 10);
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &tagged}, {nullptr, &centroid}});
        capture.capture(draw);
        auto words = tagged.readAs<std::uint32_t>();
        for (int k = 0; k < 2; ++k) {
            CHECK(words[std::size_t(k) * 5] == faces[std::size_t(k)]);
            CHECK(words[std::size_t(k) * 5 + 1] == 0xABCDu); // the gap is never written
        }
        std::vector<float> gotNormals; // words 2..4 of each record: the normal, after the face and the gap
        for (std::size_t k = 0; k < 2; ++k)
            for (std::size_t w = 2; w < 5; ++w) gotNormals.push_back(std::bit_cast<float>(words[k * 5 + w]));
        requireSimulated(gotNormals, normals, "stream 1's normals after the gap word"); // NVIDIA contracts here
        CHECK(capture.statistics()[1].primitivesWritten == 2);
        requireSameBothWays(dev, program, input, draw, {10, 10}); // the gap word keeps its sentinel both ways
    }
}

TEST_CASE_FIXTURE(GlTest, "four streams: per-stream statistics and draws of each stream's count, no count read back") {
    if (!fourStreams(dev)) return;
    // Input point i emits s + 1 points to stream s when (i + s) is even: each lands on its own
    // pixel of a 16 x 16 target, numbered from the point, the stream and the copy.
    const std::string source = gsHeader(dev) + R"(layout(points) in;
layout(points, max_vertices = 10) out;
flat in int v_id[];
layout(stream = 0) out vec4 out_a;
layout(stream = 1) out vec4 out_b;
layout(stream = 2) out vec4 out_c;
layout(stream = 3) out vec4 out_d;
vec4 pixel(int k) { return vec4((float(k % 16) + 0.5) / 8.0 - 1.0, (float(k / 16) + 0.5) / 8.0 - 1.0, 0.0, 1.0); }
void main() {
    int i = v_id[0];
    if (i % 2 == 0) { out_a = pixel(i * 16); EmitStreamVertex(0); }
    if (i % 2 == 1) { for (int c = 0; c < 2; ++c) { out_b = pixel(i * 16 + 4 + c); EmitStreamVertex(1); } }
    if (i % 2 == 0) { for (int c = 0; c < 3; ++c) { out_c = pixel(i * 16 + 8 + c); EmitStreamVertex(2); } }
    if (i % 2 == 1) { for (int c = 0; c < 4; ++c) { out_d = pixel(i * 16 + 12 + c); EmitStreamVertex(3); } }
}
)";
    Program program(dev, {vertexSource(dev), {}, {}, "four", source});
    REQUIRE(program.capture().buffers.size() == 4);
    REQUIRE(program.geometry()->streamCount == 4);
    const int points = 7; // i = 0..6: 4 even, 3 odd
    Buffer input(dev, vec4Format(0), points, view(positions(std::size_t(points), 2u)));
    // Each buffer is filled first with positions of pixels no record uses (row 14): a draw of more
    // than the stream's count would light them.
    std::vector<Buffer> outs;
    for (int s = 0; s < 4; ++s) {
        std::vector<float> stale;
        for (int k = 0; k < 70; ++k) {
            auto c = pixelCenter(14 * 16 + k % 16);
            stale.insert(stale.end(), {c[0], c[1], 0.0f, 1.0f});
        }
        outs.emplace_back(dev, vec4Format(0), 70, view(stale));
    }
    PrimitiveCapture capture(
        dev, program,
        {{&input, nullptr}, {nullptr, &outs[0]}, {nullptr, &outs[1]}, {nullptr, &outs[2]}, {nullptr, &outs[3]}});
    const CaptureCount budget = capture.capture({DrawMode::Points, points});
    REQUIRE(budget.streams.size() == 4);
    CHECK(budget.streams[3].records == 70); // 7 points x max_vertices 10
    // The reference: which pixels each stream wrote, in order.
    std::array<std::vector<int>, 4> expected;
    for (int i = 0; i < points; ++i) {
        if (i % 2 == 0) expected[0].push_back(i * 16);
        for (int c = 0; c < 2 && i % 2 == 1; ++c) expected[1].push_back(i * 16 + 4 + c);
        for (int c = 0; c < 3 && i % 2 == 0; ++c) expected[2].push_back(i * 16 + 8 + c);
        for (int c = 0; c < 4 && i % 2 == 1; ++c) expected[3].push_back(i * 16 + 12 + c);
    }
    const auto stats = capture.statistics();
    REQUIRE(stats.size() == 4);
    RedCoverage target(outs[0]);
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        CHECK(stats[std::size_t(s)].captured);
        CHECK(stats[std::size_t(s)].primitivesGenerated == std::int64_t(expected[std::size_t(s)].size()));
        CHECK(stats[std::size_t(s)].primitivesWritten == std::int64_t(expected[std::size_t(s)].size()));
        std::vector<float> want;
        for (int k : expected[std::size_t(s)]) {
            auto c = pixelCenter(k);
            want.insert(want.end(), {c[0], c[1], 0.0f, 1.0f});
        }
        auto got = outs[std::size_t(s)].readAs<float>();
        got.resize(want.size());
        requireEqual(got, want, "the stream's records");
        // Drawn back from the transform feedback object's count of this stream: exactly its pixels.
        target.bind();
        glBindBuffer(GL_ARRAY_BUFFER, outs[std::size_t(s)].glName());
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        // [docs:geometry-draw-stream]
        capture.drawCapturedStream(s); // glDrawTransformFeedbackStream(GL_POINTS, object, s): no count read back
        // [docs:end]
        auto lit = target.screen.lit();
        std::vector<int> litPixels;
        for (std::size_t k = 0; k < lit.size(); ++k)
            if (lit[k]) litPixels.push_back(int(k));
        std::vector<int> sorted = expected[std::size_t(s)];
        std::sort(sorted.begin(), sorted.end());
        CHECK(litPixels == sorted);
        // Instanced: the same pixels.
        target.bind();
        capture.drawCapturedStream(s, DrawMode::Points, 3);
        CHECK(target.screen.lit() == lit);
    }
    // The compute capture of the same program: each stream drawn from its totals' indirect command
    // (glDrawArraysIndirect), exactly its pixels, the stale records after them undrawn.
    std::vector<Buffer> computed;
    for (int s = 0; s < 4; ++s) computed.emplace_back(dev, vec4Format(0), 70);
    for (int s = 0; s < 4; ++s) { // the stale pixels of row 14, as above
        std::vector<float> stale;
        for (int k = 0; k < 70; ++k) {
            auto c = pixelCenter(14 * 16 + k % 16);
            stale.insert(stale.end(), {c[0], c[1], 0.0f, 1.0f});
        }
        computed[std::size_t(s)].upload(view(stale));
    }
    PrimitiveCapture byCompute(dev, program,
                               {{&input, nullptr},
                                {nullptr, &computed[0]},
                                {nullptr, &computed[1]},
                                {nullptr, &computed[2]},
                                {nullptr, &computed[3]}},
                               {std::nullopt, Expansion::Auto, Backend::Compute});
    byCompute.capture({DrawMode::Points, points});
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        target.bind();
        glBindBuffer(GL_ARRAY_BUFFER, computed[std::size_t(s)].glName());
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        byCompute.drawCapturedStream(s); // glDrawArraysIndirect from the stream's totals
        auto lit = target.screen.lit();
        std::vector<int> litPixels;
        for (std::size_t k = 0; k < lit.size(); ++k)
            if (lit[k]) litPixels.push_back(int(k));
        std::vector<int> sorted = expected[std::size_t(s)];
        std::sort(sorted.begin(), sorted.end());
        CHECK(litPixels == sorted);
        target.bind();
        byCompute.drawCapturedStream(s, DrawMode::Points, 3); // instanced: the written count read back
        CHECK(target.screen.lit() == lit);
    }
    GLint indirect = -1;
    glGetIntegerv(GL_DRAW_INDIRECT_BUFFER_BINDING, &indirect);
    CHECK(indirect == 0); // the indirect binding is restored
    // drawCaptured() is the first captured stream, 0.
    target.bind();
    glBindBuffer(GL_ARRAY_BUFFER, outs[0].glName());
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    capture.drawCaptured();
    int litCount = 0;
    for (bool b : target.screen.lit()) litCount += b;
    CHECK(litCount == 4);
    // A stream the program has no captured buffers for, and one it does not have.
    Program partial(dev, {vertexSource(dev), {CaptureMode::Interleaved, {"out_b", "out_d"}}, {}, "partial", source});
    Buffer b(dev, vec4Format(0), 70), d(dev, vec4Format(0), 70);
    PrimitiveCapture some(dev, partial, {{&input, nullptr}, {nullptr, &b}, {nullptr, &d}});
    some.capture({DrawMode::Points, points});
    std::string msg = XFB_REQUIRE_ERROR(some.drawCapturedStream(2), ErrorCode::GeometryStream);
    CHECK(contains(msg, "captures nothing from it; its captured streams are 1, 3"));
    XFB_REQUIRE_ERROR(some.drawCapturedStream(9), ErrorCode::GeometryStream);
    const auto partialStats = some.statistics();
    REQUIRE(partialStats.size() == 4);
    CHECK_FALSE(partialStats[0].captured);
    CHECK(partialStats[0].primitivesGenerated == 4); // emitted, though nothing captures it
    CHECK(partialStats[3].primitivesWritten == 12);
    CHECK_FALSE(partialStats[0].overflow());
    requireSameBothWays(dev, program, input, {DrawMode::Points, points}, {70, 70, 70, 70});
    // Streams nothing captures still report what they generated, both ways.
    const auto partialComputed = requireSameBothWays(dev, partial, input, {DrawMode::Points, points}, {70, 70});
    CHECK(partialComputed[0].primitivesGenerated == 4);
}

TEST_CASE_FIXTURE(GlTest, "overflow: Error refuses the budget before drawing, Clamp writes what fits and reports it") {
    if (!dev.capabilities().geometry) return;
    // Each point emits 1 + (i % 3) points: 0..5 emit 1, 2, 3, 1, 2, 3 = 12; the budget is 6 x 3 = 18.
    const std::string source = gsHeader(dev) + R"(layout(points) in;
layout(points, max_vertices = 3) out;
flat in int v_id[];
out vec4 out_value;
void main() {
    for (int c = 0; c <= v_id[0] % 3; ++c) { out_value = vec4(float(v_id[0]), float(c), 0.0, 1.0); EmitVertex(); }
}
)";
    Program program(dev, {vertexSource(dev), {}, {}, "overflow", source});
    Buffer input(dev, vec4Format(0), 6, view(positions(6, 1u)));
    std::vector<float> ref;
    for (int i = 0; i < 6; ++i)
        for (int c = 0; c <= i % 3; ++c) ref.insert(ref.end(), {float(i), float(c), 0.0f, 1.0f});
    const std::vector<float> sentinel(40, -3.0f);
    Buffer out(dev, vec4Format(0), 10, view(sentinel)); // 10 records: the budget 18 and the 12 emitted overflow it
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
    std::string msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::Points, 6}), ErrorCode::Capacity);
    CHECK(contains(msg, "holds 160 bytes (10 records) but the geometry shader can write 18 records"));
    requireEqual(out.readAs<float>(), sentinel, "nothing written after the refusal");
    CHECK(contains(XFB_REQUIRE_ERROR(capture.statistics(), ErrorCode::InvalidArgument), "nothing was captured"));

    // [docs:geometry-clamp]
    CaptureRunOptions clamp;
    clamp.overflow = EmitOverflow::Clamp; // draw even though the budget (18 records) exceeds the buffer (10)
    const CaptureCount budget = capture.capture({DrawMode::Points, 6}, clamp);
    const std::vector<StreamStatistics> stats = capture.statistics(); // generated 12, written 10: overflow()
    // [docs:end]
    CHECK(budget.records == 18);
    CHECK(stats[0].primitivesGenerated == 12);
    CHECK(stats[0].primitivesWritten == 10);
    CHECK(stats[0].recordsWritten == 10);
    CHECK(stats[0].overflow());
    // The first 10 records, in order: the GL drops what does not fit.
    requireEqual(out.readAs<float>(), std::vector<float>(ref.begin(), ref.begin() + 40), "the records that fit");
    // With room for all of them: no overflow.
    Buffer big(dev, vec4Format(0), 12);
    PrimitiveCapture roomy(dev, program, {{&input, nullptr}, {nullptr, &big}});
    roomy.capture({DrawMode::Points, 6}, clamp);
    CHECK_FALSE(roomy.statistics()[0].overflow());
    CHECK(roomy.statistics()[0].primitivesWritten == 12);
    requireEqual(big.readAs<float>(), ref, "every record");
    if (!dev.capabilities().compute) return;
    // The compute translation clamps the same way: the first 10 records, generated 12, written 10.
    const auto computed = requireSameBothWays(dev, program, input, {DrawMode::Points, 6}, {10}, clamp);
    CHECK(computed[0].overflow());
    requireSameBothWays(dev, program, input, {DrawMode::Points, 6}, {12}, clamp);
    // And refuses the same budget with Error before anything is written.
    Buffer refused(dev, vec4Format(0), 10, view(sentinel));
    PrimitiveCapture computeCapture(dev, program, {{&input, nullptr}, {nullptr, &refused}},
                                    {std::nullopt, Expansion::Auto, Backend::Compute});
    msg = XFB_REQUIRE_ERROR(computeCapture.capture({DrawMode::Points, 6}), ErrorCode::Capacity);
    CHECK(contains(msg, "holds 160 bytes (10 records) but the geometry shader can write 18 records"));
    requireEqual(refused.readAs<float>(), sentinel, "nothing written by the refused compute capture");
}

TEST_CASE_FIXTURE(GlTest, "capture while rasterizing: one pass draws the captured triangles and writes their records") {
    // A quad over the left half of a 16 x 16 target, as a strip.
    const std::vector<float> quad = {-1, -1, 0, 1, 0, -1, 0, 1, -1, 1, 0, 1, 0, 1, 0, 1};
    Buffer input(dev, vec4Format(0), 4, view(quad));
    const DrawDesc draw{DrawMode::TriangleStrip, 4};
    const std::vector<std::uint32_t> order = expandPrimitives(draw); // 0 1 2, 2 1 3
    // The user's fragment shader, in each program's dialect (GLSL ES links one version per program).
    const std::string red = "out vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n";
    const std::string fragment = (desktop(dev) ? "#version 400 core\n" : gsHeader(dev)) + red;
    const std::string plainFragment = vsHeader(dev) + (desktop(dev) ? "" : "precision mediump float;\n") + red;
    auto litHalves = [](const Offscreen& screen) {
        auto lit = screen.lit();
        int left = 0, right = 0;
        for (std::size_t k = 0; k < lit.size(); ++k) (k % 16 < 8 ? left : right) += lit[k];
        return std::pair{left, right};
    };
    Offscreen screen(16, 16);
    CaptureRunOptions rasterizeFirst;
    rasterizeFirst.rasterize = 0;

    // A vertex program: the driver's expansion draws the strip while capturing it.
    const std::string vertex = vsHeader(dev) + "in vec4 a_position;\nout vec4 out_position;\nvoid main() { "
                                               "out_position = a_position * 2.0; gl_Position = a_position; }\n";
    Program plain(dev, {vertex, {}, {}, "plain", {}, plainFragment});
    Buffer plainOut(dev, vec4Format(0), 6);
    PrimitiveCapture plainCapture(dev, plain, {{&input, nullptr}, {nullptr, &plainOut}});
    screen.clear();
    if (desktop(dev)) {
        CHECK(plainCapture.capture(draw, rasterizeFirst).records == 6);
        CHECK(litHalves(screen) == std::pair{128, 0});
        std::vector<float> ref;
        for (auto v : order)
            for (int c = 0; c < 4; ++c) ref.push_back(quad[v * 4 + std::size_t(c)] * 2.0f);
        requireEqual(plainOut.readAs<float>(), ref, "the vertex program's records");
        // Without the option the rasterizer is off: nothing drawn.
        screen.clear();
        plainCapture.capture(draw);
        CHECK(litHalves(screen) == std::pair{0, 0});
    } else {
        std::string msg = XFB_REQUIRE_ERROR(plainCapture.capture(draw, rasterizeFirst), ErrorCode::Unsupported);
        CHECK(contains(msg, "engine's expansion"));
    }
    CaptureRunOptions stream1;
    stream1.rasterize = 1;
    std::string msg = XFB_REQUIRE_ERROR(plainCapture.capture(draw, stream1), ErrorCode::RasterizedStream);
    CHECK(contains(msg, "no geometry shader, so vertex stream 0 only"));
    if (!dev.capabilities().geometry) return;

    // A geometry program: each triangle passes through, shrunk towards x = -1 (drawn) and captured.
    const std::string gs = gsHeader(dev) + R"(layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 v_position[];
out vec4 out_position;
void main() {
    for (int i = 0; i < 3; ++i) {
        vec4 p = v_position[i];
        out_position = vec4(p.x * 0.5 - 0.5, p.yzw);
        gl_Position = out_position;
        EmitVertex();
    }
}
)";
    // [docs:geometry-rasterize]
    Program program(dev, {vertexSource(dev), {}, {}, "shrunk", gs, fragment}); // ProgramDesc::fragment: drawn with it
    Buffer out(dev, vec4Format(0), 6);
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
    screen.clear(); // the caller's framebuffer and viewport receive the pixels
    CaptureRunOptions rasterize;
    rasterize.rasterize = 0; // stream 0 stays rasterized: one pass draws and captures
    const CaptureCount budget = capture.capture(draw, rasterize);
    // [docs:end]
    // Only the geometry shader rasterizes: Auto used it for this capture and decided nothing.
    if (dev.capabilities().compute) CHECK(capture.backend() == Backend::Auto);
    CHECK(budget.primitive == DrawMode::Triangles);
    // x in [-1, 0] becomes [-1, -0.5]: the left quarter, 4 of 16 columns.
    CHECK(litHalves(screen) == std::pair{64, 0});
    auto lit = screen.lit();
    for (std::size_t k = 0; k < lit.size(); ++k) CHECK(lit[k] == (k % 16 < 4));
    std::vector<float> ref;
    for (auto v : order) ref.insert(ref.end(), {quad[v * 4] * 0.5f - 0.5f, quad[v * 4 + 1], 0.0f, 1.0f});
    requireEqual(out.readAs<float>(), ref, "the geometry program's records");
    CHECK(capture.statistics()[0].primitivesWritten == 2);
    // The guard restored the rasterizer (GlTest checks it is off) and the framebuffer is the caller's.
    GLint bound = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
    CHECK(GLuint(bound) == screen.fbo);
    msg = XFB_REQUIRE_ERROR(capture.capture(draw, stream1), ErrorCode::RasterizedStream);
    CHECK(contains(msg, "vertex streams 0..0"));
}

TEST_CASE_FIXTURE(GlTest, "two streams rasterize stream 0 only: XFB_RASTERIZED_STREAM for stream 1") {
    if (!fourStreams(dev)) return;
    const std::string source = gsHeader(dev) + R"(layout(points) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
layout(stream = 0) out vec4 out_a;
layout(stream = 1) out vec4 out_b;
void main() {
    out_a = v_position[0]; gl_Position = v_position[0]; EmitStreamVertex(0);
    out_b = -v_position[0]; EmitStreamVertex(1);
}
)";
    const std::string fragment = "#version 400 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n";
    Program program(dev, {vertexSource(dev), {}, {}, "two", source, fragment});
    // Points on the centers of pixels 0, 17 and 34.
    std::vector<float> p;
    for (int k : {0, 17, 34}) {
        auto c = pixelCenter(k);
        p.insert(p.end(), {c[0], c[1], 0.0f, 1.0f});
    }
    Buffer input(dev, vec4Format(0), 3, view(p));
    Buffer a(dev, vec4Format(0), 6), b(dev, vec4Format(0), 6);
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &a}, {nullptr, &b}});
    CaptureRunOptions run;
    run.rasterize = 1;
    std::string msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::Points, 3}, run), ErrorCode::RasterizedStream);
    CHECK(contains(msg, "GL rasterizes vertex stream 0 only"));
    run.rasterize = 2;
    msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::Points, 3}, run), ErrorCode::RasterizedStream);
    CHECK(contains(msg, "vertex streams 0..1"));
    // Stream 0 drawn (3 pixels), both streams captured.
    run.rasterize = 0;
    Offscreen screen(16, 16);
    screen.clear();
    capture.capture({DrawMode::Points, 3}, run);
    auto lit = screen.lit();
    std::vector<int> litPixels;
    for (std::size_t k = 0; k < lit.size(); ++k)
        if (lit[k]) litPixels.push_back(int(k));
    CHECK(litPixels == std::vector<int>{0, 17, 34});
    auto got = b.readAs<float>();
    got.resize(12);
    std::vector<float> negated;
    for (float x : p) negated.push_back(-x);
    requireEqual(got, negated, "stream 1, captured while stream 0 was drawn");
}

TEST_CASE_FIXTURE(GlTest, "geometry refusals: every code provoked, nothing drawn") {
    if (!dev.capabilities().geometry) return; // GEOMETRY_UNSUPPORTED: the first case
    const std::string vertex = vertexSource(dev);
    // No max_vertices: XFB_GEOMETRY_LAYOUT, naming the line.
    std::string msg =
        XFB_REQUIRE_ERROR(Program(dev, {vertex,
                                        {},
                                        {},
                                        "bad",
                                        gsHeader(dev) + "layout(triangles) in;\nlayout(points) out;\nout vec4 "
                                                        "out_a;\nvoid main() {}\n"}),
                          ErrorCode::GeometryLayout);
    CHECK(contains(msg, "no max_vertices"));
    // Two streams: refused on ES 3.2 (stream 0 only), a buffer of two streams refused everywhere.
    const std::string twoStreams = "layout(points) in;\nlayout(points, max_vertices = 2) out;\nout vec4 out_a;\n"
                                   "layout(stream = 1) out vec4 out_b;\nvoid main() {}\n";
    if (desktop(dev)) {
        // The shader's own xfb_buffer puts both streams into buffer 0 (GLSL 4.40 qualifiers).
        msg = XFB_REQUIRE_ERROR(Program(dev, {vertex, {}, {}, "mixed", R"(#version 440 core
layout(points) in;
layout(points, max_vertices = 2) out;
layout(xfb_buffer = 0, xfb_offset = 0) out vec4 out_a;
layout(stream = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 out_b;
void main() {}
)"}),
                                ErrorCode::LayoutStream);
        CHECK(contains(msg, "buffer 0 would receive 'out_a' (stream 0, line 4) and 'out_b' (stream 1, line 5)"));
        // GL's list without gl_NextBuffer between the streams.
        XFB_REQUIRE_ERROR(Program(dev, {vertex,
                                        {CaptureMode::Interleaved, {"out_a", "gl_SkipComponents1", "out_b"}},
                                        {},
                                        "listed",
                                        gsHeader(dev) + twoStreams}),
                          ErrorCode::LayoutStream);
        // A stream past GL_MAX_VERTEX_STREAMS.
        msg = XFB_REQUIRE_ERROR(Program(dev, {vertex,
                                              {},
                                              {},
                                              "far",
                                              gsHeader(dev) + "layout(points) in;\nlayout(points, max_vertices = "
                                                              "1) out;\nlayout(stream = 9) out vec4 out_a;\n"}),
                                ErrorCode::GeometryStream);
        CHECK(contains(msg, "GL_MAX_VERTEX_STREAMS = " + std::to_string(dev.capabilities().geometryLimits.maxStreams)));
    } else {
        msg = XFB_REQUIRE_ERROR(Program(dev, {vertex, {}, {}, "streams", gsHeader(dev) + twoStreams}),
                                ErrorCode::GeometryStream);
        CHECK(contains(msg, "OpenGL ES 3.2 captures stream 0 only"));
    }
    // A draw of lines into a triangle shader: XFB_GEOMETRY_INPUT before any GL call.
    Program faces(dev, {vertex, {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)});
    const std::vector<float> p = positions(4, 9u);
    Buffer input(dev, vec4Format(0), 4, view(p));
    const std::vector<std::uint32_t> sentinel(32, 0x5555u);
    Buffer out(dev, pointTagFormat(), 4, view(sentinel));
    PrimitiveCapture capture(dev, faces, {{&input, nullptr}, {nullptr, &out}});
    msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::LineStrip, 4}), ErrorCode::GeometryInput);
    CHECK(contains(msg, "line_strip gives the geometry shader lines, but it takes triangles (line "));
    requireEqual(out.readAs<std::uint32_t>(), sentinel, "nothing written");
    // Sessions, pipelines and the engine's expansion do not take geometry programs.
    std::vector<CapturePart> parts{{{DrawMode::Triangles, 3}}};
    msg = XFB_REQUIRE_ERROR(capture.captureSession(parts), ErrorCode::Unsupported);
    CHECK(contains(msg, "known only on the GPU"));
    XFB_REQUIRE_ERROR(
        PrimitiveCapture(dev, faces, {{&input, nullptr}, {nullptr, &out}}, {std::nullopt, Expansion::Engine}),
        ErrorCode::Unsupported);
    msg = XFB_REQUIRE_ERROR(Pipeline(dev, faces, {{&input, nullptr}, {nullptr, &out}}), ErrorCode::Unsupported);
    CHECK(contains(msg, "PrimitiveCapture"));
}

TEST_CASE_FIXTURE(GlTest, "a geometry capture after a context restoration: relinked with its geometry shader") {
    if (!dev.capabilities().geometry) return;
    Program program(dev, {vertexSource(dev), {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)});
    const std::vector<float> p = positions(5, 17u);
    Buffer input(dev, vec4Format(0), 5, view(p));
    Buffer out(dev, pointTagFormat(), 6);
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
    const DrawDesc draw{DrawMode::TriangleStrip, 5};
    capture.capture(draw);
    const unsigned before = program.glName();
    dev.contextLost();
    CHECK(contains(XFB_REQUIRE_ERROR(capture.capture(draw), ErrorCode::ContextLost), "PrimitiveCapture::capture"));
    dev.contextRestored(); // here the context never went away: new objects are made all the same
    CHECK(program.glName() != before);
    REQUIRE(program.geometry());
    CHECK(program.geometry()->maxVertices == 2);
    input.upload(view(p)); // contents are undefined after a restoration
    CHECK(contains(XFB_REQUIRE_ERROR(capture.statistics(), ErrorCode::InvalidArgument), "nothing was captured"));
    capture.capture(draw);
    requireRecords(split(out.readAs<std::uint32_t>(), 8, 4, 6), facePointsReference(p, draw), "after the restoration");
    CHECK(capture.statistics()[0].primitivesWritten == 6);
    if (!dev.capabilities().compute) return;
    // The compute capture makes its kernels and buffers again too.
    Buffer computed(dev, pointTagFormat(), 6);
    PrimitiveCapture byCompute(dev, program, {{&input, nullptr}, {nullptr, &computed}},
                               {std::nullopt, Expansion::Auto, Backend::Compute});
    byCompute.capture(draw);
    dev.contextLost();
    dev.contextRestored();
    input.upload(view(p));
    byCompute.capture(draw);
    requireRecords(split(computed.readAs<std::uint32_t>(), 8, 4, 6), facePointsReference(p, draw),
                   "the compute capture after the restoration");
    CHECK(byCompute.statistics()[0].primitivesWritten == 6);
}

// The compute translation (PrimitiveCaptureOptions::backend = Compute) on what the cases above do
// not reach: triangle strips of several triangles closed into lists in the GL's winding, an
// incomplete strip, gl_in[], lines in (strips, and indexed with restart), a uniform of the
// geometry shader, and a clamp that cuts inside a triangle's records.
TEST_CASE_FIXTURE(GlTest, "compute capture: triangle strips in the GL's winding, gl_in, lines in, uniforms, clamp") {
    if (!dev.capabilities().geometry || !dev.capabilities().compute) return;
    const std::string source = gsHeader(dev) + R"(layout(lines) in;
layout(triangle_strip, max_vertices = 7) out;
in vec4 v_position[];
flat in int v_id[];
uniform float u_scale;
out vec4 out_position;
flat out ivec2 out_tag;
void main() {
    for (int k = 0; k < 5; ++k) {
        vec4 p = (k % 2 == 0 ? gl_in[0].gl_Position : v_position[1]) +
                 vec4(float(k) * u_scale, float(gl_PrimitiveIDIn), 0.0, 0.0);
        out_position = p;
        out_tag = ivec2(gl_PrimitiveIDIn * 16 + k, v_id[k % 2]);
        gl_Position = p;
        EmitVertex();
    }
    EndPrimitive();
    for (int k = 0; k < 2; ++k) { out_position = vec4(9.0); out_tag = ivec2(-1); EmitVertex(); } // incomplete
}
)";
    Program program(dev, {vertexSource(dev), {}, {}, "strips", source});
    program.setUniform("u_scale", 0.25f);
    CHECK(program.geometry()->capturedPrimitive() == DrawMode::Triangles);
    const std::vector<float> p = positions(6, 31u);
    Buffer input(dev, vec4Format(0), 6, view(p));
    std::vector<DrawDesc> draws{{DrawMode::LineStrip, 5}, {DrawMode::Lines, 6}, {DrawMode::LineLoop, 4}};
    if (desktop(dev)) draws.push_back({DrawMode::Lines, 0, {5, 0, 3, 0xFFFFu, 2, 4, 1, 1}, 0xFFFFu});
    for (const DrawDesc& draw : draws) {
        CAPTURE(drawModeName(draw.mode));
        // 3 triangles (9 records) a line; the budget is 5 triangles (15 records) a line.
        const auto stats =
            requireSameBothWays(dev, program, input, draw, {std::int64_t(expandPrimitives(draw).size()) / 2 * 15});
        CHECK(stats[0].primitivesGenerated == std::int64_t(expandPrimitives(draw).size()) / 2 * 3);
    }
    CaptureRunOptions clamp;
    clamp.overflow = EmitOverflow::Clamp;
    // 10 records hold 3 whole triangles: the 10th record stays a sentinel both ways.
    const auto stats = requireSameBothWays(dev, program, input, {DrawMode::LineStrip, 5}, {10}, clamp);
    CHECK(stats[0].primitivesWritten == 3);
    CHECK(stats[0].recordsWritten == 9);
    CHECK(stats[0].overflow());
}

// Scoped: the Device's capabilities say "no geometry shaders" (an OpenGL ES 3.1 context without
// GL_EXT_geometry_shader, which llvmpipe never gives), then are restored.
struct WithoutGeometryShaders {
    std::shared_ptr<detail::DeviceState> state;
    explicit WithoutGeometryShaders(const Device& dev) : state(detail::Access::state(dev)) {
        state->caps.geometry = false;
    }
    ~WithoutGeometryShaders() { state->caps.geometry = true; }
};

TEST_CASE_FIXTURE(GlTest,
                  "a context with compute but no geometry shaders captures geometry programs as compute (Auto)") {
    if (!dev.capabilities().geometry || !dev.capabilities().compute) return;
    const std::string source = gsHeader(dev) + std::string(kFacePoints);
    const std::vector<float> p = positions(7, 41u);
    Buffer input(dev, vec4Format(0), 7, view(p));
    const DrawDesc draw{DrawMode::TriangleStrip, 7};
    const Records ref = facePointsReference(p, draw);
    Buffer out(dev, pointTagFormat(), 10);
    {
        WithoutGeometryShaders compute(dev);
        Program program(dev,
                        {vertexSource(dev), {}, {}, "faces", source}); // planned, linked without the geometry shader
        REQUIRE(program.geometry());
        PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &out}});
        CHECK(capture.backend() == Backend::Compute);
        CHECK(capture.expansion() == Expansion::Engine);
        CHECK(capture.capture(draw).records == 10);
        requireRecords(split(out.readAs<std::uint32_t>(), 8, 4, 10), ref, "compute without geometry shaders");
        CHECK(capture.statistics()[0].primitivesWritten == 10);
        std::string msg =
            XFB_REQUIRE_ERROR(PrimitiveCapture(dev, program, {{&input, nullptr}, {nullptr, &out}},
                                               {std::nullopt, Expansion::Auto, Backend::TransformFeedback}),
                              ErrorCode::GeometryUnsupported);
        CHECK(contains(msg, "Use Backend::Compute or Auto"));
    }
    // The same program on the whole context, by default: Auto times both at the first capture.
    Program program(dev, {vertexSource(dev), {}, {}, "faces", source});
    const std::vector<std::uint32_t> sentinel(80, 0x5555u);
    Buffer again(dev, pointTagFormat(), 10, view(sentinel));
    PrimitiveCapture capture(dev, program, {{&input, nullptr}, {nullptr, &again}});
    CHECK(capture.backend() == Backend::Auto);
    CHECK(contains(capture.backendReason(), "auto: the first capture times the geometry shader and compute"));
    requireEqual(again.readAs<std::uint32_t>(), sentinel, "nothing written before the first capture");
    CHECK(capture.capture(draw).records == 10);
    const Backend chosen = capture.backend();
    CHECK((chosen == Backend::TransformFeedback || chosen == Backend::Compute));
    CHECK(capture.expansion() == (chosen == Backend::Compute ? Expansion::Engine : Expansion::Driver));
    CHECK(contains(capture.backendReason(), " was faster, geometry shader "));
    CHECK(contains(capture.backendReason(), " ms per capture ("));
    MESSAGE("capture auto on ", dev.capabilities().renderer, ": ", capture.backendReason());
    requireEqual(again.readAs<std::uint32_t>(), out.readAs<std::uint32_t>(), "auto's choice, the same bytes");
    CHECK(capture.statistics()[0].primitivesWritten == 10);
    // Another capture of the program over as many vertices takes the decision without timing.
    Buffer third(dev, pointTagFormat(), 10);
    PrimitiveCapture second(dev, program, {{&input, nullptr}, {nullptr, &third}});
    CHECK(second.backend() == chosen);
    CHECK(contains(second.backendReason(), "auto, decided earlier on this context: auto: "));
    second.capture(draw);
    requireEqual(third.readAs<std::uint32_t>(), out.readAs<std::uint32_t>(), "the decision reused, the same bytes");
    // Asked for, a backend says so.
    PrimitiveCapture pinned(dev, program, {{&input, nullptr}, {nullptr, &third}},
                            {std::nullopt, Expansion::Auto, Backend::TransformFeedback});
    CHECK(pinned.backend() == Backend::TransformFeedback);
    CHECK(pinned.backendReason() == "requested");
}

TEST_CASE_FIXTURE(GlTest, "compute capture refusals: every one provoked, nothing written") {
    if (!dev.capabilities().geometry) return;
    const std::vector<float> p = positions(4, 9u);
    Buffer input(dev, vec4Format(0), 4, view(p));
    const std::vector<std::uint32_t> sentinel(32, 0x5555u);
    Buffer out(dev, pointTagFormat(), 4, view(sentinel));
    const Entry in{&input, nullptr}, written{nullptr, &out};
    auto options = [](Backend b, Expansion e = Expansion::Auto) { return PrimitiveCaptureOptions{std::nullopt, e, b}; };
    Program faces(dev, {vertexSource(dev), {}, {}, "faces", gsHeader(dev) + std::string(kFacePoints)});
    std::string msg;
    if (!dev.capabilities().compute) {
        msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, faces, {in, written}, options(Backend::Compute)),
                                ErrorCode::Unsupported);
        CHECK(contains(msg, "needs OpenGL 4.3+ or OpenGL ES 3.1+"));
        return;
    }
    // A vertex program is captured by transform feedback; no capture runs as fragment passes.
    Program plain(dev, {vsHeader(dev) + "in vec4 a_position;\nout vec4 out_p;\nvoid main() { out_p = a_position; }\n"});
    Buffer plainOut(dev, vec4Format(0), 4);
    msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, plain, {in, {nullptr, &plainOut}}, options(Backend::Compute)),
                            ErrorCode::Unsupported);
    CHECK(contains(msg, "is a vertex program, which a capture runs with transform feedback only"));
    msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, faces, {in, written}, options(Backend::Fragment)),
                            ErrorCode::Unsupported);
    CHECK(contains(msg, "backend = fragment"));
    // The compute capture expands the draw itself.
    msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, faces, {in, written}, options(Backend::Compute, Expansion::Driver)),
                            ErrorCode::Unsupported);
    CHECK(contains(msg, "Expansion::Driver is the GL's geometry shader"));
    // No pass draws: rasterizing is refused before anything runs.
    PrimitiveCapture capture(dev, faces, {in, written}, options(Backend::Compute));
    CaptureRunOptions rasterize;
    rasterize.rasterize = 0;
    msg = XFB_REQUIRE_ERROR(capture.capture({DrawMode::Triangles, 3}, rasterize), ErrorCode::Unsupported);
    CHECK(contains(msg, "whose passes draw nothing"));
    requireEqual(out.readAs<std::uint32_t>(), sentinel, "nothing written");
    // A construct with no compute equivalent: XFB_COMPUTE_TRANSLATION when the capture is made.
    if (desktop(dev)) {
        Program layered(dev,
                        {vertexSource(dev),
                         {},
                         {},
                         "layered",
                         gsHeader(dev) + "layout(points) in;\nlayout(points, max_vertices = 1) out;\nout vec4 "
                                         "out_a;\nvoid main() { out_a = vec4(1.0); gl_Layer = 1; EmitVertex(); }\n"});
        msg = XFB_REQUIRE_ERROR(PrimitiveCapture(dev, layered, {in, {nullptr, &plainOut}}, options(Backend::Compute)),
                                ErrorCode::ComputeTranslation);
        CHECK(contains(msg, "'gl_Layer' has no equivalent in a compute shader"));
    }
    // 32-bit counts: a stream's budget at or past 2^32 records is refused before any GL call.
    const std::string wide = gsHeader(dev) +
                             "layout(points, invocations = 32) in;\nlayout(points, max_vertices = "
                             "256) out;\nout vec4 out_a;\nvoid main() { out_a = vec4(1.0); EmitVertex(); }\n";
    if (dev.capabilities().geometryLimits.maxInvocations >= 32 &&
        dev.capabilities().geometryLimits.maxOutputVertices >= 256) {
        Program program(dev, {vertexSource(dev), {}, {}, "wide", wide});
        const std::int64_t n = 1 << 19; // x 32 invocations x 256 records = 2^32
        Buffer many(dev, vec4Format(0), n);
        Buffer one(dev, vec4Format(0), 1);
        PrimitiveCapture huge(dev, program, {{&many, nullptr}, {nullptr, &one}}, options(Backend::Compute));
        CaptureRunOptions clamp;
        clamp.overflow = EmitOverflow::Clamp;
        msg = XFB_REQUIRE_ERROR(huge.capture({DrawMode::Points, n}, clamp), ErrorCode::BufferTooLarge);
        CHECK(contains(msg, "stream 0 can receive 4294967296 records, but the compute capture counts them in 32 bits"));
    }
}

namespace {

// shaders/ by file name: the geometry programs of tests/web/page/geometry_fixture.json.
std::string_view fixtureShader(const std::string& file) {
    static const std::pair<std::string_view, std::string_view> files[] = {
        {"geometry_pass.vert", xfb_shaders::geometry_pass_vert},
        {"geometry_face_points.geom", xfb_shaders::geometry_face_points_geom},
        {"geometry_fins.geom", xfb_shaders::geometry_fins_geom},
        {"geometry_invocations.geom", xfb_shaders::geometry_invocations_geom},
        {"geometry_two_streams.geom", xfb_shaders::geometry_two_streams_geom},
        {"geometry_quads.geom", xfb_shaders::geometry_quads_geom},
        {"geometry_fins_uniform.geom", xfb_shaders::geometry_fins_uniform_geom},
        {"geometry_pass_scaled.vert", xfb_shaders::geometry_pass_scaled_vert},
    };
    for (const auto& [name, text] : files)
        if (name == file) return text;
    FAIL("the fixture names shaders/" << file
                                      << ", which this test does not embed: add it to shaders/CMakeLists.txt and "
                                         "to fixtureShader()");
    return {};
}

// A fixture case's uniform values (float uniforms: a number, or 2 to 4 numbers for a vector).
void setFixtureUniforms(Program& program, const nlohmann::json& values) {
    for (const auto& [name, v] : values.items()) {
        if (v.is_number()) {
            program.setUniform(name, v.get<float>());
            continue;
        }
        const auto f = v.get<std::vector<float>>();
        REQUIRE(f.size() >= 2);
        REQUIRE(f.size() <= 4);
        if (f.size() == 2) program.setUniform(name, glm::vec2(f[0], f[1]));
        if (f.size() == 3) program.setUniform(name, glm::vec3(f[0], f[1], f[2]));
        if (f.size() == 4) program.setUniform(name, glm::vec4(f[0], f[1], f[2], f[3]));
    }
}

// One case of the fixture captured with Backend::Compute: every word of every output buffer, the
// budget and every stream's statistics, as the fixture writes them. A case with "uniforms" (a list
// of settings) captures once per setting with the same capture, the values set before each: the
// outputs are the last capture's.
nlohmann::json captureFixtureCase(const Device& dev, const nlohmann::json& fixture, const nlohmann::json& c) {
    const std::vector<float> positions = fixture.at("positions").get<std::vector<float>>();
    const auto vertices = std::int64_t(positions.size() / 4);
    const std::string vertex = c.value("vertex", fixture.at("vertex").get<std::string>());
    Program program(dev, {vsHeader(dev) + std::string(fixtureShader(vertex)),
                          {},
                          {},
                          c.at("name").get<std::string>(),
                          gsHeader(dev) + std::string(fixtureShader(c.at("geometry").get<std::string>()))});
    const CapturePlan& plan = program.capture();
    const auto records = c.at("records").get<std::vector<std::int64_t>>();
    REQUIRE(plan.buffers.size() == records.size());
    Buffer input(dev, vec4Format(0), vertices, view(positions));
    std::vector<Buffer> outs;
    for (std::size_t b = 0; b < records.size(); ++b) {
        const std::vector<std::uint32_t> sentinel(std::size_t(records[b]) * std::size_t(plan.buffers[b].stride) / 4,
                                                  fixture.at("sentinel").get<std::uint32_t>());
        outs.emplace_back(dev, plan.buffers[b].asVertexFormat(), records[b], view(sentinel));
    }
    std::vector<Entry> entries{{&input, nullptr}};
    for (auto& o : outs) entries.push_back({nullptr, &o});
    PrimitiveCapture capture(dev, program, entries, {std::nullopt, Expansion::Auto, Backend::Compute});
    const auto mode = drawModeFromName(c.at("draw").at("mode").get<std::string>());
    REQUIRE(mode);
    CaptureRunOptions run;
    run.overflow = c.at("overflow") == "clamp" ? EmitOverflow::Clamp : EmitOverflow::Error;
    const DrawDesc draw{*mode, c.at("draw").at("count").get<std::int64_t>()};
    std::optional<CaptureCount> last;
    for (const nlohmann::json& values : c.value("uniforms", nlohmann::json::array({nlohmann::json::object()}))) {
        setFixtureUniforms(program, values);
        last = capture.capture(draw, run);
    }
    const CaptureCount budget = *last;
    nlohmann::json out;
    out["budget"] = {{"records", budget.records}, {"inputPrimitives", budget.inputPrimitives}};
    for (const StreamStatistics& s : capture.statistics())
        out["statistics"].push_back({{"stream", s.stream},
                                     {"captured", s.captured},
                                     {"primitivesGenerated", s.primitivesGenerated},
                                     {"primitivesWritten", s.primitivesWritten},
                                     {"recordsWritten", s.recordsWritten},
                                     {"overflow", s.overflow()}});
    for (auto& o : outs) out["words"].push_back(o.readAs<std::uint32_t>());
    return out;
}

} // namespace

// Issue 27: the compute translation gives the same bytes on GL compute and on WebGPU in Chromium.
// The fixture holds the inputs (shaders/ by name, positions, draws, buffer sizes) and the outputs;
// this test fails if GL compute's differ, tests/web/page/geometry.js if WebGPU's do.
TEST_CASE_FIXTURE(GlTest,
                  "compute capture: the bytes of tests/web/page/geometry_fixture.json, which WebGPU also gives") {
    if (!dev.capabilities().compute) return;
    std::ifstream in(XFB_GEOMETRY_FIXTURE);
    REQUIRE_MESSAGE(in, "cannot read " XFB_GEOMETRY_FIXTURE);
    nlohmann::json fixture = nlohmann::json::parse(in);
    const bool write = std::getenv("XFB_WRITE_GEOMETRY_FIXTURE") != nullptr;
    int compared = 0;
    for (nlohmann::json& c : fixture.at("cases")) {
        CAPTURE(c.at("name").get<std::string>());
        if (c.value("desktopOnly", false) && !desktop(dev)) continue; // streams other than 0: GLSL 4.00
        const nlohmann::json got = captureFixtureCase(dev, fixture, c);
        for (const char* key : {"budget", "statistics", "words"}) {
            CAPTURE(key);
            if (write) c[key] = got.at(key);
            REQUIRE_MESSAGE(c.contains(key),
                            "the fixture has no '" << key << "': write it with XFB_WRITE_GEOMETRY_FIXTURE=1");
            if (std::string(key) == "words")
                for (std::size_t b = 0; b < got.at(key).size(); ++b)
                    requireEqual(got.at(key).at(b).get<std::vector<std::uint32_t>>(),
                                 c.at(key).at(b).get<std::vector<std::uint32_t>>(),
                                 "GL compute vs the fixture, every word of the buffer (a deliberate change: "
                                 "XFB_WRITE_GEOMETRY_FIXTURE=1, then the browser suite must agree)");
            else
                CHECK_MESSAGE(got.at(key) == c.at(key),
                              "GL compute " << got.at(key).dump() << " vs the fixture " << c.at(key).dump());
        }
        ++compared;
    }
    CHECK(compared >= (desktop(dev) ? 8 : 7));
    if (write) std::ofstream(XFB_GEOMETRY_FIXTURE) << fixture.dump(1) << '\n';
}
