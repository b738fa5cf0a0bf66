#pragma once
// The self-check of a --frames run (the demo tests, native and in the gallery): the scene alone
// (outside every UI window) must be covered and coloured, it must move between two frames some
// steps apart when the demo animates, and nothing may have gone wrong on the way (a step that
// threw, a GL error). The camera stays still during a check, so motion is the simulation's.
#include "screenshot.hpp"

#include <optional>
#include <string>
#include <vector>

namespace demos {

/// What the scene must show on its own (the UI panel no longer counts).
struct SceneThresholds {
    float covered = 0.005f; ///< share of scene pixels not of the clear colour
    int colours = 4;        ///< distinct colours (4 bits per channel) in the scene
    float motion = 0.002f;  ///< share of scene pixels that change between the two captured frames
};

class FrameCheck {
public:
    /// Frames between the two captures compared for motion (fewer when the run is shorter).
    static constexpr int kMotionGap = 10;
    /// Errors kept (and printed); later ones are dropped.
    static constexpr std::size_t kMaxErrors = 16;

    /// `frames`: the frame after which the run ends; `animates`: whether the demo must move.
    FrameCheck(int frames, bool animates);

    /// Records an error (kept in order, reported and failing the run).
    void error(std::string what);
    /// After the frame `frame` (1-based) is rendered, UI included, before the swap: drains
    /// glGetError into the errors (each code once) and reads the frame back when it is one of the two compared.
    void afterFrame(int frame, int width, int height);
    bool isLast(int frame) const { return frame >= frames_; }

    /// Judges the captures against `t`; `clear` is the colour the scene was cleared to.
    /// Returns the report's fields as JSON members (no braces) and fills failures().
    std::string judge(const float clear[3], const SceneThresholds& t = {});
    const std::vector<std::string>& failures() const { return failures_; }
    const std::vector<std::string>& errors() const { return errors_; }
    /// The last captured frame (the screenshot saved by the tests).
    const Screenshot* last() const { return last_ ? &*last_ : nullptr; }

private:
    int frames_, first_;
    bool animates_;
    std::optional<Screenshot> firstShot_, last_;
    std::vector<PixelRect> ui_; // every UI window of either captured frame
    std::vector<std::string> errors_, failures_;
    std::vector<unsigned> glErrorsSeen_; // each GL error code is reported once, at its first frame
};

/// `text` as a JSON string literal.
std::string jsonString(const std::string& text);

} // namespace demos
