#include "int_expression.hpp"

#include <cstdlib>

namespace xfb::plan {
namespace {

class Parser {
public:
    Parser(std::span<const Token> t, const IdentifierValue& r) : tokens_(t), resolve_(r) {}

    long long parseAll() {
        if (tokens_.empty()) throw Unevaluable{"the expression is empty"};
        long long v = binary(0);
        if (pos_ != tokens_.size()) throw Unevaluable{"unexpected '" + tokens_[pos_].text + "'"};
        return v;
    }

private:
    static int precedence(const std::string& op) {
        static const std::pair<const char*, int> table[] = {
            {"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7}, {">", 7},
            {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
        for (auto& [name, p] : table)
            if (op == name) return p;
        return -1;
    }

    long long binary(int minPrecedence) {
        long long lhs = unary();
        while (pos_ < tokens_.size() && tokens_[pos_].kind == TokenKind::Punct) {
            const std::string op = tokens_[pos_].text;
            int p = precedence(op);
            if (p < 0 || p < minPrecedence) break;
            ++pos_;
            long long rhs = binary(p + 1);
            lhs = apply(op, lhs, rhs);
        }
        return lhs;
    }

    static long long apply(const std::string& op, long long a, long long b) {
        if (op == "||") return a || b;
        if (op == "&&") return a && b;
        if (op == "|") return a | b;
        if (op == "^") return a ^ b;
        if (op == "&") return a & b;
        if (op == "==") return a == b;
        if (op == "!=") return a != b;
        if (op == "<") return a < b;
        if (op == ">") return a > b;
        if (op == "<=") return a <= b;
        if (op == ">=") return a >= b;
        if (op == "<<" || op == ">>") {
            if (b < 0 || b > 62) throw Unevaluable{"shift by " + std::to_string(b) + " is out of range"};
            return op == "<<" ? a << b : a >> b;
        }
        if (op == "+") return a + b;
        if (op == "-") return a - b;
        if (op == "*") return a * b;
        if (b == 0) throw Unevaluable{"division by zero"};
        return op == "/" ? a / b : a % b;
    }

    long long unary() {
        if (pos_ >= tokens_.size()) throw Unevaluable{"the expression ends too early"};
        const Token& t = tokens_[pos_];
        if (t.kind == TokenKind::Punct) {
            if (t.text == "(") {
                ++pos_;
                long long v = binary(0);
                if (pos_ >= tokens_.size() || tokens_[pos_].text != ")") throw Unevaluable{"missing ')'"};
                ++pos_;
                return v;
            }
            ++pos_;
            if (t.text == "+") return unary();
            if (t.text == "-") return -unary();
            if (t.text == "!") return !unary();
            if (t.text == "~") return ~unary();
            throw Unevaluable{"unexpected '" + t.text + "'"};
        }
        ++pos_;
        if (t.kind == TokenKind::Number) return literal(t.text);
        if (t.kind == TokenKind::Identifier) {
            if (auto v = resolve_(t.text)) return *v;
            throw Unevaluable{"'" + t.text + "' has no value known before compilation"};
        }
        throw Unevaluable{"unexpected " + t.text};
    }

    static long long literal(const std::string& text) {
        std::string digits = text;
        if (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U')) digits.pop_back();
        char* end = nullptr;
        long long v = std::strtoll(digits.c_str(), &end, 0);
        if (end == digits.c_str() || *end != '\0') throw Unevaluable{"'" + text + "' is not an integer literal"};
        return v;
    }

    std::span<const Token> tokens_;
    const IdentifierValue& resolve_;
    size_t pos_ = 0;
};

} // namespace

long long evaluateIntExpression(std::span<const Token> tokens, const IdentifierValue& resolve) {
    return Parser(tokens, resolve).parseAll();
}

} // namespace xfb::plan
