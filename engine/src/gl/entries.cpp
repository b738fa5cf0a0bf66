#include "gl/entries.hpp"
#include "gl/access.hpp"

#include "xfb/error.hpp"

#include <string>

namespace xfb::detail {

ResolvedEntries resolveEntries(const std::vector<Entry>& entries) {
    ResolvedEntries r;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto take = [&](const Buffer* b, const char* role) -> std::shared_ptr<BufferState> {
            if (!b) return nullptr;
            auto st = detail::Access::state(*b);
            if (!st)
                throw Error(ErrorCode::Disposed,
                            "entry #" + std::to_string(i) + " " + role + " is a moved-from Buffer");
            return st;
        };
        auto in = take(entries[i].input, "input"), out = take(entries[i].output, "output");
        if (in && out && (in == out || (in->name != 0 && in->name == out->name)))
            throw Error(ErrorCode::InvalidArgument, "entry #" + std::to_string(i) +
                                                        " uses the same Buffer as input and output; "
                                                        "a state pair needs two buffers of the same format and size");
        // No runtime binds one buffer twice for its outputs, or reads a buffer while the same pass
        // writes it (GL: INVALID_OPERATION at the draw; WebGPU: a storage usage conflict). A state
        // pair writes its input too, after each swap. Refused here with both roles named, in the
        // words of the npm package's checkRoleClashes (web/package/src/core/registry.ts).
        for (std::size_t j = 0; j < i; ++j) {
            const bool pair = (in && out) || (r.inputs[j] && r.outputs[j]);
            auto clash = [&](const std::shared_ptr<BufferState>& a, const char* roleA,
                             const std::shared_ptr<BufferState>& b, const char* roleB) {
                if (!a || !b || !(a == b || (a->name != 0 && a->name == b->name))) return;
                const bool outputs = std::string(roleA) == "output" && std::string(roleB) == "output";
                throw Error(ErrorCode::InvalidArgument,
                            "entry #" + std::to_string(j) + " " + roleB + " and entry #" + std::to_string(i) + " " +
                                roleA + " are the same buffer; a pass cannot " +
                                (outputs ? "bind one buffer twice for its outputs"
                                         : "read a buffer while it writes it (a state pair writes its input too, "
                                           "after each swap)") +
                                ": give each role its own buffer");
            };
            clash(out, "output", r.outputs[j], "output");
            clash(out, "output", r.inputs[j], "input");
            clash(in, "input", r.outputs[j], "output");
            if (pair) clash(in, "input", r.inputs[j], "input");
        }
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
