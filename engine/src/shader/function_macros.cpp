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

std::size_t expandFunctionMacro(const FunctionMacro& m, const std::string& name, std::span<const Token> in,
                                std::size_t open, int line, ArgumentExpansion& arguments, std::vector<Token>& out) {
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
    if (j == in.size()) return j;
    if (args.size() == 1 && args[0].empty() && m.params.empty()) args.clear();
    if (args.size() != m.params.size())
        invocationError(line, "macro '" + name + "' takes " + std::to_string(m.params.size()) + " arguments, given " +
                                  std::to_string(args.size()));
    // The body with its parameters replaced: by the argument macro-expanded, or as written next to
    // `##`, whose two sides are then pasted into one token.
    std::vector<Token> body;
    for (std::size_t k = 0; k < m.body.size(); ++k) {
        const Token& b = m.body[k];
        auto p = std::find(m.params.begin(), m.params.end(), b.text);
        if (b.kind != TokenKind::Identifier || p == m.params.end()) {
            body.push_back(b);
            continue;
        }
        const auto& arg = args[std::size_t(p - m.params.begin())];
        if ((k > 0 && m.body[k - 1].text == "##") || (k + 1 < m.body.size() && m.body[k + 1].text == "##"))
            body.insert(body.end(), arg.begin(), arg.end());
        else
            arguments.expandArgument(arg, body);
    }
    out.clear();
    for (std::size_t k = 0; k < body.size(); ++k) {
        if (body[k].text != "##") {
            out.push_back(body[k]);
            continue;
        }
        if (out.empty() || k + 1 == body.size()) invocationError(line, "'##' needs a token on each side");
        std::vector<Token> joined = tokenizeLine(out.back().text + body[++k].text, line);
        out.pop_back();
        out.insert(out.end(), joined.begin(), joined.end());
    }
    return j;
}

} // namespace xfb::shader
