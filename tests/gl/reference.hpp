#pragma once
// C++ references of the test shaders in shaders/, written operation for operation like the GLSL
// (built with -ffp-contract=off, so no multiply-add is fused) for bit-exact comparison.
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace xfbtest {

// shaders/particles.vert; state = interleaved {position vec4, velocity vec4} per particle.
inline void particlesStep(std::vector<float>& state, float dt, std::array<float, 3> gravity) {
    for (std::size_t e = 0; e + 8 <= state.size(); e += 8) {
        float* pos = &state[e];
        float* vel = &state[e + 4];
        float v[3], p[3];
        for (int i = 0; i < 3; ++i) v[i] = vel[i] + gravity[std::size_t(i)] * dt;
        for (int i = 0; i < 3; ++i) p[i] = pos[i] + v[i] * dt;
        float life = pos[3] - dt;
        if (life < 0.0f) {
            for (int i = 0; i < 3; ++i) {
                p[i] = 0.0f;
                v[i] = -vel[i];
            }
            life = life + 4.0f;
        }
        for (int i = 0; i < 3; ++i) {
            pos[i] = p[i];
            vel[i] = v[i];
        }
        pos[3] = life;
    }
}

// shaders/flock_separate.vert; separate buffers; instance is written, never read.
inline void flockStep(std::vector<float>& position, std::vector<float>& velocity, const std::vector<float>& params,
                      std::vector<float>& instance, float dt, std::array<float, 3> target) {
    for (std::size_t e = 0; e < position.size() / 4; ++e) {
        float* pos = &position[4 * e];
        float* vel = &velocity[4 * e];
        float maxSpeed = params[2 * e], gain = params[2 * e + 1];
        float s = gain * dt;
        float v[3], p[3];
        for (int i = 0; i < 3; ++i) {
            float toTarget = target[std::size_t(i)] - pos[i];
            v[i] = std::clamp(vel[i] + toTarget * s, -maxSpeed, maxSpeed);
        }
        for (int i = 0; i < 3; ++i) p[i] = pos[i] + v[i] * dt;
        for (int i = 0; i < 3; ++i) {
            pos[i] = p[i];
            vel[i] = v[i];
            instance[4 * e + std::size_t(i)] = p[i];
        }
        pos[3] = pos[3] + 1.0f;
        instance[4 * e + 3] = v[0] * v[2];
    }
}

} // namespace xfbtest
