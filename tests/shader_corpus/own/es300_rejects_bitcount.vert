#version 300 es
// expect: reject
// The oracle's negative: bitCount() is GLSL ES 3.10; glslang must refuse it in a 3.00 shader.
precision highp float;
in uvec2 bits;
flat out uint out_count;
void main() { out_count = uint(bitCount(bits.x)); }
