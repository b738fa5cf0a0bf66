#version 300 es
// The stream-output layout example: vec4 position, vec3 normal, vec2 uv captured interleaved
// gives a 36-byte stride with offsets 0, 16, 28.
precision highp float;

in vec4 position;
in vec3 normal;
in vec2 uv;

uniform float scale;

out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;

void main() {
    out_position = vec4(position.xyz * scale, position.w);
    out_normal = normal.zxy;
    out_uv = uv + vec2(0.5, 0.25);
}
