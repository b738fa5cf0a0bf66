#pragma once
// Where Dear ImGui drew its windows in the current frame, for the checks that must look at the
// scene alone.
#include "screenshot.hpp"

#include <vector>

namespace demos {

/// Rectangles (framebuffer pixels, top-left origin, widened by a pixel for antialiased edges) of
/// every ImGui window active in the frame just rendered: panels, popups, tooltips, whatever their size.
std::vector<PixelRect> uiWindowRects();

} // namespace demos
