// shaders/geometry_pass.vert with a uniform scale (the geometry programs with uniforms of the GL
// tests, the browser's geometry suite and its fixture; without #version): u_scale is declared by
// the geometry shader too (shaders/geometry_fins_uniform.geom), one value for both.
in vec4 a_position;
uniform float u_scale;
out vec4 v_position;
flat out int v_id;
void main() {
    v_position = vec4(a_position.xyz * u_scale, 1.0);
    v_id = gl_VertexID;
    gl_Position = a_position;
}
