#include "xfb/population_plan.hpp"

#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <algorithm>
#include <cstdint>

namespace xfb {

namespace {

std::string inputNames(std::span<const AttributeSlot> attributes) {
    std::string names;
    for (const auto& a : attributes) names += (names.empty() ? "" : ", ") + a.name;
    return names.empty() ? "none" : names;
}

} // namespace

PopulationPlan planPopulation(const ShaderInterface& shader, std::span<const AttributeSlot> attributes,
                              std::int64_t capacity, std::span<const PopulationField> fields, std::string_view count) {
    if (capacity <= 0)
        throw Error(ErrorCode::InvalidArgument,
                    "a population's capacity must be > 0, got " + std::to_string(capacity) +
                        ": it is the number of elements its state buffers hold (PopulationOptions::capacity)");
    if (fields.empty())
        throw Error(ErrorCode::InvalidArgument,
                    "a population needs its state: at least one field {input, emitted} pairing a shader input "
                    "with the emitted output array its next records are written through (PopulationOptions::state)");
    if (count.empty())
        throw Error(ErrorCode::InvalidArgument,
                    "a population needs its count output: the int or uint output saying how many records of the "
                    "next state each element writes (PopulationOptions::count)");
    PopulationPlan plan;
    plan.capacity = capacity;
    plan.count = std::string(count);
    std::vector<EmitDesc> emits;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const PopulationField& f = fields[i];
        const std::string who = "state field #" + std::to_string(i) + " {" + f.input + ", " + f.emitted + "}";
        for (std::size_t j = 0; j < i; ++j)
            if (fields[j].input == f.input || fields[j].emitted == f.emitted)
                throw Error(ErrorCode::InvalidArgument, who + " names '" +
                                                            (fields[j].input == f.input ? f.input : f.emitted) +
                                                            "' as state field #" + std::to_string(j) +
                                                            " does; each input and each emitted "
                                                            "output belongs to one field");
        auto slot = std::find_if(attributes.begin(), attributes.end(), [&](auto& a) { return a.name == f.input; });
        if (slot == attributes.end())
            throw Error(ErrorCode::InvalidArgument,
                        who + ": '" + f.input + "' is not an input of the shader (inputs: " + inputNames(attributes) +
                            ")");
        const Declaration* out = shader.findOutput(f.emitted);
        if (!out)
            throw Error(ErrorCode::UnknownVarying, who + ": the program declares no output '" + f.emitted +
                                                       "', so nothing writes the field's next records; declare `out " +
                                                       slot->type.name + " " + f.emitted +
                                                       "[N];` (up to N records per element) and set " +
                                                       std::string(count) + " to how many it writes");
        if (slot->arraySize > 0 || slot->type.isMatrix())
            throw Error(ErrorCode::SemanticTypeMismatch,
                        who + ": input '" + f.input + "' (line " + std::to_string(slot->line) + ") is " +
                            slot->type.name + (slot->arraySize ? "[" + std::to_string(slot->arraySize) + "]" : "") +
                            "; a field's record is one scalar or vector: split it into fields");
        if (out->type.name != slot->type.name)
            throw Error(ErrorCode::SemanticTypeMismatch,
                        who + ": input '" + f.input + "' is " + slot->type.name + " but emitted output '" + f.emitted +
                            "' (line " + std::to_string(out->line) + ") writes " + out->type.name +
                            " records; a field's records are read back as its input, so declare both of one type");
        const auto type = componentTypeOf(slot->type.kind);
        if (!type)
            throw Error(ErrorCode::SemanticTypeMismatch, who + ": input '" + f.input + "' is " + slot->type.name +
                                                             "; a field holds float, int or uint scalars or vectors");
        PopulationFieldPlan p{f.input, f.emitted, slot->type,
                              VertexFormat::interleaved({{slot->semantic, *type, slot->type.components()}})};
        plan.fields.push_back(std::move(p));
        emits.push_back({f.emitted, std::string(count)});
    }
    for (const auto& a : attributes)
        if (std::none_of(fields.begin(), fields.end(), [&](auto& f) { return f.input == a.name; }))
            throw Error(ErrorCode::SemanticMissing,
                        "shader input '" + a.name +
                            "' is in no field of the population's state, so no step would "
                            "give it a value; add a field {\"" +
                            a.name + "\", \"emit_...\"} whose emitted output writes its next records");
    if (!shader.findOutput(std::string(count)))
        throw Error(ErrorCode::UnknownVarying, "the population's count output '" + std::string(count) +
                                                   "' is not an output of the shader; declare `flat out int " +
                                                   std::string(count) +
                                                   ";` and set it to the records each element writes");
    // The current buffers, then the next ones (a capacity whose bytes overflow: BufferTooLarge).
    std::vector<BufferDesc> buffers;
    for (const auto& f : plan.fields)
        buffers.push_back({f.format, checkedBufferBytes(capacity, f.format.stride, UINT64_MAX,
                                                        "the population's field '" + f.input + "'")});
    for (const auto& b : buffers) plan.entries.push_back({b, {}});
    for (const auto& b : buffers) plan.entries.push_back({{}, b});
    const CapturePlan none; // the records are the state: nothing is captured per slot
    plan.pass = planPass(attributes, none, plan.entries, capacity, OutputSizing::PerElement, emits.size());
    plan.emits = planEmits(shader, none, emits, plan.entries, plan.pass.emitEntries, capacity);
    plan.maxRecords = plan.emits.budgets.at(0).maxRecords;
    return plan;
}

} // namespace xfb
