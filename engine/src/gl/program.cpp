#include "gl/gl_check.hpp"
#include "gl/access.hpp"
#include "gl/state_guard.hpp"
#include "gl/shader.hpp"
#include "gl/state.hpp"
#include "plan/text.hpp"
#include "plan/vertex_wrapper.hpp"
#include "xfb/error.hpp"
#include "xfb/glsl_dialect.hpp"
#include "xfb/program.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace xfb {

namespace detail {

void uploadUniform(GLint location, GLenum type, int components, const std::vector<std::byte>& value) {
    GLsizei n = GLsizei(value.size() / 4 / std::size_t(components));
    const auto* f = reinterpret_cast<const GLfloat*>(value.data());
    const auto* i = reinterpret_cast<const GLint*>(value.data());
    const auto* ui = reinterpret_cast<const GLuint*>(value.data());
    switch (type) {
        case GL_FLOAT: XFB_GL_COUNTED(glUniform1fv(location, n, f)); break;
        case GL_FLOAT_VEC2: XFB_GL_COUNTED(glUniform2fv(location, n, f)); break;
        case GL_FLOAT_VEC3: XFB_GL_COUNTED(glUniform3fv(location, n, f)); break;
        case GL_FLOAT_VEC4: XFB_GL_COUNTED(glUniform4fv(location, n, f)); break;
        case GL_INT:
        case GL_BOOL: XFB_GL_COUNTED(glUniform1iv(location, n, i)); break;
        case GL_INT_VEC2:
        case GL_BOOL_VEC2: XFB_GL_COUNTED(glUniform2iv(location, n, i)); break;
        case GL_INT_VEC3:
        case GL_BOOL_VEC3: XFB_GL_COUNTED(glUniform3iv(location, n, i)); break;
        case GL_INT_VEC4:
        case GL_BOOL_VEC4: XFB_GL_COUNTED(glUniform4iv(location, n, i)); break;
        case GL_UNSIGNED_INT: XFB_GL_COUNTED(glUniform1uiv(location, n, ui)); break;
        case GL_UNSIGNED_INT_VEC2: XFB_GL_COUNTED(glUniform2uiv(location, n, ui)); break;
        case GL_UNSIGNED_INT_VEC3: XFB_GL_COUNTED(glUniform3uiv(location, n, ui)); break;
        case GL_UNSIGNED_INT_VEC4: XFB_GL_COUNTED(glUniform4uiv(location, n, ui)); break;
        case GL_FLOAT_MAT2: XFB_GL_COUNTED(glUniformMatrix2fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT3: XFB_GL_COUNTED(glUniformMatrix3fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT4: XFB_GL_COUNTED(glUniformMatrix4fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT2x3: XFB_GL_COUNTED(glUniformMatrix2x3fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT2x4: XFB_GL_COUNTED(glUniformMatrix2x4fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT3x2: XFB_GL_COUNTED(glUniformMatrix3x2fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT3x4: XFB_GL_COUNTED(glUniformMatrix3x4fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT4x2: XFB_GL_COUNTED(glUniformMatrix4x2fv(location, n, GL_FALSE, f)); break;
        case GL_FLOAT_MAT4x3: XFB_GL_COUNTED(glUniformMatrix4x3fv(location, n, GL_FALSE, f)); break;
        default: XFB_GL_COUNTED(glUniform1iv(location, n, i)); break; // samplers: a texture unit
    }
}

void ProgramState::mirrorValues(const ProgramState& source) {
    if (versions == source.versions) return;
    for (auto& [name, u] : uniforms)
        if (auto it = source.uniforms.find(name); it != source.uniforms.end() && it->second.version != u.version) {
            u.value = it->second.value;
            u.version = it->second.version;
        }
    versions = source.versions;
}

void ProgramState::flushUniforms() { mirror.flush(uniforms, versions); }

bool setUniformValue(Uniform& u, std::uint64_t& total, std::span<const std::byte> bytes) {
    if (u.value.size() == bytes.size() && std::memcmp(u.value.data(), bytes.data(), bytes.size()) == 0) return false;
    u.value.assign(bytes.begin(), bytes.end());
    u.version = ++total;
    return true;
}

} // namespace detail

namespace gl {
void UniformMirror::flush(const detail::UniformValues& values, std::uint64_t total) {
    if (appliedTotal_ == total) return;
    for (auto& slot : slots_) {
        auto it = values.find(slot.name);
        if (it == values.end() || it->second.version == slot.applied) continue;
        const detail::Uniform& u = it->second;
        detail::uploadUniform(slot.location, u.type, u.components, u.value);
        slot.applied = u.version;
    }
    appliedTotal_ = total;
}
void UniformMirror::markApplied(std::string_view name, std::uint64_t version) {
    for (auto& slot : slots_)
        if (slot.name == name) slot.applied = version;
}
} // namespace gl

namespace detail {} // namespace detail

namespace {

struct UniformShape {
    ScalarKind kind;
    int components;
};

UniformShape shapeOf(GLenum type) {
    switch (type) {
        case GL_FLOAT: return {ScalarKind::Float, 1};
        case GL_FLOAT_VEC2: return {ScalarKind::Float, 2};
        case GL_FLOAT_VEC3: return {ScalarKind::Float, 3};
        case GL_FLOAT_VEC4: return {ScalarKind::Float, 4};
        case GL_FLOAT_MAT2: return {ScalarKind::Float, 4};
        case GL_FLOAT_MAT3: return {ScalarKind::Float, 9};
        case GL_FLOAT_MAT4: return {ScalarKind::Float, 16};
        case GL_FLOAT_MAT2x3:
        case GL_FLOAT_MAT3x2: return {ScalarKind::Float, 6};
        case GL_FLOAT_MAT2x4:
        case GL_FLOAT_MAT4x2: return {ScalarKind::Float, 8};
        case GL_FLOAT_MAT3x4:
        case GL_FLOAT_MAT4x3: return {ScalarKind::Float, 12};
        case GL_INT: return {ScalarKind::Int, 1};
        case GL_INT_VEC2: return {ScalarKind::Int, 2};
        case GL_INT_VEC3: return {ScalarKind::Int, 3};
        case GL_INT_VEC4: return {ScalarKind::Int, 4};
        case GL_UNSIGNED_INT: return {ScalarKind::UInt, 1};
        case GL_UNSIGNED_INT_VEC2: return {ScalarKind::UInt, 2};
        case GL_UNSIGNED_INT_VEC3: return {ScalarKind::UInt, 3};
        case GL_UNSIGNED_INT_VEC4: return {ScalarKind::UInt, 4};
        case GL_BOOL: return {ScalarKind::Int, 1};
        case GL_BOOL_VEC2: return {ScalarKind::Int, 2};
        case GL_BOOL_VEC3: return {ScalarKind::Int, 3};
        case GL_BOOL_VEC4: return {ScalarKind::Int, 4};
        default: return {ScalarKind::Int, 1}; // samplers and images: set with the texture unit, an int
    }
}

// The GL type of a declared uniform the linker did not keep (GL_FLOAT_VEC3 ...); 0 if none.
GLenum glTypeOf(const GlslType& t) {
    static const GLenum floats[4][4] = {{GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4},
                                        {0, GL_FLOAT_MAT2, GL_FLOAT_MAT2x3, GL_FLOAT_MAT2x4},
                                        {0, GL_FLOAT_MAT3x2, GL_FLOAT_MAT3, GL_FLOAT_MAT3x4},
                                        {0, GL_FLOAT_MAT4x2, GL_FLOAT_MAT4x3, GL_FLOAT_MAT4}};
    static const GLenum ints[4] = {GL_INT, GL_INT_VEC2, GL_INT_VEC3, GL_INT_VEC4};
    static const GLenum uints[4] = {GL_UNSIGNED_INT, GL_UNSIGNED_INT_VEC2, GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT_VEC4};
    static const GLenum bools[4] = {GL_BOOL, GL_BOOL_VEC2, GL_BOOL_VEC3, GL_BOOL_VEC4};
    if (t.rows < 1 || t.rows > 4 || t.columns < 1 || t.columns > 4) return 0;
    switch (t.kind) {
        case ScalarKind::Float: return floats[t.columns - 1][t.rows - 1];
        case ScalarKind::Int: return t.columns == 1 ? ints[t.rows - 1] : 0;
        case ScalarKind::UInt: return t.columns == 1 ? uints[t.rows - 1] : 0;
        case ScalarKind::Bool: return t.columns == 1 ? bools[t.rows - 1] : 0;
        default: return 0;
    }
}

std::string kindName(ScalarKind k) {
    switch (k) {
        case ScalarKind::Float: return "float";
        case ScalarKind::Int: return "int";
        case ScalarKind::UInt: return "uint";
        default: return "opaque";
    }
}

// Inserts `#define`s after the #version line, then `#line 2` so GL's log keeps the user's numbering.
std::string withDefines(const std::string& source, const std::map<std::string, std::string>& defines) {
    if (defines.empty()) return source;
    std::string block;
    for (auto& [k, v] : defines) block += "#define " + k + " " + v + "\n";
    auto versionPos = source.find("#version");
    if (versionPos == std::string::npos) return block + "#line 1\n" + source;
    auto eol = source.find('\n', versionPos);
    if (eol == std::string::npos) return source + "\n" + block;
    int versionLine = int(std::count(source.begin(), source.begin() + long(eol), '\n')) + 1;
    return source.substr(0, eol + 1) + block + "#line " + std::to_string(versionLine + 1) + "\n" +
           source.substr(eol + 1);
}

// The smallest fragment shader of the vertex shader's dialect: ES 3.0 cannot link without one.
std::string fragmentFor(int version, bool es) {
    std::string header = "#version " + std::to_string(version) + (es ? " es\nprecision mediump float;\n" : "\n");
    return header + "out vec4 xfb_unused_color;\nvoid main() { xfb_unused_color = vec4(0.0); }\n";
}

#ifndef __EMSCRIPTEN__ // geometry programs: not on WebGL2
// `source` with its `#version` line (the first one) saying `version` instead (GLSL ES links only
// shaders of one version); unchanged without one.
std::string withVersion(const std::string& source, int version, bool es) {
    auto at = source.find("#version");
    if (at == std::string::npos) return source;
    auto eol = source.find('\n', at);
    return source.substr(0, at) + "#version " + std::to_string(version) + (es ? " es" : "") +
           (eol == std::string::npos ? "\n" : source.substr(eol));
}
#endif

} // namespace

namespace detail {

void ProgramState::link() {
    if (geometry) return linkGeometry();
    const std::string& label = desc.label;
    // Legacy GLSL ES 1.00 is compiled as ES 3.00: desktop core contexts reject it as it is.
    bool legacy = shader.version == 100;
    // The xfb_* qualifiers are the plan's to write (CapturePlan::declared), not the compiler's.
    const std::string source = withDefines(withoutXfbQualifiers(toGlslEs300(desc.source)), desc.read.defines);
    // Arrays as their elements, or packed in separate mode: ANGLE refuses whole arrays. A declared
    // layout's gaps as gl_SkipComponents where the context has them.
    plan::DriverList list;
    feedbackRefusal.clear();
    try {
        list =
            plan::driverList(capture, device->caps.feedbackLayoutWords, device->caps.limits.maxInterleavedComponents);
    } catch (const Error& e) {
        if (e.code() != ErrorCode::Unsupported) throw;
        feedbackRefusal = "program '" + label + "': " + e.message();
    }
    staged = list.staged;
    const std::vector<plan::DriverVarying>& driver = list.varyings;
    auto build = [&](const std::string& vertex) {
        return gl::linkProgram({{GL_VERTEX_SHADER, vertex, "vertex shader '" + label + "'"},
                                fragmentStage(legacy ? 300 : shader.version, legacy || shader.es)},
                               [&](GLuint p) {
                                   for (const auto& a : attributes)
                                       if (!a.explicitLocation)
                                           glBindAttribLocation(p, GLuint(a.location), a.name.c_str());
                                   std::vector<std::string> names;
                                   for (const auto& v : driver) names.push_back(v.name);
                                   gl::feedbackVaryings(p, names, list.interleaved);
                               });
    };
    // Owned by this state from here: deleted with it if we throw. Compiled inside the engine's
    // main(), which zeroes the captured outputs first (plan/vertex_wrapper.hpp). When that does not
    // compile, the user's source as it is gives the verdict: its own compile error, a missing main()
    // (ProgramLink) or a captured output the GL compiler does not see (VaryingOptimizedAway, below).
    std::optional<Error> wrapperFailed;
    try {
        program = build(plan::wrapVertexMain(source, shader, capture));
    } catch (const Error& e) {
        if (e.code() != ErrorCode::ShaderCompile) throw;
        wrapperFailed = e;
        program = build(source);
    }
    checkLink(driver);
    // The user's source links with every captured varying, but not inside the engine's main(): a bug.
    if (wrapperFailed)
        throw Error(ErrorCode::Internal,
                    "program '" + label +
                        "' compiles alone but not inside the main() that zeroes its captured outputs: " +
                        wrapperFailed->message() + ". Please report it with the shader");
    readUniforms();
}

gl::StageSource ProgramState::fragmentStage(int version, bool es) const {
    if (desc.fragment.empty())
        return {GL_FRAGMENT_SHADER, fragmentFor(version, es), "the fragment shader generated for '" + desc.label + "'"};
    return {GL_FRAGMENT_SHADER, withDefines(desc.fragment, desc.read.defines),
            plan::cat({"fragment shader '", desc.label, "'"})};
}

void ProgramState::linkGeometry() {
#ifdef __EMSCRIPTEN__
    throw Error(ErrorCode::GeometryUnsupported, "WebGL2 has no geometry shaders"); // refused by Program() first
#else
    const std::string& label = desc.label;
    const ShaderInterface& gs = geometry->shader;
    feedbackRefusal.clear();
    staged = false;
    if (!device->caps.geometry) {
        // No geometry shaders (compute only): the program holds the vertex shader, for its
        // uniforms; captures run as compute passes (PrimitiveCapture, Backend::Compute).
        program = gl::linkProgram(
            {{GL_VERTEX_SHADER, withDefines(toGlslEs300(desc.source), desc.read.defines),
              "vertex shader '" + label + "'"},
             fragmentStage(shader.version == 100 ? 300 : shader.version, shader.version == 100 || shader.es)},
            [&](GLuint p) {
                for (const auto& a : attributes)
                    if (!a.explicitLocation) glBindAttribLocation(p, GLuint(a.location), a.name.c_str());
            });
        if (auto failure = gl::linkFailure(program))
            throw Error(ErrorCode::ProgramLink,
                        "program '" + label + "' does not link; the GL linker says: " + *failure);
        readUniforms();
        return;
    }
    // Every varying by its name, gl_NextBuffer between the streams' buffers: no wrapper in a geometry shader.
    const plan::DriverList list = plan::geometryDriverList(capture, device->caps.feedbackLayoutWords);
    std::string vertex = withDefines(toGlslEs300(desc.source), desc.read.defines);
    // GLSL ES links only shaders of one version: the vertex shader takes the geometry shader's.
    const bool legacy = shader.version == 100;
    if (gs.es && ((legacy ? 300 : shader.version) != gs.version || !(legacy || shader.es)))
        vertex = withVersion(vertex, gs.version, true);
    program = gl::linkProgram({{GL_VERTEX_SHADER, vertex, "vertex shader '" + label + "'"},
                               {GL_GEOMETRY_SHADER, withDefines(withoutXfbQualifiers(desc.geometry), desc.read.defines),
                                "geometry shader '" + label + "'"},
                               fragmentStage(gs.version, gs.es)},
                              [&](GLuint p) {
                                  for (const auto& a : attributes)
                                      if (!a.explicitLocation)
                                          glBindAttribLocation(p, GLuint(a.location), a.name.c_str());
                                  std::vector<std::string> names;
                                  for (const auto& v : list.varyings) names.push_back(v.name);
                                  gl::feedbackVaryings(p, names, list.interleaved);
                              });
    checkLink(list.varyings);
    readUniforms();
#endif
}

void ProgramState::checkLink(const std::vector<plan::DriverVarying>& driver) {
    const std::string& label = desc.label;
    if (auto failure = gl::linkFailure(program)) {
        const std::string& log = *failure;
        for (const auto& v : capture.varyings)
            if (log.find(v.name) != std::string::npos)
                throw Error(
                    ErrorCode::VaryingOptimizedAway,
                    "program '" + label + "': the GL linker has no output '" + v.name +
                        "' to capture, although the declaration reader found it (line " + std::to_string(v.line) +
                        "). Is it in an #if branch that depends on a macro only the GL compiler defines? Linker log: " +
                        log);
        throw Error(ErrorCode::ProgramLink, "program '" + label + "' does not link; the GL linker says: " + log);
    }

    // The linker must have kept every captured varying, in our order, with our sizes and
    // components: what driverList() asked for, so the driver writes the planned layout or we say so.
    GLint count = 0;
    glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
    for (std::size_t k = 0; k < driver.size(); ++k) {
        char name[256] = {};
        GLsizei size = 0;
        GLenum type = 0;
        if (GLint(k) < count)
            glGetTransformFeedbackVarying(program, GLuint(k), sizeof name, nullptr, &size, &type, name);
        const plan::DriverVarying& d = driver[k];
        const bool word = d.components == 0; // gl_SkipComponentsN, gl_NextBuffer: checked by name
        if (GLint(k) < count && d.name == name &&
            (word || (size == d.size && shapeOf(type).components == d.components)))
            continue;
        const std::string varying = word ? d.name : d.varying;
        const std::string as = d.name != varying ? " (captured as '" + d.name + "')" : "";
        throw Error(ErrorCode::VaryingOptimizedAway,
                    "program '" + label + "': captured " + (word ? "layout word '" : "varying '") + varying + "'" + as +
                        (word ? "" : " (" + std::to_string(d.components) + " components)") +
                        " is not what the linker kept at place " + std::to_string(k) + " of " + std::to_string(count) +
                        (name[0] ? " (it reports '" + std::string(name) + "', size " + std::to_string(size) + ", " +
                                       std::to_string(shapeOf(type).components) + " components)"
                                 : "") +
                        "; make sure the shader declares and writes it with the planned type");
    }
    for (const auto& a : attributes) {
        GLint loc = glGetAttribLocation(program, a.name.c_str());
        if (loc >= 0 && loc != a.location)
            throw Error(ErrorCode::ProgramLink, "program '" + label + "': the linker placed input '" + a.name +
                                                    "' at location " + std::to_string(loc) + " instead of " +
                                                    std::to_string(a.location) + " (" + semanticName(a.semantic) + ")");
    }
}

void ProgramState::readUniforms() {
    const std::string& label = desc.label;
    GLint active = 0;
    glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
    mirror.clear(); // every value is uploaded again at the next pass
    for (GLint i = 0; i < active; ++i) {
        char name[256] = {};
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(program, GLuint(i), sizeof name, nullptr, &size, &type, name);
        GLint location = glGetUniformLocation(program, name);
        if (location < 0) continue; // in a uniform block
        std::string key = name;
        if (key.size() > 3 && key.ends_with("[0]")) key.resize(key.size() - 3);
        auto shape = shapeOf(type);
        Uniform& u = uniforms[key]; // after a context loss the values set earlier are kept
        u.location = location;
        u.type = type;
        u.kind = shape.kind;
        u.components = shape.components;
        u.arraySize = size;
        mirror.track(key, location);
    }
    // Declared uniforms the linker removed may still be used by a generated compute pass (e.g.
    // only by emitted outputs, which transform feedback does not capture): keep their values.
    auto keep = [&](const Declaration& d) {
        GLenum type = glTypeOf(d.type);
        if (uniforms.count(d.name) || !type) return;
        auto shape = shapeOf(type);
        uniforms[d.name] = {-1, type, shape.kind, shape.components, d.elementCount(), {}, 0};
    };
    for (const auto& d : shader.uniforms) keep(d);
    // A geometry shader's too: its compute translation (Backend::Compute) may be all that uses them.
    if (geometry)
        for (const auto& d : geometry->shader.uniforms) keep(d);
    gl::check(("linking program '" + label + "'").c_str());
}

} // namespace detail

Program::Program(const Device& device, ProgramDesc desc) {
    detail::Access::state(device)->requireContext("creating a Program");
    auto s = std::make_shared<detail::ProgramState>();
    s->device = detail::Access::state(device);
    const Limits& limits = device.limits();
    if (desc.label.empty()) desc.label = "program";
    const Capabilities& caps = s->device->caps;
    // WebGL2 has no geometry shaders (caps.geometry is false): its module holds no geometry planner.
    // Without geometry shaders but with compute (ES 3.1 without GL_EXT_geometry_shader), a
    // geometry program is planned and captured as compute passes (PrimitiveCapture, Backend::Compute).
    if (!desc.geometry.empty() && !caps.geometry && !(detail::kNativeGL && caps.compute))
        throw Error(ErrorCode::GeometryUnsupported,
                    "program '" + desc.label + "' has a geometry shader, but this runtime ('" + caps.version +
                        "') has none: OpenGL ES 3.0 and WebGL2 end at the vertex shader. Run it on desktop OpenGL "
                        "4.0+ (every vertex stream) or OpenGL ES 3.2 (stream 0 only), on a context with compute "
                        "shaders (OpenGL 4.3+ / ES 3.1+: captured as compute passes), or emit the records from the "
                        "vertex shader (emitted outputs, compute backend)");
    s->shader = readShaderInterface(desc.source, desc.read);
    s->attributes = planAttributes(s->shader, limits);
#ifndef __EMSCRIPTEN__
    if (!desc.geometry.empty()) {
        GeometryInterface geometry = readGeometryInterface(desc.geometry, desc.read);
        s->capture = planGeometryCapture(geometry.shader, desc.capture, limits);
        GeometryPlan plan = planGeometry(geometry, s->capture, caps.geometryLimits);
        s->geometry = std::make_shared<const detail::ProgramState::Geometry>(
            detail::ProgramState::Geometry{std::move(geometry.shader), std::move(plan)});
    } else
#endif
        s->capture = planCapture(s->shader, desc.capture, limits);
    s->desc = std::move(desc);

    {
        gl::StateGuard guard(*s->device, gl::TakeForeignErrors);
        s->link();
    }
    s->enroll(s->device);
    state_ = std::move(s);
}

Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

static detail::ProgramState& live(const std::shared_ptr<detail::ProgramState>& s) {
    return detail::liveState(s, "Program");
}

const ShaderInterface& Program::shader() const { return live(state_).shader; }
const std::vector<AttributeSlot>& Program::attributes() const { return live(state_).attributes; }
const CapturePlan& Program::capture() const { return live(state_).capture; }
const GeometryPlan* Program::geometry() const {
    const auto& s = live(state_);
    return s.geometry ? &s.geometry->plan : nullptr;
}
const ShaderInterface* Program::geometryShader() const {
    const auto& s = live(state_);
    return s.geometry ? &s.geometry->shader : nullptr;
}
unsigned Program::glName() const { return live(state_).program.get(); }

void Program::setUniform(std::string_view name, ScalarKind kind, std::span<const std::byte> values) {
    auto& s = live(state_);
    auto it = s.uniforms.find(name);
    if (it == s.uniforms.end()) {
        std::string known;
        for (auto& [n, u] : s.uniforms) known += (known.empty() ? "" : ", ") + n;
        throw Error(ErrorCode::UnknownUniform, "program '" + s.desc.label + "' declares no uniform '" +
                                                   std::string(name) + "'" +
                                                   "; uniforms: " + (known.empty() ? "none" : known));
    }
    detail::Uniform& u = it->second;
    int given = int(values.size() / 4);
    if (u.kind != kind || given % u.components != 0 || given > u.components * u.arraySize || given == 0)
        throw Error(ErrorCode::UniformType,
                    "uniform '" + std::string(name) + "' is " + kindName(u.kind) + "x" + std::to_string(u.components) +
                        (u.arraySize > 1 ? "[" + std::to_string(u.arraySize) + "]" : "") +
                        (u.kind == kind
                             ? std::string(" but the value has ") + std::to_string(given) + " numbers"
                             : std::string(" but the value is ") + kindName(kind) + "x" + std::to_string(given)));
    u.value.assign(values.begin(), values.end());
    u.version = ++s.versions; // set again even when equal: one glUniform call, as before
}

template<class T>
static std::span<const std::byte> bytesOf(const T& v) {
    return std::as_bytes(std::span<const T>(&v, 1));
}

void Program::setUniform(std::string_view n, float v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }
void Program::setUniform(std::string_view n, int v) { setUniform(n, ScalarKind::Int, bytesOf(v)); }
void Program::setUniform(std::string_view n, unsigned v) { setUniform(n, ScalarKind::UInt, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::vec2& v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::vec3& v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::vec4& v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::ivec2& v) { setUniform(n, ScalarKind::Int, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::ivec3& v) { setUniform(n, ScalarKind::Int, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::ivec4& v) { setUniform(n, ScalarKind::Int, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::mat3& v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }
void Program::setUniform(std::string_view n, const glm::mat4& v) { setUniform(n, ScalarKind::Float, bytesOf(v)); }

} // namespace xfb
