#version 300 es
#if 1 / 0
#endif
void main() {}
