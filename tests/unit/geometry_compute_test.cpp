// The compute translation of geometry programs (translateGeometryToCompute) is pure: its kernels
// are checked here as text; that they write the same bytes and statistics as the GL's geometry
// shader is checked on the GPU (tests/gl/geometry_test.cpp, requireSameBothWays).
#include "geometry_program.hpp"
#include "test_util.hpp"
#include "xfb/compute_translation.hpp"

using namespace xfb;

namespace {

const char* const kTwoStreams = xfbtest::kTwoStreamsGeometry;

const char* kVertex = R"(#version 330 core
in vec4 a_position;
out vec4 v_position;
flat out int v_id;
out vec2 v_unused;
void main() { v_position = a_position; v_id = gl_VertexID; v_unused = vec2(0.0); gl_Position = a_position; }
)";

struct Translated {
    GeometryComputeShaders shaders;
    CapturePlan capture;
    bool count(const std::string& s) const { return shaders.countSource.find(s) != std::string::npos; }
    bool write(const std::string& s) const { return shaders.writeSource.find(s) != std::string::npos; }
    bool both(const std::string& s) const { return count(s) && write(s); }
};

Translated translate(const std::string& geometry, CaptureOptions options = {}, const std::string& vertex = kVertex) {
    const xfbtest::PlannedGeometry p = xfbtest::planGeometryProgram(vertex, geometry, options);
    return {translateGeometryToCompute(vertex, geometry, {}, p.pass, p.capture, p.plan, p.entries.size()), p.capture};
}

} // namespace

TEST_CASE("a geometry shader in compute: inputs sized per input vertex, builtins and emits renamed") {
    const Translated t = translate(kTwoStreams);
    CHECK(t.shaders.inputVertices == 3);
    CHECK(t.both("\nvec4 v_position [ 3 ] ;")); // unsized: one element per vertex of a triangle
    CHECK(t.both("\nint v_id [ 3 ] ;"));
    CHECK(t.both("\nvec4 out_centroid ;")); // the stream qualifier dropped: a plain global
    CHECK(t.both("xfb_emit_stream_vertex ( 0 ) ;"));
    CHECK(t.both("xfb_end_stream_primitive ( 0 ) ;"));
    CHECK(t.both("xfb_primitive_id_in % 2 == 1"));
    CHECK(t.both("float ( xfb_invocation_id )"));
    CHECK(t.both("void xfb_user_main ( )"));
    // Items in the GL's order: primitive-major, invocation-minor.
    CHECK(t.both("uint xfb_p = xfb_i / 3u;"));
    CHECK(t.both("xfb_invocation_id = int(xfb_i % 3u);"));
    // Inputs from the scratch records of the vertex pass, at each vertex of the primitive.
    CHECK(t.both("uint xfb_v = xfb_sources[xfb_p * 3u + xfb_j];"));
    CHECK(t.both("v_position[xfb_j] = vec4(uintBitsToFloat(xfb_scratch[xfb_v * 5u + 0u])"));
    CHECK(t.both("v_id[xfb_j] = int(xfb_scratch[xfb_v * 5u + 4u]);"));
    // max_vertices over all streams.
    CHECK(t.both("if (xfb_vertices >= 2u) return;"));
}

TEST_CASE("the vertex pass writes what the geometry shader reads, by name, into one scratch record") {
    const Translated t = translate(kTwoStreams);
    REQUIRE(t.shaders.scratch.buffers.size() == 1);
    CHECK(t.shaders.scratchStride == 20); // v_position, v_id: v_unused is not read
    REQUIRE(t.shaders.scratch.varyings.size() == 2);
    CHECK(t.shaders.scratch.varyings[0].name == "v_position");
    CHECK(t.shaders.scratch.varyings[1].name == "v_id");
    // Entry 2 (one input + two outputs before it) is the scratch buffer of the vertex pass.
    REQUIRE(t.shaders.vertex.writeBinding.size() == 4);
    CHECK(t.shaders.vertex.writeBinding[3] >= 0);
    CHECK(t.shaders.vertex.writeBinding[1] == -1);
    CHECK(t.shaders.vertex.source.find("xfb_vertex_id") != std::string::npos);
    // gl_in[] reads gl_Position too.
    const Translated in = translate(R"(#version 400 core
layout(points) in;
layout(points, max_vertices = 1) out;
out vec4 out_p;
void main() { out_p = gl_in[0].gl_Position; EmitVertex(); }
)");
    CHECK(in.shaders.scratch.varyings.back().name == "gl_Position");
    CHECK(in.write("out_p = xfb_in [ 0 ] . xfb_position ;"));
    CHECK(in.write("xfb_in[xfb_j].xfb_position = vec4("));
}

TEST_CASE("per stream a count, a prefix sum and records: bindings, counts and stores") {
    const Translated t = translate(kTwoStreams);
    REQUIRE(t.capture.buffers.size() == 2);
    CHECK(t.shaders.countsBinding.size() == 2); // per stream
    CHECK(t.shaders.firstBinding.size() == 2);
    CHECK(t.shaders.outputBinding.size() == 2); // per buffer
    CHECK(t.shaders.bindingCount == 6);         // scratch, sources, 2 outputs, 2 firsts
    // The count pass: every stream's records per item, 0 past the draw's items.
    CHECK(t.count("xfb_emitted0[xfb_i] = xfb_records[0];"));
    CHECK(t.count("xfb_emitted1[xfb_i] = xfb_records[1];"));
    CHECK(t.count("if (xfb_i >= xfb_items) { xfb_emitted0[xfb_i] = 0u; xfb_emitted1[xfb_i] = 0u; return; }"));
    CHECK_FALSE(t.count("xfb_b0["));
    // The write pass: records at the stream's first + its running count, within its capacity.
    CHECK(t.write("xfb_first[1] = xfb_first1[xfb_i];"));
    CHECK(t.write("uint xfb_r = xfb_first[1] + xfb_records[1];"));
    CHECK(t.write("if (xfb_r < xfb_capacity[1]) xfb_store1(xfb_r, xfb_cur);"));
    CHECK(t.write("xfb_b1[r * 4u + 3u] = w[3];")); // out_face after the vec3 normal
    CHECK(t.write("w[3] = uint(out_face);"));
    CHECK(t.write("w[0] = floatBitsToUint(out_normal[0]);"));
    // ES: the ES 3.10 header.
    CHECK(t.shaders.countSource.starts_with("#version 430\n"));
}

TEST_CASE("strips closed into lists: lines from the 2nd vertex, triangles in the GL's winding, whole ones kept") {
    const Translated lines = translate(R"(#version 400 core
layout(lines) in;
layout(line_strip, max_vertices = 4) out;
in vec4 v_position[];
out vec4 out_p;
void main() { for (int i = 0; i < 2; ++i) { out_p = v_position[i]; EmitVertex(); } EndPrimitive(); }
)");
    CHECK(lines.shaders.inputVertices == 2);
    CHECK(lines.both("\nvec4 v_position [ 2 ] ;"));
    CHECK(lines.count("if (xfb_strip >= 1u) xfb_records[0] += 2u;"));
    CHECK(lines.write("if (xfb_r + 2u <= xfb_capacity[0]) {"));
    CHECK(lines.write("xfb_store0(xfb_r, xfb_prev1_0);"));
    CHECK(lines.write("xfb_store0(xfb_r + 1u, xfb_cur);"));
    CHECK(lines.both("xfb_end_primitive ( ) ;"));
    CHECK(lines.both("if (xfb_s == 0) xfb_strip = 0u;"));
    const Translated triangles = translate(R"(#version 400 core
layout(points) in;
layout(triangle_strip, max_vertices = 5) out;
in vec4 v_position[];
out vec4 out_p;
void main() { for (int i = 0; i < 5; ++i) { out_p = v_position[0] + vec4(float(i)); EmitVertex(); } }
)");
    CHECK(triangles.count("if (xfb_strip >= 2u) xfb_records[0] += 3u;"));
    // Odd triangles swap their first two vertices (the one description of geometry_emit.hpp: as WGSL's).
    CHECK(triangles.write("if ((xfb_strip & 1u) == 1u) {\n                xfb_store0(xfb_r, xfb_prev1_0);\n"
                          "                xfb_store0(xfb_r + 1u, xfb_prev2_0);\n            } else {\n"
                          "                xfb_store0(xfb_r, xfb_prev2_0);\n"
                          "                xfb_store0(xfb_r + 1u, xfb_prev1_0);"));
    CHECK(triangles.write("xfb_store0(xfb_r + 2u, xfb_cur);"));
    CHECK(triangles.write("xfb_prev2_0 = xfb_prev1_0;"));
}

TEST_CASE("geometry constructs without a compute equivalent are XFB_COMPUTE_TRANSLATION, naming them") {
    auto gs = [](const std::string& body, const std::string& decl = "in vec4 v_position[];\n") {
        return "#version 400 core\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n" + decl +
               "out vec4 out_p;\nvoid main() {\n" + body + "\n}\n";
    };
    std::string msg = XFB_REQUIRE_ERROR(translate(gs("out_p = vec4(1.0); gl_Layer = 1; EmitVertex();")),
                                        ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "line 7: 'gl_Layer' has no equivalent in a compute shader"));
    msg = XFB_REQUIRE_ERROR(translate(gs("out_p = vec4(float(gl_PrimitiveID)); EmitVertex();")),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "'gl_PrimitiveID'"));
    msg = XFB_REQUIRE_ERROR(translate(gs("out_p = v_missing[0]; EmitVertex();", "in vec4 v_missing[];\n")),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "input 'v_missing[]' has no vertex-shader output 'v_missing' of type vec4"));
    msg = XFB_REQUIRE_ERROR(translate(gs("out_p = vec4(v_position[0].x); EmitVertex();", "in ivec4 v_position[];\n")),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "of type ivec4"));
    msg = XFB_REQUIRE_ERROR(translate(gs("out_p = m[0][0]; EmitVertex();", "in mat4 m[];\n")),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "input 'm' is not an array of scalars or vectors"));
    msg = XFB_REQUIRE_ERROR(translate(gs("float xfb_x = 1.0; out_p = vec4(xfb_x); EmitVertex();")),
                            ErrorCode::ComputeTranslation);
    CHECK(contains(msg, "reserved prefix xfb_"));
}
