// xfb's WebGPU step in Node on Dawn (the npm package webgpu) against a hand-written WGSL compute
// loop doing the same particle step (vec4 position + vec4 velocity, the README's simulation), in
// one run on one device: ms per step of each, their ratio, and a check that both end with
// identical bytes. GPU time from timestamp queries where the adapter has timestamp-query (every
// compute pass of the timed steps, xfb's included, gets timestampWrites), and always wall time
// over the timed steps up to onSubmittedWorkDone.
// Usage (from the repository root):
//   node tests/bench/node-webgpu-bench.mjs [--sizes 1e4,1e5,1e6,4e6,1.6e7] [--steps N]
//        [--npm build/wasm/npm] [--webgpu tests/web/node_modules/webgpu]
// Exits 2 with a message when Dawn gives no adapter, 1 when the two results differ.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FORMAT, SOURCE, particles } from '../web/particle-fixture.mjs';

const root = new URL('../../', import.meta.url).pathname;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const sizes = option('sizes', '1e4,1e5,1e6,4e6,1.6e7').split(',').map(Number);
const fixedSteps = option('steps', undefined);
const npmDir = resolve(root, option('npm', process.env.XFB_NPM_DIR ?? 'build/wasm/npm'));
const webgpuDir = resolve(root, option('webgpu', 'tests/web/node_modules/webgpu'));
if (!sizes.every((n) => Number.isInteger(n) && n > 0) || (fixedSteps !== undefined && !(Number(fixedSteps) >= 1))) {
  console.error('usage: node tests/bench/node-webgpu-bench.mjs [--sizes N,N...] [--steps N] [--npm DIR] [--webgpu DIR]');
  process.exit(2);
}
const { create } = await import(pathToFileURL(`${webgpuDir}/index.js`).href);
const { default: createXfb } = await import(pathToFileURL(`${npmDir}/index.js`).href);

const gpu = create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  console.error("node-webgpu-bench: Dawn (the npm package webgpu) gives no WebGPU adapter on this machine: it needs a Vulkan driver it accepts (a GPU vendor's; Mesa's lavapipe is refused). Nothing was measured.");
  process.exit(2);
}
const timestamps = adapter.features.has('timestamp-query');
const l = adapter.limits;
const device = await adapter.requestDevice({
  requiredFeatures: timestamps ? ['timestamp-query'] : [],
  requiredLimits: { maxStorageBufferBindingSize: l.maxStorageBufferBindingSize, maxBufferSize: l.maxBufferSize },
});
device.addEventListener?.('uncapturederror', (e) => { console.error(`node-webgpu-bench: WebGPU error: ${e.error.message}`); process.exitCode = 1; });
const info = adapter.info;
console.log(`adapter: ${info.vendor} ${info.architecture} ${info.description}; timing: ${timestamps ? 'GPU timestamps (per compute pass) and wall time' : 'wall time only (no timestamp-query)'}`);

// The spec's flag values (the bench needs no WebGPU globals either).
const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08, UNIFORM = 0x40, MAP_READ = 0x01, QUERY_RESOLVE = 0x200;
const GROUP = 256;
// The same step, hand-written: one thread an element, 2-D grid past 65535 groups.
const WGSL = `struct Particle { position: vec4<f32>, velocity: vec4<f32> }
struct Params { dt: f32, count: u32, width: u32 }
@group(0) @binding(0) var<storage, read> src: array<Particle>;
@group(0) @binding(1) var<storage, read_write> dst: array<Particle>;
@group(0) @binding(2) var<uniform> params: Params;
@compute @workgroup_size(${GROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * params.width;
  if (i >= params.count) { return; }
  let p = src[i];
  dst[i] = Particle(p.position + p.velocity * params.dt, p.velocity * 0.5);
}`;

/** While on, every compute pass begun on `device` writes a begin and end timestamp (xfb's passes
 *  are its own, so the encoder is wrapped rather than the pass descriptor written here). */
const timer = {
  querySet: timestamps ? device.createQuerySet({ type: 'timestamp', count: 4096 }) : null,
  next: 0,
  on: false,
};
const createEncoder = device.createCommandEncoder.bind(device);
device.createCommandEncoder = (descriptor) => {
  const encoder = createEncoder(descriptor);
  if (!timer.on || !timer.querySet) return encoder;
  const begin = encoder.beginComputePass.bind(encoder);
  encoder.beginComputePass = (d = {}) => {
    if (timer.next + 2 > 4096) throw new Error('node-webgpu-bench: more than 2048 timed passes; lower --steps');
    const w = { querySet: timer.querySet, beginningOfPassWriteIndex: timer.next, endOfPassWriteIndex: timer.next + 1 };
    timer.next += 2;
    return begin({ ...d, timestampWrites: w });
  };
  return encoder;
};

/** Sum of (end - begin) of the passes timed since the last call, in ms. */
async function passTime() {
  const n = timer.next;
  timer.next = 0;
  if (!n) return null;
  const resolved = device.createBuffer({ size: n * 8, usage: QUERY_RESOLVE | COPY_SRC });
  const read = device.createBuffer({ size: n * 8, usage: MAP_READ | COPY_DST });
  const e = createEncoder();
  e.resolveQuerySet(timer.querySet, 0, n, resolved, 0);
  e.copyBufferToBuffer(resolved, 0, read, 0, n * 8);
  device.queue.submit([e.finish()]);
  await read.mapAsync(1);
  const t = new BigUint64Array(read.getMappedRange());
  let sum = 0n;
  for (let i = 0; i < n; i += 2) sum += t[i + 1] - t[i];
  read.unmap();
  read.destroy();
  resolved.destroy();
  return Number(sum) / 1e6;
}

/** Runs warm-up steps, then `steps` timed ones: { wall, gpu } ms per step. */
async function measure(step, steps) {
  for (let s = 0; s < 3; s++) step();
  await device.queue.onSubmittedWorkDone();
  timer.on = true;
  const start = performance.now();
  for (let s = 0; s < steps; s++) step();
  await device.queue.onSubmittedWorkDone();
  const wall = (performance.now() - start) / steps;
  timer.on = false;
  const gpuMs = await passTime();
  return { wall, gpu: gpuMs === null ? null : gpuMs / steps };
}

async function readBytes(buffer, size) {
  const staging = device.createBuffer({ size, usage: MAP_READ | COPY_DST });
  const e = createEncoder();
  e.copyBufferToBuffer(buffer, 0, staging, 0, size);
  device.queue.submit([e.finish()]);
  await staging.mapAsync(1);
  const bytes = new Uint8Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return bytes;
}

/** The hand-written loop: two storage buffers ping-ponged, one pass and one submit a step (as xfb). */
function handWritten(initial, count) {
  const size = count * 32;
  const buffers = [0, 1].map(() => device.createBuffer({ size, usage: STORAGE | COPY_SRC | COPY_DST }));
  device.queue.writeBuffer(buffers[0], 0, initial);
  const groups = Math.ceil(count / GROUP);
  const x = Math.min(groups, l.maxComputeWorkgroupsPerDimension), y = Math.ceil(groups / x);
  const params = device.createBuffer({ size: 16, usage: UNIFORM | COPY_DST });
  device.queue.writeBuffer(params, 0, new Uint32Array([new Uint32Array(new Float32Array([0.5]).buffer)[0], count, x * GROUP, 0]));
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: WGSL }), entryPoint: 'main' } });
  const groupsOf = [0, 1].map((i) => device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
    { binding: 0, resource: { buffer: buffers[i] } }, { binding: 1, resource: { buffer: buffers[1 - i] } }, { binding: 2, resource: { buffer: params } }] }));
  let current = 0;
  return {
    step() {
      const e = device.createCommandEncoder();
      const pass = e.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, groupsOf[current]);
      pass.dispatchWorkgroups(x, y);
      pass.end();
      device.queue.submit([e.finish()]);
      current = 1 - current;
    },
    bytes: () => readBytes(buffers[current], size),
    dispose: () => { for (const b of [...buffers, params]) b.destroy(); },
  };
}

const xfb = await createXfb({ device });
const fmt = (ms) => (ms === null ? '-' : ms < 0.1 ? ms.toFixed(4) : ms.toFixed(3));
console.log('elements    steps  xfb ms/step (gpu | wall)   hand-written ms/step (gpu | wall)   ratio xfb/hand (gpu | wall)   bytes');
let differ = false;
for (const count of sizes) {
  const steps = fixedSteps !== undefined ? Number(fixedSteps) : Math.max(20, Math.min(1000, Math.round(2e8 / count)));
  const initial = particles(count);
  const state = xfb.createBuffer({ format: FORMAT, count, data: initial });
  const scratch = xfb.createBuffer({ format: FORMAT, count });
  const program = xfb.createProgram({ source: SOURCE });
  program.setUniform('dt', 0.5);
  const pipeline = xfb.createPipeline(program, [{ input: state, output: scratch }]);
  await pipeline.ready;
  const mine = handWritten(initial, count);
  const a = await measure(() => pipeline.step(), steps);
  const b = await measure(() => mine.step(), steps);
  const read = await state.read();
  const ours = Buffer.from(read.buffer, read.byteOffset, read.byteLength), theirs = Buffer.from(await mine.bytes());
  const same = ours.equals(theirs);
  differ ||= !same;
  const ratio = (p, q) => (p === null || q === null ? '-' : (p / q).toFixed(2));
  console.log(`${String(count).padEnd(10)} ${String(steps).padStart(6)}  ${`${fmt(a.gpu)} | ${fmt(a.wall)}`.padEnd(25)} ${`${fmt(b.gpu)} | ${fmt(b.wall)}`.padEnd(35)} ${`${ratio(a.gpu, b.gpu)} | ${ratio(a.wall, b.wall)}`.padEnd(29)} ${same ? 'identical' : 'DIFFER'}`);
  mine.dispose();
  for (const o of [pipeline, program, state, scratch]) o.dispose();
}
xfb.dispose();
device.destroy();
if (differ) {
  console.error('node-webgpu-bench: xfb and the hand-written loop ended with different bytes');
  process.exit(1);
}
