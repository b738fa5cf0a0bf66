#pragma once
// Internal: the shared state behind Device, Buffer and Program handles. Handles hold
// shared_ptrs, so a Pipeline keeps what it uses alive even if the user's handle goes away.

#include "gl/gl_api.hpp"
#include "gl/names.hpp"
#include "gl/recoverable.hpp"
#include "gl/shader.hpp"
#include "plan/vertex_wrapper.hpp"
#include "gl/uniform_mirror.hpp"
#include "xfb/attribute_plan.hpp"
#include "xfb/capture_plan.hpp"
#include "xfb/device.hpp"
#include "xfb/program.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace xfb::detail {

/// Whether this build drives a native context (desktop GL, OpenGL ES), not WebGL2: geometry programs
/// (ProgramDesc::geometry) and captures that keep rasterizing (ProgramDesc::fragment) exist only
/// there (WebGL2 has no geometry shaders, and its captures use the engine's expansion), so the
/// WebAssembly module holds none of their code (web.size).
#ifdef __EMSCRIPTEN__
inline constexpr bool kNativeGL = false;
#else
inline constexpr bool kNativeGL = true;
#endif

struct BufferState;
struct ProgramState;

struct DeviceState {
    Capabilities caps;
    /// Backend::Auto decisions, per simulation shape, measured once per context.
    std::map<std::string, std::pair<int, std::string>> autoDecisions; // key -> (Backend, reason)
    bool lost = false;
    /// DeviceOptions::ownsContext: no save/restore of the state engines cache (see gl/state_guard.hpp).
    bool ownsContext = false;
    /// GL errors that were pending when an error-checking xfb call began: the application's, kept
    /// here (oldest first, at most 16) instead of being blamed on xfb or dropped. Device::takeForeignErrors().
    std::vector<GLenum> foreignErrors;
    /// Every GL-owning object, in enrolment order: forgotten and restored after a context loss.
    std::vector<Recoverable*> recoverables;

    /// Whether xfb may start GL work now; every public entry point that touches GL state calls it
    /// first: the context is not lost, and the application's transform feedback is not active or
    /// paused (gl::refuseApplicationFeedback: one glGetBooleanv). `pausedAllowed`: a call that
    /// binds no program and draws nothing (creating or adopting a buffer) goes on while it is paused.
    /// @throws Error ContextLost, FeedbackActive naming `what`
    void requireContext(const char* what, bool pausedAllowed = false) const;
};

/// A copy of a buffer's bytes in another form, made by a backend that reads and writes it instead
/// of the buffer (the fragment backend's planes, fragment/plane_mirror.hpp), which writes the
/// bytes back when anything else needs them (BufferState::settle()).
struct BufferMirror : Recoverable {
    /// Writes the copy's bytes of elements [first, first + count) into the buffer `name` (a few more
    /// bytes of the same copy where the range does not end on a texel). Opens its own StateGuard.
    virtual void writeBack(DeviceState& device, GLuint name, std::int64_t first, std::int64_t count) = 0;
    const void* maker = nullptr; // what made it (the fragment backend's copier): the one that may read it
    bool dead = false;           // its GL objects died with a lost context (forget()): it holds nothing
};

struct BufferState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    gl::BufferName name;
    /// What travels with `name` when a state pair swaps (swapNames()): a copy of its bytes and
    /// whether the name was handed out.
    struct NameBound {
        std::unique_ptr<BufferMirror> mirror;
        bool current = false; // the mirror holds the name's bytes, or newer ones (stale)
        bool stale = false;   // the name lacks the mirror's newer bytes: settle() before it is read or bound
        // Handed out (Buffer::glName(), adoption, bindAsVertexInput): it may be read, drawn or written
        // behind xfb's back, so it is never left stale and never trusted to match a mirror (until a
        // state pair's step has read it: Buffer::glName()).
        bool exposed = false;
        bool adopted = false; // the application's object (Buffer::adopt): exposed for good
    } bound;
    VertexFormat format;
    std::int64_t count = 0;
    std::uint64_t bytes = 0;
    /// Bumped whenever `name` changes (a state pair's swap, a restored context): Buffer::generation().
    std::uint64_t generation = 0;
    int pipelines = 0;      // Pipelines holding it (per entry): detail::stepRecipe() refuses a shared buffer
    bool handedOut = false; // Buffer::glName() has answered once (natively it waited for the GPU then)
    bool owned = true;      // false: adopted (Buffer::adopt), never deleted or recreated by xfb
    ~BufferState() override {
        if (!owned) (void)name.release(); // the application's object
    }
    // Adopted buffers are never enrolled: the application adopts them again.
    void forget() override {
        name.forget();
        // The mirror is kept, dead: destroying an enrolled object while the device forgets them
        // all would pull it from under that loop (its backend replaces it at the next step).
        if (bound.mirror) bound.mirror->forget();
        bound.current = bound.stale = bound.exposed = false;
    }
    void restore() override; // glBufferData of the same size, contents undefined
    /// Makes `name` hold its bytes of elements [first, first + count) (all: count < 0), written back
    /// from the mirror when stale. Every reader of `name` but the mirror's backend calls it first,
    /// and so does every writer that leaves bytes as they were (a partial upload, gaps).
    void settle(std::int64_t first = 0, std::int64_t count = -1);
    /// After xfb wrote `name` other than through the mirror (settled first): the mirror is behind.
    void written() { bound.current = false; }
    /// The name, handed out to the application: settled, and exposed from now on.
    GLuint expose() {
        settle();
        bound.exposed = true;
        return name.get();
    }
};

/// A state pair's swap: the two buffers exchange their GL names and what travels with them.
inline void swapNames(BufferState& a, BufferState& b) {
    std::swap(a.name, b.name);
    std::swap(a.bound, b.bound);
}

struct Uniform {
    GLint location = -1;
    GLenum type = 0;
    ScalarKind kind = ScalarKind::Float;
    int components = 1; // per element (16 for mat4)
    int arraySize = 1;
    std::vector<std::byte> value;
    std::uint64_t version = 0; // bumped by every setUniform; what programs hold: gl::UniformMirror
};

/// Sets `u` to `bytes` unless it holds them already, bumping its version and `total` (the
/// values' total version). Returns whether it changed.
bool setUniformValue(Uniform& u, std::uint64_t& total, std::span<const std::byte> bytes);

/// glUniform*v for a value of `type` (GL_FLOAT_VEC3 ...) at `location`; the program must be current.
void uploadUniform(GLint location, GLenum type, int components, const std::vector<std::byte>& value);

struct ProgramState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    ProgramDesc desc;
    ShaderInterface shader;
    std::vector<AttributeSlot> attributes;
    CapturePlan capture;
    /// A geometry program (ProgramDesc::geometry): the geometry shader's declarations and plan;
    /// null without a geometry shader (one pointer: vertex programs carry nothing more).
    struct Geometry {
        ShaderInterface shader;
        GeometryPlan plan;
    };
    std::shared_ptr<const Geometry> geometry;
    /// Why transform feedback cannot write `capture` on this context (a declared layout with gaps
    /// on ES 3.0 / WebGL2: plan::driverList()); empty when it can. The program is then linked
    /// capturing nothing, for its uniforms and the compute backend, and the transform-feedback
    /// backend and primitive capture refuse with this message (ErrorCode::Unsupported).
    std::string feedbackRefusal;
    /// Transform feedback writes `capture` through a staging record and a packing pass
    /// (plan::DriverList::staged, gl/layout_packer.hpp): a declared layout with gaps on ES 3.0 / WebGL2.
    bool staged = false;
    gl::ProgramName program;
    std::map<std::string, Uniform, std::less<>> uniforms;
    std::uint64_t versions = 0; // total setUniform calls: lets backends skip the scan when unchanged
    gl::UniformMirror mirror;   // what `program` holds
    void forget() override { program.forget(); }
    void restore() override { link(); }
    /// glUniform* for every value changed since the last flush; the program must be current.
    void flushUniforms();
    /// Compiles and links `program` from the plans (also after a context loss).
    void link();
    /// link() of a geometry program: vertex, geometry and fragment shaders, varyings by name.
    void linkGeometry();
    /// After the link: the linker's verdict, the captured varyings it kept (`driver`, in order) and
    /// the attribute locations. @throws Error ProgramLink, VaryingOptimizedAway
    void checkLink(const std::vector<plan::DriverVarying>& driver);
    /// The active uniforms, after a link.
    void readUniforms();
    /// The fragment stage: ProgramDesc::fragment, or the generated one of `version`.
    gl::StageSource fragmentStage(int version, bool es) const;
    /// Takes the values `source` holds for the uniforms this program has (a generated variant of
    /// the same shader, e.g. fused substeps); flushUniforms() then uploads the changed ones.
    void mirrorValues(const ProgramState& source);
};

/// @throws Error Disposed when other code deleted the buffer's GL object (glIsBuffer is false),
/// e.g. an engine's dispose()/destroy() of a vertex buffer that wrapped it. `what` names the call.
void requireLiveBuffer(const BufferState& s, const std::string& what);
/// The byte offset and size of elements [first, first + count) of a buffer (partial reads).
/// @throws Error InvalidArgument naming the range and the buffer's count when it does not fit.
std::pair<std::uint64_t, std::uint64_t> elementRangeBytes(const BufferState& s, std::int64_t first, std::int64_t count,
                                                          const std::string& what);
/// The same for every non-null buffer of a role list.
void requireLiveBuffers(const std::vector<std::shared_ptr<BufferState>>& buffers, const std::string& what);
/// Before GL work other than a mirror's backend that reads `reads` and writes `writes` (non-null
/// entries): settles both (a write may leave bytes as they were) and marks the written ones'
/// mirrors behind (BufferState::settle(), written()).
void settleForWork(const std::vector<std::shared_ptr<BufferState>>& reads,
                   const std::vector<std::shared_ptr<BufferState>>& writes);

/// The GL size in bytes (GL_BUFFER_SIZE) of buffer object `name`, which other code may have changed
/// with glBufferData: glBindBuffer(target, name), glGetBufferParameteri64v (ES 3.0 / GL 3.2;
/// glGetBufferParameteriv on WebGL, whose sizes fit 31 bits), glBindBuffer(target, 0). The caller's
/// StateGuard saves `target`.
std::uint64_t glBufferSize(GLuint name, GLenum target);

/// GL objects of a buffer (glGenBuffers + glBufferData of `bytes`, contents from `data` or undefined).
void allocateBuffer(BufferState& s, const void* data);

} // namespace xfb::detail
