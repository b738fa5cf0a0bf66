#pragma once
// The structured inputs of the extern "C" boundary, rebuilt from its flat arguments (call.hpp),
// then judged by the engine's own validators (parseVertexFormat(), the planners). Defaults and
// type checks of the options objects are the package's (core/, webgl2/wasm_module.ts).
#include "call.hpp"
#include "enum_name.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/enum_tables.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <cmath>

namespace xfb::boundary {

/// Per attribute, two texts (semantic, type) and three numbers: which fields were given (bits:
/// 1 semantic as a string, 2 type, 4 components, 8 offset), components and offset (NaN: not a number).
inline VertexFormat parseFormat(const char* texts, int textBytes, const double* values, int count) {
    auto strings = textList(texts, textBytes);
    auto n = numbers(values, count);
    std::vector<AttributeDescription> described(n.size() / 3);
    for (std::size_t i = 0; i < described.size(); ++i) {
        int given = int(n[3 * i]);
        auto& d = described[i];
        if (given & 1) d.semantic = strings.at(2 * i);
        if (given & 2) d.type = strings.at(2 * i + 1);
        if (given & 4) d.components = n[3 * i + 1];
        if (given & 8) d.offset = n[3 * i + 2];
    }
    return parseVertexFormat(described);
}

inline CaptureOptions parseCapture(const char* mode, int modeBytes, const char* varyings, int varyingBytes,
                                   bool portable) {
    CaptureOptions c;
    c.mode = fromName<CaptureMode>(text(mode, modeBytes), captureModeNames, "mode");
    c.varyings = textList(varyings, varyingBytes);
    c.portable = portable;
    return c;
}

/// Defines as name, value, name, value ... (the package turned numbers and booleans into text).
inline ReadOptions parseRead(const char* defines, int bytes) {
    ReadOptions r;
    auto items = textList(defines, bytes);
    for (std::size_t i = 0; i + 1 < items.size(); i += 2) r.defines[items[i]] = items[i + 1];
    return r;
}

} // namespace xfb::boundary
