#pragma once
// Internal: a Pipeline's state, shared by pipeline.cpp (building, the passes, the public API)
// and backend_choice.cpp (Backend::Auto and switching).
#include "compute/compute_pass.hpp"
#include "gl/access.hpp"
#include "fragment/fragment_backend.hpp"
#include "gl/readback.hpp"
#include "gl/feedback_pass.hpp"
#include "gl/gl_check.hpp"
#include "gl/layout_packer.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "gl/vertex_array.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"
#include "xfb/pipeline.hpp"

#include <array>
#include <cstring>
#include <deque>
#include <optional>

namespace xfb {

namespace detail {

// Building, checked steps and the backend choice (which times passes): a step's state plus
// the buffer bindings used to set up vertex arrays and to read sizes and totals.
constexpr unsigned kBuildState =
    gl::kStepState | gl::CachedArrayBuffer | gl::CachedCopyBuffers | gl::CachedFeedbackBuffer;

struct PendingQuery {
    gl::QueryName query;
    std::uint64_t step;
};

struct PipelineState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    std::shared_ptr<ProgramState> program;
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // per entry; null where absent
    PassPlan plan;
    EmitPlan emits;
    PipelineOptions options;
    std::array<gl::VertexArrayName, 2> vao;
    std::array<gl::TransformFeedbackName, 2> tf;
    std::unique_ptr<LayoutPacker> packer; // a staged declared layout (ES 3.0 / WebGL2), else none
    std::vector<GLuint> packedOutputs;    // per captured buffer: the GL buffer a step packs into (sized once)
    int side = 0;                         // which ping-pong side the next step uses
    // The first state pair's input and its generation when side 0 was built: every swap, by this
    // pipeline or another sharing the buffers, bumps it, so its parity tells the side.
    const BufferState* sideKey = nullptr;
    std::uint64_t sideZeroGeneration = 0;
    std::uint64_t steps = 0;
    gl::QueryName checkQuery;
    std::vector<gl::QueryName> freeQueries;
    std::deque<PendingQuery> pending;
    BackendChoice choice;
    std::unique_ptr<ComputePass> compute;      // built the first time the compute backend is used
    std::unique_ptr<FragmentBackend> fragment; // built the first time the fragment backend is used
    struct CheckedStep {
        GLenum error = GL_NO_ERROR;
        std::optional<GLuint> written; // known at once for compute and fragment, from the query for TF
        std::string why;
        std::optional<EmitReport> overflow; // an emitted budget over its capacity (EmitOverflow::Error)
    };
    std::optional<CheckedStep> checking; // a checked step whose result has not been read
    int lastCalls = 0;                   // GL calls of the last pass (pass(), or as JS replayed it)
    bool emittedByFragment = false;      // the last emitting step ran the fragment backend: its pyramid has the totals
    // Fused substeps: the decision, made once, and a program per (backend, k) used so far.
    std::optional<FusionDecision> fusionDecision;
    struct FusedPass {
        Backend backend;
        int substeps;
        std::shared_ptr<ProgramState> tf;          // transform feedback: the generated vertex program
        std::unique_ptr<ComputePass> compute;      // compute: the generated kernel
        std::unique_ptr<FragmentBackend> fragment; // fragment: the generated passes
    };
    std::vector<FusedPass> fused;

    const FusionDecision& fusion() {
        if (!fusionDecision && !options.fuseSubsteps)
            fusionDecision = FusionDecision{false, "PipelineOptions::fuseSubsteps is off"};
        if (!fusionDecision && options.rasterize)
            fusionDecision =
                FusionDecision{false, "PipelineOptions::rasterize is on: step(k) runs k passes, the last one draws"};
        if (!fusionDecision)
            fusionDecision =
                checkFusion(program->desc.source, program->desc.read, plan, program->capture, !emits.empty());
        return *fusionDecision;
    }
    FusedPass& fusedPass(int substeps) {
        for (auto& f : fused)
            if (f.backend == choice.backend && f.substeps == substeps) return f;
        FusedPass f{choice.backend, substeps, nullptr, nullptr, nullptr};
        if (f.backend == Backend::Compute) {
            f.compute = ComputePass::build(*program, plan, inputs.size(), device->caps, compute->workGroupSize, emits,
                                           substeps);
        } else if (f.backend == Backend::Fragment) {
            f.fragment = FragmentBackend::build(*program, plan, inputs.size(), substeps, fragment.get());
        } else {
            f.tf = std::make_shared<ProgramState>();
            f.tf->device = device;
            f.tf->desc = program->desc;
            f.tf->desc.source =
                fuseVertexShader(program->desc.source, program->desc.read, plan, program->capture, substeps);
            f.tf->desc.read.defines.clear(); // already expanded into the generated source
            f.tf->desc.label += " (" + std::to_string(substeps) + " fused substeps)";
            f.tf->shader = program->shader;
            f.tf->attributes = program->attributes;
            f.tf->capture = program->capture;
            f.tf->link();
            f.tf->enroll(device);
        }
        fused.push_back(std::move(f));
        return fused.back();
    }
    // The built-in `uniform int xfb_substep`, when declared: set only when it changes.
    void setSubstep(int index) {
        auto it = program->uniforms.find(kSubstepUniform);
        if (it == program->uniforms.end() || it->second.kind != ScalarKind::Int) return;
        setUniformValue(it->second, program->versions, std::as_bytes(std::span<const int>(&index, 1)));
    }

    void refuseWhileChecking(const char* what) const {
        if (checking)
            throw Error(ErrorCode::InvalidArgument,
                        std::string(what) +
                            " while a checked step is pending; poll it (pollCheckedStep) until it returns first");
    }

    // Context loss (gl/recoverable.hpp): the compute passes and fused programs forget their own names.
    void forget() override;
    void restore() override;

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
        // A declared layout this context cannot capture directly: staged, then packed (ES 3.0 / WebGL2).
        packer.reset();
        if (program->staged) packer = std::make_unique<LayoutPacker>(program->capture, plan.count, device);
        packedOutputs.assign(packer ? plan.outputs.size() : 0, 0);
        sideKey = nullptr;
        for (std::size_t e = 0; e < inputs.size() && !sideKey; ++e)
            if (isState(e)) sideKey = inputs[e].get(), sideZeroGeneration = inputs[e]->generation;
        for (auto& v : vao) v = gl::VertexArrayName::create();
        for (auto& t : tf) t = gl::TransformFeedbackName::create();
        checkQuery = gl::QueryName::create();
        for (int s = 0; s < 2; ++s) {
            XFB_GL(glBindVertexArray(vao[std::size_t(s)]));
            gl::setAttributePointers(plan.attributes, [&](int e) { return sideReadName(std::size_t(e), s); });
            XFB_GL(glBindVertexArray(0));
            XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf[std::size_t(s)]));
            for (const auto& o : plan.outputs)
                XFB_GL(glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(o.binding),
                                        sideWriteName(std::size_t(o.entry), s)));
            XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        }
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // glBindBufferBase also set the generic binding
        gl::check("building the pipeline's vertex arrays and transform feedback objects");
    }

    // Sets `into` to the GL calls made while it lives, as counted where they are made
    // (gl::callCount(): the caller's StateGuard and glGetError are outside or not counted).
    struct CountCalls {
        int& into;
        std::uint64_t before = gl::callCount();
        explicit CountCalls(int& to) : into(to) {}
        CountCalls(const CountCalls&) = delete;
        CountCalls& operator=(const CountCalls&) = delete;
        ~CountCalls() { into = int(gl::callCount() - before); }
    };

    // One pass on the current side, optionally inside a PRIMITIVES_WRITTEN query. Returns the
    // first GL error the pass raised when asked (glGetError stalls WebGL, so only then).
    // GL state is restored either way: a failed pass leaves nothing bound or enabled.
    // `variant`: a generated program of the same shader (fused substeps) instead of the Program's.
    // `drawn`: with PipelineOptions::rasterize, whether this pass keeps the rasterizer on.
    GLenum draw(GLuint query, bool collectError, ProgramState* variant = nullptr, bool drawn = true) {
        settleForWork(inputs, outputs); // the buffers' bytes, where the fragment backend's planes hold them
        const CountCalls counting(lastCalls);
        side = currentSide();
        ProgramState& used = variant ? *variant : *program;
        if (variant) variant->mirrorValues(*program);
        XFB_GL_COUNTED(glUseProgram(used.program));
        used.flushUniforms();
        XFB_GL_COUNTED(glBindVertexArray(vao[std::size_t(side)]));
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK,
                                               packer ? packer->stagingFeedback.get() : tf[std::size_t(side)].get()));
        gl::feedbackPass(
            GL_POINTS, query, [&] { XFB_GL_COUNTED(glDrawArrays(GL_POINTS, 0, GLsizei(plan.count))); },
            options.rasterize && drawn);
        // Unbound so the captured buffers can be bound anywhere else (WebGL2 forbids a buffer
        // bound for transform feedback on another target). The program and VAO stay bound: the
        // caller's StateGuard restores the application's unless it owns the context.
        XFB_GL_COUNTED(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        if (packer) {
            for (const auto& o : plan.outputs) // the current side's, without an allocation per step
                packedOutputs[std::size_t(o.binding)] = outputs[std::size_t(o.entry)]->name;
            packer->pack(packedOutputs, 0, plan.count);
        }
        return collectError ? gl::takeFirstError() : GL_NO_ERROR;
    }

    // One compute pass: reads every entry's current input and writes its current output (the
    // names swap under the handles, so these are always the side draw() would use).
    GLenum dispatch(bool collectError, ComputePass* variant = nullptr) {
        settleForWork(inputs, outputs); // the buffers' bytes, where the fragment backend's planes hold them
        const CountCalls counting(lastCalls);
        (variant ? variant : compute.get())->dispatch(*program, inputs, outputs);
        emittedByFragment = false;
        return collectError ? gl::takeFirstError() : GL_NO_ERROR;
    }

    // One fragment-backend step: reads every entry's current input, writes its current output.
    GLenum render(bool collectError, FragmentBackend* variant = nullptr) {
        const CountCalls counting(lastCalls);
        (variant ? variant : fragment.get())->run(*program, inputs, outputs);
        emittedByFragment = !emits.empty();
        return collectError ? gl::takeFirstError() : GL_NO_ERROR;
    }
    // What a pass of the current backend touches (gl/state_guard.hpp), and the texture units it uses.
    struct PassState {
        unsigned bits = 0;
        GLuint firstUnit = 0, units = 0;
    };
    PassState passState(FusedPass* fusedWith = nullptr) const {
        PassState p{gl::kStepState | (packer ? gl::CachedCopyBuffers | gl::CachedFeedbackBuffer : 0u)};
        if (choice.backend == Backend::Fragment) {
            const FragmentBackend& f = fusedWith ? *fusedWith->fragment : *fragment;
            p.bits |= FragmentBackend::stepState();
            p.firstUnit = f.firstUnit;
            p.units = f.unitCount;
        }
        return p;
    }

    // The GL size of each output buffer, which foreign code may have changed behind our back.
    std::optional<std::string> shrunkOutput() const {
        for (const auto& o : plan.outputs) {
            const GLuint name = outputs[std::size_t(o.entry)]->name;
            const std::uint64_t size = glBufferSize(name, GL_COPY_WRITE_BUFFER);
            if (size < o.bytesPerStep)
                return "entry #" + std::to_string(o.entry) + "'s output (GL buffer " + std::to_string(name) +
                       ") holds " + std::to_string(size) + " bytes, a step writes " + std::to_string(o.bytesPerStep);
        }
        return std::nullopt;
    }

    GLenum pass(GLuint query, bool collectError, FusedPass* fusedWith = nullptr, bool drawn = true) {
        if (choice.backend == Backend::Compute)
            return dispatch(collectError, fusedWith ? fusedWith->compute.get() : nullptr);
        if (choice.backend == Backend::Fragment)
            return render(collectError, fusedWith ? fusedWith->fragment.get() : nullptr);
        return draw(query, collectError, fusedWith ? fusedWith->tf.get() : nullptr, drawn);
    }

    // Backend choice (backend_choice.cpp).
    struct PendingAuto {
        std::string key;               // the shape (Device::autoDecisions)
        std::vector<Backend> backends; // the ones this context and shader have, to be timed
        std::string absent;            // "; X is not available (why)" for the others
    };
    std::optional<PendingAuto> autoPending; // Auto selected, its trial passes not run yet
    struct Trial {
        double ms = 0;  // per pass
        int passes = 0; // timed
    };
    Trial timePasses(Backend b, int n, double bestMs);
    void ensureCompute(int groupSize);
    void ensureFragment();
    void select(Backend wanted, int groupSize);
    void selectEmitting(int groupSize); // select(Auto) with emitted outputs
    // Auto's earlier decision for `key` on this context, taken (its backend made) when there is one.
    bool reuseDecision(const std::string& key, int groupSize);
    std::string shapeKey() const; // what a decision of Auto is kept for (Device::autoDecisions)
    /// Runs a pending Auto's trial passes and keeps the fastest: before every pass a caller asks for.
    void decide();

    void requireEmits() const {
        if (emits.empty() || (!compute && !fragment))
            throw Error(ErrorCode::InvalidArgument,
                        "this pipeline has no emitted outputs; declare them in PipelineOptions::emits");
    }
    /// The compute backend's totals buffer (drawEmitted, emitTotalsBuffer).
    GLuint computeTotals(const char* what) const {
        requireEmits();
        if (!compute || emittedByFragment)
            throw Error(ErrorCode::Unsupported,
                        plan::cat({what, ": the fragment backend keeps the emitted totals in its pyramid's top texel, "
                                         "not in an indirect-command buffer (ES 3.0 and WebGL2 have no indirect "
                                         "draws); read them with emitted(), or step with Backend::Compute"}));
        return compute->totals;
    }
    std::size_t budgetIndex(std::string_view name) const {
        requireEmits();
        for (std::size_t b = 0; b < emits.budgets.size(); ++b)
            if (emits.budgets[b].count == name) return b;
        std::string known;
        for (auto& b : emits.budgets) known += (known.empty() ? "" : ", ") + b.count;
        throw Error(ErrorCode::InvalidArgument,
                    "no emitted budget '" + std::string(name) + "'; budgets are named by their count output: " + known);
    }
    // The GPU totals of every budget (blocking: waits for the last step).
    std::vector<EmitReport> readEmitted() const {
        requireEmits();
        if (emittedByFragment || !compute) {
            // The pyramid's top: requested per budget; written is what fits (the gathers keep the first).
            const auto requested = fragment->requestedTotals();
            std::vector<EmitReport> out;
            for (std::size_t b = 0; b < emits.budgets.size(); ++b) {
                const std::int64_t capacity = emits.budgets[b].capacity;
                out.push_back(
                    {emits.budgets[b].count, requested[b], std::min<std::int64_t>(requested[b], capacity), capacity});
            }
            return out;
        }
        gl::finishWithFence();
        auto raw = gl::readBytes(compute->totals, 0, emits.budgets.size() * kTotalsWords * 4);
        std::vector<EmitReport> out;
        for (std::size_t b = 0; b < emits.budgets.size(); ++b) {
            std::uint32_t words[kTotalsWords];
            std::memcpy(words, raw.data() + b * sizeof words, sizeof words);
            out.push_back({emits.budgets[b].count, words[7], words[0], emits.budgets[b].capacity});
        }
        return out;
    }

    // `n` steps' swaps: the names by parity, every generation and the step count by n.
    void swap(std::uint64_t n = 1) {
        for (std::size_t e = 0; e < inputs.size(); ++e)
            if (isState(e)) {
                if (n & 1) swapNames(*inputs[e], *outputs[e]);
                inputs[e]->generation += n;
                outputs[e]->generation += n;
            }
        side ^= int(n & 1);
        steps += n;
    }
    // The side the next pass uses, from the buffers' generation: another pipeline sharing them may have swapped them.
    int currentSide() const { return sideKey ? int((sideKey->generation - sideZeroGeneration) & 1u) : side; }

    ~PipelineState() override {
        for (const auto* list : {&inputs, &outputs})
            for (const auto& b : *list)
                if (b) --b->pipelines;
    }
};

/// Pipeline's friend, for the interface the npm package needs (xfb/detail/step_replay.hpp,
/// xfb/detail/emitted_draw.hpp): its state, or XFB_DISPOSED when the pipeline was moved from.
struct StepReplay {
    static PipelineState& state(const Pipeline& p) { return liveState(p.state_, "Pipeline"); }
};

} // namespace detail
} // namespace xfb
