#version 300 es
// expect: accept
// Section 8.1: every angle and trigonometry function, at arguments inside their domains.
precision highp float;
in vec4 a;
out vec4 out_angles;
out vec4 out_direct;
out vec4 out_inverse;
out vec4 out_hyperbolic;
void main() {
    vec4 unit = fract(a) * 1.8 - 0.9; // inside (-1, 1) for asin, acos and atanh
    out_angles = vec4(radians(a.x * 90.0), degrees(a.y), atan(a.z, a.w + 0.5), atan(a.x));
    out_direct = vec4(sin(a.x), cos(a.y), tan(unit.z), sin(a.w * 3.0));
    out_inverse = vec4(asin(unit.x), acos(unit.y), atan(unit.z, -1.0), acos(unit.w));
    out_hyperbolic = vec4(sinh(unit.x), cosh(unit.y), tanh(a.z), asinh(a.w) + acosh(1.0 + a.x) + atanh(unit.z));
}
