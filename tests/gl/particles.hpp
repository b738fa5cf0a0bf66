#pragma once
// The particles simulation (shaders/particles.vert) set up for a GL test: initial state, its
// program with uniforms set, and the C++ reference step with the same parameters.
#include "gl_fixture.hpp"
#include "reference.hpp"
#include "xfb_shaders.hpp"

#include <array>
#include <functional>

namespace xfbtest {

struct ParticleSim {
    std::int64_t n;
    float dt;
    std::array<float, 3> gravity;
    xfb::VertexFormat format = xfb::VertexFormat::interleaved({{xfb::attr(0)}, {xfb::attr(1)}});
    std::vector<float> initial;
    xfb::Program program;

    /// `life(e)`: the initial remaining life of particle e (decides when it respawns).
    ParticleSim(xfb::Device& dev, std::int64_t count, float step, std::array<float, 3> g, unsigned seed,
                const std::function<float(std::size_t)>& life)
        : n(count),
          dt(step),
          gravity(g),
          initial(pseudoRandom(std::size_t(count) * 8, -1.0f, 1.0f, seed)),
          program(dev, {std::string(xfb_shaders::particles_vert), {}, {}, "particles"}) {
        for (std::size_t e = 0; e < std::size_t(n); ++e) initial[e * 8 + 3] = life(e);
        program.setUniform("dt", dt);
        program.setUniform("gravity", glm::vec3(g[0], g[1], g[2]));
    }
    /// One reference step of `state` (interleaved position, velocity).
    void advance(std::vector<float>& state) const { particlesStep(state, dt, gravity); }
};

} // namespace xfbtest
