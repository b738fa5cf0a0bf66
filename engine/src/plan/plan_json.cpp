#include "xfb/plan_json.hpp"
#include "xfb/plan_fields.hpp"

#include <utility>

namespace xfb {

using json = nlohmann::ordered_json;

json toJson(const Limits& l) {
    return {{"max_vertex_attribs", l.maxVertexAttribs},
            {"max_separate_components", l.maxSeparateComponents},
            {"max_separate_attribs", l.maxSeparateAttribs},
            {"max_interleaved_components", l.maxInterleavedComponents},
            {"max_varying_vectors", l.maxVaryingVectors}};
}

namespace {
// planFields() writing nlohmann JSON.
struct JsonBuilder {
    using Value = json;
    Value object() { return json::object(); }
    Value array() { return json::array(); }
    template<class T>
    void set(Value& o, const char* key, T&& v) {
        o[key] = std::forward<T>(v);
    }
    template<class T>
    void push(Value& a, T&& v) {
        a.push_back(std::forward<T>(v));
    }
};
} // namespace

json toJson(const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes, const CapturePlan& capture) {
    JsonBuilder b;
    return planFields(b, shader, attributes, capture);
}

json toJson(const DrawDesc& draw, const CaptureCount& count) {
    return {{"mode", drawModeName(draw.mode)},
            {"vertices", draw.indices.empty() ? draw.vertexCount : std::int64_t(draw.indices.size())},
            {"indexed", !draw.indices.empty()},
            {"captured_as", drawModeName(count.primitive)},
            {"primitives", count.primitives},
            {"records", count.records},
            {"bytes", count.bytes}};
}

json toJson(const DrawDesc& draw, const CaptureCount& budget, const GeometryPlan& geometry) {
    json out = toJson(draw, budget); // upper bounds
    out["budget"] = true;
    out["input_primitives"] = budget.inputPrimitives;
    json streams = json::array();
    for (const StreamBudget& s : budget.streams) {
        const GeometryStream* g = geometry.find(s.stream);
        json buffers = json::array(), bytes = json::array();
        for (int b : g ? g->buffers : std::vector<int>()) {
            buffers.push_back(b);
            bytes.push_back(budget.bytes.at(std::size_t(b)));
        }
        streams.push_back({{"stream", s.stream},
                           {"captured_as", drawModeName(s.primitive)},
                           {"primitives", s.primitives},
                           {"records", s.records},
                           {"buffers", buffers},
                           {"bytes", bytes}});
    }
    out["streams"] = streams;
    return out;
}

json toJson(const GeometryPlan& g, const CapturePlan& capture) {
    json streams = json::array();
    for (const GeometryStream& s : g.streams) {
        json strides = json::array(), varyings = json::array();
        for (int b : s.buffers) {
            const OutputLayout& layout = capture.buffers.at(std::size_t(b));
            strides.push_back(layout.stride);
            for (const auto& f : layout.fields) varyings.push_back(f.varying);
        }
        streams.push_back({{"stream", s.stream},
                           {"captured_as", drawModeName(s.primitive)},
                           {"buffers", s.buffers},
                           {"strides", strides},
                           {"varyings", varyings},
                           {"primitives_per_invocation", s.maxPrimitivesPerInvocation},
                           {"records_per_invocation", s.maxRecordsPerInvocation},
                           {"records_per_input_primitive", s.maxRecordsPerInvocation * g.invocations}});
    }
    return {{"input", geometryInputName(g.input)},
            {"output", geometryOutputName(g.output)},
            {"captured_as", drawModeName(g.capturedPrimitive())},
            {"max_vertices", g.maxVertices},
            {"invocations", g.invocations},
            {"stream_count", g.streamCount},
            {"streams", streams}};
}

json toJson(const GeometryLimits& l) {
    return {{"max_output_vertices", l.maxOutputVertices},
            {"max_invocations", l.maxInvocations},
            {"max_streams", l.maxStreams},
            {"max_total_output_components", l.maxTotalOutputComponents}};
}

json toJson(std::span<const DrawDesc> parts, const SessionPlan& session) {
    json list = json::array();
    for (std::size_t i = 0; i < parts.size() && i < session.parts.size(); ++i) {
        const PartRange& r = session.parts[i];
        json part = toJson(parts[i], CaptureCount{r.primitive, r.primitives, r.records, r.bytes});
        part["first_record"] = r.firstRecord;
        part["first_byte"] = r.firstByte;
        list.push_back(part);
    }
    return {{"first_record", session.firstRecord},
            {"end_record", session.endRecord},
            {"end_bytes", session.endBytes},
            {"parts", list}};
}

} // namespace xfb
