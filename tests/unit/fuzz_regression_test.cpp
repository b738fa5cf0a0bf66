// Replays every input of tests/fuzz/regressions/ (crashes, hangs and wrong plans the fuzzer found,
// plus hand-made hostile inputs) through the fuzz harness, in every build: the plain unit tests,
// the ASan + UBSan build, and -- through the fuzz binary -- the clang-14 build.
#include "planner_harness.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

TEST_CASE("every fuzz regression input ends in a plan or a coded error") {
    int replayed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(XFB_FUZZ_REGRESSIONS)) {
        if (!entry.is_regular_file() || entry.path().filename().string().starts_with(".")) continue;
        std::ifstream file(entry.path(), std::ios::binary);
        std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        INFO("input: ", entry.path().filename().string());
        CHECK_NOTHROW(xfb::fuzz::runPlanner(source)); // anything but xfb::Error escapes runPlanner
        ++replayed;
    }
    CHECK(replayed >= 10); // the folder is there and holds the kept inputs
}
