#pragma once
// Internal: evaluates integer constant expressions (#if conditions, array sizes, locations).

#include "glsl_lexer.hpp"
#include "xfb/error.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>

namespace xfb::shader {

/// Thrown when an expression cannot be evaluated offline (an identifier with no known value, a
/// malformed expression); `reason` says which token and why.
struct Unevaluable {
    std::string reason;
};

/// Thrown when an expression can be read but its value is an error: ConstantExpression (overflow,
/// division by zero, a shift out of range, a literal too large) or NestingDepth.
struct ExpressionError {
    ErrorCode code;
    std::string reason;
};

/// Resolves an identifier to a value, or returns nullopt when it has none.
using IdentifierValue = std::function<std::optional<long long>(const std::string&)>;

/// C-like integer expression on 64-bit signed integers: literals (decimal, hex, octal, u suffix),
/// parentheses, unary + - ! ~, binary * / % + - << >> < > <= >= == != & ^ | && ||. Identifiers go
/// through `resolve`. As in the GLSL ES preprocessor, the right operand of && / || is not
/// evaluated when the left one decides (`defined(X) && X > 2` is fine without X); arithmetic that
/// overflows or divides by zero is an error, never a wrapped value. Nesting is depth-checked.
/// @throws Unevaluable, ExpressionError
long long evaluateIntExpression(std::span<const Token> tokens, const IdentifierValue& resolve);

} // namespace xfb::shader

// plan/'s readers (shader_interface, translated_source, fusion, the dialect passes) name these as
// they did when the reader lived in plan/.
namespace xfb::plan {
using shader::evaluateIntExpression;
using shader::ExpressionError;
using shader::IdentifierValue;
using shader::Unevaluable;
} // namespace xfb::plan
