#include "gl/entries.hpp"

#include "xfb/error.hpp"

namespace xfb::detail {

ResolvedEntries resolveEntries(const std::vector<Entry>& entries) {
    ResolvedEntries r;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto take = [&](const Buffer* b, const char* role) -> std::shared_ptr<BufferState> {
            if (!b) return nullptr;
            auto st = b->state();
            if (!st) throw Error(ErrorCode::Disposed, "entry #" + std::to_string(i) + " " + role + " is a moved-from Buffer");
            return st;
        };
        auto in = take(entries[i].input, "input"), out = take(entries[i].output, "output");
        if (in && in == out)
            throw Error(ErrorCode::InvalidArgument, "entry #" + std::to_string(i) + " uses the same Buffer as input and output; "
                                                    "a state pair needs two buffers of the same format and size");
        EntryDesc d;
        if (in) d.input = BufferDesc{in->format, in->bytes};
        if (out) d.output = BufferDesc{out->format, out->bytes};
        r.inputs.push_back(std::move(in));
        r.outputs.push_back(std::move(out));
        r.descs.push_back(std::move(d));
    }
    return r;
}

} // namespace xfb::detail
