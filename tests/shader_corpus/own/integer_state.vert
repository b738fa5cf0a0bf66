#version 300 es
// expect: accept
// Integer and unsigned state through transform feedback: flat integer outputs, a hash step of
// shifts, xor and wrapping multiplication (unsigned overflow is defined modulo 2^32).
precision highp float;
precision highp int;
in uvec2 seed;
in ivec2 cell;
flat out uvec2 out_seed;
flat out ivec2 out_cell;
void main() {
    uint s = seed.x * 747796405u + 2891336453u;
    uint word = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u;
    word = (word >> 22u) ^ word;
    int dx = int(word & 3u) - 1;
    out_seed = uvec2(word, seed.y + 1u);
    out_cell = cell + ivec2(dx, -dx) * 2;
}
