#pragma once
// Internal: the engine's way in to the state behind the public handles (Buffer, Device, Program)
// and to ReadbackRequest's constructor. The public headers keep both private, so an application
// sees only the documented API; engine code says detail::Access::state(buffer).
#include "xfb/buffer.hpp"
#include "xfb/device.hpp"
#include "xfb/error.hpp"
#include "xfb/program.hpp"
#include "xfb/readback.hpp"

#include <memory>
#include <string>

namespace xfb::detail {

struct Access {
    static std::shared_ptr<BufferState> state(const Buffer& b) { return b.state(); }
    static std::shared_ptr<DeviceState> state(const Device& d) { return d.state(); }
    static std::shared_ptr<ProgramState> state(const Program& p) { return p.state(); }
    static ReadbackRequest readback(std::shared_ptr<ReadbackState> s) { return ReadbackRequest(std::move(s)); }
};

/// The state behind a public handle (Buffer, Program, Pipeline, PrimitiveCapture), or
/// XFB_DISPOSED naming the handle's class when it was moved from.
template<class Pointer>
auto& liveState(const Pointer& state, const char* handle) {
    if (!state)
        throw Error(ErrorCode::Disposed,
                    std::string("this ") + handle + " was moved from; use the " + handle + " it was moved into");
    return *state;
}

} // namespace xfb::detail
