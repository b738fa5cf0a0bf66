// JavaScript bindings of the WebGL2 engine (embind). A thin layer: objects live here under
// integer ids, arguments arrive as the JavaScript objects index.js checked, and every result is a
// JavaScript value: the result, or an XfbError (js_values.hpp) that index.js throws. Nothing
// throws across the wasm boundary, and no call answers with a sentinel.
#include "js_values.hpp"
#include "xfb/xfb.hpp"
#include "xfb/plan_fields.hpp"
#include "xfb/detail/step_replay.hpp"

#include <emscripten/bind.h>

#include <map>
#include <optional>

using namespace xfb;
using namespace xfb::web;

extern "C" void xfb_expose_gl(); // web/src/library.js: makes Module.GL available

namespace {

std::span<const std::byte> heapBytes(unsigned ptr, double bytes) {
    return {reinterpret_cast<const std::byte*>(std::uintptr_t(ptr)), std::size_t(bytes)};
}

std::optional<DrawMode> drawMode(const std::string& mode, bool optional) {
    if (optional && mode.empty()) return std::nullopt;
    auto m = drawModeFromName(mode);
    if (!m) throw Error(ErrorCode::InvalidArgument, "unknown draw mode '" + mode + "'");
    return m;
}

val reportValue(const StepReport& r) { return object({{"step", js(r.step)}, {"written", js(r.written)}, {"expected", js(r.expected)}}); }

} // namespace

class Engine {
public:
    explicit Engine(bool ownsContext) {
        creationError_ = guarded([&] {
            device_.emplace(DeviceOptions{ownsContext});
            return val::undefined();
        });
    }

    /// undefined, or the XfbError that kept the engine from starting.
    val creationError() const { return creationError_; }

    val capabilities() const {
        const auto& c = device_->capabilities();
        const auto& l = c.limits;
        return object({{"version", js(c.version)}, {"renderer", js(c.renderer)}, {"es", js(c.es)}, {"compute", js(c.compute)},
                       {"limits", object({{"maxVertexAttribs", js(l.maxVertexAttribs)}, {"maxSeparateComponents", js(l.maxSeparateComponents)},
                                          {"maxSeparateAttribs", js(l.maxSeparateAttribs)}, {"maxInterleavedComponents", js(l.maxInterleavedComponents)},
                                          {"maxVaryingVectors", js(l.maxVaryingVectors)}})}});
    }

    val createBuffer(val format, double count, unsigned ptr, double bytes) {
        return guarded([&] {
            int id = next_++;
            buffers_.emplace(id, Buffer(*device_, parseFormat(format), std::int64_t(count), heapBytes(ptr, bytes)));
            return val(id);
        });
    }
    /// Adopts the GL buffer Emscripten knows as `glName` (registered by index.js), never deleting it.
    val adoptBuffer(val format, double count, int glName) {
        return guarded([&] {
            int id = next_++;
            buffers_.emplace(id, Buffer::adopt(*device_, parseFormat(format), std::int64_t(count), unsigned(glName)));
            return val(id);
        });
    }
    val upload(int id, unsigned ptr, double bytes, double offset) {
        return guarded([&] {
            buffer(id).upload(heapBytes(ptr, bytes), std::uint64_t(offset));
            return val::undefined();
        });
    }
    val glName(int id) { return guarded([&] { return val(int(buffer(id).glName())); }); }

    val readAsync(int id) {
        return guarded([&] {
            int rid = next_++;
            readbacks_.emplace(rid, buffer(id).readAsync());
            return val(rid);
        });
    }
    val readbackReady(int rid) { return guarded([&] { return val(find(readbacks_, rid, "readback").ready()); }); }
    /// The bytes as a view into the wasm heap (index.js copies them out at once).
    val takeReadback(int rid) {
        return guarded([&] {
            taken_ = find(readbacks_, rid, "readback").take();
            readbacks_.erase(rid);
            return val(emscripten::typed_memory_view(taken_.size(), reinterpret_cast<const unsigned char*>(taken_.data())));
        });
    }

    val createProgram(std::string source, val options) {
        return guarded([&] {
            int id = next_++;
            programs_.emplace(id, Program(*device_, {source, parseCapture(options), parseRead(options), get<std::string>(options, "label", "program")}));
            return val(id);
        });
    }
    /// kind: a ScalarKind's value (Module.enums().scalarKinds), the kind of the values at ptr.
    /// `uploaded`: a step replayed in JavaScript gave the value to the GL program already
    /// (detail::uniformUploaded).
    val setUniform(int id, std::string name, int kind, unsigned ptr, double bytes, bool uploaded) {
        return guarded([&] {
            program(id).setUniform(name, ScalarKind(kind), heapBytes(ptr, bytes));
            if (uploaded) detail::uniformUploaded(program(id), name);
            return val::undefined();
        });
    }
    val programPlan(int id) {
        return guarded([&] {
            auto& p = program(id);
            ValBuilder b;
            return planFields(b, p.shader(), p.attributes(), p.capture());
        });
    }
    /// Uniform declarations { name: { kind, components } }, so JavaScript converts numbers to the declared kind.
    val uniforms(int id) {
        return guarded([&] {
            val u = val::object();
            for (const auto& d : program(id).shader().uniforms) u.set(d.name, object({{"kind", js(int(d.type.kind))}, {"components", js(d.components())}}));
            return u;
        });
    }

    val createPipeline(int programId, val entries, val options) {
        return guarded([&] {
            PipelineOptions o;
            if (has(options, "count")) o.count = std::int64_t(options["count"].as<double>());
            o.queries = get<bool>(options, "queries", false);
            o.fuseSubsteps = get<bool>(options, "fuseSubsteps", true);
            int id = next_++;
            pipelines_.emplace(id, Pipeline(*device_, program(programId), parseEntries(entries), o));
            return val(id);
        });
    }
    val step(int id) {
        return guarded([&] {
            pipeline(id).step();
            return val::undefined();
        });
    }
    // Fused substeps (Pipeline::step(k), fusion()).
    val stepSubsteps(int id, int substeps) {
        return guarded([&] {
            pipeline(id).step(substeps);
            return val::undefined();
        });
    }
    /// detail::stepRecipe() for the replayed step (index.js Xfb#recipe): { refusal } or { program, vao, tf (Emscripten's
    /// GL names per side), side, count, uniforms: [{ name, location, type, kind, components, arraySize }] }.
    val replayRecipe(int id) {
        return guarded([&] {
            detail::StepRecipe r = detail::stepRecipe(pipeline(id));
            if (!r.refusal.empty()) return object({{"refusal", js(r.refusal)}});
            val uniforms = val::array();
            for (const auto& u : r.uniforms)
                uniforms.call<void>("push", object({{"name", js(u.name)}, {"location", js(u.location)}, {"type", js(u.type)}, {"kind", js(int(u.kind))},
                                                    {"components", js(u.components)}, {"arraySize", js(u.arraySize)}}));
            auto pair = [](const unsigned (&n)[2]) { return array(std::vector<unsigned>{n[0], n[1]}); };
            return object({{"program", js(r.program)}, {"vao", pair(r.vertexArrays)}, {"tf", pair(r.transformFeedbacks)}, {"side", js(r.side)},
                           {"count", js(r.count)}, {"uniforms", uniforms}});
        });
    }
    /// JavaScript replayed `steps` steps, `lastCalls` GL calls in the last (detail::stepsReplayed).
    val replayed(int id, double steps, int lastCalls) {
        return guarded([&] {
            detail::stepsReplayed(pipeline(id), std::uint64_t(steps), lastCalls);
            return val::undefined();
        });
    }
    val fusion(int id) {
        return guarded([&] {
            const auto& f = pipeline(id).fusion();
            return object({{"fused", js(f.fused)}, {"reason", js(f.reason)}});
        });
    }
    val beginChecked(int id) {
        return guarded([&] {
            pipeline(id).beginCheckedStep();
            return val::undefined();
        });
    }
    /// null while pending, then the report { step, written, expected }.
    val pollChecked(int id) {
        return guarded([&] {
            auto report = pipeline(id).pollCheckedStep();
            return report ? reportValue(*report) : val::null();
        });
    }
    val pollQueries(int id) {
        return guarded([&] {
            val out = val::array();
            pipeline(id).pollQueries([&](const StepReport& r) { out.call<void>("push", reportValue(r)); });
            return out;
        });
    }
    val pipelineInfo(int id) {
        return guarded([&] {
            auto& p = pipeline(id);
            val outputs = val::array();
            for (const auto& o : p.plan().outputs) outputs.call<void>("push", object({{"entry", js(o.entry)}, {"binding", js(o.binding)}, {"stride", js(o.stride)}}));
            return object({{"count", js(p.count())}, {"steps", js(p.stepsTaken())}, {"outputs", outputs}, {"backend", js(backendName(p.backend().backend))}});
        });
    }

    val createCapture(int programId, val entries, val options) {
        return guarded([&] {
            PrimitiveCaptureOptions o;
            if (has(options, "vertexCount")) o.vertexCount = std::int64_t(options["vertexCount"].as<double>());
            o.expansion = fromName<Expansion>(get<std::string>(options, "expansion", "auto"), expansionNames, "expansion");
            int id = next_++;
            captures_.emplace(id, PrimitiveCapture(*device_, program(programId), parseEntries(entries), o));
            return val(id);
        });
    }
    /// indexCount < 0: a non-indexed draw of `vertexCount` vertices; restart < 0: no restart index.
    val capture(int id, std::string mode, double vertexCount, unsigned indicesPtr, double indexCount, double restart) {
        return guarded([&] {
            DrawDesc d;
            d.mode = *drawMode(mode, false);
            d.vertexCount = std::int64_t(vertexCount);
            if (indexCount >= 0) {
                const auto* first = reinterpret_cast<const std::uint32_t*>(std::uintptr_t(indicesPtr));
                d.indices.assign(first, first + std::size_t(indexCount));
            }
            if (restart >= 0) d.restartIndex = std::uint32_t(restart);
            CaptureCount c = find(captures_, id, "capture").capture(d);
            return object({{"primitive", js(drawModeName(c.primitive))}, {"primitives", js(c.primitives)}, {"records", js(c.records)}, {"bytes", array(c.bytes)}});
        });
    }
    val drawCaptured(int id, std::string mode, int instances) {
        return guarded([&] {
            find(captures_, id, "capture").drawCaptured(drawMode(mode, true), instances);
            return val::undefined();
        });
    }
    // Append captures: parts [{ mode, count, indices?: Uint32Array, restartIndex?, program? }].
    val captureSession(int id, val partList, double firstRecord) {
        return guarded([&] {
            std::vector<CapturePart> parts;
            for (const val& p : emscripten::vecFromJSArray<val>(partList)) {
                CapturePart part;
                part.draw.mode = *drawMode(get<std::string>(p, "mode", ""), false);
                part.draw.vertexCount = std::int64_t(get<double>(p, "count", 0));
                if (has(p, "indices")) part.draw.indices = emscripten::convertJSArrayToNumberVector<std::uint32_t>(p["indices"]);
                if (has(p, "restartIndex")) part.draw.restartIndex = std::uint32_t(p["restartIndex"].as<double>());
                if (has(p, "program")) part.program = &program(p["program"].as<int>());
                parts.push_back(std::move(part));
            }
            const SessionPlan& s = find(captures_, id, "capture").captureSession(parts, std::int64_t(firstRecord));
            val out = val::array();
            for (const auto& r : s.parts)
                out.call<void>("push", object({{"primitive", js(drawModeName(r.primitive))}, {"primitives", js(r.primitives)}, {"firstRecord", js(r.firstRecord)},
                                               {"records", js(r.records)}, {"firstByte", array(r.firstByte)}, {"bytes", array(r.bytes)}}));
            return object({{"firstRecord", js(s.firstRecord)}, {"endRecord", js(s.endRecord)}, {"endBytes", array(s.endBytes)}, {"parts", out}});
        });
    }
    /// part < 0: the whole session.
    val drawSession(int id, int part, std::string mode, int instances) {
        return guarded([&] {
            find(captures_, id, "capture").drawSession(part < 0 ? std::nullopt : std::optional<std::size_t>(std::size_t(part)), drawMode(mode, true), instances);
            return val::undefined();
        });
    }
    val captureInfo(int id) {
        return guarded([&] {
            auto& c = find(captures_, id, "capture");
            return object({{"expansion", js(expansionName(c.expansion()))}, {"vertexCount", js(c.vertexCount())}});
        });
    }

    /// kind: 'buffer', 'program', 'pipeline', 'readback' or 'capture' (index.js's object kinds).
    bool dispose(std::string kind, int id) {
        std::size_t n = kind == "buffer"     ? buffers_.erase(id)
                        : kind == "program"  ? programs_.erase(id)
                        : kind == "pipeline" ? pipelines_.erase(id)
                        : kind == "capture"  ? captures_.erase(id)
                        : kind == "readback" ? readbacks_.erase(id)
                                             : 0;
        return n == 1;
    }
    val liveObjects() const {
        return object({{"buffers", js(buffers_.size())}, {"programs", js(programs_.size())}, {"pipelines", js(pipelines_.size())},
                       {"captures", js(captures_.size())}, {"readbacks", js(readbacks_.size())}});
    }
    /// GL errors pending before an error-checking call began (the application's), as numbers.
    val takeForeignErrors() { return array(device_->takeForeignErrors()); }
    /// Readbacks in flight cannot complete on a lost context: released now (their read() rejects).
    void contextLost() {
        device_->contextLost();
        readbacks_.clear();
    }
    val contextRestored() {
        return guarded([&] {
            device_->contextRestored();
            return val::undefined();
        });
    }

private:
    template<class M>
    static typename M::mapped_type& find(M& map, int id, const char* what) {
        auto it = map.find(id);
        if (it == map.end()) throw Error(ErrorCode::Disposed, std::string("this ") + what + " was disposed");
        return it->second;
    }
    Buffer& buffer(int id) { return find(buffers_, id, "buffer"); }
    /// [{ input?: buffer id, output?: buffer id }]
    std::vector<Entry> parseEntries(const val& list) {
        std::vector<Entry> entries;
        for (const val& e : emscripten::vecFromJSArray<val>(list))
            entries.push_back({has(e, "input") ? &buffer(e["input"].as<int>()) : nullptr, has(e, "output") ? &buffer(e["output"].as<int>()) : nullptr});
        return entries;
    }
    Program& program(int id) { return find(programs_, id, "program"); }
    Pipeline& pipeline(int id) { return find(pipelines_, id, "pipeline"); }

    val creationError_ = val::undefined();
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
    emscripten::class_<Engine>("Engine")
        .constructor<bool>()
        .function("creationError", &Engine::creationError)
        .function("capabilities", &Engine::capabilities)
        .function("createBuffer", &Engine::createBuffer)
        .function("adoptBuffer", &Engine::adoptBuffer)
        .function("upload", &Engine::upload)
        .function("glName", &Engine::glName)
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
        .function("replayRecipe", &Engine::replayRecipe)
        .function("replayed", &Engine::replayed)
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
