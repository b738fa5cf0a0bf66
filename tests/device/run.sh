#!/usr/bin/env bash
# On the GPU machine (the device tool), from the repository root, after tests/device/stage.sh:
# the GL suite (GL core and ES), the conformance table, the driver probes and the benchmarks, each
# log written to $OUT (or out/device) and a summary line per entry printed at the end.
# Nothing here runs in CI: CI has no GPU machine, and nothing may depend on it.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-out/device}
mkdir -p "$out"
stage=build/device
# glvnd's client libraries, absent on the device, carried as Debian packages in .gl/.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
# The GL tests read fixtures by the path they were built at (this checkout's place here).
built_at=$(cat "$stage/built_at.txt")
[ "$built_at" != "$PWD" ] && [ ! -e "$built_at" ] && mkdir -p "$(dirname "$built_at")" && ln -s "$PWD" "$built_at"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/gpu.txt"

summary=()
entry() { # entry NAME COMMAND...: runs it, keeps its log, notes its exit status
  local name=$1; shift
  local start=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  summary+=("$(printf '%-28s rc=%-3s %4ss  %s' "$name" "$rc" "$((SECONDS - start))" "$(tail -n 1 "$out/$name.log")")")
}
entry probe.upload-order "$stage/xfb-upload-order-probe"
# Each suite in one process, every case (ctest runs a case per process; one process also shows a
# case that depends on what an earlier one left behind).
entry gl.gl43core "$stage/xfb-gl-tests-gl43core"
entry gl.gles32 "$stage/xfb-gl-tests-gles32"
entry conformance.gl43core "$stage/xfb-conformance" gl43core "$stage/cases.json"
entry conformance.gles32 "$stage/xfb-conformance" gles32 "$stage/cases.json"
if [ -x "$stage/xfb-bench" ] && [ "${XFB_DEVICE_BENCH:-1}" = 1 ]; then
  entry bench "$stage/xfb-bench"
  entry bench.stream "$stage/xfb-bench-stream"
fi
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
