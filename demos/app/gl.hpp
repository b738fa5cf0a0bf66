#pragma once
// GL for the demos' own rendering: GL 4.3 core natively (GLFW), WebGL2 under Emscripten. The
// render shaders are GLSL ES 3.00, which both accept.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <GL/glcorearb.h>
#endif
