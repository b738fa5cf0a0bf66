// The WGSL printer's statements, functions and module items (wgsl_printer.hpp).
#include "wgsl_names.hpp"
#include "wgsl_printer_state.hpp"

#include <algorithm>

namespace xfb::shader {

using S = std::string;

WgslCode printWgsl(const Module& module, const std::string& uniformBlock) {
    return WgslPrinter(module, uniformBlock).run();
}

WgslCode WgslPrinter::run() {
    S out;
    for (const Item& item : m_.items) {
        if (item.structDef) {
            out += "struct " + wgslIdent(item.structDef->name) + " {\n";
            for (const auto& [member, type] : item.structDef->members)
                out += "    " + wgslIdent(member) + ": " + wgslType(type, item.structDef->span.line) + ",\n";
            out += "};\n\n";
        } else if (item.globals) {
            for (const VarDecl& v : item.globals->vars) {
                S none;
                Hoist h{&none, 0};
                S line = declaration(v, true, h);
                if (!none.empty())
                    refuseWgsl(v.symbol->span.line, {"the initializer of global '", v.symbol->name,
                                                     "' has side effects; assign it in main()"});
                out += line;
            }
        } else
            function(*item.function, out);
    }
    return {helpers_.code(), out, sampled_};
}

S WgslPrinter::functionName(const Function& f) {
    return f.name == "main"  ? "xfb_user_main"
           : f.overload == 0 ? wgslIdent(f.name)
                             : "xfb_o" + std::to_string(f.overload) + "_" + f.name;
}

void WgslPrinter::function(const Function& f, S& out) {
    const int line = f.span.line;
    S head = "fn " + functionName(f) + "(", prelude;
    for (std::size_t i = 0; i < f.params.size(); ++i) {
        const Param& p = f.params[i];
        const S type = wgslType(p.type, line);
        if (i) head += ", ";
        if (!p.symbol) {
            head += "xfb_unused" + std::to_string(i) + ": " + type;
            continue;
        }
        const S w = wgslIdent(p.symbol->name);
        if (p.mode != ParamMode::In)
            head += w + ": ptr<function, " + type + ">";
        else if (p.type.kind == ScalarKind::Opaque)
            head += w + ": " + type;
        else { // WGSL parameters are immutable; GLSL's are copies the body may assign
            head += "xfb_a_" + p.symbol->name + ": " + type;
            prelude += "    var " + w + ": " + type + " = xfb_a_" + p.symbol->name + ";\n";
        }
    }
    head += S(")") + (f.result.isVoid ? "" : " -> " + wgslType(f.result, line)) + " {\n";
    temps_ = 0;
    current_ = &f;
    S code;
    body(*f.body, 1, code);
    current_ = nullptr;
    out += head + prelude + code + "}\n\n";
}

// The statements of a body (a braced block's, or the one statement) at `indent`.
void WgslPrinter::body(const Stmt& s, int indent, S& out) {
    if (s.kind == StmtKind::Block)
        for (const auto& x : s.body) statement(*x, indent, out);
    else
        statement(s, indent, out);
}

S WgslPrinter::declaration(const VarDecl& v, bool global, Hoist& h) {
    const Symbol& s = *v.symbol;
    const bool isConst = s.storage == Storage::Const || s.storage == Storage::LocalConst;
    S init = v.init ? convert(*v.init, value(*v.init, h), s.type) : S();
    S keyword = global ? (isConst ? "const " : "var<private> ") : (isConst ? "let " : "var ");
    return (global ? S() : pad(h.indent)) + keyword + wgslIdent(s.name) + ": " + wgslType(s.type, s.span.line) +
           (init.empty() ? S() : " = " + init) + ";\n";
}

void WgslPrinter::statement(const Stmt& s, int indent, S& out) {
    const S p = pad(indent);
    S pre;
    Hoist h{&pre, indent};
    S text;
    switch (s.kind) {
        case StmtKind::Block:
            text = p + "{\n";
            body(s, indent + 1, text);
            text += p + "}\n";
            break;
        case StmtKind::Declaration:
            for (const VarDecl& v : s.vars) {
                S line = declaration(v, false, h);
                text += pre + line;
                pre.clear();
            }
            break;
        case StmtKind::Expression:
            if (s.expr)
                if (S st = effect(*s.expr, h); !st.empty()) text = p + st + ";\n";
            break;
        case StmtKind::If: {
            text = p + "if (" + value(*s.expr, h) + ") {\n";
            body(*s.then, indent + 1, text);
            text += p + "}";
            if (s.otherwise) {
                text += " else {\n";
                body(*s.otherwise, indent + 1, text);
                text += p + "}";
            }
            text += "\n";
            break;
        }
        case StmtKind::For: forLoop(s, indent, out); return;
        case StmtKind::While: {
            S condPre;
            Hoist ch{&condPre, indent + 1};
            S c = value(*s.expr, ch);
            if (condPre.empty()) {
                text = p + "while (" + c + ") {\n";
                body(*s.then, indent + 1, text);
                text += p + "}\n";
            } else { // the condition's statements run before every test
                text =
                    p + "loop {\n" + condPre + p + "    if !(" + c + ") {\n" + p + "        break;\n" + p + "    }\n";
                body(*s.then, indent + 1, text);
                text += p + "}\n";
            }
            break;
        }
        case StmtKind::DoWhile: { // loop { body continuing { break if !cond; } }: `continue` reaches the test as in
                                  // GLSL
            text = p + "loop {\n";
            body(*s.then, indent + 1, text);
            S condPre;
            Hoist ch{&condPre, indent + 2};
            S c = value(*s.expr, ch);
            text +=
                p + "    continuing {\n" + condPre + p + "        break if !(" + c + ");\n" + p + "    }\n" + p + "}\n";
            break;
        }
        case StmtKind::Switch: switchStatement(s, indent, out); return;
        case StmtKind::Return:
            if (!s.expr)
                text = p + "return;\n";
            else {
                S v = value(*s.expr, h);
                text = p + "return " + (current_ ? convert(*s.expr, v, current_->result) : v) + ";\n";
            }
            break;
        case StmtKind::Break: text = p + "break;\n"; break;
        case StmtKind::Continue: text = p + "continue;\n"; break;
        case StmtKind::Discard: refuseWgsl(s.span.line, {"discard exists only in fragment shaders"});
    }
    out += pre + text;
}

// for (init; cond; update): WGSL's for when each part is one plain statement, else
// { init; loop { if !(cond) { break; } body continuing { update } } }.
void WgslPrinter::forLoop(const Stmt& s, int indent, S& out) {
    const S p = pad(indent);
    { // WGSL's own for
        S pre;
        Hoist h{&pre, indent};
        S init, cond, update;
        bool plain = !s.init || s.init->kind != StmtKind::Declaration || s.init->vars.size() == 1;
        if (plain && s.init && s.init->kind == StmtKind::Declaration) {
            init = declaration(s.init->vars[0], false, h);
            init = init.substr(init.find_first_not_of(' '));
            init.resize(init.size() - 2); // ";\n"
        } else if (plain && s.init)
            init = effect(*s.init->expr, h);
        if (s.expr) cond = value(*s.expr, h);
        if (s.update) update = effect(*s.update, h);
        if (plain && pre.empty() && update.find('{') == S::npos && (!s.init || !init.empty())) {
            out += p + "for (" + init + "; " + cond + "; " + update + ") {\n";
            body(*s.then, indent + 1, out);
            out += p + "}\n";
            return;
        }
    }
    S text = p + "{\n";
    if (s.init) statement(*s.init, indent + 1, text);
    text += p + "    loop {\n";
    if (s.expr) {
        S pre;
        Hoist h{&pre, indent + 2};
        S c = value(*s.expr, h);
        text += pre + p + "        if !(" + c + ") {\n" + p + "            break;\n" + p + "        }\n";
    }
    body(*s.then, indent + 2, text);
    if (s.update) {
        S pre;
        Hoist h{&pre, indent + 3};
        S st = effect(*s.update, h);
        text += p + "        continuing {\n" + pre + (st.empty() ? S() : p + "            " + st + ";\n") + p +
                "        }\n";
    }
    text += p + "    }\n" + p + "}\n";
    out += text;
}

namespace {
// A case body that ends in a jump does not fall into the next.
bool endsInJump(const std::vector<StmtPtr>& body) {
    if (body.empty()) return false;
    const Stmt& last = *body.back();
    if (last.kind == StmtKind::Block) return endsInJump(last.body);
    return last.kind == StmtKind::Break || last.kind == StmtKind::Continue || last.kind == StmtKind::Return ||
           last.kind == StmtKind::Discard;
}
} // namespace

// GLSL's cases fall through, WGSL's do not: labels with no statements join the next case's
// selectors (`case 1, 2:`), and a case whose statements fall through gets the following cases'
// statements copied, up to one that ends in a jump.
void WgslPrinter::switchStatement(const Stmt& s, int indent, S& out) {
    const S p = pad(indent);
    S pre;
    Hoist h{&pre, indent};
    S text = p + "switch (" + value(*s.expr, h) + ") {\n";
    const bool isUint = s.expr->type.kind == ScalarKind::UInt;
    bool hasDefault = false;
    std::vector<S> selectors;
    for (std::size_t i = 0; i < s.cases.size(); ++i) {
        const SwitchCase& c = s.cases[i];
        for (long long v : c.labels) selectors.push_back(std::to_string(v) + (isUint ? "u" : ""));
        if (c.isDefault) selectors.push_back("default");
        if (c.body.empty() && i + 1 < s.cases.size()) continue;
        hasDefault = hasDefault || std::find(selectors.begin(), selectors.end(), "default") != selectors.end();
        bool onlyDefault = selectors.size() == 1 && selectors[0] == "default";
        S head;
        for (const S& x : selectors) head += (head.empty() ? "" : ", ") + x;
        text += p + "    " + (onlyDefault ? S("default") : "case " + head) + ": {\n";
        for (std::size_t j = i; j < s.cases.size(); ++j) {
            for (const auto& st : s.cases[j].body) statement(*st, indent + 2, text);
            if (endsInJump(s.cases[j].body)) break;
        }
        text += p + "    }\n";
        selectors.clear();
    }
    if (!hasDefault) text += p + "    default: {\n" + p + "    }\n";
    out += pre + text + p + "}\n";
}

} // namespace xfb::shader
