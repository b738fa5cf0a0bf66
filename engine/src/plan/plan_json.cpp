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
