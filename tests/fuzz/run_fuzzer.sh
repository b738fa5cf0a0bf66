#!/usr/bin/env bash
# Runs the planner fuzz target for SECONDS (ctest's fuzz.planner, ./xfb fuzz). The corpus grows in
# the fuzzer's folder (corpus/), seeded from seeds/ and tests/fuzz/regressions/; a crash is written
# to the fuzzer's folder as crash-<sha1> (add it to tests/fuzz/regressions/ once fixed).
# Usage: run_fuzzer.sh FUZZER SECONDS [extra libFuzzer options]
set -euo pipefail
fuzzer=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
build=$(dirname "$fuzzer")
mkdir -p "$build/corpus"
exec "$fuzzer" -max_total_time="$seconds" -dict="$here/glsl.dict" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
  -print_final_stats=1 -artifact_prefix="$build/" "$@" "$build/corpus" "$build/seeds" "$here/regressions"
