// The GLSL front-end's expressions: precedence climbing, each node typed as GLSL types it.
#include "builtins.hpp"
#include "parser_state.hpp"

#include "plan/text.hpp"
#include "xfb/error.hpp"
#include "xfb/fusion_plan.hpp"

#include <algorithm>

namespace xfb::shader {

using plan::Token;
using plan::TokenKind;
using S = std::string;

int precedence(std::string_view op) {
    static constexpr std::pair<std::string_view, int> table[] = {
        {"||", 1}, {"^^", 2}, {"&&", 3}, {"|", 4},  {"^", 5},  {"&", 6},  {"==", 7}, {"!=", 7}, {"<", 8}, {">", 8},
        {"<=", 8}, {">=", 8}, {"<<", 9}, {">>", 9}, {"+", 10}, {"-", 10}, {"*", 11}, {"/", 11}, {"%", 11}};
    for (auto& [o, p] : table)
        if (o == op) return p;
    return 0;
}
bool isAssignOp(std::string_view op) {
    static constexpr std::string_view ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="};
    return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

const Symbol* rootSymbol(const Expr& e) {
    if (e.kind == ExprKind::Name) return e.symbol;
    if (e.kind == ExprKind::Index || e.kind == ExprKind::Member || e.kind == ExprKind::Swizzle)
        return rootSymbol(*e.operands[0]);
    return nullptr;
}

namespace {
ExprPtr node(ExprKind k, Type t, Span at, S text = {}) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->type = std::move(t);
    e->span = at;
    e->text = std::move(text);
    return e;
}
// A variable, an element, a member or a swizzle without repeated components.
bool isLvalue(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Name: return e.symbol->storage != Storage::Sampler;
        case ExprKind::Index: return e.operands[0]->kind != ExprKind::Swizzle && isLvalue(*e.operands[0]);
        case ExprKind::Member: return isLvalue(*e.operands[0]);
        case ExprKind::Swizzle: {
            S sorted = e.text;
            std::sort(sorted.begin(), sorted.end());
            return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end() && isLvalue(*e.operands[0]);
        }
        default: return false;
    }
}
} // namespace

void Parser::requireAssignable(const Expr& e, const S& op, std::size_t from) {
    const Symbol* root = rootSymbol(e);
    if (!isLvalue(e) || (root && root->storage == Storage::Substep) ||
        (root && root->storage == Storage::Builtin && !root->assignable()))
        refuseAt(e.span.line, {"'", op, "' needs a variable, an element or a component on its left, got '",
                               sourceText(from, p_ - (op == "++" || op == "--" ? 0 : 1)), "'"});
    if (!root->assignable()) refuseAt(e.span.line, {"'", root->name, "' cannot be assigned (a uniform or a const)"});
    markWrite(e);
}
void Parser::markWrite(const Expr& target) {
    const Symbol* root = rootSymbol(target);
    if (current_ && root && root->storage != Storage::Local && root->storage != Storage::LocalConst)
        current_->writesOutside = true;
}

ExprPtr Parser::expression() {
    Span at = span();
    ExprPtr e = assignment();
    if (!is(",")) return e;
    auto seq = node(ExprKind::Sequence, {}, at);
    seq->operands.push_back(std::move(e));
    while (accept(",")) seq->operands.push_back(assignment());
    seq->type = seq->operands.back()->type;
    return seq;
}

ExprPtr Parser::assignment() {
    std::size_t from = p_;
    ExprPtr target = conditional();
    if (!(tok().kind == TokenKind::Punct && isAssignOp(tok().text))) return target;
    S op = t_[p_++].text;
    requireAssignable(*target, op, from);
    ExprPtr value = assignment();
    Span at = target->span;
    if (op == "=") requireConvertible(*value, target->type);
    auto e = node(ExprKind::Assign, target->type, at, op);
    e->operands.push_back(std::move(target));
    e->operands.push_back(std::move(value));
    return e;
}

ExprPtr Parser::conditional() {
    Span at = span();
    ExprPtr c = binaryChain(1);
    if (!accept("?")) return c;
    ExprPtr a = expression();
    expect(":");
    ExprPtr b = assignment();
    requireBool(*c, "?:");
    if (!(a->type == b->type)) refuseAt(at.line, {"?: with sides of different types"});
    auto e = node(ExprKind::Conditional, a->type, at);
    e->operands.push_back(std::move(c));
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
}

ExprPtr Parser::binaryChain(int minPrec) {
    ExprPtr lhs = unary();
    while (true) {
        S op = tok().text;
        int prec = tok().kind == TokenKind::Punct ? precedence(op) : 0;
        if (prec == 0 || prec < minPrec) return lhs;
        Span at = span();
        ++p_;
        ExprPtr rhs = binaryChain(prec + 1);
        lhs = binary(std::move(lhs), op, std::move(rhs), at);
    }
}

ExprPtr Parser::binary(ExprPtr a, const S& op, ExprPtr b, Span at) {
    const Type &x = a->type, &y = b->type;
    // == and != compare structs and arrays of one type too (GLSL ES 3.00 section 5.9).
    const bool aggregateEquality = (op == "==" || op == "!=") && x == y && !x.isVoid && x.kind != ScalarKind::Opaque;
    if ((!x.numeric() || !y.numeric()) && !aggregateEquality)
        refuseAt(at.line, {"operator ", op, " on arrays, structs or samplers"});
    Type r = x.scalar() ? y : x;
    if (op == "&&" || op == "||" || op == "^^" || op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" ||
        op == ">=")
        r = Type::of(ScalarKind::Bool);
    else if (op == "<<" || op == ">>")
        r = x;
    else if (op == "%" && (x.kind == ScalarKind::Float || y.kind == ScalarKind::Float))
        refuseAt(at.line, {"operator % on floats does not exist in GLSL; use mod()"});
    else if (x.matrix() || y.matrix()) {
        const bool bothMatrices = x.matrix() && y.matrix();
        if (op == "*") {
            if (bothMatrices)
                r = Type::matrixOf(y.cols, x.rows);
            else if (x.matrix() && y.vector())
                r = Type::of(ScalarKind::Float, x.rows);
            else if (x.vector() && y.matrix())
                r = Type::of(ScalarKind::Float, y.cols);
        } else if (!(bothMatrices ? x == y : (x.scalar() || y.scalar())) || !(op == "+" || op == "-" || op == "/"))
            refuseAt(at.line, {"matrix ", op, " ",
                               (y.matrix()   ? "matrix"
                                : y.vector() ? "vector"
                                             : "scalar"),
                               ": GLSL takes + - * / between a matrix and a scalar or a matrix of its type"});
    }
    auto e = node(ExprKind::Binary, r, at, op);
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
}

ExprPtr Parser::unary() {
    Span at = span();
    if (is("++") || is("--")) {
        S op = t_[p_++].text;
        std::size_t from = p_;
        ExprPtr target = unary();
        requireAssignable(*target, op, from);
        auto e = node(ExprKind::IncDec, target->type, at, op);
        e->prefix = true;
        e->operands.push_back(std::move(target));
        return e;
    }
    if (accept("+")) return unary();
    for (const char* op : {"-", "!", "~"})
        if (accept(op)) {
            ExprPtr x = unary();
            auto e = node(ExprKind::Unary, x->type, at, op);
            e->operands.push_back(std::move(x));
            return e;
        }
    return postfix();
}

ExprPtr Parser::postfix() {
    std::size_t start = p_;
    ExprPtr e = primary();
    while (true) {
        Span at = span();
        if (accept("[")) {
            ExprPtr i = expression();
            expect("]");
            Type t = e->type;
            if (t.array)
                t.array = 0;
            else if (t.matrix())
                t = Type::of(ScalarKind::Float, t.rows);
            else if (t.vector())
                t = Type::of(t.kind);
            else
                refuseAt(at.line, {"'", sourceText(start, p_), "' cannot be indexed"});
            auto x = node(ExprKind::Index, t, at);
            x->operands.push_back(std::move(e));
            x->operands.push_back(std::move(i));
            e = std::move(x);
        } else if (accept(".")) {
            S m = name();
            ExprPtr x;
            if (m == "length" && accept("(")) {
                expect(")");
                if (!e->type.array) refuseAt(at.line, {".length() of a non-array"});
                x = node(ExprKind::Length, Type::of(ScalarKind::Int), at);
                x->value = e->type.array;
            } else if (e->type.kind == ScalarKind::Struct && !e->type.array) {
                const StructDef* def = m_.findStruct(e->type.name);
                auto it = std::find_if(def->members.begin(), def->members.end(), [&](auto& p) { return p.first == m; });
                if (it == def->members.end())
                    refuseAt(at.line, {"struct '", e->type.name, "' has no member '", m, "'"});
                x = node(ExprKind::Member, it->second, at, m);
            } else if (e->type.vector()) {
                S sw;
                for (char c : m) {
                    static const S sets[3] = {"xyzw", "rgba", "stpq"};
                    std::size_t k = S::npos;
                    for (auto& set : sets)
                        if ((k = set.find(c)) != S::npos) break;
                    if (k == S::npos || int(k) >= e->type.rows)
                        refuseAt(at.line, {"swizzle '.", m, "' of a vector of ", std::to_string(e->type.rows)});
                    sw += "xyzw"[k];
                }
                if (sw.size() > 4) refuseAt(at.line, {"swizzle '.", m, "' is longer than 4"});
                x = node(ExprKind::Swizzle, Type::of(e->type.kind, int(sw.size())), at, sw);
            } else
                refuseAt(at.line, {"'.", m, "' on '", sourceText(start, p_ - 2), "'"});
            x->operands.push_back(std::move(e));
            e = std::move(x);
        } else if (is("++") || is("--")) {
            S op = t_[p_++].text;
            requireAssignable(*e, op, start);
            auto x = node(ExprKind::IncDec, e->type, at, op);
            x->operands.push_back(std::move(e));
            e = std::move(x);
        } else
            return e;
    }
}

ExprPtr Parser::primary() {
    Span at = span();
    const Token& k = tok();
    if (accept("(")) {
        ExprPtr e = expression();
        expect(")");
        e->parenthesized = true;
        return e;
    }
    if (k.kind == TokenKind::Number) return number(t_[p_++]);
    if (k.kind != TokenKind::Identifier) refuseAt(at.line, {"unexpected '", k.text, "'"});
    const S n = k.text;
    if (n == "true" || n == "false") {
        ++p_;
        return node(ExprKind::Literal, Type::of(ScalarKind::Bool), at, n);
    }
    if (isTypeName() && (is("(", 1) || is("[", 1))) return constructor(at);
    if (is("(", 1)) return call(at);
    ++p_;
    if (n.starts_with("gl_")) return builtinVariable(n, at);
    Symbol* v = lookup(n);
    if (n.starts_with("xfb_") && !(v && v->storage == Storage::Substep)) refuseReserved(n, at.line);
    // Not a construct a printer lacks: the GLSL does not compile (XFB_SHADER_COMPILE, as the GL
    // compiler says on WebGL2).
    if (!v)
        throw Error(ErrorCode::ShaderCompile,
                    plan::cat({"line ", std::to_string(at.line), ": '", n, "' is not declared"}));
    auto e = node(ExprKind::Name, v->type, at, n);
    e->symbol = v;
    return e;
}

// gl_ built-in variables the printers map (a vertex shader's, and a geometry shader's inputs).
ExprPtr Parser::builtinVariable(const S& n, Span at) {
    Symbol* v = lookup(n);
    if (!v) {
        Type t;
        if (n == "gl_VertexID" || n == "gl_InstanceID" ||
            (geometryVertices_ && (n == "gl_PrimitiveIDIn" || n == "gl_InvocationID")))
            t = Type::of(ScalarKind::Int);
        else if (n == "gl_Position")
            t = Type::of(ScalarKind::Float, 4);
        else if (n == "gl_PointSize")
            t = Type::of(ScalarKind::Float);
        else if (geometryVertices_ && n == "gl_in")
            t = Type{ScalarKind::Struct, 1, 1, geometryVertices_, "xfb_per_vertex"};
        else
            refuseAt(at.line, {"'", n, "' has no equivalent in a WebGPU compute shader"});
        m_.symbols.push_back({n, t, Storage::Builtin, {}});
        v = globals_[n] = &m_.symbols.back();
    }
    auto e = node(ExprKind::Name, v->type, at, n);
    e->symbol = v;
    return e;
}

ExprPtr Parser::number(const Token& k) {
    Span at{k.line, k.column};
    S text = k.text;
    Type t = Type::of(ScalarKind::Int);
    bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    char last = char(text.back());
    if (last == 'u' || last == 'U') {
        t = Type::of(ScalarKind::UInt);
        text.back() = 'u';
    } else if (!hex && text.find_first_of(".eEfF") != S::npos) {
        t = Type::of(ScalarKind::Float);
        if (last == 'f' || last == 'F') text.pop_back();
    }
    if (t.kind != ScalarKind::Float) {
        std::size_t digits = text.back() == 'u' ? text.size() - 1 : text.size();
        bool octal = !hex && digits > 1 && text[0] == '0';
        unsigned long long v = 0;
        try {
            v = std::stoull(text.substr(0, digits), nullptr, octal ? 8 : 0);
        } catch (const std::exception&) { v = ~0ull; }
        if (v > 0xFFFFFFFFull) refuseAt(at.line, {"integer literal ", text, " does not fit 32 bits"});
        if (octal) text = std::to_string(v) + (digits < text.size() ? "u" : "");
    }
    return node(ExprKind::Literal, t, at, text);
}

std::vector<ExprPtr> Parser::arguments() {
    std::vector<ExprPtr> args;
    expect("(");
    if (is("void") && is(")", 1)) ++p_;
    while (!accept(")")) {
        if (atEnd()) refuseAt(line(), {"missing ')'"});
        args.push_back(assignment());
        if (!is(")")) expect(",");
    }
    return args;
}

ExprPtr Parser::constructor(Span at) {
    Type t = typeName();
    if (accept("[")) {
        if (accept("]"))
            t.array = -1;
        else
            t.array = arraySize();
    }
    std::vector<ExprPtr> args = arguments();
    const int l = at.line;
    if (t.array) {
        if (t.array < 0) t.array = int(args.size());
        if (int(args.size()) != t.array)
            refuseAt(l, {"array constructor with ", std::to_string(args.size()), " values for ",
                         std::to_string(t.array), " elements"});
        Type el = t;
        el.array = 0;
        for (auto& a : args) requireConvertible(*a, el);
    } else if (t.kind == ScalarKind::Struct) {
        const StructDef* def = m_.findStruct(t.name);
        if (args.size() != def->members.size())
            refuseAt(l, {"constructor ", t.name, " with ", std::to_string(args.size()), " values for ",
                         std::to_string(def->members.size()), " members"});
    } else {
        if (args.empty()) refuseAt(l, {"constructor ", describe(t), "() without arguments"});
        for (auto& a : args)
            if (!a->type.numeric()) refuseAt(l, {"constructor ", describe(t), " of an array, struct or sampler"});
        if (t.vector() && !(args.size() == 1 && (args[0]->type.scalar() || args[0]->type.vector()))) {
            int total = 0;
            for (auto& a : args) {
                if (a->type.matrix()) refuseAt(l, {"constructor ", describe(t), " from a matrix: take its columns"});
                total += a->type.rows;
            }
            if (total != t.rows)
                refuseAt(l, {"constructor ", describe(t), " with ", std::to_string(total), " components"});
        }
        if (t.vector() && args.size() == 1 && args[0]->type.vector() && args[0]->type.rows < t.rows)
            refuseAt(l, {"constructor ", describe(t), " with ", std::to_string(args[0]->type.rows), " components"});
        if (t.matrix() && !(args.size() == 1 && (args[0]->type.scalar() || args[0]->type.matrix()))) {
            bool columns = int(args.size()) == t.cols && std::all_of(args.begin(), args.end(), [&](auto& a) {
                               return a->type.vector() && a->type.rows == t.rows;
                           });
            // Otherwise the components of scalars and vectors fill it column by column (`mat2(vec4)`).
            int components = 0;
            for (auto& a : args) components += a->type.rows;
            const bool matrixAmong = std::any_of(args.begin(), args.end(), [](auto& a) { return a->type.matrix(); });
            if (!columns && (matrixAmong || components != t.cols * t.rows))
                refuseAt(l, {"constructor ", describe(t), ": give ", std::to_string(t.cols), " columns or ",
                             std::to_string(t.cols * t.rows), " components of scalars and vectors"});
        }
    }
    auto e = node(ExprKind::Construct, t, at);
    e->operands = std::move(args);
    return e;
}

ExprPtr Parser::call(Span at) {
    S n = name();
    if (auto why = refusedBuiltin(n)) refuseAt(at.line, {*why});
    if (functions_.count(n)) return userCall(n, at);
    if (geometryVertices_ &&
        (n == "EmitVertex" || n == "EndPrimitive" || n == "EmitStreamVertex" || n == "EndStreamPrimitive"))
        return emitCall(n, at);
    std::vector<ExprPtr> args = arguments();
    std::vector<Type> types;
    for (auto& a : args) types.push_back(a->type);
    auto result = builtinCall(n, types, at);
    if (!result) refuseAt(at.line, {"unknown function '", n, "'"});
    if (const int out = builtinOutArgument(n); out >= 0) {
        const int count = builtinArgumentCount(n);
        const Type written = n == "frexp" ? Type::of(ScalarKind::Int, types[0].rows) : types[0];
        if (int(args.size()) != count) refuseAt(at.line, {"'", n, "()' takes ", std::to_string(count), " arguments"});
        for (int i = out; i < count; ++i) {
            if (!(types[std::size_t(i)] == written))
                refuseAt(at.line, {"'", n, "()': argument ", std::to_string(i + 1), " must be a ", describe(written)});
            if (!isLvalue(*args[std::size_t(i)]))
                refuseAt(at.line, {"'", n, "()': argument ", std::to_string(i + 1),
                                   " is written: a variable, an element or a component"});
            markWrite(*args[std::size_t(i)]);
        }
    }
    auto e = node(ExprKind::Call, *result, at, n);
    e->operands = std::move(args);
    return e;
}

// A geometry shader's EmitVertex / EndPrimitive and their stream forms.
ExprPtr Parser::emitCall(const S& n, Span at) {
    std::vector<ExprPtr> args = arguments();
    const bool stream = n.find("Stream") != S::npos;
    if (args.size() != (stream ? 1u : 0u))
        refuseAt(at.line, {"'", n, "()' takes ", (stream ? "one argument, the stream" : "no argument")});
    if (stream && !(args[0]->type.scalar() && args[0]->type.integer()))
        refuseAt(at.line, {"'", n, "()': the stream must be an int"});
    if (current_) current_->writesOutside = true;
    auto e = node(ExprKind::Call, Type::voidType(), at, n);
    e->operands = std::move(args);
    return e;
}

ExprPtr Parser::userCall(const S& n, Span at) {
    std::vector<ExprPtr> args = arguments();
    Function* fn = nullptr;
    for (Function* o : functions_[n]) {
        bool match = o->params.size() == args.size();
        for (std::size_t i = 0; match && i < args.size(); ++i)
            match = o->params[i].type == args[i]->type ||
                    (args[i]->kind == ExprKind::Literal && o->params[i].type.scalar() && args[i]->type.scalar());
        if (match && (!fn || std::equal(o->params.begin(), o->params.end(), args.begin(),
                                        [](auto& p, auto& a) { return p.type == a->type; })))
            fn = o;
    }
    if (!fn) refuseAt(at.line, {"no function '", n, "' takes these argument types"});
    for (std::size_t i = 0; i < args.size(); ++i)
        if (fn->params[i].mode != ParamMode::In) {
            if (!isLvalue(*args[i]))
                refuseAt(at.line, {"out/inout argument ", std::to_string(i + 1), " of '", n, "' must be a variable"});
            markWrite(*args[i]);
        }
    if (current_) current_->callees.push_back(fn);
    auto e = node(ExprKind::Call, fn->result, at, n);
    e->function = fn;
    e->operands = std::move(args);
    return e;
}

} // namespace xfb::shader
