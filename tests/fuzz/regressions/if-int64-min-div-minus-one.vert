#version 300 es
#if (-9223372036854775807 - 1) / -1
#endif
void main() {}
