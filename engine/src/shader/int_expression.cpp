#include "int_expression.hpp"

#include "xfb/limits.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace xfb::shader {
namespace {

__extension__ typedef __int128 Wide; // exact products of two 64-bit values

[[noreturn]] void arithmetic(const std::string& why) { throw ExpressionError{ErrorCode::ConstantExpression, why}; }

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
            {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},  {">", 7},
            {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};
        for (auto& [name, p] : table)
            if (op == name) return p;
        return -1;
    }

    // Counts one level of nesting (a parenthesis or a unary operator) for the scope of a call.
    struct Nest {
        Parser& p;
        explicit Nest(Parser& parser) : p(parser) {
            if (++p.depth_ > limits::maxNestingDepth)
                throw ExpressionError{ErrorCode::NestingDepth, "parentheses and unary operators nested deeper than " +
                                                                   std::to_string(limits::maxNestingDepth) + " levels"};
        }
        ~Nest() { --p.depth_; }
    };

    long long binary(int minPrecedence) {
        long long lhs = unary();
        while (pos_ < tokens_.size() && tokens_[pos_].kind == TokenKind::Punct) {
            const std::string op = tokens_[pos_].text;
            int p = precedence(op);
            if (p < 0 || p < minPrecedence) break;
            ++pos_;
            // The right side of && / || is read but not evaluated when the left side decides.
            bool decided = (op == "&&" && !lhs) || (op == "||" && lhs);
            int skippedBefore = skipping_;
            if (decided) ++skipping_;
            long long rhs = binary(p + 1);
            skipping_ = skippedBefore;
            lhs = skipping_ ? 0 : apply(op, lhs, rhs);
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
        long long r = 0;
        auto text = [](long long v) { return std::to_string(v); };
        if (op == "<<" || op == ">>") {
            if (b < 0 || b > 63) arithmetic("shift by " + text(b) + " is out of range 0..63");
            if (op == ">>") return a >> b;
            Wide wide = Wide(a) * (Wide(1) << b); // exact: |a| < 2^63, b <= 63
            if (wide > std::numeric_limits<long long>::max() || wide < std::numeric_limits<long long>::min())
                arithmetic(text(a) + " << " + text(b) + " overflows 64-bit integers");
            return (long long)wide;
        }
        if (op == "+" && !__builtin_add_overflow(a, b, &r)) return r;
        if (op == "-" && !__builtin_sub_overflow(a, b, &r)) return r;
        if (op == "*" && !__builtin_mul_overflow(a, b, &r)) return r;
        if (op == "+" || op == "-" || op == "*")
            arithmetic(text(a) + " " + op + " " + text(b) + " overflows 64-bit integers");
        if (b == 0) arithmetic("division by zero (" + text(a) + " " + op + " 0)");
        if (a == std::numeric_limits<long long>::min() && b == -1)
            arithmetic(text(a) + " " + op + " -1 overflows 64-bit integers");
        return op == "/" ? a / b : a % b;
    }

    long long unary() {
        if (pos_ >= tokens_.size()) throw Unevaluable{"the expression ends too early"};
        const Token& t = tokens_[pos_];
        if (t.kind == TokenKind::Punct) {
            Nest nest(*this);
            if (t.text == "(") {
                ++pos_;
                long long v = binary(0);
                if (pos_ >= tokens_.size() || tokens_[pos_].text != ")") throw Unevaluable{"missing ')'"};
                ++pos_;
                return v;
            }
            ++pos_;
            if (t.text == "+") return unary();
            if (t.text == "-") {
                long long v = unary();
                if (!skipping_ && v == std::numeric_limits<long long>::min())
                    arithmetic("-(" + std::to_string(v) + ") overflows 64-bit integers");
                return skipping_ ? 0 : -v;
            }
            if (t.text == "!") return !unary();
            if (t.text == "~") return ~unary();
            throw Unevaluable{"unexpected '" + t.text + "'"};
        }
        ++pos_;
        if (t.kind == TokenKind::Number) return literal(t.text);
        if (t.kind == TokenKind::Identifier) {
            if (skipping_) return 0;
            if (auto v = resolve_(t.text)) return *v;
            throw Unevaluable{"'" + t.text + "' has no value known before compilation"};
        }
        throw Unevaluable{"unexpected " + t.text};
    }

    static long long literal(const std::string& text) {
        std::string digits = text;
        bool isUnsigned = !digits.empty() && (digits.back() == 'u' || digits.back() == 'U');
        if (isUnsigned) digits.pop_back();
        if (digits.empty() || digits[0] == '-' || digits[0] == '+' || digits[0] == ' ')
            throw Unevaluable{"'" + text + "' is not an integer literal"};
        char* end = nullptr;
        errno = 0;
        unsigned long long v = std::strtoull(digits.c_str(), &end, 0);
        if (end == digits.c_str() || *end != '\0') throw Unevaluable{"'" + text + "' is not an integer literal"};
        if (errno == ERANGE || v > (unsigned long long)std::numeric_limits<long long>::max())
            arithmetic("the literal " + text + " does not fit in 64-bit signed integers");
        return (long long)v;
    }

    std::span<const Token> tokens_;
    const IdentifierValue& resolve_;
    size_t pos_ = 0;
    int depth_ = 0;
    int skipping_ = 0; // > 0: inside an operand that && / || does not evaluate
};

} // namespace

long long evaluateIntExpression(std::span<const Token> tokens, const IdentifierValue& resolve) {
    return Parser(tokens, resolve).parseAll();
}

} // namespace xfb::shader
