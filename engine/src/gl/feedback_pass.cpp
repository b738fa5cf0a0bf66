#include "gl/feedback_pass.hpp"

#include "xfb/error.hpp"

#include <string>

namespace xfb::gl {

void refuseApplicationFeedback(const char* what, bool pausedAllowed) {
#ifdef __EMSCRIPTEN__
    // In WebGL getParameter(TRANSFORM_FEEDBACK_ACTIVE) is a synchronous GPU round trip (~0.2 ms in
    // Chromium). The npm package asks before every call reaches the engine, without one
    // (web/package/index.js, Xfb#requireFeedbackIdle), so the engine does not ask again there.
    (void)what, (void)pausedAllowed;
    return;
#endif
    GLboolean active = GL_FALSE;
    XFB_GL_COUNTED(glGetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active));
    if (active != GL_TRUE) return;
    GLboolean paused = GL_FALSE;
    GLint object = 0;
    glGetBooleanv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
    if (pausedAllowed && paused == GL_TRUE) return;
    glGetIntegerv(GL_TRANSFORM_FEEDBACK_BINDING, &object);
    const std::string state = paused == GL_TRUE ? "paused" : "active";
    throw Error(ErrorCode::FeedbackActive,
                std::string(what) + ": the application's transform feedback object " + std::to_string(object) + " is " +
                    state +
                    ", and xfb cannot run inside it (binding its own objects or program, or "
                    "drawing, would fail or end the application's " +
                    "capture). Nothing was done; call glEndTransformFeedback()" +
                    (paused == GL_TRUE ? " (a paused one counts as active)"
                     : pausedAllowed   ? " (or pause it: this call is allowed while it is paused)"
                                       : "") +
                    " before this call, and glBeginTransformFeedback() again afterwards");
}

} // namespace xfb::gl
