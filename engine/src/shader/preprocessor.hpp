#pragma once
// Internal: the subset of the GLSL preprocessor that decides which declarations exist.

#include "glsl_lexer.hpp"

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::shader {

struct PreprocessedSource {
    int version = 100;
    bool es = true;
    std::vector<Token> tokens;               // active code only, macros expanded (see preprocess())
    std::vector<std::string> functionMacros; // names of the function-like macros (left unexpanded without an expander)
    /// Active directives a GLSL translation must re-emit for `tokens` to compile: #extension and
    /// the #define/#undef of function-like macros, as written, in order.
    std::vector<std::string> passThrough;
};

/// What expands the macros inside an argument (the preprocessor, at the invocation's line and depth).
struct ArgumentExpansion {
    virtual void expandArgument(std::span<const Token> argument, std::vector<Token>& out) = 0;

protected:
    ~ArgumentExpansion() = default;
};

/// Expands one invocation of a function-like macro: `definition` is its #define from the '('
/// (`(x, y) body`), `in[open]` the '(' after its name. Returns the index of the matching ')' and
/// `body` the macro's body with the arguments substituted (each macro-expanded, or as written next
/// to `##`, whose sides are pasted), for the caller to rescan.
/// @throws Error PreprocessorDirective: a wrong argument count, no ')' before the next directive
using FunctionMacroExpander = std::size_t (*)(std::span<const Token> definition, const std::string& name,
                                              std::span<const Token> in, std::size_t open, int line,
                                              ArgumentExpansion& arguments, std::vector<Token>& body);

/// The expander of C (function_macros.cpp, its own file: a build whose GLSL keeps its function-like
/// macros for the GL compiler, the WebGL2 module, links none of it).
std::size_t expandFunctionMacro(std::span<const Token> definition, const std::string& name, std::span<const Token> in,
                                std::size_t open, int line, ArgumentExpansion& arguments, std::vector<Token>& body);

/// Runs #version, #define/#undef (object-like macros are expanded; function-like ones are
/// recorded and their directives passed through for a GLSL compiler, or, given `expand` (for an
/// output language without a preprocessor: WGSL), expanded too, invocations over several lines
/// and `__LINE__` included), #if/#ifdef/#ifndef/#elif/#else/#endif, #error, #line. #extension and
/// #pragma pass.
/// @throws Error PreprocessorDirective, PreprocessorUnevaluable
PreprocessedSource preprocess(std::string_view source, const std::map<std::string, std::string>& defines,
                              FunctionMacroExpander expand = nullptr);

} // namespace xfb::shader

// plan/'s readers (shader_interface, translated_source, fusion, the dialect passes) name these as
// they did when the reader lived in plan/.
namespace xfb::plan {
using shader::ArgumentExpansion;
using shader::expandFunctionMacro;
using shader::FunctionMacroExpander;
using shader::preprocess;
using shader::PreprocessedSource;
} // namespace xfb::plan
