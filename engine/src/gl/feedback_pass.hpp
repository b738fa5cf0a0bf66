#pragma once
// Internal: the one transform-feedback pass bracket, shared by the pipeline step, both primitive
// capture expansions and the record gather.
#include "gl/gl_check.hpp"

namespace xfb::gl {

/// Refuses to start xfb's GL work inside the application's transform feedback: while it is active
/// (or paused, which is still active) binding another transform feedback object or program, a
/// draw, and glEndTransformFeedback would fail or end the application's, so every entry point
/// asks before its first GL call. One counted glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE) (GL 4.0 /
/// ES 3.0 / WebGL2); GL_TRANSFORM_FEEDBACK_PAUSED and the binding only to word a refusal.
/// @throws Error FeedbackActive naming `what`, the application's object and the fix
void refuseApplicationFeedback(const char* what);

/// One transform-feedback pass with the rasterizer off: glEnable(GL_RASTERIZER_DISCARD),
/// glBeginTransformFeedback(primitive), `draw()` (the glDraw* calls), glEndTransformFeedback(),
/// glDisable(GL_RASTERIZER_DISCARD). With a `query`, glBeginQuery / glEndQuery
/// (GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN) around the begin and end. The program, vertex
/// array and transform feedback object are the caller's to bind (GL 3.0 / ES 3.0 / WebGL2).
/// Every call is counted (gl::callCount()); `draw()` counts its own.
template<class Draw>
void feedbackPass(GLenum primitive, GLuint query, Draw&& draw) {
    XFB_GL_COUNTED(glEnable(GL_RASTERIZER_DISCARD));
    if (query) XFB_GL_COUNTED(glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query));
    XFB_GL_COUNTED(glBeginTransformFeedback(primitive));
    draw();
    XFB_GL_COUNTED(glEndTransformFeedback());
    if (query) XFB_GL_COUNTED(glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN));
    XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
}

} // namespace xfb::gl
