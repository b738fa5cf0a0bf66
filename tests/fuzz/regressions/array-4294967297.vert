#version 300 es
out vec4 o[4294967297];
void main() {}
