#pragma once
// The structured inputs of the extern "C" boundary, rebuilt from its flat arguments (call.hpp),
// then judged by the engine's own validators (parseVertexFormat(), the planners). Defaults and
// type checks of the options objects are the package's (core/, webgl2/wasm_module.ts).
#include "call.hpp"
#include "enum_name.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/enum_tables.hpp"
#include "xfb/limits.hpp"
#include "xfb/shader_interface.hpp"
#include "xfb/vertex_format.hpp"

#include <cmath>

namespace xfb::boundary {

/// The limits inspect() plans under in this module: Limits::portable() in the WebGL2 module
/// (engine_calls.cpp), Limits::webgpu() in the WebGPU one (wgsl_bindings.cpp), the limits each
/// engine's createProgram() checks without a context.
Limits plannerLimits();

/// Per attribute, two texts (semantic, type) and three numbers: which fields were given (bits:
/// 1 semantic as a string, 2 type, 4 components, 8 offset), components and offset (NaN: not a number);
/// then two numbers: whether a stride was given (1 or 0) and the stride (NaN: not a number), which
/// replaces the packed size and is checked with the format (VertexFormat::validate(): a multiple of 4
/// holding every attribute, else FormatInvalid).
inline VertexFormat parseFormat(const char* texts, int textBytes, const double* values, int count) {
    auto strings = textList(texts, textBytes);
    auto n = numbers(values, count);
    std::vector<AttributeDescription> described((n.size() - 2) / 3);
    for (std::size_t i = 0; i < described.size(); ++i) {
        int given = int(n[3 * i]);
        auto& d = described[i];
        if (given & 1) d.semantic = strings.at(2 * i);
        if (given & 2) d.type = strings.at(2 * i + 1);
        if (given & 4) d.components = n[3 * i + 1];
        if (given & 8) d.offset = n[3 * i + 2];
    }
    VertexFormat format = parseVertexFormat(described);
    if (n[n.size() - 2] != 0) {
        const double stride = n.back(); // bounded as parseVertexFormat() bounds offsets
        if (!(stride >= 1 && stride < 1073741824.0 && stride == std::floor(stride)))
            throw Error(ErrorCode::InvalidArgument,
                        "stride must be a positive integer number of bytes below 2^30, got " +
                            (std::isnan(stride)             ? std::string("a value that is not a number")
                             : stride != std::floor(stride) ? std::string("a number that is not an integer")
                             : std::fabs(stride) < 1e15     ? std::to_string(static_cast<long long>(stride))
                                                            : std::string("a number beyond 10^15")));
        format.stride = int(stride);
        format.validate();
    }
    return format;
}

/// mode, the varyings, the flag portable; the declaration as two texts per entry (varying, semantic)
/// and four numbers per entry (semanticIndex, firstComponent, components, buffer: integers the
/// package checked), then the strides (CaptureOptions::declaration, strides; judged by planCapture()).
inline CaptureOptions parseCapture(const char* mode, int modeBytes, const char* varyings, int varyingBytes,
                                   bool portable, const char* declaration, int declarationBytes, const double* layout,
                                   int layoutCount) {
    CaptureOptions c;
    c.mode = fromName<CaptureMode>(text(mode, modeBytes), captureModeNames, "mode");
    c.varyings = textList(varyings, varyingBytes);
    c.portable = portable;
    auto names = textList(declaration, declarationBytes);
    auto n = numbers(layout, layoutCount);
    const std::size_t entries = names.size() / 2;
    for (std::size_t i = 0; i < entries; ++i)
        c.declaration.push_back(
            {names[2 * i], names[2 * i + 1], int(n[4 * i]), int(n[4 * i + 1]), int(n[4 * i + 2]), int(n[4 * i + 3])});
    for (std::size_t k = 4 * entries; k < n.size(); ++k) c.strides.push_back(int(n[k]));
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
