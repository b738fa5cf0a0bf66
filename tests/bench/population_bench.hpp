#pragma once
// xfb-bench-stream --population (population_bench.cpp): an xfb::Population step against the
// dead-list + atomic-append design GPU particle engines use, on the same simulation (issue 42).
#include "bench_util.hpp"

namespace xfbbench {

/// Runs the population bench with `options` (sizes in initial live elements; empty: 1e4, 1e5,
/// 1e6). Returns the exit status (1 when a variant's elements differ from the reference).
int populationBench(const CommonOptions& options);

} // namespace xfbbench
