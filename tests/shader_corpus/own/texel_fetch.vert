#version 300 es
// expect: accept
// Section 8.8: the lookups a vertex shader can make with an explicit level: texelFetch,
// textureSize, textureLod, textureGrad, textureOffset-free projection; integer and 3D samplers.
precision highp float;
precision highp int;
precision highp sampler3D;
precision highp isampler2D;
in vec2 uv;
in int id;
uniform sampler2D field;
uniform isampler2D labels;
uniform sampler3D volume;
out vec4 out_fetched;
out vec4 out_sampled;
flat out ivec4 out_label;
void main() {
    ivec2 size = textureSize(field, 0);
    ivec2 texel = ivec2(id % size.x, id / size.x);
    out_fetched = texelFetch(field, texel, 0) + vec4(vec2(size), vec2(textureSize(volume, 0).xy));
    out_sampled = textureLod(field, uv, 0.0) + textureGrad(field, uv, vec2(0.0), vec2(0.0)) + textureLod(volume, uv.xyx, 1.0) +
                  textureProjLod(field, vec3(uv, 1.0), 0.0);
    out_label = texelFetch(labels, texel, 0);
}
