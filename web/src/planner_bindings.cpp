// The planner's binding, in both modules (xfb.mjs for WebGL2, xfb-webgpu.mjs for WebGPU):
// inspect() needs no GL context and works in Node.
#include "js_values.hpp"
#include "xfb/attribute_plan.hpp"
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

EMSCRIPTEN_BINDINGS(xfb_planner) {
    emscripten::function("inspect", &inspect);
}
