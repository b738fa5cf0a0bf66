// The invocation of a function-like macro, as C expands it (preprocessor.hpp, expandFunctionMacro):
// for the WGSL translation, whose output language has no preprocessor.
#include "preprocessor.hpp"

#include "xfb/error.hpp"

#include <algorithm>

namespace xfb::shader {

namespace {
[[noreturn]] void invocationError(int line, const std::string& what) {
    throw Error(ErrorCode::PreprocessorDirective, "line " + std::to_string(line) + ": " + what);
}
} // namespace

std::size_t expandFunctionMacro(std::span<const Token> definition, const std::string& name, std::span<const Token> in,
                                std::size_t open, int line, ArgumentExpansion& arguments, std::vector<Token>& out) {
    // The definition: `(` parameters `)` body.
    std::vector<std::string> params;
    std::size_t start = 1;
    for (; start < definition.size() && definition[start].text != ")"; ++start)
        if (definition[start].kind == TokenKind::Identifier) params.push_back(definition[start].text);
    const std::span<const Token> body = definition.subspan(std::min(start + 1, definition.size()));
    // The arguments: split at the commas outside parentheses.
    std::vector<std::vector<Token>> args(1);
    std::size_t j = open + 1;
    for (int parens = 0; j < in.size() && (parens || in[j].text != ")"); ++j) {
        parens += in[j].text == "(" ? 1 : in[j].text == ")" ? -1 : 0;
        if (!parens && in[j].text == ",")
            args.emplace_back();
        else
            args.back().push_back(in[j]);
    }
    if (j == in.size()) invocationError(line, "the arguments of macro '" + name + "' have no closing ')'");
    if (args.size() == 1 && args[0].empty() && params.empty()) args.clear();
    if (args.size() != params.size())
        invocationError(line, "macro '" + name + "' takes " + std::to_string(params.size()) + " arguments, given " +
                                  std::to_string(args.size()));
    // The body with its parameters replaced: by the argument macro-expanded, or as written next to
    // `##`, whose two sides are then pasted into one token.
    std::vector<Token> replaced;
    for (std::size_t k = 0; k < body.size(); ++k) {
        const Token& b = body[k];
        auto p = std::find(params.begin(), params.end(), b.text);
        if (b.kind != TokenKind::Identifier || p == params.end()) {
            replaced.push_back(b);
            continue;
        }
        const auto& arg = args[std::size_t(p - params.begin())];
        if ((k > 0 && body[k - 1].text == "##") || (k + 1 < body.size() && body[k + 1].text == "##"))
            replaced.insert(replaced.end(), arg.begin(), arg.end());
        else
            arguments.expandArgument(arg, replaced);
    }
    out.clear();
    for (std::size_t k = 0; k < replaced.size(); ++k) {
        if (replaced[k].text != "##") {
            out.push_back(replaced[k]);
            continue;
        }
        if (out.empty() || k + 1 == replaced.size()) invocationError(line, "'##' needs a token on each side");
        std::vector<Token> joined = tokenizeLine(out.back().text + replaced[++k].text, line);
        out.pop_back();
        out.insert(out.end(), joined.begin(), joined.end());
    }
    return j;
}

} // namespace xfb::shader
