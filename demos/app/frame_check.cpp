#include "frame_check.hpp"

#include "gl.hpp"
#include "ui_windows.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include <algorithm>
#include <cstdio>

namespace demos {

static const char* glErrorName(unsigned e) {
    switch (e) {
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
        default: return "GL error";
    }
}

FrameCheck::FrameCheck(int frames, bool animates)
    : frames_(frames), first_(std::max(1, frames - kMotionGap)), animates_(animates) {}

void FrameCheck::error(std::string what) {
    if (errors_.size() == kMaxErrors) return; // the first ones say enough; a GL error may repeat every frame
    std::fprintf(stderr, "xfb-demos: error: %s\n", what.c_str());
    errors_.push_back(std::move(what));
}

void FrameCheck::afterFrame(int frame, int width, int height) {
    // Once per frame in a check run only: glGetError stalls the pipeline (WebGL above all).
    for (int n = 0; n < 16; ++n) { // bounded: a lost context may report forever
        const GLenum e = glGetError();
        if (e == GL_NO_ERROR) break;
        if (std::find(glErrorsSeen_.begin(), glErrorsSeen_.end(), e) != glErrorsSeen_.end()) continue; // said once
        glErrorsSeen_.push_back(e);
        char text[96];
        std::snprintf(text, sizeof text, "%s (0x%04X) left after frame %d", glErrorName(e), unsigned(e), frame);
        error(text);
    }
    if (frame != first_ && frame != frames_) return;
    Screenshot shot = Screenshot::capture(width, height);
    for (const PixelRect& r : uiWindowRects()) ui_.push_back(r);
#ifdef __EMSCRIPTEN__
    // The gallery test judges the same pixels itself (tests/web/gallery.mjs).
    EM_ASM(
        {
            (window.__demoFrames = window.__demoFrames || [])
                .push({frame : $0, width : $1, height : $2, rgba : HEAPU8.slice($3, $3 + $1 * $2 * 4)});
        },
        frame, width, height, shot.rgba().data());
#endif
    if (frame == first_ && frame != frames_)
        firstShot_ = std::move(shot);
    else
        last_ = std::move(shot);
}

std::string FrameCheck::judge(const float clear[3], const SceneThresholds& t) {
    failures_.clear();
    char text[256];
    Content c;
    float motion = -1; // not measured
    if (!last_) {
        failures_.push_back("the last frame was never captured");
    } else {
        c = last_->content(clear[0], clear[1], clear[2], ui_);
        if (c.covered < t.covered || c.colours < t.colours) {
            std::snprintf(
                text, sizeof text,
                "empty scene: %.4f of the %d scene pixels (outside the UI) covered, %d colours (needs %.4f and %d)",
                double(c.covered), c.scenePixels, c.colours, double(t.covered), t.colours);
            failures_.push_back(text);
        }
        if (firstShot_) motion = last_->motion(*firstShot_, ui_);
        if (animates_ && !firstShot_) {
            failures_.push_back("no motion measured: an animated demo needs --frames 2 or more");
        } else if (animates_ && motion < t.motion) {
            std::snprintf(text, sizeof text,
                          "frozen scene: %.4f of the scene pixels changed between frames %d and %d (needs %.4f)",
                          double(motion), first_, frames_, double(t.motion));
            failures_.push_back(text);
        }
    }
    for (const std::string& e : errors_) failures_.push_back("error recorded: " + e);

    std::string json;
    std::snprintf(text, sizeof text,
                  "\"covered\": %.4f, \"colours\": %d, \"scenePixels\": %d, \"motion\": %.4f, \"motionFrames\": [%d, "
                  "%d], \"animates\": %s, \"ui\": [",
                  double(c.covered), c.colours, c.scenePixels, double(motion), first_, frames_,
                  animates_ ? "true" : "false");
    json += text;
    for (std::size_t i = 0; i < ui_.size(); ++i) {
        std::snprintf(text, sizeof text, "%s[%d, %d, %d, %d]", i ? ", " : "", ui_[i].x, ui_[i].y, ui_[i].width,
                      ui_[i].height);
        json += text;
    }
    json += "], \"errors\": [";
    for (std::size_t i = 0; i < errors_.size(); ++i) json += (i ? ", " : "") + jsonString(errors_[i]);
    json += "], \"failures\": [";
    for (std::size_t i = 0; i < failures_.size(); ++i) json += (i ? ", " : "") + jsonString(failures_[i]);
    json += "]";
    return json;
}

std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (char ch : text) {
        if (ch == '"' || ch == '\\')
            out += {'\\', ch};
        else if (static_cast<unsigned char>(ch) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(ch)));
            out += escaped;
        } else
            out += ch;
    }
    return out + "\"";
}

} // namespace demos
