// Fins whose length and direction are uniforms (the GL tests, the browser's geometry suite and its
// fixture; without #version): per vertex of the triangle a fin from it along u_finDirection,
// u_finLength long, as line strips the capture closes into lines. u_scale is the vertex shader's
// too (shaders/geometry_pass_scaled.vert): one value, as GL links it, scaling the fins as well.
layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec4 v_position[];
flat in int v_id[];
uniform float u_finLength;
uniform vec3 u_finDirection;
uniform float u_scale;
out vec4 out_position;
flat out int out_id;
void main() {
    for (int i = 0; i < 3; ++i) {
        vec4 p = v_position[i];
        out_position = p;
        out_id = v_id[i];
        EmitVertex();
        out_position = p + vec4(u_finDirection * (u_finLength * u_scale), 0.0);
        EmitVertex();
        EndPrimitive();
    }
}
