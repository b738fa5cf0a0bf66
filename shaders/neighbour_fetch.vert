#version 300 es
// Reads a neighbour's state (texelFetch), so not element-local: fusion refused, k passes. fusion_test.cpp, fusion.js.
precision highp float;
precision highp sampler2D;
in vec4 position;
uniform sampler2D positions;
uniform int xfb_substep;
out vec4 out_position;
void main() {
    vec4 neighbour = texelFetch(positions, ivec2((gl_VertexID + 1) % 8, 0), 0);
    out_position = position + vec4(float(xfb_substep), 1.0, 0.0, 0.0) + neighbour * 0.0;
}
