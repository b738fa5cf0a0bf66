// Cloth: Verlet integration on a vertex grid. Current and previous positions are state; the
// rest length and the pin flag are per-vertex constants. Each substep integrates gravity and
// wind and relaxes the distance constraints to the 4 grid neighbours (Jacobi style: neighbours
// come from a texture copy of the positions before the pass). Drawn as a shaded mesh with an
// index buffer; normals from the neighbours in the same texture.
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <cmath>
#include <string>

namespace demos {
namespace {

const std::string kSimulation = std::string(R"(#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;   // ATTR0: xyz
in vec4 previous;   // ATTR1: xyz one substep ago
in vec2 constants;  // ATTR2: rest length, pinned (1) or free (0)
uniform sampler2D positions;
uniform int width, height;
uniform float dt, stiffness;
uniform vec3 wind;
out vec4 out_position;
out vec4 out_previous;
)") + kFetchGlsl + R"(
vec3 pull(vec3 p, int x, int y, float rest) {
    if (x < 0 || y < 0 || x >= width || y >= height) return vec3(0.0);
    vec3 q = fetchElement(positions, y * width + x).xyz, d = q - p;
    float len = length(d);
    return len > 1e-6 ? d * (0.5 * (len - rest) / len) : vec3(0.0);
}

void main() {
    vec3 p = position.xyz;
    if (constants.y > 0.5) { out_position = position; out_previous = position; return; }
    int x = gl_VertexID % width, y = gl_VertexID / width;
    vec3 next = p + (p - previous.xyz) * 0.995 + (vec3(0.0, -9.81, 0.0) + wind) * dt * dt;
    vec3 c = pull(p, x - 1, y, constants.x) + pull(p, x + 1, y, constants.x) + pull(p, x, y - 1, constants.x) + pull(p, x, y + 1, constants.x);
    out_position = vec4(next + stiffness * c, 1.0);
    out_previous = vec4(p, 1.0);
})";

const std::string kMeshVertex = std::string(R"(#version 300 es
precision highp float;
precision highp sampler2D;
uniform sampler2D positions;
uniform int width, height;
uniform mat4 viewProjection;
out vec3 normal;
out vec2 uv;
)") + kFetchGlsl + R"(
vec3 at(int x, int y) { return fetchElement(positions, clamp(y, 0, height - 1) * width + clamp(x, 0, width - 1)).xyz; }
void main() {
    int x = gl_VertexID % width, y = gl_VertexID / width;
    vec3 p = at(x, y);
    normal = normalize(cross(at(x + 1, y) - at(x - 1, y), at(x, y + 1) - at(x, y - 1)));
    uv = vec2(x, y) / vec2(width - 1, height - 1);
    gl_Position = viewProjection * vec4(p, 1.0);
})";

const char* kMeshFragment = R"(#version 300 es
precision mediump float;
in vec3 normal;
in vec2 uv;
out vec4 colour;
void main() {
    vec3 n = normalize(gl_FrontFacing ? normal : -normal);
    float light = 0.2 + 0.8 * max(dot(n, normalize(vec3(0.8, 0.45, 0.35))), 0.0);  // grazing light shows the folds
    float check = mod(floor(uv.x * 12.0) + floor(uv.y * 8.0), 2.0);
    colour = vec4(mix(vec3(0.85, 0.2, 0.25), vec3(0.95, 0.9, 0.8), check) * light * (1.0 - 0.35 * uv.y), 1.0);
}
)";

class Cloth : public PipelineDemo {
public:
    explicit Cloth(xfb::Device& device) : device_(device) { build(); }
    ~Cloth() override {
        glDeleteBuffers(1, &indices_);
        glDeleteVertexArrays(1, &vao_);
    }

    void step(const Frame& f) override {
        float t = f.time;
        program_->setUniform("wind", glm::vec3(windStrength_ * (0.6f + 0.4f * std::sin(t * 1.7f)), 0.0f,
                                               windStrength_ * 0.8f * std::sin(t * 0.9f)));
        program_->setUniform("dt", f.dt / float(substeps_));
        program_->setUniform("stiffness", stiffness_);
        glActiveTexture(GL_TEXTURE0);
        for (int s = 0; s < substeps_; ++s) {
            positions_.update(*state_[0]);
            glBindTexture(GL_TEXTURE_2D, positions_.texture());
            pipeline_->step();
        }
        positions_.update(*state_[0]); // for the draw
        glBindTexture(GL_TEXTURE_2D, 0);
    }

    void render(const Frame& f) override {
        glEnable(GL_DEPTH_TEST);
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glUniform1i(render_["width"], width_);
        glUniform1i(render_["height"], height_);
        glUniform1i(render_["positions"], 0);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, positions_.texture());
        glBindVertexArray(vao_); // no attributes: the vertex shader reads the texture; indices from the VAO
        glDrawElements(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr);
        glBindVertexArray(0);
        glBindTexture(GL_TEXTURE_2D, 0);
        glDisable(GL_DEPTH_TEST);
    }

    void panel() override {
        ImGui::SliderFloat("wind", &windStrength_, 0.0f, 20.0f);
        ImGui::SliderFloat("stiffness", &stiffness_, 0.1f, 1.0f);
        ImGui::SliderInt("substeps", &substeps_, 1, 32);
        ImGui::Text("grid %d x %d, %d triangles", width_, height_, indexCount_ / 3);
        if (ImGui::Button("drop it again")) build();
    }

    xfb::Pipeline& pipeline() override { return *pipeline_; }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return std::int64_t(width_) * height_; }
    std::int64_t maxCount() const override { return 256 * 192; }
    void setCount(std::int64_t n) override {
        width_ = std::max(8, int(std::sqrt(double(n) * 4.0 / 3.0)));
        height_ = std::max(6, int(n / width_));
        build();
    }
    float cameraDistance() const override { return 3.2f; }

private:
    void build() {
        pipeline_.reset();
        const float size = 2.0f, rest = size / float(width_ - 1);
        std::vector<float> pos(std::size_t(width_) * std::size_t(height_) * 4),
            constants(std::size_t(width_) * std::size_t(height_) * 2);
        for (int y = 0; y < height_; ++y)
            for (int x = 0; x < width_; ++x) {
                std::size_t i = std::size_t(y * width_ + x);
                pos[i * 4 + 0] = -size / 2 + float(x) * rest;
                pos[i * 4 + 1] = 1.0f;
                pos[i * 4 + 2] = -float(y) * rest; // horizontal at first: it falls and swings
                pos[i * 4 + 3] = 1.0f;
                constants[i * 2] = rest;
                constants[i * 2 + 1] =
                    (y == 0 && (x % 8 == 0 || x == width_ - 1)) ? 1.0f : 0.0f; // pinned along the top edge
            }
        program_.emplace(device_, xfb::ProgramDesc{kSimulation, {xfb::CaptureMode::Separate}, {}, "cloth"});
        const auto n = std::int64_t(width_) * height_;
        for (int k = 0; k < 2; ++k) {
            auto f = xfb::VertexFormat::interleaved({{xfb::attr(k)}});
            state_[k].emplace(device_, f, n, std::span<const float>(pos));
            next_[k].emplace(device_, f, n);
        }
        constants_.emplace(device_, xfb::VertexFormat::interleaved({{xfb::attr(2), xfb::ComponentType::Float32, 2}}), n,
                           std::span<const float>(constants));
        pipeline_.emplace(
            device_, *program_,
            std::vector<xfb::Entry>{{&*state_[0], &*next_[0]}, {&*state_[1], &*next_[1]}, {&*constants_, nullptr}});
        program_->setUniform("positions", 0);
        program_->setUniform("width", width_);
        program_->setUniform("height", height_);
        positions_.update(*state_[0]);

        std::vector<std::uint32_t> idx;
        for (int y = 0; y + 1 < height_; ++y)
            for (int x = 0; x + 1 < width_; ++x) {
                std::uint32_t a = std::uint32_t(y * width_ + x), b = a + 1, c = a + std::uint32_t(width_), d = c + 1;
                idx.insert(idx.end(), {a, c, b, b, c, d});
            }
        indexCount_ = GLsizei(idx.size());
        if (!vao_) glGenVertexArrays(1, &vao_);
        if (!indices_) glGenBuffers(1, &indices_);
        glBindVertexArray(vao_);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices_);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(idx.size() * 4), idx.data(), GL_STATIC_DRAW);
        glBindVertexArray(0);
    }

    xfb::Device& device_;
    int width_ = 96, height_ = 64, substeps_ = 12;
    float windStrength_ = 6.0f, stiffness_ = 0.9f;
    GLsizei indexCount_ = 0;
    std::optional<xfb::Program> program_;
    std::optional<xfb::Buffer> state_[2], next_[2], constants_;
    std::optional<xfb::Pipeline> pipeline_;
    BufferTexture positions_;
    RenderProgram render_{kMeshVertex.c_str(), kMeshFragment};
    GLuint vao_ = 0, indices_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeCloth(xfb::Device& d) { return std::make_unique<Cloth>(d); }

} // namespace demos
