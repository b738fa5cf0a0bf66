#pragma once
// Internal: the buffers behind a role list (Pipeline, PrimitiveCapture) and what the planner sees of them.
#include "gl/state.hpp"
#include "xfb/pass_plan.hpp"
#include "xfb/pipeline.hpp"

#include <memory>
#include <vector>

namespace xfb::detail {

struct ResolvedEntries {
    std::vector<std::shared_ptr<BufferState>> inputs, outputs; // per entry; null where absent
    std::vector<EntryDesc> descs;
};

/// @throws Error Disposed (a moved-from Buffer), InvalidArgument (the same Buffer as input and output,
///        as output of two entries, or as the input of one entry and the output of another)
ResolvedEntries resolveEntries(const std::vector<Entry>& entries);

} // namespace xfb::detail
