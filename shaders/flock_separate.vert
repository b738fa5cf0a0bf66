#version 300 es
// Separate mode with all three roles:
//   position, velocity: state ({input, output}), one buffer each, swapped every step;
//   params: per-element constants ({input}): x = max speed, y = steering gain;
//   out_instance: output only ({output}), instance data for a draw (position + a heading term).
// Only +, -, * and clamp, so a C++ reference built without FMA matches bit for bit.
precision highp float;

in vec4 position;   // ATTR0: xyz = position, w = age in steps
in vec4 velocity;   // ATTR1: xyz = velocity, w = id
in vec2 params;     // ATTR2

uniform float dt;
uniform vec3 target;

out vec4 out_position;
out vec4 out_velocity;
out vec4 out_instance;

void main() {
    vec3 toTarget = target - position.xyz;
    vec3 v = velocity.xyz + toTarget * (params.y * dt);
    v = clamp(v, vec3(-params.x), vec3(params.x));
    vec3 p = position.xyz + v * dt;
    out_position = vec4(p, position.w + 1.0);
    out_velocity = vec4(v, velocity.w);
    out_instance = vec4(p, v.x * v.z);
}
