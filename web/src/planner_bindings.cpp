// The planner's binding, in both modules (xfb.mjs for WebGL2, xfb-webgpu.mjs for WebGPU):
// inspect() needs no GL context and works in Node.
#include "js_values.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/fusion_plan.hpp"
#include "xfb/limits.hpp"
#include "xfb/plan_fields.hpp"

#include <emscripten/bind.h>

using namespace xfb;
using namespace xfb::web;

/// Planner only: what the engine would do with a shader, without WebGL. The plan as an object
/// (xfb/plan_fields.hpp) or an XfbError.
static val inspect(std::string source, val options) {
    return guarded([&] {
        Limits limits = Limits::portable();
        ShaderInterface shader = readShaderInterface(source, parseRead(options));
        auto attrs = planAttributes(shader, limits);
        auto capture = planCapture(shader, parseCapture(options), limits);
        ValBuilder b;
        return planFields(b, shader, attrs, capture);
    });
}

/// A format description checked and packed by the engine's one validator (parseVertexFormat()):
/// { attributes, stride } or an XfbError. index.js and webgpu.js build buffers from it.
static val normaliseFormat(val list) {
    return guarded([&] { return formatObject(parseFormat(list)); });
}

/// The names (and ScalarKind's values) of the public enums, from their tables (xfb/enum_tables.hpp),
/// and the engine's constants that JavaScript checks against: index.js and webgpu.js validate and
/// convert with these rather than copies of them. constants: { maxBufferBytes (2^31 - 1, a WebGL2
/// buffer's limit), maxSubsteps (step(k): k in 1..maxSubsteps), substepUniform ('xfb_substep') }.
static val enums() {
    val kinds = val::object();
    for (std::size_t i = 0; i < std::size(scalarKindNames); ++i) kinds.set(std::string(scalarKindNames[i]), int(i));
    val constants = object({{"maxBufferBytes", js(limits::maxWebGLBufferBytes)}, {"maxSubsteps", js(limits::maxSubsteps)}, {"substepUniform", js(kSubstepUniform)}});
    return object({{"errorCodes", names(errorCodeNames)}, {"drawModes", names(drawModeNames)}, {"captureModes", names(captureModeNames)},
                   {"componentTypes", names(componentTypeNames)}, {"backends", names(backendNames)}, {"expansions", names(expansionNames)},
                   {"scalarKinds", kinds}, {"constants", constants}});
}

EMSCRIPTEN_BINDINGS(xfb_planner) {
    emscripten::function("inspect", &inspect);
    emscripten::function("enums", &enums);
    emscripten::function("normaliseFormat", &normaliseFormat);
}
