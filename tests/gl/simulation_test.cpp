// GPU results of whole simulations, element by element against the C++ reference.
#include "gl_fixture.hpp"
#include "reference.hpp"
#include "xfb_shaders.hpp"

using namespace xfb;
using namespace xfbtest;

TEST_CASE_FIXTURE(GlTest,
                  "interleaved particles: 60 swap steps equal the C++ reference bit for bit, on both backends") {
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        const std::int64_t n = 1000;
        auto format = VertexFormat::interleaved({{attr(0)}, {attr(1)}});
        std::vector<float> ref = pseudoRandom(std::size_t(n) * 8, -1.0f, 1.0f, 7);
        for (std::size_t e = 0; e < std::size_t(n); ++e)
            ref[e * 8 + 3] = 0.0625f * float(e % 40); // lives: some respawn
        Buffer state(dev, format, n, view(ref)), scratch(dev, format, n);
        Program program(dev, {std::string(xfb_shaders::particles_vert), {CaptureMode::Interleaved}, {}, "particles"});
        Pipeline pipeline(dev, program, {{&state, &scratch}}, {.backend = backend});
        CHECK(pipeline.backend().backend == backend);
        CHECK(program.capture().buffers[0].stride == 32);

        const float dt = 0.015625f;
        program.setUniform("dt", dt);
        program.setUniform("gravity", glm::vec3(0.0f, -9.75f, 0.5f));
        const unsigned nameA = state.glName(), nameB = scratch.glName();
        for (int step = 1; step <= 60; ++step) {
            pipeline.step();
            particlesStep(ref, dt, {0.0f, -9.75f, 0.5f});
            // The GL buffers swap under the user's handles: `state` always names the newest state.
            CHECK(state.glName() == (step % 2 ? nameB : nameA));
            CHECK(scratch.glName() == (step % 2 ? nameA : nameB));
            if (step == 1 || step == 7 || step == 60) requireEqual(state.readAs<float>(), ref, "particle state");
        }
        CHECK(pipeline.stepsTaken() == 60);
    }
}

TEST_CASE_FIXTURE(GlTest, "separate mode with all three roles: state pairs, constants, write-only instances") {
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        const std::int64_t n = 513; // not a multiple of anything convenient
        auto pos = pseudoRandom(std::size_t(n) * 4, -4.0f, 4.0f, 1);
        auto vel = pseudoRandom(std::size_t(n) * 4, -1.0f, 1.0f, 2);
        auto params = pseudoRandom(std::size_t(n) * 2, 0.25f, 2.0f, 3);
        std::vector<float> instance(std::size_t(n) * 4);
        auto paramsFormat = VertexFormat::interleaved({{attr(2), ComponentType::Float32, 2}});
        Buffer position(dev, vec4Format(0), n, view(pos)), positionOut(dev, vec4Format(0), n);
        Buffer velocity(dev, vec4Format(1), n, view(vel)), velocityOut(dev, vec4Format(1), n);
        Buffer constants(dev, paramsFormat, n, view(params));
        // The instance buffer carries the semantic its draw will use (ATTR12), not the simulation's.
        Buffer instances(dev, vec4Format(12), n);

        Program program(dev, {std::string(xfb_shaders::flock_separate_vert), {CaptureMode::Separate}, {}, "flock"});
        Pipeline pipeline(
            dev, program,
            {{&position, &positionOut}, {&velocity, &velocityOut}, {&constants, nullptr}, {nullptr, &instances}},
            {.backend = backend});
        REQUIRE(pipeline.plan().outputs.size() == 3);
        CHECK(pipeline.plan().outputs[2].entry == 3);
        CHECK(pipeline.plan().outputs[2].binding == 2);

        const float dt = 0.125f;
        program.setUniform("dt", dt);
        for (int step = 1; step <= 40; ++step) {
            glm::vec3 target(float(step % 5) - 2.0f, 1.0f, -0.5f * float(step % 3));
            program.setUniform("target", target);
            pipeline.step();
            flockStep(pos, vel, params, instance, dt, {target.x, target.y, target.z});
        }
        // flock_separate.vert's mul + add pairs are fused by NVIDIA (GLSL ES 3.00 has no `precise`).
        requireSimulated(position.readAs<float>(), pos, "position");
        requireSimulated(velocity.readAs<float>(), vel, "velocity");
        requireSimulated(instances.readAs<float>(), instance, "instances");
        requireEqual(constants.readAs<float>(), params, "constants (never written)");
    }
}

TEST_CASE_FIXTURE(GlTest, "the 36-byte layout: captured at offsets 0, 16, 28 and re-bound as vertex input") {
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        const std::int64_t n = 64;
        auto in = pseudoRandom(std::size_t(n) * 9, -2.0f, 2.0f, 11);
        auto inFormat = VertexFormat::interleaved({{attr(0), ComponentType::Float32, 4},
                                                   {attr(1), ComponentType::Float32, 3},
                                                   {attr(2), ComponentType::Float32, 2}});
        CHECK(inFormat.stride == 36);
        Program program(dev, {std::string(xfb_shaders::layout36_vert), {}, {}, "layout36"});
        const OutputLayout& layout = program.capture().buffers[0];
        REQUIRE(layout.fields.size() == 3);
        CHECK(layout.stride == 36);
        CHECK(layout.fields[0].offset == 0);
        CHECK(layout.fields[1].offset == 16);
        CHECK(layout.fields[2].offset == 28);

        // Pass 1: source -> captured (output only).
        Buffer source(dev, inFormat, n, view(in));
        Buffer captured(dev, layout.asVertexFormat(), n);
        Pipeline first(dev, program, {{&source, nullptr}, {nullptr, &captured}}, {.backend = backend});
        program.setUniform("scale", 2.0f);
        first.step();
        std::vector<float> ref(in.size());
        for (std::size_t e = 0; e < std::size_t(n); ++e) {
            const float* s = &in[e * 9];
            float* d = &ref[e * 9];
            for (int i = 0; i < 3; ++i) d[i] = s[i] * 2.0f;
            d[3] = s[3];
            d[4] = s[6], d[5] = s[4], d[6] = s[5]; // normal.zxy
            d[7] = s[7] + 0.5f, d[8] = s[8] + 0.25f;
        }
        requireEqual(captured.readAs<float>(), ref, "captured 36-byte records");

        // Pass 2: the captured buffer read back as vertex input with the same offsets.
        Buffer again(dev, layout.asVertexFormat(), n);
        Pipeline second(dev, program, {{&captured, nullptr}, {nullptr, &again}}, {.backend = backend});
        program.setUniform("scale", 1.0f);
        second.step();
        for (std::size_t e = 0; e < std::size_t(n); ++e) {
            float* d = &ref[e * 9];
            float nx = d[4], ny = d[5], nz = d[6];
            d[4] = nz, d[5] = nx, d[6] = ny;
            d[7] += 0.5f, d[8] += 0.25f;
        }
        requireEqual(again.readAs<float>(), ref, "records after the second pass");
    }
}

TEST_CASE_FIXTURE(GlTest, "integer state through glVertexAttribIPointer, and a matrix input taking 4 slots") {
    const char* src = R"(#version 300 es
in mat4 transform;      // ATTR0..ATTR3
in uvec2 counter;       // ATTR4
in ivec4 cells;         // ATTR5
flat out uvec2 out_counter;
flat out ivec4 out_cells;
out vec4 out_moved;
void main() {
    out_counter = uvec2(counter.x + 1u, counter.y * 3u);
    out_cells = cells - ivec4(1, 2, 3, 4);
    out_moved = transform * vec4(1.0, 2.0, 3.0, 1.0);
})";
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Program program(dev, {src, {}, {}, "ints"});
        CHECK(program.attributes()[1].location == 4);
        const std::int64_t n = 50;
        auto stateFormat =
            VertexFormat::interleaved({{attr(4), ComponentType::UInt32, 2}, {attr(5), ComponentType::Int32, 4}});
        std::vector<std::int32_t> state(std::size_t(n) * 6);
        for (std::size_t e = 0; e < state.size(); ++e) state[e] = std::int32_t(e * 7 % 100);
        auto matrices = pseudoRandom(std::size_t(n) * 16, -1.0f, 1.0f, 5);
        Buffer a(dev, stateFormat, n, view(state)), b(dev, stateFormat, n);
        Buffer mats(dev, VertexFormat::interleaved({{attr(0), ComponentType::Float32, 16}}), n, view(matrices));
        auto movedFormat = vec4Format(9);
        Buffer moved(dev, movedFormat, n);
        // Two programs from one source with different capture lists: the integer state pair, and a
        // write-only output of the matrix product.
        Program split(dev, {src, {CaptureMode::Interleaved, {"out_counter", "out_cells"}}, {}, "ints-state"});
        Pipeline step(dev, split, {{&a, &b}, {&mats, nullptr}}, {.backend = backend});
        Program movedOnly(dev, {src, {CaptureMode::Interleaved, {"out_moved"}}, {}, "ints-moved"});
        Pipeline draw(dev, movedOnly, {{&a, nullptr}, {&mats, nullptr}, {nullptr, &moved}}, {.backend = backend});
        for (int s = 0; s < 3; ++s) {
            step.step();
            for (std::size_t e = 0; e < std::size_t(n); ++e) {
                auto* c = reinterpret_cast<std::uint32_t*>(&state[e * 6]);
                c[0] = c[0] + 1u;
                c[1] = c[1] * 3u;
                for (int i = 0; i < 4; ++i) state[e * 6 + 2 + std::size_t(i)] -= i + 1;
            }
        }
        requireEqual(a.readAs<std::int32_t>(), state, "integer state");
        draw.step();
        auto gpu = moved.readAs<float>();
        for (std::size_t e = 0; e < std::size_t(n); ++e)
            for (int r = 0; r < 4; ++r) {
                const float* m = &matrices[e * 16]; // column-major: column c at m[4c]
                float expect = m[r] * 1.0f + m[4 + r] * 2.0f + m[8 + r] * 3.0f + m[12 + r] * 1.0f;
                CHECK(gpu[e * 4 + std::size_t(r)] == doctest::Approx(expect).epsilon(1e-6));
            }
    }
}

TEST_CASE_FIXTURE(GlTest, "legacy GLSL ES 1.00 with standard names (the PlayCanvas example)") {
    const char* src = R"(
attribute vec4 vertex_position; // xyz = position, w = lifetime
varying vec4 out_vertex_position;
uniform float deltaTime;
void main(void) {
    vec3 pos = vertex_position.xyz;
    float life = vertex_position.w - deltaTime;
    pos.y += deltaTime;
    out_vertex_position = vec4(pos, life);
})";
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Program program(dev, {src, {}, {}, "legacy"});
        CHECK(program.attributes()[0].semantic == Semantic::Position);
        auto format = VertexFormat::interleaved({{Semantic::Position}});
        std::vector<float> data = pseudoRandom(400, 0.0f, 1.0f, 9);
        Buffer a(dev, format, 100, view(data)), b(dev, format, 100);
        Pipeline p(dev, program, {{&a, &b}}, {.backend = backend});
        program.setUniform("deltaTime", 0.25f);
        p.step();
        p.step();
        for (std::size_t i = 0; i < data.size(); i += 4) {
            data[i + 1] = (data[i + 1] + 0.25f) + 0.25f;
            data[i + 3] = (data[i + 3] - 0.25f) - 0.25f;
        }
        requireEqual(a.readAs<float>(), data, "legacy state");
    }
}

TEST_CASE_FIXTURE(GlTest, "a generator with no inputs runs on gl_VertexID with an explicit count") {
    const char* src = "#version 300 es\nflat out int out_id;\nout float out_half;\n"
                      "void main() { out_id = gl_VertexID * 2; out_half = float(gl_VertexID) * 0.5; }";
    for (Backend backend : backendsOf(dev)) {
        CAPTURE(backendName(backend));
        Program program(dev, {src, {CaptureMode::Separate}, {}, "generator"});
        Buffer ids(dev, VertexFormat::interleaved({{attr(0), ComponentType::Int32, 1}}), 300);
        Buffer halves(dev, VertexFormat::interleaved({{attr(1), ComponentType::Float32, 1}}), 300);
        Pipeline p(dev, program, {{nullptr, &ids}, {nullptr, &halves}}, {.count = 300, .backend = backend});
        p.step();
        auto gotIds = ids.readAs<std::int32_t>();
        auto gotHalves = halves.readAs<float>();
        for (int i = 0; i < 300; ++i) {
            CHECK(gotIds[std::size_t(i)] == 2 * i);
            CHECK(gotHalves[std::size_t(i)] == float(i) * 0.5f);
        }
    }
}
