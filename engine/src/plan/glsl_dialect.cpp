#include "xfb/glsl_dialect.hpp"

#include "shader/glsl_lexer.hpp"

#include <map>
#include <vector>

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

std::string withoutXfbQualifiers(std::string_view source) {
    if (source.find("xfb_") == std::string_view::npos) return std::string(source);
    auto isXfb = [](const std::string& t) { return t == "xfb_buffer" || t == "xfb_offset" || t == "xfb_stride"; };
    std::string out;
    int line = 1;
    for (const auto& logical : plan::splitLogicalLines(source)) {
        for (; line < logical.line; ++line) out += '\n'; // lines folded by continuations or comments
        const std::string& text = logical.text;
        const auto tokens = plan::tokenizeLine(text, logical.line);
        std::size_t cursor = 0;
        for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
            if (tokens[i].text != "layout" || tokens[i + 1].text != "(") continue;
            // The items of layout( ... ), split at top-level commas.
            std::size_t close = i + 2;
            std::vector<std::pair<std::size_t, std::size_t>> items; // token ranges [first, last)
            for (std::size_t first = close, depth = 0; close < tokens.size(); ++close) {
                const std::string& t = tokens[close].text;
                if (t == "(") ++depth;
                if ((t == "," || t == ")") && depth == 0) {
                    items.push_back({first, close});
                    first = close + 1;
                    if (t == ")") break;
                }
                if (t == ")") --depth;
            }
            if (close >= tokens.size()) break; // a layout( that goes on past the line: left to the compiler
            std::string kept;
            bool dropped = false;
            for (auto [first, last] : items) {
                if (first < last && isXfb(tokens[first].text)) {
                    dropped = true;
                    continue;
                }
                if (first == last) continue;
                const std::size_t from = std::size_t(tokens[first].column);
                const std::size_t to = std::size_t(tokens[last - 1].column) + tokens[last - 1].text.size();
                kept += (kept.empty() ? "" : ", ") + text.substr(from, to - from);
            }
            if (!dropped) continue;
            std::size_t end = std::size_t(tokens[close].column) + 1;
            // `layout(xfb_buffer = 1, xfb_stride = 32) out;` says nothing once they are gone.
            if (kept.empty() && close + 2 < tokens.size() && tokens[close + 1].text == "out" &&
                tokens[close + 2].text == ";")
                end = std::size_t(tokens[close + 2].column) + 1;
            out.append(text.substr(cursor, std::size_t(tokens[i].column) - cursor));
            if (!kept.empty()) out += "layout(" + kept + ")";
            cursor = end;
            i = close;
        }
        out.append(text.substr(cursor));
        out += '\n';
        ++line;
    }
    // The last logical line of a source ending in a newline is empty: no newline of its own.
    if (source.ends_with('\n') && out.ends_with("\n\n")) out.pop_back();
    return out;
}

} // namespace xfb
