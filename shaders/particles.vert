#version 300 es
// Particles, interleaved state: position.xyz + life in one vec4, velocity.xyz + seed in another.
// Captured: out_position, out_velocity (every out_* output, declaration order) into one buffer.
precision highp float;

in vec4 position;   // ATTR0: xyz = position, w = remaining life in seconds
in vec4 velocity;   // ATTR1: xyz = velocity, w = per-particle seed

uniform float dt;
uniform vec3 gravity;

out vec4 out_position;
out vec4 out_velocity;

void main() {
    vec3 v = velocity.xyz + gravity * dt;
    vec3 p = position.xyz + v * dt;
    float life = position.w - dt;
    if (life < 0.0) {
        // Respawn at the origin with the velocity mirrored: deterministic, easy to reference.
        p = vec3(0.0);
        v = -velocity.xyz;
        life = life + 4.0;
    }
    out_position = vec4(p, life);
    out_velocity = vec4(v, velocity.w);
}
