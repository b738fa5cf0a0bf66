// A geometry program's compute passes, planned once for both emitters (geometry_compute_plan.hpp).
#include "geometry_compute_plan.hpp"

#include "xfb/error.hpp"
#include "xfb/glsl_dialect.hpp"

#include <algorithm>
#include <climits>

namespace xfb::plan {
namespace {

[[noreturn]] void untranslatable(int line, const std::string& what) {
    throw Error(ErrorCode::ComputeTranslation,
                "geometry shader" + (line ? " line " + std::to_string(line) : std::string()) + ": " + what);
}

std::string typeName(ScalarKind k, int n) {
    std::string scalar = k == ScalarKind::Int ? "int" : k == ScalarKind::UInt ? "uint" : "float";
    if (n == 1) return scalar;
    return (k == ScalarKind::Int ? "ivec" : k == ScalarKind::UInt ? "uvec" : "vec") + std::to_string(n);
}

} // namespace

GeometryComputePlan planGeometryCompute(std::string_view vertexSource, const ShaderInterface& gs, bool usesGlIn,
                                        const ReadOptions& read, const PassPlan& pass, const CapturePlan& capture,
                                        const GeometryPlan& geometry, std::size_t entryCount) {
    GeometryComputePlan p;
    p.inputVertices = geometry.input == GeometryInput::Points ? 1 : geometry.input == GeometryInput::Lines ? 2 : 3;
    p.primitiveVertices = verticesPerPrimitive(geometry.capturedPrimitive());
    p.usesGlIn = usesGlIn;

    // The vertex pass: the vertex shader's outputs the geometry shader reads, by name, in one
    // interleaved scratch record per vertex.
    const ShaderInterface vs = readShaderInterface(toGlslEs300(vertexSource), read);
    CaptureOptions scratchOptions;
    for (const Declaration& in : gs.inputs) {
        if (in.arraySize <= 0)
            untranslatable(in.line, "input '" + in.name +
                                        "' is not an array; a geometry shader's inputs are arrays "
                                        "of one element per input vertex");
        if (in.type.isMatrix() || in.type.components() < 1 || in.type.components() > 4)
            untranslatable(in.line, "input '" + in.name +
                                        "' is not an array of scalars or vectors; the compute translation reads "
                                        "those only: pass matrices as their columns");
        const Declaration* out = nullptr;
        for (const Declaration& o : vs.outputs)
            if (o.name == in.name) out = &o;
        if (!out || out->arraySize > 0 || out->type.components() != in.type.components() ||
            out->type.kind != in.type.kind)
            untranslatable(in.line, "input '" + in.name + "[]' has no vertex-shader output '" + in.name + "' of type " +
                                        typeName(in.type.kind, in.type.components()) +
                                        " to read (outputs and inputs match by name)");
        scratchOptions.varyings.push_back(in.name);
    }
    if (usesGlIn) scratchOptions.varyings.push_back("gl_Position");
    Limits unbounded;
    unbounded.maxInterleavedComponents = INT_MAX;
    unbounded.maxVaryingVectors = INT_MAX;
    if (!scratchOptions.varyings.empty()) {
        p.scratch = planCapture(vs, scratchOptions, unbounded);
        p.scratchStride = p.scratch.buffers[0].stride;
    }
    p.vertexPass = pass;
    p.vertexPass.outputs.clear();
    p.vertexPass.emitEntries.clear();
    if (p.scratchStride) p.vertexPass.outputs.push_back({int(entryCount), 0, p.scratchStride, 0});
    auto scratchWord = [&](const std::string& name) {
        for (const auto& f : p.scratch.buffers[0].fields)
            if (f.varying == name) return f.offset / 4;
        return 0;
    };
    for (const Declaration& in : gs.inputs) p.inputs.push_back({in, scratchWord(in.name)});
    if (usesGlIn) p.positionWord = scratchWord("gl_Position");

    // The count and write passes' bindings.
    const int streams = geometry.streamCount;
    int binding = 2;
    p.outputBinding.assign(capture.buffers.size(), -1);
    for (std::size_t b = 0; b < capture.buffers.size(); ++b) p.outputBinding[b] = binding++;
    for (int s = 0; s < streams; ++s) p.firstBinding.push_back(binding++);
    const int writeBindings = binding;
    binding = 2;
    for (int s = 0; s < streams; ++s) p.countsBinding.push_back(binding++);
    p.bindingCount = std::max(writeBindings, binding);

    // Per stream, the words of its record: every field of its buffers, in buffer order.
    for (int s = 0; s < streams; ++s) {
        GeometryComputeStream stream;
        if (const GeometryStream* captured = geometry.find(s)) {
            stream.captured = true;
            for (int b : captured->buffers) {
                const OutputLayout& layout = capture.buffers[std::size_t(b)];
                for (const BufferField& f : layout.fields)
                    for (int c = 0; c < f.components; ++c)
                        stream.words.push_back({b, layout.stride / 4, f.offset / 4 + c, f, c});
            }
        }
        p.streams.push_back(std::move(stream));
    }
    return p;
}

} // namespace xfb::plan
