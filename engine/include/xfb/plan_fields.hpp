#pragma once
/// @file
/// @brief The plan of a shader (attributes, captured varyings, buffer layout) written through any
/// object builder: one list of field names for the JSON of the tools (xfb/plan_json.hpp,
/// nlohmann), the JSON text of the WebGL2 module (web/src/json_text.hpp) and the JavaScript objects
/// of the WebGPU module's translator (web/src/js_values.hpp, embind val).
///
/// A builder `B` provides `B::Value`, `object()`, `array()`, `set(Value&, const char* key, x)`
/// and `push(Value&, x)` for x a Value, a string, a bool or an integer.
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"

#include <string>
#include <vector>

namespace xfb {

/// { version, es, mode, declared, attributes: [...], varyings: [...], buffers: [{ binding, stride, fields }] }
/// (a field: { varying, offset, components, first_component, type });
/// format in engine/tools/README.md (fields are only ever added).
template<class B>
typename B::Value planFields(B& b, const ShaderInterface& shader, const std::vector<AttributeSlot>& attributes,
                             const CapturePlan& capture) {
    auto attrs = b.array();
    for (const auto& a : attributes) {
        auto slots = b.array();
        for (int i = 0; i < a.locationCount; ++i) b.push(slots, "ATTR" + std::to_string(a.location + i));
        auto o = b.object();
        b.set(o, "name", a.name);
        b.set(o, "type", a.type.name);
        b.set(o, "array_size", a.arraySize);
        b.set(o, "semantic", semanticName(a.semantic));
        b.set(o, "location", a.location);
        b.set(o, "slots", slots);
        b.set(o, "components", a.components());
        b.set(o, "explicit_location", a.explicitLocation);
        b.set(o, "line", a.line);
        b.push(attrs, o);
    }
    auto varyings = b.array();
    for (const auto& v : capture.varyings) {
        auto o = b.object();
        b.set(o, "name", v.name);
        b.set(o, "type", v.type.name);
        b.set(o, "array_size", v.arraySize);
        b.set(o, "components", v.components());
        b.set(o, "bytes", v.bytes());
        b.push(varyings, o);
    }
    auto buffers = b.array();
    for (const auto& buffer : capture.buffers) {
        auto fields = b.array();
        for (const auto& f : buffer.fields) {
            auto o = b.object();
            b.set(o, "varying", f.varying);
            b.set(o, "offset", f.offset);
            b.set(o, "components", f.components);
            b.set(o, "first_component", f.firstComponent);
            b.set(o, "type", std::string(componentTypeName(f.type)));
            b.push(fields, o);
        }
        auto o = b.object();
        b.set(o, "binding", buffer.binding);
        b.set(o, "stride", buffer.stride);
        b.set(o, "fields", fields);
        b.push(buffers, o);
    }
    auto out = b.object();
    b.set(out, "version", shader.version);
    b.set(out, "es", shader.es);
    b.set(out, "mode", std::string(captureModeName(capture.mode)));
    b.set(out, "declared", capture.declared);
    b.set(out, "attributes", attrs);
    b.set(out, "varyings", varyings);
    b.set(out, "buffers", buffers);
    return out;
}

} // namespace xfb
