// The WGSL printer's calls: constructors, built-in functions (renamed, or written as helpers) and
// user functions (overloads, out/inout arguments as pointers).
#include "wgsl_names.hpp"
#include "wgsl_printer_state.hpp"

#include "builtins.hpp"

#include <algorithm>

namespace xfb::shader {

using S = std::string;

namespace {
std::vector<const Expr*> all(const Expr& e) {
    std::vector<const Expr*> list;
    for (auto& o : e.operands) list.push_back(o.get());
    return list;
}
S joined(const std::vector<S>& texts, std::size_t from = 0) {
    S s;
    for (std::size_t i = from; i < texts.size(); ++i) s += (i > from ? ", " : "") + texts[i];
    return s;
}
// GLSL built-ins WGSL has under another name, with the same arguments.
S renamed(const S& n) {
    static const std::pair<const char*, const char*> table[] = {
        {"inversesqrt", "inverseSqrt"},     {"roundEven", "round"},
        {"faceforward", "faceForward"},     {"bitfieldReverse", "reverseBits"},
        {"packHalf2x16", "pack2x16float"},  {"unpackHalf2x16", "unpack2x16float"},
        {"packUnorm2x16", "pack2x16unorm"}, {"unpackUnorm2x16", "unpack2x16unorm"},
        {"packSnorm2x16", "pack2x16snorm"}, {"unpackSnorm2x16", "unpack2x16snorm"},
        {"packUnorm4x8", "pack4x8unorm"},   {"unpackUnorm4x8", "unpack4x8unorm"},
        {"packSnorm4x8", "pack4x8snorm"},   {"unpackSnorm4x8", "unpack4x8snorm"}};
    for (auto& [glsl, wgsl] : table)
        if (n == glsl) return wgsl;
    return n;
}
} // namespace

S WgslPrinter::construct(const Expr& e, Hoist& h) {
    const Type& t = e.type;
    const int line = e.span.line;
    std::vector<S> a = operands(all(e), h);
    auto arg = [&](std::size_t i) -> const Expr& { return *e.operands[i]; };
    auto converted = [&](auto&& typeOf) {
        std::vector<S> c;
        for (std::size_t i = 0; i < a.size(); ++i) c.push_back(convert(arg(i), a[i], typeOf(arg(i))));
        return joined(c);
    };
    const S w = wgslType(t, line);
    if (t.array) {
        Type el = t;
        el.array = 0;
        return w + "(" + converted([&](const Expr&) { return el; }) + ")";
    }
    if (t.kind == ScalarKind::Struct) return w + "(" + joined(a) + ")";
    const Type& first = arg(0).type;
    if (t.scalar()) { // the first component, converted
        S v = first.matrix() ? a[0] + "[0][0]" : first.vector() ? a[0] + ".x" : a[0];
        return first.kind == t.kind && first.scalar() ? a[0] : w + "(" + v + ")";
    }
    if (t.vector()) {
        if (a.size() == 1 && first.scalar()) return w + "(" + convert(arg(0), a[0], Type::of(t.kind)) + ")";
        if (a.size() == 1 && first.vector() && first.rows == t.rows) return convert(arg(0), a[0], t);
        if (a.size() == 1 && first.vector() && first.rows > t.rows)
            return w + "(" + a[0] + "." + S("xyzw").substr(0, std::size_t(t.rows)) + ")";
        return w + "(" + converted([&](const Expr& x) { return Type::of(t.kind, x.type.rows); }) + ")";
    }
    if (a.size() == 1 && first.scalar()) // matrices: the diagonal
        return helpers_.diagonal(t) + "(" + convert(arg(0), a[0], Type::of(ScalarKind::Float)) + ")";
    if (a.size() == 1 && first.matrix()) // resize: the upper-left part, identity elsewhere
        return first == t ? a[0] : helpers_.resize(t, first) + "(" + a[0] + ")";
    const bool columns = int(a.size()) == t.cols && std::all_of(e.operands.begin(), e.operands.end(), [&](auto& x) {
                             return x->type.vector() && x->type.rows == t.rows;
                         });
    if (columns || std::all_of(e.operands.begin(), e.operands.end(), [](auto& x) { return x->type.scalar(); }))
        return w + "(" + converted([&](const Expr& x) { return Type::of(ScalarKind::Float, x.type.rows); }) + ")";
    // Scalars and vectors mixed across columns (`mat2(vec4)`): WGSL takes columns or scalars, so
    // every component is passed on its own (the operands are values: their side effects are hoisted).
    std::vector<S> scalars;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Type& x = arg(i).type;
        for (int k = 0; k < x.rows; ++k) {
            const S text = x.vector() ? "(" + a[i] + ")." + S(1, "xyzw"[k]) : a[i];
            scalars.push_back(x.kind == ScalarKind::Float ? text : "f32(" + text + ")");
        }
    }
    return w + "(" + joined(scalars) + ")";
}

S WgslPrinter::builtinCall(const Expr& e, Hoist& h) {
    const S& n = e.text;
    if (builtinOutArgument(n) >= 0) return outArgumentCall(e, h);
    std::vector<S> a = operands(all(e), h);
    const Type& first = e.operands[0]->type;
    auto type = [&](std::size_t i) -> const Type& { return e.operands[i]->type; };
    auto call = [&](const S& fn) { return fn + "(" + joined(a) + ")"; };
    if (n == "not") return "(!" + a[0] + ")";
    if (n == "mix" && a.size() == 3 && type(2).kind == ScalarKind::Bool) return call("select");
    if (n == "min" || n == "max" || n == "clamp") {
        for (std::size_t i = 1; i < a.size(); ++i) a[i] = splat(a[i], type(i), first);
        return call(n);
    }
    if (n == "step" || n == "smoothstep") {
        for (std::size_t i = 0; i + 1 < a.size(); ++i) a[i] = splat(a[i], type(i), e.type);
        return n == "step" ? call(n) : helpers_.smoothstep(e.type.rows) + "(" + joined(a) + ")";
    }
    static const std::pair<const char*, const char*> comparisons[] = {{"lessThan", "<"},    {"lessThanEqual", "<="},
                                                                      {"greaterThan", ">"}, {"greaterThanEqual", ">="},
                                                                      {"equal", "=="},      {"notEqual", "!="}};
    for (auto& [glsl, op] : comparisons)
        if (n == glsl) return "(" + a[0] + " " + op + " " + a[1] + ")";
    if (n == "atan") return call(a.size() == 2 ? "atan2" : "atan");
    if (n == "mod") return call(helpers_.mod(first.rows, type(1).rows));
    if (n.find("BitsTo") != S::npos) return "bitcast<" + wgslShape(e.type.kind, e.type.rows) + ">(" + a[0] + ")";
    if (n == "inverse") return call(helpers_.inverse(first.cols));
    if (n == "outerProduct") return call(helpers_.outerProduct(e.type));
    if (n == "matrixCompMult") return call(helpers_.componentWise("*", first, first));
    // The integer functions: GLSL returns int / ivecN where WGSL's return the argument's type; -1
    // for "no bit" is all ones in both.
    const S ints = wgslShape(ScalarKind::Int, first.rows);
    auto toInt = [&](const S& s) { return first.kind == ScalarKind::UInt ? "bitcast<" + ints + ">(" + s + ")" : s; };
    if (n == "bitCount") return toInt(call("countOneBits"));
    if (n == "findMSB") return toInt(call("firstLeadingBit"));
    if (n == "findLSB") return toInt(call("firstTrailingBit"));
    if (n == "bitfieldExtract") return "extractBits(" + a[0] + ", u32(" + a[1] + "), u32(" + a[2] + "))";
    if (n == "bitfieldInsert") return "insertBits(" + a[0] + ", " + a[1] + ", u32(" + a[2] + "), u32(" + a[3] + "))";
    if (n == "isnan" || n == "isinf") { // by the bits: exact whatever the device's float rules
        auto u = [&](const S& v) {
            return first.rows > 1 ? wgslShape(ScalarKind::UInt, first.rows) + "(" + v + ")" : v;
        };
        return "((bitcast<" + wgslShape(ScalarKind::UInt, first.rows) + ">(" + a[0] + ") & " + u("0x7fffffffu") + ") " +
               (n == "isnan" ? ">" : "==") + " " + u("0x7f800000u") + ")";
    }
    const bool array = first.name.find("Array") != S::npos;
    if (n == "textureSize") {
        const S size = "textureDimensions(" + joined(a) + ")";
        return array ? "vec3<i32>(vec2<i32>(" + size + "), i32(textureNumLayers(" + a[0] + ")))"
                     : wgslShape(ScalarKind::Int, e.type.rows) + "(" + size + ")";
    }
    if (n == "texelFetch" || n == "texelFetchOffset") {
        const S p = n == "texelFetch" ? a[1] : "(" + a[1] + " + " + a[3] + ")";
        S coords = array ? p + ".xy, " + p + ".z" : p;
        return "textureLoad(" + a[0] + ", " + coords + ", " + a[2] + ")";
    }
    if (n.starts_with("texture")) return sample(e, a);
    return call(renamed(n));
}

// texture(), textureLod(), textureGrad(), textureProj*() and their Offset forms: the texture and
// its sampler `xfb_sampler_<uniform>` (a binding the translation declares for each sampled
// uniform) -> textureSampleLevel (level 0.0 where GLSL's vertex stage reads level 0: section 8.8)
// or textureSampleGrad; projective coordinates divided by their last component; an array layer
// rounded and clamped as GLSL does (floor(layer + 0.5) in 0..layers-1).
S WgslPrinter::sample(const Expr& e, const std::vector<S>& a) {
    const S& n = e.text;
    const Expr& s = *e.operands[0];
    const Symbol* uniform = s.kind == ExprKind::Name ? s.symbol : nullptr;
    if (uniform && current_)
        for (const Param& p : current_->params)
            if (p.symbol == uniform) uniform = nullptr;
    if (!uniform)
        refuseWgsl(e.span.line, {"'", n,
                                 "()' through a sampler parameter: the WGSL translation samples sampler "
                                 "uniforms only (each gets its WGSL sampler); call it on the uniform"});
    if (std::find(sampled_.begin(), sampled_.end(), uniform->name) == sampled_.end()) sampled_.push_back(uniform->name);
    const S& kind = s.type.name;
    const auto [proj, lod, grad, offset] = samplingForm(n);
    const int dims = kind == "sampler2D" || kind == "sampler2DArray" ? 2 : 3;
    S p = a[1];
    if (proj) { // P.xy / P.z (vec3) or / P.w (vec4); sampler3D: P.xyz / P.w
        const int rows = e.operands[1]->type.rows;
        p = "(" + a[1] + ")." + S("xyz").substr(0, std::size_t(dims)) + " / (" + a[1] + ")." + "xyzw"[rows - 1];
    }
    S coords = p;
    if (kind == "sampler2DArray")
        coords =
            "(" + p + ").xy, i32(clamp(floor((" + p + ").z + 0.5f), 0.0f, f32(textureNumLayers(" + a[0] + ")) - 1.0f))";
    S call = (grad ? "textureSampleGrad(" : "textureSampleLevel(") + a[0] + ", xfb_sampler_" + uniform->name + ", " +
             coords + ", ";
    call += grad ? a[2] + ", " + a[3] : lod ? a[2] : S("0.0f");
    if (offset) call += ", " + a.back();
    return call + ")";
}

// modf / frexp / uaddCarry / usubBorrow / umulExtended / imulExtended write their last arguments:
// the call becomes statements before the one holding it (hoisted in GLSL's order, as other side
// effects), the value a temporary (umulExtended / imulExtended return nothing: "").
S WgslPrinter::outArgumentCall(const Expr& e, Hoist& h) {
    const S& n = e.text;
    const std::size_t first = std::size_t(builtinOutArgument(n));
    std::vector<const Expr*> values;
    for (std::size_t i = 0; i < first; ++i) values.push_back(e.operands[i].get());
    const std::vector<S> a = operands(values, h);
    std::vector<S> targets;
    for (std::size_t i = first; i < e.operands.size(); ++i) targets.push_back(place(*e.operands[i], h, true));
    const Type& t = e.operands[0]->type;
    const S at = pad(h.indent);
    auto store = [&](const S& target, const S& v) { *h.out += at + target + " = " + v + ";\n"; };
    if (n == "modf" || n == "frexp") {
        const S result = temporary();
        *h.out += at + "let " + result + " = " + n + "(" + a[0] + ");\n";
        store(targets[0], result + (n == "modf" ? ".whole" : ".exp"));
        return result + ".fract";
    }
    if (n == "umulExtended" || n == "imulExtended") { // the high word by 16-bit halves, the low one wraps
        const S u = wgslShape(ScalarKind::UInt, t.rows);
        auto bits = [&](const S& v) { return n[0] == 'i' ? "bitcast<" + u + ">(" + v + ")" : v; };
        const S x = bits(a[0]), y = bits(a[1]);
        S high = helpers_.mulHigh(t.rows) + "(" + x + ", " + y + ")";
        if (n[0] == 'i') { // signed: subtract y where x < 0 and x where y < 0 (mod 2^32)
            const S zero = u + "(0u)", i0 = wgslShape(ScalarKind::Int, t.rows) + "(0)";
            high = "bitcast<" + wgslShape(ScalarKind::Int, t.rows) + ">(" + high + " - select(" + zero + ", " + y +
                   ", " + a[0] + " < " + i0 + ") - select(" + zero + ", " + x + ", " + a[1] + " < " + i0 + "))";
        }
        store(targets[0], high);
        store(targets[1], a[0] + " * " + a[1]);
        return "";
    }
    // uaddCarry: the sum wrapped, carry 1 where it wrapped; usubBorrow: the difference, borrow 1 where y > x.
    const bool add = n == "uaddCarry";
    const S result = temporary();
    const S one = wgslShape(ScalarKind::UInt, t.rows) + "(1u)", zero = wgslShape(ScalarKind::UInt, t.rows) + "(0u)";
    *h.out += at + "let " + result + " = " + a[0] + (add ? " + " : " - ") + a[1] + ";\n";
    store(targets[0], "select(" + zero + ", " + one + ", " + (add ? result + " < " + a[0] : a[0] + " < " + a[1]) + ")");
    return result;
}

S WgslPrinter::userCall(const Expr& e, Hoist& h) {
    const Function& f = *e.function;
    std::vector<const Expr*> values;
    for (std::size_t i = 0; i < e.operands.size(); ++i)
        if (f.params[i].mode == ParamMode::In) values.push_back(e.operands[i].get());
    std::vector<S> texts = operands(values, h);
    S s = functionName(f) + "(";
    for (std::size_t i = 0, v = 0; i < e.operands.size(); ++i) {
        const Expr& arg = *e.operands[i];
        S text;
        if (f.params[i].mode == ParamMode::In)
            text = convert(arg, texts[v++], f.params[i].type);
        else {
            const Symbol* var = arg.kind == ExprKind::Name ? arg.symbol : nullptr;
            if (!var || (var->storage != Storage::Local && var->storage != Storage::OutParam))
                refuseWgsl(e.span.line,
                           {"out/inout argument '", value(arg, h), "' of '", f.name,
                            "': the WGSL translation passes whole local variables only; copy into a local first"});
            text = var->storage == Storage::OutParam ? wgslIdent(var->name) : "&" + wgslIdent(var->name);
        }
        s += (i ? ", " : "") + text;
    }
    return s + ")";
}

} // namespace xfb::shader
