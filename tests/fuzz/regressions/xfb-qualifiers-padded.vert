#version 300 es
// A declared layout by qualifiers: a gap, a padded stride and a second buffer.
layout(xfb_buffer = 0, xfb_stride = 40) out;
in vec4 a_pos;
layout(xfb_offset = 0) out vec4 out_position;
layout(xfb_offset = 20) out vec3 out_normal;
layout(xfb_buffer = 1, xfb_offset = 0) flat out int out_id;
void main() { out_position = a_pos; out_normal = a_pos.xyz; out_id = gl_VertexID; }
