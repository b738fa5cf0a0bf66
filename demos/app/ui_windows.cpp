#include "ui_windows.hpp"

#include <imgui.h>
#include <imgui_internal.h> // ImGuiContext::Windows: public API has no way to list windows

#include <cmath>

namespace demos {

std::vector<PixelRect> uiWindowRects() {
    std::vector<PixelRect> rects;
    const ImGuiContext* context = ImGui::GetCurrentContext();
    if (!context) return rects;
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    for (const ImGuiWindow* w : context->Windows) {
        if (!w->Active) continue; // begun in this frame (the unused implicit "Debug" window is not)
        const int x0 = int(std::floor(w->Pos.x * scale.x)) - 1, y0 = int(std::floor(w->Pos.y * scale.y)) - 1;
        const int x1 = int(std::ceil((w->Pos.x + w->Size.x) * scale.x)) + 1,
                  y1 = int(std::ceil((w->Pos.y + w->Size.y) * scale.y)) + 1;
        rects.push_back({x0, y0, x1 - x0, y1 - y0});
    }
    return rects;
}

} // namespace demos
