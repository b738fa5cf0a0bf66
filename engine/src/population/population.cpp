#include "xfb/population.hpp"

#include "gl/access.hpp"
#include "gl/draw_mode.hpp"
#include "gl/gl_check.hpp"
#include "gl/readback.hpp"
#include "gl/state_guard.hpp"
#include "population/population_state.hpp"
#include "xfb/detail/emitted_draw.hpp"
#include "xfb/error.hpp"

#include <array>
#include <cstring>

namespace xfb {

namespace detail {

namespace {

#ifdef XFB_GL_CHECK_EVERY_CALL
constexpr bool kCheckErrors = true;
#else
constexpr bool kCheckErrors = false;
#endif

// The count words of an empty population: draw {0, 1, 0, 0}, dispatch {1, 1, 1}, nothing requested or dropped.
constexpr std::array<std::uint32_t, kPopulationCountWords> kEmptyCount{0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0};

VertexFormat countFormat() { return VertexFormat::interleaved({{attr(0), ComponentType::UInt32, 4}}); }

GLuint nameOf(const Buffer& b) { return Access::state(b)->name.get(); }

void throwIfPassFailed(const char* what) {
    if (!kCheckErrors) return;
    if (GLenum err = gl::takeFirstError(); err != GL_NO_ERROR)
        throw Error(ErrorCode::GlError,
                    std::string(what) + " raised " + gl::errorName(err) +
                        "; the population was not swapped, its state and count are the previous ones");
}

} // namespace

PopulationCount decodeCount(const std::vector<std::byte>& bytes, std::int64_t capacity) {
    std::array<std::uint32_t, kPopulationCountWords> w{};
    std::memcpy(w.data(), bytes.data(), std::min(bytes.size(), sizeof w));
    return {w[kLiveWord], capacity, w[kRequestedWord], w[kDroppedWord], w[kDroppedUncheckedWord]};
}

GLuint PopulationState::countsName() const { return nameOf(*counts); }

gl::StateGuard PopulationState::guard(unsigned extra) const {
    if (!onFragment()) return gl::StateGuard(*device, gl::kStepState | extra);
    return gl::StateGuard(*device, fragment.guardBits() | extra, fragment.firstUnit(), fragment.unitCount());
}

void PopulationState::build() {
    if (onFragment()) {
        fragment.build(device, *program, plan);
        return;
    }
    const Capabilities& caps = device->caps;
    const ComputePass::LiveCount live{&noCapture};
    pass =
        ComputePass::build(*program, plan.pass, plan.entries.size(), caps, options.workGroupSize, plan.emits, 1, &live);
    kernels.build(caps.es, plan.capacity, pass->workGroupSize, caps.maxComputeGroupCountX, caps.maxComputeGroupCountY);
}

void PopulationState::runPasses() {
    if (!onFragment()) return pass->dispatch(*program, inputs, outputs, countsName());
    fragment.runPasses(*program, inputs, outputs);
    // The current state's names are the population's again once a step has read them (as a
    // Pipeline's state pairs): the application takes the latest from state() after each step.
    for (std::size_t f = 0; f < fieldCount(); ++f)
        if (!inputs[f]->bound.adopted) inputs[f]->bound.exposed = false;
}

void PopulationState::takeTotals() {
    if (onFragment()) return fragment.takeTotals();
    kernels.afterStep(pass->totals, countsName());
}

std::uint32_t PopulationState::requested() {
    if (onFragment()) return fragment.requested();
    gl::finishWithFence();
    std::uint32_t words[8];
    const auto raw = gl::readBytes(pass->totals, 0, sizeof words);
    std::memcpy(words, raw.data(), sizeof words);
    return words[7];
}

void PopulationState::swap() {
    for (std::size_t f = 0; f < fieldCount(); ++f) {
        auto a = Access::state(current(f)), b = Access::state(next(f));
        swapNames(*a, *b);
        ++a->generation;
        ++b->generation;
    }
    ++steps;
}

PopulationCount PopulationState::readCount() const {
    if (onFragment()) return decodeCountTexel(fragment.readCount(), plan.capacity); // glReadPixels
    return decodeCount(counts->read(), plan.capacity);                              // a fence, then glMapBufferRange
}

void PopulationState::clearUncheckedDrops(const PopulationCount& c) {
    if (onFragment())
        return fragment.writeCount({std::uint32_t(c.live), std::uint32_t(c.requested), std::uint32_t(c.dropped), 0u});
    const std::uint32_t zero = 0;
    counts->upload(std::as_bytes(std::span<const std::uint32_t>(&zero, 1)), kDroppedUncheckedWord * 4);
}

void PopulationState::forget() {
    // The compute pass and the fragment backend forget their own names (they are enrolled
    // themselves); restore() makes new ones.
    kernels.forget();
    if (onFragment()) fragment.forget();
    for (auto& b : staging) b.forget();
}

void PopulationState::restore() {
    // The state's buffers came back empty (their bytes died with the context): so does the population.
    pass.reset();             // forgotten already: deletes nothing
    fragment.backend.reset(); // likewise
    build();
    if (!onFragment()) counts->upload(std::as_bytes(std::span<const std::uint32_t>(kEmptyCount)));
    staging.clear();
    staging.resize(fieldCount());
}

} // namespace detail

static detail::PopulationState& live(const std::unique_ptr<detail::PopulationState>& s) {
    return detail::liveState(s, "Population");
}

Population::Population(const Device& device, const Program& program, PopulationOptions options) {
    auto s = std::make_unique<detail::PopulationState>();
    s->program = detail::Access::state(program);
    if (!s->program) throw Error(ErrorCode::Disposed, "the Program was moved from");
    s->device = detail::Access::state(device);
    const std::string& label = s->program->desc.label;
    // The plan first: the same coded refusal of a wrong description on every context.
    s->plan = planPopulation(program.shader(), program.attributes(), options.capacity, options.state, options.count);
    if (!s->program->desc.geometry.empty())
        throw Error(ErrorCode::Unsupported, "program '" + label +
                                                "' has a geometry shader: a population's elements write their "
                                                "records through emitted outputs of its vertex shader");
    if (options.backend == Backend::TransformFeedback)
        throw Error(ErrorCode::Unsupported,
                    "a population on the transform-feedback backend: transform feedback writes one record per "
                    "element, a population's elements write 0..N; use Backend::Compute (or Auto)");
    s->device->requireContext("creating a Population");
    const Capabilities& caps = s->device->caps;
    if (options.backend == Backend::Compute && !caps.compute)
        throw Error(ErrorCode::Unsupported,
                    "a population on the compute backend needs OpenGL 4.3+ or OpenGL ES 3.1+; this context is '" +
                        caps.version + "'. Use Backend::Fragment (or Auto), which runs on OpenGL ES 3.0 and WebGL2");
    // Auto: compute where the context has it (indirect dispatch over the live elements only; the
    // fragment backend runs its passes over the capacity), else the fragment backend.
    s->backend = options.backend == Backend::Fragment || !caps.compute ? Backend::Fragment : Backend::Compute;
    s->options = std::move(options);
    gl::StateGuard guard(*s->device, gl::kAllState | gl::TakeForeignErrors);
    const std::size_t n = s->fieldCount();
    for (int side = 0; side < 2; ++side)
        for (std::size_t f = 0; f < n; ++f) s->fields.emplace_back(device, s->plan.fields[f].format, s->plan.capacity);
    if (s->onFragment()) // a count texel is packed here for countAsync()
        s->counts.emplace(device, detail::countFormat(), 1);
    else
        s->counts.emplace(device, detail::countFormat(), kPopulationCountWords / 4,
                          std::as_bytes(std::span<const std::uint32_t>(detail::kEmptyCount)));
    s->staging.resize(n);
    s->inputs.resize(2 * n);
    s->outputs.resize(2 * n);
    for (std::size_t f = 0; f < n; ++f) {
        s->inputs[f] = detail::Access::state(s->current(f));
        s->outputs[n + f] = detail::Access::state(s->next(f));
    }
    s->build();
    s->enroll(s->device); // after the buffers: restored after them
    state_ = std::move(s);
}

Population::Population(Population&&) noexcept = default;
Population& Population::operator=(Population&&) noexcept = default;
Population::~Population() = default;

void Population::step() {
    auto& s = live(state_);
    s.device->requireContext("Population::step");
    const gl::StateGuard guard = s.guard(detail::kCheckErrors ? gl::TakeForeignErrors : 0u);
    const std::uint64_t before = gl::callCount();
    s.runPasses();
    detail::throwIfPassFailed("Population::step");
    s.takeTotals();
    s.lastCalls = int(gl::callCount() - before);
    detail::throwIfPassFailed("Population::step (the count kernel)");
    s.swap();
}

PopulationCount Population::stepChecked() {
    auto& s = live(state_);
    s.device->requireContext("Population::stepChecked");
    const bool refuse = s.options.overflow == EmitOverflow::Error;
    if (refuse) {
        const PopulationCount before = s.readCount();
        if (before.droppedUnchecked > 0) {
            s.clearUncheckedDrops(before);
            throw Error(ErrorCode::Capacity,
                        std::to_string(before.droppedUnchecked) +
                            " records were dropped past the population's capacity of " +
                            std::to_string(s.plan.capacity) +
                            " since the last checked step (by spawn() or step()); the live elements are the first " +
                            std::to_string(before.live) +
                            ". This step was not run. Make the capacity larger, spawn fewer, or choose "
                            "EmitOverflow::Clamp");
        }
    }
    {
        const gl::StateGuard guard = s.guard(gl::TakeForeignErrors);
        const std::uint64_t before = gl::callCount();
        s.runPasses();
        s.lastCalls = int(gl::callCount() - before);
        if (GLenum err = gl::takeFirstError(); err != GL_NO_ERROR)
            throw Error(ErrorCode::GlError, std::string("Population::stepChecked: the passes raised ") +
                                                gl::errorName(err) + "; the population was not swapped");
    }
    if (refuse) {
        const std::uint32_t requested = s.requested();
        if (requested > std::uint64_t(s.plan.capacity))
            throw Error(ErrorCode::Capacity,
                        "step " + std::to_string(s.steps) + ": the population's elements wrote " +
                            std::to_string(requested) + " records of the next state but its capacity is " +
                            std::to_string(s.plan.capacity) +
                            "; the step was not swapped, the state and the live count are the previous ones. Make the "
                            "capacity larger or choose EmitOverflow::Clamp");
    }
    {
        const gl::StateGuard guard = s.guard(gl::TakeForeignErrors);
        s.takeTotals();
        gl::check("Population::stepChecked (the count kernel)");
    }
    s.swap();
    PopulationCount c = s.readCount();
    if (c.droppedUnchecked > 0) s.clearUncheckedDrops(c); // reported by this count (Clamp), or none (Error)
    return c;
}

void Population::spawn(std::span<const std::byte> records) {
    const std::span<const std::byte> one[] = {records};
    spawn(std::span<const std::span<const std::byte>>(one));
}

void Population::spawn(std::span<const std::span<const std::byte>> data) {
    auto& s = live(state_);
    const std::size_t n = s.fieldCount();
    if (data.size() != n)
        throw Error(ErrorCode::InvalidArgument, "spawn: " + std::to_string(data.size()) +
                                                    " spans given for a state of " + std::to_string(n) +
                                                    " field(s); give one span of records per field, in order");
    std::int64_t records = -1;
    for (std::size_t f = 0; f < n; ++f) {
        const PopulationFieldPlan& field = s.plan.fields[f];
        const auto stride = std::uint64_t(field.format.stride);
        if (data[f].size() % stride)
            throw Error(ErrorCode::InvalidArgument, "spawn: field #" + std::to_string(f) + " ('" + field.input + "', " +
                                                        field.type.name + ") gets " + std::to_string(data[f].size()) +
                                                        " bytes, not a whole number of " + std::to_string(stride) +
                                                        "-byte records");
        const auto r = std::int64_t(data[f].size() / stride);
        if (records >= 0 && r != records)
            throw Error(ErrorCode::InvalidArgument, "spawn: field #" + std::to_string(f) + " ('" + field.input +
                                                        "') gets " + std::to_string(r) + " records but field #0 gets " +
                                                        std::to_string(records) +
                                                        "; every field gets one record per spawned element");
        records = r;
    }
    if (records > s.plan.capacity)
        throw Error(ErrorCode::Capacity, "spawn of " + std::to_string(records) +
                                             " records into a population whose capacity is " +
                                             std::to_string(s.plan.capacity) +
                                             ": more than it could ever hold; nothing was spawned. Spawn at most "
                                             "the capacity, or make the capacity larger");
    if (records <= 0) return;
    s.device->requireContext("Population::spawn");
    const gl::StateGuard guard = s.guard(gl::CachedCopyBuffers | (detail::kCheckErrors ? gl::TakeForeignErrors : 0u));
    const std::uint64_t before = gl::callCount();
    for (std::size_t f = 0; f < n; ++f) {
        // A new store each time (glBufferData): the previous spawn's copy may still be reading the old one.
        if (!s.staging[f]) s.staging[f] = gl::BufferName::create();
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, s.staging[f]));
        XFB_GL_COUNTED(glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(data[f].size()), data[f].data(), GL_STREAM_DRAW));
        XFB_GL_COUNTED(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
        const int strideWords = s.plan.fields[f].format.stride / 4;
        if (s.onFragment())
            s.fragment.spawnField(*s.inputs[f], f, s.staging[f], records, strideWords);
        else
            s.kernels.copySpawned(s.staging[f], detail::nameOf(s.current(f)), s.countsName(), records, strideWords);
    }
    if (s.onFragment())
        s.fragment.countSpawned(records);
    else
        s.kernels.countSpawned(s.countsName(), records);
    s.lastCalls = int(gl::callCount() - before);
    detail::throwIfPassFailed("Population::spawn");
}

PopulationCount Population::count() const {
    auto& s = live(state_);
    return s.readCount();
}

PopulationCountRequest Population::countAsync() const {
    auto& s = live(state_);
    if (s.onFragment()) {
        s.device->requireContext("Population::countAsync");
        s.fragment.packCount(s.countsName()); // the texel into the buffer on the GPU, then its copy and fence
    }
    return PopulationCountRequest(s.counts->readAsync(), s.plan.capacity, s.onFragment());
}

PopulationCount PopulationCountRequest::take() {
    const auto bytes = request_.take();
    if (!texel_) return detail::decodeCount(bytes, capacity_);
    detail::CountTexel words{};
    std::memcpy(words.data(), bytes.data(), std::min(bytes.size(), sizeof words));
    return detail::decodeCountTexel(words, capacity_);
}

void Population::draw(DrawMode mode) const {
    auto& s = live(state_);
    checkDrawMode(mode, "Population::draw");
    s.device->requireContext("Population::draw");
    if (s.onFragment()) return s.fragment.draw(mode, false); // no indirect draw: the capacity, masked by the snippet
#ifndef __EMSCRIPTEN__
    // A program holding emittedDrawSnippet() (one that also draws a fragment-backend population)
    // keeps every vertex of the indirect draw: xfb_emitted_at.w = 1, its sampler on the last unit.
    GLint units = 1;
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    (void)gl::setEmittedSnippetUniforms(units - 1, 0, 0, 1, 1);
    XFB_GL(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, s.countsName()));
    XFB_GL(glDrawArraysIndirect(gl::primitiveMode(mode), nullptr)); // the DrawArraysIndirectCommand at byte 0
    XFB_GL(glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0));
#endif
}

namespace detail {

namespace {
// The checks of a draw whose snippet uniforms the npm package sets: a fragment-backend population.
const PopulationState& fragmentDrawn(const Population& population, DrawMode mode) {
    const auto& s = PopulationAccess::state(population);
    checkDrawMode(mode, "Population::draw");
    s.device->requireContext("Population::draw");
    if (!s.onFragment())
        throw Error(ErrorCode::Unsupported, "Population::draw: this population runs on compute, whose live count is an "
                                            "indirect-draw command; draw with Population::draw()");
    return s;
}
} // namespace

EmittedDrawUniforms populationDrawUniforms(const Population& population, DrawMode mode, bool programReadsTotal,
                                           const std::string& program) {
    const auto& s = fragmentDrawn(population, mode);
    const auto v = s.fragment.snippetValues(mode);
    if (!programReadsTotal) throw s.fragment.snippetMissing(program);
    return {v.unit, v.row, v.component, v.perPrimitive};
}

void drawPopulationWithUniformsSet(const Population& population, DrawMode mode) {
    fragmentDrawn(population, mode).fragment.draw(mode, true);
}

} // namespace detail

const Buffer& Population::state(std::size_t field) const {
    auto& s = live(state_);
    if (field >= s.fieldCount())
        throw Error(ErrorCode::InvalidArgument, "Population::state(" + std::to_string(field) + "): the state has " +
                                                    std::to_string(s.fieldCount()) + " field(s), 0.." +
                                                    std::to_string(s.fieldCount() - 1));
    return s.current(field);
}

unsigned Population::countBuffer() const {
    auto& s = live(state_);
    return s.onFragment() ? 0u : s.countsName();
}
unsigned Population::countTexture() const {
    auto& s = live(state_);
    return s.onFragment() ? s.fragment.counts[std::size_t(s.fragment.current)].get() : 0u;
}
Backend Population::backend() const { return live(state_).backend; }
const PopulationPlan& Population::plan() const { return live(state_).plan; }
std::int64_t Population::capacity() const { return live(state_).plan.capacity; }
std::uint64_t Population::stepsTaken() const { return live(state_).steps; }
int Population::lastGlCalls() const { return live(state_).lastCalls; }
std::string Population::computeSource() const {
    auto& s = live(state_);
    return s.pass ? s.pass->shader.source : std::string();
}

} // namespace xfb
