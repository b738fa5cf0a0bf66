// The WGSL helper functions (wgsl_helpers.hpp).
#include "wgsl_helpers.hpp"

#include "wgsl_names.hpp"

#include <cctype>
#include <vector>

namespace xfb::shader {
namespace {

using S = std::string;
S str(int v) { return std::to_string(v); }
S shape(const Type& m) { return str(m.cols) + "x" + str(m.rows); }
S matrix(const Type& m) { return wgslType(m, 0); }

// The determinant of the square part of `m` at rows and columns given, by Laplace expansion along
// the first row: a sum of products of elements `m[column][row]`.
S minorDeterminant(const std::vector<int>& rows, const std::vector<int>& cols) {
    if (rows.size() == 1) return "m[" + str(cols[0]) + "][" + str(rows[0]) + "]";
    S sum;
    for (std::size_t k = 0; k < cols.size(); ++k) {
        std::vector<int> rest(cols);
        rest.erase(rest.begin() + std::ptrdiff_t(k));
        S term = "m[" + str(cols[k]) + "][" + str(rows[0]) + "] * (" +
                 minorDeterminant(std::vector<int>(rows.begin() + 1, rows.end()), rest) + ")";
        sum += (k == 0 ? "" : k % 2 ? " - " : " + ") + term;
    }
    return sum;
}

} // namespace

S WgslHelpers::mod(int xRows, int yRows) {
    const S x = wgslShape(ScalarKind::Float, xRows), y = wgslShape(ScalarKind::Float, yRows);
    return once("xfb_mod_" + S(xRows > 1 ? "v" + str(xRows) : "s") + (yRows > 1 ? "v" : "s"), [&](const S& fn) {
        return "fn " + fn + "(x: " + x + ", y: " + y + ") -> " + x + " { return x - y * floor(x / y); }\n";
    });
}

// GLSL's definition written out: WGSL's smoothstep() rounds differently on SwiftShader (its last bit).
S WgslHelpers::smoothstep(int rows) {
    const S x = wgslShape(ScalarKind::Float, rows);
    return once("xfb_smoothstep" + (rows > 1 ? "_v" + str(rows) : S()), [&](const S& fn) {
        return "fn " + fn + "(e0: " + x + ", e1: " + x + ", x: " + x + ") -> " + x +
               " {\n    let t = clamp((x - e0) / (e1 - e0), " + x + "(0.0f), " + x +
               "(1.0f));\n    return t * t * (3.0f - 2.0f * t);\n}\n";
    });
}

// umulExtended's msb: x * y by 16-bit halves, the carries of the middle terms into the high word.
S WgslHelpers::mulHigh(int rows) {
    const S u = wgslShape(ScalarKind::UInt, rows);
    return once("xfb_mul_high" + (rows > 1 ? "_v" + str(rows) : S()), [&](const S& fn) {
        const S m = u + "(0xffffu)", s = u + "(16u)";
        return "fn " + fn + "(x: " + u + ", y: " + u + ") -> " + u + " {\n    let xl = x & " + m +
               ";\n    let xh = x >> " + s + ";\n    let yl = y & " + m + ";\n    let yh = y >> " + s +
               ";\n    let lh = xl * yh;\n    let hl = xh * yl;\n    let mid = ((xl * yl) >> " + s + ") + (lh & " + m +
               ") + (hl & " + m + ");\n    return xh * yh + (lh >> " + s + ") + (hl >> " + s + ") + (mid >> " + s +
               ");\n}\n";
    });
}

S WgslHelpers::diagonal(const Type& t) {
    const S w = matrix(t);
    return once("xfb_diag" + shape(t), [&](const S& fn) {
        S body;
        for (int c = 0; c < t.cols; ++c)
            for (int r = 0; r < t.rows; ++r) body += S(c || r ? ", " : "") + (c == r ? "s" : "0.0f");
        return "fn " + fn + "(s: f32) -> " + w + " { return " + w + "(" + body + "); }\n";
    });
}

S WgslHelpers::resize(const Type& t, const Type& m) {
    const S w = matrix(t);
    return once("xfb_mat" + shape(t) + "_from" + shape(m), [&](const S& fn) {
        S cols;
        for (int c = 0; c < t.cols; ++c) {
            S col = "vec" + str(t.rows) + "<f32>(";
            for (int r = 0; r < t.rows; ++r)
                col += S(r ? ", " : "") + (c < m.cols && r < m.rows ? "m[" + str(c) + "][" + str(r) + "]"
                                           : c == r                 ? "1.0f"
                                                                    : "0.0f");
            cols += S(c ? ", " : "") + col + ")";
        }
        return "fn " + fn + "(m: " + matrix(m) + ") -> " + w + " { return " + w + "(" + cols + "); }\n";
    });
}

// inverse(A) = adjugate(A) * (1 / det(A)): element [c][r] of the result is the cofactor of A's
// element at column r, row c, times the reciprocal of WGSL's determinant() (as SwiftShader's GLSL
// inverse() rounds: a division per element, or another expansion of the determinant, differs in
// the last bit).
S WgslHelpers::inverse(int n) {
    const Type t = Type::matrixOf(n, n);
    const S w = matrix(t);
    return once("xfb_inverse" + shape(t), [&](const S& fn) {
        std::vector<int> all;
        for (int i = 0; i < n; ++i) all.push_back(i);
        S cols;
        for (int c = 0; c < n; ++c) {
            S col = "vec" + str(n) + "<f32>(";
            for (int r = 0; r < n; ++r) {
                std::vector<int> rows, columns;
                for (int i : all) {
                    if (i != c) rows.push_back(i);
                    if (i != r) columns.push_back(i);
                }
                col += S(r ? ", " : "") + ((r + c) % 2 ? "-(" : "(") + minorDeterminant(rows, columns) + ")";
            }
            cols += S(c ? ", " : "") + col + ") * d";
        }
        return "fn " + fn + "(m: " + w + ") -> " + w + " {\n    let d = 1.0f / determinant(m);\n    return " + w + "(" +
               cols + ");\n}\n";
    });
}

S WgslHelpers::outerProduct(const Type& t) {
    const S w = matrix(t);
    return once("xfb_outer" + shape(t), [&](const S& fn) {
        S cols;
        for (int j = 0; j < t.cols; ++j) cols += S(j ? ", " : "") + "c * r[" + str(j) + "]";
        return "fn " + fn + "(c: " + wgslShape(ScalarKind::Float, t.rows) +
               ", r: " + wgslShape(ScalarKind::Float, t.cols) + ") -> " + w + " { return " + w + "(" + cols + "); }\n";
    });
}

// a op b on every column: a matrix and a matrix of its type, or a matrix and a scalar either side.
S WgslHelpers::componentWise(const S& op, const Type& a, const Type& b) {
    const Type& m = a.matrix() ? a : b;
    const S w = matrix(m);
    const S name = op == "+" ? "add" : op == "-" ? "sub" : op == "*" ? "mul" : "div";
    const S sides = S(a.matrix() ? "m" : "s") + (b.matrix() ? "m" : "s");
    return once("xfb_mat" + shape(m) + "_" + name + "_" + sides, [&](const S& fn) {
        S cols;
        for (int c = 0; c < m.cols; ++c) {
            S i = "[" + str(c) + "]";
            cols += S(c ? ", " : "") + "a" + (a.matrix() ? i : "") + " " + op + " b" + (b.matrix() ? i : "");
        }
        return "fn " + fn + "(a: " + wgslType(a, 0) + ", b: " + wgslType(b, 0) + ") -> " + w + " { return " + w + "(" +
               cols + "); }\n";
    });
}

S WgslHelpers::matrixEqual(const Type& m) {
    return once("xfb_mat" + shape(m) + "_equal", [&](const S& fn) {
        S all;
        for (int c = 0; c < m.cols; ++c) all += S(c ? " && " : "") + "all(a[" + str(c) + "] == b[" + str(c) + "])";
        return "fn " + fn + "(a: " + matrix(m) + ", b: " + matrix(m) + ") -> bool { return " + all + "; }\n";
    });
}

S WgslHelpers::equal(const S& a, const S& b, const Type& t, const std::deque<StructDef>& structs) {
    if (t.matrix()) return matrixEqual(t) + "(" + a + ", " + b + ")";
    if (t.vector()) return "all(" + a + " == " + b + ")";
    if (t.scalar()) return "(" + a + " == " + b + ")";
    return aggregateEqual(t, structs) + "(" + a + ", " + b + ")";
}

S WgslHelpers::aggregateEqual(const Type& t, const std::deque<StructDef>& structs) {
    const S w = wgslType(t, 0);
    S name = "xfb_equal_" + (t.array ? "array" + str(t.array) + "_" : S()) + (t.name.empty() ? w : t.name);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return once(name, [&](const S& fn) {
        S body;
        if (t.array) {
            Type element = t;
            element.array = 0;
            body = "    for (var i = 0; i < " + str(t.array) + "; i++) {\n        if (!" +
                   equal("a[i]", "b[i]", element, structs) + ") { return false; }\n    }\n    return true;\n";
        } else {
            S all;
            for (const StructDef& d : structs)
                if (d.name == t.name)
                    for (const auto& [member, type] : d.members)
                        all += S(all.empty() ? "" : " && ") +
                               equal("a." + wgslIdent(member), "b." + wgslIdent(member), type, structs);
            body = "    return " + (all.empty() ? S("true") : all) + ";\n";
        }
        return "fn " + fn + "(a: " + w + ", b: " + w + ") -> bool {\n" + body + "}\n";
    });
}

} // namespace xfb::shader
