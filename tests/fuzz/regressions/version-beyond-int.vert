#version 99999999999
in vec4 a;
void main() {}
