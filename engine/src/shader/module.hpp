#pragma once
// Internal: the typed module of one shader (issue 40). The front-end (parser.hpp) reads GLSL tokens
// into it, with names and overloads resolved and every expression typed; printers (wgsl_printer.hpp)
// write it out. Every node keeps its source span, so a message still says "line N".
#include "xfb/shader_interface.hpp"

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace xfb::shader {

struct Span {
    int line = 0;
    int column = 0;
};

/// A GLSL type: scalar, vector (cols 1), matrix, an array of one of them, a struct, an opaque
/// sampler, or void.
struct Type {
    ScalarKind kind = ScalarKind::Float;
    int cols = 1, rows = 1, array = 0;
    std::string name; ///< the struct's name, or the sampler type's name
    bool isVoid = false;

    bool scalar() const { return cols == 1 && rows == 1 && array == 0 && kind <= ScalarKind::Bool; }
    bool vector() const { return cols == 1 && rows > 1 && array == 0; }
    bool matrix() const { return cols > 1 && array == 0; }
    bool numeric() const { return array == 0 && kind <= ScalarKind::Bool && !isVoid; }
    bool integer() const { return kind == ScalarKind::Int || kind == ScalarKind::UInt; }
    bool operator==(const Type&) const = default;

    static Type of(ScalarKind k, int rows = 1) { return Type{k, 1, rows}; }
    static Type matrixOf(int cols, int rows) { return Type{ScalarKind::Float, cols, rows}; }
    static Type voidType() {
        Type t;
        t.isVoid = true;
        return t;
    }
};

/// The GLSL spelling of a type ("vec3", "mat2x3", "float[4]"), for messages.
std::string describe(const Type& t);

/// Where a name lives, which decides how a printer spells a reference to it.
enum class Storage {
    Private,    ///< a global variable
    Const,      ///< a global const
    In,         ///< a shader input (the interface)
    Out,        ///< a shader output
    Uniform,    ///< a uniform of a plain type
    Sampler,    ///< a sampler uniform or parameter
    Local,      ///< a local variable or a by-value parameter
    LocalConst, ///< a local const
    OutParam,   ///< an out / inout parameter
    Builtin,    ///< a gl_ built-in variable (its GLSL name)
    Substep,    ///< the substep built-in `xfb_substep` (read-only)
};

struct Symbol {
    std::string name;
    Type type;
    Storage storage = Storage::Local;
    Span span;
    bool assignable() const {
        return storage != Storage::Uniform && storage != Storage::Sampler && storage != Storage::Const &&
               storage != Storage::LocalConst && storage != Storage::Substep && storage != Storage::In &&
               !(storage == Storage::Builtin && name != "gl_Position" && name != "gl_PointSize");
    }
};

struct Function;

enum class ExprKind {
    Literal,     ///< text: the literal as written, normalised (1.0, 3u, 0x1F)
    Name,        ///< symbol
    Unary,       ///< text: - ! ~ ; operands: [x]
    Binary,      ///< text: the operator; operands: [a, b]
    Assign,      ///< text: = or a compound operator (+=, <<=, ...); operands: [target, value]
    IncDec,      ///< text: ++ or --; prefix; operands: [target]
    Conditional, ///< operands: [condition, then, else]
    Sequence,    ///< the comma operator; operands: in order, the last one's value
    Call,        ///< function (user) or text (a built-in, its GLSL name); operands: the arguments
    Construct,   ///< type: what is constructed; operands: the arguments
    Index,       ///< operands: [base, index]
    Member,      ///< text: the struct member; operands: [base]
    Swizzle,     ///< text: components as xyzw; operands: [base]
    Length,      ///< `.length()` of an array: value; operands: [base]
};

struct Expr {
    ExprKind kind = ExprKind::Literal;
    Type type; ///< the resolved GLSL type
    Span span;
    std::string text;
    std::vector<std::unique_ptr<Expr>> operands;
    const Symbol* symbol = nullptr;     ///< Name
    const Function* function = nullptr; ///< Call of a user function
    bool prefix = false;                ///< IncDec: ++x rather than x++
    bool parenthesized = false;         ///< written in parentheses in the source
    int value = 0;                      ///< Length: the array's size
};
using ExprPtr = std::unique_ptr<Expr>;

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

enum class StmtKind {
    Block,
    Declaration,
    Expression,
    If,
    For,
    While,
    DoWhile,
    Switch,
    Return,
    Break,
    Continue,
    Discard
};

struct VarDecl {
    const Symbol* symbol = nullptr;
    ExprPtr init;
};

/// One `case a:` / `default:` label group of a switch and the statements after it (up to the next
/// label): GLSL's cases fall through into the next unless they end in a jump.
struct SwitchCase {
    std::vector<long long> labels;
    bool isDefault = false;
    std::vector<StmtPtr> body;
    Span span;
};

struct Stmt {
    StmtKind kind = StmtKind::Block;
    Span span;
    std::vector<StmtPtr> body; ///< Block
    std::vector<VarDecl> vars; ///< Declaration
    ExprPtr expr;              ///< Expression; the condition of If/For/While/DoWhile; Switch's selector; Return's value
    StmtPtr init;              ///< For: a Declaration or an Expression statement, or none
    ExprPtr update;            ///< For
    StmtPtr then;              ///< If's then; the loop body of For/While/DoWhile
    StmtPtr otherwise;         ///< If's else
    std::vector<SwitchCase> cases;
};

struct StructDef {
    std::string name;
    std::vector<std::pair<std::string, Type>> members;
    Span span;
};

enum class ParamMode { In, Out, InOut };
struct Param {
    const Symbol* symbol = nullptr; ///< null: an unnamed parameter
    Type type;
    ParamMode mode = ParamMode::In;
};

struct Function {
    std::string name;
    int overload = 0; ///< 0 for the first declared signature of the name, then 1, 2, ...
    Type result;
    std::vector<Param> params;
    StmtPtr body; ///< null: only a prototype was seen
    Span span;
    /// Assigns a global, an output or an out parameter, emits a vertex, or calls a function that
    /// does: a call of it is a side effect (settled over the whole module after parsing).
    bool writesOutside = false;
    std::vector<const Function*> callees;
};

/// A top-level item in source order: a struct, a global declaration (one statement of possibly
/// several variables), or a function definition.
struct Item {
    const StructDef* structDef = nullptr;
    const Stmt* globals = nullptr;
    const Function* function = nullptr;
};

struct Module {
    std::deque<Symbol> symbols; // stable addresses
    std::deque<StructDef> structs;
    std::deque<Function> functions;
    std::vector<StmtPtr> globalStatements;
    std::vector<Item> items;
    const StructDef* findStruct(const std::string& name) const {
        for (const auto& s : structs)
            if (s.name == name) return &s;
        return nullptr;
    }
};

/// Whether evaluating `e` changes something: an assignment, ++/--, a call of a function that
/// writes outside itself, an EmitVertex().
bool hasSideEffects(const Expr& e);

/// Whether a value of type `from` is accepted where `to` is needed (an initializer, an argument,
/// a returned value): the same type, a numeric conversion of the same shape, or a scalar literal.
bool convertible(const Expr& e, const Type& to);

} // namespace xfb::shader
