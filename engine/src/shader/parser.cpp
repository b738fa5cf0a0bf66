// The GLSL front-end's module scope and statements (parser.hpp); expressions are in
// parse_expression.cpp.
#include "parser_state.hpp"

#include "int_expression.hpp"
#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <set>

namespace xfb::shader {

using plan::Token;
using plan::TokenKind;
using S = std::string;

void refuseAt(int line, std::initializer_list<std::string_view> what) {
    throw Error(ErrorCode::ComputeTranslation,
                plan::cat({"WGSL: line ", std::to_string(line), ": "}) + plan::cat(what));
}

Parser::Parser(const ParseInput& input) : t_(*input.tokens), geometryVertices_(input.geometryVertices) {
    for (const InterfaceSymbol& s : input.interface) {
        if (s.storage == Storage::In || s.storage == Storage::Out) refuseReserved(s.name, s.line);
        m_.symbols.push_back({s.name, s.type, s.storage, {s.line, 0}});
        globals_[s.name] = &m_.symbols.back();
    }
    if (geometryVertices_) // gl_in[]'s element: declared by the geometry kernels (wgsl_geometry.cpp)
        m_.structs.push_back(
            {"xfb_per_vertex",
             {{"gl_Position", Type::of(ScalarKind::Float, 4)}, {"gl_PointSize", Type::of(ScalarKind::Float)}},
             {}});
}

Module Parser::run() {
    while (!atEnd()) globalDeclaration();
    // A call of a function that writes outside itself writes too: settle over the call graph.
    for (bool changed = true; changed;) {
        changed = false;
        for (Function& f : m_.functions)
            for (const Function* c : f.callees)
                if (c->writesOutside && !f.writesOutside) changed = f.writesOutside = true;
    }
    return std::move(m_);
}

Module parseModule(const ParseInput& input) { return Parser(input).run(); }

// Tokens ------------------------------------------------------------------------------------
const Token& Parser::tok(std::size_t k) const {
    static const Token end{TokenKind::Punct, "<end>", 0};
    return p_ + k < t_.size() ? t_[p_ + k] : end;
}
int Parser::line() const { return atEnd() ? (t_.empty() ? 1 : t_.back().line) : tok().line; }
bool Parser::accept(const char* s) {
    if (!is(s)) return false;
    ++p_;
    return true;
}
void Parser::expect(const char* s) {
    if (!accept(s)) refuseAt(line(), {"expected '", s, "' before '", tok().text, "'"});
}
S Parser::name() {
    if (tok().kind != TokenKind::Identifier) refuseAt(line(), {"expected a name, found '", tok().text, "'"});
    return t_[p_++].text;
}
void Parser::skipTo(const char* s) {
    while (!atEnd() && !is(s)) ++p_;
    ++p_;
}
S Parser::sourceText(std::size_t from, std::size_t to) const {
    S s;
    for (std::size_t i = from; i < to && i < t_.size(); ++i) {
        bool glue =
            i > from && (t_[i].text == "." || t_[i].text == "[" || t_[i].text == "]" || t_[i - 1].text == "." ||
                         t_[i - 1].text == "[" || t_[i].text == "(" || t_[i].text == ")" || t_[i - 1].text == "(");
        s += (i > from && !glue ? " " : "") + t_[i].text;
    }
    return s;
}
// An integer constant expression over tokens [from, to) (plan/int_expression.hpp, the grammar of
// #if and of the interface reader's array sizes), names resolved to the const ints seen so far.
long long Parser::constantInt(std::size_t from, std::size_t to, int l, const char* what) const {
    std::span<const Token> tokens(t_.data() + from, to - from);
    try {
        return plan::evaluateIntExpression(tokens, [&](const S& n) -> std::optional<long long> {
            auto it = constInts_.find(n);
            return it == constInts_.end() ? std::nullopt : std::optional<long long>(it->second);
        });
    } catch (const plan::Unevaluable& u) {
        refuseAt(l, {what, " '", sourceText(from, to), "' is not a constant integer expression (", u.reason,
                     "); use literals and const ints"});
    } catch (const plan::ExpressionError& e) { refuseAt(l, {what, " '", sourceText(from, to), "': ", e.reason}); }
}

// Types and names ---------------------------------------------------------------------------
bool Parser::isTypeName(std::size_t k) const {
    const S& n = tok(k).text;
    return tok(k).kind == TokenKind::Identifier && (n == "void" || builtinType(n) || m_.findStruct(n));
}
bool Parser::isQualifier(const S& n) {
    return n == "highp" || n == "mediump" || n == "lowp" || n == "const" || n == "precise" || n == "invariant";
}
Type Parser::typeName() {
    int l = line();
    S n = name();
    Type t;
    if (n == "void")
        t.isVoid = true;
    else if (m_.findStruct(n))
        t = Type{ScalarKind::Struct, 1, 1, 0, n};
    else if (auto b = builtinType(n))
        t = Type{b->kind, b->columns, b->rows, 0, b->kind == ScalarKind::Opaque ? n : S()};
    else
        refuseAt(l, {"unknown type '", n, "'"});
    if (t.kind == ScalarKind::Double) refuseAt(l, {"'", n, "': double types have no WGSL equivalent"});
    return t;
}
int Parser::arraySize() { // after '[': a constant integer expression, then ']'
    int l = line();
    std::size_t from = p_;
    for (int depth = 0; !atEnd() && !(depth == 0 && is("]")); ++p_) depth += is("[") ? 1 : is("]") ? -1 : 0;
    long long n = constantInt(from, p_, l, "array size");
    expect("]");
    if (n <= 0 || n > 0x7FFFFFFF) refuseAt(l, {"array size ", std::to_string(n), " must be > 0"});
    return int(n);
}
void Parser::refuseReserved(const S& n, int l) {
    if (n.starts_with("xfb_")) refuseAt(l, {"identifier '", n, "' uses the reserved prefix xfb_; rename it"});
}
Symbol* Parser::lookup(const S& n) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
        if (auto f = it->find(n); f != it->end()) return f->second;
    auto g = globals_.find(n);
    return g == globals_.end() ? nullptr : g->second;
}
Symbol* Parser::declare(const S& n, Type type, Storage storage, Span at) {
    refuseReserved(n, at.line);
    m_.symbols.push_back({n, std::move(type), storage, at});
    Symbol* s = &m_.symbols.back();
    (scopes_.empty() ? globals_ : scopes_.back())[n] = s;
    return s;
}

// Module scope ------------------------------------------------------------------------------
void Parser::globalDeclaration() {
    Span at = span();
    if (accept(";")) return;
    if (is("precision")) {
        skipTo(";");
        return;
    }
    if (is("struct")) {
        structDefinition();
        return;
    }
    // Interface declarations (in/out/uniform, layout(...)) were read by readShaderInterface().
    std::size_t k = 0;
    bool interface = false, isConst = false;
    while (true) {
        const S& q = tok(k).text;
        if (q == "layout") {
            while (!is(")", k) && p_ + k < t_.size()) ++k;
            ++k;
            continue;
        }
        if (q == "in" || q == "out" || q == "uniform" || q == "attribute" || q == "varying" || q == "buffer" ||
            q == "shared")
            interface = true;
        else if (q == "const")
            isConst = true;
        else if (!(q == "flat" || q == "smooth" || q == "noperspective" || q == "centroid" || isQualifier(q)))
            break;
        ++k;
    }
    if (tok(k).text.starts_with("gl_")) { // `invariant gl_Position;`
        skipTo(";");
        return;
    }
    if (interface) {
        if (tok(k).kind == TokenKind::Identifier && is("{", k + 1))
            refuseAt(at.line, {"interface block '", tok(k).text, "': declare its members as separate variables"});
        skipTo(";");
        return;
    }
    p_ += k;
    Type type = typeName();
    if (accept("[")) type.array = arraySize();
    S n = name();
    if (is("(")) {
        function(type, n, at);
        return;
    }
    m_.globalStatements.push_back(variables(type, n, isConst, true, at));
    m_.items.push_back({nullptr, m_.globalStatements.back().get(), nullptr});
}

void Parser::structDefinition() {
    Span at = span();
    expect("struct");
    S n = name();
    refuseReserved(n, at.line);
    expect("{");
    StructDef def{n, {}, at};
    while (!accept("}")) {
        if (atEnd()) refuseAt(at.line, {"struct '", n, "' has no closing '}'"});
        while (isQualifier(tok().text)) ++p_;
        Type mt = typeName();
        do {
            S member = name();
            Type t = mt;
            if (accept("[")) t.array = arraySize();
            def.members.push_back({member, t});
        } while (accept(","));
        expect(";");
    }
    m_.structs.push_back(std::move(def));
    m_.items.push_back({&m_.structs.back(), nullptr, nullptr});
    if (accept(";")) return;
    // `struct S { ... } s, t[2];`: global variables of the new type
    const S first = name();
    m_.globalStatements.push_back(variables(Type{ScalarKind::Struct, 1, 1, 0, n}, first, false, true, at));
    m_.items.push_back({nullptr, m_.globalStatements.back().get(), nullptr});
}

// `T a = x, b[3], c;` after the first name.
StmtPtr Parser::variables(Type type, S n, bool isConst, bool global, Span at) {
    auto decl = std::make_unique<Stmt>();
    decl->kind = StmtKind::Declaration;
    decl->span = at;
    while (true) {
        Span here = span();
        Type t = type;
        if (accept("[")) t.array = arraySize();
        ExprPtr init;
        if (accept("=")) {
            std::size_t from = p_;
            init = assignment();
            requireConvertible(*init, t);
            if (isConst && t.integer() && t.scalar()) try {
                    constInts_[n] = constantInt(from, p_, here.line, "const");
                } catch (const Error&) {} // not a constant expression: no array size can name it
        }
        if (t.kind == ScalarKind::Opaque)
            refuseAt(here.line, {"'", n, "': a sampler can only be a uniform or a parameter"});
        Storage storage = isConst  ? (global ? Storage::Const : Storage::LocalConst)
                          : global ? Storage::Private
                                   : Storage::Local;
        decl->vars.push_back({declare(n, t, storage, here), std::move(init)});
        if (!accept(",")) break;
        n = name();
    }
    expect(";");
    return decl;
}

void Parser::function(Type result, const S& n, Span at) {
    refuseReserved(n, at.line);
    expect("(");
    std::vector<Param> params;
    std::vector<std::pair<S, Span>> names;
    if (is("void") && is(")", 1)) ++p_;
    while (!is(")")) {
        ParamMode mode = ParamMode::In;
        while (true) {
            if (is("out"))
                mode = ParamMode::Out;
            else if (is("inout"))
                mode = ParamMode::InOut;
            else if (!(is("in") || isQualifier(tok().text)))
                break;
            ++p_;
        }
        Type pt = typeName();
        Span ps = span();
        S pn = tok().kind == TokenKind::Identifier ? name() : S();
        if (accept("[")) pt.array = arraySize();
        params.push_back({nullptr, pt, mode});
        names.push_back({pn, ps});
        if (!accept(",")) break;
    }
    expect(")");
    auto& overloads = functions_[n];
    Function* fn = nullptr;
    for (Function* o : overloads)
        if (std::equal(o->params.begin(), o->params.end(), params.begin(), params.end(),
                       [](const Param& a, const Param& b) { return a.type == b.type; }))
            fn = o;
    if (!fn) {
        m_.functions.push_back({n, int(overloads.size()), result, params, nullptr, at});
        fn = &m_.functions.back();
        overloads.push_back(fn);
    }
    if (accept(";")) return; // a prototype
    if (fn->body) refuseAt(at.line, {"function '", n, "' is defined twice"});
    scopes_.emplace_back();
    for (std::size_t i = 0; i < params.size(); ++i) {
        Param& p = params[i];
        const auto& [pn, ps] = names[i];
        if (p.mode != ParamMode::In) fn->writesOutside = true;
        if (!pn.empty())
            p.symbol = declare(pn, p.type,
                               p.mode != ParamMode::In             ? Storage::OutParam
                               : p.type.kind == ScalarKind::Opaque ? Storage::Sampler
                                                                   : Storage::Local,
                               ps);
    }
    fn->params = params; // the definition's names
    fn->span = at;
    current_ = fn;
    if (!is("{")) refuseAt(line(), {"expected '{' before '", tok().text, "'"});
    auto body = std::make_unique<Stmt>();
    body->span = span();
    expect("{");
    while (!accept("}")) {
        if (atEnd()) refuseAt(at.line, {"function '", n, "' has no closing '}'"});
        body->body.push_back(statement());
    }
    fn->body = std::move(body);
    current_ = nullptr;
    scopes_.pop_back();
    m_.items.push_back({nullptr, nullptr, fn});
}

// Statements --------------------------------------------------------------------------------
StmtPtr Parser::block() { // a statement in its own scope
    scopes_.emplace_back();
    StmtPtr s;
    if (is("{")) {
        s = std::make_unique<Stmt>();
        s->span = span();
        ++p_;
        while (!accept("}")) {
            if (atEnd()) refuseAt(line(), {"missing '}'"});
            s->body.push_back(statement());
        }
    } else
        s = statement();
    scopes_.pop_back();
    return s;
}

bool Parser::declarationAhead() const {
    std::size_t k = 0;
    while (isQualifier(tok(k).text)) ++k;
    if (!isTypeName(k)) return false;
    if (tok(k + 1).kind == TokenKind::Identifier) return true;
    return is("[", k + 1); // float[3] a  (or float[3](...): checked by the caller)
}
bool Parser::constructorArrayAhead() const { // float[3](...) is an expression
    std::size_t k = 2;
    while (k < 6 && !is("]", k)) ++k;
    return is("(", k + 1);
}
void Parser::requireBool(const Expr& c, const char* what) {
    if (!(c.type.kind == ScalarKind::Bool && c.type.scalar()))
        refuseAt(c.span.line, {what, " condition must be a bool"});
}
void Parser::requireConvertible(const Expr& e, const Type& t) {
    if (!convertible(e, t)) refuseAt(e.span.line, {"a ", describe(e.type), " where a ", describe(t), " is needed"});
}

StmtPtr Parser::localDeclaration() {
    Span at = span();
    bool isConst = false;
    while (isQualifier(tok().text)) isConst = t_[p_++].text == "const" || isConst;
    Type type = typeName();
    if (accept("[")) type.array = arraySize();
    return variables(type, name(), isConst, false, at);
}

StmtPtr Parser::statement() {
    Span at = span();
    auto make = [&](StmtKind k) {
        auto s = std::make_unique<Stmt>();
        s->kind = k;
        s->span = at;
        return s;
    };
    if (accept(";")) return make(StmtKind::Expression); // empty: no expression
    if (is("{")) return block();
    if (is("precision")) {
        skipTo(";");
        return make(StmtKind::Expression);
    }
    if (accept("if")) {
        auto s = make(StmtKind::If);
        expect("(");
        s->expr = expression();
        expect(")");
        requireBool(*s->expr, "if");
        s->then = block();
        if (accept("else")) s->otherwise = block();
        return s;
    }
    if (accept("for")) return forLoop(at);
    if (accept("while")) {
        auto s = make(StmtKind::While);
        expect("(");
        s->expr = expression();
        expect(")");
        requireBool(*s->expr, "while");
        s->then = block();
        return s;
    }
    if (accept("do")) {
        auto s = make(StmtKind::DoWhile);
        s->then = block();
        expect("while");
        expect("(");
        s->expr = expression();
        expect(")");
        expect(";");
        requireBool(*s->expr, "do-while");
        return s;
    }
    if (accept("switch")) return switchStatement(at);
    if (accept("discard")) {
        expect(";");
        return make(StmtKind::Discard);
    }
    if (accept("return")) {
        auto s = make(StmtKind::Return);
        if (accept(";")) return s;
        s->expr = expression();
        expect(";");
        if (current_) requireConvertible(*s->expr, current_->result);
        return s;
    }
    if (accept("break")) {
        expect(";");
        return make(StmtKind::Break);
    }
    if (accept("continue")) {
        expect(";");
        return make(StmtKind::Continue);
    }
    if (declarationAhead() && !(isTypeName() && is("[", 1) && constructorArrayAhead())) return localDeclaration();
    auto s = make(StmtKind::Expression);
    s->expr = expression();
    if (!is(";")) refuseAt(line(), {"unexpected '", tok().text, "'"});
    expect(";");
    return s;
}

StmtPtr Parser::forLoop(Span at) {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::For;
    s->span = at;
    expect("(");
    scopes_.emplace_back();
    if (declarationAhead())
        s->init = localDeclaration(); // takes the ';'
    else if (!accept(";")) {
        s->init = std::make_unique<Stmt>();
        s->init->kind = StmtKind::Expression;
        s->init->span = span();
        s->init->expr = expression();
        expect(";");
    }
    if (!is(";")) {
        s->expr = expression();
        requireBool(*s->expr, "for");
    }
    expect(";");
    if (!is(")")) s->update = expression();
    expect(")");
    s->then = block();
    scopes_.pop_back();
    return s;
}

// switch (selector) { case a: case b: ...; default: ... }: the statements after each label group
// up to the next label; fall-through is the printer's business.
StmtPtr Parser::switchStatement(Span at) {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::Switch;
    s->span = at;
    expect("(");
    s->expr = expression();
    expect(")");
    if (!(s->expr->type.scalar() && s->expr->type.integer()))
        refuseAt(at.line, {"switch selector of type ", describe(s->expr->type), ": it must be an int or a uint"});
    expect("{");
    scopes_.emplace_back();
    bool defaultSeen = false;
    std::set<long long> seen;
    while (!accept("}")) {
        if (atEnd()) refuseAt(at.line, {"switch has no closing '}'"});
        if (is("case") || is("default")) {
            SwitchCase c;
            c.span = span();
            while (is("case") || is("default")) {
                int l = line();
                if (accept("default")) {
                    if (defaultSeen) refuseAt(l, {"switch has two default labels"});
                    defaultSeen = c.isDefault = true;
                } else {
                    ++p_;
                    std::size_t from = p_;
                    while (!atEnd() && !is(":")) ++p_;
                    long long v = constantInt(from, p_, l, "case label");
                    if (!seen.insert(v).second) refuseAt(l, {"case label ", std::to_string(v), " appears twice"});
                    c.labels.push_back(v);
                }
                expect(":");
            }
            while (!atEnd() && !is("case") && !is("default") && !is("}")) c.body.push_back(statement());
            s->cases.push_back(std::move(c));
        } else
            refuseAt(line(), {"a statement in a switch before its first case label"});
    }
    scopes_.pop_back();
    return s;
}

} // namespace xfb::shader
