#version 300 es
in vec4 x[2147483648];
void main() {}
