#version 300 es
// expect: accept
// Section 5.1, 5.8, 5.9: every operator of ES 3.00: pre/post increment and decrement (also inside
// an index), the comma operator, every compound assignment, the ternary, logical and bitwise
// operators, shifts, relational and equality operators on scalars and vectors.
precision highp float;
precision highp int;
in vec4 a;
in ivec4 n;
out vec4 out_float;
flat out ivec4 out_int;
flat out uvec4 out_uint;
void main() {
    float r[4] = float[4](a.x, a.y, a.z, a.w);
    int i = 0;
    float first = r[i++];
    float second = r[i++];
    float third = r[--i + 1];
    int j = i--;
    float comma = (first += 1.0, second * 2.0);
    vec4 v = a;
    v += 1.0;
    v -= vec4(0.5);
    v *= 2.0;
    v /= 4.0;
    int k = n.x;
    k += 3;
    k -= 1;
    k *= 5;
    k /= 2;
    k %= 7;
    k <<= 2;
    k >>= 1;
    k &= 0x3f;
    k |= 0x100;
    k ^= 0x55;
    uint u = uint(abs(n.y)) + 11u;
    u <<= 3u;
    u >>= 1;
    u = ~u & 0xffffu;
    bool p = a.x > a.y && a.z <= a.w || !(n.z != n.w);
    bool q = (a.x >= 1.0) ^^ (n.x < 4);
    bool vectorsEqual = a.xy == a.yx || n != ivec4(0);
    float pick = p ? third : -third;
    ivec4 neg = -n;
    out_float = vec4(comma, pick, q ? 1.0 : 0.0, vectorsEqual ? v.x : v.y) + v;
    out_int = ivec4(k, i, j, n.x % 3 + n.y / 2) + (neg >> 1) + (n << 2) + (~n & ivec4(255));
    out_uint = uvec4(u, u % 9u, u / 3u, (u | 1u) ^ 6u);
}
