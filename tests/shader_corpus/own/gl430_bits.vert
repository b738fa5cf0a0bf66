#version 430
// expect: accept
// Desktop GLSL 4.30 (the GL 4.3 core path): the integer functions there, fma(), and a double-free
// subset of what 4.x adds to a vertex shader (explicit locations, uint literals, bit operations).
layout(location = 0) in uvec2 bits;
layout(location = 1) in vec3 v;
flat out uvec4 out_bits;
out vec4 out_fma;
void main() {
    out_bits = uvec4(uint(bitCount(bits.x)), uint(findMSB(bits.y)), bitfieldReverse(bits.x), bitfieldExtract(bits.y, 4, 8));
    out_fma = vec4(fma(v.x, v.y, v.z), packHalf2x16(v.xy) & 0xffu, roundEven(v.z), inversesqrt(abs(v.x) + 1.0));
}
