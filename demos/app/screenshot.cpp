#include "screenshot.hpp"

#include "gl.hpp"

#include <cmath>
#include <cstdlib>
#include <set>

#ifndef __EMSCRIPTEN__
#include <stb/stb_image_write.h> // implementation in Debian's libstb
#endif

namespace demos {

Screenshot Screenshot::capture(int width, int height) {
    Screenshot s;
    s.width_ = width;
    s.height_ = height;
    s.rgba_.resize(std::size_t(width) * std::size_t(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, s.rgba_.data());
    return s;
}

template<class F>
void Screenshot::forScene(const std::vector<PixelRect>& ui, F&& f) const {
    for (int row = 0; row < height_; ++row) {
        const int y = height_ - 1 - row; // top-down, as the UI rectangles are given
        for (int x = 0; x < width_; ++x) {
            bool underUi = false;
            for (const PixelRect& r : ui) underUi = underUi || r.contains(x, y);
            if (!underUi) f((std::size_t(row) * std::size_t(width_) + std::size_t(x)) * 4);
        }
    }
}

static int difference(const unsigned char* a, const unsigned char* b) {
    return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

Content Screenshot::content(float r, float g, float b, const std::vector<PixelRect>& ui) const {
    const unsigned char clear[3] = {static_cast<unsigned char>(std::lround(r * 255)),
                                    static_cast<unsigned char>(std::lround(g * 255)),
                                    static_cast<unsigned char>(std::lround(b * 255))};
    std::set<int> colours;
    int covered = 0, total = 0;
    forScene(ui, [&](std::size_t at) {
        const unsigned char* p = &rgba_[at];
        ++total;
        if (difference(p, clear) > kColourTolerance) ++covered;
        colours.insert((p[0] >> 4) << 8 | (p[1] >> 4) << 4 | (p[2] >> 4));
    });
    return {total ? float(covered) / float(total) : 0.0f, int(colours.size()), total};
}

float Screenshot::motion(const Screenshot& earlier, const std::vector<PixelRect>& ui) const {
    if (earlier.width_ != width_ || earlier.height_ != height_) return 1.0f; // resized: everything moved
    int moved = 0, total = 0;
    forScene(ui, [&](std::size_t at) {
        ++total;
        if (difference(&rgba_[at], &earlier.rgba_[at]) > kColourTolerance) ++moved;
    });
    return total ? float(moved) / float(total) : 0.0f;
}

void Screenshot::savePng(const std::string& path) const {
#ifndef __EMSCRIPTEN__
    stbi_flip_vertically_on_write(1);
    stbi_write_png(path.c_str(), width_, height_, 4, rgba_.data(), width_ * 4);
#else
    (void)path;
#endif
}

} // namespace demos
