#include "gl_call_counter.hpp"

#include <GL/glcorearb.h>
#include <dlfcn.h>

namespace xfbbench {
namespace {
long calls = 0;
template<class F>
F real(F, const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
} // namespace
void resetGlCalls() { calls = 0; }
long glCalls() { return calls; }
} // namespace xfbbench

// XFB_COUNTED(return, name, (parameters), (arguments))
#define XFB_COUNTED(R, name, params, args)                                      \
    extern "C" R APIENTRY name params {                                         \
        static auto next = xfbbench::real(static_cast<R(APIENTRY*) params>(nullptr), #name); \
        ++xfbbench::calls;                                                      \
        return next args;                                                       \
    }

XFB_COUNTED(void, glUseProgram, (GLuint p), (p))
XFB_COUNTED(void, glBindVertexArray, (GLuint a), (a))
XFB_COUNTED(void, glBindTransformFeedback, (GLenum t, GLuint id), (t, id))
XFB_COUNTED(void, glEnable, (GLenum c), (c))
XFB_COUNTED(void, glDisable, (GLenum c), (c))
XFB_COUNTED(void, glBeginTransformFeedback, (GLenum m), (m))
XFB_COUNTED(void, glEndTransformFeedback, (), ())
XFB_COUNTED(void, glDrawArrays, (GLenum m, GLint f, GLsizei n), (m, f, n))
XFB_COUNTED(void, glBeginQuery, (GLenum t, GLuint id), (t, id))
XFB_COUNTED(void, glEndQuery, (GLenum t), (t))
XFB_COUNTED(void, glBindBuffer, (GLenum t, GLuint b), (t, b))
XFB_COUNTED(void, glBindBufferBase, (GLenum t, GLuint i, GLuint b), (t, i, b))
XFB_COUNTED(void, glDispatchCompute, (GLuint x, GLuint y, GLuint z), (x, y, z))
XFB_COUNTED(void, glMemoryBarrier, (GLbitfield b), (b))
XFB_COUNTED(void, glUniform1f, (GLint l, GLfloat v), (l, v))
XFB_COUNTED(void, glUniform1fv, (GLint l, GLsizei n, const GLfloat* v), (l, n, v))
XFB_COUNTED(void, glCopyBufferSubData, (GLenum r, GLenum w, GLintptr ro, GLintptr wo, GLsizeiptr n), (r, w, ro, wo, n))
XFB_COUNTED(GLenum, glGetError, (), ())
