#version 310 es
// expect: accept
// GLSL ES 3.10 section 8.8 - 8.9: the integer functions (bitCount, findMSB, findLSB,
// bitfieldExtract, bitfieldInsert, bitfieldReverse, uaddCarry, usubBorrow, umulExtended,
// imulExtended), frexp / ldexp and the 4x8 packing functions.
precision highp float;
precision highp int;
in uvec4 u;
in ivec2 i;
in vec4 a;
flat out uvec4 out_counts;
flat out ivec4 out_fields;
flat out uvec4 out_carries;
out vec4 out_floats;
void main() {
    uint carry, borrow, hi, lo;
    uint sum = uaddCarry(u.x, u.y, carry);
    uint diff = usubBorrow(u.z, u.w, borrow);
    umulExtended(u.x, u.y, hi, lo);
    int ihi, ilo;
    imulExtended(i.x, i.y, ihi, ilo);
    out_counts = uvec4(bitCount(u.x), findMSB(u.y), findLSB(u.z), bitfieldReverse(u.w));
    out_fields = ivec4(bitfieldExtract(i.x, 3, 5), bitfieldInsert(i.y, i.x, 8, 4), ihi, ilo);
    out_carries = uvec4(sum + carry, diff + borrow, hi, lo) + uvec4(packUnorm4x8(fract(a)), packSnorm4x8(fract(a) - 0.5), 0u, 0u);
    int e;
    float m = frexp(a.x + 1.0, e);
    out_floats = vec4(m, float(e), ldexp(a.y, i.x % 8), unpackUnorm4x8(u.x).z);
}
