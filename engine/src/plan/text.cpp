#include "text.hpp"

#include <cmath>

namespace xfb::plan {

void cat(std::string& out, std::initializer_list<std::string_view> parts) {
    for (auto p : parts) out += p;
}

std::string cat(std::initializer_list<std::string_view> parts) {
    std::string s;
    cat(s, parts);
    return s;
}

std::string milliseconds(double ms) {
    long long us = std::llround(ms * 1000);
    std::string frac = std::to_string(us % 1000);
    return std::to_string(us / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

} // namespace xfb::plan
