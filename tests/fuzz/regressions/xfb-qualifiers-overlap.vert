#version 300 es
// Overlapping offsets, an unaligned one and a stride below the extent: coded errors, never a plan.
layout(xfb_stride = 12) out;
layout(xfb_offset = 0) out vec4 out_a;
layout(xfb_offset = 6) out vec2 out_b;
void main() { out_a = vec4(0.0); out_b = vec2(0.0); }
