#include "vertex_wrapper.hpp"

#include "glsl_lexer.hpp"

#include <functional>
#include <optional>
#include <set>
#include <vector>

namespace xfb::plan {

namespace {

// `target = 0` for a value of `type` (`arraySize` elements when > 0): arrays in a loop (`depth`
// names nested counters apart), structs through xfb_zero_<name>(), whose name goes to `structs`.
void zeroValue(const std::string& target, const GlslType& type, int arraySize, const std::string& indent, int depth,
               std::string& out, std::vector<std::string>& structs) {
    if (arraySize > 0) {
        const std::string i = "xfb_z" + std::to_string(depth);
        out += indent + "for (int " + i + " = 0; " + i + " < " + std::to_string(arraySize) + "; ++" + i + ") {\n";
        zeroValue(target + "[" + i + "]", type, 0, indent + "    ", depth + 1, out, structs);
        out += indent + "}\n";
    } else if (type.kind == ScalarKind::Struct) {
        out += indent + "xfb_zero_" + type.name + "(" + target + ");\n";
        structs.push_back(type.name);
    } else if (type.kind != ScalarKind::Opaque) { // an opaque output is the compiler's error to report
        out += indent + target + " = " + type.name +
               "(0);\n"; // a scalar converted: every component (a matrix: its diagonal, the rest 0)
    }
}

// `void xfb_zero_<S>(inout S v)` for every struct in `pending` and the structs they contain,
// each once and after those it calls: linear in the struct definitions, however deeply they nest
// (statement by statement, nested structs would multiply).
std::string zeroFunctions(const ShaderInterface& shader, std::vector<std::string> pending) {
    std::string out;
    std::set<std::string, std::less<>> done;
    // Depth-first, callees first; a struct cannot contain itself, so this ends.
    std::function<void(const std::string&)> define = [&](const std::string& name) {
        if (!done.insert(name).second) return;
        auto s = shader.structs.find(name);
        if (s == shader.structs.end()) return;
        std::string body;
        std::vector<std::string> inner;
        for (const auto& m : s->second.members) zeroValue("v." + m.name, m.type, m.arraySize, "    ", 0, body, inner);
        for (const auto& n : inner) define(n);
        out += "void xfb_zero_" + name + "(inout " + name + " v) {\n" + body + "}\n";
    };
    for (const auto& n : pending) define(n);
    return out;
}

} // namespace

ZeroCode zeroOutputs(const ShaderInterface& shader, const CapturePlan& capture, const std::string& indent,
                     ZeroedOutputs which, const std::function<std::string(const std::string&)>& rename) {
    auto held = [&](const std::string& n) { return rename ? rename(n) : n; };
    ZeroCode code;
    std::vector<std::string> structs;
    if (which == ZeroedOutputs::Captured) {
        for (const auto& v : capture.varyings)
            zeroValue(held(v.name), v.type, v.arraySize, indent, 0, code.statements, structs);
    } else {
        std::set<std::string, std::less<>> done;
        for (const auto& d : shader.outputs)
            if (!d.name.starts_with("gl_") && done.insert(d.name).second)
                zeroValue(held(d.name), d.type, d.arraySize, indent, 0, code.statements, structs);
        for (const auto& v : capture.varyings)
            if ((v.name == "gl_Position" || v.name == "gl_PointSize") && done.insert(v.name).second)
                code.statements += indent + held(v.name) + " = " + v.type.name + "(0);\n";
    }
    code.functions = zeroFunctions(shader, structs);
    return code;
}

bool packedInSeparateMode(const CapturedVarying& v) { return v.arraySize > 0 && v.components() <= 4; }

namespace {
// An element `a[3]` captured alone: its array's name and its index; nullopt for any other name.
std::optional<std::pair<std::string, std::string>> elementOf(const std::string& name) {
    auto open = name.find('[');
    if (open == std::string::npos || name.back() != ']') return std::nullopt;
    return std::pair{name.substr(0, open), name.substr(open + 1, name.size() - open - 2)};
}

// One engine output holding one element of an array: `xfb_packed_<array>_<index>`.
std::string elementOutput(const std::string& array, const std::string& index) {
    return std::string(kPackedPrefix) + array + "_" + index;
}

// What an engine output of `v`'s kind is declared with: highp (the user's default precision must
// not narrow what is captured), flat for integers.
std::string outputQualifiers(const CapturedVarying& v) {
    return std::string(v.type.kind == ScalarKind::Float ? "" : "flat ") + "out highp ";
}
} // namespace

std::vector<DriverVarying> driverVaryings(const CapturePlan& capture) {
    std::vector<DriverVarying> out;
    for (const auto& v : capture.varyings) {
        if (auto element = elementOf(v.name))
            out.push_back({elementOutput(element->first, element->second), 1});
        else if (v.arraySize == 0)
            out.push_back({v.name, 1});
        else if (capture.mode == CaptureMode::Interleaved)
            for (int e = 0; e < v.arraySize; ++e) out.push_back({elementOutput(v.name, std::to_string(e)), 1});
        else if (packedInSeparateMode(v))
            out.push_back({std::string(kPackedPrefix) + v.name, 1});
        else
            out.push_back({v.name, v.arraySize});
    }
    return out;
}

namespace {
// Declarations and assignments of the engine's outputs that stand for arrays: an element captured
// alone, or each element of an interleaved array, in an output of the element's type; a
// separate-mode array in one vector of its scalar kind holding every component in buffer order
// (element, matrix column, row).
void packOutputs(const CapturePlan& capture, std::string& declarations, std::string& statements) {
    auto element = [&](const CapturedVarying& v, const std::string& array, const std::string& index) {
        declarations += outputQualifiers(v) + v.type.name + " " + elementOutput(array, index) + ";\n";
        statements += "    " + elementOutput(array, index) + " = " + array + "[" + index + "];\n";
    };
    for (const auto& v : capture.varyings) {
        if (auto e = elementOf(v.name)) {
            element(v, e->first, e->second);
            continue;
        }
        if (v.arraySize == 0) continue;
        if (capture.mode == CaptureMode::Interleaved) {
            for (int e = 0; e < v.arraySize; ++e) element(v, v.name, std::to_string(e));
            continue;
        }
        if (!packedInSeparateMode(v)) continue;
        const int n = v.components(), rows = v.type.rows, cols = v.type.columns, perElement = rows * cols;
        const std::string scalar = v.type.kind == ScalarKind::Int    ? "int"
                                   : v.type.kind == ScalarKind::UInt ? "uint"
                                                                     : "float";
        const std::string vector = n == 1 ? scalar
                                          : (v.type.kind == ScalarKind::Int    ? "ivec"
                                             : v.type.kind == ScalarKind::UInt ? "uvec"
                                                                               : "vec") +
                                                std::to_string(n);
        const std::string name = std::string(kPackedPrefix) + v.name;
        declarations += outputQualifiers(v) + vector + " " + name + ";\n";
        std::string args;
        for (int c = 0; c < n; ++c)
            args += (c ? ", " : "") + v.name + "[" + std::to_string(c / perElement) + "]" +
                    (cols > 1 ? "[" + std::to_string((c % perElement) / rows) + "]" : "") +
                    (rows > 1 ? "[" + std::to_string(c % rows) + "]" : "");
        statements += "    " + name + " = " + vector + "(" + args + ");\n";
    }
}
} // namespace

std::string wrapVertexMain(std::string_view source, const ShaderInterface& shader, const CapturePlan& capture) {
    // Where the line after #version starts (the source's start when it has none).
    std::size_t insertAt = 0;
    int nextLine = 1;
    const auto lines = splitLogicalLines(source);
    for (std::size_t k = 0; k < lines.size(); ++k) {
        auto tokens = tokenizeLine(lines[k].text, lines[k].line);
        if (tokens.empty()) continue;
        if (tokens.size() >= 2 && tokens[0].text == "#" && tokens[1].text == "version") {
            nextLine = k + 1 < lines.size() ? lines[k + 1].line : lines[k].line + 1;
            // Physical line `nextLine` starts after the (nextLine - 1)-th newline.
            insertAt = source.size();
            for (std::size_t i = 0, newlines = 0; i < source.size(); ++i)
                if (source[i] == '\n' && ++newlines == std::size_t(nextLine - 1)) {
                    insertAt = i + 1;
                    break;
                }
        }
        break;
    }
    std::string out(source.substr(0, insertAt));
    if (!out.empty() && out.back() != '\n') out += '\n';
    out += "#define main " + std::string(kWrappedMain) + "\n#line " + std::to_string(nextLine) + "\n";
    out.append(source.substr(insertAt));
    // Two newlines: a trailing line continuation joins only the first.
    const ZeroCode zero = zeroOutputs(shader, capture, "    ", ZeroedOutputs::Captured);
    std::string packedDeclarations, packing;
    packOutputs(capture, packedDeclarations, packing);
    out += "\n\n#undef main\n" + packedDeclarations + zero.functions + "void main() {\n" + zero.statements + "    " +
           std::string(kWrappedMain) + "();\n" + packing + "}\n";
    return out;
}

} // namespace xfb::plan
