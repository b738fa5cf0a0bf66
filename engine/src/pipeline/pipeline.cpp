#include "gl/draw_mode.hpp"
#include "gl/access.hpp"
#include "gl/entries.hpp"
#include "pipeline/pipeline_state.hpp"
#include "gl/state_guard.hpp"
#include "plan/text.hpp"
#include "xfb/limits.hpp"

namespace xfb {

using detail::kBuildState;

namespace detail {

void PipelineState::forget() {
    for (auto& v : vao) v.forget();
    for (auto& t : tf) t.forget();
    checkQuery.forget();
    for (auto& q : freeQueries) q.forget();
    for (auto& q : pending) q.query.forget();
}

void PipelineState::restore() {
    // Pending queries and checked steps are dropped; side 0 is rebuilt from the buffers' current names.
    freeQueries.clear();
    pending.clear();
    checking.reset();
    side = 0;
    compute.reset();  // forgotten already: deletes nothing
    fragment.reset(); // likewise
    fused.clear();    // rebuilt on demand
    build();
    if (choice.backend == Backend::Compute) ensureCompute(options.workGroupSize);
    if (choice.backend == Backend::Fragment) ensureFragment();
}

} // namespace detail

Pipeline::Pipeline(const Device& device, const Program& program, std::vector<Entry> entries, PipelineOptions options) {
    auto s = std::make_unique<detail::PipelineState>();
    s->program = detail::Access::state(program);
    if (!s->program) throw Error(ErrorCode::Disposed, "the Program was moved from");
    if (detail::kNativeGL && s->program->geometry)
        throw Error(ErrorCode::Unsupported,
                    "program '" + s->program->desc.label +
                        "' has a geometry shader: a Pipeline steps one record per element and swaps its state, "
                        "while a geometry shader writes a count known only on the GPU. Capture it with a "
                        "PrimitiveCapture (per stream, with statistics)");
    if (options.rasterize && s->program->desc.fragment.empty())
        throw Error(ErrorCode::InvalidArgument,
                    plan::cat({"rasterize: program '", s->program->desc.label,
                               "' has no fragment shader to draw with; give it one (ProgramDesc::fragment, "
                               "createProgram({ fragment }))"}));
    auto resolved = detail::resolveEntries(entries);
    s->inputs = std::move(resolved.inputs);
    s->outputs = std::move(resolved.outputs);
    for (const auto* list : {&s->inputs, &s->outputs})
        for (const auto& b : *list)
            if (b) ++b->pipelines;
    const auto& descs = resolved.descs;
    s->plan = planPass(s->program->attributes, s->program->capture, descs, options.count, OutputSizing::PerElement,
                       options.emits.size());
    s->emits =
        planEmits(s->program->shader, s->program->capture, options.emits, descs, s->plan.emitEntries, s->plan.count);
    s->options = options;
    s->device = detail::Access::state(device);
    s->device->requireContext("creating a Pipeline");
    s->enroll(s->device);
    gl::StateGuard guard(*s->device, kBuildState | gl::TakeForeignErrors);
    detail::requireLiveBuffers(s->inputs, "creating a Pipeline (an input)");
    detail::requireLiveBuffers(s->outputs, "creating a Pipeline (an output)");
    s->build();
    s->select(options.backend, options.workGroupSize);
    state_ = std::move(s);
}

Pipeline::Pipeline(Pipeline&&) noexcept = default;
Pipeline& Pipeline::operator=(Pipeline&&) noexcept = default;
Pipeline::~Pipeline() = default;

static detail::PipelineState& live(const std::unique_ptr<detail::PipelineState>& s) {
    return detail::liveState(s, "Pipeline");
}

// One pass (ordinary, or `fused` substeps in one) and its swap.
// `drawn`: false for the substeps of step(k) before the last, which do not rasterize.
static void stepOnce(detail::PipelineState& s, detail::PipelineState::FusedPass* fused, bool drawn = true) {
    GLuint query = 0;
    if (s.options.queries && s.choice.backend == Backend::TransformFeedback) {
        gl::QueryName q;
        if (s.freeQueries.empty())
            q = gl::QueryName::create(); // grows only until results come back
        else {
            q = std::move(s.freeQueries.back());
            s.freeQueries.pop_back();
        }
        query = q;
        s.pending.push_back({std::move(q), s.steps});
    }
#ifdef XFB_GL_CHECK_EVERY_CALL
    constexpr bool checkErrors = true;
#else
    constexpr bool checkErrors = false;
#endif
    // A staged layout's packing passes copy (glCopyBufferSubData) and bind the generic feedback
    // binding too; the fragment backend renders into its framebuffers and copies pixels.
    const auto touched = s.passState(fused);
    gl::StateGuard guard(*s.device, touched.bits | (checkErrors ? gl::TakeForeignErrors : 0u), touched.firstUnit,
                         touched.units);
    if (GLenum err = s.pass(query, checkErrors, fused, drawn); err != GL_NO_ERROR)
        throw Error(ErrorCode::GlError, "step " + std::to_string(s.steps) + ": the " +
                                            std::string(backendName(s.choice.backend)) + " pass raised " +
                                            gl::errorName(err) +
                                            "; the step was not swapped, the state buffers hold the previous state");
    s.swap();
    if (fused) s.steps += std::uint64_t(fused->substeps - 1);
}

void Pipeline::step(int substeps) {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::step");
    s.refuseWhileChecking("step()");
    if (substeps < 1 || substeps > limits::maxSubsteps)
        throw Error(ErrorCode::InvalidArgument, "step(" + std::to_string(substeps) +
                                                    "): the number of substeps must be 1.." +
                                                    std::to_string(limits::maxSubsteps) +
                                                    " (limits::maxSubsteps); call step() more often for more");
    s.decide();
    if (substeps > 1 && s.fusion().fused) return stepOnce(s, &s.fusedPass(substeps));
    for (int i = 0; i < substeps; ++i) {
        s.setSubstep(i);
        stepOnce(s, nullptr, i + 1 == substeps); // PipelineOptions::rasterize: only the last of the k passes draws
    }
}

const FusionDecision& Pipeline::fusion() const { return live(state_).fusion(); }

void Pipeline::beginCheckedStep() {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::beginCheckedStep");
    s.refuseWhileChecking("beginCheckedStep");
    if (s.autoPending) { // a pending Auto's trial passes (with an output shrunk, no pass runs at all)
        std::optional<std::string> shrunk;
        {
            gl::StateGuard sizes(*s.device, kBuildState); // shrunkOutput() binds each output to read its size
            shrunk = s.shrunkOutput();
        }
        if (!shrunk) s.decide();
    }
    const auto touched = s.passState();
    gl::StateGuard guard(*s.device, kBuildState | touched.bits | gl::TakeForeignErrors, touched.firstUnit,
                         touched.units);
    detail::requireLiveBuffers(s.inputs, "Pipeline::beginCheckedStep (an input)");
    detail::requireLiveBuffers(s.outputs, "Pipeline::beginCheckedStep (an output)");
    detail::PipelineState::CheckedStep c;
    // An output that other code re-specified smaller is refused before the pass, on both backends:
    // nothing is written into it (a transform-feedback pass would fill what fits).
    if (auto shrunk = s.shrunkOutput()) {
        c.why = " (" + *shrunk + "; nothing was " +
                (s.choice.backend == Backend::Compute    ? "dispatched"
                 : s.choice.backend == Backend::Fragment ? "rendered"
                                                         : "drawn") +
                ")";
        c.written = 0;
    } else if (s.choice.backend == Backend::Fragment) {
        // Every texel of every output is rendered and copied: there is no PRIMITIVES_WRITTEN, and
        // a copy into a buffer too small raises an error, which makes the step short.
        c.error = s.render(true), c.written = GLuint(s.plan.count);
        if (!s.emits.empty() && s.options.overflow == EmitOverflow::Error && c.error == GL_NO_ERROR)
            for (const auto& r : s.readEmitted())
                if (r.overflowed() && !c.overflow) c.overflow = r; // the first, as WebGPU names it
    } else if (s.choice.backend == Backend::Compute) {
        // A dispatch has no PRIMITIVES_WRITTEN; it writes every element.
        c.error = s.dispatch(true), c.written = GLuint(s.plan.count);
        if (!s.emits.empty() && s.options.overflow == EmitOverflow::Error && c.error == GL_NO_ERROR)
            for (const auto& r : s.readEmitted())
                if (r.overflowed() && !c.overflow) c.overflow = r; // the first, as WebGPU names it
    } else {
        c.error = s.draw(s.checkQuery, true);
    }
    s.checking = c;
}

std::optional<StepReport> Pipeline::pollCheckedStep() {
    auto& s = live(state_);
    if (!s.checking)
        throw Error(ErrorCode::InvalidArgument, "no checked step is pending; call beginCheckedStep() first");
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
    if (c.overflow)
        throw Error(ErrorCode::Capacity,
                    "step " + std::to_string(r.step) + ": the elements emitted " +
                        std::to_string(c.overflow->requested) + " records for budget '" + c.overflow->budget +
                        "' but its buffers hold " + std::to_string(c.overflow->capacity) +
                        "; the step was not swapped, so the state buffers still hold the previous state. "
                        "Allocate larger output buffers or choose EmitOverflow::Clamp");
    if (c.error != GL_NO_ERROR || !r.ok())
        throw Error(
            ErrorCode::ShortWrite,
            "step " + std::to_string(r.step) + " wrote " + std::to_string(r.written) + " of " +
                std::to_string(r.expected) + " records" +
                (c.error != GL_NO_ERROR ? std::string(" (the pass raised ") + gl::errorName(c.error) + ")" : c.why) +
                "; the step was not swapped, so the state buffers still hold the previous state. "
                "Check that no other code resized the output buffers");
    s.swap();
    return r;
}

StepReport Pipeline::stepChecked() {
#ifdef __EMSCRIPTEN__
    throw Error(ErrorCode::Unsupported,
                "WebGL cannot wait for a query: use beginCheckedStep() and pollCheckedStep() across frames");
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
        GLuint query = s.pending.front().query;
        std::uint64_t step = s.pending.front().step;
        GLuint available = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available) break;
        GLuint written = 0;
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
        s.freeQueries.push_back(std::move(s.pending.front().query));
        s.pending.pop_front();
        onResult(StepReport{step, std::int64_t(written), s.plan.count});
        ++delivered;
    }
    return delivered;
}

void Pipeline::setBackend(Backend backend) {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::setBackend");
    s.refuseWhileChecking("setBackend()");
    gl::StateGuard guard(*s.device, kBuildState | gl::TakeForeignErrors);
    s.select(backend, s.options.workGroupSize);
}

const BackendChoice& Pipeline::backend() const { return live(state_).choice; }
std::string Pipeline::computeSource() const {
    auto& s = live(state_);
    return s.compute ? s.compute->shader.source : std::string();
}

std::string_view backendName(Backend b) { return enumName(backendNames, b); }

std::vector<EmitReport> Pipeline::emitted() const {
    auto& s = live(state_);
    s.device->requireContext("Pipeline::emitted");
    gl::StateGuard guard(*s.device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    return s.readEmitted();
}

unsigned Pipeline::emitTotalsBuffer() const {
    auto& s = live(state_);
    return s.computeTotals("Pipeline::emitTotalsBuffer");
}

const PassPlan& Pipeline::plan() const { return live(state_).plan; }
std::int64_t Pipeline::count() const { return live(state_).plan.count; }
std::uint64_t Pipeline::stepsTaken() const { return live(state_).steps; }
int Pipeline::lastStepGlCalls() const { return live(state_).lastCalls; }

} // namespace xfb
