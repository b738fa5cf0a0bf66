#pragma once
// The main of every doctest executable (unit, GL, tools): runs doctest and refuses a run that
// proves nothing. A run that selected no test case (a ctest entry whose --test-case filter
// matches nothing, e.g. half of a name CMake split at a ';') or made no assertion exits
// non-zero, and so does a listing (--list-test-cases, run by doctest_discover_tests at build
// time) that finds a test name containing ';'. Every run prints one line for tests/run-summary.mjs:
//   xfb-test-run: cases=N asserts=M
namespace xfbtest {

/// doctest::Context(argc, argv).run(), then the checks above. Returns the process exit status.
int runGuarded(int argc, char** argv);

} // namespace xfbtest
