#include "xfb/primitive_capture.hpp"
#include "gl/access.hpp"

#include "capture/geometry_compute.hpp"
#include "capture/record_gather.hpp"
#include "gl/layout_packer.hpp"
#include "gl/readback.hpp"
#include "gl/draw_mode.hpp"
#include "gl/entries.hpp"
#include "gl/feedback_pass.hpp"
#include "gl/gl_check.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "gl/vertex_array.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"
#include "xfb/geometry_plan.hpp"

#include <algorithm>
#include <climits>

namespace xfb {

namespace {
// Building: vertex arrays, transform feedback objects, the gather program and its buffers.
constexpr unsigned kBuildState = gl::CachedProgram | gl::CachedVertexArray | gl::CachedArrayBuffer |
                                 gl::CachedWrittenBindings | gl::CachedTransformFeedback | gl::CachedFeedbackBuffer;
// A capture: the build state (buffer names may have changed), the pass, and the gather's upload
// from a pixel-unpack buffer into textures on the units it samples.
constexpr unsigned kCaptureState = kBuildState | gl::CachedDiscard | gl::CachedUnpackBuffer | gl::CachedTextures |
                                   gl::ReliedPixelStore | gl::ReliedSamplers;
} // namespace

namespace detail {

struct CaptureState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    std::shared_ptr<ProgramState> program;
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // per entry; null where absent
    PassPlan plan;
    Expansion expansion = Expansion::Driver;
    gl::VertexArrayName vertexArray;    // the user's program reads the inputs through it
    gl::TransformFeedbackName feedback; // Driver: writes the outputs
    gl::BufferName elements;            // Driver: indices of indexed draws (element binding of vertexArray)
    std::uint64_t elementCapacity = 0;
    std::unique_ptr<RecordGather> gather; // Engine
    // A staged declared layout (ES 3.0 / WebGL2): the gather writes staging records, packed into the outputs.
    std::unique_ptr<LayoutPacker> packer;
    CaptureCount last;
    bool captured = false; // capture() ran last: drawCaptured() may use the object's count
    SessionPlan session;
    bool sessionCaptured = false;                // captureSession() ran last
    std::vector<std::uint64_t> boundGenerations; // every entry's input and output generation when last bound
    std::vector<std::uint64_t> outputBytes;      // per captured buffer: its size as created
    std::vector<std::uint64_t> glBytes; // per captured buffer: its GL size when the capture began (checkGlSizes)
    // A geometry program: per vertex stream (stream 0 only on ES), GL_PRIMITIVES_GENERATED and
    // GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, begun around every capture.
    std::vector<gl::QueryName> generated, written;
    // Backend::Compute: a geometry program's capture as compute passes (capture/geometry_compute.hpp).
    Backend backend = Backend::TransformFeedback; // the one that runs (ran) the capture
    std::unique_ptr<GeometryCompute> compute;
    // Backend::Auto where the context has both: the shape's key in DeviceState::autoDecisions
    // until the first capture both can run times them (decide()); both are built meanwhile.
    std::optional<std::string> autoKey;
    std::string backendReason;
    // Whether captures run as compute passes: never in the browser module (a constant there, so
    // the compute capture's code is left out of it).
    bool computing() const { return detail::kNativeGL && backend == Backend::Compute && compute != nullptr; }

    // The geometry plan of a geometry program; never on WebGL2 (no geometry shaders: the module
    // then holds no geometry code).
    const GeometryPlan* geometry() const { return kNativeGL && program->geometry ? &program->geometry->plan : nullptr; }

    // Context loss (gl/recoverable.hpp): the gather forgets its own names.
    void forget() override {
        if (compute) compute->forget();
        vertexArray.forget();
        feedback.forget();
        elements.forget();
        if (kNativeGL) // no geometry programs on WebGL2
            for (auto* queries : {&generated, &written})
                for (auto& q : *queries) q.forget();
    }
    void restore() override {
        gather.reset(); // forgotten already: deletes nothing
        packer.reset();
        compute.reset();
        build();
    }

    // Entry e's input and output generation at 2e and 2e + 1 (0 where absent).
    std::uint64_t generationAt(std::size_t i) const {
        const auto& b = i % 2 ? outputs[i / 2] : inputs[i / 2];
        return b ? b->generation : 0;
    }
    // A Pipeline swaps the GL objects of its state buffers every step, a restored context makes new ones.
    bool buffersChanged() const {
        for (std::size_t i = 0; i < boundGenerations.size(); ++i)
            if (generationAt(i) != boundGenerations[i]) return true;
        return false;
    }

    // Points the vertex array at the inputs and the transform feedback object at the outputs.
    void bindBuffers() {
        if (computing()) { // each run binds the buffers it reads and writes
            boundGenerations.resize(inputs.size() * 2);
            for (std::size_t i = 0; i < boundGenerations.size(); ++i) boundGenerations[i] = generationAt(i);
            return;
        }
        XFB_GL(glBindVertexArray(vertexArray));
        gl::setAttributePointers(plan.attributes, [&](int e) -> GLuint { return inputs[std::size_t(e)]->name; });
        XFB_GL(glBindVertexArray(0));
        XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, gather ? gather->outputFeedback : feedback));
        auto names = packer ? std::vector<GLuint>{packer->staging.get()} : outputNames();
        for (std::size_t b = 0; b < names.size(); ++b)
            XFB_GL(glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(b), names[b]));
        XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // glBindBufferBase also set the generic binding
        boundGenerations.resize(inputs.size() * 2);
        for (std::size_t i = 0; i < boundGenerations.size(); ++i) boundGenerations[i] = generationAt(i);
    }

    // Other code sharing the context may have re-specified an output smaller (glBufferData) since
    // it was created: each one's GL size is read before anything is drawn, and kept for the ranges
    // a session binds. `needed[b]`: the bytes output b must hold for what `what` writes.
    void checkGlSizes(const std::vector<std::uint64_t>& needed, const std::string& what) {
        auto names = outputNames();
        glBytes.assign(names.size(), 0);
        for (std::size_t b = 0; b < names.size(); ++b) {
            glBytes[b] = glBufferSize(names[b], GL_ARRAY_BUFFER); // the guard saved ARRAY_BUFFER
            if (b >= needed.size() || glBytes[b] >= needed[b]) continue;
            throw Error(ErrorCode::Capacity,
                        what + ": output buffer " + std::to_string(b) + " (entry #" +
                            std::to_string(plan.outputs[b].entry) + ", GL buffer " + std::to_string(names[b]) +
                            ") holds " + std::to_string(glBytes[b]) + " bytes (GL_BUFFER_SIZE) but needs " +
                            std::to_string(needed[b]) + " bytes: other code re-specified it (glBufferData) below the " +
                            std::to_string(outputBytes[b]) + " bytes it was created with. Give it back at least " +
                            std::to_string(needed[b]) + " bytes or capture into a larger Buffer. Nothing was written");
        }
    }

    // Backend::Compute: per stream of the program, the records its buffers hold (the fewest of
    // its buffers, their size as created and their GL size), whole primitives. A stream nothing is
    // captured from never overflows: every primitive counts as written, as the GL counts it.
    std::vector<std::int64_t> streamCapacities() const {
        std::vector<std::uint64_t> held; // per buffer: the smaller of its size as created and its GL size
        for (std::size_t b = 0; b < outputBytes.size(); ++b) held.push_back(std::min(outputBytes[b], glBytes[b]));
        return geometryStreamCapacities(*geometry(), program->capture, held);
    }

    std::vector<GLuint> outputNames() const {
        std::vector<GLuint> names;
        for (const auto& o : plan.outputs) names.push_back(outputs[std::size_t(o.entry)]->name.get());
        return names;
    }

    void build() {
        vertexArray = gl::VertexArrayName::create();
        if (kNativeGL && (backend == Backend::Compute || autoKey)) buildCompute();
        if (kNativeGL && backend == Backend::Compute && !autoKey) {
            // the compute passes only
        } else if (expansion == Expansion::Driver) {
            elements = gl::BufferName::create();
            XFB_GL(glBindVertexArray(vertexArray));
            XFB_GL(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, elements)); // recorded in the vertex array
            XFB_GL(glBindVertexArray(0));
            feedback = gl::TransformFeedbackName::create();
            generated.clear();
            written.clear();
            if (const GeometryPlan* g = geometry())
                for (int k = 0; k < (device->caps.es ? 1 : g->streamCount); ++k) {
                    generated.push_back(gl::QueryName::create());
                    written.push_back(gl::QueryName::create());
                }
        } else if (program->staged) {
            // The records every output holds, which the staging records mirror one for one.
            std::int64_t records = INT64_MAX;
            for (std::size_t b = 0; b < outputBytes.size(); ++b)
                records =
                    std::min<std::int64_t>(records, outputBytes[b] / std::uint64_t(program->capture.buffers[b].stride));
            packer = std::make_unique<LayoutPacker>(program->capture, records, device);
            gather = std::make_unique<RecordGather>(plan::stagingPlan(program->capture), plan.count, device);
        } else {
            gather = std::make_unique<RecordGather>(program->capture, plan.count, device);
        }
        bindBuffers();
        elementCapacity = 0;
        captured = sessionCaptured = false;
        gl::check("building a primitive capture");
    }

    // Auto falls back to the geometry shader where the translation cannot run here (a shader
    // storage buffer limit, a construct the translation refuses).
    void buildCompute() {
        try {
            compute = std::make_unique<GeometryCompute>(*program, plan, inputs.size(), device->caps);
        } catch (const Error& e) {
            if (!autoKey) throw;
            autoKey.reset();
            backend = Backend::TransformFeedback;
            backendReason = std::string("auto: the geometry shader, the only backend here; the compute capture is not "
                                        "available (") +
                            e.what() + ")";
        }
    }

    // One capture of `draw` by the backend that runs it.
    void run(const DrawDesc& draw, std::int64_t vertices, bool rasterize) {
        if (computing())
            compute->run(*program, draw, vertices, inputs, outputNames(), streamCapacities());
        else if (expansion == Expansion::Driver)
            driverPass(draw, rasterize);
        else
            enginePass(draw, vertices);
    }

    // Backend::Auto: after a warm-up, timed captures of `draw` by each backend, fence-synchronised
    // (both write the same records): up to 3 within about 60 ms, the fastest of them counted (a
    // shared machine's load only ever adds). The faster backend is kept, for this object and for
    // every capture of the same program and vertex count on this context.
    void decide(const DrawDesc& draw, std::int64_t vertices) {
#ifndef __EMSCRIPTEN__ // no geometry programs on WebGL2
        constexpr double kBudgetMs = 60;
        double ms[2] = {0, 0};
        const Backend backends[2] = {Backend::TransformFeedback, Backend::Compute};
        for (int i = 0; i < 2; ++i) {
            backend = backends[i];
            run(draw, vertices, false); // warm-up: first use compiles lazily in some drivers
            gl::finishWithFence();
            double spent = 0;
            for (int k = 0; k < 3 && (k == 0 || spent < kBudgetMs); ++k) {
                const double t0 = gl::nowMs();
                run(draw, vertices, false);
                gl::finishWithFence();
                const double t = gl::nowMs() - t0;
                ms[i] = k == 0 ? t : std::min(ms[i], t);
                spent += t;
            }
        }
        backend = ms[1] < ms[0] ? Backend::Compute : Backend::TransformFeedback;
        backendReason = plan::cat(
            {"auto: ", backend == Backend::Compute ? "compute" : "the geometry shader", " was faster, geometry shader ",
             plan::milliseconds(ms[0]), " ms vs compute ", plan::milliseconds(ms[1]),
             " ms per capture (the fastest of up to 3 timed after a warm-up each, at the first capture: ",
             std::to_string(draw.indices.empty() ? draw.vertexCount : std::int64_t(draw.indices.size())),
             " vertices as ", drawModeName(draw.mode), ", ", device->caps.renderer, ")"});
        device->autoDecisions[*autoKey] = {int(backend), backendReason};
        autoKey.reset();
        if (backend == Backend::Compute) expansion = Expansion::Engine;
#else
        (void)draw, (void)vertices;
#endif
    }

    // Every index refers to an input vertex (plan layer: the same check on every runtime).
    std::int64_t validate(const DrawDesc& draw) const { return checkDrawVertices(draw, plan.count); }

    // The geometry statistics' queries, stream by stream (indexed on desktop GL, stream 0 on ES).
    void beginQueries() {
#ifndef __EMSCRIPTEN__ // no geometry programs on WebGL2
        for (std::size_t k = 0; k < written.size(); ++k) {
            if (device->caps.es) {
                XFB_GL_COUNTED(glBeginQuery(GL_PRIMITIVES_GENERATED, generated[k]));
                XFB_GL_COUNTED(glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, written[k]));
            } else {
                XFB_GL_COUNTED(glBeginQueryIndexed(GL_PRIMITIVES_GENERATED, GLuint(k), generated[k]));
                XFB_GL_COUNTED(glBeginQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, GLuint(k), written[k]));
            }
        }
#endif
    }
    void endQueries() {
#ifndef __EMSCRIPTEN__
        for (std::size_t k = 0; k < written.size(); ++k) {
            if (device->caps.es) {
                XFB_GL_COUNTED(glEndQuery(GL_PRIMITIVES_GENERATED));
                XFB_GL_COUNTED(glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN));
            } else {
                XFB_GL_COUNTED(glEndQueryIndexed(GL_PRIMITIVES_GENERATED, GLuint(k)));
                XFB_GL_COUNTED(glEndQueryIndexed(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, GLuint(k)));
            }
        }
#endif
    }
    // A query's result (GL_QUERY_RESULT: waits for the GPU).
    static std::int64_t queryResult(GLuint query, bool es) {
#ifndef __EMSCRIPTEN__
        if (!es) {
            GLuint64 v = 0;
            glGetQueryObjectui64v(query, GL_QUERY_RESULT, &v);
            return std::int64_t(v);
        }
#endif
        (void)es;
        GLuint v = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &v);
        return std::int64_t(v);
    }

    // `rasterize`: keep the rasterizer on (CaptureRunOptions::rasterize, checked: stream 0).
    void driverPass(const DrawDesc& draw, bool rasterize = false) {
        useProgram(*program);
        glBindVertexArray(vertexArray);
        bool indexed = !draw.indices.empty();
        if (indexed) {
            auto bytes = std::uint64_t(draw.indices.size()) * 4;
            if (bytes > elementCapacity) {
                glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(bytes), draw.indices.data(), GL_DYNAMIC_DRAW);
                elementCapacity = bytes;
            } else {
                glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, GLsizeiptr(bytes), draw.indices.data());
            }
        }
#ifndef __EMSCRIPTEN__
        if (draw.restartIndex && indexed) {
            glEnable(GL_PRIMITIVE_RESTART);
            glPrimitiveRestartIndex(*draw.restartIndex);
        }
#endif
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
        auto drawCall = [&] {
            if (indexed)
                glDrawElements(gl::primitiveMode(draw.mode), GLsizei(draw.indices.size()), GL_UNSIGNED_INT, nullptr);
            else
                glDrawArrays(gl::primitiveMode(draw.mode), 0, GLsizei(draw.vertexCount));
        };
        // The statistics' queries (geometry programs) inside the bracket, the rasterizer as asked.
        gl::feedbackBracket(
            gl::primitiveMode(last.primitive), rasterize, [&] { beginQueries(); }, drawCall, [&] { endQueries(); });
#ifndef __EMSCRIPTEN__
        if (draw.restartIndex && indexed) glDisable(GL_PRIMITIVE_RESTART);
#endif
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    }

    static void useProgram(ProgramState& p) {
        glUseProgram(p.program);
        p.flushUniforms();
    }

    // Points transform feedback binding b of the bound object at `firstByte[b]..` of output b
    // (offset 0 and the whole buffer: what bindBuffers() set).
    void bindOutputRanges(const std::vector<std::uint64_t>& firstByte) {
        auto names = outputNames();
        for (std::size_t b = 0; b < names.size(); ++b)
            glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(b), names[b], GLintptr(firstByte[b]),
                              GLsizeiptr(std::min(outputBytes[b], glBytes[b]) - firstByte[b]));
    }
    void restoreOutputBindings(GLuint object) {
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, object);
        auto names = packer ? std::vector<GLuint>{packer->staging.get()} : outputNames();
        for (std::size_t b = 0; b < names.size(); ++b)
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(b), names[b]);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // the generic binding follows the indexed ones
    }

    // Driver expansion of a session: one begin per run of parts with the same captured primitive
    // and the same program, paused between its parts (primitive restart changes only while
    // paused); a new primitive or program ends it and begins again at the part's first byte:
    // glResumeTransformFeedback with another program than the one that began is
    // GL_INVALID_OPERATION (ARB_transform_feedback2), and one begin has one primitive mode.
    // Every part's indices are uploaded once, one after another, before the first begin.
    void driverSession(std::span<const CapturePart> parts, const std::vector<ProgramState*>& programs) {
        std::vector<std::uint32_t> allIndices;
        std::vector<std::size_t> indexStart;
        for (const auto& p : parts) {
            indexStart.push_back(allIndices.size());
            allIndices.insert(allIndices.end(), p.draw.indices.begin(), p.draw.indices.end());
        }
        glBindVertexArray(vertexArray);
        if (!allIndices.empty()) {
            auto bytes = std::uint64_t(allIndices.size()) * 4;
            if (bytes > elementCapacity) {
                glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(bytes), allIndices.data(), GL_DYNAMIC_DRAW);
                elementCapacity = bytes;
            } else {
                glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, GLsizeiptr(bytes), allIndices.data());
            }
        }
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, feedback);
        glEnable(GL_RASTERIZER_DISCARD);
        bool active = false;
        DrawMode activePrimitive = DrawMode::Points;
        const ProgramState* activeProgram = nullptr;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const PartRange& range = session.parts[i];
            if (range.records == 0) continue; // writes nothing (e.g. a 2-vertex strip)
            if (active && (range.primitive != activePrimitive || programs[i] != activeProgram)) {
                glEndTransformFeedback();
                active = false;
            }
            if (active)
                glPauseTransformFeedback();
            else
                useProgram(*programs[i]);
            activeProgram = programs[i];
            const DrawDesc& draw = parts[i].draw;
            bool indexed = !draw.indices.empty();
#ifndef __EMSCRIPTEN__
            if (indexed && draw.restartIndex) {
                glEnable(GL_PRIMITIVE_RESTART);
                glPrimitiveRestartIndex(*draw.restartIndex);
            } else {
                glDisable(GL_PRIMITIVE_RESTART);
            }
#endif
            if (active) {
                glResumeTransformFeedback(); // writing continues where the last part stopped
            } else {
                bindOutputRanges(range.firstByte);
                glBeginTransformFeedback(gl::primitiveMode(range.primitive));
                active = true;
                activePrimitive = range.primitive;
            }
            if (indexed)
                glDrawElements(gl::primitiveMode(draw.mode), GLsizei(draw.indices.size()), GL_UNSIGNED_INT,
                               reinterpret_cast<const void*>(std::uintptr_t(indexStart[i] * 4)));
            else
                glDrawArrays(gl::primitiveMode(draw.mode), 0, GLsizei(draw.vertexCount));
        }
        if (active) glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
#ifndef __EMSCRIPTEN__
        glDisable(GL_PRIMITIVE_RESTART);
#endif
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        restoreOutputBindings(feedback);
    }

    // Engine expansion of a session: each part's two passes, the gather writing at its first byte.
    void engineSession(std::span<const CapturePart> parts, const std::vector<ProgramState*>& programs,
                       const std::vector<std::int64_t>& vertices) {
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const PartRange& range = session.parts[i];
            if (range.records == 0) continue;
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, gather->outputFeedback);
            if (packer) // the staging records at the part's record positions, packed after
                glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, packer->staging,
                                  GLintptr(range.firstRecord * packer->stagingStride),
                                  GLsizeiptr((packer->count - range.firstRecord) * packer->stagingStride));
            else
                bindOutputRanges(range.firstByte);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
            enginePass(parts[i].draw, vertices[i], *programs[i], range.records);
            if (packer) packer->pack(outputNames(), range.firstRecord, range.records);
        }
        restoreOutputBindings(gather->outputFeedback);
    }

    // A part's program writes the capture's record layout and reads only inputs the vertex array
    // provides, at the same locations with the same types.
    ProgramState& partProgram(const CapturePart& part, std::size_t i) const {
        if (!part.program) return *program;
        ProgramState* p = detail::Access::state(*part.program).get();
        if (!p) throw Error(ErrorCode::Disposed, "part " + std::to_string(i) + ": its Program was moved from");
        if (kNativeGL && p->geometry)
            throw Error(ErrorCode::Unsupported, "part " + std::to_string(i) + ": program '" + p->desc.label +
                                                    "' has a geometry shader, whose record count is known only on "
                                                    "the GPU; a session plans every part's range on the CPU. Capture "
                                                    "it alone with capture()");
        if (p == program.get()) return *p;
        checkSessionProgram(i, p->desc.label, p->capture, p->attributes, program->desc.label, program->capture,
                            program->attributes);
        return *p;
    }

    // CaptureRunOptions::rasterize: a stream the program has, stream 0 (the one GL rasterizes), the driver's expansion.
    void checkRasterize(std::optional<int> stream) const {
        if (!stream) return;
        const int streams = geometry() ? geometry()->streamCount : 1;
        if (*stream < 0 || *stream >= streams)
            throw Error(ErrorCode::RasterizedStream,
                        "rasterize = " + std::to_string(*stream) + ": program '" + program->desc.label + "' has " +
                            (geometry() ? "vertex streams 0.." + std::to_string(streams - 1)
                                        : std::string("no geometry shader, so vertex stream 0 only")));
        if (*stream != 0)
            throw Error(ErrorCode::RasterizedStream,
                        "rasterize = " + std::to_string(*stream) +
                            ": GL rasterizes vertex stream 0 only (ARB_transform_feedback3; the other streams go to "
                            "transform feedback alone), unlike Direct3D's RasterizedStream. Rasterize stream 0, or "
                            "emit what you draw to stream 0");
        if (expansion == Expansion::Engine)
            throw Error(ErrorCode::Unsupported,
                        "rasterize: the engine's expansion (OpenGL ES 3.0 / WebGL2, or Expansion::Engine) runs the "
                        "vertex shader over points and gathers the primitives afterwards, so there is no pass that "
                        "draws them; capture with the driver's expansion (desktop GL) or draw the captured buffer");
    }

    // `vertices`: how many the draw refers to; each runs once, gl_VertexID is its index as in the draw.
    void enginePass(const DrawDesc& draw, std::int64_t vertices) { enginePass(draw, vertices, *program, last.records); }
    void enginePass(const DrawDesc& draw, std::int64_t vertices, ProgramState& with, std::int64_t records) {
        useProgram(with);
        glBindVertexArray(vertexArray);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, gather->scratchFeedback);
        gl::feedbackPass(GL_POINTS, 0, [&] { glDrawArrays(GL_POINTS, 0, GLsizei(vertices)); });
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0); // the scratch buffers are read next
        gather->gather(vertices, draw, records);
    }
};

} // namespace detail

std::string_view expansionName(Expansion e) { return enumName(expansionNames, e); }

PrimitiveCapture::PrimitiveCapture(const Device& device, const Program& program, std::vector<Entry> entries,
                                   PrimitiveCaptureOptions options) {
    auto s = std::make_unique<detail::CaptureState>();
    s->program = detail::Access::state(program);
    if (!s->program) throw Error(ErrorCode::Disposed, "the Program was moved from");
    auto resolved = detail::resolveEntries(entries);
    checkCaptureEntries(resolved.descs);
    s->inputs = std::move(resolved.inputs);
    s->outputs = std::move(resolved.outputs);
    const auto& descs = resolved.descs;
    s->plan = planPass(s->program->attributes, s->program->capture, descs, options.vertexCount, OutputSizing::PerDraw);
    for (const auto& o : s->plan.outputs) s->outputBytes.push_back(s->outputs[std::size_t(o.entry)]->bytes);
    s->device = detail::Access::state(device);
    s->device->requireContext("creating a PrimitiveCapture");
    // Primitive capture is transform feedback: a layout it cannot write here has no other way.
    if (!s->program->feedbackRefusal.empty()) throw Error(ErrorCode::Unsupported, s->program->feedbackRefusal);
    const Capabilities& caps = s->device->caps;
    s->expansion =
        options.expansion == Expansion::Auto ? (caps.es ? Expansion::Engine : Expansion::Driver) : options.expansion;
    const std::string& label = s->program->desc.label;
    // (The npm package never sets a capture's backend: its module holds none of this.)
    if (detail::kNativeGL &&
        (options.backend == Backend::Fragment || (options.backend == Backend::Compute && !s->program->geometry)))
        throw Error(ErrorCode::Unsupported,
                    "PrimitiveCaptureOptions::backend = " + std::string(backendName(options.backend)) + ": program '" +
                        label + "' is " + (s->program->geometry ? "a geometry program" : "a vertex program") +
                        ", which a capture runs with " +
                        (s->program->geometry ? "transform feedback or compute" : "transform feedback only") +
                        (options.backend == Backend::Compute
                             ? " (a vertex program's records as compute: a Pipeline with Backend::Compute)"
                             : "") +
                        ". Use Backend::Auto");
    if (detail::kNativeGL) s->backendReason = "transform feedback: a vertex program's capture"; // (JS: no API)
    if (detail::kNativeGL && s->program->geometry) {
        // Auto: the faster of the two where the context has both (timed at the first capture, or
        // decided earlier for the same program and vertex count), else the one it has.
        s->backend = options.backend == Backend::Compute || (options.backend == Backend::Auto && !caps.geometry)
                         ? Backend::Compute
                         : Backend::TransformFeedback;
        s->backendReason = options.backend != Backend::Auto ? "requested"
                           : caps.geometry ? "auto: the geometry shader, the only backend here (compute needs OpenGL "
                                             "4.3+ or OpenGL ES 3.1+)"
                                           : "auto: compute, the only backend here (no geometry shaders)";
        if (options.backend == Backend::Auto && caps.geometry && caps.compute && options.expansion == Expansion::Auto) {
            const std::string key = plan::cat({"capture|", s->program->desc.source, "|", s->program->desc.geometry, "|",
                                               std::to_string(s->plan.count)});
            if (auto it = s->device->autoDecisions.find(key); it != s->device->autoDecisions.end()) {
                s->backend = Backend(it->second.first);
                s->backendReason = "auto, decided earlier on this context: " + it->second.second;
            } else {
                s->autoKey = key;
                s->backendReason = "auto: the first capture times the geometry shader and compute";
            }
        }
        if (s->backend == Backend::Compute && !caps.compute)
            throw Error(ErrorCode::Unsupported, "program '" + label +
                                                    "': the compute capture of a geometry program needs OpenGL 4.3+ or "
                                                    "OpenGL ES 3.1+; this context is '" +
                                                    caps.version + "'. Use Backend::TransformFeedback");
        if (s->backend == Backend::TransformFeedback && !caps.geometry)
            throw Error(ErrorCode::GeometryUnsupported,
                        "program '" + label + "': Backend::TransformFeedback needs geometry shaders, which '" +
                            caps.version + "' does not have. Use Backend::Compute or Auto");
    }
    if (detail::kNativeGL && s->program->geometry && s->backend == Backend::Compute && !s->autoKey) {
        // The engine expands the draw into the primitives the kernels read.
        if (options.expansion == Expansion::Driver)
            throw Error(ErrorCode::Unsupported,
                        "program '" + label +
                            "' is captured with Backend::Compute, whose passes take the draw's primitives from the "
                            "engine's expansion; Expansion::Driver is the GL's geometry shader "
                            "(Backend::TransformFeedback). Use Expansion::Auto or Engine");
        s->expansion = Expansion::Engine;
    } else if (detail::kNativeGL && s->program->geometry) {
        // The geometry shader takes the GL's own primitives: on ES 3.2 too (non-indexed draws).
        if (options.expansion == Expansion::Engine)
            throw Error(ErrorCode::Unsupported,
                        "program '" + s->program->desc.label +
                            "' has a geometry shader, which takes the draw's primitives from the GL: the engine's "
                            "expansion runs the vertex shader over points and cannot feed it. Use Expansion::Auto "
                            "or Driver");
        s->expansion = Expansion::Driver;
    } else if (s->expansion == Expansion::Driver && caps.es)
        throw Error(
            ErrorCode::Unsupported,
            "driver expansion needs desktop OpenGL; on '" + caps.version +
                "' transform feedback requires the draw mode to equal the capture mode and forbids indexed draws. "
                "Use Expansion::Engine or Auto");
    {
        gl::StateGuard guard(*s->device, kBuildState | gl::TakeForeignErrors);
        s->build();
    }
    s->enroll(s->device);
    state_ = std::move(s);
}

PrimitiveCapture::PrimitiveCapture(PrimitiveCapture&&) noexcept = default;
PrimitiveCapture& PrimitiveCapture::operator=(PrimitiveCapture&&) noexcept = default;
PrimitiveCapture::~PrimitiveCapture() = default;

static detail::CaptureState& live(const std::unique_ptr<detail::CaptureState>& s) {
    return detail::liveState(s, "PrimitiveCapture");
}

CaptureCount PrimitiveCapture::capture(const DrawDesc& draw) { return capture(draw, CaptureRunOptions{}); }

CaptureCount PrimitiveCapture::capture(const DrawDesc& draw, const CaptureRunOptions& run) {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::capture");
    const GeometryPlan* geometry = s.geometry();
    const CapturePlan& plan = s.program->capture;
    // Planned and checked before any GL call: a refused capture writes nothing.
    CaptureCount count = geometry ? countGeometryCapture(draw, *geometry, plan) : countCapture(draw, plan);
    const std::int64_t vertices = s.validate(draw);
    // Auto not decided yet: the backend that can run this capture, or both timed below.
    bool timeBoth = false;
    if (detail::kNativeGL && s.autoKey) {
        const bool fitsCompute = !run.rasterize && !overComputeCounts(count);
        const bool fitsGeometryShader = !(s.device->caps.es && !draw.indices.empty());
        s.backend = fitsGeometryShader ? Backend::TransformFeedback : Backend::Compute;
        timeBoth = fitsCompute && fitsGeometryShader;
    }
    if (s.computing() && run.rasterize)
        throw Error(ErrorCode::Unsupported,
                    "rasterize: program '" + s.program->desc.label +
                        "' is captured with Backend::Compute, whose passes draw nothing. Capture with "
                        "Backend::TransformFeedback (geometry shaders) to rasterize, or draw the captured stream");
    if (detail::kNativeGL) s.checkRasterize(run.rasterize); // WebGL2's engine expansion never rasterizes
    if (s.computing()) checkComputeCounts(count);
    if (geometry && !s.computing() && s.device->caps.es && !draw.indices.empty())
        throw Error(ErrorCode::Unsupported,
                    "an indexed draw through the geometry shader of program '" + s.program->desc.label + "': '" +
                        s.device->caps.version +
                        "' restricts transform feedback to non-indexed draws (OpenGL ES 3.2). Draw the "
                        "vertices in order (glDrawArrays), or capture on desktop GL 4.0+");
    const bool clamp = geometry && run.overflow == EmitOverflow::Clamp;
    if (!geometry)
        checkCaptureCapacity(count, s.outputBytes);
    else if (!clamp)
        checkGeometryCapacity(count, *geometry, plan, s.outputBytes);
    // The pixel store and sampler bindings are set for the gather's upload and texelFetch; errors
    // pending before this call are the application's (Device::takeForeignErrors).
    const detail::RecordGather* g = s.gather.get();
    const unsigned packing = s.packer ? gl::CachedCopyBuffers : 0u; // the packing passes copy the outputs
    gl::StateGuard guard(*s.device, kCaptureState | packing | gl::TakeForeignErrors, g ? g->firstUnit : 0,
                         g ? unsigned(g->textures.size()) : 0);
    detail::requireLiveBuffers(s.inputs, "PrimitiveCapture::capture (an input)");
    detail::requireLiveBuffers(s.outputs, "PrimitiveCapture::capture (an output)");
    detail::settleForWork(s.inputs, s.outputs);
    // A clamped geometry capture writes what fits: only the sizes are read.
    s.checkGlSizes(clamp ? std::vector<std::uint64_t>{} : count.bytes,
                   "PrimitiveCapture::capture of " + std::to_string(count.records) + " records");
    // A Pipeline swaps the names of its state buffers every step: follow them (no GL object is created).
    if (s.buffersChanged()) s.bindBuffers();
    s.last = count;
    s.captured = s.sessionCaptured = false;
    if (timeBoth) s.decide(draw, vertices);
    s.run(draw, vertices, detail::kNativeGL && run.rasterize.has_value());
    if (s.packer) s.packer->pack(s.outputNames(), 0, count.records);
    // Checked here, not at a later read: a failed pass or upload is this call's error.
    gl::check("PrimitiveCapture::capture");
    s.captured = true;
    return count;
}

const SessionPlan& PrimitiveCapture::captureSession(std::span<const CapturePart> parts, std::int64_t firstRecord) {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::captureSession");
    if (s.geometry())
        throw Error(ErrorCode::Unsupported,
                    "program '" + s.program->desc.label +
                        "' has a geometry shader, whose record count is known only on the GPU; a session plans "
                        "every part's range on the CPU. Capture each draw with capture() (into its own buffers)");
    // Everything is planned and checked before any GL call: a refused session writes nothing.
    std::vector<DrawDesc> draws;
    std::vector<detail::ProgramState*> programs;
    std::vector<std::int64_t> vertices;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        programs.push_back(&s.partProgram(parts[i], i));
        try {
            vertices.push_back(s.validate(parts[i].draw));
        } catch (const Error& e) { throw Error(e.code(), "part " + std::to_string(i) + ": " + e.message()); }
        draws.push_back(parts[i].draw);
    }
    SessionPlan plan = planCaptureSession(draws, s.program->capture, firstRecord);
    checkSessionCapacity(plan, s.outputBytes);
    const detail::RecordGather* g = s.gather.get();
    const unsigned packing = s.packer ? gl::CachedCopyBuffers : 0u; // the packing passes copy the outputs
    gl::StateGuard guard(*s.device, kCaptureState | packing | gl::TakeForeignErrors, g ? g->firstUnit : 0,
                         g ? unsigned(g->textures.size()) : 0);
    detail::requireLiveBuffers(s.inputs, "PrimitiveCapture::captureSession (an input)");
    detail::requireLiveBuffers(s.outputs, "PrimitiveCapture::captureSession (an output)");
    detail::settleForWork(s.inputs, s.outputs);
    s.checkGlSizes(plan.endBytes, "PrimitiveCapture::captureSession of records " + std::to_string(plan.firstRecord) +
                                      ".." + std::to_string(plan.endRecord));
    if (s.buffersChanged()) s.bindBuffers();
    s.session = std::move(plan);
    s.captured = s.sessionCaptured = false;
    if (s.expansion == Expansion::Driver)
        s.driverSession(parts, programs);
    else
        s.engineSession(parts, programs, vertices);
    gl::check("PrimitiveCapture::captureSession");
    s.sessionCaptured = true;
    return s.session;
}

void PrimitiveCapture::drawSession(std::optional<std::size_t> part, std::optional<DrawMode> mode, int instances) const {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::drawSession");
    if (mode) checkDrawMode(*mode, "PrimitiveCapture::drawSession");
    if (!s.sessionCaptured)
        throw Error(ErrorCode::InvalidArgument,
                    "no session was captured since the last capture(); call captureSession() before drawSession()");
    if (instances < 1)
        throw Error(ErrorCode::InvalidArgument, "instances must be >= 1, got " + std::to_string(instances));
    const auto& parts = s.session.parts;
    std::int64_t first = s.session.firstRecord, count = s.session.records();
    DrawMode primitive = parts[0].primitive;
    if (part) {
        if (*part >= parts.size())
            throw Error(ErrorCode::InvalidArgument,
                        "part " + std::to_string(*part) + " does not exist; the session has " +
                            std::to_string(parts.size()) + " parts (0.." + std::to_string(parts.size() - 1) + ")");
        first = parts[*part].firstRecord;
        count = parts[*part].records;
        primitive = parts[*part].primitive;
    } else if (!mode) {
        for (std::size_t i = 1; i < parts.size(); ++i)
            if (parts[i].primitive != primitive)
                throw Error(ErrorCode::InvalidArgument,
                            "part 0 captured " + std::string(drawModeName(primitive)) + " and part " +
                                std::to_string(i) + " " + std::string(drawModeName(parts[i].primitive)) +
                                "; draw the session part by part, or give the mode to draw every record with");
    }
    if (count == 0) return;
    glDrawArraysInstanced(gl::primitiveMode(mode.value_or(primitive)), GLint(first), GLsizei(count), instances);
}

const SessionPlan& PrimitiveCapture::lastSession() const { return live(state_).session; }

void PrimitiveCapture::drawCaptured(std::optional<DrawMode> mode, int instances) const {
    auto& s = live(state_);
    if (const GeometryPlan* g = s.geometry()) return drawCapturedStream(g->streams.front().stream, mode, instances);
    s.device->requireContext("PrimitiveCapture::drawCaptured");
    if (mode) checkDrawMode(*mode, "PrimitiveCapture::drawCaptured");
    if (s.sessionCaptured)
        throw Error(ErrorCode::InvalidArgument,
                    "the last capture was a session (captureSession); draw it with drawSession(), whole or by part");
    if (!s.captured)
        throw Error(ErrorCode::InvalidArgument, "nothing was captured yet; call capture() before drawCaptured()");
    if (instances < 1)
        throw Error(ErrorCode::InvalidArgument, "instances must be >= 1, got " + std::to_string(instances));
    GLenum m = gl::primitiveMode(mode.value_or(s.last.primitive));
#ifndef __EMSCRIPTEN__
    const Capabilities& caps = s.device->caps;
    if (caps.drawTransformFeedback && (instances == 1 || caps.major > 4 || caps.minor >= 2)) {
        GLuint object = s.gather ? s.gather->outputFeedback : s.feedback;
        if (instances == 1)
            glDrawTransformFeedback(m, object);
        else
            glDrawTransformFeedbackInstanced(m, object, instances);
        return;
    }
#endif
    glDrawArraysInstanced(m, 0, GLsizei(s.last.records), instances);
}

std::vector<StreamStatistics> PrimitiveCapture::statistics() const {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::statistics");
    if (s.sessionCaptured)
        throw Error(ErrorCode::InvalidArgument,
                    "the last capture was a session (captureSession): its ranges are planned, lastSession() has them");
    if (!s.captured)
        throw Error(ErrorCode::InvalidArgument, "nothing was captured yet; call capture() before statistics()");
    const GeometryPlan* g = s.geometry();
    if (!g) return {{0, true, s.last.primitives, s.last.primitives, s.last.records}};
    const int vertices = verticesPerPrimitive(s.last.primitive);
    std::vector<StreamStatistics> out;
    if (s.computing()) {
        // The totals of the passes' prefix sums: records requested and written per stream.
        gl::StateGuard guard(*s.device, gl::CachedCopyBuffers | gl::CachedArrayBuffer);
        const auto totals = s.compute->readTotals();
        for (std::size_t k = 0; k < totals.size(); ++k) {
            StreamStatistics st{int(k), g->find(int(k)) != nullptr};
            st.primitivesGenerated = totals[k].first / vertices;
            st.primitivesWritten = totals[k].second / vertices;
            st.recordsWritten = totals[k].second;
            out.push_back(st);
        }
        gl::check("PrimitiveCapture::statistics");
        return out;
    }
    for (std::size_t k = 0; k < s.written.size(); ++k) {
        StreamStatistics st{int(k), g->find(int(k)) != nullptr};
        st.primitivesGenerated = s.queryResult(s.generated[k], s.device->caps.es);
        // A stream nothing captures: Mesa's query counts every generated primitive, NVIDIA's 0; the
        // contract is Mesa's and the compute capture's (primitive_capture.hpp).
        st.primitivesWritten = st.captured ? s.queryResult(s.written[k], s.device->caps.es) : st.primitivesGenerated;
        st.recordsWritten = st.primitivesWritten * vertices;
        out.push_back(st);
    }
    gl::check("PrimitiveCapture::statistics");
    return out;
}

void PrimitiveCapture::drawCapturedStream(int stream, std::optional<DrawMode> mode, int instances) const {
    auto& s = live(state_);
    const GeometryPlan* g = s.geometry();
    if (!g) {
        if (stream != 0)
            throw Error(ErrorCode::GeometryStream, "stream " + std::to_string(stream) + ": program '" +
                                                       s.program->desc.label +
                                                       "' has no geometry shader, so its capture is stream 0 only");
        return drawCaptured(mode, instances);
    }
    s.device->requireContext("PrimitiveCapture::drawCapturedStream");
    if (mode) checkDrawMode(*mode, "PrimitiveCapture::drawCapturedStream");
    if (!g->find(stream)) {
        std::string streams;
        for (const auto& c : g->streams) streams += (streams.empty() ? "" : ", ") + std::to_string(c.stream);
        throw Error(ErrorCode::GeometryStream, "stream " + std::to_string(stream) + ": program '" +
                                                   s.program->desc.label +
                                                   "' captures nothing from it; its captured streams are " + streams);
    }
    if (!s.captured)
        throw Error(ErrorCode::InvalidArgument, "nothing was captured yet; call capture() before drawing it");
    if (instances < 1)
        throw Error(ErrorCode::InvalidArgument, "instances must be >= 1, got " + std::to_string(instances));
#ifndef __EMSCRIPTEN__ // no geometry programs on WebGL2
    const GLenum m = gl::primitiveMode(mode.value_or(s.last.primitive));
    const Capabilities& caps = s.device->caps;
    if (s.compute) {
        if (instances == 1) {
            // The stream's totals are a DrawArraysIndirectCommand {written, 1, 0, 0}: no count read back.
            GLint bound = 0;
            glGetIntegerv(GL_DRAW_INDIRECT_BUFFER_BINDING, &bound);
            XFB_GL_COUNTED(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, s.compute->totals));
            XFB_GL_COUNTED(glDrawArraysIndirect(
                m, reinterpret_cast<const void*>(std::uintptr_t(stream) * detail::kTotalsWords * 4)));
            XFB_GL_COUNTED(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, GLuint(bound)));
            return;
        }
        // Instanced: the written count, read back (a wait).
        std::int64_t written = 0;
        {
            gl::StateGuard guard(*s.device, gl::CachedCopyBuffers | gl::CachedArrayBuffer);
            written = s.compute->readTotals()[std::size_t(stream)].second;
        }
        glDrawArraysInstanced(m, 0, GLsizei(written), instances);
        return;
    }
    if (!caps.es) {
        if (instances == 1) {
            glDrawTransformFeedbackStream(m, s.feedback, GLuint(stream));
            return;
        }
        if (caps.major == 4 && caps.minor < 2)
            throw Error(ErrorCode::Unsupported,
                        "instances > 1 need glDrawTransformFeedbackStreamInstanced (GL 4.2); '" + caps.version +
                            "' is older");
        glDrawTransformFeedbackStreamInstanced(m, s.feedback, GLuint(stream), instances);
        return;
    }
    // OpenGL ES 3.2 has no glDrawTransformFeedback: the written query's count (stream 0).
    const int vertices = verticesPerPrimitive(s.last.primitive);
    const std::int64_t written = s.queryResult(s.written[0], true);
    glDrawArraysInstanced(m, 0, GLsizei(written * vertices), instances);
#endif
}

const CaptureCount& PrimitiveCapture::lastCount() const { return live(state_).last; }
Expansion PrimitiveCapture::expansion() const { return live(state_).expansion; }
Backend PrimitiveCapture::backend() const {
    const auto& s = live(state_);
    return s.autoKey ? Backend::Auto : s.backend;
}
const std::string& PrimitiveCapture::backendReason() const { return live(state_).backendReason; }
std::int64_t PrimitiveCapture::vertexCount() const { return live(state_).plan.count; }
const PassPlan& PrimitiveCapture::plan() const { return live(state_).plan; }

} // namespace xfb
