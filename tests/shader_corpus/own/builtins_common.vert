#version 300 es
// expect: accept
// Section 8.3: the common functions: abs, sign, floor, trunc, round, roundEven, ceil, fract, mod,
// modf, min, max, clamp, mix (float and bool selector), step, smoothstep, isnan, isinf and the
// float <-> bits conversions.
precision highp float;
precision highp int;
in vec4 a;
in ivec2 n;
out vec4 out_rounding;
out vec4 out_ranges;
out vec4 out_mix;
flat out ivec4 out_bits;
flat out uvec2 out_ubits;
void main() {
    vec4 x = a * 3.0 - 1.5;
    vec4 whole;
    vec4 parts = modf(x, whole);
    out_rounding = vec4(floor(x.x) + trunc(x.y), round(x.z) + roundEven(x.w), ceil(x.x) + fract(x.y), parts.z + whole.w);
    out_ranges = vec4(abs(x.x) + sign(x.y), mod(x.z, 0.75) + mod(x, vec4(1.25)).w, min(x.x, x.y) + max(x.z, 0.0),
                      clamp(x.w, -1.0, 1.0));
    bvec2 pickSecond = greaterThan(x.xy, vec2(0.0));
    out_mix = vec4(mix(x.x, x.y, 0.25), mix(x.zw, x.yx, pickSecond), step(0.5, x.z) + smoothstep(-1.0, 1.0, x.w));
    bool special = isnan(x.x) || isinf(x.y);
    out_bits = ivec4(floatBitsToInt(x.x), abs(n.x) + sign(n.y), clamp(n.x, -3, 3) + min(n.x, n.y) + max(n.x, 2),
                     special ? 1 : 0);
    out_ubits = uvec2(floatBitsToUint(x.y), floatBitsToUint(intBitsToFloat(n.x) + uintBitsToFloat(0x3f800000u)));
}
