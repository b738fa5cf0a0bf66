// Amplification (the GL tests, the browser's geometry suite and its fixture; without #version):
// every triangle in, its centroid and face normal out as two points.
layout(triangles) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_point;
flat out ivec4 out_tag;
void main() {
    vec3 a = v_position[0].xyz, b = v_position[1].xyz, c = v_position[2].xyz;
    int order = v_id[0] * 256 + v_id[1] * 16 + v_id[2];
    out_point = vec4(a + b + c, 0.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 0, order, 7);
    EmitVertex();
    vec3 u = b - a, v = c - a;
    out_point = vec4(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x, 1.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 1, order, 7);
    EmitVertex();
}
