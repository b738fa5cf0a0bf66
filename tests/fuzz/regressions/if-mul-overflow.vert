#version 300 es
#if 9223372036854775807 * 2 < 0
in vec4 wrong;
#endif
void main() {}
