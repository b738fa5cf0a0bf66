// The WGSL translation of geometry programs (translateGeometryToWgsl) is pure: its kernels are
// checked here as text, beside the GLSL ones (geometry_compute_test.cpp), from the same plan; that
// WebGPU writes the GL's bytes is checked in Chromium (tests/web/page/geometry.js, against the
// fixture tests/gl/web_geometry_fixture.cpp writes from the GL compute capture).
#include "geometry_program.hpp"
#include "test_util.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/wgsl_translation.hpp"

using namespace xfb;

namespace {

const char* const kTwoStreams = xfbtest::kTwoStreamsGeometry;

const char* kVertex = R"(#version 300 es
in vec4 a_position;
out vec4 v_position;
flat out int v_id;
void main() { v_position = a_position; v_id = gl_VertexID; gl_Position = a_position; }
)";

struct Both {
    WgslGeometryShaders wgsl;
    GeometryComputeShaders glsl;
    bool count(const std::string& s) const { return wgsl.countSource.find(s) != std::string::npos; }
    bool write(const std::string& s) const { return wgsl.writeSource.find(s) != std::string::npos; }
    bool both(const std::string& s) const { return count(s) && write(s); }
};

Both translate(const std::string& geometry, CaptureOptions options = {}, bool glsl = true) {
    const xfbtest::PlannedGeometry p = xfbtest::planGeometryProgram(kVertex, geometry, options);
    WgslTranslationOptions o;
    o.workGroupSize = 64;
    Both both{translateGeometryToWgsl(kVertex, geometry, {}, p.pass, p.capture, p.plan, p.entries.size(), o), {}};
    if (glsl)
        both.glsl = translateGeometryToCompute(kVertex, geometry, {}, p.pass, p.capture, p.plan, p.entries.size());
    return both;
}

// The WGSL kernels alone (the refusals of the WGSL side).
Both wgslOnly(const std::string& geometry) { return translate(geometry, {}, false); }

} // namespace

TEST_CASE("WGSL geometry kernels: the GLSL translation's plan, bindings and passes, in WGSL") {
    const Both t = translate(kTwoStreams);
    // The same scratch record and vertex pass as the GLSL kernels: v_position then v_id, 20 bytes.
    CHECK(t.wgsl.scratchStride == t.glsl.scratchStride);
    CHECK(t.wgsl.scratchStride == 20);
    CHECK(t.wgsl.vertex.writeBinding.back() >= 0);
    CHECK(t.wgsl.vertex.source.find("v_position") != std::string::npos);
    // The GLSL bindings shifted past the uniform buffer (binding 0).
    CHECK(t.wgsl.uniformBinding == 0);
    CHECK(t.wgsl.scratchBinding == t.glsl.scratchBinding + 1);
    CHECK(t.wgsl.sourcesBinding == t.glsl.sourcesBinding + 1);
    REQUIRE(t.wgsl.outputBinding.size() == 2);
    CHECK(t.wgsl.outputBinding == std::vector<int>{t.glsl.outputBinding[0] + 1, t.glsl.outputBinding[1] + 1});
    CHECK(t.wgsl.countsBinding == std::vector<int>{3, 4});
    CHECK(t.wgsl.firstBinding == std::vector<int>{5, 6});
    CHECK(t.wgsl.storageBuffers == 6); // scratch, sources, 2 outputs, 2 firsts
    CHECK(t.wgsl.inputVertices == 3);
    CHECK(t.wgsl.primitiveVertices == 1);
    // Items: primitive p = i / invocations, gl_InvocationID = i % invocations; inputs from the scratch.
    CHECK(t.both("let xfb_p = xfb_i / 3u;"));
    CHECK(t.both("xfb_invocation_id = i32(xfb_i % 3u);"));
    CHECK(t.both("let xfb_v = xfb_sources[xfb_p * 3u + xfb_j];"));
    CHECK(t.both("v_position[xfb_j] = bitcast<vec4<f32>>(vec4<u32>(xfb_scratch[xfb_v * 5u + 0u], "));
    CHECK(t.both("v_id[xfb_j] = bitcast<i32>(xfb_scratch[xfb_v * 5u + 4u]);"));
    CHECK(t.both("var<private> v_position: array<vec4<f32>, 3>;"));
    // The user's code through the WGSL translator: built-ins renamed, emits as calls.
    CHECK(t.both("xfb_emit_stream_vertex(i32(0));"));
    CHECK(t.both("xfb_end_stream_primitive(i32(0));"));
    CHECK(t.both("((xfb_primitive_id_in % 2) == 1)"));
    CHECK(t.both("f32(xfb_invocation_id)"));
    // max_vertices over all streams.
    CHECK(t.both("if (xfb_vertices >= 2u) {"));
    // Count pass: one record a point per stream, 0 past the draw's items.
    CHECK(t.count("xfb_emitted1[xfb_i] = 0u;"));
    CHECK(t.count("xfb_emitted1[xfb_i] = xfb_records[1];"));
    // Write pass: each stream's words in buffer order, stored within its capacity.
    CHECK(t.write("w[0] = bitcast<u32>(out_centroid[0]);"));
    CHECK(t.write("w[3] = bitcast<u32>(out_face);"));
    CHECK(t.write("xfb_b1[r * 4u + 3u] = w[3];"));
    CHECK(t.write("if (xfb_r < xfb_g.xfb_capacity[1]) {"));
    CHECK(t.write("xfb_first[1] = xfb_first1[xfb_i];"));
    CHECK_FALSE(t.count("xfb_b0"));
}

TEST_CASE("WGSL geometry kernels: strips closed into lists in the GL's order, gl_in, whole primitives") {
    const Both fins = translate(R"(#version 320 es
layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec4 v_position[];
out vec4 out_position;
void main() {
    for (int i = 0; i < 3; ++i) {
        out_position = gl_in[i].gl_Position;
        EmitVertex();
        out_position = v_position[(i + 1) % 3];
        EmitVertex();
        EndPrimitive();
    }
}
)");
    CHECK(fins.wgsl.primitiveVertices == 2);
    CHECK(fins.both("xfb_in[xfb_j].gl_Position = bitcast<vec4<f32>>("));
    CHECK(fins.both("out_position = xfb_in[i].gl_Position;"));
    CHECK(fins.count("if (xfb_strip >= 1u) {\n            xfb_records[0] += 2u;"));
    CHECK(fins.write("if (xfb_r + 2u <= xfb_g.xfb_capacity[0]) {\n            xfb_store0(xfb_r, xfb_prev1_0);\n"
                     "            xfb_store0(xfb_r + 1u, xfb_cur);"));
    CHECK(fins.both("xfb_end_stream_primitive(0);"));

    const Both strip = translate(R"(#version 320 es
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 out_position;
void main() {
    for (int k = 0; k < 4; ++k) { out_position = vec4(float(k)); EmitVertex(); }
}
)");
    CHECK(strip.wgsl.primitiveVertices == 3);
    CHECK(strip.wgsl.scratchStride == 0); // reads nothing of the vertex shader
    // Odd triangles k+1, k, k+2; even k, k+1, k+2.
    CHECK(strip.write("if ((xfb_strip & 1u) == 1u) {\n                xfb_store0(xfb_r, xfb_prev1_0);\n"
                      "                xfb_store0(xfb_r + 1u, xfb_prev2_0);"));
    CHECK(strip.write("xfb_store0(xfb_r + 2u, xfb_cur);"));
    CHECK(strip.write("xfb_prev2_0 = xfb_prev1_0;\n    xfb_prev1_0 = xfb_cur;"));
}

TEST_CASE("WGSL geometry kernels: refusals name the construct and its line") {
    // A geometry-shader sampler: the kernels bind no textures.
    CHECK(contains(XFB_REQUIRE_ERROR(wgslOnly(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
uniform highp sampler2D u_table;
out vec4 out_value;
void main() { out_value = texelFetch(u_table, ivec2(0), 0); EmitVertex(); }
)"),
                                     ErrorCode::ComputeTranslation),
                   "WGSL: line 4: sampler 'u_table' of the geometry shader"));
    // A geometry-shader uniform the WGSL uniform rules refuse, as for the vertex shader's.
    CHECK(contains(XFB_REQUIRE_ERROR(wgslOnly(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
uniform float u_weights[4];
out vec4 out_value;
void main() { out_value = vec4(u_weights[1]); EmitVertex(); }
)"),
                                     ErrorCode::ComputeTranslation),
                   "WGSL: line 4: uniform array 'u_weights' of float: WGSL uniform arrays need a 16-byte"));
    // gl_PrimitiveID names a rasterizer's state; the WGSL translator has no equivalent.
    CHECK(contains(XFB_REQUIRE_ERROR(wgslOnly(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
out vec4 out_value;
void main() { out_value = vec4(float(gl_PrimitiveID)); EmitVertex(); }
)"),
                                     ErrorCode::ComputeTranslation),
                   "'gl_PrimitiveID' has no equivalent"));
    // An input the vertex shader does not write: the shared plan's refusal.
    CHECK(contains(XFB_REQUIRE_ERROR(wgslOnly(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
in vec3 v_missing[];
out vec4 out_value;
void main() { out_value = vec4(v_missing[0], 1.0); EmitVertex(); }
)"),
                                     ErrorCode::ComputeTranslation),
                   "input 'v_missing[]' has no vertex-shader output"));
    // A stream argument that is no int.
    CHECK(contains(XFB_REQUIRE_ERROR(wgslOnly(R"(#version 400 core
layout(points) in;
layout(points, max_vertices = 1) out;
out vec4 out_value;
void main() { out_value = vec4(1.0); EmitStreamVertex(1.0); }
)"),
                                     ErrorCode::ComputeTranslation),
                   "'EmitStreamVertex()': the stream must be an int"));
}

TEST_CASE("WGSL geometry kernels: the geometry shader's uniforms join the kernels' uniform block") {
    // After the counts (32 bytes), by the vertex translation's layout rules: u_fin (float) at 32,
    // u_axis (vec3, 16-byte aligned) at 48, u_flip (bool: an i32) at 60, u_basis (mat2: two 8-byte
    // columns) at 64, u_rows (vec4[2]) at 80; 112 bytes in all.
    const Both t = translate(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
in vec4 v_position[];
uniform float u_fin;
uniform vec3 u_axis;
uniform bool u_flip;
uniform mat2 u_basis;
uniform vec4 u_rows[2];
out vec4 out_value;
void main() {
    vec2 b = u_basis * vec2(1.0, 0.0);
    out_value = v_position[0] + vec4(u_axis * u_fin, u_flip ? b.x : b.y) + u_rows[1];
    EmitVertex();
}
)");
    CHECK(t.both("struct XfbGeometryUniforms {\n    xfb_count: u32,\n    xfb_items: u32,\n    xfb_capacity: "
                 "vec4<u32>,\n    u_fin: f32,\n    u_axis: vec3<f32>,\n    u_flip: i32,\n    u_basis: "
                 "mat2x2<f32>,\n    @align(16) u_rows: array<vec4<f32>, 2>,\n};"));
    CHECK(t.both("(xfb_g.u_axis * xfb_g.u_fin)"));
    CHECK(t.both("(xfb_g.u_flip != 0)"));
    CHECK(t.both("xfb_g.u_rows[1]"));
    REQUIRE(t.wgsl.uniforms.size() == 5);
    std::vector<int> offsets;
    for (const WgslUniform& u : t.wgsl.uniforms) offsets.push_back(u.offset);
    CHECK(offsets == std::vector<int>{32, 48, 60, 64, 80});
    CHECK(t.wgsl.uniforms[3].columnStride == 8);
    CHECK(t.wgsl.uniforms[4].arrayStride == 16);
    CHECK(t.wgsl.uniformBytes == 112);
    // The vertex pass keeps its own block (the vertex shader declares none here).
    CHECK(t.wgsl.vertex.uniforms.empty());

    // None: the counts alone, 32 bytes.
    CHECK(translate(kTwoStreams).wgsl.uniformBytes == 32);
    CHECK(translate(kTwoStreams).wgsl.uniforms.empty());
}

TEST_CASE("WGSL geometry kernels: a uniform of both shaders is one value, two types fail as GL's link") {
    const char* vertex = R"(#version 300 es
in vec4 a_position;
uniform float u_length;
uniform vec2 u_offset;
out vec4 v_position;
void main() { v_position = a_position + vec4(u_offset, 0.0, 0.0) * u_length; gl_Position = a_position; }
)";
    auto run = [&](const std::string& geometry) {
        const GeometryInterface gs = readGeometryInterface(geometry);
        CapturePlan capture = planGeometryCapture(gs.shader, {}, Limits::portable());
        const GeometryPlan plan = planGeometry(gs, capture);
        const ShaderInterface vs = readShaderInterface(vertex);
        const auto attributes = planAttributes(vs, Limits::portable());
        std::vector<EntryDesc> entries{
            {BufferDesc{VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}}), 160}, std::nullopt}};
        for (const auto& b : capture.buffers)
            entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(), std::uint64_t(b.stride) * 10}});
        const PassPlan pass = planPass(attributes, capture, entries, std::int64_t(10), OutputSizing::PerDraw);
        return translateGeometryToWgsl(vertex, geometry, {}, pass, capture, plan, entries.size());
    };
    // Declared in both with one type: in both blocks, each at its own offset (the caller writes the value into both).
    const WgslGeometryShaders same = run(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
in vec4 v_position[];
uniform float u_length;
out vec4 out_value;
void main() { out_value = v_position[0] * u_length; EmitVertex(); }
)");
    REQUIRE(same.vertex.uniforms.size() == 2);
    CHECK(same.vertex.uniforms[0].name == "u_length");
    CHECK(same.vertex.uniforms[0].offset == 4);
    REQUIRE(same.uniforms.size() == 1);
    CHECK(same.uniforms[0].name == "u_length");
    CHECK(same.uniforms[0].offset == 32);
    CHECK(same.countSource.find("(v_position[0] * xfb_g.u_length)") != std::string::npos);
    // Two types: the GL's link fails (XFB_PROGRAM_LINK), before any kernel.
    CHECK(
        contains(XFB_REQUIRE_ERROR(run(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
uniform vec3 u_offset;
out vec4 out_value;
void main() { out_value = vec4(u_offset, 1.0); EmitVertex(); }
)"),
                                   ErrorCode::ProgramLink),
                 "uniform 'u_offset' is vec2 in the vertex shader (line 4) and vec3 in the geometry shader (line 4)"));
    // An array size is part of the type.
    CHECK(contains(XFB_REQUIRE_ERROR(run(R"(#version 320 es
layout(points) in;
layout(points, max_vertices = 1) out;
uniform float u_length[4];
out vec4 out_value;
void main() { out_value = vec4(u_length[0]); EmitVertex(); }
)"),
                                     ErrorCode::ProgramLink),
                   "'u_length' is float in the vertex shader (line 3) and float[4] in the geometry shader"));
}
