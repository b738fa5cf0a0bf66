#include "preprocessor.hpp"

#include "int_expression.hpp"
#include "xfb/error.hpp"
#include "xfb/limits.hpp"

#include <climits>
#include <span>

namespace xfb::shader {
namespace {

struct Macro {
    std::vector<Token> body; // a function-like macro's from its '(': the parameters, then the body
    bool functionLike = false;
    bool expanding = false; // inside its own expansion: not expanded again (C's "painted blue")
};

struct Conditional {
    bool parentActive; // the enclosing region is active
    bool taken;        // this branch is active
    bool anyTaken;     // some branch of this #if chain was active
    bool sawElse;
    int line;
};

[[noreturn]] void directiveError(int line, const std::string& what) {
    throw Error(ErrorCode::PreprocessorDirective, "line " + std::to_string(line) + ": " + what);
}

// The number of #version / #line: a decimal literal within int range (a coded error otherwise).
int directiveNumber(const Token& t, int line, const std::string& directive) {
    const std::string& s = t.text;
    bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) directiveError(line, directive + " needs a decimal number, got '" + s + "'");
    std::size_t first = std::min(s.find_first_not_of('0'), s.size() - 1);
    if (s.size() - first > 10 || std::stoll(s.substr(first)) > INT_MAX)
        throw Error(ErrorCode::ConstantExpression, "line " + std::to_string(line) + ": " + directive + " " + s +
                                                       " is out of range 0.." + std::to_string(INT_MAX));
    return std::stoi(s.substr(first));
}

class Preprocessor {
public:
    Preprocessor(const std::map<std::string, std::string>& defines, FunctionMacroExpander expand) : expand_(expand) {
        for (auto& [name, value] : defines) macros_[name].body = tokenizeLine(value, 0);
    }

    PreprocessedSource run(std::string_view source) {
        if (source.size() > limits::maxSourceBytes)
            throw Error(ErrorCode::SourceTooLarge, "the shader source has " + std::to_string(source.size()) +
                                                       " bytes; the reader accepts at most " +
                                                       std::to_string(limits::maxSourceBytes) + " (xfb/limits.hpp)");
        auto lines = splitLogicalLines(source);
        bool sawVersion = false;
        for (auto& [text, physical] : lines) {
            const long long numbered = physical + lineDelta_; // as numbered by #line
            if (numbered > INT_MAX && text.find_first_not_of(' ') != std::string::npos)
                throw Error(ErrorCode::ConstantExpression, "line " + std::to_string(physical) +
                                                               ": #line numbers this line " + std::to_string(numbered) +
                                                               ", past " + std::to_string(INT_MAX) +
                                                               "; use a smaller #line");
            const int line = int(std::min<long long>(numbered, INT_MAX)); // blank lines past INT_MAX are harmless
            auto tokens = tokenizeLine(text, line);
            if (tokens.empty()) continue;
            if (tokens[0].text == "#") {
                flush();
                directive(tokens, line, sawVersion, text);
                continue;
            }
            sawCode_ = true;
            // Expanded at the next directive or the end (flush()): an invocation of a function-like
            // macro may continue on the next lines.
            if (active())
                for (Token& t : tokens) pending_.push_back(std::move(t));
        }
        flush();
        if (!stack_.empty()) directiveError(stack_.back().line, "#if without a matching #endif");
        for (auto& [name, m] : macros_)
            if (m.functionLike) out_.functionMacros.push_back(name);
        return std::move(out_);
    }

private:
    bool active() const { return stack_.empty() || (stack_.back().parentActive && stack_.back().taken); }

    void directive(const std::vector<Token>& t, int line, bool& sawVersion, const std::string& text) {
        if (t.size() == 1) return; // null directive
        const std::string& name = t[1].text;
        if (name == "if" || name == "ifdef" || name == "ifndef") {
            bool parent = active();
            if (stack_.size() >= std::size_t(limits::maxNestingDepth))
                throw Error(ErrorCode::NestingDepth, "line " + std::to_string(line) +
                                                         ": #if blocks nested deeper than " +
                                                         std::to_string(limits::maxNestingDepth) + " levels");
            bool cond = parent ? condition(name, t, line) : false;
            stack_.push_back({parent, cond, cond, false, line});
        } else if (name == "elif") {
            if (stack_.empty() || stack_.back().sawElse) directiveError(line, "#elif without a matching #if");
            auto& c = stack_.back();
            bool cond = (c.parentActive && !c.anyTaken) ? condition("if", t, line) : false;
            c.taken = cond;
            c.anyTaken = c.anyTaken || cond;
        } else if (name == "else") {
            if (stack_.empty() || stack_.back().sawElse) directiveError(line, "#else without a matching #if");
            auto& c = stack_.back();
            c.taken = !c.anyTaken;
            c.anyTaken = true;
            c.sawElse = true;
        } else if (name == "endif") {
            if (stack_.empty()) directiveError(line, "#endif without a matching #if");
            stack_.pop_back();
        } else if (!active()) {
            return; // other directives in inactive regions are ignored
        } else if (name == "version") {
            if (sawVersion || sawCode_)
                directiveError(line, "#version must be the first line of the shader and appear once");
            if (t.size() < 3 || t[2].kind != TokenKind::Number)
                directiveError(line, "#version needs a number, e.g. #version 300 es");
            sawVersion = true;
            out_.version = directiveNumber(t[2], line, "#version");
            out_.es = out_.version == 100 || (t.size() > 3 && t[3].text == "es");
            macros_["__VERSION__"] = Macro{{{TokenKind::Number, t[2].text, line}}, false};
            if (out_.es)
                macros_["GL_ES"] = Macro{{{TokenKind::Number, "1", line}}, false};
            else
                macros_.erase("GL_ES");
        } else if (name == "define") {
            if (t.size() < 3 || t[2].kind != TokenKind::Identifier) directiveError(line, "#define needs a macro name");
            Macro m;
            // Function-like only when '(' touches the name: `#define F(x)`, not `#define N (4)`.
            m.functionLike = t.size() > 3 && t[3].text == "(" && t[3].column == t[2].column + int(t[2].text.size());
            m.body.assign(t.begin() + 3, t.end());
            if (m.functionLike) out_.passThrough.push_back(text);
            macros_[t[2].text] = std::move(m);
        } else if (name == "undef") {
            if (t.size() < 3) directiveError(line, "#undef needs a macro name");
            auto it = macros_.find(t[2].text);
            if (it != macros_.end() && it->second.functionLike) out_.passThrough.push_back(text);
            macros_.erase(t[2].text);
        } else if (name == "error") {
            std::string msg;
            for (size_t i = 2; i < t.size(); ++i) msg += (i > 2 ? " " : "") + t[i].text;
            directiveError(line, "#error " + msg);
        } else if (name == "line") {
            if (t.size() < 3 || t[2].kind != TokenKind::Number) directiveError(line, "#line needs a line number");
            // The next line gets that number: physical + delta, kept in 64 bits and checked per line.
            lineDelta_ = (long long)directiveNumber(t[2], line, "#line") - (line - lineDelta_ + 1);
        } else if (name == "extension") {
            out_.passThrough.push_back(text);
        } else if (name == "pragma") {
            return;
        } else {
            directiveError(line, "unknown directive #" + name);
        }
    }

    bool condition(const std::string& kind, const std::vector<Token>& t, int line) {
        if (kind == "ifdef" || kind == "ifndef") {
            if (t.size() != 3 || t[2].kind != TokenKind::Identifier)
                directiveError(line, "#" + kind + " needs exactly one macro name");
            bool defined = macros_.count(t[2].text) > 0;
            return kind == "ifdef" ? defined : !defined;
        }
        // Replace `defined X` / `defined(X)` first, then expand macros.
        std::vector<Token> replaced;
        for (size_t i = 2; i < t.size(); ++i) {
            if (t[i].text == "defined") {
                size_t j = i + 1;
                bool paren = j < t.size() && t[j].text == "(";
                if (paren) ++j;
                if (j >= t.size() || t[j].kind != TokenKind::Identifier)
                    directiveError(line, "'defined' needs a macro name");
                replaced.push_back({TokenKind::Number, macros_.count(t[j].text) ? "1" : "0", line});
                if (paren) {
                    if (j + 1 >= t.size() || t[j + 1].text != ")")
                        directiveError(line, "missing ')' after defined(" + t[j].text);
                    ++j;
                }
                i = j;
            } else {
                replaced.push_back(t[i]);
            }
        }
        std::vector<Token> expanded;
        expandInto(replaced, expanded, 0, 0);
        try {
            return evaluateIntExpression(expanded, [&](const std::string& id) -> std::optional<long long> {
                       if (id == "__LINE__") return line;
                       auto it = macros_.find(id);
                       if (it != macros_.end() && it->second.functionLike)
                           throw Unevaluable{"function-like macro '" + id +
                                             "' is not evaluated by the declaration reader"};
                       return std::nullopt;
                   }) != 0;
        } catch (const ExpressionError& e) {
            throw Error(e.code, "line " + std::to_string(line) + ": #" + kind + " condition: " + e.reason);
        } catch (const Unevaluable& u) {
            throw Error(ErrorCode::PreprocessorUnevaluable,
                        "line " + std::to_string(line) + ": cannot evaluate #" + kind + " condition: " + u.reason +
                            ". Define it (ReadOptions::defines / --define NAME=VALUE) or simplify the condition.");
        }
    }

    // The active code since the last directive, expanded: a function-like macro's name without
    // '(' is a plain identifier; an invocation without its ')' before a directive is an error.
    void flush() {
        expandInto(pending_, out_.tokens, 0, 0);
        pending_.clear();
    }

    // Expands macros (function-like ones given expand_); tokens of a body take the line of the
    // outermost use (`line`, 0 at the top). Every token visited counts against limits::maxTokens,
    // so macros that double (or expand to nothing, many times) stop with a coded error instead of
    // running for minutes.
    void expandInto(std::span<const Token> in, std::vector<Token>& out, int line, int depth) {
        for (std::size_t i = 0; i < in.size(); ++i) {
            const Token& tok = in[i];
            const int at = line ? line : tok.line;
            if (++visited_ > limits::maxTokens)
                throw Error(ErrorCode::ExpansionLimit,
                            "line " + std::to_string(at) + ": macro expansion produces more than " +
                                std::to_string(limits::maxTokens) +
                                " tokens (xfb/limits.hpp); a macro that uses another "
                                "twice doubles the output at every level: use fewer levels or a const");
            if (expand_ && tok.text == "__LINE__" && tok.kind == TokenKind::Identifier) { // the line of its use
                out.push_back({TokenKind::Number, std::to_string(at), at, tok.column});
                continue;
            }
            auto it = tok.kind == TokenKind::Identifier ? macros_.find(tok.text) : macros_.end();
            const bool invoked = it != macros_.end() && it->second.functionLike && expand_ && !it->second.expanding;
            if (it == macros_.end() || it->second.expanding || (it->second.functionLike && !invoked) ||
                (invoked && (i + 1 == in.size() || in[i + 1].text != "("))) {
                out.push_back(tok);
                if (line) out.back().line = line;
                continue;
            }
            if (depth >= limits::maxNestingDepth)
                throw Error(ErrorCode::NestingDepth,
                            "line " + std::to_string(at) + ": macros expand macros deeper than " +
                                std::to_string(limits::maxNestingDepth) + " levels (at '" + tok.text + "')");
            Macro& m = it->second;
            std::vector<Token> substituted; // a function-like macro's body, its arguments in place
            if (invoked) {
                // Its arguments are expanded at the invocation's line and depth.
                struct Arguments final : ArgumentExpansion {
                    Preprocessor& p;
                    int line, depth;
                    Arguments(Preprocessor& p, int line, int depth) : p(p), line(line), depth(depth) {}
                    void expandArgument(std::span<const Token> a, std::vector<Token>& o) override {
                        p.expandInto(a, o, line, depth);
                    }
                } arguments(*this, at, depth + 1);
                i = expand_(m.body, tok.text, in, i + 1, at, arguments, substituted);
            }
            m.expanding = true;
            expandInto(invoked ? substituted : m.body, out, at, depth + 1);
            m.expanding = false;
        }
    }

    std::map<std::string, Macro> macros_;
    std::vector<Conditional> stack_;
    PreprocessedSource out_;
    bool sawCode_ = false;
    long long lineDelta_ = 0;
    std::size_t visited_ = 0;      // tokens visited by macro expansion, the whole source
    FunctionMacroExpander expand_; // function-like macros expanded when given (else kept for the GL)
    std::vector<Token> pending_;   // the active code since the last directive (flush())
};

} // namespace

PreprocessedSource preprocess(std::string_view source, const std::map<std::string, std::string>& defines,
                              FunctionMacroExpander expand) {
    return Preprocessor(defines, expand).run(source);
}

} // namespace xfb::shader
