#version 300 es
// expect: accept
// GLSL ES 3.00 section 4.1 and 5.4: basic types and their constructors (scalar conversions,
// vectors from scalars and smaller vectors, matrices from scalars, vectors and other matrices).
precision highp float;
in vec4 a;
in vec2 b;
in float c;
out vec4 out_vectors;
out vec4 out_scalars;
out vec4 out_matrices;
void main() {
    bool flag = bool(c - 1.0);
    int i = int(c * 3.0);
    uint u = uint(i) + 2u;
    float f = float(u) + float(flag) + float(i);
    vec3 v3 = vec3(b, c);
    vec4 v4 = vec4(v3.xy, a.z, 1.0);
    ivec2 iv = ivec2(a.xy * 4.0);
    uvec3 uv = uvec3(iv.x >= 0 ? uint(iv.x) : 0u, 7u, u);
    bvec2 bv = bvec2(iv);
    vec2 fromInts = vec2(iv) + vec2(uv.xy) + vec2(bv);
    mat2 m2 = mat2(a);
    mat3 m3 = mat3(2.0);
    mat4 m4 = mat4(m3);
    mat3 fromBig = mat3(m4);
    mat2x3 m23 = mat2x3(v3, a.xyz);
    mat3x2 m32 = mat3x2(m2);
    mat4x3 m43 = mat4x3(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, c);
    out_vectors = v4 + vec4(fromInts, f, 0.0);
    out_scalars = vec4(f, float(uv.z), m2[1][0], m43[3][2]);
    out_matrices = vec4(m4[2][2] + fromBig[0][0], m23[1][2], m32[2][1], dot(m3[1], v3));
}
