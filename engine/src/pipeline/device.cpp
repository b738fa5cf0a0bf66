#include "gl/feedback_pass.hpp"
#include "gl/readback.hpp"
#include "gl/gl_check.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "xfb/error.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace xfb {

namespace {

int getInt(GLenum name) {
    GLint v = 0;
    glGetIntegerv(name, &v);
    return v;
}

#ifndef __EMSCRIPTEN__
// Whether glGetStringi lists `name`.
bool hasExtension(const char* name) {
    for (int i = 0, n = getInt(GL_NUM_EXTENSIONS); i < n; ++i)
        if (const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))))
            if (std::strcmp(e, name) == 0) return true;
    return false;
}

// GL_KHR_shader_subgroup (listed by glGetStringi) with basic, ballot and arithmetic operations in
// compute shaders. Checked in the extension list first: without it the two queries are errors.
bool hasSubgroupArithmetic() {
    if (!hasExtension("GL_KHR_shader_subgroup")) return false;
    constexpr GLint kComputeBit = 0x20;          // GL_COMPUTE_SHADER_BIT
    constexpr GLint kFeatures = 0x1 | 0x4 | 0x8; // GL_SUBGROUP_FEATURE_BASIC / _ARITHMETIC / _BALLOT_BIT_KHR
    return (getInt(0x9533 /* GL_SUBGROUP_SUPPORTED_STAGES_KHR */) & kComputeBit) &&
           (getInt(0x9534 /* _FEATURES_KHR */) & kFeatures) == kFeatures;
}
#endif

Capabilities queryCapabilities() {
    const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    if (!version)
        throw Error(ErrorCode::Unsupported,
                    "no GL context is current on this thread; create one (HeadlessContext, GLFW, emscripten_webgl_*) "
                    "and make it current before creating a Device");
    Capabilities c;
    c.version = version;
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    c.renderer = renderer ? renderer : "";
    // "OpenGL ES 3.2 Mesa ...", "WebGL 2.0 (OpenGL ES 3.0 ...)" or "4.5 (Core Profile) Mesa ...".
    const char* es = std::strstr(version, "OpenGL ES ");
    c.es = es != nullptr || std::strncmp(version, "WebGL", 5) == 0;
#ifdef __EMSCRIPTEN__
    c.es = true;
    c.major = 3;
    c.minor = 0;
#else
    if (std::sscanf(es ? es + 10 : version, "%d.%d", &c.major, &c.minor) != 2)
        throw Error(ErrorCode::Unsupported, "cannot parse GL_VERSION '" + c.version + "'");
#endif
    bool ok = c.es ? c.major >= 3 : c.major >= 4;
    if (!ok)
        throw Error(ErrorCode::Unsupported, "context '" + c.version +
                                                "' is too old: xfb needs OpenGL 4.0+ (transform feedback objects), "
                                                "OpenGL ES 3.0+ or WebGL2");
    c.compute = c.es ? (c.major > 3 || c.minor >= 1) : (c.major > 4 || c.minor >= 3);
    c.drawTransformFeedback = !c.es;
    c.feedbackLayoutWords = !c.es;
    c.limits.maxVertexAttribs = getInt(GL_MAX_VERTEX_ATTRIBS);
    c.limits.maxSeparateComponents = getInt(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS);
    c.limits.maxSeparateAttribs = getInt(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS);
    c.limits.maxInterleavedComponents = getInt(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS);
    // Rows of 4 components for the vertex outputs: ES names it; desktop GL counts components (GL 3.2).
    // Desktop GL counts gl_Position in MAX_VERTEX_OUTPUT_COMPONENTS (NVIDIA refuses 32 vec4 outputs
    // and gl_Position in 128: "too many result variable components written"); ES's
    // MAX_VARYING_VECTORS leaves it out. One vector is kept for it.
    c.limits.maxVaryingVectors =
        c.es ? getInt(GL_MAX_VARYING_VECTORS) : getInt(GL_MAX_VERTEX_OUTPUT_COMPONENTS) / 4 - 1;
#ifndef __EMSCRIPTEN__
    // Geometry shaders: desktop GL 3.2+ (every context xfb takes), ES 3.2, or the ES 3.1 extensions.
    c.geometry = !c.es || c.major > 3 || c.minor >= 2 || hasExtension("GL_EXT_geometry_shader") ||
                 hasExtension("GL_OES_geometry_shader");
    if (c.geometry) {
        c.geometryLimits.maxOutputVertices = getInt(GL_MAX_GEOMETRY_OUTPUT_VERTICES);
        c.geometryLimits.maxInvocations = getInt(GL_MAX_GEOMETRY_SHADER_INVOCATIONS);
        c.geometryLimits.maxTotalOutputComponents = getInt(GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS);
        // ES has no vertex streams (no GL_MAX_VERTEX_STREAMS): stream 0 only.
        c.geometryLimits.maxStreams = c.es ? 1 : getInt(GL_MAX_VERTEX_STREAMS);
    }
    if (c.compute) {
        GLint x = 0;
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &x);
        c.maxComputeGroupSizeX = x;
        GLint count = 0;
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &count);
        c.maxComputeGroupCountX = count;
        glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &count);
        c.maxComputeGroupCountY = count;
        c.maxComputeInvocations = getInt(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
        c.maxComputeStorageBlocks = getInt(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
        c.subgroupArithmetic = hasSubgroupArithmetic();
    }
#endif
    gl::check("querying limits");
    return c;
}

} // namespace

Device::Device() : Device(DeviceOptions{}) {}

Device::Device(DeviceOptions options) : state_(std::make_shared<detail::DeviceState>()) {
    state_->ownsContext = options.ownsContext;
    gl::StateGuard guard(*state_, gl::TakeForeignErrors);
    state_->caps = queryCapabilities();
}

std::vector<unsigned> Device::takeForeignErrors() {
    std::vector<unsigned> out(state_->foreignErrors.begin(), state_->foreignErrors.end());
    state_->foreignErrors.clear();
    return out;
}

const Capabilities& Device::capabilities() const { return state_->caps; }

void detail::DeviceState::requireContext(const char* what, bool pausedAllowed) const {
    if (lost)
        throw Error(ErrorCode::ContextLost,
                    std::string(what) +
                        ": the GL context is lost; wait until it is restored (Device::contextRestored)");
    gl::refuseApplicationFeedback(what, pausedAllowed);
}

void Device::contextLost() { state_->lost = true; }
bool Device::isContextLost() const { return state_->lost; }
void Device::finish() const { gl::finishWithFence(); }

void Device::contextRestored() {
    auto& d = *state_;
    d.lost = false;
    gl::StateGuard guard(d, gl::kAllState | gl::TakeForeignErrors);
    // The old names died with the context: every object forgets them rather than deleting them,
    // then each is made again in enrolment order (buffers and programs before what uses them).
    // Restoring may destroy parts (a pipeline's compute pass, already forgotten) and enroll
    // new ones (already current): only those still enrolled from before are restored.
    const std::vector<detail::Recoverable*> before = d.recoverables;
    for (auto* r : before) r->forget();
    for (auto* r : before)
        if (std::find(d.recoverables.begin(), d.recoverables.end(), r) != d.recoverables.end()) r->restore();
}

} // namespace xfb
