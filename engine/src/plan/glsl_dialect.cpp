#include "xfb/glsl_dialect.hpp"

#include "glsl_lexer.hpp"

#include <map>

namespace xfb {

namespace {
// The #version of a source, found as the GLSL preprocessor does: the first non-blank line.
int versionOf(std::string_view source) {
    for (const auto& logical : plan::splitLogicalLines(source)) {
        auto tokens = plan::tokenizeLine(logical.text, logical.line);
        if (tokens.empty()) continue;
        if (tokens.size() >= 3 && tokens[0].text == "#" && tokens[1].text == "version") {
            // Anything but a small decimal number is left to the reader, which reports it with its code.
            const std::string& n = tokens[2].text;
            if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos) return 0;
            return std::stoi(n);
        }
        return 100;
    }
    return 100;
}
} // namespace

std::string toGlslEs300(std::string_view source) {
    if (versionOf(source) != 100) return std::string(source);
    static const std::map<std::string, std::string, std::less<>> renames = {{"attribute", "in"},
                                                                            {"varying", "out"},
                                                                            {"texture2D", "texture"},
                                                                            {"textureCube", "texture"},
                                                                            {"texture2DLod", "textureLod"}};
    std::string out = "#version 300 es\nprecision highp float;\n#line 1\n";
    int line = 1;
    for (const auto& logical : plan::splitLogicalLines(source)) {
        for (; line < logical.line; ++line) out += '\n'; // lines folded by continuations or comments
        std::string_view text = logical.text;
        if (text.find_first_not_of(' ') != std::string_view::npos &&
            text.substr(text.find_first_not_of(' ')).starts_with("#version")) {
            out += "\n";
            ++line;
            continue;
        }
        std::size_t cursor = 0;
        for (const auto& tok : plan::tokenizeLine(text, logical.line)) {
            auto it = tok.kind == plan::TokenKind::Identifier ? renames.find(tok.text) : renames.end();
            if (it == renames.end()) continue;
            out.append(text.substr(cursor, std::size_t(tok.column) - cursor));
            out += it->second;
            cursor = std::size_t(tok.column) + tok.text.size();
        }
        out.append(text.substr(cursor));
        out += '\n';
        ++line;
    }
    return out;
}

} // namespace xfb
