// Skinning cache (Direct3D's stream-output practice): the mesh's vertices are skinned once per
// frame in a POINTS pass, 1:1 with the vertex buffer, into a write-only buffer; the result is
// then drawn several times (three instances and their shadows) with the original index buffer.
// The "captured" variant captures the indexed triangles instead (xfb::PrimitiveCapture: one
// record per index) as three submeshes appended into one buffer (captureSession: base, sleeve,
// tip; the sleeve skinned by a second program with the same record layout) and draws each part
// with its own material (drawSession(part)), without an index buffer or a CPU count.
#include "app/demo.hpp"
#include "app/render.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <cmath>

namespace demos {
namespace {

const char* kSkin = R"(#version 300 es
precision highp float;
in vec4 position;   // ATTR0: bind pose
in vec4 normal;     // ATTR1
in vec4 weights;    // ATTR2: for bones 0..3
uniform mat4 bones[4];
out vec4 out_position;
out vec4 out_normal;
void main() {
    mat4 m = bones[0] * weights.x + bones[1] * weights.y + bones[2] * weights.z + bones[3] * weights.w;
    out_position = m * vec4(position.xyz, 1.0);
    out_normal = vec4(normalize(mat3(m) * normal.xyz), 0.0);
})";

// The sleeve: the same skinning, pushed out along the normal (a second program, same records).
const char* kSkinSleeve = R"(#version 300 es
precision highp float;
in vec4 position;
in vec4 normal;
in vec4 weights;
uniform mat4 bones[4];
out vec4 out_position;
out vec4 out_normal;
void main() {
    mat4 m = bones[0] * weights.x + bones[1] * weights.y + bones[2] * weights.z + bones[3] * weights.w;
    out_position = m * vec4(position.xyz + normal.xyz * 0.05, 1.0);
    out_normal = vec4(normalize(mat3(m) * normal.xyz), 0.0);
})";

const char* kDrawVertex = R"(#version 300 es
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 normal;
uniform mat4 viewProjection;
uniform float shadow;
out vec3 n;
out float isShadow;
void main() {
    vec3 p = position.xyz + vec3(float(gl_InstanceID - 1) * 1.4, 0.0, 0.0);
    if (shadow > 0.5) p = vec3(p.x + 0.4 * (p.y + 1.0), -1.0, p.z - 0.3 * (p.y + 1.0));  // flattened onto the floor
    gl_Position = viewProjection * vec4(p, 1.0);
    n = normal.xyz;
    isShadow = shadow;
})";

const char* kDrawFragment = R"(#version 300 es
precision mediump float;
in vec3 n;
in float isShadow;
uniform vec3 material;
out vec4 colour;
void main() {
    float light = 0.3 + 0.7 * max(dot(normalize(n), normalize(vec3(0.4, 0.9, 0.5))), 0.0);
    colour = isShadow > 0.5 ? vec4(0.06, 0.07, 0.09, 1.0) : vec4(material * light, 1.0);
}
)";

class Skinning : public Demo {
public:
    explicit Skinning(xfb::Device& device) : device_(device) { build(); }
    ~Skinning() override {
        glDeleteBuffers(1, &indices_);
        glDeleteVertexArrays(1, &vao_);
        glDeleteVertexArrays(1, &capturedVao_);
    }

    void step(const Frame& f) override {
        // Four bones along the tube, each bending a little more: a swaying tentacle.
        glm::mat4 bones[4];
        glm::mat4 parent(1.0f);
        for (int b = 0; b < 4; ++b) {
            float angle = 0.45f * std::sin(f.time * 1.6f + float(b) * 0.7f);
            glm::mat4 local = glm::translate(glm::mat4(1.0f), glm::vec3(0, b == 0 ? -1.0f : 0.5f, 0)) *
                              glm::rotate(glm::mat4(1.0f), angle, glm::vec3(0, 0, 1));
            parent = parent * local;
            // Skinning matrix = pose * inverse(bind pose); the bind pose is a translation to the bone's base.
            bones[b] = parent * glm::translate(glm::mat4(1.0f), glm::vec3(0, 1.0f - 0.5f * float(b), 0));
        }
        for (auto* p : {&*program_, &*sleeveProgram_})
            p->setUniform("bones", xfb::ScalarKind::Float, std::as_bytes(std::span<const glm::mat4>(bones, 4)));
        if (captured_)
            capture_->captureSession(submeshes_);
        else
            pipeline_->step();
    }

    void render(const Frame& f) override {
        glEnable(GL_DEPTH_TEST);
        render_.use();
        glUniformMatrix4fv(render_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
        glBindVertexArray(captured_ ? capturedVao_ : vao_);
        for (float shadow : {1.0f, 0.0f}) { // the same skinned vertices, drawn six times
            glUniform1f(render_["shadow"], shadow);
            if (!captured_) {
                glUniform3f(render_["material"], 0.45f, 0.8f, 0.55f);
                glDrawElementsInstanced(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr, 3);
                continue;
            }
            for (std::size_t part = 0; part < submeshes_.size(); ++part) { // each submesh with its material
                const auto& m = kMaterials[part];
                glUniform3f(render_["material"], m[0], m[1], m[2]);
                capture_->drawSession(part, xfb::DrawMode::Triangles, 3);
            }
        }
        glBindVertexArray(0);
        glDisable(GL_DEPTH_TEST);
    }

    void panel() override {
        int variant = captured_ ? 1 : 0;
        ImGui::RadioButton("cache vertices (POINTS) + index buffer", &variant, 0);
        ImGui::RadioButton("capture 3 submeshes into one buffer + drawSession", &variant, 1);
        captured_ = variant == 1;
        ImGui::Text("skinned per frame, POINTS pass: %lld vertices", (long long)count());
        ImGui::Text("captured triangles: %d records (%.1fx), %s expansion", indexCount_,
                    double(indexCount_) / double(count()),
                    std::string(xfb::expansionName(capture_->expansion())).c_str());
        for (const auto& r : capture_->lastSession().parts)
            ImGui::Text("  part at record %lld: %lld records", (long long)r.firstRecord, (long long)r.records);
        ImGui::Text("draws of the skinned result: 6 (3 instances + shadows)");
    }

    std::vector<std::string> variants() const override { return {"cache", "captured"}; }
    bool setVariant(const std::string& v) override {
        if (v != "cache" && v != "captured") return false;
        captured_ = v == "captured";
        return true;
    }

    xfb::Pipeline& pipeline() override { return *pipeline_; }
    const xfb::Program& program() override { return *program_; }
    std::int64_t count() const override { return std::int64_t(rings_) * sides_; }
    std::int64_t maxCount() const override { return 2048 * 64; }
    void setCount(std::int64_t n) override {
        rings_ = std::max(4, int(n / sides_));
        build();
    }
    float cameraDistance() const override { return 5.0f; }

private:
    void build() {
        pipeline_.reset();
        capture_.reset();
        std::vector<float> pos, nrm, wts;
        std::vector<std::uint32_t> idx;
        for (int r = 0; r < rings_; ++r) {
            float y = -1.0f + 2.0f * float(r) / float(rings_ - 1),
                  radius = 0.22f * (1.0f - 0.6f * float(r) / float(rings_));
            float bone = (y + 1.0f) / 0.5f; // 0..4 along the tube
            float w[4] = {0, 0, 0, 0};
            int b0 = std::min(int(bone), 3), b1 = std::min(b0 + 1, 3);
            float t = std::clamp(bone - float(b0), 0.0f, 1.0f);
            w[b0] += 1.0f - t;
            w[b1] += t;
            for (int s = 0; s < sides_; ++s) {
                float a = 6.2831853f * float(s) / float(sides_);
                pos.insert(pos.end(), {radius * std::cos(a), y, radius * std::sin(a), 1});
                nrm.insert(nrm.end(), {std::cos(a), 0, std::sin(a), 0});
                wts.insert(wts.end(), {w[0], w[1], w[2], w[3]});
                if (r + 1 < rings_) {
                    auto i = std::uint32_t(r * sides_ + s), j = std::uint32_t(r * sides_ + (s + 1) % sides_);
                    idx.insert(idx.end(), {i, i + std::uint32_t(sides_), j, j, i + std::uint32_t(sides_),
                                           j + std::uint32_t(sides_)});
                }
            }
        }
        indexCount_ = GLsizei(idx.size());
        program_.emplace(device_, xfb::ProgramDesc{kSkin, {}, {}, "skinning"});
        const auto n = count();
        for (int k = 0; k < 3; ++k)
            mesh_[k].emplace(device_, xfb::VertexFormat::interleaved({{xfb::attr(k)}}), n,
                             std::span<const float>(k == 0   ? pos
                                                    : k == 1 ? nrm
                                                             : wts));
        skinned_.emplace(device_, program_->capture().buffers[0].asVertexFormat(), n);
        pipeline_.emplace(
            device_, *program_,
            std::vector<xfb::Entry>{
                {&*mesh_[0], nullptr}, {&*mesh_[1], nullptr}, {&*mesh_[2], nullptr}, {nullptr, &*skinned_}});
        // Three submeshes by ring: base, sleeve (its own program), tip.
        sleeveProgram_.emplace(device_, xfb::ProgramDesc{kSkinSleeve, {}, {}, "skinning sleeve"});
        const std::size_t perRing = std::size_t(sides_) * 6, rings = idx.size() / perRing;
        const std::size_t cut[4] = {0, rings / 3 * perRing, 2 * rings / 3 * perRing, idx.size()};
        submeshes_.clear();
        for (int part = 0; part < 3; ++part)
            submeshes_.push_back({{xfb::DrawMode::Triangles, 0,
                                   std::vector<std::uint32_t>(idx.begin() + std::ptrdiff_t(cut[part]),
                                                              idx.begin() + std::ptrdiff_t(cut[part + 1])),
                                   std::nullopt},
                                  part == 1 ? &*sleeveProgram_ : nullptr});
        triangleRecords_.emplace(device_, program_->capture().buffers[0].asVertexFormat(), idx.size());
        capture_.emplace(
            device_, *program_,
            std::vector<xfb::Entry>{
                {&*mesh_[0], nullptr}, {&*mesh_[1], nullptr}, {&*mesh_[2], nullptr}, {nullptr, &*triangleRecords_}});

        if (!vao_) glGenVertexArrays(1, &vao_);
        if (!indices_) glGenBuffers(1, &indices_);
        glBindVertexArray(vao_);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices_);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(idx.size() * 4), idx.data(), GL_STATIC_DRAW);
        bindSkinned(*skinned_); // write-only output: never swaps
        if (!capturedVao_) glGenVertexArrays(1, &capturedVao_);
        glBindVertexArray(capturedVao_);
        bindSkinned(*triangleRecords_);
        glBindVertexArray(0);
    }

    // Position and normal, the first two fields of the captured record layout, for the bound vertex array.
    static void bindSkinned(const xfb::Buffer& buffer) {
        for (int a = 0; a < 2; ++a) buffer.bindAsVertexInput(GLuint(a), xfb::attr(a));
    }

    xfb::Device& device_;
    int rings_ = 64, sides_ = 24;
    GLsizei indexCount_ = 0;
    static constexpr float kMaterials[3][3] = {{0.45f, 0.8f, 0.55f}, {0.9f, 0.55f, 0.25f}, {0.4f, 0.55f, 0.95f}};
    std::optional<xfb::Program> program_, sleeveProgram_;
    std::optional<xfb::Buffer> mesh_[3], skinned_, triangleRecords_;
    std::optional<xfb::Pipeline> pipeline_;
    std::optional<xfb::PrimitiveCapture> capture_;
    std::vector<xfb::CapturePart> submeshes_;
    bool captured_ = false;
    RenderProgram render_{kDrawVertex, kDrawFragment};
    GLuint vao_ = 0, capturedVao_ = 0, indices_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeSkinning(xfb::Device& d) { return std::make_unique<Skinning>(d); }

} // namespace demos
