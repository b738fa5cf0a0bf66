#include "planner_harness.hpp"

#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/compute_translation.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/error.hpp"
#include "xfb/fragment_translation.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/limits.hpp"
#include "xfb/pass_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace xfb::fuzz {
namespace {

// Checked in every build type (assert() would vanish from release builds).
#define XFB_FUZZ_EXPECT(condition)                                                                                     \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            std::fprintf(stderr, "planner invariant broken: %s (%s:%d)\n", #condition, __FILE__, __LINE__);            \
            std::abort();                                                                                              \
        }                                                                                                              \
    } while (0)

constexpr std::int64_t kCount = 3; // elements per step in the planned pass

void checkDeclarations(const std::vector<Declaration>& list) {
    for (const Declaration& d : list) {
        XFB_FUZZ_EXPECT(d.arraySize >= 0 && d.arraySize <= limits::maxArraySize);
        XFB_FUZZ_EXPECT(d.components() >= 0 && d.components() <= limits::maxDeclarationComponents);
        XFB_FUZZ_EXPECT(!d.name.empty());
    }
}

void checkCapture(const CapturePlan& plan, const CaptureOptions& options, const Limits& limits) {
    XFB_FUZZ_EXPECT(!plan.varyings.empty());
    if (plan.declared) {
        // A declared layout (the shader's xfb_* qualifiers): buffers 0..n-1, fields in offset
        // order on 4-byte offsets, inside the stride, not overlapping, each within its varying.
        XFB_FUZZ_EXPECT(!plan.buffers.empty() && int(plan.buffers.size()) <= limits.maxSeparateAttribs);
        for (std::size_t b = 0; b < plan.buffers.size(); ++b) {
            const OutputLayout& layout = plan.buffers[b];
            XFB_FUZZ_EXPECT(layout.binding == int(b) && layout.stride % 4 == 0 &&
                            layout.stride / 4 <= limits.maxInterleavedComponents && !layout.fields.empty());
            int end = 0;
            for (const BufferField& f : layout.fields) {
                XFB_FUZZ_EXPECT(f.offset % 4 == 0 && f.offset >= end && f.components > 0);
                end = f.offset + 4 * f.components;
                auto v = std::find_if(plan.varyings.begin(), plan.varyings.end(),
                                      [&](const CapturedVarying& x) { return x.name == f.varying; });
                XFB_FUZZ_EXPECT(v != plan.varyings.end() && f.firstComponent + f.components <= v->components());
            }
            XFB_FUZZ_EXPECT(end <= layout.stride);
        }
        return;
    }
    if (options.mode == CaptureMode::Interleaved) {
        XFB_FUZZ_EXPECT(plan.buffers.size() == 1);
        int offset = 0, total = 0;
        for (std::size_t i = 0; i < plan.varyings.size(); ++i) {
            XFB_FUZZ_EXPECT(plan.buffers[0].fields[i].offset == offset);
            offset += plan.varyings[i].bytes();
            total += plan.varyings[i].components();
        }
        XFB_FUZZ_EXPECT(plan.buffers[0].stride == offset && total <= limits.maxInterleavedComponents);
    } else {
        XFB_FUZZ_EXPECT(plan.buffers.size() == plan.varyings.size() &&
                        int(plan.varyings.size()) <= limits.maxSeparateAttribs);
        for (std::size_t i = 0; i < plan.varyings.size(); ++i) {
            XFB_FUZZ_EXPECT(plan.buffers[i].stride == plan.varyings[i].bytes() && plan.buffers[i].binding == int(i));
            XFB_FUZZ_EXPECT(plan.varyings[i].components() <= limits.maxSeparateComponents &&
                            plan.varyings[i].components() <= 4);
        }
    }
}

// Emitted outputs as the engine's convention names them: arrays `emit_*` counted by `emit_count`.
std::vector<EmitDesc> emitsOf(const ShaderInterface& shader) {
    std::vector<EmitDesc> emits;
    if (!shader.findOutput("emit_count")) return emits;
    for (const Declaration& o : shader.outputs)
        if (o.name.starts_with("emit_") && o.name != "emit_count" && emits.size() < 4)
            emits.push_back({o.name, "emit_count"});
    return emits;
}

template<class F>
bool attempt(F&& f) {
    try {
        f();
        return true;
    } catch (const Error&) {
        return false; // the contract: a coded error
    }
}

void planEverything(std::string_view source, const ShaderInterface& shader, const Limits& limits, bool translate) {
    std::vector<AttributeSlot> slots;
    if (!attempt([&] { slots = planAttributes(shader, limits); })) return;
    for (const AttributeSlot& s : slots)
        XFB_FUZZ_EXPECT(s.location >= 0 && s.location + s.locationCount <= limits.maxVertexAttribs);

    for (CaptureMode mode : {CaptureMode::Interleaved, CaptureMode::Separate}) {
        CaptureOptions options{mode, {}, true};
        CapturePlan capture;
        if (!attempt([&] { capture = planCapture(shader, options, limits); })) continue;
        checkCapture(capture, options, limits);

        // One buffer per role, sized for kCount elements: inputs in the slots' formats, outputs in
        // the captured layouts, then one buffer per emitted output.
        std::vector<EntryDesc> entries;
        for (const AttributeSlot& s : slots) {
            auto type = componentTypeOf(s.type.kind);
            XFB_FUZZ_EXPECT(type.has_value());
            VertexFormat f = VertexFormat::interleaved({{s.semantic, *type, s.components()}});
            entries.push_back({BufferDesc{f, std::uint64_t(kCount) * std::uint64_t(f.stride)}, std::nullopt});
        }
        bool formatsFit = true;
        for (const OutputLayout& layout : capture.buffers) {
            if (layout.fields.size() > 16)
                formatsFit = false; // more fields than a format has semantics for
            else
                entries.push_back({std::nullopt, BufferDesc{layout.asVertexFormat(),
                                                            std::uint64_t(kCount) * std::uint64_t(layout.stride)}});
        }
        if (!formatsFit) continue;
        std::vector<EmitDesc> emits = emitsOf(shader);
        for (const EmitDesc& e : emits) {
            const Declaration* d = shader.findOutput(e.varying);
            auto type = componentTypeOf(d->type.kind);
            int components = d->type.components();
            if (!type || components < 1 || components > 4 || d->arraySize <= 0) {
                emits.clear(); // planEmits reports these; here they leave the pass without emits
                break;
            }
            VertexFormat f = VertexFormat::interleaved({{attr(0), *type, components}});
            entries.push_back({std::nullopt, BufferDesc{f, std::uint64_t(kCount) * std::uint64_t(d->arraySize) *
                                                               std::uint64_t(f.stride)}});
        }
        if (emits.empty())
            while (entries.size() > slots.size() + capture.buffers.size()) entries.pop_back();

        PassPlan pass;
        if (!attempt([&] {
                pass = planPass(slots, capture, entries,
                                slots.empty() ? std::optional<std::int64_t>(kCount) : std::nullopt,
                                OutputSizing::PerElement, emits.size());
            }))
            continue;
        XFB_FUZZ_EXPECT(pass.count == kCount && pass.outputs.size() == capture.buffers.size());
        for (const OutputBinding& o : pass.outputs)
            XFB_FUZZ_EXPECT(o.bytesPerStep == std::uint64_t(kCount) * std::uint64_t(o.stride));

        EmitPlan emitPlan;
        if (!emits.empty() &&
            !attempt([&] { emitPlan = planEmits(shader, capture, emits, entries, pass.emitEntries, pass.count); }))
            emits.clear();
        // The translations read the source again: once per mode, with the portable limits only
        // (GLSL 4.30 for interleaved, ES 3.10 and the fragment passes for separate), to keep the fuzzer fast.
        if (!translate) continue;
        ComputeTranslationOptions translation{mode == CaptureMode::Separate, 64, emits.empty() ? nullptr : &emitPlan};
        attempt([&] {
            ComputeShader c = translateToCompute(source, {}, pass, capture, entries.size(), translation);
            XFB_FUZZ_EXPECT(!c.source.empty() && c.readBinding.size() == entries.size());
        });
        // The fragment translation in separate mode: every plane of every captured buffer written
        // by exactly one pass.
        if (mode == CaptureMode::Separate && emits.empty())
            attempt([&] {
                FragmentShader f = translateToFragment(source, {}, pass, capture, entries.size());
                std::size_t written = 0, planes = 0;
                for (const FragmentPass& p : f.passes) {
                    XFB_FUZZ_EXPECT(!p.source.empty() && !p.targets.empty());
                    written += p.targets.size();
                }
                for (const auto& o : pass.outputs) planes += std::size_t((o.stride / 4 + 3) / 4);
                XFB_FUZZ_EXPECT(written == planes && f.rows >= 1 && f.inputSamplers.size() == entries.size());
            });
    }
}

} // namespace

void runPlanner(std::string_view source) {
    attempt([&] { (void)toGlslEs300(source); });
    ShaderInterface shader;
    if (!attempt([&] { shader = readShaderInterface(source); })) return;
    checkDeclarations(shader.inputs);
    checkDeclarations(shader.outputs);
    checkDeclarations(shader.uniforms);
    XFB_FUZZ_EXPECT(int(shader.inputs.size() + shader.outputs.size() + shader.uniforms.size()) <=
                    limits::maxDeclarations);
    // The portable minimums, and limits as wide as a desktop driver's (llvmpipe reports 64 separate components).
    planEverything(source, shader, Limits::portable(), true);
    planEverything(source, shader, Limits{16, 64, 4, 128}, false);
}

} // namespace xfb::fuzz
