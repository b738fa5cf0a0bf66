#version 300 es
// The primitive-capture tests' mesh: the 36-byte record of the stream-output example (vec4
// position + vec3 normal + vec2 uv, offsets 0, 16, 28) from a vec4 + vec2 vertex. Exact in
// float (x2, +integer, negation), so a reference without FMA matches bit for bit; z carries
// gl_VertexID, which tells every source vertex apart.
in vec4 a_position;
in vec2 a_uv;
uniform float u_scale;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = a_position * u_scale + vec4(0.0, 0.0, float(gl_VertexID), 0.0);
    out_normal = vec3(a_uv.y, -a_uv.x, 1.0);
    out_uv = a_uv * 2.0;
    gl_Position = out_position;
}
