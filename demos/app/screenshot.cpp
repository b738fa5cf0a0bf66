#include "screenshot.hpp"

#include "gl.hpp"

#include <cmath>
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

Content Screenshot::content(float r, float g, float b) const {
    const int clear[3] = {int(std::lround(r * 255)), int(std::lround(g * 255)), int(std::lround(b * 255))};
    const int left = std::min(width_ / 3, 450); // the ImGui panel lives on the left
    std::set<int> colours;
    std::size_t covered = 0, total = 0;
    for (int y = 0; y < height_; ++y)
        for (int x = left; x < width_; ++x) {
            const unsigned char* p = &rgba_[(std::size_t(y) * std::size_t(width_) + std::size_t(x)) * 4];
            ++total;
            if (std::abs(p[0] - clear[0]) + std::abs(p[1] - clear[1]) + std::abs(p[2] - clear[2]) > 12) ++covered;
            colours.insert((p[0] >> 4) << 8 | (p[1] >> 4) << 4 | (p[2] >> 4));
        }
    return {total ? float(covered) / float(total) : 0.0f, int(colours.size())};
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
