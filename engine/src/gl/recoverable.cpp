#include "gl/recoverable.hpp"

#include "gl/state.hpp"

#include <algorithm>

namespace xfb::detail {

void Recoverable::enroll(std::shared_ptr<DeviceState> device) {
    if (device_) return; // once
    device_ = std::move(device);
    device_->recoverables.push_back(this);
}

Recoverable::~Recoverable() {
    if (device_) std::erase(device_->recoverables, this);
}

} // namespace xfb::detail
