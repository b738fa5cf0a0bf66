#version 300 es
// expect: accept
// Section 6.1: prototypes before definitions, in / out / inout / const in parameters, overloads
// by parameter type and count, a function returning a struct, early returns, arrays as parameters.
precision highp float;
in vec4 a;
in float b;
out vec4 out_results;
out vec4 out_overloads;

struct Pair {
    float low;
    float high;
};

float scale(float x);
Pair order(float x, float y) {
    if (x < y) return Pair(x, y);
    return Pair(y, x);
}
float scale(float x) { return x * 3.0; }
vec2 scale(vec2 x) { return x * 0.5; }
float scale(float x, float k) { return x * k; }
void split(in vec4 v, out vec2 lowHalf, out vec2 highHalf) {
    lowHalf = v.xy;
    highHalf = v.zw;
}
void accumulate(inout float total, const in float step) { total += step; }
float sumOf(float values[3]) { return values[0] + values[1] + values[2]; }

void main() {
    vec2 lo, hi;
    split(a, lo, hi);
    float total = b;
    accumulate(total, 2.5);
    accumulate(total, lo.y);
    Pair p = order(a.x, a.y);
    float values[3] = float[3](a.z, a.w, b);
    out_results = vec4(total, p.low, p.high, sumOf(values));
    out_overloads = vec4(scale(b), scale(hi), scale(b, a.z));
}
