#pragma once
// The JSON side of the WGSL translator's binding (wgsl_bindings.cpp, WebGPU module only), whose
// entry point webgpu.js calls with JSON strings: argument parsing (formats, capture and read
// options) and guarded(), which keeps a failure as {code, message}. The WebGL2 module passes
// JavaScript objects instead (js_values.hpp) and carries no JSON library.
#include "xfb/xfb.hpp"

#include <nlohmann/json.hpp>

#include <new>
#include <string>

namespace xfb::web {

using json = nlohmann::json;

inline VertexFormat parseFormat(const json& j) {
    std::vector<VertexAttribute> attrs;
    for (const auto& a : j) {
        auto semantic = semanticFromName(a.at("semantic").get<std::string>());
        if (!semantic) throw Error(ErrorCode::InvalidArgument, "unknown semantic '" + a.at("semantic").get<std::string>() + "'");
        std::string type = a.value("type", "float32");
        ComponentType t = type == "int32" ? ComponentType::Int32 : type == "uint32" ? ComponentType::UInt32 : ComponentType::Float32;
        attrs.push_back({*semantic, t, a.value("components", 4), a.value("offset", -1)});
    }
    return VertexFormat::interleaved(std::move(attrs));
}

inline CaptureOptions parseCapture(const json& o) {
    CaptureOptions c;
    c.mode = o.value("mode", "interleaved") == "separate" ? CaptureMode::Separate : CaptureMode::Interleaved;
    c.varyings = o.value("varyings", std::vector<std::string>{});
    c.portable = o.value("portable", true);
    return c;
}

inline ReadOptions parseRead(const json& o) {
    ReadOptions r;
    if (o.contains("defines"))
        for (auto& [k, v] : o["defines"].items()) {
            if (!v.is_primitive() || v.is_null())
                throw Error(ErrorCode::InvalidArgument, "defines['" + k + "'] must be a string, a number or a boolean, got " + v.dump());
            r.defines[k] = v.is_string() ? v.get<std::string>() : v.dump();
        }
    return r;
}

inline json errorJson(const std::string& code, const std::string& message) { return {{"code", code}, {"message", message}}; }

// Runs `f`; on failure keeps the error in `last` and returns `fallback`.
template<class R, class F>
R guarded(json& last, R fallback, F&& f) {
    try {
        return f();
    } catch (const Error& e) {
        last = errorJson(std::string(errorCodeName(e.code())), e.message());
    } catch (const std::bad_alloc&) {
        last = errorJson("XFB_OUT_OF_MEMORY", "the WebAssembly heap has no room for this; use smaller buffers or counts");
    } catch (const json::exception& e) {
        last = errorJson("XFB_INVALID_ARGUMENT", std::string("malformed argument: ") + e.what());
    } catch (const std::exception& e) {
        last = errorJson("XFB_INTERNAL", e.what());
    }
    return fallback;
}

} // namespace xfb::web
