#version 300 es
// expect: accept
// Section 5.5: component selection in the three name sets (xyzw, rgba, stp), repeated components
// on the right-hand side, swizzled l-values, swizzles of swizzles and of constructor results.
precision highp float;
in vec4 a;
in vec3 b;
out vec4 out_a;
out vec4 out_b;
out vec3 out_c;
void main() {
    vec4 v = a.wzyx;
    v.xy = b.zx;
    v.ba += a.rg;
    vec2 tex = a.st * b.sp.y;
    vec4 wide = b.xxyy + a.yyyy;
    float x = vec3(tex, 1.0).zyx.x;
    vec3 w = v.xyz;
    w.zx = w.xz;
    w.y *= x;
    out_a = v;
    out_b = wide + vec4(tex, x, 0.0);
    out_c = w.bgr;
}
