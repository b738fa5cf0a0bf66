#include "xfb/geometry_plan.hpp"

#include "declared_layout.hpp"
#include "vertex_wrapper.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <string>

namespace xfb {

std::string_view geometryInputName(GeometryInput g) { return enumName(geometryInputNames, g); }
std::string_view geometryOutputName(GeometryOutput g) { return enumName(geometryOutputNames, g); }

DrawMode GeometryPlan::capturedPrimitive() const {
    switch (output) {
        case GeometryOutput::Points: return DrawMode::Points;
        case GeometryOutput::LineStrip: return DrawMode::Lines;
        case GeometryOutput::TriangleStrip: return DrawMode::Triangles;
    }
    return DrawMode::Points;
}

const GeometryStream* GeometryPlan::find(int stream) const {
    for (const auto& s : streams)
        if (s.stream == stream) return &s;
    return nullptr;
}

GeometryInput geometryInputOf(DrawMode mode) {
    switch (capturedPrimitive(mode)) {
        case DrawMode::Points: return GeometryInput::Points;
        case DrawMode::Lines: return GeometryInput::Lines;
        default: return GeometryInput::Triangles;
    }
}

namespace {

[[noreturn]] void layoutError(int line, const std::string& what) {
    throw Error(ErrorCode::GeometryLayout,
                "geometry shader" + (line ? " line " + std::to_string(line) : std::string()) + ": " + what);
}

std::string lineText(int line) { return line ? " (line " + std::to_string(line) + ")" : ""; }

} // namespace

namespace {
// A buffer receives one vertex stream (GL 4.0, ARB_transform_feedback3: the link fails otherwise).
void assignStreams(CapturePlan& plan) {
    for (auto& buffer : plan.buffers) {
        const CapturedVarying* first = nullptr;
        for (const auto& f : buffer.fields) {
            auto it = std::find_if(plan.varyings.begin(), plan.varyings.end(),
                                   [&](const CapturedVarying& v) { return v.name == f.varying; });
            if (it == plan.varyings.end()) continue;
            const CapturedVarying* v = &*it;
            if (!first) {
                first = v;
                buffer.stream = v->stream;
            } else if (v->stream != first->stream) {
                auto at = [](const CapturedVarying* x) {
                    return "'" + x->name + "' (stream " + std::to_string(x->stream) +
                           (x->line ? ", line " + std::to_string(x->line) : "") + ")";
                };
                throw Error(ErrorCode::LayoutStream,
                            "transform-feedback buffer " + std::to_string(buffer.binding) + " would receive " +
                                at(first) + " and " + at(v) +
                                ": a buffer receives the vertices of one stream only. Put each stream's varyings "
                                "in buffers of their own (xfb_buffer, gl_NextBuffer, the declaration's buffer)");
            }
        }
    }
}
} // namespace

CapturePlan planGeometryCapture(const ShaderInterface& geometry, const CaptureOptions& options, const Limits& limits) {
    if (options.mode == CaptureMode::Separate || plan::declaresLayout(geometry, options)) {
        CapturePlan plan = planCapture(geometry, options, limits);
        assignStreams(plan);
        return plan;
    }
    // Every name checked (unknown, duplicate, type) and given its stream, whatever the sizes...
    Limits unbounded = limits;
    unbounded.maxInterleavedComponents = INT_MAX;
    const CapturePlan whole = planCapture(geometry, options, unbounded);
    std::vector<int> streams;
    for (const auto& v : whole.varyings) streams.push_back(v.stream);
    std::sort(streams.begin(), streams.end());
    streams.erase(std::unique(streams.begin(), streams.end()), streams.end());
    if (int(streams.size()) > std::max(1, limits.maxSeparateAttribs))
        throw Error(ErrorCode::SeparateAttribs,
                    "interleaved capture of " + std::to_string(streams.size()) +
                        " vertex streams needs a buffer each, but MAX_TRANSFORM_FEEDBACK_BUFFERS (here "
                        "MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS) is " +
                        std::to_string(limits.maxSeparateAttribs) + "; capture fewer streams");
    // ...then one buffer per stream, each planned (and checked against the limits) alone.
    CapturePlan plan{CaptureMode::Interleaved, {}, {}, false};
    for (int stream : streams) {
        CaptureOptions one = options;
        one.varyings.clear();
        for (const auto& v : whole.varyings)
            if (v.stream == stream) one.varyings.push_back(v.name);
        CapturePlan part = planCapture(geometry, one, limits);
        part.buffers[0].binding = int(plan.buffers.size());
        part.buffers[0].stream = stream;
        plan.varyings.insert(plan.varyings.end(), part.varyings.begin(), part.varyings.end());
        plan.buffers.push_back(std::move(part.buffers[0]));
    }
    return plan;
}

GeometryPlan planGeometry(const GeometryInterface& geometryInterface, const CapturePlan& capture,
                          const GeometryLimits& limits) {
    const ShaderInterface& geometry = geometryInterface.shader;
    GeometryPlan plan;
    std::optional<GeometryInput> input;
    std::optional<GeometryOutput> output;
    std::optional<int> maxVertices, invocations;
    int maxVerticesLine = 0, invocationsLine = 0;
    for (const LayoutDefault& d : geometryInterface.layoutDefaults) {
        for (const std::string& id : d.identifiers) {
            if (d.storage == StorageQualifier::In) {
                if (auto g = enumFromName<GeometryInput>(geometryInputNames, id)) {
                    if (input && *input != *g)
                        layoutError(d.line, "the input primitive is declared twice, as " +
                                                std::string(geometryInputName(*input)) + " (line " +
                                                std::to_string(plan.inputLine) + ") and as " + id);
                    input = g;
                    plan.inputLine = d.line;
                }
            } else if (auto g = enumFromName<GeometryOutput>(geometryOutputNames, id)) {
                if (output && *output != *g)
                    layoutError(d.line, "the output primitive is declared twice, as " +
                                            std::string(geometryOutputName(*output)) + " (line " +
                                            std::to_string(plan.outputLine) + ") and as " + id);
                output = g;
                plan.outputLine = d.line;
            }
        }
        for (const auto& [name, value] : d.values) {
            if (name == "max_vertices" && d.storage == StorageQualifier::Out) {
                maxVertices = value;
                maxVerticesLine = d.line;
            } else if (name == "invocations" && d.storage == StorageQualifier::In) {
                invocations = value;
                invocationsLine = d.line;
            }
        }
    }
    if (!input)
        layoutError(0, "no input primitive: declare one, e.g. `layout(triangles) in;` (points, lines, triangles; "
                       "lines_adjacency and triangles_adjacency have no draw mode in xfb)");
    if (*input == GeometryInput::LinesAdjacency || *input == GeometryInput::TrianglesAdjacency)
        layoutError(plan.inputLine, "the input primitive " + std::string(geometryInputName(*input)) +
                                        " needs an adjacency draw mode, which xfb's draws (points, lines, line strips "
                                        "and loops, triangles, strips and fans) do not have; take points, lines or "
                                        "triangles");
    if (!output)
        layoutError(0, "no output primitive: declare one with max_vertices, e.g. `layout(points, max_vertices = 4) "
                       "out;` (points, line_strip or triangle_strip)");
    if (!maxVertices)
        layoutError(plan.outputLine, "no max_vertices: declare it with the output primitive, e.g. `layout(" +
                                         std::string(geometryOutputName(*output)) +
                                         ", max_vertices = 4) out;`: the capture's budget is max_vertices x "
                                         "invocations x input primitives");
    if (*maxVertices < 1 || *maxVertices > limits.maxOutputVertices)
        layoutError(maxVerticesLine, "max_vertices = " + std::to_string(*maxVertices) + " is outside 1.." +
                                         std::to_string(limits.maxOutputVertices) +
                                         " (GL_MAX_GEOMETRY_OUTPUT_VERTICES)");
    if (invocations && (*invocations < 1 || *invocations > limits.maxInvocations))
        layoutError(invocationsLine, "invocations = " + std::to_string(*invocations) + " is outside 1.." +
                                         std::to_string(limits.maxInvocations) +
                                         " (GL_MAX_GEOMETRY_SHADER_INVOCATIONS)");
    plan.input = *input;
    plan.output = *output;
    plan.maxVertices = *maxVertices;
    plan.invocations = invocations.value_or(1);

    // Streams: every output's, and every captured varying's (gl_Position is stream 0's).
    const Declaration* highest = nullptr;
    long long components = 0;
    for (const Declaration& o : geometry.outputs) {
        components += o.components();
        if (!highest || o.stream > highest->stream) highest = &o;
    }
    if (highest) plan.streamCount = highest->stream + 1;
    if (highest && highest->stream >= limits.maxStreams)
        throw Error(ErrorCode::GeometryStream,
                    "output '" + highest->name + "'" + lineText(highest->line) + " is emitted to stream " +
                        std::to_string(highest->stream) + ", but this runtime has streams 0.." +
                        std::to_string(limits.maxStreams - 1) +
                        " (GL_MAX_VERTEX_STREAMS = " + std::to_string(limits.maxStreams) +
                        (limits.maxStreams == 1 ? "; OpenGL ES 3.2 captures stream 0 only: use desktop GL 4.0+ "
                                                  "(ARB_transform_feedback3, ARB_gpu_shader5) for more streams)"
                                                : ")"));
    if (plan.streamCount > 1 && plan.output != GeometryOutput::Points)
        layoutError(plan.outputLine, "the shader emits to " + std::to_string(plan.streamCount) + " streams ('" +
                                         highest->name + "' on stream " + std::to_string(highest->stream) +
                                         ") with output primitive " + std::string(geometryOutputName(plan.output)) +
                                         "; GL allows several streams with `points` output only "
                                         "(ARB_gpu_shader5): emit points, or one stream");
    for (const auto& v : capture.varyings)
        if (v.name.starts_with("gl_")) components += v.components();
    if (components * plan.maxVertices > limits.maxTotalOutputComponents)
        layoutError(maxVerticesLine, "max_vertices = " + std::to_string(plan.maxVertices) + " x " +
                                         std::to_string(components) +
                                         " output components = " + std::to_string(components * plan.maxVertices) +
                                         " is over " + std::to_string(limits.maxTotalOutputComponents) +
                                         " (GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS); lower max_vertices or emit "
                                         "fewer components");

    const DrawMode primitive = plan.capturedPrimitive();
    const std::int64_t perInvocation = primitive == DrawMode::Points  ? plan.maxVertices
                                       : primitive == DrawMode::Lines ? std::max(0, plan.maxVertices - 1)
                                                                      : std::max(0, plan.maxVertices - 2);
    std::map<int, GeometryStream> streams;
    for (std::size_t b = 0; b < capture.buffers.size(); ++b) {
        GeometryStream& s = streams[capture.buffers[b].stream];
        s.stream = capture.buffers[b].stream;
        s.primitive = primitive;
        s.buffers.push_back(int(b));
        s.maxPrimitivesPerInvocation = perInvocation;
        s.maxRecordsPerInvocation = perInvocation * verticesPerPrimitive(primitive);
    }
    for (auto& [stream, s] : streams) {
        if (stream >= limits.maxStreams)
            throw Error(ErrorCode::GeometryStream,
                        "buffer " + std::to_string(s.buffers[0]) + " captures stream " + std::to_string(stream) +
                            ", but this runtime has streams 0.." + std::to_string(limits.maxStreams - 1) +
                            " (GL_MAX_VERTEX_STREAMS = " + std::to_string(limits.maxStreams) + ")");
        plan.streams.push_back(std::move(s));
    }
    return plan;
}

CaptureCount countGeometryCapture(const DrawDesc& draw, const GeometryPlan& geometry, const CapturePlan& capture) {
    checkDrawMode(draw.mode, "the draw");
    if (geometryInputOf(draw.mode) != geometry.input)
        throw Error(ErrorCode::GeometryInput,
                    "the draw's mode " + std::string(drawModeName(draw.mode)) + " gives the geometry shader " +
                        std::string(geometryInputName(geometryInputOf(draw.mode))) + ", but it takes " +
                        std::string(geometryInputName(geometry.input)) + lineText(geometry.inputLine) +
                        " (GL_INVALID_OPERATION in GL); draw " +
                        (geometry.input == GeometryInput::Points  ? "points"
                         : geometry.input == GeometryInput::Lines ? "lines, line strips or line loops"
                                                                  : "triangles, triangle strips or fans") +
                        ", or change the shader's `layout(...) in;`");
    const CaptureCount draws = countCapture(draw, capture); // the draw's primitives, checked
    CaptureCount c;
    c.primitive = geometry.capturedPrimitive();
    c.inputPrimitives = draws.primitives;
    c.bytes.assign(capture.buffers.size(), 0);
    auto tooLarge = [&](const std::string& what) {
        throw Error(ErrorCode::BufferTooLarge,
                    std::to_string(c.inputPrimitives) + " input primitives x " + std::to_string(geometry.invocations) +
                        " invocations x max_vertices " + std::to_string(geometry.maxVertices) + ": " + what +
                        " overflows 64 bits; draw fewer primitives per call");
    };
    for (const GeometryStream& s : geometry.streams) {
        StreamBudget b{s.stream, s.primitive, 0, 0};
        std::int64_t invocations = 0;
        if (__builtin_mul_overflow(c.inputPrimitives, std::int64_t(geometry.invocations), &invocations) ||
            __builtin_mul_overflow(invocations, s.maxPrimitivesPerInvocation, &b.primitives) ||
            __builtin_mul_overflow(invocations, s.maxRecordsPerInvocation, &b.records))
            tooLarge("the budget of stream " + std::to_string(s.stream));
        for (int k : s.buffers) {
            std::uint64_t bytes = 0;
            if (__builtin_mul_overflow(std::uint64_t(b.records), std::uint64_t(capture.buffers[std::size_t(k)].stride),
                                       &bytes))
                tooLarge("the bytes of buffer " + std::to_string(k));
            c.bytes[std::size_t(k)] = bytes;
        }
        if (__builtin_add_overflow(c.primitives, b.primitives, &c.primitives) ||
            __builtin_add_overflow(c.records, b.records, &c.records))
            tooLarge("the total");
        c.streams.push_back(std::move(b));
    }
    return c;
}

void checkGeometryCapacity(const CaptureCount& budget, const GeometryPlan& geometry, const CapturePlan& capture,
                           std::span<const std::uint64_t> bufferBytes) {
    for (const StreamBudget& s : budget.streams)
        for (std::size_t i = 0; i < capture.buffers.size(); ++i) {
            const int k = int(i);
            if (capture.buffers[i].stream != s.stream || i >= bufferBytes.size() || i >= budget.bytes.size() ||
                bufferBytes[i] >= budget.bytes[i])
                continue;
            const int stride = capture.buffers[i].stride;
            throw Error(ErrorCode::Capacity,
                        "output buffer " + std::to_string(k) + " (stream " + std::to_string(s.stream) + ") holds " +
                            std::to_string(bufferBytes[i]) + " bytes (" +
                            std::to_string(stride ? bufferBytes[i] / std::uint64_t(stride) : 0) +
                            " records) but the geometry shader can write " + std::to_string(s.records) +
                            " records of " + std::to_string(stride) + " bytes = " + std::to_string(budget.bytes[i]) +
                            " bytes: " + std::to_string(budget.inputPrimitives) + " input primitives x " +
                            std::to_string(geometry.invocations) + " invocations x " +
                            std::to_string(s.records /
                                           std::max<std::int64_t>(1, budget.inputPrimitives * geometry.invocations)) +
                            " records (max_vertices " + std::to_string(geometry.maxVertices) + " as " +
                            std::string(drawModeName(s.primitive)) + "). Allocate at least " +
                            std::to_string(budget.bytes[i]) +
                            " bytes, or capture with overflow Clamp and read the statistics. Nothing was drawn");
        }
}

namespace plan {

DriverList geometryDriverList(const CapturePlan& capture, bool layoutWords) {
    DriverList list{{}, capture.mode == CaptureMode::Interleaved};
    auto& out = list.varyings;
    std::map<std::string_view, const CapturedVarying*> byName;
    for (const auto& v : capture.varyings) byName.emplace(v.name, &v);
    auto refuse = [](const std::string& what) {
        throw Error(ErrorCode::Unsupported,
                    what + "; on this context a geometry program's capture is written by the GL alone, which needs "
                           "gl_SkipComponents / gl_NextBuffer (desktop GL 4.0, ARB_transform_feedback3) for gaps and "
                           "for several buffers in interleaved mode");
    };
    auto field = [&](const BufferField& f) {
        const CapturedVarying* v = byName.at(f.varying);
        if (f.firstComponent != 0 || f.components != v->components())
            throw Error(ErrorCode::Unsupported,
                        "the declared layout captures part of '" + v->name + "' (components " +
                            std::to_string(f.firstComponent) + ".." +
                            std::to_string(f.firstComponent + f.components - 1) +
                            "); a geometry program's varyings are captured whole: declare an output of those "
                            "components and capture it");
        out.push_back({v->name, v->arraySize > 0 ? v->arraySize : 1, v->type.components(), v->name});
    };
    if (!list.interleaved) {
        for (const auto& b : capture.buffers)
            for (const auto& f : b.fields) field(f);
        return list;
    }
    auto skip = [&](int words) {
        if (words > 0 && !layoutWords) refuse("the layout leaves " + std::to_string(words) + " words unwritten");
        for (; words > 0; words -= 4) out.push_back({"gl_SkipComponents" + std::to_string(std::min(4, words)), 1, 0});
    };
    for (std::size_t b = 0; b < capture.buffers.size(); ++b) {
        if (b > 0) {
            if (!layoutWords)
                refuse("the capture has " + std::to_string(capture.buffers.size()) + " buffers in interleaved mode");
            out.push_back({"gl_NextBuffer", 1, 0});
        }
        int cursor = 0;
        for (const auto& f : capture.buffers[b].fields) {
            skip((f.offset - cursor) / 4);
            field(f);
            cursor = f.offset + 4 * f.components;
        }
        skip((capture.buffers[b].stride - cursor) / 4);
    }
    return list;
}

} // namespace plan

std::vector<std::int64_t> geometryStreamCapacities(const GeometryPlan& geometry, const CapturePlan& capture,
                                                   std::span<const std::uint64_t> bufferBytes) {
    const int vertices = verticesPerPrimitive(geometry.capturedPrimitive());
    std::vector<std::int64_t> capacity;
    for (int k = 0; k < geometry.streamCount; ++k) {
        std::int64_t records = std::int64_t(UINT32_MAX);
        if (const GeometryStream* stream = geometry.find(k))
            for (int b : stream->buffers)
                records = std::min<std::int64_t>(
                    records,
                    std::int64_t(bufferBytes[std::size_t(b)] / std::uint64_t(capture.buffers[std::size_t(b)].stride)));
        capacity.push_back(records / vertices * vertices);
    }
    return capacity;
}

const StreamBudget* overComputeCounts(const CaptureCount& budget) {
    for (const StreamBudget& b : budget.streams)
        if (b.records > std::int64_t(UINT32_MAX)) return &b;
    return nullptr;
}

void checkComputeCounts(const CaptureCount& budget) {
    if (const StreamBudget* b = overComputeCounts(budget))
        throw Error(ErrorCode::BufferTooLarge,
                    "stream " + std::to_string(b->stream) + " can receive " + std::to_string(b->records) +
                        " records, but the compute capture counts them in 32 bits (at most " +
                        std::to_string(UINT32_MAX) + "); draw fewer primitives per capture");
}

} // namespace xfb
