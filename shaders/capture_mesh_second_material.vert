#version 300 es
// capture_mesh.vert's 36-byte record computed another way (x3, minus gl_VertexID): append_test.cpp, append.js.
in vec4 a_position;
in vec2 a_uv;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = a_position * 3.0 - vec4(0.0, 0.0, float(gl_VertexID), 0.0);
    out_normal = vec3(a_uv, 0.5);
    out_uv = a_uv;
    gl_Position = out_position;
}
