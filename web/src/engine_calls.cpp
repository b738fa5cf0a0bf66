// The WebGL2 engine's extern "C" functions (call.hpp's convention): objects live in an Engine under
// integer ids; the first argument of each function is the Engine's address, which
// xfb_engine_create answered. The package's typed wrapper of each is web/package/src/webgl2/wasm_module.ts.
#include "engine.hpp"
#include "inputs.hpp"
#include "xfb/plan_fields.hpp"
#include "xfb/detail/emitted_draw.hpp"
#include "xfb/detail/step_replay.hpp"

using namespace xfb;
using namespace xfb::boundary;

extern "C" void xfb_expose_gl(); // web/src/library.js: makes Module.GL available

namespace {

Json report(const StepReport& r) {
    Json o = JsonBuilder::object();
    JsonBuilder::set(o, "step", r.step);
    JsonBuilder::set(o, "written", r.written);
    JsonBuilder::set(o, "expected", r.expected);
    return o;
}

} // namespace

// inspect() in the WebGL2 module: the portable limits (no context needed; the context's own
// limits are checked again by createProgram()).
Limits xfb::boundary::plannerLimits() { return Limits::portable(); }

#define XFB_C EMSCRIPTEN_KEEPALIVE
extern "C" {

/// Answers the Engine's address, or the failure that kept the device from starting.
XFB_C int xfb_engine_create(bool ownsContext) {
    xfb_expose_gl();
    return guarded([&] {
        auto engine = std::make_unique<Engine>();
        engine->device.emplace(DeviceOptions{ownsContext});
        return std::to_string(std::uintptr_t(engine.release()));
    });
}
XFB_C int xfb_engine_delete(Engine* e) {
    delete e;
    return 0;
}

XFB_C int xfb_capabilities(Engine* e) {
    return guarded([&] {
        const auto& c = e->device->capabilities();
        const auto& l = c.limits;
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "version", c.version);
        JsonBuilder::set(o, "renderer", c.renderer);
        JsonBuilder::set(o, "es", c.es);
        JsonBuilder::set(o, "compute", c.compute);
        JsonBuilder::set(o, "limits",
                         fields({{"maxVertexAttribs", l.maxVertexAttribs},
                                 {"maxSeparateComponents", l.maxSeparateComponents},
                                 {"maxSeparateAttribs", l.maxSeparateAttribs},
                                 {"maxInterleavedComponents", l.maxInterleavedComponents},
                                 {"maxVaryingVectors", l.maxVaryingVectors}}));
        return std::move(o).done();
    });
}

XFB_C int xfb_create_buffer(Engine* e, const char* texts, int textBytes, const double* format, int formatCount,
                            double count, const void* data, double bytes) {
    return guarded([&] {
        return e->add(e->buffers, *e->device, parseFormat(texts, textBytes, format, formatCount), std::int64_t(count),
                      heapBytes(data, bytes));
    });
}
/// Adopts the GL buffer Emscripten knows as `glName` (registered by JavaScript), never deleting it.
XFB_C int xfb_adopt_buffer(Engine* e, const char* texts, int textBytes, const double* format, int formatCount,
                           double count, int glName) {
    return guarded([&] {
        int id = e->next++;
        e->buffers.emplace(id, Buffer::adopt(*e->device, parseFormat(texts, textBytes, format, formatCount),
                                             std::int64_t(count), unsigned(glName)));
        return std::to_string(id);
    });
}
XFB_C int xfb_upload(Engine* e, int id, const void* data, double bytes, double offset) {
    return guarded([&] {
        e->buffer(id).upload(heapBytes(data, bytes), std::uint64_t(offset));
        return std::string();
    });
}
XFB_C int xfb_gl_name(Engine* e, int id) {
    return guarded([&] { return std::to_string(e->buffer(id).glName()); });
}

/// Elements [first, first + count) of buffer `id` (the npm package checked the range).
XFB_C int xfb_read_async(Engine* e, int id, int first, int count) {
    return guarded([&] {
        int rid = e->next++;
        e->readbacks.emplace(rid, e->buffer(id).readAsync(first, count));
        return std::to_string(rid);
    });
}
XFB_C int xfb_readback_ready(Engine* e, int rid) {
    return guarded([&] { return std::string(Engine::find(e->readbacks, rid, "readback").ready() ? "true" : "false"); });
}
/// [address, bytes] of the bytes in the heap, valid until the next call (JavaScript copies them out).
XFB_C int xfb_take_readback(Engine* e, int rid) {
    return guarded([&] {
        e->taken = Engine::find(e->readbacks, rid, "readback").take();
        e->readbacks.erase(rid);
        return "[" + std::to_string(std::uintptr_t(e->taken.data())) + "," + std::to_string(e->taken.size()) + "]";
    });
}

XFB_C int xfb_create_program(Engine* e, const char* source, int sourceBytes, const char* mode, int modeBytes,
                             const char* varyings, int varyingBytes, bool portable, const char* defines,
                             int defineBytes, const char* declaration, int declarationBytes, const double* layout,
                             int layoutCount, const char* label, int labelBytes, const char* fragment,
                             int fragmentBytes) {
    return guarded([&] {
        return e->add(e->programs, *e->device,
                      ProgramDesc{text(source, sourceBytes),
                                  parseCapture(mode, modeBytes, varyings, varyingBytes, portable, declaration,
                                               declarationBytes, layout, layoutCount),
                                  parseRead(defines, defineBytes),
                                  text(label, labelBytes),
                                  {},
                                  text(fragment, fragmentBytes)});
    });
}
/// kind: a ScalarKind's value, the kind of the values at `data`; `uploaded`: a step replayed in
/// JavaScript gave the value to the GL program already (detail::uniformUploaded).
XFB_C int xfb_set_uniform(Engine* e, int id, const char* name, int nameBytes, int kind, const void* data, double bytes,
                          bool uploaded) {
    return guarded([&] {
        std::string n = text(name, nameBytes);
        e->program(id).setUniform(n, ScalarKind(kind), heapBytes(data, bytes));
        if (uploaded) detail::uniformUploaded(e->program(id), n);
        return std::string();
    });
}
XFB_C int xfb_program_plan(Engine* e, int id) {
    return guarded([&] {
        auto& p = e->program(id);
        JsonBuilder b;
        return planFields(b, p.shader(), p.attributes(), p.capture()).done();
    });
}
/// { name: { kind, components } }
XFB_C int xfb_uniforms(Engine* e, int id) {
    return guarded([&] {
        Json o = JsonBuilder::object();
        for (const auto& d : e->program(id).shader().uniforms)
            JsonBuilder::set(o, d.name.c_str(), fields({{"kind", int(d.type.kind)}, {"components", d.components()}}));
        return std::move(o).done();
    });
}

/// count: NaN when not given; backend: its name (backendNames); emits: varying, count, varying,
/// count ... (PipelineOptions::emits); clampOverflow: EmitOverflow::Clamp, else Error.
XFB_C int xfb_create_pipeline(Engine* e, int programId, const double* entries, int entryCount, double count,
                              bool queries, bool fuseSubsteps, const char* backend, int backendBytes, bool rasterize,
                              const char* emits, int emitBytes, bool clampOverflow) {
    return guarded([&] {
        PipelineOptions o;
        if (!std::isnan(count)) o.count = std::int64_t(count);
        o.queries = queries;
        o.fuseSubsteps = fuseSubsteps;
        o.rasterize = rasterize;
        o.backend = fromName<Backend>(text(backend, backendBytes), backendNames, "backend");
        const auto names = textList(emits, emitBytes);
        for (std::size_t i = 0; i + 1 < names.size(); i += 2) o.emits.push_back({names[i], names[i + 1]});
        o.overflow = clampOverflow ? EmitOverflow::Clamp : EmitOverflow::Error;
        return e->add(e->pipelines, *e->device, e->program(programId), e->entries(entries, entryCount), o);
    });
}
/// Pipeline::setBackend, by name.
XFB_C int xfb_set_backend(Engine* e, int id, const char* backend, int backendBytes) {
    return guarded([&] {
        e->pipeline(id).setBackend(fromName<Backend>(text(backend, backendBytes), backendNames, "backend"));
        return std::string();
    });
}
XFB_C int xfb_step(Engine* e, int id) {
    return guarded([&] {
        e->pipeline(id).step();
        return std::string();
    });
}
/// Fused substeps (Pipeline::step(k), fusion()).
XFB_C int xfb_step_substeps(Engine* e, int id, int substeps) {
    return guarded([&] {
        e->pipeline(id).step(substeps);
        return std::string();
    });
}
/// detail::stepRecipe() for the replayed step (webgl2/replay.ts): { refusal } or { program, vao, tf, side, count,
/// uniforms: [...] }.
XFB_C int xfb_replay_recipe(Engine* e, int id) {
    return guarded([&] {
        detail::StepRecipe r = detail::stepRecipe(e->pipeline(id));
        Json o = JsonBuilder::object();
        if (!r.refusal.empty()) {
            JsonBuilder::set(o, "refusal", r.refusal);
            return std::move(o).done();
        }
        Json uniforms = JsonBuilder::array();
        for (const auto& u : r.uniforms) {
            Json f = fields({{"location", u.location},
                             {"type", u.type},
                             {"kind", int(u.kind)},
                             {"components", u.components},
                             {"arraySize", u.arraySize}});
            JsonBuilder::set(f, "name", u.name);
            JsonBuilder::push(uniforms, std::move(f));
        }
        JsonBuilder::set(o, "program", r.program);
        JsonBuilder::set(o, "vao", std::vector<unsigned>{r.vertexArrays[0], r.vertexArrays[1]});
        JsonBuilder::set(o, "tf", std::vector<unsigned>{r.transformFeedbacks[0], r.transformFeedbacks[1]});
        JsonBuilder::set(o, "side", r.side);
        JsonBuilder::set(o, "count", r.count);
        JsonBuilder::set(o, "uniforms", std::move(uniforms));
        return std::move(o).done();
    });
}
/// JavaScript replayed `steps` steps, `lastCalls` GL calls in the last (detail::stepsReplayed).
XFB_C int xfb_replayed(Engine* e, int id, double steps, int lastCalls) {
    return guarded([&] {
        detail::stepsReplayed(e->pipeline(id), std::uint64_t(steps), lastCalls);
        return std::string();
    });
}
XFB_C int xfb_fusion(Engine* e, int id) {
    return guarded([&] {
        const auto& f = e->pipeline(id).fusion();
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "fused", f.fused);
        JsonBuilder::set(o, "reason", f.reason);
        return std::move(o).done();
    });
}
XFB_C int xfb_begin_checked(Engine* e, int id) {
    return guarded([&] {
        e->pipeline(id).beginCheckedStep();
        return std::string();
    });
}
/// null while pending, then { step, written, expected }.
XFB_C int xfb_poll_checked(Engine* e, int id) {
    return guarded([&] {
        auto r = e->pipeline(id).pollCheckedStep();
        return r ? report(*r).done() : std::string("null");
    });
}
/// Pipeline::emitted(): [{ budget, requested, written, capacity }] (the pyramid's top, read with readPixels).
XFB_C int xfb_emitted(Engine* e, int id) {
    return guarded([&] {
        Json out = JsonBuilder::array();
        for (const auto& r : e->pipeline(id).emitted()) {
            Json f = JsonBuilder::object(); // the keys in the WebGPU engine's order
            JsonBuilder::set(f, "budget", r.budget);
            JsonBuilder::set(f, "requested", r.requested);
            JsonBuilder::set(f, "written", r.written);
            JsonBuilder::set(f, "capacity", r.capacity);
            JsonBuilder::push(out, f);
        }
        return std::move(out).done();
    });
}
/// detail::emittedDrawUniforms(): { unit, row, component, perPrimitive }, which the package sets on
/// the bound WebGLProgram's emittedDrawSnippet() uniforms before xfb_draw_emitted. `program`: how
/// a refusal names that program.
XFB_C int xfb_emitted_draw_uniforms(Engine* e, int id, const char* budget, int budgetBytes, const char* mode,
                                    int modeBytes, bool readsTotal, const char* program, int programBytes) {
    return guarded([&] {
        const auto u = detail::emittedDrawUniforms(e->pipeline(id), text(budget, budgetBytes),
                                                   *drawMode(text(mode, modeBytes), false), readsTotal,
                                                   text(program, programBytes));
        return fields({{"unit", u.unit}, {"row", u.row}, {"component", u.component}, {"perPrimitive", u.perPrimitive}})
            .done();
    });
}
/// detail::drawEmittedWithUniformsSet(): Pipeline::drawEmitted() with the uniforms set by the package.
XFB_C int xfb_draw_emitted(Engine* e, int id, const char* budget, int budgetBytes, const char* mode, int modeBytes) {
    return guarded([&] {
        detail::drawEmittedWithUniformsSet(e->pipeline(id), text(budget, budgetBytes),
                                           *drawMode(text(mode, modeBytes), false));
        return std::string();
    });
}
XFB_C int xfb_poll_queries(Engine* e, int id) {
    return guarded([&] {
        Json out = JsonBuilder::array();
        e->pipeline(id).pollQueries([&](const StepReport& r) { JsonBuilder::push(out, report(r)); });
        return std::move(out).done();
    });
}
XFB_C int xfb_pipeline_info(Engine* e, int id) {
    return guarded([&] {
        auto& p = e->pipeline(id);
        Json outputs = JsonBuilder::array();
        for (const auto& o : p.plan().outputs)
            JsonBuilder::push(outputs, fields({{"entry", o.entry}, {"binding", o.binding}, {"stride", o.stride}}));
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "count", p.count());
        JsonBuilder::set(o, "steps", p.stepsTaken());
        JsonBuilder::set(o, "outputs", std::move(outputs));
        JsonBuilder::set(o, "backend", backendName(p.backend().backend));
        JsonBuilder::set(o, "backendReason", p.backend().reason);
        return std::move(o).done();
    });
}

/// vertexCount: NaN when not given.
XFB_C int xfb_create_capture(Engine* e, int programId, const double* entries, int entryCount, double vertexCount,
                             const char* expansion, int expansionBytes) {
    return guarded([&] {
        PrimitiveCaptureOptions o;
        if (!std::isnan(vertexCount)) o.vertexCount = std::int64_t(vertexCount);
        o.expansion = fromName<Expansion>(text(expansion, expansionBytes), expansionNames, "expansion");
        return e->add(e->captures, *e->device, e->program(programId), e->entries(entries, entryCount), o);
    });
}
/// indexCount < 0: a non-indexed draw of `vertexCount` vertices; restart < 0: no restart index.
XFB_C int xfb_capture(Engine* e, int id, const char* mode, int modeBytes, double vertexCount,
                      const std::uint32_t* indices, double indexCount, double restart) {
    return guarded([&] {
        DrawDesc d;
        d.mode = *drawMode(text(mode, modeBytes), false);
        d.vertexCount = std::int64_t(vertexCount);
        if (indexCount >= 0) d.indices.assign(indices, indices + std::size_t(indexCount));
        if (restart >= 0) d.restartIndex = std::uint32_t(restart);
        CaptureCount c = e->capture(id).capture(d);
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "primitive", drawModeName(c.primitive));
        JsonBuilder::set(o, "primitives", c.primitives);
        JsonBuilder::set(o, "records", c.records);
        JsonBuilder::set(o, "bytes", c.bytes);
        return std::move(o).done();
    });
}
XFB_C int xfb_draw_captured(Engine* e, int id, const char* mode, int modeBytes, int instances) {
    return guarded([&] {
        e->capture(id).drawCaptured(drawMode(text(mode, modeBytes), true), instances);
        return std::string();
    });
}
/// Parts: their modes, and five numbers each: count, first index in `indices`, index count
/// (< 0: not indexed), restart index (< 0: none), program id (0: the capture's).
XFB_C int xfb_capture_session(Engine* e, int id, const char* modes, int modeBytes, const double* numbers, int count,
                              const std::uint32_t* indices, int indexCount, double firstRecord) {
    return guarded([&] {
        auto modeList = textList(modes, modeBytes);
        std::vector<CapturePart> parts(std::size_t(count / 5));
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const double* n = numbers + 5 * i;
            auto& draw = parts[i].draw;
            draw.mode = *drawMode(modeList.at(i), false);
            draw.vertexCount = std::int64_t(n[0]);
            if (n[1] + std::max(n[2], 0.0) > indexCount)
                throw Error(ErrorCode::Internal, "captureSession: a part's indices lie outside the index list");
            if (n[2] >= 0) draw.indices.assign(indices + std::size_t(n[1]), indices + std::size_t(n[1] + n[2]));
            if (n[3] >= 0) draw.restartIndex = std::uint32_t(n[3]);
            if (n[4]) parts[i].program = &e->program(int(n[4]));
        }
        const SessionPlan& s = e->capture(id).captureSession(parts, std::int64_t(firstRecord));
        Json out = JsonBuilder::array();
        for (const auto& r : s.parts) {
            Json o = JsonBuilder::object();
            JsonBuilder::set(o, "primitive", drawModeName(r.primitive));
            JsonBuilder::set(o, "primitives", r.primitives);
            JsonBuilder::set(o, "firstRecord", r.firstRecord);
            JsonBuilder::set(o, "records", r.records);
            JsonBuilder::set(o, "firstByte", r.firstByte);
            JsonBuilder::set(o, "bytes", r.bytes);
            JsonBuilder::push(out, std::move(o));
        }
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "firstRecord", s.firstRecord);
        JsonBuilder::set(o, "endRecord", s.endRecord);
        JsonBuilder::set(o, "endBytes", s.endBytes);
        JsonBuilder::set(o, "parts", std::move(out));
        return std::move(o).done();
    });
}
/// part < 0: the whole session.
XFB_C int xfb_draw_session(Engine* e, int id, int part, const char* mode, int modeBytes, int instances) {
    return guarded([&] {
        e->capture(id).drawSession(part < 0 ? std::nullopt : std::optional<std::size_t>(std::size_t(part)),
                                   drawMode(text(mode, modeBytes), true), instances);
        return std::string();
    });
}
XFB_C int xfb_capture_info(Engine* e, int id) {
    return guarded([&] {
        auto& c = e->capture(id);
        Json o = JsonBuilder::object();
        JsonBuilder::set(o, "expansion", expansionName(c.expansion()));
        JsonBuilder::set(o, "vertexCount", c.vertexCount());
        return std::move(o).done();
    });
}

/// kind: 0 buffer, 1 program, 2 pipeline, 3 capture, 4 readback, 5 population, 6 population count;
/// answers whether it was live.
XFB_C int xfb_dispose(Engine* e, int kind, int id) {
    std::size_t n = kind == 0   ? e->buffers.erase(id)
                    : kind == 1 ? e->programs.erase(id)
                    : kind == 2 ? e->pipelines.erase(id)
                    : kind == 3 ? e->captures.erase(id)
                    : kind == 4 ? e->readbacks.erase(id)
                    : kind == 5 ? e->populations.erase(id)
                    : kind == 6 ? e->counts.erase(id)
                                : 0;
    lastResult() = n == 1 ? "true" : "false";
    return 0;
}
XFB_C int xfb_live_objects(Engine* e) {
    return guarded([&] {
        return fields({{"buffers", std::int64_t(e->buffers.size())},
                       {"programs", std::int64_t(e->programs.size())},
                       {"pipelines", std::int64_t(e->pipelines.size())},
                       {"captures", std::int64_t(e->captures.size())},
                       {"populations", std::int64_t(e->populations.size())},
                       {"readbacks", std::int64_t(e->readbacks.size())}})
            .done();
    });
}
/// GL errors pending before an error-checking call began (the application's), as numbers.
XFB_C int xfb_take_foreign_errors(Engine* e) {
    return guarded([&] {
        std::string out;
        write(out, e->device->takeForeignErrors());
        return out;
    });
}
/// Readbacks in flight cannot complete on a lost context: released now.
XFB_C int xfb_context_lost(Engine* e) {
    e->device->contextLost();
    e->readbacks.clear();
    e->counts.clear();
    lastResult().clear();
    return 0;
}
XFB_C int xfb_context_restored(Engine* e) {
    return guarded([&] {
        e->device->contextRestored();
        return std::string();
    });
}

} // extern "C"
