#version 300 es
out mat4 out_m[536870912];
void main() {}
