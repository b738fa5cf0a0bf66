#pragma once
/// @file
/// @brief ReadbackRequest: a snapshot of a buffer on its way to CPU memory.

#include <cstddef>
#include <memory>
#include <vector>

namespace xfb {

namespace detail {
struct ReadbackState;
struct Access;
}

/// Created by Buffer::readAsync(). Poll ready() once per frame; take() then maps the staging
/// buffer without waiting. Move-only; destroying it deletes the staging buffer and the fence.
class ReadbackRequest {
public:
    ReadbackRequest(ReadbackRequest&&) noexcept;
    ReadbackRequest& operator=(ReadbackRequest&&) noexcept;
    ~ReadbackRequest();

    /// glClientWaitSync(timeout 0): has the GPU finished the copy?
    bool ready();
    /// The bytes; waits for the fence first if it is not signalled yet (blocking).
    /// @throws Error Disposed when taken twice, ContextLost when the context was lost (and
    ///         perhaps restored) since the request: its copy died with the context, request again.
    std::vector<std::byte> take();

private:
    friend struct detail::Access; // made by Buffer::readAsync() (src/gl/access.hpp)
    explicit ReadbackRequest(std::shared_ptr<detail::ReadbackState> state);
    std::shared_ptr<detail::ReadbackState> state_;
};

} // namespace xfb
