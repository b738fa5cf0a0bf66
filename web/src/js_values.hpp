#pragma once
// Structured values across the WebGPU module's embind boundary (wgsl_bindings.cpp, the WGSL
// translator; the planner's functions and the whole WebGL2 module are extern "C": call.hpp):
// arguments arrive as the JavaScript objects the package checked, results leave as JavaScript
// objects, and a failure leaves as an XfbError (Module.XfbError, handed to the module by the
// package), never as a sentinel ('', -1, null). No JSON library. Plan headers only (no GL).
#include "enum_name.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/error.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <emscripten/val.h>

#include <cmath>
#include <concepts>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::web {

using emscripten::val;

/// A JavaScript value for a C++ one: integers as numbers (int64 beyond 2^53 is not a count xfb
/// can reach), strings, booleans; vals as they are.
template<class T>
val js(const T& v) {
    if constexpr (std::same_as<T, val>)
        return v;
    else if constexpr (std::same_as<T, bool>)
        return val(v);
    else if constexpr (std::integral<T> || std::floating_point<T>)
        return val(double(v));
    else
        return val(std::string(v));
}

/// planFields() and the results of the bindings writing JavaScript objects.
struct ValBuilder {
    using Value = val;
    Value object() { return val::object(); }
    Value array() { return val::array(); }
    template<class T>
    void set(Value& o, const char* key, const T& v) {
        o.set(key, js(v));
    }
    template<class T>
    void push(Value& a, const T& v) {
        a.call<void>("push", js(v));
    }
};

/// An object from key/value pairs: object({{"a", js(1)}, {"b", js(s)}}).
inline val object(std::initializer_list<std::pair<const char*, val>> fields) {
    val o = val::object();
    for (const auto& [k, v] : fields) o.set(k, v);
    return o;
}
template<class T>
val array(const std::vector<T>& list) {
    val a = val::array();
    for (const auto& v : list) a.call<void>("push", js(v));
    return a;
}

inline val failure(std::string_view code, const std::string& message) {
    return val::module_property("XfbError").new_(std::string(code), message);
}

/// The exception being handled as an XfbError value with the engine's code. One out-of-line copy:
/// every binding's guarded() then holds a single catch-all rather than three handlers.
[[gnu::noinline]] inline val currentFailure() {
    try {
        throw;
    } catch (const Error& e) { return failure(errorCodeName(e.code()), e.message()); } catch (const std::bad_alloc&) {
        return failure("XFB_OUT_OF_MEMORY", "the WebAssembly heap has no room for this; use smaller buffers or counts");
    } catch (const std::exception& e) { return failure("XFB_INTERNAL", e.what()); }
}

/// Runs `f` (returning a val); a failure becomes an XfbError value (currentFailure()).
template<class F>
val guarded(F&& f) {
    try {
        return f();
    } catch (...) { return currentFailure(); }
}

inline bool has(const val& o, const char* key) { return !o[key].isUndefined(); }
template<class T>
T get(const val& o, const char* key, T fallback) {
    return has(o, key) ? o[key].as<T>() : fallback;
}

/// [{ semantic, type?, components?, offset? }] (index.js checked it is an array of plain objects
/// with known keys): read without judging, then checked by parseVertexFormat(), the validator
/// the CLI's scenario reader uses too.
inline VertexFormat parseFormat(const val& list) {
    std::vector<AttributeDescription> described;
    for (const val& a : emscripten::vecFromJSArray<val>(list)) {
        AttributeDescription d;
        auto text = [](const val& v) {
            return v.isString() ? v.as<std::string>() : val::global("String")(v).as<std::string>();
        };
        auto number = [](const val& v) { return v.isNumber() ? v.as<double>() : std::nan(""); };
        if (a["semantic"].isString()) d.semantic = a["semantic"].as<std::string>();
        if (has(a, "type")) d.type = text(a["type"]);
        if (has(a, "components")) d.components = number(a["components"]);
        if (has(a, "offset")) d.offset = number(a["offset"]);
        described.push_back(std::move(d));
    }
    return parseVertexFormat(described);
}

/// { mode?, varyings?, portable?, declaration?: [{ varying, semantic, semanticIndex, firstComponent,
/// components, buffer }] (every field given: the package's CheckedProgramOptions), strides?: number[] }
inline CaptureOptions parseCapture(const val& o) {
    CaptureOptions c;
    c.mode = fromName<CaptureMode>(get<std::string>(o, "mode", "interleaved"), captureModeNames, "mode");
    if (has(o, "varyings")) c.varyings = emscripten::vecFromJSArray<std::string>(o["varyings"]);
    c.portable = get<bool>(o, "portable", true);
    if (has(o, "declaration"))
        for (const val& e : emscripten::vecFromJSArray<val>(o["declaration"]))
            c.declaration.push_back({e["varying"].as<std::string>(), e["semantic"].as<std::string>(),
                                     e["semanticIndex"].as<int>(), e["firstComponent"].as<int>(),
                                     e["components"].as<int>(), e["buffer"].as<int>()});
    if (has(o, "strides")) c.strides = emscripten::vecFromJSArray<int>(o["strides"]);
    return c;
}

/// { defines?: { NAME: string | number | boolean } }: numbers and booleans as JavaScript writes them.
inline ReadOptions parseRead(const val& o) {
    ReadOptions r;
    if (!has(o, "defines")) return r;
    val defines = o["defines"];
    for (const auto& k : emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", defines))) {
        val v = defines[k];
        std::string type = v.typeOf().as<std::string>();
        if (type != "string" && type != "number" && type != "boolean")
            throw Error(ErrorCode::InvalidArgument, "defines['" + k +
                                                        "'] must be a string, a number or a boolean, got " +
                                                        (v.isNull() ? "null" : type));
        r.defines[k] = v.call<std::string>("toString");
    }
    return r;
}

} // namespace xfb::web
