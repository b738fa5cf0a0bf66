#include "gl/readback.hpp"
#include "gl/access.hpp"
#include "gl/gl_check.hpp"
#include "gl/vertex_array.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "xfb/buffer.hpp"
#include "xfb/error.hpp"
#include "xfb/readback.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace xfb {

namespace detail {
void requireLiveBuffer(const BufferState& s, const std::string& what) {
    if (s.name && !glIsBuffer(s.name.get()))
        throw Error(
            ErrorCode::Disposed,
            what + ": the GL buffer object of this " + std::to_string(s.count) + "-element Buffer (GL name " +
                std::to_string(s.name.get()) +
                ") was deleted by other code, e.g. an engine's dispose()/destroy() of a "
                "vertex buffer or attribute that wrapped it. Detach xfb's buffers from the engine's objects before "
                "disposing them (docs/guide/sharing-a-context.md), and create this Buffer again");
}

std::pair<std::uint64_t, std::uint64_t> elementRangeBytes(const BufferState& s, std::int64_t first, std::int64_t count,
                                                          const std::string& what) {
    if (first < 0 || count < 0 || first > s.count || count > s.count - first)
        throw Error(ErrorCode::InvalidArgument,
                    what + ": first " + std::to_string(first) + ", count " + std::to_string(count) +
                        " does not fit this Buffer's " + std::to_string(s.count) +
                        " elements; give first >= 0, count >= 0 and first + count <= " + std::to_string(s.count));
    const std::uint64_t stride = s.format.stride;
    return {std::uint64_t(first) * stride, std::uint64_t(count) * stride};
}

void BufferState::settle(std::int64_t first, std::int64_t n) {
    if (!bound.stale || device->lost) return;
    if (bound.mirror->dead) { // died with the context, and the bytes with it
        bound.stale = false;
        return;
    }
    if (n < 0) n = count - first;
    bound.mirror->writeBack(*device, name.get(), first, n);
    if (first == 0 && n >= count) bound.stale = false;
}

void settleForWork(const std::vector<std::shared_ptr<BufferState>>& reads,
                   const std::vector<std::shared_ptr<BufferState>>& writes) {
    for (const auto& b : reads)
        if (b) b->settle();
    for (const auto& b : writes)
        if (b) b->settle(), b->written();
}

void requireLiveBuffers(const std::vector<std::shared_ptr<BufferState>>& buffers, const std::string& what) {
    for (const auto& b : buffers)
        if (b) requireLiveBuffer(*b, what);
}

std::uint64_t glBufferSize(GLuint name, GLenum target) {
    glBindBuffer(target, name);
#ifdef __EMSCRIPTEN__
    GLint size = 0;
    glGetBufferParameteriv(target, GL_BUFFER_SIZE, &size);
#else
    GLint64 size = 0;
    glGetBufferParameteri64v(target, GL_BUFFER_SIZE, &size);
#endif
    glBindBuffer(target, 0);
    return size > 0 ? std::uint64_t(size) : 0;
}

// Zeros on GL_COPY_WRITE_BUFFER's store: WebGL2 and WebGPU zero a new buffer, native GL leaves its
// bytes undefined (NVIDIA hands out recycled memory), and a program gives the same bytes on every
// runtime. glClearBufferData on GL 4.3+, else 1 MiB glBufferSubData chunks (ES 3.x has no clear).
static void zeroFill([[maybe_unused]] const Capabilities& caps, [[maybe_unused]] std::uint64_t bytes) {
#ifndef __EMSCRIPTEN__
    if (!caps.es && (caps.major > 4 || (caps.major == 4 && caps.minor >= 3))) {
        glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, nullptr);
        return;
    }
    const std::vector<std::byte> zeros(std::min<std::uint64_t>(bytes, 1u << 20));
    for (std::uint64_t at = 0; at < bytes; at += zeros.size())
        glBufferSubData(GL_COPY_WRITE_BUFFER, GLintptr(at),
                        GLsizeiptr(std::min<std::uint64_t>(zeros.size(), bytes - at)), zeros.data());
#endif
}

void allocateBuffer(BufferState& s, const void* data) {
    s.name = gl::BufferName::create();
    ++s.generation;
    glBindBuffer(GL_COPY_WRITE_BUFFER, s.name.get());
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(s.bytes), data, GL_DYNAMIC_COPY);
    if (!data) zeroFill(s.device->caps, s.bytes);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    gl::check("creating a buffer (glBufferData)");
}

void BufferState::restore() { allocateBuffer(*this, nullptr); }
} // namespace detail

Buffer::Buffer(const Device& device, VertexFormat format, std::int64_t count, std::span<const std::byte> data) {
    format.validate();
    if (count <= 0)
        throw Error(ErrorCode::InvalidArgument, "buffer element count must be > 0, got " + std::to_string(count));
    auto bytes = std::uint64_t(count) * std::uint64_t(format.stride);
    if (!data.empty() && data.size() != bytes)
        throw Error(ErrorCode::InvalidArgument, "buffer of " + std::to_string(count) + " x " +
                                                    std::to_string(format.stride) + "-byte elements (" +
                                                    format.describe() + ") needs " + std::to_string(bytes) +
                                                    " bytes of data, got " + std::to_string(data.size()));
    // Legal GL while the application's capture is paused: a new buffer, bound to COPY_WRITE only.
    detail::Access::state(device)->requireContext("creating a Buffer", true);
    auto s = std::make_shared<detail::BufferState>();
    s->device = detail::Access::state(device);
    s->format = std::move(format);
    s->count = count;
    s->bytes = bytes;
    gl::StateGuard guard(*s->device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    detail::allocateBuffer(*s, data.empty() ? nullptr : data.data());
    s->enroll(s->device);
    state_ = std::move(s);
}

Buffer Buffer::adopt(const Device& device, VertexFormat format, std::int64_t count, unsigned glName) {
    format.validate();
    if (count <= 0)
        throw Error(ErrorCode::InvalidArgument, "buffer element count must be > 0, got " + std::to_string(count));
    detail::Access::state(device)->requireContext("adopting a Buffer", true);
    auto s = std::make_shared<detail::BufferState>();
    s->device = detail::Access::state(device);
    s->format = std::move(format);
    s->count = count;
    s->bytes = std::uint64_t(count) * std::uint64_t(s->format.stride);
    s->owned = false;
    gl::StateGuard guard(*s->device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    if (glName == 0 || !glIsBuffer(glName))
        throw Error(ErrorCode::InvalidArgument,
                    "adoptBuffer(): glBuffer (GL buffer " + std::to_string(glName) +
                        ") is not a live buffer object of this context (created and bound once)");
    GLint size = 0;
    glBindBuffer(GL_COPY_WRITE_BUFFER, glName);
    glGetBufferParameteriv(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    gl::check("adopting a buffer (glGetBufferParameteriv)");
    if (std::uint64_t(size) < s->bytes)
        throw Error(ErrorCode::Capacity, "the adopted GL buffer holds " + std::to_string(size) + " bytes; " +
                                             std::to_string(count) + " elements of " +
                                             std::to_string(s->format.stride) + " bytes (" + s->format.describe() +
                                             ") need " + std::to_string(s->bytes));
    s->name = gl::BufferName::adopt(glName);    // released, never deleted: owned is false
    s->bound.exposed = s->bound.adopted = true; // the application holds the name, and draws it
    Buffer b;
    b.state_ = std::move(s);
    return b;
}

Buffer::Buffer(Buffer&&) noexcept = default;
Buffer& Buffer::operator=(Buffer&&) noexcept = default;
Buffer::~Buffer() = default;

static detail::BufferState& live(const std::shared_ptr<detail::BufferState>& s) {
    return detail::liveState(s, "Buffer");
}

void Buffer::upload(std::span<const std::byte> data, std::uint64_t byteOffset) {
    auto& s = live(state_);
    s.device->requireContext("Buffer::upload");
    gl::StateGuard guard(*s.device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    detail::requireLiveBuffer(s, "Buffer::upload");
    if (byteOffset > s.bytes || data.size() > s.bytes - byteOffset)
        throw Error(ErrorCode::InvalidArgument, "upload of " + std::to_string(data.size()) + " bytes at offset " +
                                                    std::to_string(byteOffset) + " does not fit the " +
                                                    std::to_string(s.bytes) + "-byte buffer");
    if (byteOffset == 0 && data.size() == s.bytes)
        s.bound.stale = false; // every byte is replaced: the mirror's newer ones too
    else
        s.settle();
    s.written();
#ifdef __EMSCRIPTEN__
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, s.name.get()));
    XFB_GL(glBufferSubData(GL_COPY_WRITE_BUFFER, GLintptr(byteOffset), GLsizeiptr(data.size()), data.data()));
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
    gl::check("Buffer::upload (glBufferSubData)");
#else
    // Natively through a staging buffer and a GPU copy: NVIDIA's driver (580, H100/H200) drops a
    // glBufferSubData into a buffer that transform feedback has just written, unless the CPU
    // waits for the pass first (glFinish); a glCopyBufferSubData is ordered after it
    // (tests/device/upload_order_probe.cpp; conformance reuse.re-upload).
    const auto staging = gl::BufferName::create();
    XFB_GL(glBindBuffer(GL_COPY_READ_BUFFER, staging.get()));
    XFB_GL(glBufferData(GL_COPY_READ_BUFFER, GLsizeiptr(data.size()), data.data(), GL_STREAM_COPY));
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, s.name.get()));
    XFB_GL(glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, GLintptr(byteOffset),
                               GLsizeiptr(data.size())));
    XFB_GL(glBindBuffer(GL_COPY_READ_BUFFER, 0));
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
    gl::check("Buffer::upload (glCopyBufferSubData from a staging buffer)");
#endif
}

std::vector<std::byte> Buffer::read() const { return read(0, count()); }

std::vector<std::byte> Buffer::read(std::int64_t first, std::int64_t count) const {
    auto& s = live(state_);
    s.device->requireContext("Buffer::read");
    const auto [offset, bytes] = detail::elementRangeBytes(s, first, count, "Buffer::read");
    gl::StateGuard guard(*s.device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    detail::requireLiveBuffer(s, "Buffer::read");
    s.settle(first, count);
#ifndef __EMSCRIPTEN__ // WebGL cannot wait on a fence; glGetBufferSubData waits itself
    gl::finishWithFence();
#endif
    return gl::readBytes(s.name.get(), offset, bytes);
}

void Buffer::bindAsVertexInput(unsigned location, Semantic field, std::int64_t firstElement) const {
    auto& s = live(state_);
    s.device->requireContext("Buffer::bindAsVertexInput");
    const VertexAttribute* a = s.format.find(field);
    if (!a)
        throw Error(ErrorCode::InvalidArgument, "Buffer::bindAsVertexInput: this buffer's format " +
                                                    s.format.describe() + " has no field " + semanticName(field) +
                                                    "; bind one of its fields");
    if (a->components > 4)
        throw Error(ErrorCode::InvalidArgument,
                    "Buffer::bindAsVertexInput: field " + semanticName(field) + " has " +
                        std::to_string(a->components) +
                        " components, more than one attribute location takes; bind a matrix column by column "
                        "with glVertexAttribPointer (stride " +
                        std::to_string(s.format.stride) + ", offset " + std::to_string(a->offset) + ")");
    if (int max = s.device->caps.limits.maxVertexAttribs; location >= unsigned(max))
        throw Error(ErrorCode::InvalidArgument,
                    "Buffer::bindAsVertexInput: location " + std::to_string(location) + " is beyond this device's " +
                        std::to_string(max) + " vertex attributes (GL_MAX_VERTEX_ATTRIBS); use a location below " +
                        std::to_string(max));
    if (firstElement < 0 || firstElement >= s.count)
        throw Error(ErrorCode::InvalidArgument, "Buffer::bindAsVertexInput: firstElement " +
                                                    std::to_string(firstElement) + " is outside the " +
                                                    std::to_string(s.count) + " elements");
    std::int64_t offset = std::int64_t(a->offset) + firstElement * s.format.stride;
    if (offset > std::int64_t(0x7fffffff))
        throw Error(ErrorCode::InvalidArgument, "Buffer::bindAsVertexInput: element " + std::to_string(firstElement) +
                                                    " starts beyond the 2 GiB a vertex attribute offset reaches");
    AttributeBinding binding;
    binding.location = int(location);
    binding.componentsPerLocation = a->components;
    binding.type = a->type;
    binding.offset = int(offset);
    binding.stride = s.format.stride;
    const GLuint name = s.expose(); // the application draws it whenever it likes
    gl::setAttributePointers({binding}, [&](int) -> GLuint { return name; });
}

std::uint64_t Buffer::generation() const { return live(state_).generation; }
unsigned Buffer::glName() const {
    auto& s = live(state_);
    if (s.bound.stale) s.device->requireContext("Buffer::glName"); // written back from the mirror: GL calls
#ifndef __EMSCRIPTEN__
    // The first hand-out waits for the GPU, once per buffer: NVIDIA's driver (580) drops the
    // application's first glBufferSubData into a buffer with GPU work queued on it, or just made by
    // glBufferData, when no CPU wait came between (tests/device/unpack_after_subdata_probe.cpp: lost
    // through the array, pixel-pack and pixel-unpack binding points, kept after a glFinish).
    if (!s.handedOut && !s.device->lost) { // a fence is legal GL at any time, also during transform feedback
        const GLuint name = s.expose();
        gl::finishWithFence();
        s.handedOut = true;
        return name;
    }
#endif
    return s.expose();
}
const VertexFormat& Buffer::format() const { return live(state_).format; }
std::int64_t Buffer::count() const { return live(state_).count; }
std::uint64_t Buffer::bytes() const { return live(state_).bytes; }

} // namespace xfb
