#version 300 es
// expect: accept
// Section 3 and 4.5: the preprocessor (object-like and function-like macros, #if / #elif / #else,
// #ifdef, #ifndef, defined, #undef, GL_ES, __VERSION__, __LINE__, line continuation-free macros) and
// precision qualifiers on declarations, parameters and default precision statements.
precision mediump float;
precision highp int;
#define SCALE 2.5
#define MAD(x, y, z) ((x) * (y) + (z))
#define SQUARE(x) ((x) * (x))
#if __VERSION__ >= 300 && defined(GL_ES)
#define VERSION_OK 1.0
#else
#define VERSION_OK 0.0
#endif
#ifdef SCALE
#undef SCALE
#define SCALE 4.0
#endif
#ifndef MISSING
#define MISSING 7.0
#elif MISSING > 2
#error unreachable
#endif
in highp vec4 a;
in mediump vec2 b;
out highp vec4 out_macros;
out vec4 out_precision;
invariant gl_Position;
highp float blend(lowp float weight, highp float x) { return x * weight; }
void main() {
    mediump float m = b.x * SCALE;
    lowp float l = clamp(b.y, 0.0, 1.0);
    highp float h = MAD(a.x, a.y, a.z);
    out_macros = vec4(SQUARE(a.w), h, VERSION_OK, MISSING + float(__LINE__ > 0));
    out_precision = vec4(m, l, blend(l, h), 0.0);
    gl_Position = a;
}
