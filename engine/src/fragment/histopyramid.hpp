#pragma once
// Internal: the HistoPyramid of the fragment backend's emitted budgets (xfb::PyramidLayout): its
// RGBA32UI atlases, the two framebuffers its levels are rendered through, the passes that build the
// levels above the counts, and the totals read from its top outside a step. Integer textures and
// texelFetch only: every sum is exact, and nothing is blended or filtered.
#include "gl/names.hpp"
#include "gl/state.hpp"
#include "xfb/fragment_translation.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace xfb::detail {

struct HistoPyramid final : Recoverable {
    PyramidLayout layout;
    std::vector<gl::TextureName> atlases; // group g's even levels at 2g, its odd levels at 2g + 1
    gl::FramebufferName levels[2];        // every group's even (odd) atlas, colour attachment g writing group g
    std::vector<gl::ProgramName> reduce;  // level l + 1 from level l
    gl::FramebufferName topReader;        // the top level's atlas of one group, read for the totals
    GLuint firstUnit = 0;                 // atlas k on unit firstUnit + k during a step
    DeviceState* device = nullptr;

    /// @param triangle FragmentShader::vertexSource
    /// @param maxTextureSize GL_MAX_TEXTURE_SIZE
    /// @throws Error Unsupported (an atlas past GL_MAX_TEXTURE_SIZE, naming it), ProgramLink
    static std::unique_ptr<HistoPyramid> build(const std::shared_ptr<DeviceState>& device,
                                               const EmitFragmentPasses& passes, const std::string& triangle,
                                               GLuint firstUnit, int maxTextureSize, const std::string& label);
    /// Units the atlases take: [firstUnit, firstUnit + units()).
    GLuint units() const { return GLuint(atlases.size()); }
    /// Binds each atlas on its unit (the caller's StateGuard covers them).
    void bindAtlases() const;
    /// Binds the framebuffer and viewport that render `level` (0: the count pass's target).
    void target(std::size_t level) const;
    /// Levels 1 .. top from level 0 (the atlases bound, the triangle's vertex array bound).
    void sumLevels() const;
    /// Where budget `budget`'s requested total lies: the atlas holding the top level, the unit
    /// bindAtlases() puts it on, its row and its component (the budget within its group).
    struct Top {
        GLuint atlas = 0, unit = 0;
        int row = 0, component = 0;
    };
    Top top(std::size_t budget) const;
    /// Per budget, the requested total: the top node, read with glReadPixels (blocking, for
    /// Pipeline::emitted(); never in a step). Opens its own StateGuard.
    std::vector<std::uint32_t> totals(std::size_t budgets);
    void forget() override;
};

} // namespace xfb::detail
