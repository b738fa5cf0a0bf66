// Fireworks: one xfb::Population whose live count never leaves the GPU. Rockets rise until their
// fuse runs out and burst into sparks; sparks fall, fade, die, and leave trail points behind; trail
// points fade and die. Each element writes 0 (dies), 1 (lives on) or k records of the next state
// (a rocket's burst), compacted in a stable order, so every run draws the same frames. Rockets are
// spawned from the CPU (Population::spawn, appended on the GPU); the draw reads the count on the GPU
// (indirect on compute, masked by the count texel on WebGL2's fragment backend); the panel's live
// count is read back asynchronously, never in a step.
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <array>
#include <cmath>

namespace demos {
namespace {

constexpr int kBurst = 14; // sparks per rocket: the emitted arrays' length (2 x 14 + 1 rows of MAX_VARYING_VECTORS)

// Element: a_p = (position, seconds left), a_v = (velocity, kind): kind 0 a rocket, 1 + hue a
// spark, 2 + hue a trail point.
const std::string kSimulation = R"(#version 300 es
precision highp float;
in vec4 a_p;
in vec4 a_v;
uniform float dt;
uniform int stepIndex;
out vec4 emit_p[)" + std::to_string(kBurst) +
                                R"(];
out vec4 emit_v[)" + std::to_string(kBurst) +
                                R"(];
flat out int emit_n;

float hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return float(x) / 4294967295.0;
}

void main() {
    vec3 p = a_p.xyz, v = a_v.xyz;
    float life = a_p.w - dt, kind = a_v.w;
    emit_n = 0;
    if (kind == 0.0) {                       // a rocket: rises, leaves a trail point, bursts
        v.y -= 0.9 * dt;
        p += v * dt;
        if (life > 0.0) {
            emit_p[0] = vec4(p, life);
            emit_v[0] = vec4(v, 0.0);
            emit_p[1] = vec4(p, 0.35);
            emit_v[1] = vec4(0.0, 0.0, 0.0, 2.08);
            emit_n = 2;
        } else {
            float hue = hash(floatBitsToUint(p.x) ^ floatBitsToUint(p.z));
            for (int k = 0; k < )" +
                                std::to_string(kBurst) + R"(; ++k) {
                uint s = floatBitsToUint(p.x) * 31u + uint(k) * 7919u;
                float z = 2.0 * hash(s) - 1.0, a = 6.2831853 * hash(s + 1u), r = sqrt(1.0 - z * z);
                float speed = 0.9 + 0.5 * hash(s + 2u);
                emit_p[k] = vec4(p, 1.4 + 0.8 * hash(s + 3u));
                emit_v[k] = vec4(vec3(r * cos(a), z, r * sin(a)) * speed + 0.3 * v, 1.0 + 0.999 * hue);
            }
            emit_n = )" + std::to_string(kBurst) +
                                R"(;
        }
    } else if (kind < 2.0) {                 // a spark: falls, fades, leaves a trail point every 3rd step
        v = v * 0.985 + vec3(0.0, -0.7 * dt, 0.0);
        p += v * dt;
        if (life > 0.0) {
            emit_p[0] = vec4(p, life);
            emit_v[0] = vec4(v, kind);
            emit_p[1] = vec4(p, 0.45);
            emit_v[1] = vec4(0.0, 0.0, 0.0, kind + 1.0);
            emit_n = (stepIndex + gl_VertexID) % 3 == 0 ? 2 : 1;
        }
    } else if (life > 0.0) {                 // a trail point: stays, fades
        emit_p[0] = vec4(p, life);
        emit_v[0] = a_v;
        emit_n = 1;
    }
    gl_Position = vec4(0.0);
})";

const std::string kPointVertex = R"(#version 300 es
)" + std::string(xfb::emittedDrawSnippet()) +
                                 R"(
layout(location = 0) in vec4 a_p;
layout(location = 1) in vec4 a_v;
uniform mat4 viewProjection;
out vec3 colour;
void main() {
    float kind = a_v.w, life = a_p.w;
    vec3 hue = 0.55 + 0.45 * cos(6.2831853 * (fract(kind) + vec3(0.0, 0.33, 0.67)));
    colour = kind == 0.0 ? vec3(1.0, 0.85, 0.6) : kind < 2.0 ? hue * min(1.0, 1.5 * life) : hue * 0.9 * life / 0.45;
    gl_PointSize = kind == 0.0 ? 4.0 : kind < 2.0 ? 3.0 : 2.0;
    gl_Position = xfb_emittedPosition(viewProjection * vec4(a_p.xyz, 1.0));
})";

const char* kPointFragment = R"(#version 300 es
precision mediump float;
in vec3 colour;
out vec4 result;
void main() { result = vec4(colour, 1.0); }
)";

class Fireworks : public Demo {
public:
    explicit Fireworks(xfb::Device& device) : device_(device) {
        xfb::ProgramDesc desc{kSimulation, {}, {}, "fireworks"};
        desc.capture.varyings = {"gl_Position"}; // a Program captures something; a population keeps its records
        program_.emplace(device_, desc);
        build(xfb::Backend::Auto);
        glGenVertexArrays(1, &vao_);
    }
    ~Fireworks() override { glDeleteVertexArrays(1, &vao_); }

    void step(const Frame& f) override { advance(f.dt); }

    void render(const Frame& f) override {
        if (population_->state(0).generation() != boundGeneration_) bindState();
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
#ifdef GL_PROGRAM_POINT_SIZE // desktop GL: gl_PointSize only when enabled (ES and WebGL always)
        glEnable(GL_PROGRAM_POINT_SIZE);
#endif
        glBindVertexArray(vao_);
        population_->draw(xfb::DrawMode::Points); // the GPU count: no readback
        glBindVertexArray(0);
#ifdef GL_PROGRAM_POINT_SIZE
        glDisable(GL_PROGRAM_POINT_SIZE);
#endif
        glDisable(GL_BLEND);
    }

    void panel() override {
        // The count on its way back from the GPU, taken a frame or more later: never in a step.
        if (pending_ && pending_->ready()) {
            shown_ = pending_->take();
            pending_.reset();
        }
        if (!pending_ && ++framesSinceCount_ >= 30) { // twice a second: a staging copy and a fence each
            pending_ = population_->countAsync();
            framesSinceCount_ = 0;
        }
        ImGui::Text("live %lld of %lld (read asynchronously)", static_cast<long long>(shown_.live),
                    static_cast<long long>(population_->capacity()));
        ImGui::Text("asked for in the last step %lld, dropped %lld", static_cast<long long>(shown_.requested),
                    static_cast<long long>(shown_.dropped));
        ImGui::SliderInt("rockets per volley", &volley_, 1, 12);
    }

    Stepping stepping() override {
        const bool compute = population_->backend() == xfb::Backend::Compute;
        return {population_->backend(),
                compute ? "a population on compute: the main pass dispatched indirectly over the live elements"
                        : "a population on the fragment backend: passes over the capacity, masked by the live "
                          "count in a texel",
                population_->lastGlCalls()};
    }
    void setBackend(xfb::Backend backend) override { build(backend); }
    std::vector<xfb::Backend> backends(bool compute) const override {
        if (!compute) return {xfb::Backend::Fragment, xfb::Backend::Auto};
        return {xfb::Backend::Compute, xfb::Backend::Fragment, xfb::Backend::Auto};
    }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return capacity_; }
    std::int64_t maxCount() const override { return 1 << 20; }
    void setCount(std::int64_t n) override {
        capacity_ = std::max<std::int64_t>(n, 4096);
        build(population_->backend());
    }
    float cameraDistance() const override { return 6.0f; }

private:
    // A new population on `backend` (kept unless it builds), warmed up so the first frame already
    // shows bursts: the same frames on every run.
    void build(xfb::Backend backend) {
        xfb::PopulationOptions o;
        o.capacity = capacity_;
        o.state = {{"a_p", "emit_p"}, {"a_v", "emit_v"}};
        o.count = "emit_n";
        o.overflow = xfb::EmitOverflow::Clamp; // a full sky drops the newest records
        o.backend = backend;
        xfb::Population next(device_, *program_, std::move(o)); // throws before the running one is replaced
        population_ = std::move(next);
        pending_.reset();
        shown_ = {};
        steps_ = 0;
        boundGeneration_ = ~std::uint64_t(0);
        for (int s = 0; s < 150; ++s) advance(1.0f / 60.0f);
    }

    // One step: a volley of rockets every 40 steps (deterministic), then the population's step.
    void advance(float dt) {
        if (steps_ % 40 == 0) {
            std::vector<float> p, v;
            for (int r = 0; r < volley_; ++r) {
                const float t = float(steps_ / 40 * volley_ + r);
                const float x = 2.2f * std::sin(t * 2.4f), z = 1.2f * std::cos(t * 1.7f);
                p.insert(p.end(), {x, -2.0f, z, 1.1f + 0.3f * std::fabs(std::sin(t * 3.1f))});
                v.insert(v.end(), {-0.15f * x, 3.1f + 0.3f * std::sin(t), -0.1f * z, 0.0f});
            }
            const std::array<std::span<const std::byte>, 2> fields{std::as_bytes(std::span<const float>(p)),
                                                                   std::as_bytes(std::span<const float>(v))};
            population_->spawn(fields);
        }
        program_->setUniform("dt", dt);
        program_->setUniform("stepIndex", int(steps_));
        population_->step();
        ++steps_;
    }

    void bindState() {
        glBindVertexArray(vao_);
        population_->state(0).bindAsVertexInput(0, xfb::attr(0));
        population_->state(1).bindAsVertexInput(1, xfb::attr(1));
        glBindVertexArray(0);
        boundGeneration_ = population_->state(0).generation();
    }

    xfb::Device& device_;
    std::int64_t capacity_ = 1 << 16;
    int volley_ = 6;
    std::uint64_t steps_ = 0;
    std::optional<xfb::Program> program_;
    std::optional<xfb::Population> population_;
    std::optional<xfb::PopulationCountRequest> pending_;
    xfb::PopulationCount shown_;
    int framesSinceCount_ = 30;
    RenderProgram render_{kPointVertex.c_str(), kPointFragment};
    GLuint vao_ = 0;
    std::uint64_t boundGeneration_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeFireworks(xfb::Device& d) { return std::make_unique<Fireworks>(d); }

} // namespace demos
