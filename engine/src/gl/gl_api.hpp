#pragma once
// Internal: the GL headers for each target. One backend serves GL 4.3 core, GLES 3.0 and WebGL2;
// code below uses only the ES 3.0 subset unless it checks Capabilities first.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#include <webgl/webgl2.h> // glGetBufferSubData
#else
#include <GL/glcorearb.h> // prototypes from glvnd's libOpenGL (GL_GLEXT_PROTOTYPES)
#endif
