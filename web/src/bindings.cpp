// JavaScript bindings (embind). A thin layer: objects live here under integer ids, structured
// arguments and results travel as JSON, and every failure is caught and kept for lastError(),
// so nothing throws across the wasm boundary. The JavaScript API (web/package/index.js)
// validates input first and turns failures into XfbError.
#include "xfb/plan_json.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/wgsl_translation.hpp"
#include "xfb/xfb.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include <map>
#include <new>
#include <optional>
#include <string>

using json = nlohmann::json;
using namespace xfb;

extern "C" void xfb_expose_gl(); // web/src/library.js: makes Module.GL available

namespace {

json formatJson(const VertexFormat& f) {
    json attrs = json::array();
    for (const auto& a : f.attributes)
        attrs.push_back({{"semantic", semanticName(a.semantic)}, {"type", componentTypeName(a.type)}, {"components", a.components}, {"offset", a.offset}});
    return {{"stride", f.stride}, {"attributes", attrs}};
}

VertexFormat parseFormat(const json& j) {
    std::vector<VertexAttribute> attrs;
    for (const auto& a : j) {
        auto semantic = semanticFromName(a.at("semantic").get<std::string>());
        if (!semantic) throw Error(ErrorCode::InvalidArgument, "unknown semantic '" + a.at("semantic").get<std::string>() + "'");
        std::string type = a.value("type", "float32");
        ComponentType t = type == "int32" ? ComponentType::Int32 : type == "uint32" ? ComponentType::UInt32 : ComponentType::Float32;
        attrs.push_back({*semantic, t, a.value("components", 4), a.value("offset", -1)});
    }
    return VertexFormat::interleaved(std::move(attrs));
}

CaptureOptions parseCapture(const json& o) {
    CaptureOptions c;
    c.mode = o.value("mode", "interleaved") == "separate" ? CaptureMode::Separate : CaptureMode::Interleaved;
    c.varyings = o.value("varyings", std::vector<std::string>{});
    c.portable = o.value("portable", true);
    return c;
}

ReadOptions parseRead(const json& o) {
    ReadOptions r;
    if (o.contains("defines"))
        for (auto& [k, v] : o["defines"].items()) {
            if (!v.is_primitive() || v.is_null())
                throw Error(ErrorCode::InvalidArgument, "defines['" + k + "'] must be a string, a number or a boolean, got " + v.dump());
            r.defines[k] = v.is_string() ? v.get<std::string>() : v.dump();
        }
    return r;
}

json errorJson(const std::string& code, const std::string& message) { return {{"code", code}, {"message", message}}; }

// Runs `f`; on failure keeps the error in `last` and returns `fallback`.
template<class R, class F>
R guarded(json& last, R fallback, F&& f) {
    try {
        return f();
    } catch (const Error& e) {
        last = errorJson(std::string(errorCodeName(e.code())), e.message());
    } catch (const std::bad_alloc&) {
        last = errorJson("XFB_OUT_OF_MEMORY", "the WebAssembly heap has no room for this; use smaller buffers or counts");
    } catch (const json::exception& e) {
        last = errorJson("XFB_INVALID_ARGUMENT", std::string("malformed argument: ") + e.what());
    } catch (const std::exception& e) {
        last = errorJson("XFB_INTERNAL", e.what());
    }
    return fallback;
}

} // namespace

/// Planner only: what the engine would do with a shader, without WebGL (works in Node).
std::string inspect(std::string source, std::string optionsJson) {
    json last;
    std::string out = guarded(last, std::string(), [&] {
        json o = json::parse(optionsJson);
        Limits limits = Limits::portable();
        ShaderInterface shader = readShaderInterface(source, parseRead(o));
        auto attrs = planAttributes(shader, limits);
        auto capture = planCapture(shader, parseCapture(o), limits);
        return toJson(shader, attrs, capture).dump();
    });
    return out.empty() ? json{{"error", last}}.dump() : out;
}

/// WebGPU: the plan and the WGSL compute shader for a role list (web/package/webgpu.js drives
/// WebGPU from JavaScript). entriesJson: [{input?: {format, count}, output?: {format, count}}];
/// "" translates with the default roles (createProgram() checks the shader that way).
std::string wgsl(std::string source, std::string optionsJson, std::string entriesJson) {
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

/// WebGPU fused substeps (Pipeline::step(k) on WebGL2): whether step(k > 1) of this program
/// with this role list runs its k substeps in one compute pass, and the WGSL that does (one
/// pipeline for every k: the count is the u32 at substepsOffset of the uniform buffer).
/// Arguments as wgsl(); options.fuseSubsteps false refuses as PipelineOptions::fuseSubsteps does.
/// Returns {fused, reason, maxSubsteps} and, when fused, {source, uniformBytes, substepsOffset}.
std::string wgslSubsteps(std::string source, std::string optionsJson, std::string entriesJson) {
    json last;
    std::string out = guarded(last, std::string(), [&] {
        json o = json::parse(optionsJson);
        json r = {{"maxSubsteps", limits::maxSubsteps}};
        if (!o.value("fuseSubsteps", true)) {
            r.update({{"fused", false}, {"reason", "PipelineOptions::fuseSubsteps is off"}});
            return r.dump();
        }
        ReadOptions read = parseRead(o);
        ShaderInterface shader = readShaderInterface(toGlslEs300(source), read);
        auto attrs = planAttributes(shader, Limits::portable());
        auto capture = planCapture(shader, parseCapture(o), Limits::portable());
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
        std::size_t emits = o.value("emits", json::array()).size();
        PassPlan pass = planPass(attrs, capture, entries, count, OutputSizing::PerElement, emits);
        FusionDecision decision = checkFusion(source, read, pass, capture, emits > 0);
        r.update({{"fused", decision.fused}, {"reason", decision.reason}});
        if (decision.fused) {
            WgslTranslationOptions options;
            options.workGroupSize = o.value("workGroupSize", 256);
            options.fuseSubsteps = true;
            WgslShader w = translateToWgsl(source, read, pass, capture, entries.size(), options);
            r.update({{"source", w.source}, {"uniformBytes", w.uniformBytes}, {"substepsOffset", w.substepsOffset}});
        }
        return r.dump();
    });
    return out.empty() ? json{{"error", last}}.dump() : out;
}

class Engine {
public:
    explicit Engine(bool ownsContext)
        : device_(guarded(last_, std::optional<Device>(), [&] { return std::optional<Device>(Device(DeviceOptions{ownsContext})); })) {}

    std::string lastError() const { return last_.dump(); }
    bool ok() const { return device_.has_value(); }

    std::string capabilities() const {
        const auto& c = device_->capabilities();
        return json{{"version", c.version}, {"renderer", c.renderer}, {"es", c.es}, {"compute", c.compute},
                    {"limits", {{"maxVertexAttribs", c.limits.maxVertexAttribs}, {"maxSeparateComponents", c.limits.maxSeparateComponents},
                                {"maxSeparateAttribs", c.limits.maxSeparateAttribs}, {"maxInterleavedComponents", c.limits.maxInterleavedComponents}}}}
            .dump();
    }

    int createBuffer(std::string formatJson, double count, unsigned ptr, double bytes) {
        return guarded(last_, -1, [&] {
            auto data = std::span<const std::byte>(reinterpret_cast<const std::byte*>(std::uintptr_t(ptr)), std::size_t(bytes));
            int id = next_++;
            buffers_.emplace(id, Buffer(*device_, parseFormat(json::parse(formatJson)), std::int64_t(count), data));
            return id;
        });
    }
    /// Adopts the GL buffer Emscripten knows as `glName` (registered by index.js), never deleting it.
    int adoptBuffer(std::string formatJson, double count, int glName) {
        return guarded(last_, -1, [&] {
            int id = next_++;
            buffers_.emplace(id, Buffer::adopt(*device_, parseFormat(json::parse(formatJson)), std::int64_t(count), unsigned(glName)));
            return id;
        });
    }
    bool upload(int id, unsigned ptr, double bytes, double offset) {
        return guarded(last_, false, [&] {
            buffer(id).upload(std::span<const std::byte>(reinterpret_cast<const std::byte*>(std::uintptr_t(ptr)), std::size_t(bytes)), std::uint64_t(offset));
            return true;
        });
    }
    int glName(int id) { return guarded(last_, -1, [&] { return int(buffer(id).glName()); }); }
    std::string layout(int id) { return guarded(last_, std::string(), [&] { return formatJson(buffer(id).format()).dump(); }); }

    int readAsync(int id) {
        return guarded(last_, -1, [&] {
            int rid = next_++;
            readbacks_.emplace(rid, buffer(id).readAsync());
            return rid;
        });
    }
    int readbackReady(int rid) { return guarded(last_, -1, [&] { return find(readbacks_, rid, "readback").ready() ? 1 : 0; }); }
    emscripten::val takeReadback(int rid) {
        bool ok = guarded(last_, false, [&] {
            taken_ = find(readbacks_, rid, "readback").take();
            readbacks_.erase(rid);
            return true;
        });
        if (!ok) return emscripten::val::null();
        return emscripten::val(emscripten::typed_memory_view(taken_.size(), reinterpret_cast<const unsigned char*>(taken_.data())));
    }

    int createProgram(std::string source, std::string optionsJson) {
        return guarded(last_, -1, [&] {
            json o = json::parse(optionsJson);
            int id = next_++;
            programs_.emplace(id, Program(*device_, {source, parseCapture(o), parseRead(o), o.value("label", "program")}));
            return id;
        });
    }
    bool setUniform(int id, std::string name, int kind, unsigned ptr, double bytes) {
        return guarded(last_, false, [&] {
            program(id).setUniform(name, ScalarKind(kind), std::span<const std::byte>(reinterpret_cast<const std::byte*>(std::uintptr_t(ptr)), std::size_t(bytes)));
            return true;
        });
    }
    std::string programPlan(int id) {
        return guarded(last_, std::string(), [&] {
            auto& p = program(id);
            return toJson(p.shader(), p.attributes(), p.capture()).dump();
        });
    }
    /// Uniform declarations, so JavaScript can convert numbers to the declared scalar kind.
    std::string uniforms(int id) {
        return guarded(last_, std::string(), [&] {
            json u = json::object();
            for (const auto& d : program(id).shader().uniforms) u[d.name] = {{"kind", int(d.type.kind)}, {"components", d.components()}};
            return u.dump();
        });
    }

    int createPipeline(int programId, std::string entriesJson, std::string optionsJson) {
        return guarded(last_, -1, [&] {
            std::vector<Entry> entries = parseEntries(entriesJson);
            json o = json::parse(optionsJson);
            PipelineOptions options;
            if (o.contains("count")) options.count = o["count"].get<std::int64_t>();
            options.queries = o.value("queries", false);
            options.fuseSubsteps = o.value("fuseSubsteps", true);
            int id = next_++;
            pipelines_.emplace(id, Pipeline(*device_, program(programId), entries, options));
            return id;
        });
    }
    bool step(int id) {
        return guarded(last_, false, [&] {
            pipeline(id).step();
            return true;
        });
    }
    // Fused substeps (Pipeline::step(k), fusion()).
    bool stepSubsteps(int id, int substeps) {
        return guarded(last_, false, [&] {
            pipeline(id).step(substeps);
            return true;
        });
    }
    std::string fusion(int id) {
        return guarded(last_, std::string(), [&] {
            const auto& f = pipeline(id).fusion();
            return json{{"fused", f.fused}, {"reason", f.reason}}.dump();
        });
    }
    bool beginChecked(int id) {
        return guarded(last_, false, [&] {
            pipeline(id).beginCheckedStep();
            return true;
        });
    }
    /// "" while pending, the report as JSON, or "!" on failure (see lastError()).
    std::string pollChecked(int id) {
        std::string r = guarded(last_, std::string("!"), [&] {
            auto report = pipeline(id).pollCheckedStep();
            return report ? reportJson(*report).dump() : std::string();
        });
        return r;
    }
    std::string pollQueries(int id) {
        return guarded(last_, std::string(), [&] {
            json out = json::array();
            pipeline(id).pollQueries([&](const StepReport& r) { out.push_back(reportJson(r)); });
            return out.dump();
        });
    }
    std::string pipelineInfo(int id) {
        return guarded(last_, std::string(), [&] {
            auto& p = pipeline(id);
            json outputs = json::array();
            for (const auto& o : p.plan().outputs) outputs.push_back({{"entry", o.entry}, {"binding", o.binding}, {"stride", o.stride}});
            return json{{"count", p.count()}, {"steps", p.stepsTaken()}, {"outputs", outputs}, {"backend", backendName(p.backend().backend)}}.dump();
        });
    }

    int createCapture(int programId, std::string entriesJson, std::string optionsJson) {
        return guarded(last_, -1, [&] {
            json o = json::parse(optionsJson);
            PrimitiveCaptureOptions options;
            if (o.contains("vertexCount")) options.vertexCount = o["vertexCount"].get<std::int64_t>();
            std::string e = o.value("expansion", "auto");
            options.expansion = e == "engine" ? Expansion::Engine : e == "driver" ? Expansion::Driver : Expansion::Auto;
            int id = next_++;
            captures_.emplace(id, PrimitiveCapture(*device_, program(programId), parseEntries(entriesJson), options));
            return id;
        });
    }
    /// indexCount < 0: a non-indexed draw of `vertexCount` vertices; restart < 0: no restart index.
    std::string capture(int id, std::string mode, double vertexCount, unsigned indicesPtr, double indexCount, double restart) {
        return guarded(last_, std::string(), [&] {
            DrawDesc d;
            auto m = drawModeFromName(mode);
            if (!m) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + mode + "'");
            d.mode = *m;
            d.vertexCount = std::int64_t(vertexCount);
            if (indexCount >= 0) {
                const auto* first = reinterpret_cast<const std::uint32_t*>(std::uintptr_t(indicesPtr));
                d.indices.assign(first, first + std::size_t(indexCount));
            }
            if (restart >= 0) d.restartIndex = std::uint32_t(restart);
            CaptureCount c = find(captures_, id, "capture").capture(d);
            return json{{"primitive", drawModeName(c.primitive)}, {"primitives", c.primitives}, {"records", c.records}, {"bytes", c.bytes}}.dump();
        });
    }
    bool drawCaptured(int id, std::string mode, int instances) {
        return guarded(last_, false, [&] {
            std::optional<DrawMode> m;
            if (!mode.empty() && !(m = drawModeFromName(mode))) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + mode + "'");
            find(captures_, id, "capture").drawCaptured(m, instances);
            return true;
        });
    }
    // Append captures: parts as JSON [{mode, count | indices, restartIndex?, program?}].
    std::string captureSession(int id, std::string partsJson, double firstRecord) {
        return guarded(last_, std::string(), [&] {
            std::vector<CapturePart> parts;
            for (const json& p : json::parse(partsJson)) {
                CapturePart part;
                auto m = drawModeFromName(p.value("mode", ""));
                if (!m) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + p.value("mode", "") + "'");
                part.draw.mode = *m;
                part.draw.vertexCount = p.value("count", std::int64_t(0));
                if (p.contains("indices")) part.draw.indices = p["indices"].get<std::vector<std::uint32_t>>();
                if (p.contains("restartIndex")) part.draw.restartIndex = p["restartIndex"].get<std::uint32_t>();
                if (p.contains("program")) part.program = &program(p["program"].get<int>());
                parts.push_back(std::move(part));
            }
            const SessionPlan& s = find(captures_, id, "capture").captureSession(parts, std::int64_t(firstRecord));
            json out = json::array();
            for (const auto& r : s.parts)
                out.push_back({{"primitive", drawModeName(r.primitive)}, {"primitives", r.primitives}, {"firstRecord", r.firstRecord},
                               {"records", r.records}, {"firstByte", r.firstByte}, {"bytes", r.bytes}});
            return json{{"firstRecord", s.firstRecord}, {"endRecord", s.endRecord}, {"endBytes", s.endBytes}, {"parts", out}}.dump();
        });
    }
    /// part < 0: the whole session.
    bool drawSession(int id, int part, std::string mode, int instances) {
        return guarded(last_, false, [&] {
            std::optional<DrawMode> m;
            if (!mode.empty() && !(m = drawModeFromName(mode))) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + mode + "'");
            find(captures_, id, "capture").drawSession(part < 0 ? std::nullopt : std::optional<std::size_t>(std::size_t(part)), m, instances);
            return true;
        });
    }
    std::string captureInfo(int id) {
        return guarded(last_, std::string(), [&] {
            auto& c = find(captures_, id, "capture");
            return json{{"expansion", expansionName(c.expansion())}, {"vertexCount", c.vertexCount()}}.dump();
        });
    }

    /// kind: 0 buffer, 1 program, 2 pipeline, 3 readback, 4 capture.
    bool dispose(int kind, int id) {
        std::size_t n = kind == 0   ? buffers_.erase(id)
                        : kind == 1 ? programs_.erase(id)
                        : kind == 2 ? pipelines_.erase(id)
                        : kind == 4 ? captures_.erase(id)
                                    : readbacks_.erase(id);
        return n == 1;
    }
    std::string liveObjects() const {
        return json{{"buffers", buffers_.size()}, {"programs", programs_.size()}, {"pipelines", pipelines_.size()},
                    {"captures", captures_.size()}, {"readbacks", readbacks_.size()}}.dump();
    }
    /// GL errors pending before an error-checking call began (the application's), as numbers.
    std::string takeForeignErrors() { return json(device_->takeForeignErrors()).dump(); }
    /// Readbacks in flight cannot complete on a lost context: released now (their read() rejects).
    void contextLost() {
        device_->contextLost();
        readbacks_.clear();
    }
    bool contextRestored() {
        return guarded(last_, false, [&] {
            device_->contextRestored();
            return true;
        });
    }

private:
    static json reportJson(const StepReport& r) { return {{"step", r.step}, {"written", r.written}, {"expected", r.expected}}; }

    template<class M>
    static typename M::mapped_type& find(M& map, int id, const char* what) {
        auto it = map.find(id);
        if (it == map.end()) throw Error(ErrorCode::Disposed, std::string("this ") + what + " was disposed");
        return it->second;
    }
    Buffer& buffer(int id) { return find(buffers_, id, "buffer"); }
    std::vector<Entry> parseEntries(const std::string& entriesJson) {
        std::vector<Entry> entries;
        for (const auto& e : json::parse(entriesJson))
            entries.push_back({e.contains("input") ? &buffer(e["input"].get<int>()) : nullptr, e.contains("output") ? &buffer(e["output"].get<int>()) : nullptr});
        return entries;
    }
    Program& program(int id) { return find(programs_, id, "program"); }
    Pipeline& pipeline(int id) { return find(pipelines_, id, "pipeline"); }

    json last_;
    std::optional<Device> device_;
    int next_ = 1;
    std::map<int, Buffer> buffers_;
    std::map<int, Program> programs_;
    std::map<int, Pipeline> pipelines_;
    std::map<int, PrimitiveCapture> captures_;
    std::map<int, ReadbackRequest> readbacks_;
    std::vector<std::byte> taken_;
};

EMSCRIPTEN_BINDINGS(xfb) {
    xfb_expose_gl();
    emscripten::function("inspect", &inspect);
    emscripten::function("wgsl", &wgsl);
    emscripten::function("wgslSubsteps", &wgslSubsteps);
    emscripten::class_<Engine>("Engine")
        .constructor<bool>()
        .function("ok", &Engine::ok)
        .function("lastError", &Engine::lastError)
        .function("capabilities", &Engine::capabilities)
        .function("createBuffer", &Engine::createBuffer)
        .function("adoptBuffer", &Engine::adoptBuffer)
        .function("upload", &Engine::upload)
        .function("glName", &Engine::glName)
        .function("layout", &Engine::layout)
        .function("readAsync", &Engine::readAsync)
        .function("readbackReady", &Engine::readbackReady)
        .function("takeReadback", &Engine::takeReadback)
        .function("createProgram", &Engine::createProgram)
        .function("setUniform", &Engine::setUniform)
        .function("programPlan", &Engine::programPlan)
        .function("uniforms", &Engine::uniforms)
        .function("createPipeline", &Engine::createPipeline)
        .function("step", &Engine::step)
        .function("stepSubsteps", &Engine::stepSubsteps)
        .function("fusion", &Engine::fusion)
        .function("beginChecked", &Engine::beginChecked)
        .function("pollChecked", &Engine::pollChecked)
        .function("pollQueries", &Engine::pollQueries)
        .function("pipelineInfo", &Engine::pipelineInfo)
        .function("createCapture", &Engine::createCapture)
        .function("capture", &Engine::capture)
        .function("drawCaptured", &Engine::drawCaptured)
        .function("captureInfo", &Engine::captureInfo)
        .function("captureSession", &Engine::captureSession)
        .function("drawSession", &Engine::drawSession)
        .function("dispose", &Engine::dispose)
        .function("liveObjects", &Engine::liveObjects)
        .function("takeForeignErrors", &Engine::takeForeignErrors)
        .function("contextLost", &Engine::contextLost)
        .function("contextRestored", &Engine::contextRestored);
}
