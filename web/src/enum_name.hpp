#pragma once
// An enumerator from its stable name, for both boundaries (inputs.hpp, js_values.hpp).
#include "xfb/enum_tables.hpp"
#include "xfb/error.hpp"

#include <string>
#include <string_view>

namespace xfb {

/// The enumerator named `name` in its table's names (xfb/enum_tables.hpp); an unknown name is
/// XFB_INVALID_ARGUMENT listing the names, never a silent default.
template<class E, std::size_t N>
E fromName(const std::string& name, const std::string_view (&names)[N], const char* what) {
    if (auto e = enumFromName<E>(names, name)) return *e;
    std::string list;
    for (auto n : names) list += (list.empty() ? "'" : ", '") + std::string(n) + "'";
    throw Error(ErrorCode::InvalidArgument, std::string(what) + " must be one of " + list + ", got '" + name + "'");
}

} // namespace xfb
