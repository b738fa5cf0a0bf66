// The WGSL translator's binding, only in the WebGPU module (xfb-webgpu.mjs, loaded by
// createXfb({ device }) alone): a WebGL2 user never downloads the translator.
#include "json_args.hpp"
#include "xfb/plan_json.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/wgsl_translation.hpp"

#include <emscripten/bind.h>

#include <optional>

using namespace xfb;
using namespace xfb::web;

namespace {

// The arguments both entry points share: the shader read, its attributes and capture planned,
// and (for a role list) the pass planned for those buffers.
struct Planned {
    ReadOptions read;
    CaptureOptions captureOptions;
    ShaderInterface shader;
    std::vector<AttributeSlot> attrs;
    CapturePlan capture;
    std::vector<EntryDesc> entries;
    std::vector<EmitDesc> emitDescs;
    PassPlan pass;
};

Planned plan(const std::string& source, const json& o, const std::string& entriesJson) {
    Planned p;
    p.read = parseRead(o);
    p.captureOptions = parseCapture(o);
    p.shader = readShaderInterface(toGlslEs300(source), p.read);
    p.attrs = planAttributes(p.shader, Limits::portable());
    p.capture = planCapture(p.shader, p.captureOptions, Limits::portable());
    if (entriesJson.empty()) return p;
    auto desc = [](const json& b) {
        VertexFormat f = parseFormat(b.at("format"));
        return BufferDesc{f, std::uint64_t(f.stride) * b.at("count").get<std::uint64_t>()};
    };
    for (const auto& e : json::parse(entriesJson)) {
        EntryDesc d;
        if (e.contains("input")) d.input = desc(e["input"]);
        if (e.contains("output")) d.output = desc(e["output"]);
        p.entries.push_back(d);
    }
    std::optional<std::int64_t> count;
    if (o.contains("count")) count = o["count"].get<std::int64_t>();
    for (const auto& e : o.value("emits", json::array())) p.emitDescs.push_back({e.at("varying").get<std::string>(), e.at("count").get<std::string>()});
    p.pass = planPass(p.attrs, p.capture, p.entries, count, OutputSizing::PerElement, p.emitDescs.size());
    return p;
}

} // namespace

/// WebGPU: the plan and the WGSL compute shader for a role list (web/package/webgpu.js drives
/// WebGPU from JavaScript). entriesJson: [{input?: {format, count}, output?: {format, count}}];
/// "" translates with the default roles (createProgram() checks the shader that way).
static std::string wgsl(std::string source, std::string optionsJson, std::string entriesJson) {
    json last;
    std::string out = guarded(last, std::string(), [&] {
        json o = json::parse(optionsJson);
        Planned p = plan(source, o, entriesJson);
        WgslTranslationOptions options;
        options.workGroupSize = o.value("workGroupSize", 256);
        json r = {{"plan", toJson(p.shader, p.attrs, p.capture)}};
        WgslShader w;
        if (entriesJson.empty()) w = translateToWgsl(source, p.read, p.captureOptions, options);
        else {
            EmitPlan emits = planEmits(p.shader, p.capture, p.emitDescs, p.entries, p.pass.emitEntries);
            options.emits = &emits;
            w = translateToWgsl(source, p.read, p.pass, p.capture, p.entries.size(), options);
            json budgets = json::array();
            for (const auto& b : emits.budgets) budgets.push_back({{"budget", b.count}, {"maxRecords", b.maxRecords}, {"capacity", b.capacity}});
            r.update({{"countSource", w.countSource}, {"countsBinding", w.countsBinding}, {"firstBinding", w.firstBinding}, {"budgets", budgets}});
            json outputs = json::array();
            for (const auto& b : p.pass.outputs) outputs.push_back({{"entry", b.entry}, {"binding", b.binding}, {"stride", b.stride}});
            r["count"] = p.pass.count;
            r["outputs"] = outputs;
        }
        json uniforms = json::array(), textures = json::array();
        for (const auto& u : w.uniforms)
            uniforms.push_back({{"name", u.name}, {"kind", int(u.type.kind)}, {"columns", u.type.columns}, {"rows", u.type.rows}, {"arraySize", u.arraySize},
                                {"offset", u.offset}, {"arrayStride", u.arrayStride}, {"columnStride", u.columnStride}});
        for (const auto& t : w.textures) textures.push_back({{"name", t.name}, {"binding", t.binding}, {"kind", int(t.sampleKind)}});
        r.update({{"source", w.source}, {"entryPoint", w.entryPoint}, {"workGroupSize", w.workGroupSize}, {"uniformBinding", w.uniformBinding},
                  {"uniformBytes", w.uniformBytes}, {"countOffset", w.countOffset}, {"uniforms", uniforms}, {"textures", textures},
                  {"readBinding", w.readBinding}, {"writeBinding", w.writeBinding}});
        return r.dump();
    });
    return out.empty() ? json{{"error", last}}.dump() : out;
}

/// WebGPU fused substeps (Pipeline::step(k) on WebGL2): whether step(k > 1) of this program
/// with this role list runs its k substeps in one compute pass, and the WGSL that does (one
/// pipeline for every k: the count is the u32 at substepsOffset of the uniform buffer).
/// Arguments as wgsl(); options.fuseSubsteps false refuses as PipelineOptions::fuseSubsteps does.
/// Returns {fused, reason, maxSubsteps} and, when fused, {source, uniformBytes, substepsOffset}.
static std::string wgslSubsteps(std::string source, std::string optionsJson, std::string entriesJson) {
    json last;
    std::string out = guarded(last, std::string(), [&] {
        json o = json::parse(optionsJson);
        json r = {{"maxSubsteps", limits::maxSubsteps}};
        if (!o.value("fuseSubsteps", true)) {
            r.update({{"fused", false}, {"reason", "PipelineOptions::fuseSubsteps is off"}});
            return r.dump();
        }
        Planned p = plan(source, o, entriesJson);
        FusionDecision decision = checkFusion(source, p.read, p.pass, p.capture, !p.emitDescs.empty());
        r.update({{"fused", decision.fused}, {"reason", decision.reason}});
        if (decision.fused) {
            WgslTranslationOptions options;
            options.workGroupSize = o.value("workGroupSize", 256);
            options.fuseSubsteps = true;
            WgslShader w = translateToWgsl(source, p.read, p.pass, p.capture, p.entries.size(), options);
            r.update({{"source", w.source}, {"uniformBytes", w.uniformBytes}, {"substepsOffset", w.substepsOffset}});
        }
        return r.dump();
    });
    return out.empty() ? json{{"error", last}}.dump() : out;
}

EMSCRIPTEN_BINDINGS(xfb_wgsl) {
    emscripten::function("wgsl", &wgsl);
    emscripten::function("wgslSubsteps", &wgslSubsteps);
}
