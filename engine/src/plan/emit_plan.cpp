#include "xfb/emit_plan.hpp"

#include "xfb/attribute_plan.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {

EmitPlan planEmits(const ShaderInterface& shader, const CapturePlan& capture, std::span<const EmitDesc> emits,
                   std::span<const EntryDesc> entries, std::span<const int> emitEntries, std::int64_t count) {
    EmitPlan plan;
    if (emitEntries.size() != emits.size())
        throw Error(
            ErrorCode::InvalidArgument,
            std::to_string(emits.size()) + " emitted output(s) declared but " + std::to_string(emitEntries.size()) +
                " {output} entries follow the captured ones; give one {output} buffer per emitted output, in order");
    auto captured = [&](const std::string& name) {
        return std::any_of(capture.varyings.begin(), capture.varyings.end(),
                           [&](auto& v) { return v.name == name || v.name.starts_with(name + "["); });
    };
    for (std::size_t i = 0; i < emits.size(); ++i) {
        const EmitDesc& e = emits[i];
        const Declaration* d = shader.findOutput(e.varying);
        if (!d)
            throw Error(ErrorCode::UnknownVarying, "emitted output '" + e.varying + "' is not an output of the shader");
        auto type = componentTypeOf(d->type.kind);
        if (d->arraySize <= 0 || !type || d->type.isMatrix())
            throw Error(ErrorCode::VaryingType, "emitted output '" + e.varying + "' (line " + std::to_string(d->line) +
                                                    ") must be an array of float, int or uint " +
                                                    "scalars or vectors, e.g. `out vec4 " + e.varying +
                                                    "[4];` for up to 4 records per element");
        if (captured(e.varying) || captured(e.count))
            throw Error(ErrorCode::InvalidArgument,
                        "'" + (captured(e.varying) ? e.varying : e.count) +
                            "' is both emitted and captured by transform feedback; rename it without the out_ prefix");
        const Declaration* c = shader.findOutput(e.count);
        if (!c)
            throw Error(ErrorCode::UnknownVarying, "count output '" + e.count + "' of emitted output '" + e.varying +
                                                       "' is not an output of the shader");
        if (c->arraySize > 0 || c->type.components() != 1 ||
            (c->type.kind != ScalarKind::Int && c->type.kind != ScalarKind::UInt))
            throw Error(ErrorCode::VaryingType, "count output '" + e.count + "' (line " + std::to_string(c->line) +
                                                    ") must be a single int or uint, e.g. `flat out int " + e.count +
                                                    ";`");
        auto budget =
            std::find_if(plan.budgets.begin(), plan.budgets.end(), [&](auto& b) { return b.count == e.count; });
        if (budget == plan.budgets.end()) {
            plan.budgets.push_back({e.count, c->type.kind, d->arraySize, 0, {}});
            budget = plan.budgets.end() - 1;
        } else if (budget->maxRecords != d->arraySize) {
            throw Error(ErrorCode::InvalidArgument, "emitted outputs of budget '" + e.count +
                                                        "' have different lengths (" +
                                                        std::to_string(budget->maxRecords) + " and '" + e.varying +
                                                        "' " + std::to_string(d->arraySize) +
                                                        "); outputs sharing a count emit the same number of records");
        }
        EmitOutputPlan o{
            e.varying, d->type, emitEntries[i], int(budget - plan.budgets.begin()), d->type.components() * 4, *type, 0};
        const EntryDesc& entry = entries[std::size_t(o.entry)];
        std::string who = "entry #" + std::to_string(o.entry) + " (emitting " + e.varying + ")";
        const VertexFormat& f = entry.output->format;
        bool matches = f.stride == o.stride && f.attributes.size() == 1 && f.attributes[0].offset == 0 &&
                       f.attributes[0].type == o.componentType && f.attributes[0].components == d->type.components();
        if (!matches)
            throw Error(ErrorCode::OutputLayoutMismatch,
                        who + " has format " + f.describe() + " but each record is one " + d->type.name + " (" +
                            std::string(componentTypeName(o.componentType)) + "x" +
                            std::to_string(d->type.components()) + ", " + std::to_string(o.stride) +
                            " bytes); give the buffer exactly that one attribute");
        o.capacity = std::int64_t(entry.output->bytes / std::uint64_t(o.stride));
        budget->capacity = budget->outputs.empty() ? o.capacity : std::min(budget->capacity, o.capacity);
        budget->outputs.push_back(int(plan.outputs.size()));
        plan.outputs.push_back(std::move(o));
    }
    // The GPU counts, sums and totals records in 32 bits: what the elements may ask for must fit.
    for (const auto& b : plan.budgets)
        if (count > 0 && std::uint64_t(count) * std::uint64_t(b.maxRecords) >= (std::uint64_t(1) << 32))
            throw Error(ErrorCode::BufferTooLarge,
                        "budget '" + b.count + "': " + std::to_string(count) + " elements x up to " +
                            std::to_string(b.maxRecords) + " records each may ask for " +
                            std::to_string(std::uint64_t(count) * std::uint64_t(b.maxRecords)) +
                            " records, which wraps the 32-bit counts, prefix sums and totals on the GPU (2^32 = "
                            "4294967296); declare fewer records per element or run fewer elements per pipeline");
    return plan;
}

} // namespace xfb
