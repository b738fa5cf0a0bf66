#version 300 es
// expect: accept
// Section 7.1: the vertex shader's built-in inputs and outputs: gl_VertexID, gl_InstanceID,
// gl_Position, gl_PointSize; a shader with no inputs at all, run by count.
precision highp float;
uniform float spacing;
out vec4 out_id;
void main() {
    float id = float(gl_VertexID);
    out_id = vec4(id, id * spacing, float(gl_InstanceID), float(gl_VertexID % 7));
    gl_Position = vec4(id, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
