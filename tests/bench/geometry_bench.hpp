#pragma once
// xfb-bench-stream --geometry (geometry_bench.cpp): a geometry program's capture by the GL's
// geometry shader against its compute translation.
#include "bench_util.hpp"

#include <string>

namespace xfbbench {

/// Runs the geometry bench with `options` (sizes in input primitives; empty: 1e4, 1e5, 1e6) over
/// the comma-separated `workloads`; `large` allows sizes above 4e6. Returns the exit status.
int geometryBench(const CommonOptions& options, const std::string& workloads, bool large);

} // namespace xfbbench
