#include "preprocessor.hpp"

#include "int_expression.hpp"
#include "xfb/error.hpp"

#include <set>

namespace xfb::plan {
namespace {

struct Macro {
    std::vector<Token> body;
    bool functionLike = false;
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

class Preprocessor {
public:
    explicit Preprocessor(const std::map<std::string, std::string>& defines) {
        for (auto& [name, value] : defines) macros_[name] = Macro{tokenizeLine(value, 0), false};
    }

    PreprocessedSource run(std::string_view source) {
        auto lines = splitLogicalLines(source);
        bool sawVersion = false;
        for (auto& [text, physical] : lines) {
            const int line = physical + lineDelta_; // as numbered by #line
            auto tokens = tokenizeLine(text, line);
            if (tokens.empty()) continue;
            if (tokens[0].text == "#") {
                directive(tokens, line, sawVersion, text);
            } else if (active()) {
                expandInto(tokens, out_.tokens, {});
            }
            if (!tokens.empty() && tokens[0].text != "#") sawCode_ = true;
        }
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
            if (sawVersion || sawCode_) directiveError(line, "#version must be the first line of the shader and appear once");
            if (t.size() < 3 || t[2].kind != TokenKind::Number) directiveError(line, "#version needs a number, e.g. #version 300 es");
            sawVersion = true;
            out_.version = std::stoi(t[2].text);
            out_.es = out_.version == 100 || (t.size() > 3 && t[3].text == "es");
            macros_["__VERSION__"] = Macro{{{TokenKind::Number, t[2].text, line}}, false};
            if (out_.es) macros_["GL_ES"] = Macro{{{TokenKind::Number, "1", line}}, false};
            else macros_.erase("GL_ES");
        } else if (name == "define") {
            if (t.size() < 3 || t[2].kind != TokenKind::Identifier) directiveError(line, "#define needs a macro name");
            Macro m;
            size_t bodyStart = 3;
            // Function-like only when '(' touches the name: `#define F(x)`, not `#define N (4)`.
            if (t.size() > 3 && t[3].text == "(" && t[3].column == t[2].column + int(t[2].text.size())) {
                m.functionLike = true;
                while (bodyStart < t.size() && t[bodyStart].text != ")") ++bodyStart;
                ++bodyStart;
            }
            if (bodyStart < t.size()) m.body.assign(t.begin() + static_cast<long>(bodyStart), t.end());
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
            lineDelta_ += std::stoi(t[2].text) - (line + 1); // the next line gets that number
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
            if (t.size() != 3 || t[2].kind != TokenKind::Identifier) directiveError(line, "#" + kind + " needs exactly one macro name");
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
                if (j >= t.size() || t[j].kind != TokenKind::Identifier) directiveError(line, "'defined' needs a macro name");
                replaced.push_back({TokenKind::Number, macros_.count(t[j].text) ? "1" : "0", line});
                if (paren) {
                    if (j + 1 >= t.size() || t[j + 1].text != ")") directiveError(line, "missing ')' after defined(" + t[j].text);
                    ++j;
                }
                i = j;
            } else {
                replaced.push_back(t[i]);
            }
        }
        std::vector<Token> expanded;
        expandInto(replaced, expanded, {});
        try {
            return evaluateIntExpression(expanded, [&](const std::string& id) -> std::optional<long long> {
                if (id == "__LINE__") return line;
                auto it = macros_.find(id);
                if (it != macros_.end() && it->second.functionLike)
                    throw Unevaluable{"function-like macro '" + id + "' is not evaluated by the declaration reader"};
                return std::nullopt;
            }) != 0;
        } catch (const Unevaluable& u) {
            throw Error(ErrorCode::PreprocessorUnevaluable,
                        "line " + std::to_string(line) + ": cannot evaluate #" + kind + " condition: " + u.reason +
                            ". Define it (ReadOptions::defines / --define NAME=VALUE) or simplify the condition.");
        }
    }

    void expandInto(const std::vector<Token>& in, std::vector<Token>& out, std::set<std::string> hidden) {
        for (const Token& tok : in) {
            auto it = tok.kind == TokenKind::Identifier ? macros_.find(tok.text) : macros_.end();
            if (it == macros_.end() || it->second.functionLike || hidden.count(tok.text)) {
                out.push_back(tok);
                continue;
            }
            auto inner = hidden;
            inner.insert(tok.text);
            std::vector<Token> body = it->second.body;
            for (auto& b : body) b.line = tok.line;
            expandInto(body, out, inner);
        }
    }

    std::map<std::string, Macro> macros_;
    std::vector<Conditional> stack_;
    PreprocessedSource out_;
    bool sawCode_ = false;
    int lineDelta_ = 0;
};

} // namespace

PreprocessedSource preprocess(std::string_view source, const std::map<std::string, std::string>& defines) {
    return Preprocessor(defines).run(source);
}

} // namespace xfb::plan
