#pragma once
// Internal to the WGSL printer: its state, shared by wgsl_expression.cpp (expressions and the
// hoisting of their side effects) and wgsl_statement.cpp (statements, functions, the module).
#include "wgsl_helpers.hpp"
#include "wgsl_printer.hpp"

#include <initializer_list>
#include <string_view>
#include <vector>

namespace xfb::shader {

[[noreturn]] void refuseWgsl(int line, std::initializer_list<std::string_view> what);

class WgslPrinter {
public:
    WgslPrinter(const Module& module, std::string uniformBlock) : m_(module), uniformBlock_(std::move(uniformBlock)) {}
    WgslCode run();

private:
    using S = std::string;
    /// Where the statements an expression hoists go, and their indentation.
    struct Hoist {
        S* out;
        int indent;
    };
    const Module& m_;
    S uniformBlock_;
    WgslHelpers helpers_;
    int temps_ = 0;
    std::vector<S> sampled_;            ///< WgslCode::sampled
    const Function* current_ = nullptr; ///< the function being printed

    static S pad(int indent) { return S(std::size_t(indent * 4), ' '); }
    S temporary() { return "xfb_t" + std::to_string(temps_++); }
    static S functionName(const Function& f);

    // Expressions (wgsl_expression.cpp)
    S value(const Expr& e, Hoist& h);
    S bare(const Expr& e, Hoist& h);
    S place(const Expr& e, Hoist& h, bool pinIndices);
    std::vector<S> operands(const std::vector<const Expr*>& list, Hoist& h);
    S effect(const Expr& e, Hoist& h);
    S assignment(const Expr& e, Hoist& h, bool wantValue);
    S increment(const Expr& e, Hoist& h, bool wantValue);
    S conditional(const Expr& e, Hoist& h);
    S shortCircuit(const Expr& e, Hoist& h);
    S binary(const S& a, const Type& at, const S& op, const S& b, const Type& bt, int line);
    S name(const Symbol& s) const;
    S literal(const Expr& e) const;
    S convert(const Expr& e, const S& text, const Type& to) const;
    S construct(const Expr& e, Hoist& h);
    S builtinCall(const Expr& e, Hoist& h);
    S userCall(const Expr& e, Hoist& h);
    S outArgumentCall(const Expr& e, Hoist& h);          ///< modf, frexp, uaddCarry, usubBorrow, u/imulExtended
    S sample(const Expr& e, const std::vector<S>& args); ///< texture(), textureLod(), ... of a uniform
    static S splat(const S& text, const Type& from, const Type& to);

    // Statements (wgsl_statement.cpp)
    void statement(const Stmt& s, int indent, S& out);
    void body(const Stmt& s, int indent, S& out);
    S declaration(const VarDecl& v, bool global, Hoist& h);
    void forLoop(const Stmt& s, int indent, S& out);
    void switchStatement(const Stmt& s, int indent, S& out);
    void function(const Function& f, S& out);
};

/// Whether printing `e` hoists statements (an assignment, ++/--, a comma, a ?: or && / || that
/// must become if/else).
bool hoists(const Expr& e);

} // namespace xfb::shader
