// Skinning cache (Direct3D's stream-output practice): the mesh's vertices are skinned once per
// frame in a POINTS pass, 1:1 with the vertex buffer, into a write-only buffer; the result is
// then drawn several times (three instances and their shadows) with the original index buffer.
// The "captured" variant captures the indexed triangles instead (xfb::PrimitiveCapture: one
// record per index) as three submeshes appended into one buffer (captureSession: base, sleeve,
// tip; the sleeve skinned by a second program with the same record layout) and draws each part
// with its own material (drawSession(part)), without an index buffer or a CPU count.
// The "normals" variants (a geometry program needs desktop GL 4.0+ or compute; in the browser the
// WebGPU gallery's skinning.js runs "normals" with these shaders, extract-glsl.mjs)
// draw the cached mesh and, on top, a geometry pass over its indexed triangles (issue 27): per
// triangle a face normal from its centroid and a fin at its first corner along the skinned vertex
// normal, emitted as line strips and captured as lines (ProgramDesc::geometry), then drawn
// with drawCaptured() without reading a count. "normals" lets the engine choose who runs the
// geometry shader (Backend::Auto: the GL's geometry shader on GL 4.x, its compute translation
// where there is none); "normals-compute" forces the compute translation. Every step checks
// the capture's statistics (4 records a triangle, none dropped) and a check run counts the
// lines' pixels (checkRun()).
#include "app/demo.hpp"
#include "app/render.hpp"
#include "app/screenshot.hpp"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

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

#ifndef __EMSCRIPTEN__
// The geometry pass's vertex shader: the same skinning, handed to the geometry shader by name
// (desktop GLSL 3.30 beside the geometry shader's 4.00; desktop GL links the two versions).
const char* kSkinForGeometry = R"(#version 330 core
in vec4 position;
in vec4 normal;
in vec4 weights;
uniform mat4 bones[4];
out vec4 v_position;
out vec4 v_normal;
void main() {
    mat4 m = bones[0] * weights.x + bones[1] * weights.y + bones[2] * weights.z + bones[3] * weights.w;
    v_position = m * vec4(position.xyz, 1.0);
    v_normal = vec4(normalize(mat3(m) * normal.xyz), 0.0);
    gl_Position = v_position;
})";

// Per triangle: its face normal from the centroid (yellow), then a fin at its first corner along
// the skinned vertex normal (cyan): two line strips of 2 vertices, captured as 2 lines (4 records).
// max_vertices 4 budgets 3 lines (6 records) a triangle.
const char* kNormalsGeometry = R"(#version 400 core
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;
in vec4 v_position[];
in vec4 v_normal[];
out vec4 out_position;
out vec4 out_colour;
void main() {
    vec3 a = v_position[0].xyz, b = v_position[1].xyz, c = v_position[2].xyz;
    vec3 centre = (a + b + c) / 3.0;
    vec3 n = normalize(cross(b - a, c - a));
    out_colour = vec4(1.0, 0.9, 0.1, 1.0);
    out_position = vec4(centre, 1.0);
    EmitVertex();
    out_position = vec4(centre + n * 0.05, 1.0);
    EmitVertex();
    EndPrimitive();
    out_colour = vec4(0.1, 0.85, 1.0, 1.0);
    out_position = vec4(a, 1.0);
    EmitVertex();
    out_position = vec4(a + v_normal[0].xyz * 0.04, 1.0);
    EmitVertex();
    EndPrimitive();
})";

// Draws the captured lines beside each of the three instances of the mesh.
const char* kLineVertex = R"(#version 300 es
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 colour;
uniform mat4 viewProjection;
out vec4 c;
void main() {
    gl_Position = viewProjection * vec4(position.xyz + vec3(float(gl_InstanceID - 1) * 1.4, 0.0, 0.0), 1.0);
    c = colour;
})";

const char* kLineFragment = R"(#version 300 es
precision mediump float;
in vec4 c;
out vec4 colour;
void main() { colour = c; }
)";

// The lines' colours as read back (8 bits a channel): yellow normals, cyan fins. The mesh's lit
// materials never reach them (red and blue at most 0.95 x 255 with green at most 0.8 x 255 in
// the tentacle's green; shadows are dark).
bool isNormalPixel(const unsigned char* p) { return p[0] > 200 && p[1] > 170 && p[2] < 80; }
bool isFinPixel(const unsigned char* p) { return p[0] < 80 && p[1] > 170 && p[2] > 200; }
#endif

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

class Skinning : public PipelineDemo {
public:
    explicit Skinning(xfb::Device& device) : device_(device) { build(); }
    ~Skinning() override {
        glDeleteBuffers(1, &indices_);
        glDeleteVertexArrays(1, &vao_);
        glDeleteVertexArrays(1, &capturedVao_);
        glDeleteVertexArrays(1, &linesVao_);
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
#ifndef __EMSCRIPTEN__
        if (normals()) stepNormals(bones);
#endif
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
#ifndef __EMSCRIPTEN__
        if (normals()) { // the geometry pass's lines, beside each instance, depth-tested against the mesh
            lines_.use();
            glUniformMatrix4fv(lines_["viewProjection"], 1, GL_FALSE, glm::value_ptr(f.projection * f.view));
            glBindVertexArray(linesVao_);
            normalsCapture_->drawCaptured(xfb::DrawMode::Lines, 3); // the GPU's count: nothing read back
        }
#endif
        glBindVertexArray(0);
        glDisable(GL_DEPTH_TEST);
    }

    void panel() override {
        int variant = int(variant_);
        ImGui::RadioButton("cache vertices (POINTS) + index buffer", &variant, 0);
        ImGui::RadioButton("capture 3 submeshes into one buffer + drawSession", &variant, 1);
#ifndef __EMSCRIPTEN__
        ImGui::RadioButton("cache + face normals and fins, geometry pass (Auto)", &variant, 2);
        ImGui::RadioButton("cache + face normals and fins, compute translation", &variant, 3);
#endif
        if (variant != int(variant_)) setVariant(variants()[std::size_t(variant)]);
        ImGui::Text("skinned per frame, POINTS pass: %lld vertices", (long long)count());
        ImGui::Text("captured triangles: %d records (%.1fx), %s expansion", indexCount_,
                    double(indexCount_) / double(count()),
                    std::string(xfb::expansionName(capture_->expansion())).c_str());
        for (const auto& r : capture_->lastSession().parts)
            ImGui::Text("  part at record %lld: %lld records", (long long)r.firstRecord, (long long)r.records);
        ImGui::Text("draws of the skinned result: 6 (3 instances + shadows)");
#ifndef __EMSCRIPTEN__
        if (normals() && normalsCapture_) {
            ImGui::Text("geometry pass: %s, %d triangles in",
                        std::string(xfb::backendName(normalsCapture_->backend())).c_str(), indexCount_ / 3);
            ImGui::Text("  %lld lines (%lld records, budget %lld), drawn x 3",
                        (long long)lastWritten_.primitivesWritten, (long long)lastWritten_.recordsWritten,
                        (long long)budgetRecords_);
        }
#endif
    }

    std::vector<std::string> variants() const override {
#ifdef __EMSCRIPTEN__
        return {"cache", "captured"}; // WebGL2 has no geometry shaders nor compute
#else
        return {"cache", "captured", "normals", "normals-compute"};
#endif
    }
    bool setVariant(const std::string& v) override {
        const auto all = variants();
        const auto it = std::find(all.begin(), all.end(), v);
        if (it == all.end()) return false;
        variant_ = Variant(it - all.begin());
        captured_ = variant_ == Variant::Captured;
#ifndef __EMSCRIPTEN__
        if (normals()) buildNormals();
#endif
        return true;
    }

#ifndef __EMSCRIPTEN__
    // A check run's own test of the geometry pass: the last frame shows both kinds of line.
    std::vector<std::string> checkRun(const Screenshot* last) override {
        if (!normals()) return {};
        if (!last) return {"skinning: no frame to look for the geometry pass's lines in"};
        long normalPixels = 0, finPixels = 0;
        const auto& rgba = last->rgba();
        for (std::size_t i = 0; i + 3 < rgba.size(); i += 4) {
            normalPixels += isNormalPixel(&rgba[i]);
            finPixels += isFinPixel(&rgba[i]);
        }
        std::printf("skinning %s: geometry pass by %s, %lld lines (%lld records) a step for %d triangles; "
                    "%ld face-normal pixels, %ld fin pixels\n",
                    variants()[std::size_t(variant_)].c_str(),
                    std::string(xfb::backendName(normalsCapture_->backend())).c_str(),
                    (long long)lastWritten_.primitivesWritten, (long long)lastWritten_.recordsWritten, indexCount_ / 3,
                    normalPixels, finPixels);
        std::vector<std::string> failures;
        constexpr long kMinPixels = 200; // measured: thousands at 1280 x 720
        if (normalPixels < kMinPixels)
            failures.push_back("skinning: " + std::to_string(normalPixels) +
                               " face-normal (yellow) pixels in the last frame, needs " + std::to_string(kMinPixels));
        if (finPixels < kMinPixels)
            failures.push_back("skinning: " + std::to_string(finPixels) +
                               " fin (cyan) pixels in the last frame, needs " + std::to_string(kMinPixels));
        return failures;
    }
#endif

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
#ifndef __EMSCRIPTEN__
        normalsCapture_.reset(); // it reads the mesh's buffers, made again below
#endif
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
        meshIndices_ = std::move(idx);
#ifndef __EMSCRIPTEN__
        normalsCapture_.reset();
        if (normals()) buildNormals();
#endif
    }

    bool normals() const { return variant_ == Variant::Normals || variant_ == Variant::NormalsCompute; }

#ifndef __EMSCRIPTEN__
    // The geometry program and its capture of the mesh's triangles, for the variant's backend.
    void buildNormals() {
        if (!normalsProgram_)
            normalsProgram_.emplace(device_,
                                    xfb::ProgramDesc{kSkinForGeometry, {}, {}, "skinning normals", kNormalsGeometry});
        const std::int64_t triangles = indexCount_ / 3;
        budgetRecords_ = triangles * 6; // max_vertices 4 as lines: 3 lines a triangle
        linesRecords_.emplace(device_, normalsProgram_->capture().buffers[0].asVertexFormat(), budgetRecords_);
        normalsCapture_.reset();
        normalsCapture_.emplace(device_, *normalsProgram_,
                                std::vector<xfb::Entry>{{&*mesh_[0], nullptr},
                                                        {&*mesh_[1], nullptr},
                                                        {&*mesh_[2], nullptr},
                                                        { nullptr,
                                                          &*linesRecords_ }},
                                xfb::PrimitiveCaptureOptions{std::nullopt, xfb::Expansion::Auto,
                                                             variant_ == Variant::NormalsCompute ? xfb::Backend::Compute
                                                                                                 : xfb::Backend::Auto});
        normalsDraw_ = {xfb::DrawMode::Triangles, 0, meshIndices_, std::nullopt};
        if (!linesVao_) glGenVertexArrays(1, &linesVao_);
        glBindVertexArray(linesVao_);
        for (int a = 0; a < 2; ++a) linesRecords_->bindAsVertexInput(GLuint(a), xfb::attr(a));
        glBindVertexArray(0);
    }

    // The geometry pass of a step, then its statistics: every triangle wrote its two lines.
    void stepNormals(const glm::mat4 (&bones)[4]) {
        normalsProgram_->setUniform("bones", xfb::ScalarKind::Float,
                                    std::as_bytes(std::span<const glm::mat4>(bones, 4)));
        const xfb::CaptureCount budget = normalsCapture_->capture(normalsDraw_);
        const auto stats = normalsCapture_->statistics(); // a wait for the GPU: small here
        const std::int64_t triangles = indexCount_ / 3;
        lastWritten_ = stats.at(0);
        if (budget.records != budgetRecords_ || lastWritten_.primitivesGenerated != 2 * triangles ||
            lastWritten_.primitivesWritten != 2 * triangles || lastWritten_.recordsWritten != 4 * triangles)
            throw std::runtime_error("the geometry pass wrote " + std::to_string(lastWritten_.recordsWritten) +
                                     " records (" + std::to_string(lastWritten_.primitivesWritten) + " of " +
                                     std::to_string(lastWritten_.primitivesGenerated) + " lines generated) for " +
                                     std::to_string(triangles) + " triangles, budget " +
                                     std::to_string(budget.records) +
                                     ": expected 2 lines, 4 records a triangle, budget 6");
    }
#endif

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
    enum class Variant { Cache, Captured, Normals, NormalsCompute } variant_ = Variant::Cache;
    std::vector<std::uint32_t> meshIndices_; // the mesh's triangles, for the geometry pass's draw
#ifndef __EMSCRIPTEN__
    std::optional<xfb::Program> normalsProgram_;
    std::optional<xfb::Buffer> linesRecords_;
    std::optional<xfb::PrimitiveCapture> normalsCapture_;
    xfb::DrawDesc normalsDraw_;
    xfb::StreamStatistics lastWritten_;
    std::int64_t budgetRecords_ = 0;
    RenderProgram lines_{kLineVertex, kLineFragment};
#endif
    RenderProgram render_{kDrawVertex, kDrawFragment};
    GLuint vao_ = 0, capturedVao_ = 0, indices_ = 0, linesVao_ = 0;
};

} // namespace

std::unique_ptr<Demo> makeSkinning(xfb::Device& d) { return std::make_unique<Skinning>(d); }

} // namespace demos
