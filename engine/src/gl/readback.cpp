#include "gl/readback.hpp"
#include "gl/access.hpp"
#include "gl/gl_check.hpp"
#include "gl/state.hpp"
#include "gl/state_guard.hpp"
#include "xfb/buffer.hpp"
#include "xfb/error.hpp"
#include "xfb/readback.hpp"

#include <algorithm>
#include <chrono>
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif
#include <cstring>

namespace xfb {

namespace gl {
std::vector<std::byte> readBytes(GLuint buffer, std::uint64_t offset, std::uint64_t bytes) {
    std::vector<std::byte> out(bytes);
    if (bytes == 0) return out; // WebGL's getBufferSubData reads to the end of the heap for length 0
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
#ifdef __EMSCRIPTEN__
    glGetBufferSubData(GL_COPY_READ_BUFFER, GLintptr(offset), GLsizeiptr(bytes), out.data());
#else
    // In windows of 64 MiB: some drivers (llvmpipe) refuse to map very large ranges at once.
    constexpr std::uint64_t kWindow = 64u << 20;
    for (std::uint64_t at = 0; at < bytes; at += kWindow) {
        auto n = GLsizeiptr(std::min(kWindow, bytes - at));
        if (const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, GLintptr(offset + at), n, GL_MAP_READ_BIT)) {
            std::memcpy(out.data() + at, p, std::size_t(n));
            glUnmapBuffer(GL_COPY_READ_BUFFER);
        }
    }
#endif
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    check("reading a buffer back (glMapBufferRange / glGetBufferSubData)");
    return out;
}
void waitFor(GLsync fence) {
#ifdef __EMSCRIPTEN__
    // WebGL never blocks: a timeout above MAX_CLIENT_WAIT_TIMEOUT_WEBGL (0) answers WAIT_FAILED at once.
    glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000);
#else
    // A lost context signals its fences (KHR_robustness); a GPU that never finishes must not hang
    // the caller either: the same 60 s bound as the npm package's polled waits (core/poll.ts).
    constexpr int kSeconds = 60;
    for (int waited = 0; glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1'000'000'000) == GL_TIMEOUT_EXPIRED;)
        if (++waited == kSeconds)
            throw Error(ErrorCode::GlError, "waiting for the GPU: its fence was not signalled in " +
                                                std::to_string(kSeconds) +
                                                " s (a hung or reset GPU); nothing was read. Check the driver's log, "
                                                "then recreate the context");
#endif
}

void finishWithFence() {
    SyncObject fence = SyncObject::create();
    waitFor(fence.get());
}

double nowMs() {
#ifdef __EMSCRIPTEN__
    return emscripten_get_now();
#else
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}
} // namespace gl

namespace detail {
struct ReadbackState final : Recoverable {
    std::shared_ptr<DeviceState> device;
    gl::BufferName staging;
    gl::SyncObject fence;
    std::uint64_t bytes = 0;
    bool taken = false;
    bool lost = false; // its copy died with a lost context: take() refuses, ready() stays false
    void forget() override {
        staging.forget();
        fence.forget();
        lost = true;
    }
};
} // namespace detail

ReadbackRequest Buffer::readAsync() const { return readAsync(0, count()); }

ReadbackRequest Buffer::readAsync(std::int64_t first, std::int64_t count) const {
    auto s = state();
    detail::liveState(s, "Buffer");
    s->device->requireContext("Buffer::readAsync");
    const auto [offset, bytes] = detail::elementRangeBytes(*s, first, count, "Buffer::readAsync");
    gl::StateGuard guard(*s->device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    auto r = std::make_shared<detail::ReadbackState>();
    r->device = s->device;
    r->enroll(s->device);
    detail::requireLiveBuffer(*s, "Buffer::readAsync");
    s->settle(first, count);
    r->bytes = bytes;
    r->staging = gl::BufferName::create();
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, r->staging.get()));
    XFB_GL(glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(r->bytes), nullptr, GL_STREAM_READ));
    XFB_GL(glBindBuffer(GL_COPY_READ_BUFFER, s->name.get()));
    XFB_GL(glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GLintptr(offset), 0, GLsizeiptr(r->bytes)));
    XFB_GL(glBindBuffer(GL_COPY_READ_BUFFER, 0));
    XFB_GL(glBindBuffer(GL_COPY_WRITE_BUFFER, 0));
    r->fence = gl::SyncObject::create();
    glFlush(); // so the fence can signal without a later GL call
    gl::check("Buffer::readAsync (glCopyBufferSubData)");
    return detail::Access::readback(std::move(r));
}

ReadbackRequest::ReadbackRequest(std::shared_ptr<detail::ReadbackState> state) : state_(std::move(state)) {}
ReadbackRequest::ReadbackRequest(ReadbackRequest&&) noexcept = default;
ReadbackRequest& ReadbackRequest::operator=(ReadbackRequest&&) noexcept = default;
ReadbackRequest::~ReadbackRequest() = default;

bool ReadbackRequest::ready() {
    // During a loss (device->lost, before contextRestored() forgets the copy) the fence is dead too.
    if (!state_ || state_->taken || state_->lost || state_->device->lost) return false;
    GLenum r = glClientWaitSync(state_->fence.get(), 0, 0);
    return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

std::vector<std::byte> ReadbackRequest::take() {
    if (!state_ || state_->taken)
        throw Error(ErrorCode::Disposed, "this readback was already taken; request a new one with Buffer::readAsync()");
    // state_->lost: forgotten by a restoration; device->lost: the context is lost now (the copy
    // is not forgotten until contextRestored(), but it is gone, and GL must not be called).
    if (state_->lost || state_->device->lost)
        throw Error(ErrorCode::ContextLost, "ReadbackRequest::take: the GL context was lost after this readback was "
                                            "requested and its copy died with it; "
                                            "request a new one with Buffer::readAsync() once the context is restored");
#ifdef __EMSCRIPTEN__
    if (!ready())
        throw Error(ErrorCode::InvalidArgument,
                    "the readback is not ready yet: WebGL cannot wait, poll ready() across frames");
#else
    gl::waitFor(state_->fence.get());
#endif
    gl::StateGuard guard(*state_->device, gl::CachedCopyBuffers | gl::TakeForeignErrors);
    std::vector<std::byte> out = gl::readBytes(state_->staging.get(), 0, state_->bytes);
    state_->taken = true;
    return out;
}

} // namespace xfb
