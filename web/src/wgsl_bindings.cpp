// The WGSL translator's binding, only in the WebGPU module (xfb-webgpu.mjs, loaded by
// createXfb({ device }) alone): a WebGL2 user never downloads the translator. Arguments and
// results are JavaScript objects parsed and built as the WebGL2 bindings do (js_values.hpp), and
// a failure is an XfbError value: the module carries no JSON library.
#include "inputs.hpp"
#include "js_values.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_session.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/limits.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/plan_fields.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/geometry_plan.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/wgsl_translation.hpp"

#include <emscripten/bind.h>

#include <map>
#include <optional>

using namespace xfb;
using namespace xfb::web;

namespace xfb::boundary {
// inspect() in the WebGPU module plans as createProgram() does here: no varying rows (inputs.hpp).
Limits plannerLimits() { return Limits::webgpu(); }
} // namespace xfb::boundary

namespace {

// The arguments both entry points share: the shader read, its attributes and capture planned,
// and (for a role list) the pass planned for those buffers.
struct Planned {
    ReadOptions read;
    CaptureOptions captureOptions;
    ShaderInterface shader;
    std::vector<AttributeSlot> attrs;
    CapturePlan capture;
    bool roles = false; ///< a role list was given (else: the default roles, createProgram())
    std::vector<EntryDesc> entries;
    std::vector<EmitDesc> emitDescs;
    PassPlan pass;
};

/// entries: [{input?: {format, stride, count}, output?: {format, stride, count}}], or undefined for the default roles.
/// sizing: PerElement for a pipeline (o.count: its elements), PerDraw for a primitive capture
/// (o.vertexCount: its vertices without inputs).
Planned plan(const std::string& source, const val& o, const val& entries,
             OutputSizing sizing = OutputSizing::PerElement) {
    Planned p;
    p.read = parseRead(o);
    p.captureOptions = parseCapture(o);
    p.shader = readShaderInterface(toGlslEs300(source), p.read);
    p.attrs = planAttributes(p.shader, Limits::portable());
    p.capture = planCapture(p.shader, p.captureOptions, Limits::webgpu());
    if (entries.isUndefined() || entries.isNull()) return p;
    p.roles = true;
    auto desc = [](const val& b) {
        VertexFormat f = parseFormat(b["format"]);
        f.stride = b["stride"].as<int>(); // the buffer's layout, normalised with its stride
        return BufferDesc{f, std::uint64_t(f.stride) * std::uint64_t(b["count"].as<double>())};
    };
    for (const val& e : emscripten::vecFromJSArray<val>(entries)) {
        EntryDesc d;
        if (has(e, "input")) d.input = desc(e["input"]);
        if (has(e, "output")) d.output = desc(e["output"]);
        p.entries.push_back(d);
    }
    std::optional<std::int64_t> count;
    const char* countKey = sizing == OutputSizing::PerDraw ? "vertexCount" : "count";
    if (has(o, countKey)) count = std::int64_t(o[countKey].as<double>());
    if (sizing == OutputSizing::PerDraw) checkCaptureEntries(p.entries);
    if (has(o, "emits"))
        for (const val& e : emscripten::vecFromJSArray<val>(o["emits"]))
            p.emitDescs.push_back({e["varying"].as<std::string>(), e["count"].as<std::string>()});
    p.pass = planPass(p.attrs, p.capture, p.entries, count, sizing, p.emitDescs.size());
    return p;
}

/// A uniform block's layout (the vertex kernel's, the geometry kernels'): per uniform its offset,
/// array and column strides.
val uniformList(const std::vector<WgslUniform>& list) {
    val uniforms = val::array();
    for (const auto& u : list)
        uniforms.call<void>("push", object({{"name", js(u.name)},
                                            {"kind", js(int(u.type.kind))},
                                            {"columns", js(u.type.columns)},
                                            {"rows", js(u.type.rows)},
                                            {"arraySize", js(u.arraySize)},
                                            {"offset", js(u.offset)},
                                            {"arrayStride", js(u.arrayStride)},
                                            {"columnStride", js(u.columnStride)}}));
    return uniforms;
}

/// The translated shader's fields of a wgsl() / wgslCapture() result.
void shaderFields(val& r, const WgslShader& w) {
    val uniforms = uniformList(w.uniforms), textures = val::array();
    for (const auto& t : w.textures)
        textures.call<void>("push", object({{"name", js(t.name)},
                                            {"binding", js(t.binding)},
                                            {"kind", js(int(t.sampleKind))},
                                            {"samplerBinding", js(t.samplerBinding)}}));
    for (const auto& [k, v] : {std::pair<const char*, val>{"source", js(w.source)},
                               {"entryPoint", js(w.entryPoint)},
                               {"workGroupSize", js(w.workGroupSize)},
                               {"uniformBinding", js(w.uniformBinding)},
                               {"uniformBytes", js(w.uniformBytes)},
                               {"countOffset", js(w.countOffset)},
                               {"uniforms", uniforms},
                               {"textures", textures},
                               {"readBinding", array(w.readBinding)},
                               {"writeBinding", array(w.writeBinding)}})
        r.set(k, v);
}

/// The pass's output buffers: {entry, binding, stride} each.
val passOutputs(const PassPlan& pass) {
    val outputs = val::array();
    for (const auto& e : pass.outputs)
        outputs.call<void>("push",
                           object({{"entry", js(e.entry)}, {"binding", js(e.binding)}, {"stride", js(e.stride)}}));
    return outputs;
}

DrawDesc parseDraw(const val& d) {
    DrawDesc draw;
    draw.mode = fromName<DrawMode>(d["mode"].as<std::string>(), drawModeNames, "mode");
    draw.vertexCount = std::int64_t(get<double>(d, "count", 0));
    if (has(d, "indices")) draw.indices = emscripten::convertJSArrayToNumberVector<std::uint32_t>(d["indices"]);
    if (has(d, "restartIndex")) draw.restartIndex = std::uint32_t(d["restartIndex"].as<double>());
    return draw;
}

val countFields(const CaptureCount& c) {
    return object({{"primitive", js(drawModeName(c.primitive))},
                   {"primitives", js(c.primitives)},
                   {"records", js(c.records)},
                   {"bytes", array(c.bytes)}});
}

val words(const std::vector<std::uint32_t>& list) {
    return val(emscripten::typed_memory_view(list.size(), list.data())).call<val>("slice");
}

} // namespace

/// WebGPU: the plan and the WGSL compute shader for a role list (web/package/webgpu.js drives
/// WebGPU from JavaScript). entries as plan(); undefined translates with the default roles
/// (createProgram() checks the shader that way). An XfbError value on failure.
static val wgsl(std::string source, val o, val entries) {
    return guarded([&] {
        Planned p = plan(source, o, entries);
        WgslTranslationOptions options;
        options.workGroupSize = get<int>(o, "workGroupSize", 256);
        ValBuilder b;
        val r = object({{"plan", planFields(b, p.shader, p.attrs, p.capture)}});
        WgslShader w;
        if (!p.roles)
            w = translateToWgsl(source, p.read, p.captureOptions, options);
        else {
            EmitPlan emits = planEmits(p.shader, p.capture, p.emitDescs, p.entries, p.pass.emitEntries, p.pass.count);
            options.emits = &emits;
            w = translateToWgsl(source, p.read, p.pass, p.capture, p.entries.size(), options);
            val budgets = val::array();
            for (const auto& e : emits.budgets)
                budgets.call<void>(
                    "push",
                    object({{"budget", js(e.count)}, {"maxRecords", js(e.maxRecords)}, {"capacity", js(e.capacity)}}));
            r.set("countSource", w.countSource);
            r.set("countsBinding", array(w.countsBinding));
            r.set("firstBinding", array(w.firstBinding));
            r.set("budgets", budgets);
            r.set("count", js(p.pass.count));
            r.set("outputs", passOutputs(p.pass));
        }
        shaderFields(r, w);
        return r;
    });
}

/// WebGPU fused substeps (Pipeline::step(k) on WebGL2): whether step(k > 1) of this program
/// with this role list runs its k substeps in one compute pass, and the WGSL that does (one
/// pipeline for every k: the count is the u32 at substepsOffset of the uniform buffer).
/// Arguments as wgsl(); options.fuseSubsteps false refuses as PipelineOptions::fuseSubsteps does.
/// Returns {fused, reason, maxSubsteps} and, when fused, {source, uniformBytes, substepsOffset}.
static val wgslSubsteps(std::string source, val o, val entries) {
    return guarded([&] {
        val r = object({{"maxSubsteps", js(limits::maxSubsteps)}});
        if (!get<bool>(o, "fuseSubsteps", true)) {
            r.set("fused", false);
            r.set("reason", std::string("PipelineOptions::fuseSubsteps is off"));
            return r;
        }
        Planned p = plan(source, o, entries);
        FusionDecision decision = checkFusion(source, p.read, p.pass, p.capture, !p.emitDescs.empty());
        r.set("fused", decision.fused);
        r.set("reason", decision.reason);
        if (decision.fused) {
            WgslTranslationOptions options;
            options.workGroupSize = get<int>(o, "workGroupSize", 256);
            options.fuseSubsteps = true;
            WgslShader w = translateToWgsl(source, p.read, p.pass, p.capture, p.entries.size(), options);
            r.set("source", w.source);
            r.set("uniformBytes", js(w.uniformBytes));
            r.set("substepsOffset", js(w.substepsOffset));
        }
        return r;
    });
}

/// WebGPU primitive capture: the plan and the gather WGSL (WgslTranslationOptions::gather) of a
/// program over a capture's role list ({input} vertex buffers, {output} buffers; o.vertexCount
/// without inputs). `base` ({source, options, label, captureLabel, part}): the program is part
/// `part` of a session of a capture made with `base.source`, checked by checkSessionProgram().
/// Returns wgsl()'s fields plus {count: the input vertices, outputs, sourceBinding, gatherOffset}.
static val wgslCapture(std::string source, val o, val entries, val base) {
    return guarded([&] {
        Planned p = plan(source, o, entries, OutputSizing::PerDraw);
        if (!base.isUndefined()) {
            Planned q = plan(base["source"].as<std::string>(), base["options"], val::undefined());
            checkSessionProgram(std::size_t(base["part"].as<double>()), base["label"].as<std::string>(), p.capture,
                                p.attrs, base["captureLabel"].as<std::string>(), q.capture, q.attrs);
        }
        WgslTranslationOptions options;
        options.workGroupSize = get<int>(o, "workGroupSize", 256);
        options.gather = true;
        WgslShader w = translateToWgsl(source, p.read, p.pass, p.capture, p.entries.size(), options);
        ValBuilder b;
        val r = object({{"plan", planFields(b, p.shader, p.attrs, p.capture)},
                        {"count", js(p.pass.count)},
                        {"outputs", passOutputs(p.pass)},
                        {"sourceBinding", js(w.sourceBinding)},
                        {"gatherOffset", js(w.gatherOffset)},
                        {"budgets", val::array()},
                        {"countSource", js(std::string())}});
        shaderFields(r, w);
        return r;
    });
}

/// WebGPU primitive capture: plans draws over inputs of `vertexCount` vertices into outputs of
/// `strides` bytes a record holding `outputBytes`, with every check of PrimitiveCapture::capture()
/// (session false: one draw, `draws[0]`) or captureSession() (from record `firstRecord`), in
/// its order and with its messages, before anything is written. draws: [{mode, count?, indices?
/// (Uint32Array), restartIndex?}]. Returns {count} (a capture's CaptureCount) or {session} (a
/// SessionPlan), and `sources`: the source vertex of every record written, in order
/// (expandPrimitives() of each draw, concatenated), as a Uint32Array.
static val captureDraws(val draws, bool session, double firstRecord, double vertexCount, val strides, val outputBytes) {
    return guarded([&] {
        CapturePlan layout;
        for (int stride : emscripten::vecFromJSArray<int>(strides)) layout.buffers.push_back({0, stride, {}});
        const auto bytes = emscripten::convertJSArrayToNumberVector<double>(outputBytes);
        const std::vector<std::uint64_t> held(bytes.begin(), bytes.end());
        std::vector<DrawDesc> parts;
        for (const val& d : emscripten::vecFromJSArray<val>(draws)) parts.push_back(parseDraw(d));
        std::vector<std::uint32_t> sources;
        auto expand = [&](const DrawDesc& d) {
            auto list = expandPrimitives(d);
            sources.insert(sources.end(), list.begin(), list.end());
        };
        if (!session) {
            CaptureCount c = countCapture(parts.at(0), layout);
            checkDrawVertices(parts[0], std::int64_t(vertexCount));
            checkCaptureCapacity(c, held);
            expand(parts[0]);
            return object({{"count", countFields(c)}, {"sources", words(sources)}});
        }
        for (std::size_t i = 0; i < parts.size(); ++i) try {
                checkDrawVertices(parts[i], std::int64_t(vertexCount));
            } catch (const Error& e) { throw Error(e.code(), "part " + std::to_string(i) + ": " + e.message()); }
        SessionPlan s = planCaptureSession(parts, layout, std::int64_t(firstRecord));
        checkSessionCapacity(s, held);
        for (const auto& d : parts) expand(d);
        val list = val::array();
        for (const auto& r : s.parts) {
            list.call<void>("push", object({{"primitive", js(drawModeName(r.primitive))},
                                            {"primitives", js(r.primitives)},
                                            {"firstRecord", js(r.firstRecord)},
                                            {"records", js(r.records)},
                                            {"firstByte", array(r.firstByte)},
                                            {"bytes", array(r.bytes)}}));
        }
        return object({{"session", object({{"firstRecord", js(s.firstRecord)},
                                           {"endRecord", js(s.endRecord)},
                                           {"endBytes", array(s.endBytes)},
                                           {"parts", list}})},
                       {"sources", words(sources)}});
    });
}

namespace {

// A geometry program planned as PrimitiveCapture plans it: the vertex shader's attributes, the
// geometry shader's per-stream capture and layout, and the pass over a capture's role list (the
// default roles without one: every input packed in one {input}, one {output} per captured buffer).
struct GeometryPlanned {
    ReadOptions read;
    ShaderInterface vertex;
    std::vector<AttributeSlot> attrs;
    GeometryInterface geometryShader;
    CapturePlan capture;
    GeometryPlan geometry;
    std::vector<EntryDesc> entries;
    PassPlan pass;
};

GeometryPlanned planGeometryProgram(const std::string& source, const std::string& geometrySource, const val& o,
                                    const val& entries) {
    GeometryPlanned p;
    p.read = parseRead(o);
    p.vertex = readShaderInterface(toGlslEs300(source), p.read);
    p.attrs = planAttributes(p.vertex, Limits::portable());
    p.geometryShader = readGeometryInterface(geometrySource, p.read);
    p.capture = planGeometryCapture(p.geometryShader.shader, parseCapture(o), Limits::webgpu());
    p.geometry = planGeometry(p.geometryShader, p.capture);
    std::optional<std::int64_t> count;
    if (entries.isUndefined() || entries.isNull()) {
        std::vector<VertexAttribute> packed;
        for (const auto& a : p.attrs)
            if (auto type = componentTypeOf(a.type.kind)) packed.push_back({a.semantic, *type, a.components()});
        if (!packed.empty()) {
            VertexFormat f = VertexFormat::interleaved(packed);
            p.entries.push_back({BufferDesc{f, std::uint64_t(f.stride)}, std::nullopt});
        }
        for (const auto& b : p.capture.buffers)
            p.entries.push_back({std::nullopt, BufferDesc{b.asVertexFormat(20), std::uint64_t(b.stride)}});
        count = 1;
    } else {
        for (const val& e : emscripten::vecFromJSArray<val>(entries)) {
            EntryDesc d;
            auto desc = [](const val& b) {
                VertexFormat f = parseFormat(b["format"]);
                f.stride = b["stride"].as<int>();
                return BufferDesc{f, std::uint64_t(f.stride) * std::uint64_t(b["count"].as<double>())};
            };
            if (has(e, "input")) d.input = desc(e["input"]);
            if (has(e, "output")) d.output = desc(e["output"]);
            p.entries.push_back(d);
        }
        checkCaptureEntries(p.entries);
        if (has(o, "vertexCount")) count = std::int64_t(o["vertexCount"].as<double>());
    }
    p.pass = planPass(p.attrs, p.capture, p.entries, count, OutputSizing::PerDraw);
    return p;
}

} // namespace

/// WebGPU geometry programs: the WGSL kernels of a geometry program (translateGeometryToWgsl)
/// over a capture's role list (entries as wgslCapture(); undefined: the default roles, which
/// createProgram() translates to check the program). Returns wgsl()'s fields of the vertex pass
/// (its uniforms are the program's), {count, outputs} of the pass, and `geometry`: the kernels,
/// their bindings and uniform layout (the geometry shader's uniforms) and the plan's streams.
static val wgslGeometry(std::string source, std::string geometrySource, val o, val entries) {
    return guarded([&] {
        GeometryPlanned p = planGeometryProgram(source, geometrySource, o, entries);
        WgslTranslationOptions options;
        options.workGroupSize = get<int>(o, "workGroupSize", 64);
        const WgslGeometryShaders w = translateGeometryToWgsl(source, geometrySource, p.read, p.pass, p.capture,
                                                              p.geometry, p.entries.size(), options);
        val streams = val::array();
        for (int k = 0; k < p.geometry.streamCount; ++k) {
            const GeometryStream* g = p.geometry.find(k);
            streams.call<void>("push", object({{"stream", js(k)},
                                               {"captured", val(g != nullptr)},
                                               {"buffers", array(g ? g->buffers : std::vector<int>{})}}));
        }
        val geometry = object({{"countSource", js(w.countSource)},
                               {"writeSource", js(w.writeSource)},
                               {"entryPoint", js(w.entryPoint)},
                               {"workGroupSize", js(w.workGroupSize)},
                               {"uniformBinding", js(w.uniformBinding)},
                               {"uniformBytes", js(w.uniformBytes)},
                               {"uniforms", uniformList(w.uniforms)},
                               {"scratchBinding", js(w.scratchBinding)},
                               {"sourcesBinding", js(w.sourcesBinding)},
                               {"scratchStride", js(w.scratchStride)},
                               {"outputBinding", array(w.outputBinding)},
                               {"countsBinding", array(w.countsBinding)},
                               {"firstBinding", array(w.firstBinding)},
                               {"storageBuffers", js(w.storageBuffers)},
                               {"inputVertices", js(w.inputVertices)},
                               {"primitiveVertices", js(w.primitiveVertices)},
                               {"input", js(std::string(geometryInputName(p.geometry.input)))},
                               {"primitive", js(drawModeName(p.geometry.capturedPrimitive()))},
                               {"maxVertices", js(p.geometry.maxVertices)},
                               {"invocations", js(p.geometry.invocations)},
                               {"streamCount", js(p.geometry.streamCount)},
                               {"streams", streams}});
        ValBuilder b;
        val r = object({{"plan", planFields(b, p.vertex, p.attrs, p.capture)},
                        {"count", js(p.pass.count)},
                        {"outputs", passOutputs(p.pass)},
                        {"budgets", val::array()},
                        {"countSource", js(std::string())},
                        {"geometry", geometry}});
        shaderFields(r, w.vertex);
        return r;
    });
}

/// WebGPU geometry capture: a draw checked as PrimitiveCapture::capture() checks it for a geometry
/// program with Backend::Compute, before anything is written: its primitives are the shader's
/// input (XFB_GEOMETRY_INPUT), its vertices within `vertexCount`, each stream's budget under 2^32
/// records (XFB_BUFFER_TOO_LARGE), and, unless `clamp`, within the buffers of `outputBytes`
/// (XFB_CAPACITY). Returns {count} (the budget, with inputPrimitives and per-stream budgets),
/// `sources` (the input primitives' vertices, expandPrimitives()) and `capacity` (per stream, the
/// whole primitives' records its buffers hold, as the compute capture's write pass bounds them).
static val geometryDraw(std::string source, std::string geometrySource, val o, val d, double vertexCount,
                        val outputBytes, bool clamp) {
    return guarded([&] {
        // The programs planned before, by their sources and options: a program captured every frame
        // is read and planned once (a few programs at a time; the cache starts over past 16).
        static std::map<std::string, GeometryPlanned> planned;
        std::string key = source + '\0' + geometrySource + '\0' + val::global("JSON").call<std::string>("stringify", o);
        auto it = planned.find(key);
        if (it == planned.end()) {
            GeometryPlanned fresh = planGeometryProgram(source, geometrySource, o, val::undefined());
            if (planned.size() >= 16) planned.clear();
            it = planned.emplace(std::move(key), std::move(fresh)).first;
        }
        const GeometryPlanned& p = it->second;
        const DrawDesc draw = parseDraw(d);
        const CaptureCount count = countGeometryCapture(draw, p.geometry, p.capture);
        checkDrawVertices(draw, std::int64_t(vertexCount));
        checkComputeCounts(count);
        const auto bytes = emscripten::convertJSArrayToNumberVector<double>(outputBytes);
        const std::vector<std::uint64_t> held(bytes.begin(), bytes.end());
        if (!clamp) checkGeometryCapacity(count, p.geometry, p.capture, held);
        if (held.size() != p.capture.buffers.size())
            throw Error(ErrorCode::InvalidArgument, "geometryDraw: " + std::to_string(held.size()) +
                                                        " output sizes for " +
                                                        std::to_string(p.capture.buffers.size()) + " buffers");
        std::vector<double> capacity;
        for (std::int64_t records : geometryStreamCapacities(p.geometry, p.capture, held))
            capacity.push_back(double(records));
        val streams = val::array();
        for (const StreamBudget& b : count.streams)
            streams.call<void>("push", object({{"stream", js(b.stream)},
                                               {"primitive", js(drawModeName(b.primitive))},
                                               {"primitives", js(b.primitives)},
                                               {"records", js(b.records)}}));
        val c = countFields(count);
        c.set("inputPrimitives", js(count.inputPrimitives));
        c.set("streams", streams);
        return object({{"count", c}, {"sources", words(expandPrimitives(draw))}, {"capacity", array(capacity)}});
    });
}

EMSCRIPTEN_BINDINGS(xfb_wgsl) {
    emscripten::function("wgslGeometry", &wgslGeometry);
    emscripten::function("geometryDraw", &geometryDraw);
    emscripten::function("wgslCapture", &wgslCapture);
    emscripten::function("captureDraws", &captureDraws);
    emscripten::function("wgsl", &wgsl);
    emscripten::function("wgslSubsteps", &wgslSubsteps);
}
