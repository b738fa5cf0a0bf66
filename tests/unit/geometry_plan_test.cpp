// Geometry programs (xfb/geometry_plan.hpp): the reader's layout defaults, streams and unsized
// inputs; the capture plan per stream; planGeometry's checks; the budget of a draw (max_vertices x
// invocations x input primitives, as the primitives of the output); the driver's varying list.
#include "declared_options.hpp"
#include "plan/vertex_wrapper.hpp"
#include "test_util.hpp"
#include "xfb/geometry_plan.hpp"

using namespace xfb;
using namespace xfbtest;

namespace {

// Face normals and centroids: one point per stream for every triangle.
const char* kTwoStreams = R"(#version 400 core
layout(triangles, invocations = 2) in;
layout(points, max_vertices = 3) out;
in vec3 v_position[];
in vec3 v_normal[];
layout(stream = 0) out vec4 out_centroid;
layout(stream = 0) out float out_area;
layout(stream = 1) out vec3 out_normal;
layout(stream = 1) out int out_face;
void main() {
    out_centroid = vec4((v_position[0] + v_position[1] + v_position[2]) / 3.0, 1.0);
    out_area = 1.0;
    EmitStreamVertex(0);
    out_normal = v_normal[0];
    out_face = gl_PrimitiveIDIn;
    EmitStreamVertex(1);
}
)";

// Four streams, set by the default `layout(stream = N) out;` before each output.
const char* kFourStreams = R"(#version 400 core
layout(points) in;
layout(points, max_vertices = 4) out;
out vec4 out_a;
layout(stream = 1) out;
out vec2 out_b;
layout(stream = 2) out;
out float out_c;
out uint out_d;
layout(stream = 3) out;
out ivec3 out_e;
void main() {}
)";

// Extruded fins: a line strip per edge.
const char* kFins = R"(#version 400 core
layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec3 v_position[];
out vec3 out_position;
void main() {}
)";

GeometryInterface geometry(std::string_view source) { return readGeometryInterface(source); }

CapturePlan capture(std::string_view source, CaptureOptions o = {}, Limits l = Limits::portable()) {
    return planGeometryCapture(geometry(source).shader, o, l);
}

GeometryPlan geometryPlan(std::string_view source, CaptureOptions o = {}, GeometryLimits g = {}) {
    const GeometryInterface s = geometry(source);
    return planGeometry(s, planGeometryCapture(s.shader, o, Limits::portable()), g);
}

// kFins with another layout block, for the refusals.
std::string withLayout(const std::string& layout) {
    return "#version 400 core\n" + layout + "\nin vec3 v_position[];\nout vec3 out_position;\nvoid main() {}\n";
}

} // namespace

TEST_CASE("the reader keeps a geometry shader's layout defaults, streams and unsized inputs") {
    const GeometryInterface g = geometry(kTwoStreams);
    const ShaderInterface& s = g.shader;
    REQUIRE(g.layoutDefaults.size() == 2);
    CHECK(g.layoutDefaults[0].storage == StorageQualifier::In);
    CHECK(g.layoutDefaults[0].identifiers == std::vector<std::string>{"triangles"});
    CHECK(g.layoutDefaults[0].values == std::vector<std::pair<std::string, int>>{{"invocations", 2}});
    CHECK(g.layoutDefaults[0].line == 2);
    CHECK(g.layoutDefaults[1].storage == StorageQualifier::Out);
    CHECK(g.layoutDefaults[1].identifiers == std::vector<std::string>{"points"});
    CHECK(g.layoutDefaults[1].values == std::vector<std::pair<std::string, int>>{{"max_vertices", 3}});
    REQUIRE(s.inputs.size() == 2);
    CHECK(s.inputs[0].arraySize == 3); // one element per vertex of a triangle
    REQUIRE(s.outputs.size() == 4);
    CHECK(s.outputs[0].stream == 0);
    CHECK(s.outputs[1].stream == 0);
    CHECK(s.outputs[2].stream == 1);
    CHECK(s.outputs[3].stream == 1);
    const ShaderInterface four = geometry(kFourStreams).shader;
    std::vector<int> streams;
    for (const auto& o : four.outputs) streams.push_back(o.stream);
    CHECK(streams == std::vector<int>{0, 1, 2, 2, 3});
    // Points in: one element each; a vertex shader still refuses unsized arrays.
    CHECK(
        geometry("layout(points) in; in vec4 v[]; layout(points, max_vertices = 1) out;").shader.inputs[0].arraySize ==
        1);
    XFB_REQUIRE_ERROR(readShaderInterface("in vec4 v[];"), ErrorCode::ShaderSyntax);
    // A vertex shader's outputs are stream 0.
    CHECK(readShaderInterface("out vec4 out_a;").outputs[0].stream == 0);
}

TEST_CASE("interleaved capture of a geometry shader: one buffer per stream, each stream's varyings in order") {
    const CapturePlan two = capture(kTwoStreams);
    REQUIRE(two.buffers.size() == 2);
    CHECK(two.buffers[0].binding == 0);
    CHECK(two.buffers[0].stream == 0);
    CHECK(two.buffers[0].stride == 20);
    REQUIRE(two.buffers[0].fields.size() == 2);
    CHECK(two.buffers[0].fields[1].varying == "out_area");
    CHECK(two.buffers[0].fields[1].offset == 16);
    CHECK(two.buffers[1].binding == 1);
    CHECK(two.buffers[1].stream == 1);
    CHECK(two.buffers[1].stride == 16);
    CHECK(two.buffers[1].fields[1].type == ComponentType::Int32);
    CHECK(two.varyings[2].stream == 1);
    CHECK_FALSE(two.declared);

    const CapturePlan four = capture(kFourStreams);
    REQUIRE(four.buffers.size() == 4);
    std::vector<int> strides, streams;
    for (const auto& b : four.buffers) {
        strides.push_back(b.stride);
        streams.push_back(b.stream);
    }
    CHECK(strides == std::vector<int>{16, 8, 8, 12});
    CHECK(streams == std::vector<int>{0, 1, 2, 3});
    CHECK(four.buffers[2].fields[1].varying == "out_d");

    // A list orders each stream's buffer; the buffers stay in stream order.
    const CapturePlan listed = capture(kTwoStreams, list({"out_face", "out_area", "out_normal"}));
    REQUIRE(listed.buffers.size() == 2);
    CHECK(listed.buffers[0].fields.size() == 1);
    CHECK(listed.buffers[0].fields[0].varying == "out_area");
    CHECK(listed.buffers[1].fields[0].varying == "out_face");
    CHECK(listed.buffers[1].fields[1].varying == "out_normal");
    CHECK(listed.buffers[1].fields[1].offset == 4);

    // Only stream 1 captured: one buffer, of stream 1.
    const CapturePlan one = capture(kTwoStreams, list({"out_normal"}));
    REQUIRE(one.buffers.size() == 1);
    CHECK(one.buffers[0].stream == 1);

    // Separate mode: a buffer per varying, each of its varying's stream.
    CaptureOptions separate{CaptureMode::Separate};
    const CapturePlan sep = capture(kTwoStreams, separate);
    REQUIRE(sep.buffers.size() == 4);
    CHECK(sep.buffers[2].stream == 1);
    CHECK(sep.buffers[3].stream == 1);

    // Each stream's buffer is checked alone against the interleaved limit: 2 x 40 components fit 64...
    const Limits desktop{16, 64, 4, 64, 31}; // llvmpipe's GL 4.5 limits
    const std::string wide = "layout(points) in;\nlayout(points, max_vertices = 1) out;\nout vec4 out_a[10];\n"
                             "layout(stream = 1) out vec4 out_b[10];\n";
    CHECK(capture(wide, {}, desktop).buffers[1].stride == 160);
    // ...but 80 in one stream do not.
    auto big =
        XFB_REQUIRE_ERROR(capture("layout(points) in;\nlayout(points, max_vertices = 1) out;\nout vec4 out_a[10];\n"
                                  "out vec4 out_c[10];\nlayout(stream = 1) out vec4 out_b;\n",
                                  {}, desktop),
                          ErrorCode::InterleavedComponents);
    CHECK(contains(big, "out_a, out_c needs 80 components"));

    // More streams than buffers.
    Limits two_buffers = Limits::portable();
    two_buffers.maxSeparateAttribs = 2;
    auto msg = XFB_REQUIRE_ERROR(capture(kFourStreams, {}, two_buffers), ErrorCode::SeparateAttribs);
    CHECK(contains(msg, "4 vertex streams"));
}

TEST_CASE("a buffer receives one stream: XFB_LAYOUT_STREAM names both varyings") {
    // The shader's own xfb_buffer puts two streams into buffer 0.
    auto msg = XFB_REQUIRE_ERROR(capture(R"(#version 440 core
layout(points) in;
layout(points, max_vertices = 2) out;
layout(xfb_buffer = 0, xfb_offset = 0) out vec4 out_a;
layout(stream = 1, xfb_buffer = 0, xfb_offset = 16) out vec4 out_b;
)"),
                                 ErrorCode::LayoutStream);
    CHECK(contains(msg, "buffer 0"));
    CHECK(contains(msg, "'out_a' (stream 0, line 4)"));
    CHECK(contains(msg, "'out_b' (stream 1, line 5)"));
    // GL's list without gl_NextBuffer between the streams.
    msg = XFB_REQUIRE_ERROR(capture(kTwoStreams, list({"out_centroid", "out_normal", "gl_SkipComponents1"})),
                            ErrorCode::LayoutStream);
    CHECK(contains(msg, "'out_centroid' (stream 0"));
    CHECK(contains(msg, "'out_normal' (stream 1"));
    // With it, two buffers of one stream each.
    const CapturePlan ok = capture(kTwoStreams, list({"out_centroid", "gl_NextBuffer", "out_normal"}));
    REQUIRE(ok.buffers.size() == 2);
    CHECK(ok.buffers[1].stream == 1);
    // A Direct3D declaration with both streams in slot 0.
    XFB_REQUIRE_ERROR(capture(kTwoStreams, declared({field("out_area"), field("out_face")})), ErrorCode::LayoutStream);
    CHECK(capture(kTwoStreams, declared({field("out_area"), field("out_face", 0, 0, 1)})).buffers[1].stream == 1);
}

TEST_CASE("planGeometry reads the primitives, max_vertices, invocations and the captured streams") {
    const GeometryPlan two = geometryPlan(kTwoStreams);
    CHECK(two.input == GeometryInput::Triangles);
    CHECK(two.output == GeometryOutput::Points);
    CHECK(two.maxVertices == 3);
    CHECK(two.invocations == 2);
    CHECK(two.streamCount == 2);
    CHECK(two.inputLine == 2);
    CHECK(two.outputLine == 3);
    CHECK(two.capturedPrimitive() == DrawMode::Points);
    REQUIRE(two.streams.size() == 2);
    CHECK(two.streams[1].stream == 1);
    CHECK(two.streams[1].buffers == std::vector<int>{1});
    CHECK(two.streams[0].maxRecordsPerInvocation == 3);
    CHECK(two.find(1) == &two.streams[1]);
    CHECK(two.find(2) == nullptr);

    const GeometryPlan fins = geometryPlan(kFins);
    CHECK(fins.invocations == 1);
    CHECK(fins.capturedPrimitive() == DrawMode::Lines);
    CHECK(fins.streams[0].maxPrimitivesPerInvocation == 5); // a strip of 6 vertices: 5 lines
    CHECK(fins.streams[0].maxRecordsPerInvocation == 10);
    const GeometryPlan strip =
        geometryPlan(withLayout("layout(lines) in; layout(triangle_strip, max_vertices = 4) out;"));
    CHECK(strip.capturedPrimitive() == DrawMode::Triangles);
    CHECK(strip.streams[0].maxRecordsPerInvocation == 6); // 2 triangles

    CHECK(geometryPlan(kFourStreams).streamCount == 4);
    CHECK(geometryPlan(kFourStreams).streams.size() == 4);
    CHECK(geometryInputName(GeometryInput::TrianglesAdjacency) == "triangles_adjacency");
    CHECK(geometryOutputName(GeometryOutput::LineStrip) == "line_strip");
}

TEST_CASE("planGeometry refuses what it cannot budget: XFB_GEOMETRY_LAYOUT and XFB_GEOMETRY_STREAM") {
    auto msg =
        XFB_REQUIRE_ERROR(geometryPlan(withLayout("layout(points, max_vertices = 1) out;")), ErrorCode::GeometryLayout);
    CHECK(contains(msg, "no input primitive"));
    msg = XFB_REQUIRE_ERROR(geometryPlan(withLayout("layout(triangles) in;")), ErrorCode::GeometryLayout);
    CHECK(contains(msg, "no output primitive"));
    msg = XFB_REQUIRE_ERROR(geometryPlan(withLayout("layout(triangles) in; layout(points) out;")),
                            ErrorCode::GeometryLayout);
    CHECK(contains(msg, "no max_vertices"));
    msg = XFB_REQUIRE_ERROR(
        geometryPlan(withLayout("layout(triangles_adjacency) in; layout(points, max_vertices = 1) out;")),
        ErrorCode::GeometryLayout);
    CHECK(contains(msg, "adjacency"));
    msg = XFB_REQUIRE_ERROR(geometryPlan(withLayout("layout(triangles) in; layout(points, max_vertices = 257) out;")),
                            ErrorCode::GeometryLayout);
    CHECK(contains(msg, "max_vertices = 257 is outside 1..256"));
    msg = XFB_REQUIRE_ERROR(
        geometryPlan(withLayout("layout(triangles, invocations = 33) in; layout(points, max_vertices = 1) out;")),
        ErrorCode::GeometryLayout);
    CHECK(contains(msg, "invocations = 33 is outside 1..32"));
    msg = XFB_REQUIRE_ERROR(
        geometryPlan(withLayout("layout(triangles) in; layout(points) in; layout(points, max_vertices = 1) "
                                "out;")),
        ErrorCode::GeometryLayout);
    CHECK(contains(msg, "declared twice"));
    // 3 components x 342 vertices = 1026 > 1024.
    GeometryLimits big;
    big.maxOutputVertices = 1024;
    msg = XFB_REQUIRE_ERROR(
        geometryPlan(withLayout("layout(triangles) in; layout(points, max_vertices = 342) out;"), {}, big),
        ErrorCode::GeometryLayout);
    CHECK(contains(msg, "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS"));
    // Several streams need points.
    msg = XFB_REQUIRE_ERROR(
        geometryPlan("#version 400 core\nlayout(points) in;\nlayout(line_strip, max_vertices = 2) out;\n"
                     "out vec4 out_a;\nlayout(stream = 1) out vec4 out_b;\n"),
        ErrorCode::GeometryLayout);
    CHECK(contains(msg, "line 3"));
    CHECK(contains(msg, "'out_b' on stream 1"));
    // OpenGL ES 3.2 has one stream.
    GeometryLimits es32;
    es32.maxStreams = 1;
    msg = XFB_REQUIRE_ERROR(geometryPlan(kTwoStreams, {}, es32), ErrorCode::GeometryStream);
    CHECK(contains(msg, "'out_normal' (line 8) is emitted to stream 1"));
    CHECK(contains(msg, "stream 0 only"));
    CHECK(contains(msg, "desktop GL 4.0+"));
    msg =
        XFB_REQUIRE_ERROR(geometryPlan(kFourStreams, {}, GeometryLimits{256, 32, 3, 1024}), ErrorCode::GeometryStream);
    CHECK(contains(msg, "stream 3"));
    CHECK(contains(msg, "GL_MAX_VERTEX_STREAMS = 3"));
}

TEST_CASE("the budget of a draw: max_vertices x invocations x input primitives, per stream and buffer") {
    const GeometryInterface s = geometry(kTwoStreams);
    const CapturePlan c = planGeometryCapture(s.shader, {}, Limits::portable());
    const GeometryPlan g = planGeometry(s, c);
    // A 5-vertex strip: 3 triangles, 2 invocations each, up to 3 points to each stream.
    const CaptureCount b = countGeometryCapture({DrawMode::TriangleStrip, 5}, g, c);
    CHECK(b.inputPrimitives == 3);
    CHECK(b.primitive == DrawMode::Points);
    REQUIRE(b.streams.size() == 2);
    CHECK(b.streams[0].records == 18);
    CHECK(b.streams[1].primitives == 18);
    CHECK(b.bytes == std::vector<std::uint64_t>{18 * 20, 18 * 16});
    CHECK(b.records == 36);
    // Indexed, with restart: 2 triangles.
    CHECK(countGeometryCapture({DrawMode::Triangles, 0, {0, 1, 2, 9, 3, 4, 5}, 9u}, g, c).inputPrimitives == 2);

    // Lines out: fins of 6 vertices per triangle, 10 records each.
    const GeometryInterface f = geometry(kFins);
    const CapturePlan fc = planGeometryCapture(f.shader, {}, Limits::portable());
    const GeometryPlan fg = planGeometry(f, fc);
    const CaptureCount fins = countGeometryCapture({DrawMode::Triangles, 6}, fg, fc);
    CHECK(fins.primitive == DrawMode::Lines);
    CHECK(fins.streams[0].primitives == 10);
    CHECK(fins.records == 20);
    CHECK(fins.bytes == std::vector<std::uint64_t>{240});

    // The draw must give the shader its input primitive.
    auto msg = XFB_REQUIRE_ERROR(countGeometryCapture({DrawMode::LineStrip, 4}, g, c), ErrorCode::GeometryInput);
    CHECK(contains(msg, "line_strip gives the geometry shader lines, but it takes triangles (line 2)"));
    XFB_REQUIRE_ERROR(countGeometryCapture({DrawMode::Points, -1}, geometryPlan(kFourStreams), capture(kFourStreams)),
                      ErrorCode::InvalidArgument);
    XFB_REQUIRE_ERROR(
        countGeometryCapture({DrawMode::Points, INT64_MAX}, geometryPlan(kFourStreams), capture(kFourStreams)),
        ErrorCode::BufferTooLarge);

    // Capacity: buffer 1 (stream 1) one record short.
    checkGeometryCapacity(b, g, c, std::vector<std::uint64_t>{360, 288});
    msg = XFB_REQUIRE_ERROR(checkGeometryCapacity(b, g, c, std::vector<std::uint64_t>{360, 272}), ErrorCode::Capacity);
    CHECK(contains(msg, "output buffer 1 (stream 1) holds 272 bytes (17 records)"));
    CHECK(contains(msg, "18 records of 16 bytes = 288 bytes"));
    CHECK(contains(msg, "3 input primitives x 2 invocations x 3 records (max_vertices 3 as points)"));

    // A compute capture counts in 32 bits: 2^30 triangles x 2 invocations x 3 records is over.
    CHECK(overComputeCounts(b) == nullptr);
    const CaptureCount wide = countGeometryCapture({DrawMode::Triangles, std::int64_t(3) << 30}, g, c);
    REQUIRE(overComputeCounts(wide) != nullptr);
    CHECK(overComputeCounts(wide)->stream == 0);
    msg = XFB_REQUIRE_ERROR(checkComputeCounts(wide), ErrorCode::BufferTooLarge);
    CHECK(contains(msg, "stream 0 can receive 6442450944 records, but the compute capture counts them in 32 bits"));

    // What a compute capture may write per stream: whole primitives of the smallest buffer, 32-bit.
    CHECK(geometryStreamCapacities(g, c, std::vector<std::uint64_t>{360, 272}) == std::vector<std::int64_t>{18, 17});
    CHECK(geometryStreamCapacities(fg, fc, std::vector<std::uint64_t>{236}) ==
          std::vector<std::int64_t>{18}); // 19 -> 9 lines
    CHECK(geometryStreamCapacities(g, c, std::vector<std::uint64_t>{UINT64_MAX, 0}) ==
          std::vector<std::int64_t>{std::int64_t(UINT32_MAX), 0});
}

TEST_CASE("the driver's list for a geometry program: names, gl_NextBuffer per stream, gl_SkipComponents") {
    auto names = [](const plan::DriverList& l) {
        std::vector<std::string> out;
        for (const auto& d : l.varyings) out.push_back(d.name);
        return out;
    };
    const CapturePlan two = capture(kTwoStreams);
    CHECK(names(plan::geometryDriverList(two, true)) ==
          std::vector<std::string>{"out_centroid", "out_area", "gl_NextBuffer", "out_normal", "out_face"});
    auto msg = XFB_REQUIRE_ERROR(plan::geometryDriverList(two, false), ErrorCode::Unsupported);
    CHECK(contains(msg, "2 buffers in interleaved mode"));
    // Separate mode: one name each, no words.
    const plan::DriverList sep = plan::geometryDriverList(capture(kTwoStreams, {CaptureMode::Separate}), false);
    CHECK_FALSE(sep.interleaved);
    CHECK(sep.varyings.size() == 4);
    // A declared gap and padding.
    const CapturePlan gaps = capture(kTwoStreams, declared({field("out_centroid"), DeclaredEntry::gap(2),
                                                            field("out_area"), field("out_normal", 0, 0, 1)},
                                                           {32, 16}));
    CHECK(names(plan::geometryDriverList(gaps, true)) ==
          std::vector<std::string>{"out_centroid", "gl_SkipComponents2", "out_area", "gl_SkipComponents1",
                                   "gl_NextBuffer", "out_normal", "gl_SkipComponents1"});
    // Part of a varying is not captured by a geometry program.
    msg =
        XFB_REQUIRE_ERROR(plan::geometryDriverList(capture(kTwoStreams, declared({field("out_centroid", 1, 2)})), true),
                          ErrorCode::Unsupported);
    CHECK(contains(msg, "part of 'out_centroid'"));
}
