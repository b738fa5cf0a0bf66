#version 300 es
// expect: accept
// Section 8.5: length, distance, dot, cross, normalize, faceforward, reflect, refract.
precision highp float;
in vec3 p;
in vec3 q;
out vec4 out_measures;
out vec3 out_cross;
out vec3 out_reflect;
out vec3 out_refract;
void main() {
    vec3 n = normalize(q + vec3(0.0, 0.0, 2.0));
    vec3 i = normalize(p + vec3(0.5, 0.0, 0.0));
    out_measures = vec4(length(p), distance(p, q), dot(p, q), length(normalize(p.xy + 1.0)));
    out_cross = cross(p, q);
    out_reflect = reflect(i, n) + faceforward(n, i, q);
    out_refract = refract(i, n, 0.66) + refract(i, n, 2.5);
}
