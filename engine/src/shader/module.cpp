#include "module.hpp"

#include "builtins.hpp"

namespace xfb::shader {

std::string describe(const Type& t) {
    if (t.isVoid) return "void";
    std::string s;
    if (t.kind == ScalarKind::Struct || t.kind == ScalarKind::Opaque)
        s = t.name;
    else if (t.cols > 1)
        s = "mat" + std::to_string(t.cols) + (t.cols == t.rows ? "" : "x" + std::to_string(t.rows));
    else {
        const char* prefix = t.kind == ScalarKind::Int      ? "i"
                             : t.kind == ScalarKind::UInt   ? "u"
                             : t.kind == ScalarKind::Bool   ? "b"
                             : t.kind == ScalarKind::Double ? "d"
                                                            : "";
        const char* scalar = t.kind == ScalarKind::Int      ? "int"
                             : t.kind == ScalarKind::UInt   ? "uint"
                             : t.kind == ScalarKind::Bool   ? "bool"
                             : t.kind == ScalarKind::Double ? "double"
                                                            : "float";
        s = t.rows > 1 ? prefix + std::string("vec") + std::to_string(t.rows) : scalar;
    }
    return t.array ? s + "[" + std::to_string(t.array) + "]" : s;
}

bool hasSideEffects(const Expr& e) {
    if (e.kind == ExprKind::Assign || e.kind == ExprKind::IncDec) return true;
    if (e.kind == ExprKind::Call &&
        ((e.function && e.function->writesOutside) ||
         (!e.function && (e.text.starts_with("Emit") || e.text.starts_with("End") || builtinOutArgument(e.text) >= 0))))
        return true;
    for (const auto& o : e.operands)
        if (hasSideEffects(*o)) return true;
    return false;
}

bool convertible(const Expr& e, const Type& to) {
    if (e.type == to || !to.numeric()) return true;
    if (!e.type.numeric()) return false;
    if (e.type.rows == to.rows && e.type.cols == to.cols && to.cols == 1) return true;
    return e.kind == ExprKind::Literal && e.type.scalar() && to.scalar();
}

} // namespace xfb::shader
