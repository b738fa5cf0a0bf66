#include "text.hpp"

namespace xfb::plan {

void cat(std::string& out, std::initializer_list<std::string_view> parts) {
    for (auto p : parts) out += p;
}

std::string cat(std::initializer_list<std::string_view> parts) {
    std::string s;
    cat(s, parts);
    return s;
}

} // namespace xfb::plan
