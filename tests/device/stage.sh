#!/usr/bin/env bash
# Builds here what tests/device/run.sh runs on the GPU machine and stages it, stripped (the device
# takes at most 64 MiB of carried files), in build/device/. Then, from the device tool:
#   run  carry=[".gl", "build/device"]  command="bash tests/device/run.sh"
# (.gl holds the Debian packages of glvnd's client libraries and the Vulkan loader, which the
# device lacks: see tests/device/README.md). XFB_DEVICE_BENCH=0 / XFB_DEVICE_NODE=0 leave parts out.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH=/usr/share/nodejs
stage=build/device
rm -rf "$stage" && mkdir -p "$stage"
# The GL suite and the conformance table as CI builds them (debug: every GL call checked).
[ -f build/debug/build.ninja ] || cmake --preset debug -DXFB_WASM_DIR="$PWD/build/wasm/npm" >/dev/null
cmake --build build/debug -j "$(nproc)" --target xfb-gl-tests-gl43core xfb-gl-tests-gles32 xfb-conformance \
  xfb-upload-order-probe xfb-stream-query-probe xfb-unpack-after-subdata-probe
for t in tests/gl/xfb-gl-tests-gl43core tests/gl/xfb-gl-tests-gles32 tests/conformance/xfb-conformance \
  tests/device/xfb-upload-order-probe tests/device/xfb-stream-query-probe tests/device/xfb-unpack-after-subdata-probe; do
  strip -o "$stage/$(basename "$t")" "build/debug/$t"
done
cp build/debug/tests/conformance/cases.json "$stage/"
pwd >"$stage/built_at.txt" # the GL tests read fixtures by this path
# The benchmarks optimised, as ./xfb bench builds them.
if [ "${XFB_DEVICE_BENCH:-1}" = 1 ]; then
  [ -f build/default/build.ninja ] || cmake --preset default -DXFB_WASM_DIR="$PWD/build/wasm/npm" >/dev/null
  cmake --build build/default -j "$(nproc)" --target xfb-bench xfb-bench-stream
  strip -o "$stage/xfb-bench" build/default/tests/bench/xfb-bench
  strip -o "$stage/xfb-bench-stream" build/default/tests/bench/xfb-bench-stream
fi
# Node + WebGPU (Dawn): the npm package as built, the node binary (the device has none) and the
# webgpu package's Linux build only (all five platforms are 132 MB), compressed to fit.
if [ "${XFB_DEVICE_NODE:-1}" = 1 ]; then
  cmake --build build/wasm
  cp -r build/wasm/npm "$stage/npm"
  xz -T2 -6 -c "$(command -v node)" >"$stage/node.xz"
  tar -C tests/web/node_modules -cJf "$stage/webgpu.tar.xz" webgpu/index.js webgpu/package.json webgpu/dist/linux-x64
fi
du -sh "$stage"
