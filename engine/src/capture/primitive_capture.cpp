#include "xfb/primitive_capture.hpp"

#include "capture/record_gather.hpp"
#include "gl/draw_mode.hpp"
#include "gl/entries.hpp"
#include "gl/gl_check.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "gl/vertex_array.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb {

namespace {
// Building: vertex arrays, transform feedback objects, the gather program and its buffers.
constexpr unsigned kBuildState = gl::CachedProgram | gl::CachedVertexArray | gl::CachedArrayBuffer | gl::CachedTransformFeedback | gl::CachedFeedbackBuffer;
// A capture: the build state (buffer names may have changed), the pass, and the gather's upload
// from a pixel-unpack buffer into textures on the units it samples.
constexpr unsigned kCaptureState = kBuildState | gl::CachedDiscard | gl::CachedUnpackBuffer | gl::CachedTextures | gl::ReliedPixelStore |
                                   gl::ReliedSamplers;
} // namespace

namespace detail {

struct CaptureState {
    std::shared_ptr<DeviceState> device;
    std::shared_ptr<ProgramState> program;
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // per entry; null where absent
    PassPlan plan;
    Expansion expansion = Expansion::Driver;
    GLuint vertexArray = 0;      // the user's program reads the inputs through it
    GLuint feedback = 0;         // Driver: writes the outputs
    GLuint elements = 0;         // Driver: indices of indexed draws (element binding of vertexArray)
    std::uint64_t elementCapacity = 0;
    std::unique_ptr<RecordGather> gather; // Engine
    CaptureCount last;
    bool captured = false;
    std::vector<GLuint> boundNames; // every entry's input and output name when they were last bound
    std::vector<std::uint64_t> outputBytes; // per captured buffer: its size (buffers never resize)

    ~CaptureState() {
        if (device) std::erase(device->captures, this);
        glDeleteVertexArrays(1, &vertexArray);
        glDeleteTransformFeedbacks(1, &feedback);
        glDeleteBuffers(1, &elements);
        gather.reset();
    }

    // Entry e's input and output name at 2e and 2e + 1 (0 where absent).
    GLuint nameAt(std::size_t i) const {
        const auto& b = i % 2 ? outputs[i / 2] : inputs[i / 2];
        return b ? b->name : 0;
    }
    bool namesChanged() const {
        for (std::size_t i = 0; i < boundNames.size(); ++i)
            if (nameAt(i) != boundNames[i]) return true;
        return false;
    }

    // Points the vertex array at the inputs and the transform feedback object at the outputs.
    void bindBuffers() {
        XFB_GL(glBindVertexArray(vertexArray));
        gl::setAttributePointers(plan.attributes, [&](int e) { return inputs[std::size_t(e)]->name; });
        XFB_GL(glBindVertexArray(0));
        XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, gather ? gather->outputFeedback : feedback));
        auto names = outputNames();
        for (std::size_t b = 0; b < names.size(); ++b) XFB_GL(glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, GLuint(b), names[b]));
        XFB_GL(glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0));
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0); // glBindBufferBase also set the generic binding
        boundNames.resize(inputs.size() * 2);
        for (std::size_t i = 0; i < boundNames.size(); ++i) boundNames[i] = nameAt(i);
    }

    std::vector<GLuint> outputNames() const {
        std::vector<GLuint> names;
        for (const auto& o : plan.outputs) names.push_back(outputs[std::size_t(o.entry)]->name);
        return names;
    }

    void build() {
        XFB_GL(glGenVertexArrays(1, &vertexArray));
        if (expansion == Expansion::Driver) {
            XFB_GL(glGenBuffers(1, &elements));
            XFB_GL(glBindVertexArray(vertexArray));
            XFB_GL(glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, elements)); // recorded in the vertex array
            XFB_GL(glBindVertexArray(0));
            XFB_GL(glGenTransformFeedbacks(1, &feedback));
        } else {
            gather = std::make_unique<RecordGather>(program->capture, plan.count, *device);
        }
        bindBuffers();
        elementCapacity = 0;
        captured = false;
        gl::check("building a primitive capture");
    }

    // Every index refers to an input vertex; a non-indexed draw stays within them. Returns how
    // many vertices the draw refers to (the highest index + 1 for indexed draws).
    std::int64_t validate(const DrawDesc& draw) const {
        if (draw.indices.empty()) {
            if (draw.vertexCount > plan.count)
                throw Error(ErrorCode::InvalidArgument, "the draw has " + std::to_string(draw.vertexCount) + " vertices but the inputs hold " +
                                                            std::to_string(plan.count) + "; draw at most " + std::to_string(plan.count));
            return draw.vertexCount;
        }
        std::int64_t referenced = 0;
        for (std::size_t k = 0; k < draw.indices.size(); ++k) {
            std::uint32_t i = draw.indices[k];
            if (draw.restartIndex && i == *draw.restartIndex) continue;
            if (std::int64_t(i) >= plan.count)
                throw Error(ErrorCode::InvalidArgument, "index " + std::to_string(i) + " at position " + std::to_string(k) + " is outside the " +
                                                            std::to_string(plan.count) + " input vertices (0.." + std::to_string(plan.count - 1) + ")" +
                                                            (draw.restartIndex ? "" : "; set restartIndex if it marks a restart"));
            referenced = std::max(referenced, std::int64_t(i) + 1);
        }
        return referenced;
    }

    void driverPass(const DrawDesc& draw) {
        glUseProgram(program->program);
        program->flushUniforms();
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
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(gl::primitiveMode(last.primitive));
        if (indexed) glDrawElements(gl::primitiveMode(draw.mode), GLsizei(draw.indices.size()), GL_UNSIGNED_INT, nullptr);
        else glDrawArrays(gl::primitiveMode(draw.mode), 0, GLsizei(draw.vertexCount));
        glEndTransformFeedback();
        glDisable(GL_RASTERIZER_DISCARD);
#ifndef __EMSCRIPTEN__
        if (draw.restartIndex && indexed) glDisable(GL_PRIMITIVE_RESTART);
#endif
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
    }

    // `vertices`: how many the draw refers to; each runs once, gl_VertexID is its index as in the draw.
    void enginePass(const DrawDesc& draw, std::int64_t vertices) {
        glUseProgram(program->program);
        program->flushUniforms();
        glBindVertexArray(vertexArray);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, gather->scratchFeedback);
        glEnable(GL_RASTERIZER_DISCARD);
        glBeginTransformFeedback(GL_POINTS);
        glDrawArrays(GL_POINTS, 0, GLsizei(vertices));
        glEndTransformFeedback();
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0); // the scratch buffers are read next
        gather->gather(vertices, draw, last.records);
        glDisable(GL_RASTERIZER_DISCARD);
    }
};

void recreateCapture(CaptureState& c) {
    // The old names died with the context: forget them.
    c.vertexArray = c.feedback = c.elements = 0;
    if (c.gather) c.gather->forget();
    c.gather.reset();
    c.build();
}

} // namespace detail

std::string_view expansionName(Expansion e) {
    switch (e) {
    case Expansion::Auto: return "auto";
    case Expansion::Driver: return "driver";
    case Expansion::Engine: return "engine";
    }
    return "?";
}

PrimitiveCapture::PrimitiveCapture(const Device& device, const Program& program, std::vector<Entry> entries, PrimitiveCaptureOptions options) {
    auto s = std::make_unique<detail::CaptureState>();
    s->program = program.state();
    if (!s->program) throw Error(ErrorCode::Disposed, "the Program was moved from");
    auto resolved = detail::resolveEntries(entries);
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (resolved.inputs[i] && resolved.outputs[i])
            throw Error(ErrorCode::InvalidArgument, "entry #" + std::to_string(i) + " is a state pair {input, output}; a primitive capture reads "
                                                    "{input} vertex buffers and writes {output} buffers. Use a Pipeline for state");
    s->inputs = std::move(resolved.inputs);
    s->outputs = std::move(resolved.outputs);
    const auto& descs = resolved.descs;
    s->plan = planPass(s->program->attributes, s->program->capture, descs, options.vertexCount, OutputSizing::PerDraw);
    for (const auto& o : s->plan.outputs) s->outputBytes.push_back(s->outputs[std::size_t(o.entry)]->bytes);
    s->device = device.state();
    s->device->requireContext("creating a PrimitiveCapture");
    const Capabilities& caps = s->device->caps;
    s->expansion = options.expansion == Expansion::Auto ? (caps.es ? Expansion::Engine : Expansion::Driver) : options.expansion;
    if (s->expansion == Expansion::Driver && caps.es)
        throw Error(ErrorCode::Unsupported, "driver expansion needs desktop OpenGL; on '" + caps.version +
                                                "' transform feedback requires the draw mode to equal the capture mode and forbids indexed draws. "
                                                "Use Expansion::Engine or Auto");
    {
        gl::StateGuard guard(*s->device, kBuildState | gl::TakeForeignErrors);
        s->build();
    }
    s->device->captures.push_back(s.get());
    state_ = std::move(s);
}

PrimitiveCapture::PrimitiveCapture(PrimitiveCapture&&) noexcept = default;
PrimitiveCapture& PrimitiveCapture::operator=(PrimitiveCapture&&) noexcept = default;
PrimitiveCapture::~PrimitiveCapture() = default;

static detail::CaptureState& live(const std::unique_ptr<detail::CaptureState>& s) {
    if (!s) throw Error(ErrorCode::Disposed, "this PrimitiveCapture was moved from; use the one it was moved into");
    return *s;
}

CaptureCount PrimitiveCapture::capture(const DrawDesc& draw) {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::capture");
    CaptureCount count = countCapture(draw, s.program->capture);
    const std::int64_t vertices = s.validate(draw);
    checkCaptureCapacity(count, s.outputBytes);
    // The pixel store and sampler bindings are set for the gather's upload and texelFetch; errors
    // pending before this call are the application's (Device::takeForeignErrors).
    const detail::RecordGather* g = s.gather.get();
    gl::StateGuard guard(*s.device, kCaptureState | gl::TakeForeignErrors, g ? g->firstUnit : 0, g ? unsigned(g->textures.size()) : 0);
    detail::requireLiveBuffers(s.inputs, "PrimitiveCapture::capture (an input)");
    detail::requireLiveBuffers(s.outputs, "PrimitiveCapture::capture (an output)");
    // A Pipeline swaps the names of its state buffers every step: follow them (no GL object is created).
    if (s.namesChanged()) s.bindBuffers();
    s.last = count;
    if (s.expansion == Expansion::Driver) s.driverPass(draw);
    else s.enginePass(draw, vertices);
    // Checked here, not at a later read: a failed pass or upload is this call's error.
    gl::check("PrimitiveCapture::capture");
    s.captured = true;
    return count;
}

void PrimitiveCapture::drawCaptured(std::optional<DrawMode> mode, int instances) const {
    auto& s = live(state_);
    s.device->requireContext("PrimitiveCapture::drawCaptured");
    if (!s.captured) throw Error(ErrorCode::InvalidArgument, "nothing was captured yet; call capture() before drawCaptured()");
    if (instances < 1) throw Error(ErrorCode::InvalidArgument, "instances must be >= 1, got " + std::to_string(instances));
    GLenum m = gl::primitiveMode(mode.value_or(s.last.primitive));
#ifndef __EMSCRIPTEN__
    const Capabilities& caps = s.device->caps;
    if (caps.drawTransformFeedback && (instances == 1 || caps.major > 4 || caps.minor >= 2)) {
        GLuint object = s.gather ? s.gather->outputFeedback : s.feedback;
        if (instances == 1) glDrawTransformFeedback(m, object);
        else glDrawTransformFeedbackInstanced(m, object, instances);
        return;
    }
#endif
    glDrawArraysInstanced(m, 0, GLsizei(s.last.records), instances);
}

const CaptureCount& PrimitiveCapture::lastCount() const { return live(state_).last; }
Expansion PrimitiveCapture::expansion() const { return live(state_).expansion; }
std::int64_t PrimitiveCapture::vertexCount() const { return live(state_).plan.count; }
const PassPlan& PrimitiveCapture::plan() const { return live(state_).plan; }

} // namespace xfb
