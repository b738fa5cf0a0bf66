#pragma once
// Internal: GLSL tokens and the comment/line-continuation pass. Pure, no GL.

#include <string>
#include <string_view>
#include <vector>

namespace xfb::shader {

enum class TokenKind { Identifier, Number, Punct, String };

struct Token {
    TokenKind kind;
    std::string text;
    int line;       // 1-based source line
    int column = 0; // 0-based offset in its logical line
};

/// A logical source line: continuation lines joined, comments replaced by spaces.
struct SourceLine {
    std::string text;
    int line; // 1-based physical line where it starts
};

/// Splits source into logical lines with comments removed. String-like noise ("...") is kept
/// for the tokenizer, which turns it into a String token that declarations never contain.
std::vector<SourceLine> splitLogicalLines(std::string_view source);

/// Tokenizes one logical line.
std::vector<Token> tokenizeLine(std::string_view text, int line);

} // namespace xfb::shader

// plan/'s readers (shader_interface, translated_source, fusion, the dialect passes) name these as
// they did when the reader lived in plan/.
namespace xfb::plan {
using shader::SourceLine;
using shader::splitLogicalLines;
using shader::Token;
using shader::tokenizeLine;
using shader::TokenKind;
} // namespace xfb::plan
