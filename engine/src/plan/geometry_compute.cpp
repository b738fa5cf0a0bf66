// A geometry program as compute kernels (xfb/compute_translation.hpp, translateGeometryToCompute):
// the vertex pass (translateToCompute of the vertex shader into a scratch buffer), then the
// geometry shader's count pass and write pass around a prefix sum per vertex stream.
#include "xfb/compute_translation.hpp"

#include "compute_index.hpp"
#include "geometry_emit.hpp"
#include "geometry_compute_plan.hpp"
#include "translated_source.hpp"
#include "vertex_wrapper.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {
namespace {

std::string u(std::int64_t v) { return std::to_string(v) + "u"; }

std::string fromBits(ScalarKind kind, const std::string& bits) {
    if (kind == ScalarKind::Float) return "uintBitsToFloat(" + bits + ")";
    if (kind == ScalarKind::Int) return "int(" + bits + ")";
    return bits;
}

std::string typeName(ScalarKind k, int n) {
    std::string scalar = k == ScalarKind::Int ? "int" : k == ScalarKind::UInt ? "uint" : "float";
    if (n == 1) return scalar;
    return (k == ScalarKind::Int ? "ivec" : k == ScalarKind::UInt ? "uvec" : "vec") + std::to_string(n);
}

} // namespace

GeometryComputeShaders translateGeometryToCompute(std::string_view vertexSource, std::string_view geometrySource,
                                                  const ReadOptions& read, const PassPlan& pass,
                                                  const CapturePlan& capture, const GeometryPlan& geometry,
                                                  std::size_t entryCount, const GeometryComputeOptions& options) {
    if (options.workGroupSize <= 0 || options.vertexGroupSize <= 0)
        throw Error(ErrorCode::InvalidArgument, "work-group size must be > 0");
    GeometryComputeShaders result;
    const plan::GeometryStage stage{geometry.input == GeometryInput::Points  ? 1
                                    : geometry.input == GeometryInput::Lines ? 2
                                                                             : 3};
    const plan::TranslatedSource gs =
        plan::translateSource(geometrySource, read, pass, capture, 1, false, "compute shader", &stage);
    const plan::GeometryComputePlan p =
        plan::planGeometryCompute(vertexSource, gs.shader, gs.usesGlIn, read, pass, capture, geometry, entryCount);
    const int V = p.inputVertices;
    result.inputVertices = V;

    // 1. The vertex pass: the vertex shader's outputs the geometry shader reads, by name, in one
    // interleaved scratch record per vertex.
    result.scratch = p.scratch;
    result.scratchStride = p.scratchStride;
    result.vertex = translateToCompute(vertexSource, read, p.vertexPass, result.scratch, entryCount + 1,
                                       {options.es, options.vertexGroupSize});
    const int scratchWords = result.scratchStride / 4;

    // 2., 3. The geometry kernels' bindings.
    const int streams = geometry.streamCount;
    result.outputBinding = p.outputBinding;
    result.firstBinding = p.firstBinding;
    result.countsBinding = p.countsBinding;
    result.scratchBinding = p.scratchBinding;
    result.sourcesBinding = p.sourcesBinding;
    result.bindingCount = std::max(p.bindingCount, result.vertex.bindingCount);

    std::string header = options.es ? "#version 310 es\n" : "#version 430\n";
    for (const auto& d : gs.pre.passThrough) header += d + "\n";
    header += "layout(local_size_x = " + std::to_string(options.workGroupSize) + ") in;\n";
    if (options.es) header += "precision highp float;\nprecision highp int;\n";
    header += "layout(std430, binding = " + std::to_string(result.scratchBinding) +
              ") readonly buffer xfb_scratch_words { uint xfb_scratch[]; };\n"
              "layout(std430, binding = " +
              std::to_string(result.sourcesBinding) +
              ") readonly buffer xfb_source_words { uint xfb_sources[]; };\n"
              "uniform uint xfb_count;\nuniform uint xfb_items;\n" +
              std::string(plan::kRenamedBuiltins) +
              "int xfb_primitive_id_in;\nint xfb_invocation_id;\n"
              "struct xfb_per_vertex { vec4 xfb_position; float xfb_point_size; };\nxfb_per_vertex xfb_in[" +
              std::to_string(V) +
              "];\n"
              "uint xfb_vertices;\nuint xfb_strip;\nuint xfb_records[" +
              std::to_string(streams) +
              "];\n"
              "void xfb_emit_stream_vertex(int xfb_s);\nvoid xfb_end_stream_primitive(int xfb_s);\n"
              "void xfb_emit_vertex() { xfb_emit_stream_vertex(0); }\n"
              "void xfb_end_primitive() { xfb_end_stream_primitive(0); }\n";
    std::string countHeader = header, writeHeader = header;
    for (int s = 0; s < streams; ++s) {
        countHeader += "layout(std430, binding = " + std::to_string(result.countsBinding[std::size_t(s)]) +
                       ") writeonly buffer xfb_counts" + std::to_string(s) + " { uint xfb_emitted" + std::to_string(s) +
                       "[]; };\n";
        writeHeader += "layout(std430, binding = " + std::to_string(result.firstBinding[std::size_t(s)]) +
                       ") readonly buffer xfb_firsts" + std::to_string(s) + " { uint xfb_first" + std::to_string(s) +
                       "[]; };\n";
    }
    for (std::size_t b = 0; b < capture.buffers.size(); ++b)
        writeHeader += "layout(std430, binding = " + std::to_string(result.outputBinding[b]) +
                       ") writeonly buffer xfb_buffer" + std::to_string(b) + " { uint xfb_b" + std::to_string(b) +
                       "[]; };\n";
    writeHeader += "uniform uint xfb_capacity[" + std::to_string(streams) + "];\nuint xfb_first[" +
                   std::to_string(streams) + "];\n";

    // EmitVertex() per stream: the records it adds (count pass), its record stored (write pass).
    const plan::GeometryEmitCode emit = plan::geometryEmitCode(
        plan::KernelLanguage::Glsl, p, capture, streams, geometry.maxVertices, "xfb_capacity", plan::capturedWordBits);
    writeHeader += emit.privates;

    // main(): the item's primitive and invocation, its vertices' inputs, the outputs zeroed, the
    // user's main().
    std::string load;
    const std::string vertexIndex = "xfb_sources[xfb_p * " + u(V) + " + xfb_j]";
    for (const plan::GeometryComputeInput& input : p.inputs) {
        const Declaration& in = input.declaration;
        const int w0 = input.scratchWord, n = in.type.components();
        std::string args;
        for (int c = 0; c < n; ++c)
            args += (c ? ", " : "") +
                    fromBits(in.type.kind, "xfb_scratch[xfb_v * " + u(scratchWords) + " + " + u(w0 + c) + "]");
        load += "        " + in.name + "[xfb_j] = " + (n == 1 ? args : typeName(in.type.kind, n) + "(" + args + ")") +
                ";\n";
    }
    if (p.usesGlIn) {
        const int w0 = p.positionWord;
        std::string args;
        for (int c = 0; c < 4; ++c)
            args += (c ? ", " : "") +
                    fromBits(ScalarKind::Float, "xfb_scratch[xfb_v * " + u(scratchWords) + " + " + u(w0 + c) + "]");
        load +=
            "        xfb_in[xfb_j].xfb_position = vec4(" + args + ");\n        xfb_in[xfb_j].xfb_point_size = 1.0;\n";
    }
    const plan::ZeroCode zero = plan::zeroOutputs(gs.shader, capture, "    ", plan::ZeroedOutputs::Declared,
                                                  [](const std::string& name) { return plan::heldName(name); });
    std::string prologue = "\nvoid main() {\n    uint xfb_i = " + std::string(plan::kFlatWorkGroup) +
                           " * gl_WorkGroupSize.x + gl_LocalInvocationID.x;\n    if (xfb_i >= xfb_count) return;\n";
    std::string countZero;
    for (int s = 0; s < streams; ++s) countZero += " xfb_emitted" + std::to_string(s) + "[xfb_i] = 0u;";
    std::string work = "    uint xfb_p = xfb_i / " + u(geometry.invocations) +
                       ";\n    xfb_primitive_id_in = int(xfb_p);\n    xfb_invocation_id = int(xfb_i % " +
                       u(geometry.invocations) + ");\n    for (uint xfb_j = 0u; xfb_j < " + u(V) +
                       "; ++xfb_j) {\n        uint xfb_v = " + vertexIndex + ";\n" + load +
                       "    }\n    xfb_vertices = 0u;\n    xfb_strip = 0u;\n";
    for (int s = 0; s < streams; ++s) work += "    xfb_records[" + std::to_string(s) + "] = 0u;\n";
    std::string countMain = prologue + "    if (xfb_i >= xfb_items) {" + countZero + " return; }\n" + work +
                            zero.statements + "    xfb_user_main();\n";
    for (int s = 0; s < streams; ++s)
        countMain += "    xfb_emitted" + std::to_string(s) + "[xfb_i] = xfb_records[" + std::to_string(s) + "];\n";
    countMain += "}\n";
    std::string writeMain = prologue + "    if (xfb_i >= xfb_items) return;\n" + work;
    for (int s = 0; s < streams; ++s)
        writeMain += "    xfb_first[" + std::to_string(s) + "] = xfb_first" + std::to_string(s) + "[xfb_i];\n";
    writeMain += zero.statements + "    xfb_user_main();\n}\n";

    const std::string body = "#line 1\n" + gs.body + "\n" + zero.functions;
    result.countSource = countHeader + body + emit.count + countMain;
    result.writeSource = writeHeader + body + emit.write + writeMain;
    return result;
}

} // namespace xfb
