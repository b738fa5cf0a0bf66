#pragma once
// Internal: the fragment passes of emitted outputs (xfb::EmitFragmentPasses), generated from the
// code the fragment translation already made for the pipeline (fragment_translation.cpp), so the
// count and gather passes run the user's main() exactly as the ordinary passes do.
#include "xfb/emit_plan.hpp"
#include "xfb/fragment_translation.hpp"

#include <string_view>

namespace xfb::plan {

/// The uniforms of emittedDrawSnippet() that Pipeline::drawEmitted() sets on the bound program.
inline constexpr const char* kEmittedTotalsUniform = emittedTotalsUniform; ///< the pyramid's top atlas
inline constexpr const char* kEmittedAtUniform = emittedAtUniform; ///< row, component, vertices per primitive, indirect

/// A population's live count (FragmentTranslationOptions::liveCount): component x of texel (0, 0)
/// of this RGBA32UI texture, sampled by the count pass (whose text spells the name out).
inline constexpr const char* kLiveCountSampler = "xfb_live";

/// What every pass of one fragment-backend pipeline shares.
struct FragmentPrelude {
    std::string_view version; ///< FragmentShader::version
    /// The passes' code up to main(): samplers, `xfb_count`, `xfb_uv`, the renamed builtins, the
    /// user's code and `void xfb_run(uint xfb_i)` (inputs read at `xfb_uv`, the user's main run).
    std::string_view code;
    /// Statements declaring `uint xfb_e`, the fragment's element, and pointing `xfb_uv` at its texel.
    std::string_view elementAtFragment;
    int width = 0; ///< of the planes, a power of two
    int rows = 0;  ///< of the input planes: ceil(count / width)
};

/// @param count elements (PassPlan::count)
/// @param maxDrawBuffers colour attachments a pass may write
/// @param liveCount the elements run are the first min(count, the live count) (kLiveCountSampler):
///        the count pass stores 0 for the others without running the program
/// @throws Error Unsupported when the budgets need more pyramid groups than a pass has draw buffers
EmitFragmentPasses emitFragmentPasses(const FragmentPrelude& prelude, const EmitPlan& emits, std::int64_t count,
                                      int maxDrawBuffers, bool liveCount = false);

} // namespace xfb::plan
