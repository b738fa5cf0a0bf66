#include "xfb/plan_json.hpp"

namespace xfb {

using json = nlohmann::ordered_json;

json toJson(const Limits& l) {
    return {{"max_vertex_attribs", l.maxVertexAttribs},
            {"max_separate_components", l.maxSeparateComponents},
            {"max_separate_attribs", l.maxSeparateAttribs},
            {"max_interleaved_components", l.maxInterleavedComponents}};
}

json toJson(const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes, const CapturePlan& capture) {
    json attrs = json::array();
    for (const auto& a : attributes) {
        json slots = json::array();
        for (int i = 0; i < a.locationCount; ++i) slots.push_back("ATTR" + std::to_string(a.location + i));
        attrs.push_back({{"name", a.name},
                         {"type", a.type.name},
                         {"array_size", a.arraySize},
                         {"semantic", semanticName(a.semantic)},
                         {"location", a.location},
                         {"slots", slots},
                         {"components", a.components()},
                         {"explicit_location", a.explicitLocation},
                         {"line", a.line}});
    }
    json varyings = json::array();
    for (const auto& v : capture.varyings)
        varyings.push_back({{"name", v.name}, {"type", v.type.name}, {"array_size", v.arraySize}, {"components", v.components()}, {"bytes", v.bytes()}});
    json buffers = json::array();
    for (const auto& b : capture.buffers) {
        json fields = json::array();
        for (const auto& f : b.fields)
            fields.push_back({{"varying", f.varying}, {"offset", f.offset}, {"components", f.components}, {"type", componentTypeName(f.type)}});
        buffers.push_back({{"binding", b.binding}, {"stride", b.stride}, {"fields", fields}});
    }
    return {{"version", shader.version},
            {"es", shader.es},
            {"mode", captureModeName(capture.mode)},
            {"attributes", attrs},
            {"varyings", varyings},
            {"buffers", buffers}};
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

json toJson(std::span<const DrawDesc> parts, const SessionPlan& session) {
    json list = json::array();
    for (std::size_t i = 0; i < parts.size() && i < session.parts.size(); ++i) {
        const PartRange& r = session.parts[i];
        json part = toJson(parts[i], CaptureCount{r.primitive, r.primitives, r.records, r.bytes});
        part["first_record"] = r.firstRecord;
        part["first_byte"] = r.firstByte;
        list.push_back(part);
    }
    return {{"first_record", session.firstRecord}, {"end_record", session.endRecord}, {"end_bytes", session.endBytes}, {"parts", list}};
}

} // namespace xfb
