// Trails: every emitter keeps a ring of its last H positions; each step writes the new position
// at the ring's head and keeps the rest (state, one vec4 per slot). Drawn as ribbons: one
// instanced quad per segment, reading two consecutive slots from the same buffer (attribute
// offsets 0 and 16), facing the camera, fading with age.
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

namespace demos {
namespace {

const char* kSimulation = R"(#version 300 es
precision highp float;
in vec4 slot;            // ATTR0: xyz, w = emitter phase
uniform int history;     // slots per emitter
uniform int head;        // the slot written this step
uniform float time;
out vec4 out_slot;

vec3 emitter(float phase, float t) {  // a different Lissajous knot per emitter
    float a = 1.0 + floor(phase * 3.0), b = 2.0 + floor(fract(phase * 7.0) * 3.0);
    return vec3(sin(a * t + phase * 6.28), 0.7 * sin(b * t + phase * 3.1), cos((a + 1.0) * t * 0.5 + phase * 9.0)) * (0.8 + 0.6 * phase);
}

void main() {
    if (gl_VertexID % history == head) out_slot = vec4(emitter(slot.w, time * 0.8), slot.w);
    else out_slot = slot;
})";

const char* kRibbonVertex = R"(#version 300 es
layout(location = 0) in vec4 a;   // slot k
layout(location = 1) in vec4 b;   // slot k + 1
uniform mat4 viewProjection;
uniform vec3 eye;
uniform int history, head;
uniform float width;
out float fade;
out vec3 tint;
void main() {
    int k = gl_InstanceID, slotA = k % history;
    // Skip the segment across the ring's break and the one joining two emitters.
    bool skip = slotA == history - 1 || slotA == head;
    float age = float((head - slotA + history) % history) / float(history);
    int corner = gl_VertexID;  // two triangles: 0 1 2, 2 1 3
    int c = corner < 3 ? corner : (corner == 3 ? 2 : (corner == 4 ? 1 : 3));
    vec3 p = (c < 2 ? a : b).xyz;
    vec3 side = normalize(cross(b.xyz - a.xyz + vec3(1e-5), eye - p));
    float w = width * (1.0 - age);
    gl_Position = skip ? vec4(2.0, 2.0, 2.0, 1.0) : viewProjection * vec4(p + side * w * ((c % 2 == 0) ? -1.0 : 1.0), 1.0);
    fade = 1.0 - age;
    tint = 0.5 + 0.5 * cos(6.28 * (a.w + vec3(0.0, 0.33, 0.67)));
})";

const char* kRibbonFragment = R"(#version 300 es
precision mediump float;
in float fade;
in vec3 tint;
out vec4 colour;
void main() { colour = vec4(tint * fade, 1.0); }
)";

class Trails : public PipelineDemo {
public:
    explicit Trails(xfb::Device& device) : device_(device) { build(); }
    ~Trails() override { glDeleteVertexArrays(1, &vao_); }

    void step(const Frame& f) override {
        head_ = (head_ + 1) % history_;
        program_->setUniform("head", head_);
        program_->setUniform("time", f.time);
        pipeline_->step();
    }

    void render(const Frame& f) override {
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glUniform3fv(render_["eye"], 1, glm::value_ptr(f.eye));
        glUniform1i(render_["history"], history_);
        glUniform1i(render_["head"], head_);
        glUniform1f(render_["width"], width_);
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
        // A step swaps the GL buffers under the state handle: point the VAO at the latest again.
        if (state_->generation() != boundGeneration_) bindState();
        glBindVertexArray(vao_);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 6, GLsizei(count() - 1));
        glBindVertexArray(0);
        glDisable(GL_BLEND);
    }

    void panel() override {
        ImGui::Text("%d emitters x %d slots", emitters_, history_);
        ImGui::SliderFloat("ribbon width", &width_, 0.002f, 0.05f);
        ImGui::SliderInt("history", &history_, 8, 256);
        if (ImGui::IsItemDeactivatedAfterEdit()) build();
    }

    xfb::Pipeline& pipeline() override { return *pipeline_; }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return std::int64_t(emitters_) * history_; }
    std::int64_t maxCount() const override { return 4096 * 128; }
    void setCount(std::int64_t n) override {
        emitters_ = std::max(1, int(n / history_));
        build();
    }

private:
    void build() {
        pipeline_.reset();
        head_ = 0;
        std::vector<float> slots(std::size_t(count()) * 4);
        for (int e = 0; e < emitters_; ++e)
            for (int k = 0; k < history_; ++k)
                slots[std::size_t(e * history_ + k) * 4 + 3] = float(e) / float(emitters_);
        program_.emplace(device_, xfb::ProgramDesc{kSimulation, {}, {}, "trails"});
        auto f = xfb::VertexFormat::interleaved({{xfb::attr(0)}});
        state_.emplace(device_, f, count(), std::span<const float>(slots));
        next_.emplace(device_, f, count());
        pipeline_.emplace(device_, *program_, std::vector<xfb::Entry>{{&*state_, &*next_}});
        program_->setUniform("history", history_);
        // Warm the rings up so the first frame already shows whole trails.
        for (int s = 0; s < history_; ++s) step(Frame{1.0f / 60.0f, float(s - history_) / 60.0f});
        if (!vao_) glGenVertexArrays(1, &vao_);
        bindState();
    }

    // One ribbon segment per instance: location 0 reads slot i, location 1 slot i + 1.
    void bindState() {
        glBindVertexArray(vao_);
        for (int a = 0; a < 2; ++a) {
            state_->bindAsVertexInput(GLuint(a), xfb::attr(0), a);
            glVertexAttribDivisor(GLuint(a), 1);
        }
        glBindVertexArray(0);
        boundGeneration_ = state_->generation();
    }

    xfb::Device& device_;
    int emitters_ = 512, history_ = 96, head_ = 0;
    float width_ = 0.012f;
    std::optional<xfb::Program> program_;
    std::optional<xfb::Buffer> state_, next_;
    std::optional<xfb::Pipeline> pipeline_;
    RenderProgram render_{kRibbonVertex, kRibbonFragment};
    GLuint vao_ = 0;
    std::uint64_t boundGeneration_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeTrails(xfb::Device& d) { return std::make_unique<Trails>(d); }

} // namespace demos
