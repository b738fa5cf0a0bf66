#include "xfb/capture_plan.hpp"

#include "declared_layout.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <optional>
#include <map>
#include <set>

namespace xfb {

std::string_view captureModeName(CaptureMode m) { return enumName(captureModeNames, m); }

VertexFormat OutputLayout::asVertexFormat(int firstAttr) const {
    // An attribute holds 1..16 components: a longer field (out mat3 m[2], 18 floats) becomes
    // attributes of at most 16 at consecutive offsets, the same bytes.
    std::vector<VertexAttribute> attributes;
    for (const auto& field : fields)
        for (int done = 0; done < field.components; done += 16)
            attributes.push_back({attr(firstAttr + int(attributes.size())), field.type,
                                  std::min(16, field.components - done), field.offset + 4 * done});
    return VertexFormat::interleaved(std::move(attributes), stride);
}

bool CapturePlan::tight(std::size_t b) const {
    int next = 0;
    for (const auto& f : buffers.at(b).fields) {
        if (f.offset != next) return false;
        next += 4 * f.components;
    }
    return next == buffers.at(b).stride;
}

namespace plan {

std::string joinedNames(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 16; ++i) s += (s.empty() ? "" : ", ") + names[i];
    if (names.size() > 16) s += ", ... (" + std::to_string(names.size()) + " in all)";
    return s.empty() ? "(none)" : s;
}

// Outputs by name, built once: a linear search per captured name made thousands of outputs quadratic.
// Ordered containers here, not hash tables: these were the wasm module's only ones, and their hashing
// and rehashing cost 2.5 KB gzipped (web.size); a lookup in log n is as good at these sizes.
OutputIndex indexOutputs(const ShaderInterface& shader) {
    OutputIndex outputs;
    for (const Declaration& o : shader.outputs) outputs.emplace(o.name, &o); // the first declaration wins
    return outputs;
}

namespace {

// `base[index]`, the name of one element of an output array: a decimal index, nothing around it.
struct ElementName {
    std::string base;
    std::optional<long long> index; // none when the brackets hold no plain decimal number below 2^31
};
std::optional<ElementName> splitElement(const std::string& name) {
    auto open = name.find('[');
    if (open == std::string::npos) return std::nullopt;
    ElementName e{name.substr(0, open), std::nullopt};
    const std::size_t close = name.size() - 1;
    const std::string digits =
        name[close] == ']' && close > open ? name.substr(open + 1, close - open - 1) : std::string();
    if (!digits.empty() && digits.size() <= 10 && digits.find_first_not_of("0123456789") == std::string::npos &&
        std::stoll(digits) <= 0x7fffffff)
        e.index = std::stoll(digits);
    return e;
}

} // namespace

CapturedVarying lookUpVarying(const ShaderInterface& shader, const OutputIndex& outputs, const std::string& name) {
    if (name == "gl_Position") return {name, *builtinType("vec4"), 0, 0, 0};
    if (name == "gl_PointSize") return {name, *builtinType("float"), 0, 0, 0};
    const auto element = splitElement(name);
    auto found = outputs.find(element ? std::string_view(element->base) : std::string_view(name));
    const Declaration* d = found == outputs.end() ? nullptr : found->second;
    if (!d) {
        std::vector<std::string> outs;
        for (auto& o : shader.outputs) outs.push_back(o.name);
        std::string hint = shader.findInput(name) ? " ('" + name + "' is an input, not an output)" : "";
        throw Error(ErrorCode::UnknownVarying, "captured varying '" + name + "' is not an output of the shader" + hint +
                                                   "; outputs are: " + joinedNames(outs) +
                                                   " (an array's element is named name[i])");
    }
    if (element) {
        const std::string at = "captured varying '" + name + "' (line " + std::to_string(d->line) + "): ";
        if (d->arraySize == 0)
            throw Error(ErrorCode::UnknownVarying, at + "'" + d->name + "' is not an array (" + d->type.name +
                                                       "); capture it as '" + d->name + "'");
        if (!element->index)
            throw Error(ErrorCode::UnknownVarying, at + "not an element name: write '" + d->name +
                                                       "[i]' with a decimal index i in 0.." +
                                                       std::to_string(d->arraySize - 1) + " ('" + d->name + "' has " +
                                                       std::to_string(d->arraySize) + " elements)");
        if (*element->index >= d->arraySize)
            throw Error(ErrorCode::UnknownVarying, at + "the index is outside the array: '" + d->name + "' has " +
                                                       std::to_string(d->arraySize) + " elements (" + d->name +
                                                       "[0].." + d->name + "[" + std::to_string(d->arraySize - 1) +
                                                       "]); name one of them, or '" + d->name + "' for all");
    }
    if (d->type.kind == ScalarKind::Struct)
        throw Error(ErrorCode::VaryingType, "varying '" + name + "' (line " + std::to_string(d->line) +
                                                ") is a struct (" + d->type.name +
                                                "); declare its members as separate outputs and capture those");
    if (!componentTypeOf(d->type.kind))
        throw Error(ErrorCode::VaryingType,
                    "varying '" + name + "' (line " + std::to_string(d->line) + ") has type " + d->type.name +
                        ", which transform feedback cannot capture portably; use float, int or uint types");
    if (element)
        return {d->name + "[" + std::to_string(*element->index) + "]", d->type, 0, d->line,
                d->stream}; // one element: its own type, no array
    return {d->name, d->type, d->arraySize, d->line, d->stream};
}

} // namespace plan

namespace {

using plan::joinedNames;
using plan::splitElement;

// The plan of a list of whole varyings, interleaved or one buffer each (the layout GL derives).
CapturePlan planVaryingList(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits) {
    CapturePlan plan;
    plan.mode = options.mode;
    std::vector<std::string> names = options.varyings;
    if (names.empty()) {
        for (auto& o : shader.outputs)
            if (o.name.starts_with("out_")) names.push_back(o.name);
        if (names.empty() && shader.outputs.empty())
            throw Error(ErrorCode::NoCapturedVaryings,
                        "the shader declares no output variable, so there is nothing to capture: declare the "
                        "values to capture as outputs named out_* (`out vec4 out_position;`), or list "
                        "\"gl_Position\" as the varyings to capture it");
        if (names.empty()) {
            std::vector<std::string> declared;
            for (auto& o : shader.outputs) declared.push_back(o.name);
            throw Error(ErrorCode::NoCapturedVaryings,
                        "no varyings were listed and none of the shader's outputs (" + joinedNames(declared) +
                            ") is named out_*: pass the ones to capture as the varying list (e.g. [\"" +
                            declared.front() + "\"]), or rename them out_* (out_" + declared.front() + ")");
        }
    }
    const plan::OutputIndex outputs = plan::indexOutputs(shader);
    std::set<std::string_view> seen;
    std::set<std::string> planned; // as planned: out_r[01] is out_r[1]
    std::map<std::string, std::string> wholeArrays,
        firstElement; // base -> the name capturing all of it / one element of it
    for (size_t i = 0; i < names.size(); ++i) {
        if (!seen.insert(names[i]).second)
            throw Error(ErrorCode::DuplicateVarying,
                        "varying '" + names[i] + "' is listed twice in " + joinedNames(names) + "; list each once");
        plan.varyings.push_back(plan::lookUpVarying(shader, outputs, names[i]));
        // An element and its whole array capture the same bytes twice: GL refuses the link.
        const CapturedVarying& v = plan.varyings.back();
        if (!planned.insert(v.name).second)
            throw Error(ErrorCode::DuplicateVarying, "varying '" + names[i] + "' is '" + v.name +
                                                         "', listed before in " + joinedNames(names) +
                                                         "; list each once");
        const auto element = splitElement(v.name);
        const std::string base = element ? element->base : v.name;
        const std::string* other = nullptr;
        if (element) {
            if (auto w = wholeArrays.find(base); w != wholeArrays.end()) other = &w->second;
            firstElement.emplace(base, v.name);
        } else if (v.arraySize > 0) {
            if (auto e = firstElement.find(base); e != firstElement.end()) other = &e->second;
            wholeArrays.emplace(base, v.name);
        }
        if (other)
            throw Error(ErrorCode::DuplicateVarying,
                        "varying '" + v.name + "' overlaps '" + *other + "' in " + joinedNames(names) +
                            ": the whole array captures every element; list either the array or its elements");
    }

    auto describe = [](const CapturedVarying& v) {
        return "'" + v.name + "' (" + v.type.name + (v.arraySize ? "[" + std::to_string(v.arraySize) + "]" : "") +
               ", " + std::to_string(v.components()) + " components)";
    };
    if (options.mode == CaptureMode::Separate) {
        if (int(plan.varyings.size()) > limits.maxSeparateAttribs)
            throw Error(ErrorCode::SeparateAttribs, "separate mode captures " + std::to_string(plan.varyings.size()) +
                                                        " varyings (" + joinedNames(names) +
                                                        ") but MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is " +
                                                        std::to_string(limits.maxSeparateAttribs) +
                                                        "; merge varyings into vec4s, or use interleaved mode");
        for (const auto& v : plan.varyings) {
            if (options.portable && v.components() > 4)
                throw Error(ErrorCode::SeparateComponents,
                            "varying " + describe(v) +
                                " exceeds the 4-component limit of separate mode (the portable guarantee of WebGL2 and "
                                "OpenGL ES 3.0: MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS >= 4). Fix: split it into "
                                "varyings of at most 4 "
                                "components each (e.g. a vec4 and a float, each with its own buffer), or capture in "
                                "interleaved mode");
            if (v.components() > limits.maxSeparateComponents)
                throw Error(ErrorCode::SeparateComponentsDriver,
                            "varying " + describe(v) +
                                " exceeds this driver's MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS = " +
                                std::to_string(limits.maxSeparateComponents) +
                                ". Fix: split it into smaller varyings, or capture in interleaved mode");
        }
        int binding = 0;
        for (const auto& v : plan.varyings)
            plan.buffers.push_back(
                {binding++, v.bytes(), {{v.name, 0, v.components(), *componentTypeOf(v.type.kind)}}});
    } else {
        // A 64-bit sum first: thousands of varyings of up to limits::maxDeclarationComponents each.
        long long total = 0;
        for (const auto& v : plan.varyings) total += v.components();
        int offset = 0;
        OutputLayout layout{0, 0, {}};
        if (total <= limits.maxInterleavedComponents)
            for (const auto& v : plan.varyings) {
                layout.fields.push_back({v.name, offset, v.components(), *componentTypeOf(v.type.kind)});
                offset += v.bytes();
            }
        if (total > limits.maxInterleavedComponents)
            throw Error(ErrorCode::InterleavedComponents,
                        "interleaved capture of " + joinedNames(names) + " needs " + std::to_string(total) +
                            " components but MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is " +
                            std::to_string(limits.maxInterleavedComponents) +
                            "; capture fewer varyings per pass or split the state over separate buffers");
        layout.stride = offset;
        plan.buffers.push_back(std::move(layout));
    }
    return plan;
}

} // namespace

CapturePlan planCapture(const ShaderInterface& shader, const CaptureOptions& options, const Limits& limits) {
    CapturePlan plan = plan::declaresLayout(shader, options) ? plan::planDeclaredLayout(shader, options, limits)
                                                             : planVaryingList(shader, options, limits);
    // Every output takes varying rows, captured or not: over the limit the link fails (WebGL2
    // reported a varying the linker "optimized away").
    const std::vector<VaryingShape> shapes = varyingShapes(shader, plan);
    if (!varyingsFit(shapes, limits.maxVaryingVectors)) {
        std::vector<std::string> outs;
        for (const auto& v : shapes) outs.push_back(v.name);
        throw Error(ErrorCode::VaryingVectors,
                    "the vertex shader's outputs (" + joinedNames(outs) + ", captured or not) need " +
                        std::to_string(varyingRows(shapes)) +
                        " rows of 4 components by the GLSL ES varying packing rules, but MAX_VARYING_VECTORS is " +
                        std::to_string(limits.maxVaryingVectors) +
                        "; declare fewer outputs, or pack them into fewer vectors (two vec2 or "
                        "four floats into one vec4), drop outputs the simulation does not capture, or split the "
                        "simulation over two programs");
    }
    return plan;
}

} // namespace xfb
