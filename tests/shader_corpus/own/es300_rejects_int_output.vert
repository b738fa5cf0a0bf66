#version 300 es
// expect: reject
// The oracle's negative: an integer vertex output must be declared flat in GLSL ES 3.00 (4.3.6).
precision highp float;
in ivec2 cell;
out ivec2 out_cell;
void main() { out_cell = cell; }
