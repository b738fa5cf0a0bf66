#pragma once
// Internal: the subset of the GLSL preprocessor that decides which declarations exist.

#include "glsl_lexer.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::plan {

struct PreprocessedSource {
    int version = 100;
    bool es = true;
    std::vector<Token> tokens;               // active code only, macros expanded (MacroExpansion)
    std::vector<std::string> functionMacros; // names of function-like macros not expanded
    /// Active directives a translation must re-emit for `tokens` to compile: #extension and the
    /// #define/#undef of function-like macros, as written, in order.
    std::vector<std::string> passThrough;
};

/// Which macros preprocess() expands.
enum class MacroExpansion {
    ObjectLike, ///< function-like macros are recorded and their directives passed through (a GLSL output)
    All,        ///< function-like ones too, as C does (arguments expanded first, `##`, invocations over
                ///< several lines): for an output language without a preprocessor (WGSL)
};

/// Runs #version, #define/#undef (object-like macros are expanded; function-like ones are
/// recorded, or expanded too with MacroExpansion::All), #if/#ifdef/#ifndef/#elif/#else/#endif,
/// #error, #line. #extension and #pragma pass.
/// @throws Error PreprocessorDirective, PreprocessorUnevaluable
PreprocessedSource preprocess(std::string_view source, const std::map<std::string, std::string>& defines,
                              MacroExpansion expansion = MacroExpansion::ObjectLike);

} // namespace xfb::plan
