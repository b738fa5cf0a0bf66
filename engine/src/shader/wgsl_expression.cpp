// The WGSL printer's expressions: GLSL's typed expressions as WGSL text, conversions and splats
// made explicit, built-ins renamed or written as helpers, side effects hoisted into statements.
#include "wgsl_names.hpp"
#include "wgsl_printer_state.hpp"

#include "plan/text.hpp"
#include "xfb/error.hpp"

#include <algorithm>

namespace xfb::shader {

using S = std::string;

void refuseWgsl(int line, std::initializer_list<std::string_view> what) {
    throw Error(ErrorCode::ComputeTranslation,
                plan::cat({"WGSL: line ", std::to_string(line), ": "}) + plan::cat(what));
}

namespace {
// A ?: that select() cannot hold: select() evaluates both sides, and takes no arrays or structs.
bool needsIfElse(const Expr& e) {
    const Expr &a = *e.operands[1], &b = *e.operands[2];
    return hoists(a) || hoists(b) || hasSideEffects(a) || hasSideEffects(b) || !e.type.numeric();
}
// A value no hoisted side effect can change: it may be read after them.
bool stable(const Expr& e) {
    if (e.kind == ExprKind::Literal || e.kind == ExprKind::Length) return true;
    if (e.kind != ExprKind::Name) return false;
    Storage s = e.symbol->storage;
    return s == Storage::Sampler || s == Storage::Uniform || s == Storage::Const || s == Storage::LocalConst ||
           s == Storage::Substep || (s == Storage::Builtin && !e.symbol->assignable());
}
bool isEmit(const Expr& e) {
    return e.kind == ExprKind::Call && !e.function && (e.text.starts_with("Emit") || e.text.starts_with("End"));
}
} // namespace

bool hoists(const Expr& e) {
    if (e.kind == ExprKind::Assign || e.kind == ExprKind::IncDec || e.kind == ExprKind::Sequence) return true;
    if (e.kind == ExprKind::Conditional && needsIfElse(e)) return true;
    return std::any_of(e.operands.begin(), e.operands.end(), [](auto& o) { return hoists(*o); });
}

S WgslPrinter::value(const Expr& e, Hoist& h) {
    S s = bare(e, h);
    return e.parenthesized ? "(" + s + ")" : s;
}

S WgslPrinter::bare(const Expr& e, Hoist& h) {
    const int line = e.span.line;
    switch (e.kind) {
        case ExprKind::Literal: return literal(e);
        case ExprKind::Name: return name(*e.symbol);
        case ExprKind::Unary: {
            S x = value(*e.operands[0], h);
            if (e.text == "-" && e.type.kind == ScalarKind::UInt) // WGSL has no unary minus on u32; GLSL wraps
                return "(" + wgslShape(ScalarKind::UInt, e.type.rows) + "() - " + x + ")";
            return "(" + e.text + x + ")";
        }
        case ExprKind::Binary: {
            const Expr &a = *e.operands[0], &b = *e.operands[1];
            if ((e.text == "&&" || e.text == "||") && hoists(b)) return shortCircuit(e, h);
            auto t = operands({&a, &b}, h);
            return binary(t[0], a.type, e.text, t[1], b.type, line);
        }
        case ExprKind::Assign: return assignment(e, h, true);
        case ExprKind::IncDec: return increment(e, h, true);
        case ExprKind::Conditional: return conditional(e, h);
        case ExprKind::Sequence: {
            for (std::size_t i = 0; i + 1 < e.operands.size(); ++i)
                if (S st = effect(*e.operands[i], h); !st.empty()) *h.out += pad(h.indent) + st + ";\n";
            return value(*e.operands.back(), h);
        }
        case ExprKind::Call:
            if (e.function) return userCall(e, h);
            if (isEmit(e)) {
                S stream = e.operands.empty() ? S("0") : "i32(" + value(*e.operands[0], h) + ")";
                return (e.text.starts_with("Emit") ? "xfb_emit_stream_vertex(" : "xfb_end_stream_primitive(") + stream +
                       ")";
            }
            return builtinCall(e, h);
        case ExprKind::Construct: return construct(e, h);
        case ExprKind::Index: {
            S base = value(*e.operands[0], h);
            return base + "[" + value(*e.operands[1], h) + "]";
        }
        case ExprKind::Member: return value(*e.operands[0], h) + "." + wgslIdent(e.text);
        case ExprKind::Swizzle: return value(*e.operands[0], h) + "." + e.text;
        case ExprKind::Length: return std::to_string(e.value);
    }
    refuseWgsl(line, {"an expression the WGSL printer does not know"});
}

// An assignable place; `pinIndices`: its indices are read once into temporaries first (the place
// is written after effects that could change them, or named twice).
S WgslPrinter::place(const Expr& e, Hoist& h, bool pinIndices) {
    S s;
    switch (e.kind) {
        case ExprKind::Name: s = name(*e.symbol); break;
        case ExprKind::Index: {
            s = place(*e.operands[0], h, pinIndices);
            const Expr& index = *e.operands[1];
            S i = value(index, h);
            if (pinIndices && !stable(index)) {
                S t = temporary();
                *h.out += pad(h.indent) + "let " + t + " = " + i + ";\n";
                i = t;
            }
            s += "[" + i + "]";
            break;
        }
        case ExprKind::Member: s = place(*e.operands[0], h, pinIndices) + "." + wgslIdent(e.text); break;
        case ExprKind::Swizzle: s = place(*e.operands[0], h, pinIndices) + "." + e.text; break;
        default: refuseWgsl(e.span.line, {"an assignment to something that is not a variable"});
    }
    return e.parenthesized ? "(" + s + ")" : s;
}

// Operands evaluated left to right: when a later one hoists statements, the earlier ones that
// could change are read into `let` temporaries before it, as GLSL reads them first.
std::vector<S> WgslPrinter::operands(const std::vector<const Expr*>& list, Hoist& h) {
    std::vector<S> texts;
    for (std::size_t j = 0; j < list.size(); ++j) {
        S t = value(*list[j], h);
        bool laterHoists =
            std::any_of(list.begin() + std::ptrdiff_t(j) + 1, list.end(), [](auto* x) { return hoists(*x); });
        if (laterHoists && !stable(*list[j])) {
            S n = temporary();
            *h.out += pad(h.indent) + "let " + n + " = " + t + ";\n";
            t = n;
        }
        texts.push_back(t);
    }
    return texts;
}

// `e` as a statement of its own: the statement's text (no indentation, no ';'), or "" when it
// became the hoisted statements.
S WgslPrinter::effect(const Expr& e, Hoist& h) {
    switch (e.kind) {
        case ExprKind::Assign: return assignment(e, h, false);
        case ExprKind::IncDec: return increment(e, h, false);
        case ExprKind::Sequence:
            for (std::size_t i = 0; i + 1 < e.operands.size(); ++i)
                if (S st = effect(*e.operands[i], h); !st.empty()) *h.out += pad(h.indent) + st + ";\n";
            return effect(*e.operands.back(), h);
        case ExprKind::Call:
            if (e.function || isEmit(e) || e.type.isVoid) return bare(e, h); // umulExtended: "" (hoisted)
            break;
        case ExprKind::Conditional:
            if (needsIfElse(e)) {
                S c = value(*e.operands[0], h);
                S& out = *h.out;
                out += pad(h.indent) + "if (" + c + ") {\n";
                Hoist inner{h.out, h.indent + 1};
                for (int side = 1; side <= 2; ++side) {
                    if (side == 2) out += pad(h.indent) + "} else {\n";
                    if (S st = effect(*e.operands[std::size_t(side)], inner); !st.empty())
                        out += pad(h.indent + 1) + st + ";\n";
                }
                out += pad(h.indent) + "}\n";
                return "";
            }
            break;
        default: break;
    }
    return "_ = " + value(e, h);
}

S WgslPrinter::assignment(const Expr& e, Hoist& h, bool wantValue) {
    const Expr &target = *e.operands[0], &val = *e.operands[1];
    const bool compound = e.text != "=";
    const bool pin = hoists(val) || (compound && hasSideEffects(target));
    const bool components = target.kind == ExprKind::Swizzle && target.text.size() > 1;
    S base, p;
    if (components) { // v.xz = e -> { let xfb_s = e; v.x = xfb_s.x; v.z = xfb_s.y; }
        base = place(*target.operands[0], h, pin);
        p = base + "." + target.text;
        if (target.parenthesized) p = "(" + p + ")";
    } else
        p = place(target, h, pin);
    S v = value(val, h);
    S next = compound ? binary(p, target.type, e.text.substr(0, e.text.size() - 1), v, val.type, e.span.line)
                      : convert(val, v, target.type);
    S t;
    if (wantValue) {
        t = temporary();
        *h.out += pad(h.indent) + "let " + t + " = " + next + ";\n";
        next = t;
    }
    S statement = p + " = " + next;
    if (components) {
        statement = "{ let xfb_s = " + next + ";";
        for (std::size_t i = 0; i < target.text.size(); ++i)
            statement += " " + base + "." + target.text[i] + " = xfb_s." + "xyzw"[i] + ";";
        statement += " }";
    }
    if (!wantValue) return statement;
    *h.out += pad(h.indent) + statement + ";\n";
    return t;
}

S WgslPrinter::increment(const Expr& e, Hoist& h, bool wantValue) {
    const Expr& target = *e.operands[0];
    const Type& t = target.type;
    if (t.matrix() || (target.kind == ExprKind::Swizzle && target.text.size() > 1))
        refuseWgsl(e.span.line, {"'", e.text, "' of a matrix or of several swizzled components: write the addition"});
    S p = place(target, h, hasSideEffects(target));
    S statement;
    if (t.scalar() && t.integer())
        statement = p + e.text;
    else {
        S one = t.kind == ScalarKind::Float ? "1.0f" : t.kind == ScalarKind::UInt ? "1u" : "1";
        if (t.rows > 1) one = wgslShape(t.kind, t.rows) + "(" + one + ")";
        statement = p + (e.text == "++" ? " += " : " -= ") + one;
    }
    if (!wantValue) return statement;
    S tmp = temporary(), read = pad(h.indent) + "let " + tmp + " = " + p + ";\n";
    *h.out += e.prefix ? pad(h.indent) + statement + ";\n" + read : read + pad(h.indent) + statement + ";\n";
    return tmp;
}

S WgslPrinter::conditional(const Expr& e, Hoist& h) {
    const Expr &c = *e.operands[0], &a = *e.operands[1], &b = *e.operands[2];
    S cond = value(c, h);
    if (!needsIfElse(e)) {
        S av = value(a, h), bv = value(b, h);
        return "select(" + bv + ", " + av + ", " + cond + ")";
    }
    S t = temporary();
    S& out = *h.out;
    out += pad(h.indent) + "var " + t + ": " + wgslType(e.type, e.span.line) + ";\n";
    out += pad(h.indent) + "if (" + cond + ") {\n";
    Hoist inner{h.out, h.indent + 1};
    S av = value(a, inner);
    out += pad(h.indent + 1) + t + " = " + convert(a, av, e.type) + ";\n";
    out += pad(h.indent) + "} else {\n";
    S bv = value(b, inner);
    out += pad(h.indent + 1) + t + " = " + convert(b, bv, e.type) + ";\n";
    out += pad(h.indent) + "}\n";
    return t;
}

// a && b, a || b whose right side hoists statements: they run only when GLSL evaluates b.
S WgslPrinter::shortCircuit(const Expr& e, Hoist& h) {
    S a = value(*e.operands[0], h), t = temporary();
    S& out = *h.out;
    out += pad(h.indent) + "var " + t + " = " + a + ";\n";
    out += pad(h.indent) + "if (" + (e.text == "&&" ? t : "!" + t) + ") {\n";
    Hoist inner{h.out, h.indent + 1};
    S b = value(*e.operands[1], inner);
    out += pad(h.indent + 1) + t + " = " + b + ";\n" + pad(h.indent) + "}\n";
    return t;
}

S WgslPrinter::splat(const S& text, const Type& from, const Type& to) {
    return from.scalar() && to.vector() ? wgslShape(from.kind, to.rows) + "(" + text + ")" : text;
}

S WgslPrinter::binary(const S& a, const Type& at, const S& op, const S& b, const Type& bt, int) {
    auto make = [](const S& s) { return "(" + s + ")"; };
    if (op == "&&" || op == "||") return make(a + " " + op + " " + b);
    if (op == "^^") return make(a + " != " + b);
    if (op == "==" || op == "!=") {
        if (at.matrix() || !at.numeric()) { // per column, per member, per element
            S equal = helpers_.equal(a, b, at, m_.structs);
            return op == "==" ? equal : "(!" + equal + ")";
        }
        S s = a + " " + op + " " + b;
        if (at.vector()) s = (op == "==" ? "all(" : "any(") + s + ")";
        return make(s);
    }
    if (op == "<" || op == ">" || op == "<=" || op == ">=") return make(a + " " + op + " " + b);
    if (op == "<<" || op == ">>") {
        S amount = bt.kind == ScalarKind::UInt && bt.rows == at.rows
                       ? b
                       : wgslShape(ScalarKind::UInt, at.rows) + "(" + b + ")";
        return make(a + " " + op + " " + amount);
    }
    if (at.matrix() || bt.matrix()) {
        if (op == "*" || (at.matrix() && bt.matrix() && (op == "+" || op == "-"))) return make(a + " " + op + " " + b);
        return helpers_.componentWise(op, at, bt) + "(" + a + ", " + b + ")"; // + - / with a scalar, / of matrices
    }
    Type r = at.scalar() ? bt : at;
    if (op == "&" || op == "|" || op == "^") // WGSL: no scalar-vector mix
        return make(splat(a, at, r) + " " + op + " " + splat(b, bt, r));
    return make(a + " " + op + " " + b);
}

S WgslPrinter::name(const Symbol& s) const {
    const S w = wgslIdent(s.name);
    switch (s.storage) {
        case Storage::Uniform: {
            S u = uniformBlock_ + "." + w;
            if (s.type.kind == ScalarKind::Bool) // an i32 in the buffer
                u = "(" + u + " != " + (s.type.rows == 1 ? S("0") : wgslShape(ScalarKind::Int, s.type.rows) + "(0)") +
                    ")";
            return u;
        }
        case Storage::OutParam: return "(*" + w + ")";
        case Storage::Substep: return "xfb_substep";
        case Storage::Builtin:
            return s.name == "gl_VertexID"        ? "xfb_vertex_id"
                   : s.name == "gl_InstanceID"    ? "xfb_instance_id"
                   : s.name == "gl_Position"      ? "xfb_position"
                   : s.name == "gl_PointSize"     ? "xfb_point_size"
                   : s.name == "gl_in"            ? "xfb_in"
                   : s.name == "gl_PrimitiveIDIn" ? "xfb_primitive_id_in"
                                                  : "xfb_invocation_id";
        default: return w;
    }
}

S WgslPrinter::literal(const Expr& e) const {
    S text = e.text;
    if (e.type.kind == ScalarKind::Float) { // f32, not an abstract float: constants fold in f32 as in GLSL
        if (text.back() == '.') text += "0";
        return text + "f";
    }
    if (e.type.kind == ScalarKind::Int && std::stoull(text, nullptr, 0) > 0x7FFFFFFFull)
        return "i32(" + std::to_string(std::stoull(text, nullptr, 0)) + "u)"; // GLSL: wraps to negative
    return text;
}

// Converts to `to` as a GLSL initializer, argument or constructor argument needs it.
S WgslPrinter::convert(const Expr& e, const S& text, const Type& to) const {
    if (e.type == to || !to.numeric()) return text;
    if (e.type.rows == to.rows && e.type.cols == to.cols && e.type.numeric() && to.cols == 1)
        return wgslShape(to.kind, to.rows) + "(" + text + ")";
    if (e.kind == ExprKind::Literal && e.type.scalar() && to.scalar()) return wgslScalar(to.kind) + "(" + text + ")";
    refuseWgsl(e.span.line, {"a ", describe(e.type), " where a ", describe(to), " is needed"});
}

} // namespace xfb::shader
