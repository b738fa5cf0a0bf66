#version 300 es
// expect: accept
// Section 8.7: the vector relational functions on float, int and uint vectors, any, all and not.
precision highp float;
in vec4 a;
in vec4 b;
in uvec2 u;
out vec4 out_float;
out vec4 out_logic;
void main() {
    ivec3 ia = ivec3(a.xyz * 4.0), ib = ivec3(b.xyz * 4.0);
    bvec4 lt = lessThan(a, b);
    bvec4 le = lessThanEqual(a, b);
    bvec3 gt = greaterThan(ia, ib);
    bvec3 ge = greaterThanEqual(ia, ib);
    bvec2 eq = equal(u, uvec2(3u, 5u));
    bvec2 ne = notEqual(u, u.yx);
    out_float = vec4(lt) + vec4(le) * 2.0;
    out_logic = vec4(any(gt) ? 1.0 : 0.0, all(ge) ? 1.0 : 0.0, float(any(not(eq))), float(all(ne)));
}
