#include "vertex_wrapper.hpp"

#include "component_index.hpp"
#include "shader/glsl_lexer.hpp"
#include "xfb/error.hpp"

#include <algorithm>
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

namespace {

// Component c of `v` as an expression; an element captured alone (`a[1]`) is indexed from its name.
std::string componentOf(const CapturedVarying& v, int c) {
    return componentExpression(v.name, v.type, v.arraySize > 0, c);
}

// How a field of a declared layout reaches the driver: by the varying's own name, by its
// elements' outputs, or by generated parts (xfb_part_*) of at most 4 components.
enum class Route { Name, Element, Elements, Parts };
Route routeOf(const CapturedVarying& v, const BufferField& f) {
    const bool whole = f.firstComponent == 0 && f.components == v.components();
    if (whole && elementOf(v.name)) return Route::Element;
    if (whole && v.arraySize == 0) return Route::Name;
    if (whole && v.components() > 4) return Route::Elements;
    return Route::Parts;
}

const CapturedVarying& varyingOf(const CapturePlan& capture, const BufferField& f) {
    return *std::find_if(capture.varyings.begin(), capture.varyings.end(),
                         [&](const CapturedVarying& v) { return v.name == f.varying; });
}

std::string partName(std::size_t buffer, std::size_t field, int chunk) {
    return std::string(kPartPrefix) + std::to_string(buffer) + "_" + std::to_string(field) + "_" +
           std::to_string(chunk);
}

// What the driver captures for field `k` of buffer `b` of a declared layout.
std::vector<DriverVarying> fieldVaryings(const CapturePlan& capture, std::size_t b, std::size_t k) {
    const BufferField& f = capture.buffers[b].fields[k];
    const CapturedVarying& v = varyingOf(capture, f);
    std::vector<DriverVarying> out;
    switch (routeOf(v, f)) {
        case Route::Name: out.push_back({v.name, 1, v.components(), v.name}); break;
        case Route::Element: {
            auto e = elementOf(v.name);
            out.push_back({elementOutput(e->first, e->second), 1, v.type.components(), v.name});
            break;
        }
        case Route::Elements:
            for (int e = 0; e < v.arraySize; ++e)
                out.push_back({elementOutput(v.name, std::to_string(e)), 1, v.type.components(), v.name});
            break;
        case Route::Parts:
            for (int c = 0, j = 0; c < f.components; c += 4, ++j)
                out.push_back({partName(b, k, j), 1, std::min(4, f.components - c), v.name});
            break;
    }
    return out;
}

// gl_SkipComponents for `words` unwritten words: fours, then the rest.
void skip(int words, std::vector<DriverVarying>& out) {
    for (; words > 0; words -= 4) out.push_back({"gl_SkipComponents" + std::to_string(std::min(4, words)), 1, 0});
}

DriverList declaredList(const CapturePlan& capture, bool layoutWords, int maxInterleavedComponents) {
    DriverList list;
    auto& out = list.varyings;
    if (layoutWords) {
        for (std::size_t b = 0; b < capture.buffers.size(); ++b) {
            if (b > 0) out.push_back({"gl_NextBuffer", 1, 0});
            int cursor = 0;
            for (std::size_t k = 0; k < capture.buffers[b].fields.size(); ++k) {
                const BufferField& f = capture.buffers[b].fields[k];
                skip((f.offset - cursor) / 4, out);
                for (auto& d : fieldVaryings(capture, b, k)) out.push_back(std::move(d));
                cursor = f.offset + 4 * f.components;
            }
            skip((capture.buffers[b].stride - cursor) / 4, out);
        }
        return list;
    }
    // No layout words: one tight buffer interleaved, or one small field per buffer in separate mode.
    auto all = [&] {
        for (std::size_t b = 0; b < capture.buffers.size(); ++b)
            for (std::size_t k = 0; k < capture.buffers[b].fields.size(); ++k)
                for (auto& d : fieldVaryings(capture, b, k)) out.push_back(std::move(d));
    };
    if (capture.buffers.size() == 1 && capture.tight(0)) {
        all();
        return list;
    }
    bool small = true;
    for (std::size_t b = 0; b < capture.buffers.size() && small; ++b) {
        const auto& fields = capture.buffers[b].fields;
        auto field = fields.size() == 1 ? fieldVaryings(capture, b, 0) : std::vector<DriverVarying>();
        small = capture.tight(b) && field.size() == 1 && field[0].components <= 4;
    }
    if (small) {
        list.interleaved = false;
        all();
        return list;
    }
    // Else every field into one tight staging record, packed into the buffers afterwards.
    const int words = stagedLayout(capture).stagingStride / 4;
    if (words > maxInterleavedComponents)
        throw Error(ErrorCode::Unsupported,
                    "the declared layout's fields take " + std::to_string(words) +
                        " components in all; without gl_SkipComponents / gl_NextBuffer (desktop GL 4.0, "
                        "ARB_transform_feedback3), OpenGL ES 3.0 and WebGL2 capture them into one staging record of "
                        "at most MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS = " +
                        std::to_string(maxInterleavedComponents) +
                        " and pack it into the declared buffers. Capture fewer components, or run it on desktop GL "
                        "or the compute backend (GL 4.3 / ES 3.1, WebGPU)");
    list.staged = true;
    all();
    return list;
}

} // namespace

std::string vectorType(ScalarKind kind, int n) {
    const std::string scalar = kind == ScalarKind::Int ? "int" : kind == ScalarKind::UInt ? "uint" : "float";
    if (n == 1) return scalar;
    return (kind == ScalarKind::Int ? "ivec" : kind == ScalarKind::UInt ? "uvec" : "vec") + std::to_string(n);
}

StagedLayout stagedLayout(const CapturePlan& capture) {
    StagedLayout staged;
    for (const auto& layout : capture.buffers) {
        std::vector<StagedLayout::Run> runs;
        auto add = [&](bool gap, int from, int to, int words) {
            if (words <= 0) return;
            // A run continues the last one when it comes from the same place, contiguously.
            if (!runs.empty() && runs.back().gap == gap && runs.back().from + 4 * runs.back().words == from)
                runs.back().words += words;
            else
                runs.push_back({gap, from, to, words});
        };
        int cursor = 0;
        for (const auto& f : layout.fields) {
            add(true, cursor, cursor, (f.offset - cursor) / 4);
            add(false, staged.stagingStride, f.offset, f.components);
            staged.stagingStride += 4 * f.components;
            cursor = f.offset + 4 * f.components;
        }
        add(true, cursor, cursor, (layout.stride - cursor) / 4);
        staged.buffers.push_back(std::move(runs));
    }
    return staged;
}

CapturePlan stagingPlan(const CapturePlan& capture) {
    CapturePlan staging{CaptureMode::Interleaved, capture.varyings, {{0, 0, {}}}, false};
    for (const auto& layout : capture.buffers)
        for (const auto& f : layout.fields) {
            staging.buffers[0].fields.push_back(
                {f.varying, staging.buffers[0].stride, f.components, f.type, f.firstComponent});
            staging.buffers[0].stride += 4 * f.components;
        }
    return staging;
}

DriverList driverList(const CapturePlan& capture, bool layoutWords, int maxInterleavedComponents) {
    if (capture.declared) return declaredList(capture, layoutWords, maxInterleavedComponents);
    DriverList list{{}, capture.mode == CaptureMode::Interleaved};
    auto& out = list.varyings;
    for (const auto& v : capture.varyings) {
        if (auto element = elementOf(v.name))
            out.push_back({elementOutput(element->first, element->second), 1, v.type.components(), v.name});
        else if (v.arraySize == 0)
            out.push_back({v.name, 1, v.components(), v.name});
        else if (capture.mode == CaptureMode::Interleaved)
            for (int e = 0; e < v.arraySize; ++e)
                out.push_back({elementOutput(v.name, std::to_string(e)), 1, v.type.components(), v.name});
        else if (packedInSeparateMode(v))
            out.push_back({std::string(kPackedPrefix) + v.name, 1, v.components(), v.name});
        else
            out.push_back({v.name, v.arraySize, v.type.components(), v.name});
    }
    return list;
}

namespace {
// Declarations and assignments of the engine's outputs that stand for arrays: an element captured
// alone, or each element of an interleaved array, in an output of the element's type; a
// separate-mode array in one vector of its scalar kind holding every component in buffer order
// (element, matrix column, row).
void packOutputs(const CapturePlan& capture, std::string& declarations, std::string& statements) {
    std::set<std::string, std::less<>> declared; // an element's output once, however many fields use it
    auto element = [&](const CapturedVarying& v, const std::string& array, const std::string& index) {
        if (!declared.insert(elementOutput(array, index)).second) return;
        declarations += outputQualifiers(v) + v.type.name + " " + elementOutput(array, index) + ";\n";
        statements += "    " + elementOutput(array, index) + " = " + array + "[" + index + "];\n";
    };
    if (capture.declared) {
        for (std::size_t b = 0; b < capture.buffers.size(); ++b)
            for (std::size_t k = 0; k < capture.buffers[b].fields.size(); ++k) {
                const BufferField& f = capture.buffers[b].fields[k];
                const CapturedVarying& v = varyingOf(capture, f);
                switch (routeOf(v, f)) {
                    case Route::Name: break;
                    case Route::Element: {
                        auto e = elementOf(v.name);
                        element(v, e->first, e->second);
                        break;
                    }
                    case Route::Elements:
                        for (int e = 0; e < v.arraySize; ++e) element(v, v.name, std::to_string(e));
                        break;
                    case Route::Parts:
                        for (int c = 0, j = 0; c < f.components; c += 4, ++j) {
                            const int n = std::min(4, f.components - c);
                            const std::string type = vectorType(v.type.kind, n), name = partName(b, k, j);
                            std::string args;
                            for (int i = 0; i < n; ++i)
                                args += (i ? ", " : "") + componentOf(v, f.firstComponent + c + i);
                            declarations += outputQualifiers(v) + type + " " + name + ";\n";
                            statements += "    " + name + " = " + type + "(" + args + ");\n";
                        }
                        break;
                }
            }
        return;
    }
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
        const int n = v.components();
        const std::string vector = vectorType(v.type.kind, n), name = std::string(kPackedPrefix) + v.name;
        declarations += outputQualifiers(v) + vector + " " + name + ";\n";
        std::string args;
        for (int c = 0; c < n; ++c) args += (c ? ", " : "") + componentOf(v, c);
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
