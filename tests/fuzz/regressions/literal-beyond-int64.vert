#version 300 es
in vec4 a[99999999999999999999];
void main() {}
