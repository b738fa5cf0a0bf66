// libFuzzer target: the whole planner path (planner_harness.cpp) on arbitrary bytes as a shader.
// Built with clang-14 (-fsanitize=fuzzer,address,undefined) by tests/fuzz/CMakeLists.txt; run by
// ctest (time-boxed), by `./xfb fuzz [seconds]`, and on tests/fuzz/regressions/ in replay mode.
#include "planner_harness.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    xfb::fuzz::runPlanner(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
