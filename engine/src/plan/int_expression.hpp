#pragma once
// Internal: evaluates integer constant expressions (#if conditions, array sizes, locations).

#include "glsl_lexer.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>

namespace xfb::plan {

/// Thrown when an expression cannot be evaluated; `what()` says which token and why.
struct Unevaluable {
    std::string reason;
};

/// Resolves an identifier to a value, or returns nullopt when it has none.
using IdentifierValue = std::function<std::optional<long long>(const std::string&)>;

/// C-like integer expression: literals (decimal, hex, octal, u suffix), parentheses, unary + - ! ~,
/// binary * / % + - << >> < > <= >= == != & ^ | && ||. Identifiers go through `resolve`.
/// @throws Unevaluable
long long evaluateIntExpression(std::span<const Token> tokens, const IdentifierValue& resolve);

} // namespace xfb::plan
