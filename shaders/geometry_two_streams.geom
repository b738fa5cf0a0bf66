// Two vertex streams (the GL tests, xfb-bench-stream --geometry, the browser's geometry suite;
// without #version: each user puts its own first): every triangle's centroid to stream 0, the
// face normal of every odd triangle to stream 1.
// [docs:geometry-shader]
layout(triangles) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
layout(stream = 0) out vec4 out_centroid;
layout(stream = 1) out vec3 out_normal;
layout(stream = 1) flat out int out_face;
void main() {
    vec3 a = v_position[0].xyz, b = v_position[1].xyz, c = v_position[2].xyz;
    out_centroid = vec4(a + b + c, 1.0);
    EmitStreamVertex(0);
    EndStreamPrimitive(0);
    if (gl_PrimitiveIDIn % 2 == 1) {
        vec3 u = b - a, v = c - a;
        out_normal = vec3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
        out_face = gl_PrimitiveIDIn;
        EmitStreamVertex(1);
        EndStreamPrimitive(1);
    }
}
// [docs:end]
