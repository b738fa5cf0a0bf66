// Amplification as lines (the GL tests, the browser's geometry suite and its fixture; without
// #version): per vertex of the triangle, a fin from it along +z by its distance to the next
// vertex's x, as line strips the capture closes into lines.
layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec4 v_position[];
out vec4 out_position;
void main() {
    for (int i = 0; i < 3; ++i) {
        vec4 p = v_position[i];
        out_position = p;
        EmitVertex();
        out_position = p + vec4(0.0, 0.0, v_position[(i + 1) % 3].x - p.x, 0.0);
        EmitVertex();
        EndPrimitive();
    }
}
