#version 300 es
// uint/int/float state {id, hits, x} fed back in another order, with xfb_substep: fusion_test.cpp, fusion.js.
precision highp float;
in float x;
in uint id;
in int hits;
uniform int xfb_substep;
uniform float scale;
flat out uint out_id;
flat out int out_hits;
out float out_x;
void main() {
    out_id = id * 3u + uint(gl_VertexID);
    out_hits = hits - 7 * xfb_substep + 1;
    out_x = x * scale + float(hits);
}
