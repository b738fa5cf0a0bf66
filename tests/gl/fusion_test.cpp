// Fused substeps on the GPU: step(k) of an element-local simulation (one generated pass) equals k
// single steps bit for bit, on both backends, for every element-local test simulation in shaders/;
// simulations that read other elements refuse with their reason and run k ordinary passes.
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

// One simulation set up twice from the same data: `fused` runs step(k) in one pass, `single` as k passes.
struct Twin {
    std::vector<std::unique_ptr<Buffer>> buffers; // per pipeline: the entries' buffers in order
    std::vector<std::size_t> results;             // the buffers that name results: inputs and write-only outputs
    std::unique_ptr<Program> program;
    std::unique_ptr<Pipeline> pipeline;
};

struct EntrySpec {
    std::optional<VertexFormat> input, output;
    std::vector<float> data; // input contents (raw 32-bit words; ints stored by bit pattern)
};

Twin makeTwin(Device& dev, const std::string& source, CaptureMode mode, const std::vector<EntrySpec>& specs,
              std::int64_t n, Backend backend, const std::function<void(Program&)>& uniforms, bool fuse = true) {
    Twin t;
    t.program = std::make_unique<Program>(dev, ProgramDesc{source, {mode}, {}, "fusion"});
    std::vector<Entry> entries;
    for (const auto& s : specs) {
        Entry e;
        if (s.input)
            t.results.push_back(t.buffers.size()),
                e.input = t.buffers.emplace_back(std::make_unique<Buffer>(dev, *s.input, n, view(s.data))).get();
        if (s.output && !s.input) t.results.push_back(t.buffers.size());
        // A state pair's second buffer holds the state before the last pass: k substeps back
        // after step(k), one after step(); only the first names the result.
        if (s.output) e.output = t.buffers.emplace_back(std::make_unique<Buffer>(dev, *s.output, n)).get();
        entries.push_back(e);
    }
    t.pipeline = std::make_unique<Pipeline>(dev, *t.program, entries,
                                            PipelineOptions{.count = n, .backend = backend, .fuseSubsteps = fuse});
    uniforms(*t.program);
    return t;
}

// Runs `rounds` x step(k) against the same with fusion off (k ordinary passes each) and compares every buffer the user
// holds (state, constants, write-only outputs) byte for byte.
void requireFusedEqualsSingle(Device& dev, const std::string& source, CaptureMode mode,
                              const std::vector<EntrySpec>& specs, std::int64_t n,
                              const std::function<void(Program&)>& uniforms, bool expectFused) {
    for (Backend backend : backendsOf(dev))
        for (int k : {2, 5, 16}) {
            CAPTURE(backendName(backend));
            CAPTURE(k);
            Twin fused = makeTwin(dev, source, mode, specs, n, backend, uniforms);
            Twin single = makeTwin(dev, source, mode, specs, n, backend, uniforms, false);
            CHECK(single.pipeline->fusion().reason == "PipelineOptions::fuseSubsteps is off");
            CHECK_MESSAGE(fused.pipeline->fusion().fused == expectFused, fused.pipeline->fusion().reason);
            const int rounds = 3;
            for (int r = 0; r < rounds; ++r) {
                fused.pipeline->step(k);
                single.pipeline->step(k);
            }
            CHECK(fused.pipeline->stepsTaken() == std::uint64_t(rounds * k));
            CHECK(single.pipeline->stepsTaken() == std::uint64_t(rounds * k));
            for (std::size_t b : fused.results) {
                CAPTURE(b);
                auto a = fused.buffers[b]->read(), e = single.buffers[b]->read();
                REQUIRE(a.size() == e.size());
                std::size_t firstDiff = 0;
                while (firstDiff < a.size() && a[firstDiff] == e[firstDiff]) ++firstDiff;
                CHECK_MESSAGE(firstDiff == a.size(), "buffer ", b, " differs at byte ", firstDiff);
            }
        }
}

} // namespace

TEST_CASE_FIXTURE(GlTest,
                  "fused particles (interleaved state, respawn branch) equal k single steps and the C++ reference") {
    const std::int64_t n = 777;
    auto format = VertexFormat::interleaved({{attr(0)}, {attr(1)}});
    std::vector<float> state = pseudoRandom(std::size_t(n) * 8, -1.0f, 1.0f, 5);
    for (std::size_t e = 0; e < std::size_t(n); ++e)
        state[e * 8 + 3] = 0.0625f * float(e % 40); // some respawn mid-loop
    auto uniforms = [](Program& p) {
        p.setUniform("dt", 0.015625f);
        p.setUniform("gravity", glm::vec3(0.0f, -9.75f, 0.5f));
    };
    requireFusedEqualsSingle(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                             {{format, format, state}}, n, uniforms, true);

    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Twin t = makeTwin(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved,
                          {{format, format, state}}, n, backend, uniforms);
        std::vector<float> ref = state;
        t.pipeline->step(16);
        for (int s = 0; s < 16; ++s) particlesStep(ref, 0.015625f, {0.0f, -9.75f, 0.5f});
        requireEqual(t.buffers[0]->readAs<float>(), ref, "16 fused substeps vs the reference");
        // Steady state: the fused program for this k exists; a step creates no GL object and
        // makes as many calls as a single step.
        t.pipeline->step(16);
        resetGlCalls();
        t.pipeline->step(16);
        CHECK_MESSAGE(glCalls().created == 0, glCalls().describe());
        long fusedCalls = glCalls().withoutGetError();
        t.pipeline->step(); // the fragment backend's plain pass makes a framebuffer per side here
        t.pipeline->step();
        resetGlCalls();
        t.pipeline->step();
        CHECK(glCalls().withoutGetError() == fusedCalls);
    }
}

TEST_CASE_FIXTURE(
    GlTest,
    "fused flock (separate buffers, constants, write-only instances keep the last substep) equal k single steps") {
    const std::int64_t n = 513;
    auto params = pseudoRandom(std::size_t(n) * 2, 0.25f, 2.0f, 3);
    auto paramsFormat = VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}});
    auto uniforms = [](Program& p) {
        p.setUniform("dt", 0.125f);
        p.setUniform("target", glm::vec3(1.0f, -0.5f, 2.0f));
    };
    requireFusedEqualsSingle(dev, std::string(xfb_shaders::flock_separate_vert), CaptureMode::Separate,
                             {{vec4Format(0), vec4Format(0), pseudoRandom(std::size_t(n) * 4, -4.0f, 4.0f, 1)},
                              {vec4Format(1), vec4Format(1), pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 2)},
                              {paramsFormat, std::nullopt, params},
                              {std::nullopt, vec4Format(12), {}}},
                             n, uniforms, true);
}

TEST_CASE_FIXTURE(
    GlTest,
    "the other element-local test shaders fuse: the benchmark particles, the 36-byte layout, the capture mesh") {
    const std::int64_t n = 300;
    auto state = VertexFormat::interleaved({{attr(0)}, {attr(1)}});
    requireFusedEqualsSingle(
        dev, std::string(xfb_shaders::bench_particles_vert), CaptureMode::Interleaved,
        {{state, state, pseudoRandom(std::size_t(n) * 8, -2.0f, 2.0f, 9)}}, n,
        [](Program& p) { p.setUniform("dt", 0.03125f); }, true);
    // No state pair: every substep computes the same outputs from the same inputs.
    auto in36 = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                           {attr(1), ComponentType::Float32, 3},
                                           {attr(2), ComponentType::Float32, 2}});
    Program probe(dev, {std::string(xfb_shaders::layout36_vert), {CaptureMode::Interleaved}, {}, "layout36"});
    requireFusedEqualsSingle(
        dev, std::string(xfb_shaders::layout36_vert), CaptureMode::Interleaved,
        {{in36, std::nullopt, pseudoRandom(std::size_t(n) * 9, -2.0f, 2.0f, 11)},
         {std::nullopt, probe.capture().buffers[0].asVertexFormat(), {}}},
        n, [](Program& p) { p.setUniform("scale", 1.5f); }, true);
    Program mesh(dev, {std::string(xfb_shaders::capture_mesh_vert), {CaptureMode::Interleaved}, {}, "mesh"});
    auto meshIn =
        VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4}, {attr(1), ComponentType::Float32, 2}});
    requireFusedEqualsSingle(
        dev, std::string(xfb_shaders::capture_mesh_vert), CaptureMode::Interleaved,
        {{meshIn, std::nullopt, pseudoRandom(std::size_t(n) * 6, -2.0f, 2.0f, 13)},
         {std::nullopt, mesh.capture().buffers[0].asVertexFormat(), {}}},
        n, [](Program& p) { p.setUniform("u_scale", 2.0f); }, true);
}

TEST_CASE_FIXTURE(GlTest,
                  "int and uint state feed back through the interleaved layout, and xfb_substep counts the substeps") {
    const std::int64_t n = 100;
    // The record as the captured layout writes it: out_id @0, out_hits @4, out_x @8.
    auto format = VertexFormat::interleaved({{attr(1), ComponentType::UInt32, 1},
                                             {attr(2), ComponentType::Int32, 1},
                                             {attr(0), ComponentType::Float32, 1}});
    std::vector<float> words(std::size_t(n) * 3);
    for (std::size_t e = 0; e < std::size_t(n); ++e) {
        std::uint32_t id = std::uint32_t(e * 2654435761u);
        std::int32_t hits = std::int32_t(e) - 50;
        float x = 0.25f * float(e);
        std::memcpy(&words[e * 3], &id, 4);
        std::memcpy(&words[e * 3 + 1], &hits, 4);
        std::memcpy(&words[e * 3 + 2], &x, 4);
    }
    auto uniforms = [](Program& p) { p.setUniform("scale", 0.5f); };
    requireFusedEqualsSingle(dev, std::string(xfb_shaders::integer_state_vert), CaptureMode::Interleaved,
                             {{format, format, words}}, n, uniforms, true);

    // Independent of both: after step(4), hits grew by sum(1 - 7 s) over s = 0..3 = 4 - 42.
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Twin t = makeTwin(dev, std::string(xfb_shaders::integer_state_vert), CaptureMode::Interleaved,
                          {{format, format, words}}, n, backend, uniforms);
        t.pipeline->step(4);
        auto out = t.buffers[0]->readAs<std::int32_t>();
        std::uint32_t id = 0;
        std::memcpy(&id, &words[3 * 9], 4);
        for (int s = 0; s < 4; ++s) id = id * 3u + 9u;
        CHECK(out[3 * 9 + 1] == 9 - 50 + 4 - 42);
        CHECK(std::uint32_t(out[3 * 9]) == id);
    }
}

namespace {
// Simulations that read other elements, modelled on the flock and cloth demos (shaders/neighbour_fetch.vert:
// texelFetch of the whole state bound as a texture): each substep needs every element's previous one.
const char* kClothLike = R"(#version 300 es
precision highp float;
in vec4 position;
uniform float dt;
out vec4 out_position;
vec4 previous = vec4(0.0);
void main() {
    out_position = position + previous * dt;
    previous = position;
}
)";
} // namespace

TEST_CASE_FIXTURE(GlTest, "a simulation that reads other elements refuses fusion with the reason, and runs k ordinary "
                          "passes with xfb_substep set") {
    const std::int64_t n = 8;
    auto state = pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 21);
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Twin t = makeTwin(dev, std::string(xfb_shaders::neighbour_fetch_vert), CaptureMode::Interleaved,
                          {{vec4Format(0), vec4Format(0), state}}, n, backend, [](Program&) {});
        CHECK_FALSE(t.pipeline->fusion().fused);
        CHECK_MESSAGE(t.pipeline->fusion().reason.find("line 6: uniform 'positions' is a sampler2D") !=
                          std::string::npos,
                      t.pipeline->fusion().reason);
        t.pipeline->step(4);
        CHECK(t.pipeline->stepsTaken() == 4);
        auto out = t.buffers[0]->readAs<float>();
        // x grew by the substep indices 0 + 1 + 2 + 3, y by one per pass.
        CHECK(out[4 * 3] == state[4 * 3] + 6.0f);
        CHECK(out[4 * 3 + 1] == state[4 * 3 + 1] + 4.0f);
        t.pipeline->step();
        CHECK(t.buffers[0]->readAs<float>()[4 * 3] == out[4 * 3]); // a plain step is substep 0

        Twin cloth = makeTwin(dev, kClothLike, CaptureMode::Interleaved, {{vec4Format(0), vec4Format(0), state}}, n,
                              backend, [](Program& p) { p.setUniform("dt", 0.5f); });
        CHECK_FALSE(cloth.pipeline->fusion().fused);
        CHECK_MESSAGE(cloth.pipeline->fusion().reason.find("global variable 'previous'") != std::string::npos,
                      cloth.pipeline->fusion().reason);
        cloth.pipeline->step(3);
        CHECK(cloth.pipeline->stepsTaken() == 3);
        requireEqual(cloth.buffers[0]->readAs<float>(), state, "a pass adds previous * dt = 0");
    }
    Twin t = makeTwin(dev, kClothLike, CaptureMode::Interleaved, {{vec4Format(0), vec4Format(0), state}}, n,
                      Backend::TransformFeedback, [](Program&) {});
    CHECK(contains(XFB_REQUIRE_ERROR(t.pipeline->step(0), ErrorCode::InvalidArgument), "must be 1..256"));
    // Above limits::maxSubsteps: refused before any pass, nothing stepped.
    const std::uint64_t before = t.pipeline->stepsTaken();
    CHECK(contains(XFB_REQUIRE_ERROR(t.pipeline->step(limits::maxSubsteps + 1), ErrorCode::InvalidArgument),
                   "limits::maxSubsteps"));
    CHECK(t.pipeline->stepsTaken() == before);
}

TEST_CASE_FIXTURE(GlTest, "fused programs are kept per backend across setBackend and rebuilt after a context loss") {
    const std::int64_t n = 200;
    auto format = VertexFormat::interleaved({{attr(0)}, {attr(1)}});
    std::vector<float> ref = pseudoRandom(std::size_t(n) * 8, -1.0f, 1.0f, 31);
    for (std::size_t e = 0; e < std::size_t(n); ++e) ref[e * 8 + 3] = 0.0625f * float(e % 40);
    auto uniforms = [](Program& p) {
        p.setUniform("dt", 0.015625f);
        p.setUniform("gravity", glm::vec3(0.0f, -9.75f, 0.5f));
    };
    Twin t = makeTwin(dev, std::string(xfb_shaders::particles_vert), CaptureMode::Interleaved, {{format, format, ref}},
                      n, Backend::TransformFeedback, uniforms);
    auto advance = [&](int k) {
        t.pipeline->step(k);
        for (int s = 0; s < k; ++s) particlesStep(ref, 0.015625f, {0.0f, -9.75f, 0.5f});
    };
    advance(4);
    std::uint64_t steps = 4;
    for (Backend other : backendsOf(dev)) {
        if (other == Backend::TransformFeedback) continue;
        CAPTURE(backendName(other));
        t.pipeline->setBackend(other);
        advance(4);
        t.pipeline->setBackend(Backend::TransformFeedback);
        resetGlCalls();
        advance(4); // the transform-feedback program for k = 4 is still there
        CHECK_MESSAGE(glCalls().created == 0, glCalls().describe());
        t.pipeline->setBackend(other);
        resetGlCalls();
        advance(4); // and so is the other backend's
        CHECK_MESSAGE(glCalls().created == 0, glCalls().describe());
        t.pipeline->setBackend(Backend::TransformFeedback);
        steps += 12;
    }
    requireEqual(t.buffers[0]->readAs<float>(), ref, "fused across backend switches");
    t.pipeline->setBackend(Backend::Fragment); // restored on the fragment backend
    dev.contextLost();
    XFB_REQUIRE_ERROR(t.pipeline->step(4), ErrorCode::ContextLost);
    dev.contextRestored(); // here the context never went away: new objects are made all the same
    t.buffers[0]->upload(view(ref));
    advance(4);
    advance(2);
    requireEqual(t.buffers[0]->readAs<float>(), ref, "fused after a context restoration");
    CHECK(t.pipeline->backend().backend == Backend::Fragment);
    CHECK(t.pipeline->stepsTaken() == steps + 6);
}
