#pragma once
// Internal: the engine's way in to the state behind the public handles (Buffer, Device, Program)
// and to ReadbackRequest's constructor. The public headers keep both private, so an application
// sees only the documented API; engine code says detail::Access::state(buffer).
#include "xfb/buffer.hpp"
#include "xfb/device.hpp"
#include "xfb/program.hpp"
#include "xfb/readback.hpp"

#include <memory>

namespace xfb::detail {

struct Access {
    static std::shared_ptr<BufferState> state(const Buffer& b) { return b.state(); }
    static std::shared_ptr<DeviceState> state(const Device& d) { return d.state(); }
    static std::shared_ptr<ProgramState> state(const Program& p) { return p.state(); }
    static ReadbackRequest readback(std::shared_ptr<ReadbackState> s) { return ReadbackRequest(std::move(s)); }
};

} // namespace xfb::detail
