#pragma once
// Internal: the one record of which uniform values a GL program holds. Values live in a map of
// Uniform (gl/state.hpp), each with a version bumped when it changes, and a total bumped with
// any; a mirror remembers, per program, the version it last uploaded of each, so a value is
// uploaded (glUniform*) once after each change and a pass with nothing changed costs no call.
// Used by the Program itself (transform feedback), by each generated compute kernel and by the
// record gather's own two uniforms.
#include "gl/gl_api.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace xfb::detail {
struct Uniform;
using UniformValues = std::map<std::string, Uniform, std::less<>>;
} // namespace xfb::detail

namespace xfb::gl {

class UniformMirror {
public:
    /// Uniform `name` is at `location` in the mirrored program (glGetUniformLocation); not yet uploaded.
    void track(std::string name, GLint location) { slots_.push_back({std::move(name), location, 0}); }
    /// Forgets every location (the program was linked again: track() its uniforms anew).
    void clear() {
        slots_.clear();
        appliedTotal_ = 0;
    }
    /// glUniform* for every tracked value whose version differs from the one uploaded last;
    /// `total` is the values' total version (nothing is scanned when it did not move). The
    /// program must be current. Each upload is counted in gl::callCount().
    void flush(const detail::UniformValues& values, std::uint64_t total);
    /// The program holds `version` of `name` already (uploaded by a caller replaying a step).
    void markApplied(std::string_view name, std::uint64_t version);

private:
    struct Slot {
        std::string name;
        GLint location;
        std::uint64_t applied;
    };
    std::vector<Slot> slots_;
    std::uint64_t appliedTotal_ = 0;
};

} // namespace xfb::gl
