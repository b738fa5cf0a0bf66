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
/// `pausedAllowed`: the work binds no program and draws nothing (creating a buffer), so a paused
/// capture is left alone and only an active one is refused (its object cannot be unbound around
/// the work's copies; GL_TRANSFORM_FEEDBACK_PAUSED is asked then).
/// @throws Error FeedbackActive naming `what`, the application's object and the fix
void refuseApplicationFeedback(const char* what, bool pausedAllowed = false);

/// One transform-feedback pass: glEnable(GL_RASTERIZER_DISCARD), `begin()`,
/// glBeginTransformFeedback(primitive), `draw()` (the glDraw* calls), glEndTransformFeedback(),
/// `end()`, glDisable(GL_RASTERIZER_DISCARD). With `rasterize` (a capture's
/// CaptureRunOptions::rasterize, PipelineOptions::rasterize) the rasterizer stays on so the pass
/// also draws into the caller's framebuffer: glDisable(GL_RASTERIZER_DISCARD) first (the state the
/// draw relies on; the caller's StateGuard puts back the application's), nothing after. The
/// program, vertex array and transform feedback object are the caller's to bind (GL 3.0 / ES 3.0 /
/// WebGL2). Every call is counted (gl::callCount()); the hooks count their own.
template<class Begin, class Draw, class End>
void feedbackBracket(GLenum primitive, bool rasterize, Begin&& begin, Draw&& draw, End&& end) {
    if (rasterize)
        XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
    else
        XFB_GL_COUNTED(glEnable(GL_RASTERIZER_DISCARD));
    begin();
    XFB_GL_COUNTED(glBeginTransformFeedback(primitive));
    draw();
    XFB_GL_COUNTED(glEndTransformFeedback());
    end();
    if (!rasterize) XFB_GL_COUNTED(glDisable(GL_RASTERIZER_DISCARD));
}

/// feedbackBracket() with, for a `query`, glBeginQuery / glEndQuery
/// (GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN) around the begin and end.
template<class Draw>
void feedbackPass(GLenum primitive, GLuint query, Draw&& draw, bool rasterize = false) {
    feedbackBracket(
        primitive, rasterize,
        [&] {
            if (query) XFB_GL_COUNTED(glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query));
        },
        draw,
        [&] {
            if (query) XFB_GL_COUNTED(glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN));
        });
}

} // namespace xfb::gl
