#pragma once
// Internal: a geometry program's EmitVertex() / EndPrimitive() as compute code, one description
// printed in GLSL (geometry_compute.cpp, translateGeometryToCompute) or WGSL (wgsl_geometry.cpp,
// translateGeometryToWgsl): max_vertices, per vertex stream the records a vertex adds (the count
// pass) or its record gathered from the current outputs and stored (the write pass), a strip's
// primitives closed at its 2nd / 3rd vertex and triangulated as the GL does.
#include "geometry_compute_plan.hpp"
#include "kernel_text.hpp"

#include <string>

namespace xfb::plan {

struct GeometryEmitCode {
    std::string count; ///< the count pass's xfb_emit_stream_vertex() and xfb_end_stream_primitive()
    std::string write; ///< the write pass's: xfb_gather<s>, xfb_store<s>, xfb_emit<s> per captured stream first
    std::string
        privates; ///< the write pass's module-scope state: a strip's last records (xfb_prev1_<s>, xfb_prev2_<s>)
};

/// The names the code uses and the kernels declare: xfb_vertices, xfb_strip, xfb_records[stream]
/// (counters the entry point zeroes), xfb_first[stream] (the write pass's first record per stream),
/// `capacity[stream]` (records a stream holds), the output buffers `xfb_b<buffer>` as u32 words;
/// the captured outputs are read from the variables the user's code writes (capturedWordBits() /
/// wgslCapturedWord(), given as `word`: the caller's language, so a build that prints one links only it).
GeometryEmitCode geometryEmitCode(KernelLanguage language, const GeometryComputePlan& plan, const CapturePlan& capture,
                                  int streams, int maxVertices, const std::string& capacity,
                                  std::string (*word)(const CapturePlan&, const BufferField&, int component));

} // namespace xfb::plan
