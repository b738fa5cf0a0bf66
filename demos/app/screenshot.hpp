#pragma once
// Reads the rendered frame back and judges whether it shows the simulation (tests, --frames):
// only the scene counts, every pixel under a UI window is left out.
#include <string>
#include <vector>

namespace demos {

/// A rectangle in framebuffer pixels, origin at the top left (as ImGui and the page see it).
struct PixelRect {
    int x = 0, y = 0, width = 0, height = 0;
    bool contains(int px, int py) const { return px >= x && px < x + width && py >= y && py < y + height; }
};

struct Content {
    float covered = 0; ///< share of the scene pixels (outside every UI window) not of the clear colour
    int colours = 0;   ///< distinct colours there, 4 bits per channel
    int scenePixels = 0;
};

class Screenshot {
public:
    /// glReadPixels of the default framebuffer's back buffer (before the swap).
    static Screenshot capture(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }
    const std::vector<unsigned char>& rgba() const { return rgba_; } ///< bottom row first, as GL reads it
    /// Coverage and colours of the scene: the pixels outside every rectangle of `ui`.
    Content content(float clearR, float clearG, float clearB, const std::vector<PixelRect>& ui) const;
    /// Share of the scene pixels whose colour differs from `earlier` (same size) by more than a rounding step.
    float motion(const Screenshot& earlier, const std::vector<PixelRect>& ui) const;
    /// PNG through stb_image_write (native builds; a no-op in the browser, where the test takes its own).
    void savePng(const std::string& path) const;

private:
    // Calls f(pixel) for every scene pixel; the row is flipped since GL reads bottom up.
    template<class F>
    void forScene(const std::vector<PixelRect>& ui, F&& f) const;
    int width_ = 0, height_ = 0;
    std::vector<unsigned char> rgba_; // bottom row first, as GL reads it
};

/// Pixels whose channels differ by more than this (sum of |difference|) count as covered / moved.
inline constexpr int kColourTolerance = 12;

} // namespace demos
