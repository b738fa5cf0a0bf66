// Backend::Auto and backend switching: the compute and fragment passes are built on first use;
// Auto builds every backend the context has when it is selected (a refusal comes at once) and
// times trial passes of each at the first step (not swapped: the state does not advance; they
// write the outputs the step then writes, so nothing is written before a step asks), once per
// context and simulation shape, and keeps the fastest with the figures as its reason.
#include "pipeline/pipeline_state.hpp"
#include "gl/readback.hpp"
#include "gl/state_guard.hpp"
#include "plan/text.hpp"

#include <string>

namespace xfb::detail {

namespace {
const char* trialName(Backend b) {
    return b == Backend::TransformFeedback ? "transform feedback" : b == Backend::Compute ? "compute" : "fragment";
}
} // namespace

// Milliseconds per pass of backend `b`: wall time of passes that are not swapped (the state does
// not advance), fence-synchronised, after a warm-up pass. One pass is timed first; a backend over
// twice `bestMs` (the fastest so far, 0 for none) stops there, since no trials could make it the
// fastest, and the others take up to `n` passes within about kTrialBudgetMs. The first step of a
// large pipeline pays for these: 6 passes of each backend took 1.4 s at 1e6 elements on SwiftShader.
PipelineState::Trial PipelineState::timePasses(Backend b, int n, double bestMs) {
    constexpr double kTrialBudgetMs = 60;
    Backend saved = choice.backend;
    choice.backend = b;
    const auto touched = passState(); // the caller's guard has what a transform-feedback pass touches
    gl::StateGuard guard(*device, touched.bits, touched.firstUnit, touched.units);
    // Waits for the GPU: a fence natively; on WebGL, whose clientWaitSync cannot wait (its
    // timeout limit is 0 in Chrome: INVALID_OPERATION), 4 bytes of an output read back, which the
    // browser gives only once the passes that write them are done (the fragment backend's output
    // is written back first: its passes write its planes).
    auto finish = [&] {
#ifdef __EMSCRIPTEN__
        if (plan.outputs.empty()) return;
        BufferState& out = *outputs[std::size_t(plan.outputs.front().entry)];
        out.settle(0, 1);
        (void)gl::readBytes(out.name, 0, 4);
#else
        gl::finishWithFence();
#endif
    };
    pass(0, false); // warm-up: first use compiles lazily in some drivers
    finish();
    double t0 = gl::nowMs();
    pass(0, false);
    finish();
    const double first = gl::nowMs() - t0;
    int more = first > 0 ? int(std::min<double>(n - 1, std::floor(kTrialBudgetMs / first))) : n - 1;
    if (bestMs > 0 && first > 2 * bestMs) more = 0;
    double total = first;
    if (more > 0) {
        t0 = gl::nowMs();
        for (int i = 0; i < more; ++i) pass(0, false);
        finish();
        total += gl::nowMs() - t0;
    }
    choice.backend = saved;
    return {total / (1 + more), 1 + more};
}

void PipelineState::ensureCompute(int groupSize) {
    if (!compute) compute = ComputePass::build(*program, plan, inputs.size(), device->caps, groupSize, emits);
}

void PipelineState::ensureFragment() {
    if (!fragment) fragment = FragmentBackend::build(*program, plan, inputs.size(), 1, nullptr, &emits);
}

// The shape of a decision (Device::autoDecisions): the source, the element count, the captured
// layout (a declaration changes it) and the emitted budgets' capacities (the gathers' cost).
std::string PipelineState::shapeKey() const {
    std::string key = program->desc.source + "|" + std::string(captureModeName(program->capture.mode)) + "|" +
                      std::to_string(plan.count);
    for (const auto& b : program->capture.buffers) {
        key += "|" + std::to_string(b.stride);
        for (const auto& f : b.fields)
            key += ":" + f.varying + "@" + std::to_string(f.offset) + "+" + std::to_string(f.firstComponent) + "/" +
                   std::to_string(f.components);
    }
    for (const auto& b : emits.budgets) key += "|emit " + b.count + " " + std::to_string(b.capacity);
    return key;
}

// Auto for a pipeline with emitted outputs: compute and the fragment backend, timed at the first
// step where the context has both; transform feedback cannot write them.
bool PipelineState::reuseDecision(const std::string& key, int groupSize) {
    const auto it = device->autoDecisions.find(key);
    if (it == device->autoDecisions.end()) return false;
    const Backend decided = Backend(it->second.first);
    if (decided == Backend::Compute) ensureCompute(groupSize);
    if (decided == Backend::Fragment) ensureFragment();
    choice = {decided, "auto, decided earlier on this context: " + it->second.second, 0, 0};
    return true;
}

void PipelineState::selectEmitting(int groupSize) {
    constexpr const char* noFeedback =
        "; transform feedback cannot write emitted outputs (a vertex writes one record, not a variable number)";
    const std::string key = shapeKey();
    if (reuseDecision(key, groupSize)) return;
    std::string computeMissing, fragmentMissing;
    ErrorCode code = ErrorCode::Unsupported; // a translation refusal keeps its own code
    try {
        ensureCompute(groupSize);
    } catch (const Error& e) { computeMissing = e.what(), code = e.code(); }
    try {
        ensureFragment();
    } catch (const Error& e) { fragmentMissing = e.what(); }
    if (!computeMissing.empty() && !fragmentMissing.empty())
        throw Error(code, plan::cat({"emitted outputs need the compute or the fragment backend, and compute is not "
                                     "available (",
                                     computeMissing, "), nor the fragment backend (", fragmentMissing, ")"}));
    if (!computeMissing.empty() || !fragmentMissing.empty()) {
        choice = computeMissing.empty()
                     ? BackendChoice{Backend::Compute,
                                     plan::cat({"auto: compute, the only backend here that writes the emitted outputs",
                                                noFeedback, "; the fragment backend is not available (",
                                                fragmentMissing, ")"}),
                                     0, 0}
                     : BackendChoice{Backend::Fragment,
                                     plan::cat({"auto: fragment, the only backend here that writes the emitted outputs "
                                                "(through a pyramid of counts)",
                                                noFeedback, "; compute is not available (", computeMissing, ")"}),
                                     0, 0};
        device->autoDecisions[key] = {int(choice.backend), choice.reason};
        return;
    }
    // The trial passes wait for the first step: they write the outputs, and only a step may.
    autoPending = PendingAuto{key, {Backend::Compute, Backend::Fragment}, noFeedback};
    choice = {Backend::Auto, plan::cat({"auto: the first step times compute, fragment", noFeedback}), 0, 0};
}

void PipelineState::select(Backend wanted, int groupSize) {
    autoPending.reset();
    if (!emits.empty()) {
        // A vertex shader writes one record per vertex: emitted outputs exist in compute and in the
        // fragment backend's pyramid passes. Auto times both where the context has both (which is
        // faster depends on the driver: compute's ordered emit is one pass only where started work
        // groups keep running, the pyramid's gather runs main() once per record slot), else takes
        // the one there is.
        if (wanted == Backend::TransformFeedback)
            throw Error(ErrorCode::Unsupported,
                        "emitted outputs (a variable number of records per element) need the compute or the "
                        "fragment backend: use Backend::Compute, Backend::Fragment or Auto");
        if (wanted == Backend::Auto) return selectEmitting(groupSize);
    }
    if (options.rasterize && (wanted == Backend::Compute || wanted == Backend::Fragment))
        throw Error(ErrorCode::Unsupported,
                    plan::cat({"rasterize: the ", trialName(wanted),
                               " backend has no pass that draws (only transform feedback rasterizes while it "
                               "captures); use Backend::TransformFeedback or Auto"}));
    if (wanted == Backend::Fragment) {
        ensureFragment();
        choice = {Backend::Fragment, "requested", 0, 0};
        return;
    }
    const std::string& refusal = program->feedbackRefusal;
    if (wanted == Backend::TransformFeedback) {
        if (!refusal.empty()) throw Error(ErrorCode::Unsupported, refusal);
        choice = {Backend::TransformFeedback, "requested", 0, 0};
        return;
    }
    if (wanted == Backend::Compute) {
        ensureCompute(groupSize);
        choice = {Backend::Compute, "requested", 0, 0};
        return;
    }
    // Queries exist only around a transform-feedback pass, and only it rasterizes: Auto would
    // otherwise silently drop them or draw nothing.
    if (options.queries || options.rasterize) {
        if (!refusal.empty())
            throw Error(ErrorCode::Unsupported, plan::cat({options.rasterize ? "rasterize needs" : "queries need",
                                                           " transform feedback: ", refusal}));
        choice = {Backend::TransformFeedback,
                  options.rasterize
                      ? "auto: transform feedback, the backend that rasterizes (PipelineOptions::rasterize)"
                      : "auto: transform feedback, the backend with queries (PipelineOptions::queries)",
                  0, 0};
        return;
    }
    const std::string key = shapeKey();
    if (reuseDecision(key, groupSize)) return;
    // The backends this context and shader have, each with why not.
    std::string computeMissing, fragmentMissing;
    try {
        ensureCompute(groupSize);
    } catch (const Error& e) { computeMissing = e.what(); }
    try {
        ensureFragment();
    } catch (const Error& e) { fragmentMissing = e.what(); }
    if (!refusal.empty() && !computeMissing.empty() && !fragmentMissing.empty())
        throw Error(ErrorCode::Unsupported, plan::cat({refusal, "; and compute is not available: ", computeMissing,
                                                       "; nor the fragment backend: ", fragmentMissing}));
    // The backends there are; the absent ones named with why.
    PendingAuto pending{key, {}, {}};
    auto absentBecause = [](const char* name, const std::string& why) {
        return why.empty() ? why : plan::cat({"; ", name, " is not available (", why, ")"});
    };
    if (refusal.empty())
        pending.backends.push_back(Backend::TransformFeedback);
    else
        plan::cat(pending.absent, {"; transform feedback cannot write this layout here (", refusal, ")"});
    if (computeMissing.empty()) pending.backends.push_back(Backend::Compute);
    plan::cat(pending.absent, {absentBecause("compute", computeMissing)});
    if (fragmentMissing.empty()) pending.backends.push_back(Backend::Fragment);
    plan::cat(pending.absent, {absentBecause("the fragment backend", fragmentMissing)});
    if (pending.backends.size() == 1) {
        choice = {pending.backends.front(),
                  plan::cat({"auto: ", trialName(pending.backends.front()), ", the only backend here", pending.absent}),
                  0, 0};
        device->autoDecisions[key] = {int(choice.backend), choice.reason};
        return;
    }
    // The trial passes wait for the first step: they write the outputs, and only a step may.
    std::string timed;
    for (Backend b : pending.backends) plan::cat(timed, {timed.empty() ? "" : ", ", trialName(b)});
    choice = {Backend::Auto, plan::cat({"auto: the first step times ", timed, pending.absent}), 0, 0};
    autoPending = std::move(pending);
}

void PipelineState::decide() {
    if (!autoPending) return;
    gl::StateGuard guard(*device, kBuildState | gl::TakeForeignErrors);
    const PendingAuto pending = *autoPending; // kept pending until decided: a failed trial is tried again
    for (Backend b : pending.backends) {      // built at select(), forgotten again by a context loss since
        if (b == Backend::Compute) ensureCompute(options.workGroupSize);
        if (b == Backend::Fragment) ensureFragment();
    }
    if (auto it = device->autoDecisions.find(pending.key); it != device->autoDecisions.end()) {
        // Another pipeline of this shape decided meanwhile.
        choice = {Backend(it->second.first), "auto, decided earlier on this context: " + it->second.second, 0, 0};
        autoPending.reset();
        return;
    }
    // Trial passes of each backend (not swapped: the state does not advance); the fastest is kept.
    constexpr int kTrials = 5;
    const Backend* best = nullptr;
    double ms[3] = {0, 0, 0}, bestMs = 0;
    std::string figures, passes;
    for (const Backend& b : pending.backends) {
        const Trial t = timePasses(b, kTrials, bestMs);
        ms[b == Backend::TransformFeedback ? 0 : b == Backend::Compute ? 1 : 2] = t.ms;
        plan::cat(figures, {figures.empty() ? "" : " vs ", trialName(b), " ", plan::milliseconds(t.ms), " ms"});
        plan::cat(passes, {passes.empty() ? "" : " / ", std::to_string(t.passes)});
        if (!best || t.ms < bestMs) best = &b, bestMs = t.ms;
    }
    std::string reason =
        plan::cat({"auto: ", trialName(*best), " was fastest, ", figures, " per pass (", passes,
                   " trial passes at the first step, each backend's after a warm-up pass, ", std::to_string(plan.count),
                   " elements, ", device->caps.renderer, ")", pending.absent});
    choice = {*best, reason, ms[0], ms[1], ms[2]};
    device->autoDecisions[pending.key] = {int(*best), reason};
    autoPending.reset();
}

} // namespace xfb::detail
