#pragma once
// Internal: strings built by appending pieces, one out-of-line call instead of a chain of
// temporaries (`a + b + c`, each with its own cleanup under Emscripten's exceptions), which keeps
// the wasm module small: the planner's messages are most of its code.
#include <initializer_list>
#include <string>
#include <string_view>

namespace xfb::plan {

void cat(std::string& out, std::initializer_list<std::string_view> parts);
std::string cat(std::initializer_list<std::string_view> parts);
/// "12.345": milliseconds with three decimals, without printf (which would bring the locale
/// tables into the wasm module): the figures of Auto's reasons.
std::string milliseconds(double ms);

} // namespace xfb::plan
