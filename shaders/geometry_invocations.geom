// Instanced geometry shader (the GL tests, the browser's geometry suite and its fixture; without
// #version): each triangle runs the shader 3 times, invocation i emits vertex i.
layout(triangles, invocations = 3) in;
layout(points, max_vertices = 1) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_point;
flat out ivec4 out_tag;
void main() {
    out_point = v_position[gl_InvocationID];
    out_tag = ivec4(gl_PrimitiveIDIn, gl_InvocationID, v_id[gl_InvocationID], 0);
    EmitVertex();
}
