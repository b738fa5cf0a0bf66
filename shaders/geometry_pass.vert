// The vertex shader of the geometry programs (the GL tests, the browser's geometry suite and its
// fixture, tests/web/page/geometry_fixture.json; without #version: each user puts its own first):
// positions and the vertex's index, handed to the geometry shader.
in vec4 a_position;
out vec4 v_position;
flat out int v_id;
void main() { v_position = a_position; v_id = gl_VertexID; gl_Position = a_position; }
