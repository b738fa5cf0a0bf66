#version 300 es
// The benchmark workload: vec4 position + vec4 velocity state, a uniform dt. Reads and writes
// 32 bytes per element, so it is bound by memory bandwidth on a GPU.
precision highp float;

in vec4 position;
in vec4 velocity;

uniform float dt;

out vec4 out_position;
out vec4 out_velocity;

void main() {
    vec4 v = velocity + vec4(0.0, -9.81, 0.0, 0.0) * dt;
    out_position = position + v * dt;
    out_velocity = v;
}
