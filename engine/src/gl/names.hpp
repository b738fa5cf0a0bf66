#pragma once
// Internal: one small owner per kind of GL object name (buffer, program, shader, vertex array,
// transform feedback, query, texture, sync). Move-only; deletes its object when destroyed or
// reassigned. Every GL name member of gl/, capture/ and compute/ is one of these, so no class
// writes a destructor that deletes names by hand.
//   create(): glGen* / glCreate* of one object; adopt(name): take ownership of a name made
//   elsewhere; release(): give the name up without deleting it; forget(): drop a name that died
//   with a lost context (deleting it would touch a name the new context may have reused).
#include "gl/gl_api.hpp"

#include <utility>

namespace xfb::gl {

template<class Kind>
class Owned {
public:
    using Handle = typename Kind::Handle;

    Owned() = default;
    /// A new object (glGen* / glCreate*); `args` go to the creating call (a shader's stage).
    template<class... Args>
    static Owned create(Args... args) {
        return adopt(Kind::create(args...));
    }
    /// Owns `handle` from now on: deleted with this owner.
    static Owned adopt(Handle handle) {
        Owned o;
        o.handle_ = handle;
        return o;
    }

    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    ~Owned() { reset(); }

    Handle get() const { return handle_; }
    /// The name, for GL calls (glBindBuffer(target, buffer)); the owner keeps it. Not from a
    /// temporary owner: `GLuint n = linkComputeProgram(...)` would delete the object at once.
    operator Handle() const& { return handle_; }
    operator Handle() && = delete;
    /// The name, no longer owned: the caller deletes it.
    [[nodiscard]] Handle release() { return std::exchange(handle_, Handle{}); }
    /// Drops the name without a GL call (after a context loss: the object died with the context).
    void forget() { handle_ = Handle{}; }
    /// Deletes the object now (nothing when empty).
    void reset() {
        if (handle_ != Handle{}) Kind::destroy(handle_);
        handle_ = Handle{};
    }

private:
    Handle handle_{};
};

namespace kinds {
/// The kinds made by glGen*(1, &name) and deleted by glDelete*(1, &name).
template<auto Gen, auto Delete>
struct Generated {
    using Handle = GLuint;
    static GLuint create() {
        GLuint n = 0;
        Gen(1, &n);
        return n;
    }
    static void destroy(GLuint n) { Delete(1, &n); }
};
using Buffer = Generated<glGenBuffers, glDeleteBuffers>;
using VertexArray = Generated<glGenVertexArrays, glDeleteVertexArrays>;
using TransformFeedback = Generated<glGenTransformFeedbacks, glDeleteTransformFeedbacks>;
using Query = Generated<glGenQueries, glDeleteQueries>;
using Texture = Generated<glGenTextures, glDeleteTextures>;
using Framebuffer = Generated<glGenFramebuffers, glDeleteFramebuffers>;
struct Program {
    using Handle = GLuint;
    static GLuint create() { return glCreateProgram(); }
    static void destroy(GLuint n) { glDeleteProgram(n); }
};
struct Shader {
    using Handle = GLuint;
    static GLuint create(GLenum stage) { return glCreateShader(stage); }
    static void destroy(GLuint n) { glDeleteShader(n); }
};
struct Sync {
    using Handle = GLsync;
    static GLsync create() { return glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0); }
    static void destroy(GLsync s) { glDeleteSync(s); }
};
} // namespace kinds

using BufferName = Owned<kinds::Buffer>;
using ProgramName = Owned<kinds::Program>;
using ShaderName = Owned<kinds::Shader>;
using VertexArrayName = Owned<kinds::VertexArray>;
using TransformFeedbackName = Owned<kinds::TransformFeedback>;
using QueryName = Owned<kinds::Query>;
using TextureName = Owned<kinds::Texture>;
using FramebufferName = Owned<kinds::Framebuffer>;
using SyncObject = Owned<kinds::Sync>; ///< a fence: create() is glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE)

} // namespace xfb::gl
