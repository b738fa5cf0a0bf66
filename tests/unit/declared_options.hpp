#pragma once
// CaptureOptions of declared layouts in one line, for the planner's and the GL tests of them.
#include "xfb/capture_plan.hpp"

#include <string>
#include <utility>
#include <vector>

namespace xfbtest {

/// A Direct3D-style declaration (CaptureOptions::declaration) and its strides.
inline xfb::CaptureOptions declared(std::vector<xfb::DeclaredEntry> entries, std::vector<int> strides = {}) {
    xfb::CaptureOptions o;
    o.declaration = std::move(entries);
    o.strides = std::move(strides);
    return o;
}

/// GL's list, layout words (gl_SkipComponentsN, gl_NextBuffer) included.
inline xfb::CaptureOptions list(std::vector<std::string> names) {
    xfb::CaptureOptions o;
    o.varyings = std::move(names);
    return o;
}

/// A declaration entry by varying: components first.. (count 0: to the end) in `buffer`.
inline xfb::DeclaredEntry field(std::string varying, int first = 0, int components = 0, int buffer = 0) {
    return {std::move(varying), {}, 0, first, components, buffer};
}

} // namespace xfbtest
