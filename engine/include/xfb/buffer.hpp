#pragma once
/// @file
/// @brief Buffer: a GL buffer object with a vertex format and an element count.

#include "xfb/device.hpp"
#include "xfb/vertex_format.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace xfb {

namespace detail {
struct BufferState;
struct Access;
}
class ReadbackRequest;

/// A GPU buffer holding `count` elements of `format`. Move-only. A Pipeline that uses it as
/// state swaps the underlying GL buffer name after every step, so this object always names the
/// latest state: draw from it after a step and you draw the new data. To draw it yourself, point
/// your vertex array at it with bindAsVertexInput() and do so again whenever generation() moved.
class Buffer {
public:
    /// glGenBuffers + glBufferData(size = count x stride, GL_DYNAMIC_COPY), with `data`. Without
    /// data the buffer holds zeros, as WebGL2 and WebGPU guarantee (natively glClearBufferData on
    /// GL 4.3+, zero uploads on ES 3.x). Bound on GL_COPY_WRITE_BUFFER only while filling,
    /// so the user's GL_ARRAY_BUFFER binding is untouched.
    /// @throws Error FormatInvalid, InvalidArgument (count <= 0, data of the wrong size)
    Buffer(const Device& device, VertexFormat format, std::int64_t count, std::span<const std::byte> data = {});
    /// Typed convenience: `data.size_bytes()` must equal count x stride.
    template<class T>
    Buffer(const Device& device, VertexFormat format, std::int64_t count, std::span<const T> data)
        : Buffer(device, std::move(format), count, std::as_bytes(data)) {}

    /// Adopts a GL buffer someone else owns (an engine's vertex buffer), typically as a write-only
    /// {output}: a step writes straight into it. xfb never deletes or reallocates it and does not
    /// recreate it after a context loss (its owner does; adopt it again). Queries its size with
    /// glGetBufferParameteriv(GL_BUFFER_SIZE) on GL_COPY_WRITE_BUFFER.
    /// @throws Error FormatInvalid, InvalidArgument (count <= 0, not a buffer name),
    ///         Capacity (the buffer holds fewer than count x stride bytes)
    static Buffer adopt(const Device& device, VertexFormat format, std::int64_t count, unsigned glName);

    Buffer(Buffer&&) noexcept;
    Buffer& operator=(Buffer&&) noexcept;
    ~Buffer();

    /// glBufferSubData at `byteOffset`. @throws Error InvalidArgument when out of range.
    void upload(std::span<const std::byte> data, std::uint64_t byteOffset = 0);
    template<class T>
    void upload(std::span<const T> data, std::uint64_t byteOffset = 0) {
        upload(std::as_bytes(data), byteOffset);
    }

    /// Blocking readback: a fence (glFenceSync + glClientWaitSync) then glMapBufferRange(READ) of
    /// the whole buffer (WebGL 2: glGetBufferSubData, which waits itself). For native tools and
    /// tests; in a frame loop use readAsync().
    std::vector<std::byte> read() const;
    /// The same for elements [first, first + count) only: the bytes of those elements, mapped at
    /// their offset (first x stride), so reading 16 elements of a million costs 16 elements.
    /// @throws Error InvalidArgument naming the range and the buffer's count when first < 0,
    ///         count < 0 or first + count > count(); Disposed, ContextLost
    std::vector<std::byte> read(std::int64_t first, std::int64_t count) const;
    template<class T>
    std::vector<T> readAs() const;
    template<class T>
    std::vector<T> readAs(std::int64_t first, std::int64_t count) const;

    /// Non-blocking readback: copies the current contents (glCopyBufferSubData) into a staging
    /// buffer and fences it. Later steps do not change what the request returns.
    ReadbackRequest readAsync() const;
    /// The same for elements [first, first + count) only: the staging buffer holds count x stride
    /// bytes, copied from byte first x stride. OpenGL 3.1, OpenGL ES 3.0, WebGL 2.
    /// @throws Error InvalidArgument (the range, as read(first, count)), Disposed, ContextLost
    ReadbackRequest readAsync(std::int64_t first, std::int64_t count) const;

    /// Points vertex attribute `location` of the currently bound vertex array object at field
    /// `field` of this buffer's format, for the application's own draws: glBindBuffer
    /// (GL_ARRAY_BUFFER), glEnableVertexAttribArray and glVertexAttribPointer (Float32) or
    /// glVertexAttribIPointer (Int32, UInt32) with the format's stride and the field's offset
    /// (plus `firstElement` x stride: element i of the draw reads element i + firstElement),
    /// then GL_ARRAY_BUFFER unbound again. The divisor and the vertex array binding are the
    /// caller's. OpenGL 3.0, OpenGL ES 3.0, WebGL 2.
    ///
    /// It records the GL object the buffer holds now: a Pipeline step swaps the objects of a
    /// state pair, so call it again when generation() differs from the one it was called at.
    /// @throws Error InvalidArgument (the format has no such field, or it has more than 4
    ///         components: bind a matrix column by column with glVertexAttribPointer, format()
    ///         giving the stride and offset), Disposed (moved from), ContextLost
    void bindAsVertexInput(unsigned location, Semantic field, std::int64_t firstElement = 0) const;

    /// Which GL object the buffer holds, as a count: bumped each time it changes (every step of
    /// a Pipeline that uses it as a state pair swaps the objects of the pair; a restored context
    /// makes a new one). A vertex array set up with bindAsVertexInput() at generation g reads
    /// the latest data while generation() == g.
    std::uint64_t generation() const;

    /// The GL buffer holding the latest data, for the application's own draws, reads and writes.
    /// Under the fragment backend (Backend::Fragment) a pipeline's state lives in textures between
    /// steps: this writes it back into the buffer first, and from then on the backend copies the
    /// buffer in before a step reads it (so the application's writes count) and, for a buffer that
    /// is no state pair's, writes each step back at once (its name does not change). A state pair's
    /// name is the pipeline's again once a step has read it: take the latest one after each step,
    /// as the swap requires anyway. Buffers whose name is never taken stay in textures, read back
    /// only by read() / readAsync() (the elements asked for). GL calls: a draw and glReadPixels
    /// when written back (GL 4.3 / ES 3.0 / WebGL2), none otherwise; natively, the first call on a
    /// buffer also waits for the GPU (a fence and glClientWaitSync, once): NVIDIA's driver drops
    /// an application's first glBufferSubData into a buffer with GPU work queued on it otherwise
    /// (tests/device/README.md).
    /// @throws Error Disposed (moved from); ContextLost, FeedbackActive when the bytes must be
    ///         written back and GL cannot run now
    unsigned glName() const;
    const VertexFormat& format() const;
    std::int64_t count() const;
    std::uint64_t bytes() const; ///< count x stride

private:
    friend struct detail::Access; // the engine's way to the state (src/gl/access.hpp)
    std::shared_ptr<detail::BufferState> state() const { return state_; }
    Buffer() = default;
    std::shared_ptr<detail::BufferState> state_;
};

template<class T>
std::vector<T> Buffer::readAs() const {
    return readAs<T>(0, count());
}

template<class T>
std::vector<T> Buffer::readAs(std::int64_t first, std::int64_t count) const {
    auto raw = read(first, count);
    std::vector<T> out(raw.size() / sizeof(T));
    std::memcpy(out.data(), raw.data(), out.size() * sizeof(T));
    return out;
}

} // namespace xfb
