// The WGSL translator's binding, only in the WebGPU module (xfb-webgpu.mjs, loaded by
// createXfb({ device }) alone): a WebGL2 user never downloads the translator.
#include "json_args.hpp"
#include "xfb/plan_json.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/wgsl_translation.hpp"

#include <emscripten/bind.h>

#include <optional>

using namespace xfb;
using namespace xfb::web;

/// WebGPU: the plan and the WGSL compute shader for a role list (web/package/webgpu.js drives
/// WebGPU from JavaScript). entriesJson: [{input?: {format, count}, output?: {format, count}}];
/// "" translates with the default roles (createProgram() checks the shader that way).
static std::string wgsl(std::string source, std::string optionsJson, std::string entriesJson) {
    json last;
    std::string out = guarded(last, std::string(), [&] {
        json o = json::parse(optionsJson);
        ReadOptions read = parseRead(o);
        CaptureOptions captureOptions = parseCapture(o);
        WgslTranslationOptions options;
        options.workGroupSize = o.value("workGroupSize", 256);
        ShaderInterface shader = readShaderInterface(toGlslEs300(source), read);
        auto attrs = planAttributes(shader, Limits::portable());
        auto capture = planCapture(shader, captureOptions, Limits::portable());
        json r = {{"plan", toJson(shader, attrs, capture)}};
        WgslShader w;
        if (entriesJson.empty()) w = translateToWgsl(source, read, captureOptions, options);
        else {
            std::vector<EntryDesc> entries;
            auto desc = [](const json& b) {
                VertexFormat f = parseFormat(b.at("format"));
                return BufferDesc{f, std::uint64_t(f.stride) * b.at("count").get<std::uint64_t>()};
            };
            for (const auto& e : json::parse(entriesJson)) {
                EntryDesc d;
                if (e.contains("input")) d.input = desc(e["input"]);
                if (e.contains("output")) d.output = desc(e["output"]);
                entries.push_back(d);
            }
            std::optional<std::int64_t> count;
            if (o.contains("count")) count = o["count"].get<std::int64_t>();
            std::vector<EmitDesc> emitDescs;
            for (const auto& e : o.value("emits", json::array())) emitDescs.push_back({e.at("varying").get<std::string>(), e.at("count").get<std::string>()});
            PassPlan pass = planPass(attrs, capture, entries, count, OutputSizing::PerElement, emitDescs.size());
            EmitPlan emits = planEmits(shader, capture, emitDescs, entries, pass.emitEntries);
            options.emits = &emits;
            w = translateToWgsl(source, read, pass, capture, entries.size(), options);
            json budgets = json::array();
            for (const auto& b : emits.budgets) budgets.push_back({{"budget", b.count}, {"maxRecords", b.maxRecords}, {"capacity", b.capacity}});
            r.update({{"countSource", w.countSource}, {"countsBinding", w.countsBinding}, {"firstBinding", w.firstBinding}, {"budgets", budgets}});
            json outputs = json::array();
            for (const auto& b : pass.outputs) outputs.push_back({{"entry", b.entry}, {"binding", b.binding}, {"stride", b.stride}});
            r["count"] = pass.count;
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

EMSCRIPTEN_BINDINGS(xfb_wgsl) {
    emscripten::function("wgsl", &wgsl);
}
