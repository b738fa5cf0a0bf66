// The npm package's replayed step (xfb/detail/step_replay.hpp): a pipeline's steady step as GL
// names, and what the package tells the engine after replaying it.
#include "xfb/detail/step_replay.hpp"

#include "gl/access.hpp"
#include "pipeline/pipeline_state.hpp"

namespace xfb::detail {

StepRecipe stepRecipe(const Pipeline& pipeline) {
    auto& s = StepReplay::state(pipeline);
    StepRecipe r;
    auto shared = [&] {
        for (const auto* list : {&s.inputs, &s.outputs})
            for (const auto& b : *list)
                if (b && b->pipelines > 1) return true;
        return false;
    };
    if (!s.device->lost) s.decide(); // a pending Auto's trial passes, before the first step
    if (s.device->lost)
        r.refusal = "the context is lost";
    else if (s.choice.backend != Backend::TransformFeedback)
        r.refusal = s.choice.backend == Backend::Fragment ? "the fragment backend" : "the compute backend";
    else if (s.options.queries)
        r.refusal = "queries: a PRIMITIVES_WRITTEN query per step";
    else if (s.options.rasterize)
        r.refusal = "rasterize: the pass keeps the rasterizer on";
    else if (!s.emits.empty())
        r.refusal = "emitted outputs";
    else if (s.checking)
        r.refusal = "a checked step is pending";
    else if (shared())
        r.refusal = "a buffer is shared with another pipeline";
    else if (s.packer)
        r.refusal = "a declared layout packed after the pass (ES 3.0 / WebGL2: gl/layout_packer.hpp)";
    if (!r.refusal.empty()) return r;
    // The package's replayed steps write both buffers of each state pair, unseen by the mirrors.
    settleForWork(s.inputs, s.outputs);
    for (std::size_t e = 0; e < s.inputs.size(); ++e)
        if (s.isState(e)) s.inputs[e]->written();
    r.program = s.program->program;
    for (int i = 0; i < 2; ++i)
        r.vertexArrays[i] = s.vao[std::size_t(i)], r.transformFeedbacks[i] = s.tf[std::size_t(i)];
    r.side = s.currentSide();
    r.count = s.plan.count;
    for (const auto& [name, u] : s.program->uniforms)
        if (u.location >= 0 && name != kSubstepUniform)
            r.uniforms.push_back({name, u.location, u.type, u.kind, u.components, u.arraySize});
    return r;
}

void stepsReplayed(Pipeline& pipeline, std::uint64_t steps, int lastCalls) {
    auto& s = StepReplay::state(pipeline);
    // What no replay can have made: swapping for it would lose the state.
    if (s.choice.backend != Backend::TransformFeedback)
        throw Error(ErrorCode::InvalidArgument, std::string("stepsReplayed: this pipeline runs the ") +
                                                    (s.choice.backend == Backend::Fragment ? "fragment" : "compute") +
                                                    " backend, which stepRecipe() refuses; step it with step()");
    if (lastCalls < 0)
        throw Error(ErrorCode::InvalidArgument, "stepsReplayed: lastCalls " + std::to_string(lastCalls) +
                                                    " is negative; pass the GL calls the last replayed step made");
    s.swap(steps);
    s.lastCalls = lastCalls;
}

void uniformUploaded(Program& program, std::string_view name) {
    auto& s = liveState(Access::state(program), "Program");
    auto it = s.uniforms.find(name);
    if (it == s.uniforms.end())
        throw Error(ErrorCode::UnknownUniform,
                    "program '" + s.desc.label + "' declares no uniform '" + std::string(name) + "'");
    s.mirror.markApplied(name, it->second.version);
}

} // namespace xfb::detail
