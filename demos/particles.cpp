// Particles, interleaved (or separate) mode: position + life and velocity + seed per particle,
// emitted and respawned on the GPU, drawn as points straight from the state buffer.
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <random>

namespace demos {
namespace {

const char* kSimulation = R"(#version 300 es
precision highp float;
in vec4 position;   // xyz, w = remaining life (s)
in vec4 velocity;   // xyz, w = seed in [0, 1)
uniform float dt;
uniform float time;
uniform vec3 gravity;
uniform float spread;
out vec4 out_position;
out vec4 out_velocity;

float hash(float x) { return fract(sin(x * 12.9898 + 78.233) * 43758.5453); }

void main() {
    vec3 v = velocity.xyz + gravity * dt;
    vec3 p = position.xyz + v * dt;
    float life = position.w - dt;
    if (p.y < -1.0 && v.y < 0.0) { v.y = -v.y * 0.55; v.xz *= 0.8; p.y = -1.0; }  // a bouncy floor
    if (life <= 0.0) {  // respawn in a fountain, the direction from the seed and the time
        float a = hash(velocity.w + time) * 6.2831853, r = spread * sqrt(hash(velocity.w * 7.0 + time));
        v = vec3(cos(a) * r, 3.2 + 1.2 * hash(velocity.w * 3.0 - time), sin(a) * r);
        p = vec3(0.0, -1.0, 0.0);
        life = 1.5 + 2.5 * hash(velocity.w * 5.0 + time);
    }
    out_position = vec4(p, life);
    out_velocity = vec4(v, velocity.w);
})";

const char* kRenderVertex = R"(#version 300 es
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 velocity;
uniform mat4 viewProjection;
uniform float pointSize;
out vec3 colour;
void main() {
    gl_Position = viewProjection * vec4(position.xyz, 1.0);
    gl_PointSize = pointSize;
    float speed = length(velocity.xyz);
    colour = mix(vec3(1.0, 0.35, 0.08), vec3(0.35, 0.7, 1.0), clamp(speed / 5.0, 0.0, 1.0)) * clamp(position.w, 0.15, 1.0);
})";

const char* kRenderFragment = R"(#version 300 es
precision mediump float;
in vec3 colour;
out vec4 fragColour;
void main() { fragColour = vec4(colour * 0.3, 1.0); }  // additive: dense regions glow
)";

class Particles : public PipelineDemo {
public:
    explicit Particles(xfb::Device& device) : device_(device) {
#ifdef __EMSCRIPTEN__
        count_ = 200'000;
#else
        count_ = 1'000'000;
#endif
        build();
    }
    ~Particles() override { glDeleteVertexArrays(1, &vao_); }

    void step(const Frame& f) override {
        program_->setUniform("dt", f.dt / float(substeps_)); // k substeps per frame, fused into one pass
        program_->setUniform("time", f.time);
        program_->setUniform("gravity", glm::vec3(0.0f, -gravity_, 0.0f));
        program_->setUniform("spread", spread_);
        pipeline_->step(substeps_);
    }

    void render(const Frame& f) override {
        // A step swaps the GL buffers under the state handles: point the VAO at the latest again.
        if (state_[0]->generation() != boundGeneration_) bindState();
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glUniform1f(render_["pointSize"], pointSize_);
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        glBindVertexArray(vao_);
        glDrawArrays(GL_POINTS, 0, GLsizei(count_));
        glBindVertexArray(0);
        glDisable(GL_BLEND);
    }

    void panel() override {
        ImGui::SliderFloat("gravity", &gravity_, 0.0f, 20.0f);
        ImGui::SliderFloat("spread", &spread_, 0.0f, 3.0f);
        ImGui::SliderFloat("point size", &pointSize_, 1.0f, 4.0f);
        ImGui::SliderInt("substeps", &substeps_, 1, 16);
        if (substeps_ > 1)
            ImGui::TextWrapped("%s", pipeline_->fusion().fused ? "fused: one pass per frame"
                                                               : pipeline_->fusion().reason.c_str());
        const char* modes[] = {"interleaved (one buffer)", "separate (buffer per varying)"};
        int mode = separate_;
        if (ImGui::Combo("mode", &mode, modes, 2)) {
            separate_ = mode == 1;
            build();
        }
    }

    xfb::Pipeline& pipeline() override { return *pipeline_; }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return count_; }
    std::int64_t maxCount() const override { return 4'000'000; }
    void setCount(std::int64_t n) override {
        count_ = n;
        build();
    }
    float cameraDistance() const override { return 7.0f; }

private:
    void build() {
        pipeline_.reset();
        state_[0].reset(), state_[1].reset(), scratch_[0].reset(), scratch_[1].reset();
        std::vector<float> data(std::size_t(count_) * 8);
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        for (std::size_t e = 0; e < std::size_t(count_); ++e) {
            data[e * 8 + 1] = -1.0f;
            data[e * 8 + 3] = 4.0f * u(rng); // staggered first respawns
            data[e * 8 + 7] = u(rng);
        }
        program_.emplace(device_,
                         xfb::ProgramDesc{kSimulation,
                                          {separate_ ? xfb::CaptureMode::Separate : xfb::CaptureMode::Interleaved},
                                          {},
                                          "particles"});
        std::vector<xfb::Entry> entries;
        if (!separate_) {
            auto format = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}});
            state_[0].emplace(device_, format, count_, std::span<const float>(data));
            scratch_[0].emplace(device_, format, count_);
            entries = {{&*state_[0], &*scratch_[0]}};
        } else {
            std::vector<float> pos(std::size_t(count_) * 4), vel(pos.size());
            for (std::size_t e = 0; e < std::size_t(count_); ++e)
                for (int i = 0; i < 4; ++i)
                    pos[e * 4 + std::size_t(i)] = data[e * 8 + std::size_t(i)],
                                vel[e * 4 + std::size_t(i)] = data[e * 8 + 4 + std::size_t(i)];
            for (int k = 0; k < 2; ++k) {
                auto format = xfb::VertexFormat::interleaved({{xfb::attr(k)}});
                state_[k].emplace(device_, format, count_, std::span<const float>(k ? vel : pos));
                scratch_[k].emplace(device_, format, count_);
            }
            entries = {{&*state_[0], &*scratch_[0]}, {&*state_[1], &*scratch_[1]}};
        }
        pipeline_.emplace(device_, *program_, entries);
        if (!vao_) glGenVertexArrays(1, &vao_);
        bindState();
    }

    // Position at location 0, velocity at 1: fields of one interleaved buffer or one buffer each.
    void bindState() {
        glBindVertexArray(vao_);
        for (int a = 0; a < 2; ++a) (separate_ ? *state_[a] : *state_[0]).bindAsVertexInput(GLuint(a), xfb::attr(a));
        glBindVertexArray(0);
        boundGeneration_ = state_[0]->generation();
    }

    xfb::Device& device_;
    std::int64_t count_;
    bool separate_ = false;
    int substeps_ = 1;
    float gravity_ = 4.0f, spread_ = 1.2f, pointSize_ = 1.5f;
    std::optional<xfb::Program> program_;
    std::optional<xfb::Buffer> state_[2], scratch_[2];
    std::optional<xfb::Pipeline> pipeline_;
    RenderProgram render_{kRenderVertex, kRenderFragment};
    GLuint vao_ = 0;
    std::uint64_t boundGeneration_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeParticles(xfb::Device& d) { return std::make_unique<Particles>(d); }

} // namespace demos
