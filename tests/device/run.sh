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
entry probe.stream-query "$stage/xfb-stream-query-probe"
entry probe.unpack-after-subdata "$stage/xfb-unpack-after-subdata-probe"
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
# Node + WebGPU on Dawn (Vulkan): the package's Node test with an adapter required, then the bench.
if [ -f "$stage/node.xz" ] && [ "${XFB_DEVICE_NODE:-1}" = 1 ]; then
  node=/tmp/xfb-node/node
  mkdir -p /tmp/xfb-node && xz -dc "$stage/node.xz" >"$node" && chmod +x "$node"
  mkdir -p tests/web/node_modules && tar -C tests/web/node_modules -xJf "$stage/webgpu.tar.xz"
  # The driver's Vulkan ICD, wherever the machine mounts it.
  icd=$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json \
    /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -n 1)
  [ -n "$icd" ] && export VK_ICD_FILENAMES=$icd
  entry node.webgpu env XFB_REQUIRE_WEBGPU_ADAPTER=1 XFB_NODE_WEBGPU_SIZES=${XFB_NODE_WEBGPU_SIZES:-1,257,10000,1000000,16000000} \
    XFB_NPM_DIR="$stage/npm" "$node" --test tests/web/node-webgpu.test.mjs
  entry bench.node-webgpu "$node" tests/bench/node-webgpu-bench.mjs --sizes "${XFB_NODE_WEBGPU_BENCH_SIZES:-1e4,1e5,1e6,4e6,1.6e7}" \
    --npm "$stage/npm" --webgpu tests/web/node_modules/webgpu
fi
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
