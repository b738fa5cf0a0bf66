// Amplification as a triangle strip (the browser's geometry suite and its fixture; without
// #version): 4 vertices a point, captured as 2 triangles in the GL's winding.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_corner;
void main() {
    for (int k = 0; k < 4; ++k) {
        out_corner = v_position[0] + vec4(float(k % 2), float(k / 2), float(v_id[0]), 0.0);
        EmitVertex();
    }
}
