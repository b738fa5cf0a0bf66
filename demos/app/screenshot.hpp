#pragma once
// Reads the rendered frame back and judges whether it shows the simulation (tests, --frames).
#include <string>
#include <vector>

namespace demos {

struct Content {
    float covered = 0;  ///< share of the scene region (right of the panel) not of the clear colour
    int colours = 0;    ///< distinct colours there, 4 bits per channel
    bool hasContent() const { return covered > 0.005f && colours >= 4; } // not blank, not one colour
};

class Screenshot {
public:
    /// glReadPixels of the default framebuffer's back buffer (before the swap).
    static Screenshot capture(int width, int height);
    Content content(float clearR, float clearG, float clearB) const;
    /// PNG through stb_image_write (native builds; a no-op in the browser, where the test takes its own).
    void savePng(const std::string& path) const;

private:
    int width_ = 0, height_ = 0;
    std::vector<unsigned char> rgba_; // bottom row first, as GL reads it
};

} // namespace demos
