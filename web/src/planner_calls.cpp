// The planner's extern "C" functions (call.hpp's convention), in both modules (xfb.wasm for WebGL2,
// xfb-webgpu.wasm for WebGPU): no GL context needed, so inspect() works in Node too. One
// implementation for both; the package reads them through core/boundary.ts.
#include "inputs.hpp"
#include "json_text.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/emit_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/limits.hpp"
#include "xfb/plan_fields.hpp"

using namespace xfb;
using namespace xfb::boundary;

extern "C" {

/// The last call's result (JSON text) or failure message.
EMSCRIPTEN_KEEPALIVE const char* xfb_result() { return lastResult().c_str(); }

/// The plan of a shader (xfb/plan_fields.hpp) under the module's plannerLimits(); arguments as parseCapture() reads
/// them.
EMSCRIPTEN_KEEPALIVE int xfb_inspect(const char* source, int sourceBytes, const char* mode, int modeBytes,
                                     const char* varyings, int varyingBytes, bool portable, const char* defines,
                                     int defineBytes, const char* declaration, int declarationBytes,
                                     const double* layout, int layoutCount) {
    return guarded([&] {
        const Limits limits = plannerLimits();
        ShaderInterface shader = readShaderInterface(text(source, sourceBytes), parseRead(defines, defineBytes));
        auto attrs = planAttributes(shader, limits);
        auto capture = planCapture(shader,
                                   parseCapture(mode, modeBytes, varyings, varyingBytes, portable, declaration,
                                                declarationBytes, layout, layoutCount),
                                   limits);
        JsonBuilder b;
        return planFields(b, shader, attrs, capture).done();
    });
}

/// { attributes: [{ semantic, type, components, offset }], stride }, checked by parseVertexFormat(),
/// the validator the CLI's scenario reader uses too.
EMSCRIPTEN_KEEPALIVE int xfb_normalise_format(const char* texts, int textBytes, const double* values, int count) {
    return guarded([&] {
        VertexFormat format = parseFormat(texts, textBytes, values, count);
        Json attributes = JsonBuilder::array();
        for (const auto& a : format.attributes) {
            Json o = JsonBuilder::object();
            JsonBuilder::set(o, "semantic", semanticName(a.semantic));
            JsonBuilder::set(o, "type", componentTypeName(a.type));
            JsonBuilder::set(o, "components", a.components);
            JsonBuilder::set(o, "offset", a.offset);
            JsonBuilder::push(attributes, std::move(o));
        }
        Json out = JsonBuilder::object();
        JsonBuilder::set(out, "attributes", std::move(attributes));
        JsonBuilder::set(out, "stride", format.stride);
        return std::move(out).done();
    });
}

/// The names (and ScalarKind's values) of the public enums, from their tables (xfb/enum_tables.hpp),
/// and the engine's constants that JavaScript checks against: the package validates and converts
/// with these rather than copies of them. constants: { maxBufferBytes (2^31 - 1, a WebGL2 buffer's
/// limit), maxSubsteps (step(k): k in 1..maxSubsteps), substepUniform ('xfb_substep'),
/// emittedDrawSnippet (xfb::emittedDrawSnippet(): the vertex-shader code drawEmitted() needs) and its
/// uniforms' names, emittedTotalsUniform and emittedAtUniform }.
EMSCRIPTEN_KEEPALIVE int xfb_enums() {
    return guarded([] {
        auto list = [](const auto& names) { return std::vector<std::string_view>(std::begin(names), std::end(names)); };
        Json kinds = JsonBuilder::object();
        for (std::size_t i = 0; i < std::size(scalarKindNames); ++i)
            JsonBuilder::set(kinds, std::string(scalarKindNames[i]).c_str(), int(i));
        Json constants = JsonBuilder::object();
        JsonBuilder::set(constants, "maxBufferBytes", std::int64_t(limits::maxWebGLBufferBytes));
        JsonBuilder::set(constants, "maxSubsteps", limits::maxSubsteps);
        JsonBuilder::set(constants, "substepUniform", kSubstepUniform);
        JsonBuilder::set(constants, "emittedDrawSnippet", emittedDrawSnippet());
        JsonBuilder::set(constants, "emittedTotalsUniform", emittedTotalsUniform);
        JsonBuilder::set(constants, "emittedAtUniform", emittedAtUniform);
        Json out = JsonBuilder::object();
        JsonBuilder::set(out, "errorCodes", list(errorCodeNames));
        JsonBuilder::set(out, "drawModes", list(drawModeNames));
        JsonBuilder::set(out, "captureModes", list(captureModeNames));
        JsonBuilder::set(out, "componentTypes", list(componentTypeNames));
        JsonBuilder::set(out, "backends", list(backendNames));
        JsonBuilder::set(out, "expansions", list(expansionNames));
        JsonBuilder::set(out, "scalarKinds", std::move(kinds));
        JsonBuilder::set(out, "constants", std::move(constants));
        return std::move(out).done();
    });
}

} // extern "C"
