#include "compute/compute_pass.hpp"
#include "gl/gl_check.hpp"
#include "gl/state.hpp"
#include "xfb/error.hpp"
#include "xfb/pipeline.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <deque>

namespace xfb {

namespace detail {

struct PendingQuery {
    GLuint query;
    std::uint64_t step;
};

struct PipelineState {
    std::shared_ptr<DeviceState> device;
    std::shared_ptr<ProgramState> program;
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // per entry; null where absent
    PassPlan plan;
    PipelineOptions options;
    std::array<GLuint, 2> vao{}, tf{};
    int side = 0; // which ping-pong side the next step uses
    GLuint sideZeroName = 0; // the first state pair's input on side 0: tells the side from the names
    std::uint64_t steps = 0;
    GLuint checkQuery = 0;
    std::vector<GLuint> freeQueries;
    std::deque<PendingQuery> pending;
    BackendChoice choice;
    std::unique_ptr<ComputePass> compute; // built the first time the compute backend is used
    struct CheckedStep {
        GLenum error = GL_NO_ERROR;
        std::optional<GLuint> written; // known at once for compute, from the query for TF
        std::string why;
    };
    std::optional<CheckedStep> checking; // a checked step whose result has not been read
    int lastCalls = 0;                   // GL calls of the last pass

    void refuseWhileChecking(const char* what) const {
        if (checking)
            throw Error(ErrorCode::InvalidArgument, std::string(what) + " while a checked step is pending; poll it (pollCheckedStep) until it returns first");
    }

    ~PipelineState() {
        if (device) std::erase(device->pipelines, this);
        glDeleteVertexArrays(2, vao.data());
        glDeleteTransformFeedbacks(2, tf.data());
        if (checkQuery) glDeleteQueries(1, &checkQuery);
        for (auto q : freeQueries) glDeleteQueries(1, &q);
        for (auto& p : pending) glDeleteQueries(1, &p.query);
    }

    bool isState(std::size_t entry) const { return inputs[entry] && outputs[entry]; }

    // The buffers of ping-pong side `s`, in terms of the names the entries held at construction:
    // side 0 reads the inputs and writes the outputs, side 1 the reverse for state pairs. Used to
    // build the side's VAO and transform feedback object once.
    GLuint sideReadName(std::size_t entry, int s) const {
        return (isState(entry) && s == 1) ? outputs[entry]->name : inputs[entry]->name;
    }
    GLuint sideWriteName(std::size_t entry, int s) const {
        return (isState(entry) && s == 1) ? inputs[entry]->name : outputs[entry]->name;
    }

    void build() {
        for (std::size_t e = 0; e < inputs.size() && !sideZeroName; ++e)
            if (isState(e)) sideZeroName = inputs[e]->name;
        XFB_GL(glGenVertexArrays(2, vao.data()));
        XFB_GL(glGenTransformFeedbacks(2, tf.data()));
        XFB_GL(glGenQueries(1, &checkQuery));
        for (int s = 0; s < 2; ++s) {
            XFB_GL(glBindVertexArray(vao[std::size_t(s)]));
            for (const auto& a : plan.attributes) {
                XFB_GL(glBindBuffer(GL_ARRAY_BUFFER, sideReadName(std::size_t(a.entry), s)));
                for (int l = 0; l < a.locationCount; ++l) {
                    auto loc = GLuint(a.location + l);
                    auto offset = reinterpret_cast<const void*>(std::uintptr_t(a.offset + l * a.componentsPerLocation * 4));
                    XFB_GL(glEnableVertexAttribArray(loc));
                    if (a.type == ComponentType::Float32)
                        XFB_GL(glVertexAttribPointer(loc, a.componentsPerLocation, GL_FLOAT, GL_FALSE, a.stride, offset));
                    else
                        XFB_GL(glVertexAttribIPointer(loc, a.componentsPerLocation, a.type == ComponentType::Int32 ? GL_INT : GL_UNSIGNED_INT, a.stride, offset));
                }
            }
            XFB_GL(glBindVertexArray(0));
            XFB_GL(glBindBuffer(GL_ARRAY_BUFFER, 0));
            XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf[std::size_t(s)]));
            for (const auto& o : plan.outputs)
                XFB_GL(glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(o.binding), sideWriteName(std::size_t(o.entry), s)));
            XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        }
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // glBindBufferBase also set the generic binding
        gl::check("building the pipeline's vertex arrays and transform feedback objects");
    }

    void checkCapacity() const {
        for (const auto& o : plan.outputs) {
            const auto& b = *outputs[std::size_t(o.entry)];
            if (b.bytes < o.bytesPerStep)
                throw Error(ErrorCode::Capacity, "entry #" + std::to_string(o.entry) + " output holds " + std::to_string(b.bytes) +
                                                     " bytes but a step writes " + std::to_string(o.bytesPerStep) + "; nothing was drawn");
        }
    }

    // One pass on the current side, optionally inside a PRIMITIVES_WRITTEN query. Returns the
    // first GL error the pass raised when asked (glGetError stalls WebGL, so only then).
    // GL state is restored either way: a failed pass leaves nothing bound or enabled.
    GLenum draw(GLuint query, bool collectError) {
        checkCapacity();
        // From the names, not a counter: another pipeline sharing these buffers may have swapped them.
        if (sideZeroName) side = firstStateInput() == sideZeroName ? 0 : 1;
        glUseProgram(program->program);
        lastCalls = 9 + (query ? 2 : 0) + program->flushUniforms();
        glBindVertexArray(vao[std::size_t(side)]);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf[std::size_t(side)]);
        glEnable(GL_RASTERIZER_DISCARD);
        if (query) glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, GLsizei(plan.count));
        glEndTransformFeedback();
        if (query) glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        glDisable(GL_RASTERIZER_DISCARD);
        // Unbound so the captured buffers can be bound anywhere else (WebGL2 forbids a buffer
        // bound for transform feedback on another target). The VAO stays bound, as in any
        // VAO-based code: whoever sets attribute pointers next binds their own VAO first.
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        if (!collectError) return GL_NO_ERROR;
        GLenum first = glGetError();
        while (glGetError() != GL_NO_ERROR) {}
        return first;
    }

    // One compute pass: reads every entry's current input and writes its current output (the
    // names swap under the handles, so these are always the side draw() would use).
    GLenum dispatch(bool collectError) {
        checkCapacity();
        lastCalls = compute->dispatch(*program, inputs, outputs);
        if (!collectError) return GL_NO_ERROR;
        GLenum first = glGetError();
        while (glGetError() != GL_NO_ERROR) {}
        return first;
    }

    // The GL size of each output buffer, which foreign code may have changed behind our back.
    std::optional<std::string> shrunkOutput() const {
        for (const auto& o : plan.outputs) {
            GLint64 size = 0;
            glBindBuffer(GL_COPY_WRITE_BUFFER, outputs[std::size_t(o.entry)]->name);
            glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
            glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
            if (std::uint64_t(size) < o.bytesPerStep)
                return "entry #" + std::to_string(o.entry) + "'s output holds " + std::to_string(size) + " bytes, a step writes " +
                       std::to_string(o.bytesPerStep);
        }
        return std::nullopt;
    }

    GLenum pass(GLuint query, bool collectError) {
        return choice.backend == Backend::Compute ? dispatch(collectError) : draw(query, collectError);
    }

    // Wall time of `n` passes that are not swapped (the state does not advance), fence-synchronised.
    double timePasses(Backend b, int n) {
        Backend saved = choice.backend;
        choice.backend = b;
        auto finish = [] {
            GLsync f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
            while (glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED) {}
            glDeleteSync(f);
        };
        pass(0, false); // warm-up: first use compiles lazily in some drivers
        finish();
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) pass(0, false);
        finish();
        choice.backend = saved;
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / n;
    }

    void ensureCompute(int groupSize) {
        if (!compute) compute = ComputePass::build(*program, plan, inputs.size(), device->caps, groupSize);
    }

    void select(Backend wanted, int groupSize) {
        if (wanted == Backend::TransformFeedback) {
            choice = {Backend::TransformFeedback, "requested", 0, 0};
            return;
        }
        if (wanted == Backend::Compute) {
            ensureCompute(groupSize);
            choice = {Backend::Compute, "requested", 0, 0};
            return;
        }
        std::string key = program->desc.source + "|" + std::string(captureModeName(program->capture.mode)) + "|" + std::to_string(plan.count);
        if (auto it = device->autoDecisions.find(key); it != device->autoDecisions.end()) {
            if (Backend(it->second.first) == Backend::Compute) ensureCompute(groupSize);
            choice = {Backend(it->second.first), "auto, decided earlier on this context: " + it->second.second, 0, 0};
            return;
        }
        try {
            ensureCompute(groupSize);
        } catch (const Error& e) {
            choice = {Backend::TransformFeedback, "auto: compute is not available (" + std::string(e.what()) + ")", 0, 0};
            device->autoDecisions[key] = {int(choice.backend), choice.reason};
            return;
        }
        constexpr int kTrials = 5;
        double tf = timePasses(Backend::TransformFeedback, kTrials), cs = timePasses(Backend::Compute, kTrials);
        Backend best = cs < tf ? Backend::Compute : Backend::TransformFeedback;
        char reason[256];
        std::snprintf(reason, sizeof reason, "auto: %s was faster, transform feedback %.3f ms vs compute %.3f ms per pass (%d trial passes each, %lld elements, %s)",
                      best == Backend::Compute ? "compute" : "transform feedback", tf, cs, kTrials, (long long)plan.count, device->caps.renderer.c_str());
        choice = {best, reason, tf, cs};
        device->autoDecisions[key] = {int(best), reason};
    }

    GLuint firstStateInput() const {
        for (std::size_t e = 0; e < inputs.size(); ++e)
            if (isState(e)) return inputs[e]->name;
        return 0;
    }

    void swap() {
        for (std::size_t e = 0; e < inputs.size(); ++e)
            if (isState(e)) std::swap(inputs[e]->name, outputs[e]->name);
        side ^= 1;
        ++steps;
    }
};

void recreatePipeline(PipelineState& p) {
    // Old names died with the context; pending queries and checked steps are dropped.
    p.vao = {};
    p.tf = {};
    p.checkQuery = 0;
    p.freeQueries.clear();
    p.pending.clear();
    p.checking.reset();
    p.side = 0; // side 0 is rebuilt from the buffers' current names
    p.sideZeroName = 0;
    Backend backend = p.choice.backend;
    if (p.compute) p.compute->program = 0;
    p.compute.reset();
    p.build();
    if (backend == Backend::Compute) p.ensureCompute(p.options.workGroupSize);
}

} // namespace detail

Pipeline::Pipeline(const Device& device, const Program& program, std::vector<Entry> entries, PipelineOptions options) {
    auto s = std::make_unique<detail::PipelineState>();
    s->program = program.state();
    if (!s->program) throw Error(ErrorCode::Disposed, "the Program was moved from");
    std::vector<EntryDesc> descs;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        EntryDesc d;
        auto take = [&](const Buffer* b, const char* role) -> std::shared_ptr<detail::BufferState> {
            if (!b) return nullptr;
            auto st = b->state();
            if (!st) throw Error(ErrorCode::Disposed, "entry #" + std::to_string(i) + " " + role + " is a moved-from Buffer");
            return st;
        };
        s->inputs.push_back(take(entries[i].input, "input"));
        s->outputs.push_back(take(entries[i].output, "output"));
        if (s->inputs.back()) d.input = BufferDesc{s->inputs.back()->format, s->inputs.back()->bytes};
        if (s->outputs.back()) d.output = BufferDesc{s->outputs.back()->format, s->outputs.back()->bytes};
        if (s->inputs.back() && s->inputs.back() == s->outputs.back())
            throw Error(ErrorCode::InvalidArgument, "entry #" + std::to_string(i) + " uses the same Buffer as input and output; "
                                                    "a state pair needs two buffers of the same format and size");
        descs.push_back(std::move(d));
    }
    s->plan = planPass(s->program->attributes, s->program->capture, descs, options.count);
    s->options = options;
    s->device = device.state();
    s->device->requireContext("creating a Pipeline");
    s->device->pipelines.push_back(s.get());
    s->build();
    s->select(options.backend, options.workGroupSize);
    state_ = std::move(s);
}

Pipeline::Pipeline(Pipeline&&) noexcept = default;
Pipeline& Pipeline::operator=(Pipeline&&) noexcept = default;
Pipeline::~Pipeline() = default;

static detail::PipelineState& live(const std::unique_ptr<detail::PipelineState>& s) {
    if (!s) throw Error(ErrorCode::Disposed, "this Pipeline was moved from; use the Pipeline it was moved into");
    return *s;
}

void Pipeline::step() {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::step");
    s.refuseWhileChecking("step()");
    GLuint query = 0;
    if (s.options.queries && s.choice.backend == Backend::TransformFeedback) {
        if (s.freeQueries.empty()) glGenQueries(1, &query); // grows only until results come back
        else {
            query = s.freeQueries.back();
            s.freeQueries.pop_back();
        }
        s.pending.push_back({query, s.steps});
    }
#ifdef XFB_GL_CHECK_EVERY_CALL
    constexpr bool checkErrors = true;
#else
    constexpr bool checkErrors = false;
#endif
    if (GLenum err = s.pass(query, checkErrors); err != GL_NO_ERROR)
        throw Error(ErrorCode::GlError, "step " + std::to_string(s.steps) + ": the " + std::string(backendName(s.choice.backend)) + " pass raised " + gl::errorName(err) +
                                            "; the step was not swapped, the state buffers hold the previous state");
    s.swap();
}

void Pipeline::beginCheckedStep() {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::beginCheckedStep");
    s.refuseWhileChecking("beginCheckedStep");
    detail::PipelineState::CheckedStep c;
    if (s.choice.backend == Backend::Compute) {
        // A dispatch has no PRIMITIVES_WRITTEN; it writes every element unless a buffer is too small.
        if (auto shrunk = s.shrunkOutput()) c.why = " (" + *shrunk + "; nothing was dispatched)", c.written = 0;
        else c.error = s.dispatch(true), c.written = GLuint(s.plan.count);
    } else {
        c.error = s.draw(s.checkQuery, true);
    }
    s.checking = c;
}

std::optional<StepReport> Pipeline::pollCheckedStep() {
    auto& s = live(state_);
    if (!s.checking) throw Error(ErrorCode::InvalidArgument, "no checked step is pending; call beginCheckedStep() first");
    if (!s.checking->written) {
        GLuint available = 0;
        glGetQueryObjectuiv(s.checkQuery, GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) return std::nullopt;
        GLuint written = 0;
        glGetQueryObjectuiv(s.checkQuery, GL_QUERY_RESULT, &written);
        s.checking->written = written;
    }
    auto c = *s.checking;
    s.checking.reset();
    StepReport r{s.steps, std::int64_t(*c.written), s.plan.count};
    if (c.error != GL_NO_ERROR || !r.ok())
        throw Error(ErrorCode::ShortWrite, "step " + std::to_string(r.step) + " wrote " + std::to_string(r.written) + " of " +
                                               std::to_string(r.expected) + " records" +
                                               (c.error != GL_NO_ERROR ? std::string(" (the pass raised ") + gl::errorName(c.error) + ")" : c.why) +
                                               "; the step was not swapped, so the state buffers still hold the previous state. "
                                               "Check that no other code resized the output buffers");
    s.swap();
    return r;
}

StepReport Pipeline::stepChecked() {
#ifdef __EMSCRIPTEN__
    throw Error(ErrorCode::Unsupported, "WebGL cannot wait for a query: use beginCheckedStep() and pollCheckedStep() across frames");
#else
    auto& s = live(state_);
    beginCheckedStep();
    if (!s.checking->written) {
        GLuint written = 0;
        glGetQueryObjectuiv(s.checkQuery, GL_QUERY_RESULT, &written); // blocks until the GPU is done
        s.checking->written = written;
    }
    return *pollCheckedStep();
#endif
}

int Pipeline::pollQueries(const std::function<void(const StepReport&)>& onResult) {
    auto& s = live(state_);
    int delivered = 0;
    while (!s.pending.empty()) {
        auto [query, step] = s.pending.front();
        GLuint available = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) break;
        GLuint written = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
        s.pending.pop_front();
        s.freeQueries.push_back(query);
        onResult(StepReport{step, std::int64_t(written), s.plan.count});
        ++delivered;
    }
    return delivered;
}

void Pipeline::setBackend(Backend backend) {
    auto& s = live(state_);
    s.refuseWhileChecking("setBackend()");
    s.select(backend, s.options.workGroupSize);
}

const BackendChoice& Pipeline::backend() const { return live(state_).choice; }
std::string Pipeline::computeSource() const {
    auto& s = live(state_);
    return s.compute ? s.compute->shader.source : std::string();
}

std::string_view backendName(Backend b) {
    switch (b) {
    case Backend::TransformFeedback: return "tf";
    case Backend::Compute: return "compute";
    case Backend::Auto: return "auto";
    }
    return "?";
}

const PassPlan& Pipeline::plan() const { return live(state_).plan; }
std::int64_t Pipeline::count() const { return live(state_).plan.count; }
std::uint64_t Pipeline::stepsTaken() const { return live(state_).steps; }
int Pipeline::lastStepGlCalls() const { return live(state_).lastCalls; }

} // namespace xfb
