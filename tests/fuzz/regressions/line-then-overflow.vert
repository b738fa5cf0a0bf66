#version 300 es
#line 2147483647
in vec4 a;
in vec4 b;
void main() {}
