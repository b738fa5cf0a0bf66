#include "xfb/limits.hpp"

#include "xfb/error.hpp"

namespace xfb {

std::uint64_t checkedBufferBytes(std::int64_t count, std::int64_t stride, std::uint64_t maxBytes,
                                 std::string_view what) {
    const std::string name(what);
    if (count < 0)
        throw Error(ErrorCode::InvalidArgument, name + ": element count must be >= 0, got " + std::to_string(count));
    if (stride <= 0)
        throw Error(ErrorCode::InvalidArgument, name + ": stride must be > 0, got " + std::to_string(stride));
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(std::uint64_t(count), std::uint64_t(stride), &bytes) || bytes > maxBytes)
        throw Error(ErrorCode::BufferTooLarge,
                    name + ": " + std::to_string(count) + " elements x " + std::to_string(stride) + " bytes exceeds " +
                        std::to_string(maxBytes) +
                        " bytes per buffer; use fewer elements or split the data over several buffers");
    return bytes;
}

} // namespace xfb
