// The fragment backend (Backend::Fragment): the same simulation as fragment shaders over RGBA32UI
// textures of the buffers' words. Every case runs the same data through transform feedback and
// through the fragment backend and compares every buffer byte for byte, at counts that leave
// partial texture rows and partial texels (1-3 trailing words); then the coded refusals and the
// GL calls of a step. (The shared-context checks are in shared_context_test.cpp; the simulations
// of simulation_test.cpp and fusion_test.cpp run on every backend, this one included.)
#include "gl_call_counter.hpp"
#include "../unit/test_util.hpp"
#include "gl_fixture.hpp"
#include "reference.hpp"
#include "xfb_shaders.hpp"

#include <cstdint>
#include <functional>

using namespace xfb;
using namespace xfbtest;

namespace {

struct EntrySpec {
    std::optional<VertexFormat> input, output;
    std::vector<std::uint32_t> words; // input contents, raw 32-bit words
};

// One role list made on one backend: the entries' buffers in order.
struct Run {
    std::vector<std::unique_ptr<Buffer>> buffers;
    std::unique_ptr<Program> program;
    std::unique_ptr<Pipeline> pipeline;
};

Run makeRun(Device& dev, const std::string& source, CaptureMode mode, const std::vector<EntrySpec>& specs,
            std::int64_t n, Backend backend) {
    Run r;
    r.program = std::make_unique<Program>(dev, ProgramDesc{source, {mode}, {}, "fragment-test"});
    std::vector<Entry> entries;
    for (const auto& s : specs) {
        Entry e;
        if (s.input) e.input = r.buffers.emplace_back(std::make_unique<Buffer>(dev, *s.input, n, view(s.words))).get();
        if (s.output) {
            // Write-only outputs and partners start with a pattern a step must overwrite.
            std::vector<std::uint32_t> junk(std::size_t(n) * std::size_t(s.output->stride / 4), 0xDEADBEEFu);
            e.output = r.buffers.emplace_back(std::make_unique<Buffer>(dev, *s.output, n, view(junk))).get();
        }
        entries.push_back(e);
    }
    r.pipeline = std::make_unique<Pipeline>(dev, *r.program, entries, PipelineOptions{.count = n, .backend = backend});
    CHECK(r.pipeline->backend().backend == backend);
    return r;
}

// `steps` steps of the same simulation on transform feedback and on the fragment backend;
// `uniforms(program, step)` before each. Every buffer equal byte for byte after each step.
void requireFragmentEqualsFeedback(Device& dev, const std::string& source, CaptureMode mode,
                                   const std::vector<EntrySpec>& specs, std::int64_t n,
                                   const std::function<void(Program&, int)>& uniforms, int steps = 3,
                                   int substeps = 1) {
    CAPTURE(n);
    CAPTURE(substeps);
    Run tf = makeRun(dev, source, mode, specs, n, Backend::TransformFeedback);
    Run fragment = makeRun(dev, source, mode, specs, n, Backend::Fragment);
    for (int s = 0; s < steps; ++s) {
        CAPTURE(s);
        uniforms(*tf.program, s);
        uniforms(*fragment.program, s);
        tf.pipeline->step(substeps);
        fragment.pipeline->step(substeps);
        for (std::size_t b = 0; b < tf.buffers.size(); ++b) {
            CAPTURE(b);
            auto want = tf.buffers[b]->read(), got = fragment.buffers[b]->read();
            REQUIRE(want.size() == got.size());
            std::size_t firstDiff = 0;
            while (firstDiff < want.size() && want[firstDiff] == got[firstDiff]) ++firstDiff;
            REQUIRE_MESSAGE(firstDiff == want.size(), "buffer ", b, " differs at byte ", firstDiff, " of ",
                            want.size());
        }
    }
    CHECK(fragment.pipeline->stepsTaken() == tf.pipeline->stepsTaken());
}

std::vector<std::uint32_t> wordsOf(const std::vector<float>& v) {
    std::vector<std::uint32_t> w(v.size());
    std::memcpy(w.data(), v.data(), v.size() * 4);
    return w;
}

const VertexFormat kParticles = VertexFormat::interleaved({{attr(0)}, {attr(1)}});

std::vector<std::uint32_t> particleState(std::int64_t n, unsigned seed) {
    auto state = pseudoRandom(std::size_t(n) * 8, -1.0f, 1.0f, seed);
    for (std::size_t e = 0; e < std::size_t(n); ++e) state[e * 8 + 3] = 0.0625f * float(e % 40); // some respawn
    return wordsOf(state);
}

void particleUniforms(Program& p, int step) {
    p.setUniform("dt", 0.015625f * float(1 + step % 2));
    p.setUniform("gravity", glm::vec3(0.0f, -9.75f, 0.5f * float(step)));
}

} // namespace

TEST_CASE_FIXTURE(GlTest, "fragment backend: interleaved 32-byte particles equal transform feedback byte for byte") {
    // 1 element (2 texels), a partial row, one row exactly, rows over the 4096-texel width with a partial last row.
    for (std::int64_t n : {1, 3, 777, 2048, 5000}) {
        requireFragmentEqualsFeedback(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                                      {{kParticles, kParticles, particleState(n, 5)}}, n, particleUniforms);
    }
    // And against the C++ reference, independently of transform feedback.
    const std::int64_t n = 777;
    Run r = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                    {{kParticles, kParticles, particleState(n, 7)}}, n, Backend::Fragment);
    auto words = particleState(n, 7);
    std::vector<float> ref(words.size());
    std::memcpy(ref.data(), words.data(), words.size() * 4);
    particleUniforms(*r.program, 0);
    for (int s = 0; s < 20; ++s) {
        r.pipeline->step();
        particlesStep(ref, 0.015625f, {0.0f, -9.75f, 0.0f});
    }
    requireEqual(r.buffers[0]->readAs<float>(), ref, "20 fragment steps vs the C++ reference");
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: 36-byte records, partial texels of 1-3 words, in and out") {
    auto in36 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                           {attr(1), ComponentType::Float32, 3},
                                           {attr(2), ComponentType::Float32, 2}});
    Program probe(dev, {std::string(xfb_shaders::layout36_vert), {CaptureMode::Interleaved}, {}, "layout36"});
    const VertexFormat out36 = probe.capture().buffers[0].asVertexFormat();
    REQUIRE(out36.stride == 36);
    // 9 words an element: n = 1, 2, 3 leave 1, 2 and 3 trailing words; 4 none; 4097 rows over the width.
    for (std::int64_t n : {1, 2, 3, 4, 5, 455, 4097}) {
        auto data = wordsOf(pseudoRandom(std::size_t(n) * 9, -2.0f, 2.0f, 11));
        requireFragmentEqualsFeedback(
            dev, std::string(xfb_shaders::layout36_vert), CaptureMode::Interleaved,
            {{in36, std::nullopt, data}, {std::nullopt, out36, {}}}, n,
            [](Program& p, int s) { p.setUniform("scale", 1.5f + float(s)); }, 2);
    }
    // As a state pair: the input of the next step is the 36-byte output of the last.
    const char* state36 = R"(#version 300 es
precision highp float;
in vec4 position;
in vec3 normal;
in vec2 uv;
uniform float scale;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = vec4(position.xyz * scale + normal, position.w - 1.0);
    out_normal = normal.zxy + vec3(float(gl_VertexID));
    out_uv = uv * 0.5 + position.xy;
})";
    for (std::int64_t n : {1, 3, 6, 1001}) {
        auto data = wordsOf(pseudoRandom(std::size_t(n) * 9, -2.0f, 2.0f, 13));
        requireFragmentEqualsFeedback(
            dev, state36, CaptureMode::Interleaved, {{in36, in36, data}}, n,
            [](Program& p, int) { p.setUniform("scale", 0.75f); }, 4);
    }
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: separate mode, constants and write-only outputs (one pass, 3 targets)") {
    for (std::int64_t n : {1, 513}) {
        auto paramsFormat = VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}});
        requireFragmentEqualsFeedback(
            dev, std::string(xfb_shaders::flock_separate_vert), CaptureMode::Separate,
            {{vec4Format(0), vec4Format(0), wordsOf(pseudoRandom(std::size_t(n) * 4, -4.0f, 4.0f, 1))},
             {vec4Format(1), vec4Format(1), wordsOf(pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 2))},
             {paramsFormat, std::nullopt, wordsOf(pseudoRandom(std::size_t(n) * 2, 0.25f, 2.0f, 3))},
             {std::nullopt, vec4Format(12), {}}},
            n,
            [](Program& p, int s) {
                p.setUniform("dt", 0.125f);
                p.setUniform("target", glm::vec3(float(s % 5) - 2.0f, 1.0f, -0.5f * float(s % 3)));
            },
            5);
    }
}

TEST_CASE_FIXTURE(GlTest,
                  "fragment backend: int and uint attributes in a 12-byte record, xfb_substep, fused substeps") {
    // out_id @0 (uint), out_hits @4 (int), out_x @8 (float): 3 words, so a texel holds words of 2 elements.
    auto format = VertexFormat::interleaved({{attr(1), ComponentType::UInt32, 1},
                                             {attr(2), ComponentType::Int32, 1},
                                             {attr(0), ComponentType::Float32, 1}});
    for (std::int64_t n : {1, 2, 3, 5, 100, 5462}) {
        std::vector<std::uint32_t> words(std::size_t(n) * 3);
        for (std::size_t e = 0; e < std::size_t(n); ++e) {
            words[e * 3] = std::uint32_t(e * 2654435761u);
            words[e * 3 + 1] = std::uint32_t(std::int32_t(e) - 50);
            float x = 0.25f * float(e);
            std::memcpy(&words[e * 3 + 2], &x, 4);
        }
        for (int substeps : {1, 4})
            requireFragmentEqualsFeedback(
                dev, std::string(xfb_shaders::integer_state_vert), CaptureMode::Interleaved, {{format, format, words}},
                n, [](Program& p, int) { p.setUniform("scale", 0.5f); }, 3, substeps);
    }
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: fused substeps run in one pass per output and equal transform feedback") {
    const std::int64_t n = 777;
    requireFragmentEqualsFeedback(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                                  {{kParticles, kParticles, particleState(n, 9)}}, n, particleUniforms, 3, 16);
    Run r = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                    {{kParticles, kParticles, particleState(n, 9)}}, n, Backend::Fragment);
    particleUniforms(*r.program, 0);
    CHECK(r.pipeline->fusion().fused);
    r.pipeline->step(8);
    r.pipeline->step(8);
    resetGlCalls();
    r.pipeline->step(8);
    CHECK_MESSAGE(glCalls().created == 0, glCalls().describe());
    const int fused = r.pipeline->lastStepGlCalls();
    for (int i = 0; i < 3; ++i) r.pipeline->step(); // the first two make the plain passes' framebuffers
    CHECK(r.pipeline->lastStepGlCalls() == fused);  // one pass either way, over the same planes
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: uniforms of several types, a generator without inputs, 1 element") {
    const char* src = R"(#version 300 es
precision highp float;
uniform float f;
uniform vec2 v2;
uniform ivec3 i3;
uniform uvec4 u4;
uniform mat3 m;
uniform float table[3];
uniform bool flag;
flat out ivec2 out_i;
flat out uint out_u;
out vec3 out_m;
void main() {
    int k = gl_VertexID % 3;
    out_i = ivec2(i3.x + gl_VertexID, i3.y * i3.z);
    out_u = u4[k] ^ uint(gl_VertexID * 7);
    out_m = m * vec3(f, v2) + vec3(table[k], flag ? 1.0 : -1.0, 0.5);
})";
    auto uniforms = [](Program& p, int s) {
        p.setUniform("f", 0.5f + float(s));
        p.setUniform("v2", glm::vec2(-1.25f, 2.0f));
        p.setUniform("i3", glm::ivec3(-7, 3, s));
        const std::uint32_t u4[4] = {0xFFFFFFFFu, 1u, 0x80000000u, 12345u};
        p.setUniform("u4", ScalarKind::UInt, std::as_bytes(std::span<const std::uint32_t>(u4, 4)));
        p.setUniform("m", glm::mat3(1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f + float(s)));
        const float table[3] = {0.25f, -8.0f, 3.5f};
        p.setUniform("table", ScalarKind::Float, std::as_bytes(std::span<const float>(table, 3)));
        p.setUniform("flag", s % 2);
    };
    Program probe(dev, {src, {}, {}, "probe"});
    const VertexFormat out = probe.capture().buffers[0].asVertexFormat();
    CHECK(out.stride == 24); // 6 words: texels hold words of two elements
    for (std::int64_t n : {1, 2, 3, 1000})
        requireFragmentEqualsFeedback(dev, src, CaptureMode::Interleaved, {{std::nullopt, out, {}}}, n, uniforms, 3);
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: a simulation reading the application's texture with texelFetch") {
    // neighbour_fetch.vert reads `positions` on unit 2: an RGBA32F texture the application bound there.
    const char* src = R"(#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;
uniform sampler2D positions;
out vec4 out_position;
void main() {
    vec4 neighbour = texelFetch(positions, ivec2((gl_VertexID + 1) % 8, gl_VertexID % 2), 0);
    out_position = position * 0.5 + neighbour;
})";
    std::vector<float> texels = pseudoRandom(8 * 2 * 4, -3.0f, 3.0f, 17);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 8, 2);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 2, GL_RGBA, GL_FLOAT, texels.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glActiveTexture(GL_TEXTURE0);
    const std::int64_t n = 37;
    requireFragmentEqualsFeedback(
        dev, src, CaptureMode::Interleaved,
        {{vec4Format(0), vec4Format(0), wordsOf(pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 19))}}, n,
        [](Program& p, int) { p.setUniform("positions", 2); }, 3);
    // Against the values themselves: element 0 adds texel (1, 0).
    Run r = makeRun(dev, src, CaptureMode::Interleaved,
                    {{vec4Format(0), vec4Format(0), wordsOf(std::vector<float>(std::size_t(n) * 4, 2.0f))}}, n,
                    Backend::Fragment);
    r.program->setUniform("positions", 2);
    r.pipeline->step();
    auto got = r.buffers[0]->readAs<float>();
    for (int c = 0; c < 4; ++c) CHECK(got[std::size_t(c)] == 1.0f + texels[std::size_t(4 + c)]);
    // A sampler on a unit the backend uses for its inputs: refused before the step, named.
    GLint units = 0;
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    r.program->setUniform("positions", int(units - 1));
    const std::string msg = XFB_REQUIRE_ERROR(r.pipeline->step(), ErrorCode::InvalidArgument);
    CHECK(contains(msg, "sampler 'positions'"));
    CHECK(contains(msg, "texture unit " + std::to_string(units - 1)));
    CHECK(r.pipeline->stepsTaken() == 1);
    requireEqual(r.buffers[0]->readAs<float>(), got, "state after the refused step");
    r.program->setUniform("positions", 2);
    CHECK_NOTHROW(r.pipeline->step());
    glDeleteTextures(1, &texture);
}

// texture() in a vertex shader reads the base level (GLSL ES 3.00 section 8.8); the fragment passes
// read level 0.0 explicitly (a fragment's implicit level would come from its neighbours). Level 1
// holds other values, so a pass that read it would differ.
TEST_CASE_FIXTURE(GlTest, "fragment backend: texture() reads the base level, as transform feedback does") {
    const char* src = R"(#version 300 es
precision highp float;
in vec4 position;
uniform sampler2D table;
out vec4 out_position;
void main() { out_position = position + texture(table, position.xy * 0.5 + 0.5); })";
    std::vector<float> base = pseudoRandom(4 * 4 * 4, 0.0f, 1.0f, 29), level1(2 * 2 * 4, 100.0f);
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA32F, 4, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_FLOAT, base.data());
    glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 2, 2, GL_RGBA, GL_FLOAT, level1.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glActiveTexture(GL_TEXTURE0);
    const std::int64_t n = 37;
    const auto words = wordsOf(pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 31));
    requireFragmentEqualsFeedback(
        dev, src, CaptureMode::Interleaved, {{vec4Format(0), vec4Format(0), words}}, n,
        [](Program& p, int) { p.setUniform("table", 2); }, 1);
    Run r = makeRun(dev, src, CaptureMode::Interleaved, {{vec4Format(0), vec4Format(0), words}}, n, Backend::Fragment);
    r.program->setUniform("table", 2);
    r.pipeline->step();
    for (float v : r.buffers[0]->readAs<float>()) CHECK(v < 2.0f); // never level 1's 100
    glDeleteTextures(1, &texture);
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: switching among every backend between steps keeps the state in place") {
    const std::int64_t n = 777;
    auto words = particleState(n, 23);
    Run steady = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                         {{kParticles, kParticles, words}}, n, Backend::TransformFeedback);
    Run switching = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                            {{kParticles, kParticles, words}}, n, Backend::Fragment);
    std::vector<Backend> cycle = backendsOf(dev);
    for (int s = 0; s < 24; ++s) {
        if (s % 3 == 1) switching.pipeline->setBackend(cycle[std::size_t(s / 3) % cycle.size()]);
        particleUniforms(*steady.program, s);
        particleUniforms(*switching.program, s);
        steady.pipeline->step(s % 4 == 3 ? 3 : 1);
        switching.pipeline->step(s % 4 == 3 ? 3 : 1);
    }
    requireEqual(switching.buffers[0]->readAs<std::uint32_t>(), steady.buffers[0]->readAs<std::uint32_t>(),
                 "switching vs steady");
    requireEqual(switching.buffers[1]->readAs<std::uint32_t>(), steady.buffers[1]->readAs<std::uint32_t>(),
                 "the partners");
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: a steady step creates nothing and makes a known number of GL calls") {
    const std::int64_t n = 777;
    Run r = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                    {{kParticles, kParticles, particleState(n, 3)}}, n, Backend::Fragment);
    particleUniforms(*r.program, 0);
    r.pipeline->step(); // copies the input into its planes; makes side 0's framebuffer
    r.pipeline->step(); // side 1's framebuffer
    resetGlCalls();
    r.pipeline->step();
    CHECK_MESSAGE(glCalls().created == 0, glCalls().describe());
    // glDisable(RASTERIZER_DISCARD); the two planes: glActiveTexture and glBindTexture each, then
    // glActiveTexture(0); glBindVertexArray; the pass: glUseProgram, glBindFramebuffer, glViewport,
    // glDrawArrays; glBindFramebuffer(0). No copy: the state stays in its planes.
    CHECK(r.pipeline->lastStepGlCalls() == 12);
    CHECK(glCalls().of("glTexSubImage2D") == 0);
    CHECK(glCalls().of("glReadPixels") == 0);
    // A checked step knows its count at once: every element is rendered.
    StepReport report = r.pipeline->stepChecked();
    CHECK(report.ok());
    CHECK(report.written == n);
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: the state stays in its planes, and every read, upload, name and backend "
                          "sees each step") {
    const std::int64_t n = 1000; // 8000 words: a row of 2000 texels and a partial last row
    auto words = particleState(n, 41);
    Run tf = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                     {{kParticles, kParticles, words}}, n, Backend::TransformFeedback);
    Run fr = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                     {{kParticles, kParticles, words}}, n, Backend::Fragment);
    auto both = [&](auto&& f) { f(tf), f(fr); };
    int step = 0;
    auto steps = [&](int k) {
        for (int i = 0; i < k; ++i, ++step)
            both([&](Run& r) {
                particleUniforms(*r.program, step);
                r.pipeline->step();
            });
    };
    auto same = [&](const char* what) {
        for (std::size_t b = 0; b < 2; ++b)
            requireEqual(fr.buffers[b]->readAs<std::uint32_t>(), tf.buffers[b]->readAs<std::uint32_t>(), what);
    };
    // Several steps with nothing read between them: each buffer of the pair left stale in turn.
    steps(5);
    // A partial read writes back only what it reads, from either buffer of the pair.
    for (auto [first, count] : {std::pair<std::int64_t, std::int64_t>{0, 16}, {377, 1}, {984, 16}}) {
        CAPTURE(first);
        requireEqual(fr.buffers[0]->readAs<std::uint32_t>(first, count),
                     tf.buffers[0]->readAs<std::uint32_t>(first, count), "partial read");
    }
    resetGlCalls();
    (void)fr.buffers[0]->readAs<float>(0, 16); // one row gathered, 16 elements (32 texels) read
    CHECK(glCalls().of("glReadPixels") == 1);
    same("after steps and partial reads");
    // An upload between steps is what the next step reads (a partial one keeps the rest).
    steps(2);
    const std::vector<float> fresh = pseudoRandom(8 * 10, -2.0f, 2.0f, 5);
    both([&](Run& r) { r.buffers[0]->upload(std::as_bytes(std::span(fresh)), 8 * 4 * 100); });
    steps(3);
    same("after a partial upload");
    // A capture reads the planes' bytes: the particles program over the latest state, as points.
    steps(1);
    {
        std::vector<std::unique_ptr<Buffer>> outs;
        std::vector<std::vector<std::uint32_t>> got;
        for (Run* r : {&tf, &fr}) {
            outs.push_back(std::make_unique<Buffer>(dev, kParticles, n));
            PrimitiveCapture capture(dev, *r->program, {{r->buffers[0].get(), nullptr}, {nullptr, outs.back().get()}});
            capture.capture({DrawMode::Points, n});
            got.push_back(outs.back()->readAs<std::uint32_t>());
        }
        requireEqual(got[1], got[0], "a capture over the fragment backend's latest state");
    }
    // Another backend's step reads the planes' bytes, and the next fragment step reads its output.
    fr.pipeline->setBackend(Backend::TransformFeedback);
    steps(1);
    fr.pipeline->setBackend(Backend::Fragment);
    steps(2);
    same("after a transform-feedback step between fragment steps");
    // A handed-out name holds the latest step, and what the application writes into it before the
    // next step is what that step reads.
    steps(1);
    const std::size_t bytes = 32 * std::size_t(n);
    const GLuint latest = fr.buffers[0]->glName();
    requireEqual(glFloats(latest, bytes), tf.buffers[0]->readAs<float>(), "glName()'s buffer");
    const std::vector<float> behind = pseudoRandom(8, 0.0f, 1.0f, 9);
    glBindBuffer(GL_COPY_WRITE_BUFFER, latest);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, 32, behind.data());
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    tf.buffers[0]->upload(std::as_bytes(std::span(behind)), 0);
    steps(2);
    same("after a write behind xfb's back into a handed-out name");
    requireEqual(glFloats(fr.buffers[0]->glName(), bytes), tf.buffers[0]->readAs<float>(), "the next latest name");
    // The planes outlive the pipeline: its buffers still read the last step.
    steps(3);
    const auto want = tf.buffers[0]->readAs<std::uint32_t>();
    fr.pipeline.reset();
    requireEqual(fr.buffers[0]->readAs<std::uint32_t>(), want, "after the pipeline is destroyed");
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: with an owned context a step leaves GL_TEXTURE0 active, also when it "
                          "samples nothing") {
    // Owned: no guard restores the active unit, so the step itself must (its copies and new
    // planes use the highest units). A generator reads no planes: no unit loop resets it.
    Device owned(DeviceOptions{.ownsContext = true});
    Program program(
        owned,
        {"#version 300 es\nout vec4 out_p;\nvoid main() { out_p = vec4(float(gl_VertexID)); }", {}, {}, "generator"});
    Buffer out(owned, vec4Format(0), 40);
    Pipeline pipeline(owned, program, {{nullptr, &out}}, {.count = 40, .backend = Backend::Fragment});
    for (int s = 0; s < 2; ++s) {
        pipeline.step();
        GLint active = 0;
        glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
        CHECK(active == GL_TEXTURE0);
    }
    const auto got = out.readAs<float>();
    GLint active = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    CHECK(active == GL_TEXTURE0); // the read's write-back too
    CHECK(got[4 * 39] == 39.0f);
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: two pipelines sharing a state pair, stepped in turn, equal transform "
                          "feedback") {
    const std::int64_t n = 500;
    const auto words = particleState(n, 12);
    auto twoPipelines = [&](Backend backend) {
        auto a = std::make_unique<Buffer>(dev, kParticles, n, view(words));
        auto b = std::make_unique<Buffer>(dev, kParticles, n);
        auto p1 = std::make_unique<Program>(dev, ProgramDesc{std::string(xfb_shaders::particles_vert), {}, {}, "one"});
        auto p2 = std::make_unique<Program>(dev, ProgramDesc{std::string(xfb_shaders::particles_vert), {}, {}, "two"});
        particleUniforms(*p1, 0);
        particleUniforms(*p2, 1); // another dt and gravity: the order of the steps shows
        Pipeline q1(dev, *p1, {{a.get(), b.get()}}, {.backend = backend});
        Pipeline q2(dev, *p2, {{a.get(), b.get()}}, {.backend = backend});
        for (int s = 0; s < 5; ++s) (s % 2 ? q2 : q1).step(s % 3 == 2 ? 2 : 1);
        return std::pair{a->readAs<std::uint32_t>(), b->readAs<std::uint32_t>()};
    };
    const auto want = twoPipelines(Backend::TransformFeedback), got = twoPipelines(Backend::Fragment);
    requireEqual(got.first, want.first, "the pair's latest state");
    requireEqual(got.second, want.second, "its partner");
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: an adopted state pair holds every step, as its engine draws it") {
    const std::int64_t n = 300;
    const auto words = particleState(n, 6);
    GLuint names[2] = {};
    glGenBuffers(2, names);
    for (GLuint name : names) {
        glBindBuffer(GL_ARRAY_BUFFER, name);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(words.size() * 4), words.data(), GL_DYNAMIC_COPY);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    Run tf = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                     {{kParticles, kParticles, words}}, n, Backend::TransformFeedback);
    {
        Buffer a = Buffer::adopt(dev, kParticles, n, names[0]), b = Buffer::adopt(dev, kParticles, n, names[1]);
        Program program(dev, {std::string(xfb_shaders::particles_vert), {}, {}, "adopted"});
        Pipeline pipeline(dev, program, {{&a, &b}}, {.backend = Backend::Fragment});
        for (int s = 0; s < 5; ++s) {
            CAPTURE(s);
            particleUniforms(program, s);
            particleUniforms(*tf.program, s);
            pipeline.step();
            tf.pipeline->step();
            // The engine draws the name that holds the latest step, without asking xfb for it.
            requireEqual(glFloats(names[(s + 1) % 2], 32 * std::size_t(n)), tf.buffers[0]->readAs<float>(),
                         "the adopted name holding the latest step");
        }
    }
    glDeleteBuffers(2, names);
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: a constant input's and a write-only output's handed-out names stay "
                          "current at every step") {
    const std::int64_t n = 300;
    const std::vector<EntrySpec> specs = {{kParticles, std::nullopt, particleState(n, 4)},
                                          {std::nullopt, kParticles, {}}};
    Run tf = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved, specs, n,
                     Backend::TransformFeedback);
    Run fr =
        makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved, specs, n, Backend::Fragment);
    const GLuint constants = fr.buffers[0]->glName(), written = fr.buffers[1]->glName();
    const std::size_t bytes = 32 * std::size_t(n);
    const auto words = particleState(n, 4);
    std::vector<float> cpu(words.size()); // the constants as the application wrote them
    std::memcpy(cpu.data(), words.data(), words.size() * 4);
    for (int s = 0; s < 4; ++s) {
        CAPTURE(s);
        // The application writes the constants behind xfb's back: every step reads its writes.
        const std::vector<float> part = pseudoRandom(16, -1.0f, 1.0f, unsigned(20 + s));
        std::copy(part.begin(), part.end(), cpu.begin() + 8 * s);
        glBindBuffer(GL_COPY_WRITE_BUFFER, constants);
        glBufferSubData(GL_COPY_WRITE_BUFFER, 32 * s, 64, part.data());
        glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
        tf.buffers[0]->upload(std::as_bytes(std::span(part)), 32 * std::uint64_t(s));
        for (Run* r : {&tf, &fr}) {
            particleUniforms(*r->program, s);
            r->pipeline->step();
        }
        // Both against the C++ reference first: which side differs, where a driver drifts.
        std::vector<float> ref = cpu;
        particlesStep(ref, 0.015625f * float(1 + s % 2), {0.0f, -9.75f, 0.5f * float(s)});
        requireEqual(tf.buffers[1]->readAs<float>(), ref, "transform feedback's output");
        // The output's name, taken once, holds every step without another glName().
        requireEqual(glFloats(written, bytes), ref, "the fragment backend's write-only output's name");
    }
}

TEST_CASE_FIXTURE(GlTest, "fragment backend: the coded refusals") {
    // A lookup without an explicit-level form: its level would come from neighbouring elements.
    {
        const char* src = "#version 300 es\nuniform highp sampler2DArrayShadow table;\nin vec4 p;\nout vec4 out_p;\n"
                          "void main() { out_p = p + texture(table, p); }";
        Program program(dev, {src, {}, {}, "sampling"});
        std::vector<float> data = pseudoRandom(4 * 16, 0.0f, 1.0f, 2);
        Buffer a(dev, vec4Format(0), 16, view(data)), b(dev, vec4Format(0), 16);
        std::string msg = XFB_REQUIRE_ERROR(Pipeline(dev, program, {{&a, &b}}, {.backend = Backend::Fragment}),
                                            ErrorCode::ComputeTranslation);
        CHECK(contains(msg, "line 5"));
        CHECK(contains(msg, "'texture()'"));
        CHECK(contains(msg, "fragment shader"));
        CHECK(contains(msg, "textureLod"));
        Pipeline pipeline(dev, program, {{&a, &b}});
        XFB_REQUIRE_ERROR(pipeline.setBackend(Backend::Fragment), ErrorCode::ComputeTranslation);
        CHECK(pipeline.backend().backend == Backend::TransformFeedback); // unchanged, still usable
        CHECK_NOTHROW(pipeline.step());
    }
    // Emitted outputs run here (fragment_emit_test.cpp), but their totals stay in the pyramid's
    // top texel: no indirect-command buffer to hand out; drawEmitted() needs the bound program to
    // read the total (emittedDrawSnippet(), fragment_emit_test.cpp).
    {
        const char* src = "#version 300 es\nin vec4 p;\nout vec4 out_p;\nout vec4 emit_r[2];\nflat out int emit_n;\n"
                          "void main() { out_p = p; emit_n = 1; emit_r[0] = p; emit_r[1] = p; }";
        Program program(dev, {src, {}, {}, "emits"});
        Buffer a(dev, vec4Format(0), 8), b(dev, vec4Format(0), 8), records(dev, vec4Format(5), 16);
        Pipeline pipeline(dev, program, {{&a, &b}, {nullptr, &records}},
                          {.backend = Backend::Fragment, .emits = {{"emit_r", "emit_n"}}});
        pipeline.step();
        CHECK(pipeline.emitted().at(0).written == 8);
        std::string msg = XFB_REQUIRE_ERROR((void)pipeline.emitTotalsBuffer(), ErrorCode::Unsupported);
        CHECK(contains(msg, "Pipeline::emitTotalsBuffer"));
        CHECK(contains(msg, "pyramid's top texel"));
        msg = XFB_REQUIRE_ERROR(pipeline.drawEmitted("emit_n", DrawMode::Points), ErrorCode::InvalidArgument);
        CHECK(contains(msg, "Pipeline::drawEmitted('emit_n')"));
        CHECK(contains(msg, "xfb::emittedDrawSnippet()"));
    }
    // The replayed step of the npm package refuses it: a fragment step is no transform-feedback pass.
    {
        const std::int64_t n = 4;
        Run r = makeRun(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                        {{kParticles, kParticles, particleState(n, 1)}}, n, Backend::Fragment);
        CHECK(r.pipeline->backend().reason == "requested");
        CHECK(backendName(Backend::Fragment) == "fragment");
    }
}
