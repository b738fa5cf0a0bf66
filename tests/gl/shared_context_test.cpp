// The shared-context contract (docs/guide/sharing-a-context.md) through the C++ API: before every xfb
// call the test sets every piece of state in the contract to a non-default value; afterwards each
// is as it was, no GL error is pending, and the results equal the reference. Also the
// ownsContext mode and errors left pending by the application.
#include "gl_fixture.hpp"
#include "offscreen.hpp"

#include "../unit/test_util.hpp"
#include "xfb_shaders.hpp"

#include <map>
#include <string>

using namespace xfb;
using namespace xfbtest;

namespace {

const char* kDoubleSource =
    "#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0 + vec4(1.0, 0.0, -1.0, 0.5); }\n";

// The fragment shader of a rasterizing step: every point it draws is white.
const char* kWhiteFragment =
    "#version 300 es\nprecision mediump float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n";

/// The application's state: every piece of the contract at a non-default value. Restores the
/// defaults (and deletes its objects) when destroyed, so the fixture's checks see a clean context.
struct ForeignState {
    bool desktop;
    GLint units = 0;
    GLuint program = 0, vao = 0, tf = 0, activeTexture = 0;
    GLuint buffers[7] = {}; // array, element, copy read, copy write, unpack, pack, feedback
    GLuint textures[4] = {}, samplers[4] = {};
    GLuint framebuffers[2] = {}, renderbuffers[2] = {}; // draw, read (the fragment backend renders and reads its own)
    GLint contextFramebuffers[2] = {};                  // the headless context's own, bound again at the end

    explicit ForeignState(bool desktop) : desktop(desktop) {
        glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
        program =
            linkDrawProgram("#version 300 es\nin vec4 a;\nvoid main() { gl_Position = a; }\n",
                            "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
        glGenVertexArrays(1, &vao);
        glGenTransformFeedbacks(1, &tf);
        glGenBuffers(7, buffers);
        for (GLuint b : buffers) {
            glBindBuffer(GL_ARRAY_BUFFER, b);
            glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STATIC_DRAW);
        }
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glGenTextures(4, textures);
        glGenSamplers(4, samplers);
        glGenTextures(1, &activeTexture);
        for (int i = 0; i < 4; ++i) {
            glBindTexture(GL_TEXTURE_2D, textures[i]);
            glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 1, 1);
            // LINEAR makes an integer texture incomplete: texelFetch through this sampler reads 0.
            glSamplerParameteri(samplers[i], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        }
        glBindTexture(GL_TEXTURE_2D, 0);
        // Complete framebuffers, as an engine binds them (a transform-feedback draw fails with
        // INVALID_FRAMEBUFFER_OPERATION while an incomplete one is bound, rasterizer discard or not).
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &contextFramebuffers[0]);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &contextFramebuffers[1]);
        glGenFramebuffers(2, framebuffers);
        glGenRenderbuffers(2, renderbuffers);
        for (int i = 0; i < 2; ++i) {
            glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[i]);
            glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
            glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[i]);
            glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers[i]);
            REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
        }
        glBindRenderbuffer(GL_RENDERBUFFER, 0);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(contextFramebuffers[0]));
        glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(contextFramebuffers[1]));
        REQUIRE(glGetError() == GL_NO_ERROR);
    }

    void apply() const {
        glUseProgram(program);
        glBindVertexArray(vao);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
        glBindBuffer(GL_COPY_READ_BUFFER, buffers[2]);
        glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[3]);
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers[4]);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers[5]);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tf);
        glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffers[6]);
        glEnable(GL_RASTERIZER_DISCARD);
        if (desktop) glEnable(GL_PRIMITIVE_RESTART);
        for (int i = 0; i < 4; ++i) {
            GLuint unit = GLuint(units - 4 + i);
            glActiveTexture(GL_TEXTURE0 + unit);
            glBindTexture(GL_TEXTURE_2D, textures[i]);
            glBindSampler(unit, samplers[i]);
        }
        glActiveTexture(GL_TEXTURE3);
        glBindTexture(GL_TEXTURE_2D, activeTexture);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 1);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 2);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
        if (desktop) glPixelStorei(GL_UNPACK_SWAP_BYTES, GL_TRUE);
        // What the fragment backend's draws and pixel copies depend on.
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffers[0]);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffers[1]);
        glViewport(3, 5, 7, 11);
        glEnable(GL_SCISSOR_TEST);
        glEnable(GL_CULL_FACE);
        glColorMask(GL_FALSE, GL_TRUE, GL_FALSE, GL_TRUE);
        glPixelStorei(GL_PACK_ROW_LENGTH, 9);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
        glPixelStorei(GL_PACK_SKIP_ROWS, 3);
        glPixelStorei(GL_PACK_ALIGNMENT, 2);
        if (desktop) {
            glPixelStorei(GL_PACK_SWAP_BYTES, GL_TRUE);
            glEnable(GL_COLOR_LOGIC_OP);
            glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        }
    }

    std::map<std::string, GLint> snapshot() const {
        std::map<std::string, GLint> s;
        auto get = [&](const char* name, GLenum e) { glGetIntegerv(e, &s[name]); };
        get("CURRENT_PROGRAM", GL_CURRENT_PROGRAM);
        get("VERTEX_ARRAY_BINDING", GL_VERTEX_ARRAY_BINDING);
        get("ELEMENT_ARRAY_BUFFER_BINDING", GL_ELEMENT_ARRAY_BUFFER_BINDING);
        get("ARRAY_BUFFER_BINDING", GL_ARRAY_BUFFER_BINDING);
        get("COPY_READ_BUFFER_BINDING", GL_COPY_READ_BUFFER_BINDING);
        get("COPY_WRITE_BUFFER_BINDING", GL_COPY_WRITE_BUFFER_BINDING);
        get("PIXEL_UNPACK_BUFFER_BINDING", GL_PIXEL_UNPACK_BUFFER_BINDING);
        get("PIXEL_PACK_BUFFER_BINDING", GL_PIXEL_PACK_BUFFER_BINDING);
        get("TRANSFORM_FEEDBACK_BINDING", GL_TRANSFORM_FEEDBACK_BINDING);
        get("ACTIVE_TEXTURE", GL_ACTIVE_TEXTURE);
        get("TEXTURE_BINDING_2D", GL_TEXTURE_BINDING_2D);
        get("UNPACK_ROW_LENGTH", GL_UNPACK_ROW_LENGTH);
        get("UNPACK_SKIP_PIXELS", GL_UNPACK_SKIP_PIXELS);
        get("UNPACK_SKIP_ROWS", GL_UNPACK_SKIP_ROWS);
        get("UNPACK_ALIGNMENT", GL_UNPACK_ALIGNMENT);
        if (desktop) get("UNPACK_SWAP_BYTES", GL_UNPACK_SWAP_BYTES);
        s["RASTERIZER_DISCARD"] = glIsEnabled(GL_RASTERIZER_DISCARD);
        if (desktop) s["PRIMITIVE_RESTART"] = glIsEnabled(GL_PRIMITIVE_RESTART);
        get("DRAW_FRAMEBUFFER_BINDING", GL_DRAW_FRAMEBUFFER_BINDING);
        get("READ_FRAMEBUFFER_BINDING", GL_READ_FRAMEBUFFER_BINDING);
        GLint viewport[4] = {};
        glGetIntegerv(GL_VIEWPORT, viewport);
        for (int i = 0; i < 4; ++i) s["VIEWPORT[" + std::to_string(i) + "]"] = viewport[i];
        s["SCISSOR_TEST"] = glIsEnabled(GL_SCISSOR_TEST);
        s["CULL_FACE"] = glIsEnabled(GL_CULL_FACE);
        GLboolean mask[4] = {};
        glGetBooleanv(GL_COLOR_WRITEMASK, mask);
        for (int i = 0; i < 4; ++i) s["COLOR_WRITEMASK[" + std::to_string(i) + "]"] = mask[i];
        get("PACK_ROW_LENGTH", GL_PACK_ROW_LENGTH);
        get("PACK_SKIP_PIXELS", GL_PACK_SKIP_PIXELS);
        get("PACK_SKIP_ROWS", GL_PACK_SKIP_ROWS);
        get("PACK_ALIGNMENT", GL_PACK_ALIGNMENT);
        if (desktop) {
            get("PACK_SWAP_BYTES", GL_PACK_SWAP_BYTES);
            s["COLOR_LOGIC_OP"] = glIsEnabled(GL_COLOR_LOGIC_OP);
            GLint mode[2] = {};
            glGetIntegerv(GL_POLYGON_MODE, mode);
            s["POLYGON_MODE"] = mode[0];
        }
        GLint active = 0;
        glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
        for (int i = 0; i < 4; ++i) {
            glActiveTexture(GL_TEXTURE0 + GLuint(units - 4 + i));
            get(("TEXTURE_BINDING_2D@" + std::to_string(units - 4 + i)).c_str(), GL_TEXTURE_BINDING_2D);
            get(("SAMPLER_BINDING@" + std::to_string(units - 4 + i)).c_str(), GL_SAMPLER_BINDING);
        }
        glActiveTexture(GLenum(active));
        return s;
    }

    /// Runs `call` inside the application's state; requires every piece of it unchanged.
    template<class F>
    void around(const char* what, F&& call) const {
        apply();
        auto before = snapshot();
        call();
        auto after = snapshot();
        const std::string label = what;
        for (const auto& [name, value] : before) {
            CAPTURE(label);
            CAPTURE(name);
            CHECK(after[name] == value);
        }
        CHECK_MESSAGE(glGetError() == GL_NO_ERROR, what);
    }

    ~ForeignState() {
        glUseProgram(0);
        glBindVertexArray(0);
        for (GLenum t :
             {GL_ARRAY_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_PACK_BUFFER})
            glBindBuffer(t, 0);
        glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
        glDisable(GL_RASTERIZER_DISCARD);
        if (desktop) glDisable(GL_PRIMITIVE_RESTART), glPixelStorei(GL_UNPACK_SWAP_BYTES, GL_FALSE);
        for (int i = 0; i < 4; ++i) glBindSampler(GLuint(units - 4 + i), 0);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(contextFramebuffers[0]));
        glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(contextFramebuffers[1]));
        glViewport(0, 0, 1, 1);
        glDisable(GL_SCISSOR_TEST);
        glDisable(GL_CULL_FACE);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glPixelStorei(GL_PACK_ALIGNMENT, 4);
        if (desktop) {
            glPixelStorei(GL_PACK_SWAP_BYTES, GL_FALSE);
            glDisable(GL_COLOR_LOGIC_OP);
            glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
        }
        glDeleteFramebuffers(2, framebuffers);
        glDeleteRenderbuffers(2, renderbuffers);
        glActiveTexture(GL_TEXTURE0);
        glDeleteTextures(4, textures);
        glDeleteTextures(1, &activeTexture);
        glDeleteSamplers(4, samplers);
        glDeleteBuffers(7, buffers);
        glDeleteTransformFeedbacks(1, &tf);
        glDeleteVertexArrays(1, &vao);
        glDeleteProgram(program);
    }
};

VertexFormat vec4At(int slot) { return VertexFormat::interleaved({{attr(slot), ComponentType::Float32, 4}}); }

} // namespace

TEST_CASE_FIXTURE(GlTest,
                  "every piece of the contract set to a non-default value before each call is as found after it") {
    ForeignState app(!dev.capabilities().es);
    constexpr std::int64_t n = 64;
    auto initial = pseudoRandom(n * 4, -1.0f, 1.0f, 5u);
    std::optional<Buffer> a, b;
    std::optional<Program> program;
    std::optional<Pipeline> pipeline;
    app.around("Buffer", [&] { a.emplace(dev, vec4At(0), n, view(initial)), b.emplace(dev, vec4At(0), n); });
    app.around("Program", [&] { program.emplace(dev, ProgramDesc{kDoubleSource, {}, {}, "double"}); });
    app.around("Pipeline", [&] { pipeline.emplace(dev, *program, std::vector<Entry>{{&*a, &*b}}); });
    auto ref = initial;
    const float add[4] = {1.0f, 0.0f, -1.0f, 0.5f};
    for (int s = 0; s < 3; ++s) {
        app.around("step", [&] { pipeline->step(); });
        for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = ref[i] * 2.0f + add[i % 4];
    }
    app.around("stepChecked", [&] { CHECK(pipeline->stepChecked().ok()); });
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = ref[i] * 2.0f + add[i % 4];
    std::vector<float> got;
    app.around("read", [&] { got = a->readAs<float>(); });
    CHECK(got == ref);

    // A rasterizing step (PipelineOptions::rasterize) draws into the application's framebuffer
    // through its state; the application's RASTERIZER_DISCARD, on here, is off for the pass only.
    std::optional<Program> drawn;
    std::optional<Buffer> c, d;
    std::optional<Pipeline> drawing;
    app.around("Program (fragment)", [&] {
        drawn.emplace(dev, ProgramDesc{kDoubleSource, {}, {}, "drawn", {}, kWhiteFragment});
    });
    app.around("Buffer (rasterize)",
               [&] { c.emplace(dev, vec4At(0), n, view(initial)), d.emplace(dev, vec4At(0), n); });
    PipelineOptions rasterize;
    rasterize.rasterize = true;
    app.around("Pipeline (rasterize)", [&] {
        drawing.emplace(dev, *drawn, std::vector<Entry>{{&*c, &*d}}, rasterize);
    });
    app.around("step (rasterize)", [&] { drawing->step(); });
    app.around("step(2) (rasterize)", [&] { drawing->step(2); });
    auto drawnRef = initial;
    for (int s = 0; s < 3; ++s)
        for (std::size_t i = 0; i < drawnRef.size(); ++i) drawnRef[i] = drawnRef[i] * 2.0f + add[i % 4];
    app.around("read (rasterize)", [&] { got = c->readAs<float>(); });
    CHECK(got == drawnRef);
    app.around("readAsync", [&] {
        auto r = a->readAsync();
        auto bytes = r.take();
        CHECK(bytes.size() == ref.size() * 4);
    });
    app.around("upload", [&] { a->upload(view(initial)); });

    // A capture through the engine expansion: a pixel-unpack upload into textures on the highest
    // units, where the application bound samplers that make texelFetch read 0.
    auto vertices = pseudoRandom(4 * 6, -1.0f, 1.0f, 7u);
    std::optional<Program> mesh;
    std::optional<Buffer> input, out;
    std::optional<PrimitiveCapture> capture;
    app.around("Program (mesh)", [&] {
        mesh.emplace(dev, ProgramDesc{std::string(xfb_shaders::capture_mesh_vert), {}, {}, "mesh"});
        mesh->setUniform("u_scale", 2.0f);
    });
    app.around("Buffer (mesh)", [&] {
        input.emplace(
            dev,
            VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}}), 4,
            view(vertices));
        out.emplace(dev,
                    VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                               {attr(1), ComponentType::Float32, 3},
                                               {attr(2), ComponentType::Float32, 2}}),
                    6);
    });
    app.around("PrimitiveCapture", [&] {
        capture.emplace(dev, *mesh, std::vector<Entry>{{&*input, nullptr}, {nullptr, &*out}},
                        PrimitiveCaptureOptions{std::nullopt, Expansion::Engine});
    });
    app.around("capture", [&] { CHECK(capture->capture({DrawMode::TriangleStrip, 4}).records == 6); });
    std::vector<float> expected;
    for (std::uint32_t v : {0u, 1u, 2u, 2u, 1u, 3u}) {
        const float* p = &vertices[v * 6];
        for (float x : {p[0] * 2.0f, p[1] * 2.0f, p[2] * 2.0f + float(v), p[3] * 2.0f, p[5], -p[4], 1.0f, p[4] * 2.0f,
                        p[5] * 2.0f})
            expected.push_back(x);
    }
    app.around("read (capture)", [&] { got = out->readAs<float>(); });
    CHECK(got == expected);

    // Append sessions: ranges bound and restored, and on desktop GL the driver's pause/resume.
    std::vector<CapturePart> parts{{{DrawMode::TriangleStrip, 3}}, {{DrawMode::TriangleStrip, 0, {1, 2, 3}}}};
    std::vector<float> twoTriangles(expected.begin(), expected.begin() + 3 * 9);
    for (std::uint32_t v : {1u, 2u, 3u}) {
        const float* p = &vertices[v * 6];
        for (float x : {p[0] * 2.0f, p[1] * 2.0f, p[2] * 2.0f + float(v), p[3] * 2.0f, p[5], -p[4], 1.0f, p[4] * 2.0f,
                        p[5] * 2.0f})
            twoTriangles.push_back(x);
    }
    app.around("captureSession", [&] { CHECK(capture->captureSession(parts).endRecord == 6); });
    app.around("read (session)", [&] { got = out->readAs<float>(); });
    CHECK(got == twoTriangles);
    if (!dev.capabilities().es) {
        std::optional<PrimitiveCapture> driver;
        app.around("PrimitiveCapture (driver)", [&] {
            driver.emplace(dev, *mesh, std::vector<Entry>{{&*input, nullptr}, {nullptr, &*out}},
                           PrimitiveCaptureOptions{std::nullopt, Expansion::Driver});
        });
        out->upload(view(std::vector<float>(6 * 9, 0.0f)));
        app.around("captureSession (driver)", [&] { CHECK(driver->captureSession(parts).endRecord == 6); });
        app.around("read (driver session)", [&] { got = out->readAs<float>(); });
        CHECK(got == twoTriangles);
    }
    CHECK(dev.takeForeignErrors().empty());
}

TEST_CASE_FIXTURE(GlTest, "the fragment backend leaves every piece of the contract as found, its own state too") {
    // Its draws and copies touch more than a transform-feedback pass: framebuffers, viewport,
    // scissor, culling, the colour mask, pixel pack/unpack bindings and parameters, the textures and
    // samplers of the highest units (the application's there make texelFetch read 0 unless unbound).
    // The simulation's own texture on unit 1, made before the application's state is applied.
    const float texel[4] = {0.5f, 0.25f, -1.0f, 2.0f};
    GLuint table = 0;
    glGenTextures(1, &table);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, table);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 1, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, texel);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glActiveTexture(GL_TEXTURE0);
    ForeignState app(!dev.capabilities().es);
    constexpr std::int64_t n = 67; // 268 words: a partial row and, with 36-byte records below, partial texels
    auto initial = pseudoRandom(n * 4, -1.0f, 1.0f, 9u);
    std::optional<Buffer> a, b;
    std::optional<Program> program;
    std::optional<Pipeline> pipeline;
    a.emplace(dev, vec4At(0), n, view(initial)), b.emplace(dev, vec4At(0), n);
    program.emplace(dev, ProgramDesc{kDoubleSource, {}, {}, "double"});
    app.around("Pipeline (fragment)", [&] {
        pipeline.emplace(dev, *program, std::vector<Entry>{{&*a, &*b}}, PipelineOptions{.backend = Backend::Fragment});
    });
    auto ref = initial;
    const float add[4] = {1.0f, 0.0f, -1.0f, 0.5f};
    auto advance = [&] {
        for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = ref[i] * 2.0f + add[i % 4];
    };
    for (int s = 0; s < 3; ++s) {
        app.around("step (fragment)", [&] { pipeline->step(); });
        advance();
    }
    app.around("step(4) (fragment, fused)", [&] { pipeline->step(4); });
    for (int s = 0; s < 4; ++s) advance();
    app.around("stepChecked (fragment)", [&] { CHECK(pipeline->stepChecked().ok()); });
    advance();
    app.around("setBackend (tf)", [&] { pipeline->setBackend(Backend::TransformFeedback); });
    app.around("step (tf)", [&] { pipeline->step(); });
    advance();
    app.around("setBackend (auto)", [&] { pipeline->setBackend(Backend::Auto); });
    app.around("step (auto)", [&] { pipeline->step(); });
    advance();
    std::vector<float> got;
    app.around("read", [&] { got = a->readAs<float>(); });
    CHECK(got == ref);

    // 36-byte records (partial texels through the scratch buffer) with a user texture on unit 1.
    const char* src = R"(#version 300 es
precision highp float;
in vec4 p;
in vec3 q;
in vec2 r;
uniform highp sampler2D table;
out vec4 out_p;
out vec3 out_q;
out vec2 out_r;
void main() {
    out_p = p + texelFetch(table, ivec2(0, 0), 0);
    out_q = q * 2.0;
    out_r = r - vec2(1.0);
})";
    auto format36 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                               {attr(1), ComponentType::Float32, 3},
                                               {attr(2), ComponentType::Float32, 2}});
    auto data36 = pseudoRandom(std::size_t(n) * 9, -1.0f, 1.0f, 3u);
    Buffer c(dev, format36, n, view(data36)), d(dev, format36, n);
    Program sampling(dev, {src, {}, {}, "sampling"});
    sampling.setUniform("table", 1);
    std::optional<Pipeline> p36;
    app.around("Pipeline (fragment, 36 bytes)", [&] {
        p36.emplace(dev, sampling, std::vector<Entry>{{&c, &d}}, PipelineOptions{.backend = Backend::Fragment});
    });
    app.around("step (fragment, 36 bytes)", [&] { p36->step(); });
    std::vector<float> ref36 = data36;
    for (std::size_t e = 0; e < std::size_t(n); ++e) {
        float* v = &ref36[e * 9];
        for (int k = 0; k < 4; ++k) v[k] += texel[k];
        for (int k = 4; k < 7; ++k) v[k] *= 2.0f;
        v[7] -= 1.0f, v[8] -= 1.0f;
    }
    app.around("read (36 bytes)", [&] { got = c.readAs<float>(); });
    CHECK(got == ref36);
    glDeleteTextures(1, &table);
    CHECK(dev.takeForeignErrors().empty());
}

TEST_CASE_FIXTURE(
    GlTest, "ownsContext keeps the minimal step: xfb's program stays bound, the default restores the application's") {
    GLuint mine =
        linkDrawProgram("#version 300 es\nin vec4 a;\nvoid main() { gl_Position = a; }\n",
                        "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    for (bool owns : {true, false}) {
        CAPTURE(owns);
        Device device(DeviceOptions{owns});
        Buffer a(device, vec4At(0), 8), b(device, vec4At(0), 8);
        Program program(device, {kDoubleSource, {}, {}, "double"});
        Pipeline pipeline(device, program, {{&a, &b}}, {.backend = Backend::TransformFeedback});
        glUseProgram(mine);
        pipeline.step();
        GLint current = 0;
        glGetIntegerv(GL_CURRENT_PROGRAM, &current);
        CHECK((GLuint(current) == mine) == !owns);
        CHECK(pipeline.lastStepGlCalls() == 9);
        glUseProgram(0);
        glBindVertexArray(0);
    }
    glDeleteProgram(mine);
}

TEST_CASE_FIXTURE(GlTest,
                  "an error the application left pending is kept as foreign, not thrown by xfb, and not left behind") {
    glBindBuffer(0x1234, 0); // GL_INVALID_ENUM, left pending by "the application"
    Buffer a(dev, vec4At(0), 4);
    auto foreign = dev.takeForeignErrors();
    REQUIRE(foreign.size() == 1);
    CHECK(foreign[0] == GL_INVALID_ENUM);
    CHECK(dev.takeForeignErrors().empty());
}

TEST_CASE_FIXTURE(GlTest, "a buffer deleted by other code is reported with a code by the next checked call") {
    Buffer a(dev, vec4At(0), 4);
    GLuint name = a.glName();
    glDeleteBuffers(1, &name);
    CHECK_THROWS_WITH_AS(a.read(), doctest::Contains("deleted by other code"), Error);
    try {
        a.read();
    } catch (const Error& e) { CHECK(e.code() == ErrorCode::Disposed); }
}
