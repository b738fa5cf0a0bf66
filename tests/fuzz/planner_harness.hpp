#pragma once
// The whole planner path on one untrusted source, for the fuzz target (planner_fuzz.cpp) and for
// the unit test that replays tests/fuzz/regressions/ in every build.

#include <string_view>

namespace xfb::fuzz {

/// Reads `source`, plans attributes, capture (interleaved and separate, portable and wide limits),
/// emitted outputs and the pass, translates it to compute (GLSL 4.30 for the interleaved plan, ES 3.10
/// for the separate one, with the portable limits) and converts it
/// to GLSL ES 3.00. Every failure must be an xfb::Error, which is caught; any other exception
/// escapes. A plan that breaks an invariant (a stride that is not the sum of its fields, a size
/// beyond the limits) aborts with a message: a silently wrong plan is a crash to the fuzzer.
void runPlanner(std::string_view source);

} // namespace xfb::fuzz
