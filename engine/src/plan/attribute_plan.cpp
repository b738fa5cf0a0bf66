#include "xfb/attribute_plan.hpp"

#include "xfb/error.hpp"

namespace xfb {

std::optional<ComponentType> componentTypeOf(ScalarKind kind) {
    switch (kind) {
        case ScalarKind::Float: return ComponentType::Float32;
        case ScalarKind::Int: return ComponentType::Int32;
        case ScalarKind::UInt: return ComponentType::UInt32;
        default: return std::nullopt;
    }
}

std::vector<AttributeSlot> planAttributes(const ShaderInterface& shader, const Limits& limits) {
    std::vector<AttributeSlot> slots;
    const Declaration* firstStandard = nullptr;
    const Declaration* firstCustom = nullptr;
    int cursor = 0;
    for (const Declaration& in : shader.inputs) {
        if (!componentTypeOf(in.type.kind))
            throw Error(
                ErrorCode::AttributeType,
                "input '" + in.name + "' (line " + std::to_string(in.line) + ") has type " + in.type.name +
                    ", which cannot be a vertex attribute; use float, int or uint scalars, vectors or matrices");
        AttributeSlot s{in.name, in.type, in.arraySize, Semantic::Attr0, 0, in.locationCount(), false, in.line};
        auto standard = standardSemantic(in.name);
        if (standard && !firstStandard) firstStandard = &in;
        if (!standard && !firstCustom) firstCustom = &in;
        if (firstStandard && firstCustom) {
            throw Error(ErrorCode::MixedSemantics,
                        "input '" + firstStandard->name + "' has a standard name (semantic " +
                            semanticName(*standardSemantic(firstStandard->name)) + ", location " +
                            std::to_string(semanticLocation(*standardSemantic(firstStandard->name))) + ") but input '" +
                            firstCustom->name +
                            "' has a custom name (ATTRn by declaration order, from location 0): they would collide. "
                            "Rename all inputs to custom names "
                            "(e.g. '" +
                            firstStandard->name.substr(7) + "_in') or all to standard names");
        }
        if (in.location) {
            s.location = *in.location;
            s.explicitLocation = true;
        } else if (standard) {
            s.location = semanticLocation(*standard);
        } else {
            s.location = cursor;
        }
        s.semantic = standard ? *standard : attr(s.location);
        if (s.location < 0 || s.location + s.locationCount > limits.maxVertexAttribs)
            throw Error(
                ErrorCode::TooManyAttributes,
                "input '" + in.name + "' needs attribute locations " + std::to_string(s.location) + ".." +
                    std::to_string(s.location + s.locationCount - 1) + " but MAX_VERTEX_ATTRIBS is " +
                    std::to_string(limits.maxVertexAttribs) +
                    "; pack inputs into fewer vec4s or move per-element constants into a uniform buffer or texture");
        for (const AttributeSlot& o : slots) {
            if (s.location < o.location + o.locationCount && o.location < s.location + s.locationCount)
                throw Error(ErrorCode::AttributeLocationCollision,
                            "input '" + in.name + "' (locations " + std::to_string(s.location) + ".." +
                                std::to_string(s.location + s.locationCount - 1) + ") collides with input '" + o.name +
                                "' (locations " + std::to_string(o.location) + ".." +
                                std::to_string(o.location + o.locationCount - 1) +
                                "); give one of them a free layout(location) or reorder the declarations");
        }
        cursor = s.location + s.locationCount;
        slots.push_back(std::move(s));
    }
    return slots;
}

} // namespace xfb
