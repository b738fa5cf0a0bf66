#!/usr/bin/env bash
# Runs the planner fuzz target (ctest's fuzz.planner and fuzz.regressions, ./xfb fuzz).
#   run_fuzzer.sh FUZZER SECONDS [extra libFuzzer options]   fuzz for SECONDS; the corpus grows in the
#     fuzzer's folder (corpus/), seeded from seeds/ and tests/fuzz/regressions/; a crash is written to
#     the fuzzer's folder as crash-<sha1> (add it to tests/fuzz/regressions/ once fixed)
#   run_fuzzer.sh FUZZER replay                              run every regression input and seed once
# Either way the last line is `xfb-test-run: cases=INPUTS asserts=EXECUTIONS` (tests/run-summary.mjs),
# and a run that executed nothing fails.
set -euo pipefail
fuzzer=$1 mode=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
build=$(dirname "$fuzzer")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
if [ "$mode" = replay ]; then
  dirs=("$here/regressions" "$build/seeds")
  "$fuzzer" -runs=0 "${common[@]}" "${dirs[@]}" 2>&1 | tee "$log"
else
  mkdir -p "$build/corpus"
  dirs=("$build/corpus" "$build/seeds" "$here/regressions")
  "$fuzzer" -max_total_time="$mode" -dict="$here/glsl.dict" -max_len=8192 "${common[@]}" \
    -artifact_prefix="$build/" "$@" "${dirs[@]}" 2>&1 | tee "$log"
fi
inputs=$(find "${dirs[@]}" -type f | wc -l)
executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
echo "xfb-test-run: cases=$inputs asserts=${executions:-0}"
[ "${executions:-0}" -gt 0 ] && [ "$inputs" -gt 0 ]
