#version 300 es
// expect: accept
// Section 8.2: pow, exp, log, exp2, log2, sqrt, inversesqrt on positive arguments.
precision highp float;
in vec4 a;
out vec4 out_a;
out vec4 out_b;
void main() {
    vec4 p = abs(a) + 0.25;
    out_a = vec4(pow(p.x, p.y), exp(a.z), log(p.w), exp2(a.x));
    out_b = vec4(log2(p.y), sqrt(p.z), inversesqrt(p.w), pow(p.xy, vec2(2.0)).y);
}
