// Backend::Auto and backend switching: the compute pass is built on first use; Auto times
// trial passes of both backends (not swapped: the state does not advance) once per context and
// simulation shape, and keeps the faster with the figures as its reason.
#include "pipeline/pipeline_state.hpp"
#include "gl/readback.hpp"

#include <chrono>
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif
#include <cmath>
#include <string>

namespace xfb::detail {

namespace {
// A monotonic clock in milliseconds. In WebAssembly performance.now() itself: libc++'s
// steady_clock::now() may throw std::system_error, whose message() brings printf and the locale
// tables into the module (about 8 KB raw).
double nowMs() {
#ifdef __EMSCRIPTEN__
    return emscripten_get_now();
#else
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

// "12.345": milliseconds with three decimals, without printf (see nowMs()).
std::string milliseconds(double ms) {
    long long us = std::llround(ms * 1000);
    std::string frac = std::to_string(us % 1000);
    return std::to_string(us / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}
} // namespace

// Wall time of `n` passes that are not swapped (the state does not advance), fence-synchronised.
double PipelineState::timePasses(Backend b, int n) {
    Backend saved = choice.backend;
    choice.backend = b;
    pass(0, false); // warm-up: first use compiles lazily in some drivers
    gl::finishWithFence();
    double t0 = nowMs();
    for (int i = 0; i < n; ++i) pass(0, false);
    gl::finishWithFence();
    choice.backend = saved;
    return (nowMs() - t0) / n;
}

void PipelineState::ensureCompute(int groupSize) {
    if (!compute) compute = ComputePass::build(*program, plan, inputs.size(), device->caps, groupSize, emits);
}

void PipelineState::select(Backend wanted, int groupSize) {
    if (!emits.empty()) {
        // A vertex shader writes one record per vertex: emitted outputs exist only in compute.
        if (wanted == Backend::TransformFeedback)
            throw Error(ErrorCode::Unsupported,
                        "emitted outputs (a variable number of records per element) need the compute backend: "
                        "use Backend::Compute or Auto (GL 4.3 / ES 3.1)");
        wanted = Backend::Compute;
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
    if (!refusal.empty()) {
        try {
            ensureCompute(groupSize);
        } catch (const Error& e) {
            throw Error(ErrorCode::Unsupported, refusal + "; and compute is not available: " + e.message());
        }
        choice = {Backend::Compute, "auto: transform feedback cannot write this layout here (" + refusal + ")", 0, 0};
        return;
    }
    // The shape: the source, the element count and the captured layout (a declaration changes it).
    std::string key = program->desc.source + "|" + std::string(captureModeName(program->capture.mode)) + "|" +
                      std::to_string(plan.count);
    for (const auto& b : program->capture.buffers) {
        key += "|" + std::to_string(b.stride);
        for (const auto& f : b.fields)
            key += ":" + f.varying + "@" + std::to_string(f.offset) + "+" + std::to_string(f.firstComponent) + "/" +
                   std::to_string(f.components);
    }
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
    std::string reason = std::string("auto: ") + (best == Backend::Compute ? "compute" : "transform feedback") +
                         " was faster, transform feedback " + milliseconds(tf) + " ms vs compute " + milliseconds(cs) +
                         " ms per pass (" + std::to_string(kTrials) + " trial passes each, " +
                         std::to_string(plan.count) + " elements, " + device->caps.renderer + ")";
    choice = {best, reason, tf, cs};
    device->autoDecisions[key] = {int(best), reason};
}

} // namespace xfb::detail
