#version 300 es
#line 99999999999
in vec4 a;
void main() {}
