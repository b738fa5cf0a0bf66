#pragma once
// Internal to the front-end: the recursive-descent parser's state, shared by parser.cpp (module
// scope and statements) and parse_expression.cpp (typed expressions).
#include "parser.hpp"

#include <map>
#include <string>
#include <string_view>

namespace xfb::shader {

[[noreturn]] void refuseAt(int line, std::initializer_list<std::string_view> what);

class Parser {
public:
    explicit Parser(const ParseInput& input);
    Module run();

private:
    using S = std::string;
    const std::vector<plan::Token>& t_; // the caller's (ParseInput::tokens), read only
    std::size_t p_ = 0;
    Module m_;
    std::map<S, Symbol*> globals_;
    std::vector<std::map<S, Symbol*>> scopes_;
    std::map<S, std::vector<Function*>> functions_;
    std::map<S, long long> constInts_;
    Function* current_ = nullptr;
    int geometryVertices_ = 0;

    // Tokens (parser.cpp)
    bool atEnd() const { return p_ >= t_.size(); }
    const plan::Token& tok(std::size_t k = 0) const;
    int line() const;
    Span span() const { return {line(), atEnd() ? 0 : tok().column}; }
    bool is(const char* s, std::size_t k = 0) const { return tok(k).text == s; }
    bool accept(const char* s);
    void expect(const char* s);
    S name();
    void skipTo(const char* s);
    S sourceText(std::size_t from, std::size_t to) const;
    long long constantInt(std::size_t from, std::size_t to, int line, const char* what) const;

    // Types and names (parser.cpp)
    bool isTypeName(std::size_t k = 0) const;
    static bool isQualifier(const S& n);
    Type typeName();
    int arraySize();
    Symbol* lookup(const S& n);
    Symbol* declare(const S& n, Type type, Storage storage, Span at);
    static void refuseReserved(const S& n, int line);

    // Module scope and statements (parser.cpp)
    void globalDeclaration();
    void structDefinition();
    StmtPtr variables(Type type, S n, bool isConst, bool global, Span at);
    void function(Type result, const S& n, Span at);
    StmtPtr statement();
    StmtPtr block();
    bool declarationAhead() const;
    bool constructorArrayAhead() const;
    StmtPtr localDeclaration();
    StmtPtr forLoop(Span at);
    StmtPtr switchStatement(Span at);
    void requireBool(const Expr& c, const char* what);
    void requireConvertible(const Expr& e, const Type& t);

    // Expressions (parse_expression.cpp)
    ExprPtr expression();
    ExprPtr assignment();
    ExprPtr conditional();
    ExprPtr binaryChain(int minPrecedence);
    ExprPtr binary(ExprPtr a, const S& op, ExprPtr b, Span at);
    ExprPtr unary();
    ExprPtr postfix();
    ExprPtr primary();
    ExprPtr number(const plan::Token& k);
    ExprPtr builtinVariable(const S& n, Span at);
    std::vector<ExprPtr> arguments();
    ExprPtr constructor(Span at);
    ExprPtr call(Span at);
    ExprPtr userCall(const S& n, Span at);
    ExprPtr emitCall(const S& n, Span at);
    void requireAssignable(const Expr& e, const S& op, std::size_t from);
    void markWrite(const Expr& target);
};

/// The variable at the root of an lvalue (`a` of `a[i].b.xy`), or null.
const Symbol* rootSymbol(const Expr& e);
/// Binary operator precedence (1: ||, ... 11: * / %), 0 when `op` is not a binary operator.
int precedence(std::string_view op);
/// = and the compound assignment operators.
bool isAssignOp(std::string_view op);

} // namespace xfb::shader
