// Flock, separate mode with all three roles: position and velocity are state (one buffer each),
// max speed and a seed are per-boid constants ({input}), and two write-only buffers ({output})
// hold exactly what the instanced draw of cones needs. The render pass never binds the
// simulation buffers. Neighbours are sampled: each boid looks at 12 others per step, read from a
// copy of the state in textures (GPU to GPU).
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <cmath>
#include <random>
#include <string>

namespace demos {
namespace {

const std::string kSimulation = std::string(R"(#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;     // ATTR0: xyz
in vec4 velocity;     // ATTR1: xyz
in vec2 constants;    // ATTR2: max speed, seed
uniform sampler2D positions, velocities;
uniform int count;
uniform float dt, time, separation, alignment, cohesion;
uniform vec3 target;
out vec4 out_position;
out vec4 out_velocity;
out vec4 out_instance_position;   // xyz + size, for the draw
out vec4 out_instance_direction;  // unit heading + speed, for the draw
)") + kFetchGlsl + R"(
uint hash(uint x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }

void main() {
    vec3 p = position.xyz, v = velocity.xyz;
    vec3 sep = vec3(0.0), ali = vec3(0.0), coh = vec3(0.0);
    float seen = 0.0;
    uint h = hash(uint(gl_VertexID) * 9781u + uint(time * 60.0));
    for (int k = 0; k < 12; ++k) {
        h = hash(h);
        int j = int(h % uint(count));
        if (j == gl_VertexID) continue;
        vec3 q = fetchElement(positions, j).xyz, d = p - q;
        float dist = length(d);
        if (dist > 0.6) continue;
        sep += d / max(dist * dist, 1e-3);
        ali += fetchElement(velocities, j).xyz;
        coh += q;
        seen += 1.0;
    }
    vec3 steer = (target - p) * 0.6;
    if (seen > 0.0) steer += separation * 0.02 * sep + alignment * (ali / seen - v) + cohesion * (coh / seen - p);
    v += steer * dt;
    float speed = length(v), maxSpeed = constants.x;
    if (speed > maxSpeed) v *= maxSpeed / speed;
    p += v * dt;
    out_position = vec4(p, 1.0);
    out_velocity = vec4(v, 0.0);
    out_instance_position = vec4(p, 0.5 + 0.5 * fract(constants.y * 7.0));
    out_instance_direction = vec4(v / max(length(v), 1e-4), length(v));
})";

const char* kConeVertex = R"(#version 300 es
layout(location = 0) in vec3 vertex;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 instancePosition;
layout(location = 3) in vec4 instanceDirection;
uniform mat4 viewProjection;
out vec3 shade;
void main() {
    vec3 f = instanceDirection.xyz;
    vec3 r = normalize(cross(abs(f.y) > 0.95 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0), f));
    vec3 u = cross(f, r);
    mat3 basis = mat3(r, u, f);
    float s = 0.035 * instancePosition.w;
    gl_Position = viewProjection * vec4(instancePosition.xyz + basis * (vertex * s), 1.0);
    float light = 0.35 + 0.65 * max(dot(basis * normal, normalize(vec3(0.4, 1.0, 0.3))), 0.0);
    shade = mix(vec3(0.95, 0.55, 0.2), vec3(0.3, 0.75, 1.0), clamp(instanceDirection.w / 2.0, 0.0, 1.0)) * light;
})";

const char* kConeFragment = R"(#version 300 es
precision mediump float;
in vec3 shade;
out vec4 colour;
void main() { colour = vec4(shade, 1.0); }
)";

class Flock : public PipelineDemo {
public:
    explicit Flock(xfb::Device& device) : device_(device) {
        makeCone();
        build();
    }
    ~Flock() override {
        glDeleteVertexArrays(1, &vao_);
        glDeleteBuffers(1, &cone_);
    }

    void step(const Frame& f) override {
        positions_.update(*state_[0]);
        velocities_.update(*state_[1]);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, positions_.texture());
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, velocities_.texture());
        program_->setUniform("dt", f.dt);
        program_->setUniform("time", f.time);
        program_->setUniform("separation", separation_);
        program_->setUniform("alignment", alignment_);
        program_->setUniform("cohesion", cohesion_);
        program_->setUniform("target", glm::vec3(std::sin(f.time * 0.7f) * 1.2f, std::sin(f.time * 1.3f) * 0.5f,
                                                 std::cos(f.time * 0.5f) * 1.2f));
        pipeline_->step();
        glBindTexture(GL_TEXTURE_2D, 0);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, 0);
    }

    void render(const Frame& f) override {
        glEnable(GL_DEPTH_TEST);
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glBindVertexArray(vao_);
        glDrawArraysInstanced(GL_TRIANGLES, 0, coneVertices_, GLsizei(count_));
        glBindVertexArray(0);
        glDisable(GL_DEPTH_TEST);
    }

    void panel() override {
        ImGui::SliderFloat("separation", &separation_, 0.0f, 3.0f);
        ImGui::SliderFloat("alignment", &alignment_, 0.0f, 3.0f);
        ImGui::SliderFloat("cohesion", &cohesion_, 0.0f, 3.0f);
        ImGui::TextWrapped("state: position, velocity; constants: max speed, seed; write-only: instance position, "
                           "direction (4 separate buffers, 4 components each)");
    }

    xfb::Pipeline& pipeline() override { return *pipeline_; }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return count_; }
    std::int64_t maxCount() const override { return 262'144; }
    void setCount(std::int64_t n) override {
        count_ = n;
        build();
    }
    float cameraDistance() const override { return 4.5f; }

private:
    void makeCone() {
        std::vector<float> v; // position, normal per vertex; 8 sides plus the base
        const int sides = 8;
        for (int i = 0; i < sides; ++i) {
            float a0 = 6.2831853f * float(i) / sides, a1 = 6.2831853f * float(i + 1) / sides;
            glm::vec3 tip(0, 0, 2), b0(std::cos(a0), std::sin(a0), 0), b1(std::cos(a1), std::sin(a1), 0);
            glm::vec3 n = glm::normalize(glm::cross(b1 - tip, b0 - tip));
            for (auto p : {tip, b1, b0}) v.insert(v.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
            for (auto p : {glm::vec3(0), b0, b1}) v.insert(v.end(), {p.x, p.y, p.z, 0, 0, -1});
        }
        coneVertices_ = GLsizei(v.size() / 6);
        glGenBuffers(1, &cone_);
        glBindBuffer(GL_ARRAY_BUFFER, cone_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(v.size() * 4), v.data(), GL_STATIC_DRAW);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    void build() {
        pipeline_.reset();
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        std::vector<float> pos(std::size_t(count_) * 4), vel(pos.size()), constants(std::size_t(count_) * 2);
        for (std::size_t e = 0; e < std::size_t(count_); ++e) {
            for (int i = 0; i < 3; ++i)
                pos[e * 4 + std::size_t(i)] = 1.5f * u(rng), vel[e * 4 + std::size_t(i)] = 0.3f * u(rng);
            constants[e * 2] = 1.2f + 0.4f * u(rng);
            constants[e * 2 + 1] = 0.5f + 0.5f * u(rng);
        }
        program_.emplace(device_, xfb::ProgramDesc{kSimulation, {xfb::CaptureMode::Separate}, {}, "flock"});
        for (int k = 0; k < 2; ++k) {
            auto f = xfb::VertexFormat::interleaved({{xfb::attr(k)}});
            state_[k].emplace(device_, f, count_, std::span<const float>(k ? vel : pos));
            next_[k].emplace(device_, f, count_);
            // The draw's own semantics (ATTR12, ATTR13): these buffers only ever feed it.
            instances_[k].emplace(device_, xfb::VertexFormat::interleaved({{xfb::attr(12 + k)}}), count_);
        }
        constants_.emplace(device_, xfb::VertexFormat::interleaved({{xfb::attr(2), xfb::ComponentType::Float32, 2}}),
                           count_, std::span<const float>(constants));
        pipeline_.emplace(device_, *program_,
                          std::vector<xfb::Entry>{{&*state_[0], &*next_[0]},
                                                  {&*state_[1], &*next_[1]},
                                                  {&*constants_, nullptr},
                                                  {nullptr, &*instances_[0]},
                                                  {nullptr, &*instances_[1]}});
        program_->setUniform("positions", 0);
        program_->setUniform("velocities", 1);
        program_->setUniform("count", int(count_));

        if (!vao_) glGenVertexArrays(1, &vao_);
        glBindVertexArray(vao_);
        glBindBuffer(GL_ARRAY_BUFFER, cone_);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, nullptr);
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, reinterpret_cast<const void*>(12));
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        for (int k = 0; k < 2; ++k) { // write-only outputs never swap (their generation stays): bound once
            instances_[k]->bindAsVertexInput(GLuint(2 + k), xfb::attr(12 + k));
            glVertexAttribDivisor(GLuint(2 + k), 1);
        }
        glBindVertexArray(0);
    }

    xfb::Device& device_;
    std::int64_t count_ = 16'384;
    float separation_ = 1.0f, alignment_ = 0.8f, cohesion_ = 0.6f;
    std::optional<xfb::Program> program_;
    std::optional<xfb::Buffer> state_[2], next_[2], instances_[2], constants_;
    std::optional<xfb::Pipeline> pipeline_;
    BufferTexture positions_, velocities_;
    RenderProgram render_{kConeVertex, kConeFragment};
    GLuint vao_ = 0, cone_ = 0;
    GLsizei coneVertices_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeFlock(xfb::Device& d) { return std::make_unique<Flock>(d); }

} // namespace demos
