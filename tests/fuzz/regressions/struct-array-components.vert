#version 300 es
struct S { vec4 a[65536]; };
uniform S s[65536];
void main() {}
