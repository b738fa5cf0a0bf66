#pragma once
// The planning both geometry translation tests (geometry_compute_test.cpp: GLSL compute,
// wgsl_geometry_test.cpp: WGSL) start from, and the two-stream shader they both translate.
#include "xfb/attribute_plan.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/pass_plan.hpp"

#include <string>
#include <vector>

namespace xfbtest {

/// Triangles in, invocations 3, the centroid to stream 0 and, for odd primitives, a normal and an
/// id to stream 1.
inline const char* kTwoStreamsGeometry = R"(#version 400 core
layout(triangles, invocations = 3) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
flat in int v_id[];
layout(stream = 0) out vec4 out_centroid;
layout(stream = 1) out vec3 out_normal;
layout(stream = 1) flat out int out_face;
void main() {
    out_centroid = v_position[0] + v_position[1] + v_position[2];
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    if (gl_PrimitiveIDIn % 2 == 1) {
        out_normal = vec3(float(gl_InvocationID));
        out_face = v_id[0];
        EmitStreamVertex(1);
    }
}
)";

/// A geometry program planned as a capture of 10 input vertices (one vec4 input buffer, one
/// output buffer of 10 records per captured buffer): what the translations take.
struct PlannedGeometry {
    xfb::CapturePlan capture;
    xfb::GeometryPlan plan;
    std::vector<xfb::EntryDesc> entries;
    xfb::PassPlan pass;
};

inline PlannedGeometry planGeometryProgram(const std::string& vertex, const std::string& geometry,
                                           const xfb::CaptureOptions& options) {
    using namespace xfb;
    PlannedGeometry p;
    const GeometryInterface gs = readGeometryInterface(geometry);
    p.capture = planGeometryCapture(gs.shader, options, Limits::portable());
    p.plan = planGeometry(gs, p.capture);
    const auto attributes = planAttributes(readShaderInterface(vertex), Limits::portable());
    p.entries.push_back(
        {BufferDesc{VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}}), 160}, std::nullopt});
    for (const auto& b : p.capture.buffers)
        p.entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(), std::uint64_t(b.stride) * 10}});
    p.pass = planPass(attributes, p.capture, p.entries, std::int64_t(10), OutputSizing::PerDraw);
    return p;
}

} // namespace xfbtest
