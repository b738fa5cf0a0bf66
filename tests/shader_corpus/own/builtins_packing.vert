#version 300 es
// expect: accept
// Section 8.4: the floating-point pack and unpack functions of ES 3.00.
precision highp float;
in vec4 a;
flat out uvec4 out_packed;
out vec4 out_unpacked;
out vec2 out_half;
void main() {
    vec2 signedPair = fract(a.xy) * 2.0 - 1.0;
    uint snorm = packSnorm2x16(signedPair);
    uint unorm = packUnorm2x16(fract(a.zw));
    uint halfs = packHalf2x16(a.xy * 10.0);
    out_packed = uvec4(snorm, unorm, halfs, packHalf2x16(vec2(a.z, -a.w)));
    out_unpacked = vec4(unpackSnorm2x16(snorm), unpackUnorm2x16(unorm));
    out_half = unpackHalf2x16(halfs);
}
