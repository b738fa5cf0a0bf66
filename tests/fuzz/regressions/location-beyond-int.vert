#version 300 es
layout(location = 4294967296) in vec4 a;
void main() {}
