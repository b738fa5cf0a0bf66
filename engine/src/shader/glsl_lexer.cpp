#include "glsl_lexer.hpp"

#include <cctype>

namespace xfb::shader {

std::vector<SourceLine> splitLogicalLines(std::string_view src) {
    // Pass 1: drop comments (keeping newlines so line numbers stay right) and splice
    // backslash-newline continuations (remembering where each logical line began).
    std::vector<SourceLine> lines;
    std::string current;
    int physical = 1, start = 1;
    bool inBlockComment = false;
    for (size_t i = 0; i < src.size(); ++i) {
        char c = src[i];
        if (inBlockComment) {
            if (c == '*' && i + 1 < src.size() && src[i + 1] == '/') {
                inBlockComment = false;
                ++i;
            } else if (c == '\n') {
                // A block comment spanning lines ends the logical line, like the GLSL preprocessor.
                lines.push_back({current, start});
                current.clear();
                start = ++physical;
            }
            continue;
        }
        if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
            while (i + 1 < src.size() && src[i + 1] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
            inBlockComment = true;
            current += ' ';
            ++i;
            continue;
        }
        if (c == '"') { // string-like noise: copy through to the closing quote on this line
            current += c;
            while (i + 1 < src.size() && src[i + 1] != '\n') {
                current += src[++i];
                if (src[i] == '"') break;
            }
            continue;
        }
        if (c == '\\' && (i + 1 < src.size()) &&
            (src[i + 1] == '\n' || (src[i + 1] == '\r' && i + 2 < src.size() && src[i + 2] == '\n'))) {
            i += src[i + 1] == '\r' ? 2 : 1;
            ++physical;
            continue;
        }
        if (c == '\n') {
            lines.push_back({current, start});
            current.clear();
            start = ++physical;
            continue;
        }
        current += (c == '\r' || c == '\t') ? ' ' : c;
    }
    lines.push_back({current, start});
    return lines;
}

static bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
static bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenizeLine(std::string_view s, int line) {
    // Longest first: `<<=` is one token, never `<<` then `=` (which a printer would space apart).
    static constexpr std::string_view operators[] = {
        "<<=", ">>=", "&&", "||", "^^", "==", "!=", "<=", ">=", "<<", ">>",
        "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};
    std::vector<Token> out;
    size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
            continue;
        }
        size_t b = i;
        if (isIdentStart(c)) {
            while (i < s.size() && isIdentChar(s[i])) ++i;
            out.push_back({TokenKind::Identifier, std::string(s.substr(b, i - b)), line, int(b)});
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            bool hex = c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X');
            if (hex) i += 2;
            while (i < s.size()) {
                char d = s[i];
                bool exponentSign = !hex && (d == '+' || d == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E');
                if (isIdentChar(d) || d == '.' || exponentSign)
                    ++i;
                else
                    break;
            }
            out.push_back({TokenKind::Number, std::string(s.substr(b, i - b)), line, int(b)});
        } else if (c == '"') {
            ++i;
            while (i < s.size() && s[i] != '"') ++i;
            if (i < s.size()) ++i;
            out.push_back({TokenKind::String, std::string(s.substr(b, i - b)), line, int(b)});
        } else {
            std::size_t length = 1;
            for (auto op : operators)
                if (s.substr(i, op.size()) == op) {
                    length = op.size();
                    break;
                }
            i += length;
            out.push_back({TokenKind::Punct, std::string(s.substr(b, i - b)), line, int(b)});
        }
    }
    return out;
}

} // namespace xfb::shader
