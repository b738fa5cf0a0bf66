#version 300 es
// expect: accept
// Sections 4.1.8 - 4.1.9 and 4.3.3: structs (nested, compared, assigned, constructed), arrays of
// structs, array constructors and length(), array sizes from constant expressions, dynamic indexing.
precision highp float;
in vec4 a;
in int index;
out vec4 out_structs;
out vec4 out_arrays;

const int BASE = 2;
const int COUNT = BASE * 3 - 1;
struct Inner {
    vec2 uv;
    float weight;
};
struct Outer {
    Inner inner;
    Inner pair[2];
    int id;
};

void main() {
    float table[COUNT];
    for (int i = 0; i < table.length(); ++i) table[i] = float(i * i) + a.x;
    vec3 points[2] = vec3[](a.xyz, a.yzw);
    Inner i0 = Inner(a.xy, a.z);
    Outer o = Outer(i0, Inner[2](i0, Inner(a.zw, 2.0)), index);
    o.pair[1].weight += 0.5;
    Outer copy = o;
    copy.inner.uv.x = 9.0;
    bool same = copy == o;
    int at = abs(index) % COUNT;
    out_structs = vec4(o.pair[1].weight, o.pair[0].uv.y, float(o.id), same ? 1.0 : 0.0);
    out_arrays = vec4(table[at], table[COUNT - 1], points[abs(index) % 2].z, float(points.length()));
}
