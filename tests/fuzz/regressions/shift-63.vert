#version 300 es
#if (1 << 63) < 0
#endif
#if 1 << 64
#endif
void main() {}
