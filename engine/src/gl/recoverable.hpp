#pragma once
// Internal: the one list of GL-owning objects a context loss concerns. Every object that owns GL
// names (buffers, programs, pipelines, primitive captures, compute passes, prefix sums, record
// gathers) enrolls once with its device. When the context comes back, Device::contextRestored()
// calls forget() on every enrolled object (their names died with the old context: deleting them
// could hit names the new context handed out again), then restore() on each still enrolled, in
// enrolment order, so buffers and programs are made again before the pipelines that use them.
#include <memory>

namespace xfb::detail {

struct DeviceState;

class Recoverable {
public:
    /// Drops every GL name without a GL call.
    virtual void forget() = 0;
    /// Makes the GL objects again after forget(). Parts owned by another recoverable (a
    /// pipeline's compute pass) leave this to their owner, which rebuilds them.
    virtual void restore() {}

    /// Joins `device`'s list (once; the list holds no ownership). Leaves it when destroyed.
    void enroll(std::shared_ptr<DeviceState> device);

protected:
    Recoverable() = default;
    Recoverable(const Recoverable&) = delete;
    Recoverable& operator=(const Recoverable&) = delete;
    virtual ~Recoverable();

private:
    std::shared_ptr<DeviceState> device_; // kept alive until this object has left its list
};

} // namespace xfb::detail
