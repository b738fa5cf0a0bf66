#version 300 es
// capture_mesh.vert's outputs declared in another order (another layout, refused): append_test.cpp, append.js.
in vec4 a_position;
in vec2 a_uv;
out vec4 out_position;
out vec2 out_uv;
out vec3 out_normal;
void main() { out_position = a_position; out_uv = a_uv; out_normal = vec3(1.0); gl_Position = a_position; }
