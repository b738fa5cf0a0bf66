#include "xfb/pass_plan.hpp"

#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <algorithm>
#include <map>

namespace xfb {

std::string EntryDesc::role() const {
    if (input && output) return "{input, output}";
    if (input) return "{input}";
    if (output) return "{output}";
    return "{}";
}

namespace {

std::string entryName(std::span<const EntryDesc> entries, size_t i) {
    return "entry #" + std::to_string(i) + " " + entries[i].role();
}

// Every 4-byte word an output format reads must be written by a captured field of the same type.
void checkOutputFormat(const VertexFormat& f, const OutputLayout& layout, const std::string& who) {
    auto mismatch = [&](const std::string& why) {
        std::string fields;
        for (auto& fl : layout.fields)
            fields += (fields.empty() ? "" : ", ") + fl.varying +
                      (fl.firstComponent ? " from component " + std::to_string(fl.firstComponent) : "") + " " +
                      std::string(componentTypeName(fl.type)) + "x" + std::to_string(fl.components) + " @" +
                      std::to_string(fl.offset);
        throw Error(ErrorCode::OutputLayoutMismatch, who + " has format " + f.describe() +
                                                         " but transform feedback binding " +
                                                         std::to_string(layout.binding) + " writes {" + fields +
                                                         "} stride " + std::to_string(layout.stride) + ": " + why);
    };
    if (f.stride != layout.stride)
        mismatch("the strides differ; make the buffer's stride " + std::to_string(layout.stride));
    for (const auto& a : f.attributes) {
        for (int w = 0; w < a.components; ++w) {
            int byte = a.offset + 4 * w;
            auto field = std::find_if(layout.fields.begin(), layout.fields.end(), [&](const BufferField& fl) {
                return byte >= fl.offset && byte < fl.offset + 4 * fl.components;
            });
            if (field == layout.fields.end())
                mismatch(semanticName(a.semantic) + " reads byte " + std::to_string(byte) +
                         ", which no varying writes (a gap of the layout)");
            if (field->type != a.type)
                mismatch(semanticName(a.semantic) + " is " + std::string(componentTypeName(a.type)) + " but varying '" +
                         field->varying + "' writes " + std::string(componentTypeName(field->type)));
        }
    }
}

} // namespace

void checkCaptureEntries(std::span<const EntryDesc> entries) {
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].input && entries[i].output)
            throw Error(ErrorCode::InvalidArgument,
                        "entry #" + std::to_string(i) +
                            " is a state pair {input, output}; a primitive capture reads "
                            "{input} vertex buffers and writes {output} buffers. Use a Pipeline for state");
}

PassPlan planPass(std::span<const AttributeSlot> attributes, const CapturePlan& capture,
                  std::span<const EntryDesc> entries, std::optional<std::int64_t> count, OutputSizing sizing,
                  std::size_t emittedOutputs) {
    PassPlan plan;
    std::vector<size_t> outputEntries;
    std::map<Semantic, size_t> provider; // semantic -> entry index
    std::vector<std::pair<size_t, std::int64_t>> inputCounts;

    for (size_t i = 0; i < entries.size(); ++i) {
        const EntryDesc& e = entries[i];
        std::string who = entryName(entries, i);
        if (!e.input && !e.output)
            throw Error(ErrorCode::RoleEmpty, who + " has neither input nor output; give it {input}, {output} or both");
        for (const auto* d : {e.input ? &*e.input : nullptr, e.output ? &*e.output : nullptr})
            if (d) d->format.validate();
        if (e.output) outputEntries.push_back(i);
        if (!e.input) continue;
        const BufferDesc& in = *e.input;
        if (in.bytes % std::uint64_t(in.format.stride))
            throw Error(ErrorCode::BufferSize, who + " input holds " + std::to_string(in.bytes) +
                                                   " bytes, not a whole number of " + std::to_string(in.format.stride) +
                                                   "-byte elements");
        inputCounts.push_back({i, std::int64_t(in.bytes / std::uint64_t(in.format.stride))});
        if (e.output && (e.output->format.describe() != in.format.describe() || e.output->bytes != in.bytes))
            throw Error(
                ErrorCode::StateFormatMismatch,
                who + " is a state pair, swapped every step, so both buffers need the same format and size: input " +
                    in.format.describe() + ", " + std::to_string(in.bytes) + " bytes; output " +
                    e.output->format.describe() + ", " + std::to_string(e.output->bytes) + " bytes");
        for (const auto& a : in.format.attributes) {
            auto [it, fresh] = provider.emplace(a.semantic, i);
            if (!fresh)
                throw Error(ErrorCode::SemanticDuplicate, semanticName(a.semantic) + " is provided by both " +
                                                              entryName(entries, it->second) + " and " + who +
                                                              "; each shader input is read from one buffer");
        }
    }

    // Element count: every input agrees; an explicit count must agree too.
    if (!inputCounts.empty()) {
        bool same = std::all_of(inputCounts.begin(), inputCounts.end(),
                                [&](auto& c) { return c.second == inputCounts[0].second; });
        if (!same || (count && *count != inputCounts[0].second)) {
            std::string list;
            for (auto& [i, n] : inputCounts)
                list += (list.empty() ? "" : ", ") + entryName(entries, i) + ": " + std::to_string(n);
            if (count) list += ", requested count: " + std::to_string(*count);
            throw Error(ErrorCode::CountMismatch,
                        "buffers hold different element counts (" + list + "); every buffer must hold the same count");
        }
        plan.count = inputCounts[0].second;
    } else {
        if (!count)
            throw Error(ErrorCode::InvalidArgument,
                        "no entry has an input, so the element count must be given explicitly");
        plan.count = *count;
    }
    if (plan.count <= 0)
        throw Error(ErrorCode::InvalidArgument, "element count must be > 0, got " + std::to_string(plan.count));

    // Shader inputs <- input buffers.
    for (const AttributeSlot& s : attributes) {
        auto it = provider.find(s.semantic);
        if (it == provider.end()) {
            std::string have;
            for (auto& [sem, idx] : provider) have += (have.empty() ? "" : ", ") + semanticName(sem);
            throw Error(ErrorCode::SemanticMissing, "shader input '" + s.name + "' (" + semanticName(s.semantic) +
                                                        ") is not provided by any input buffer (" +
                                                        "provided: " + (have.empty() ? "none" : have) +
                                                        "); add an attribute with semantic " +
                                                        semanticName(s.semantic) + " to an input buffer's format");
        }
        const VertexFormat& f = entries[it->second].input->format;
        const VertexAttribute& a = *f.find(s.semantic);
        auto want = *componentTypeOf(s.type.kind);
        if (a.type != want || a.components != s.components())
            throw Error(ErrorCode::SemanticTypeMismatch,
                        "shader input '" + s.name + "' is " + s.type.name +
                            (s.arraySize ? "[" + std::to_string(s.arraySize) + "]" : "") + " (" +
                            std::string(componentTypeName(want)) + "x" + std::to_string(s.components()) + ") but " +
                            entryName(entries, it->second) + " provides " + semanticName(s.semantic) + " as " +
                            std::string(componentTypeName(a.type)) + "x" + std::to_string(a.components));
        plan.attributes.push_back({s.name, int(it->second), s.location, s.locationCount, s.componentsPerLocation(),
                                   a.type, a.offset, f.stride});
        provider.erase(it);
    }
    if (!provider.empty()) {
        auto [sem, idx] = *provider.begin();
        throw Error(
            ErrorCode::SemanticUnused,
            entryName(entries, idx) + " provides " + semanticName(sem) +
                " but no shader input has that semantic; remove it from the format or check the declaration order");
    }

    // The last output entries belong to emitted outputs; the others <- captured buffers, in order.
    emittedOutputs = std::min(emittedOutputs, outputEntries.size());
    plan.emitEntries.assign(outputEntries.end() - long(emittedOutputs), outputEntries.end());
    outputEntries.resize(outputEntries.size() - emittedOutputs);
    if (outputEntries.size() != capture.buffers.size()) {
        std::string varyings, outs;
        for (auto& v : capture.varyings) varyings += (varyings.empty() ? "" : ", ") + v.name;
        for (auto i : outputEntries) outs += (outs.empty() ? "" : ", ") + entryName(entries, i);
        throw Error(ErrorCode::OutputCountMismatch,
                    std::string(captureModeName(capture.mode)) + " mode captures [" + varyings + "] into " +
                        std::to_string(capture.buffers.size()) + " buffer(s) but " +
                        std::to_string(outputEntries.size()) + " entries have an output [" +
                        (outs.empty() ? "none" : outs) + "]; " +
                        (capture.mode == CaptureMode::Interleaved
                             ? "interleaved mode needs exactly one output entry"
                             : "separate mode needs one output entry per varying, in the same order"));
    }
    for (size_t k = 0; k < outputEntries.size(); ++k) {
        size_t i = outputEntries[k];
        const OutputLayout& layout = capture.buffers[k];
        const BufferDesc& out = *entries[i].output;
        std::string who = entryName(entries, i) + " (capturing " + layout.fields[0].varying +
                          (layout.fields.size() > 1 ? ", ..." : "") + ")";
        checkOutputFormat(out.format, layout, who);
        std::uint64_t need =
            sizing == OutputSizing::PerDraw ? 0 : checkedBufferBytes(plan.count, layout.stride, UINT64_MAX, who);
        if (sizing == OutputSizing::PerDraw)
            need = 0;
        else if (out.bytes < need)
            throw Error(ErrorCode::Capacity, who + " holds " + std::to_string(out.bytes) + " bytes but a step writes " +
                                                 std::to_string(plan.count) + " x " + std::to_string(layout.stride) +
                                                 " = " + std::to_string(need) + " bytes; allocate at least " +
                                                 std::to_string(need) + " bytes");
        plan.outputs.push_back({int(i), layout.binding, layout.stride, need});
    }
    return plan;
}

} // namespace xfb
