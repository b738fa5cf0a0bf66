// The package's WebGPU engine in Node on Dawn (the npm package webgpu, no globals installed): the
// refusals and the `gpu` option's checks always; real steps only where Dawn finds an adapter (a
// GPU machine with a Vulkan driver Dawn accepts), else those cases are reported skipped with why.
// Run: XFB_NPM_DIR=build/wasm/npm node --test tests/web/node-webgpu.test.mjs
//   XFB_REQUIRE_WEBGPU_ADAPTER=1  no adapter is a failure (the GPU machine's run sets it)
//   XFB_NODE_WEBGPU_SIZES=1e6,1.6e7  element counts of the step case (default 1, 257, 10000)
import strictAssert from 'node:assert/strict';
import { after, test as nodeTest } from 'node:test';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { create } from 'webgpu';

const here = dirname(fileURLToPath(import.meta.url));
const npm = resolve(process.env.XFB_NPM_DIR ?? join(here, '../../build/wasm/npm'));
const { default: createXfb, XfbError } = await import(pathToFileURL(`${npm}/index.js`).href);

// Counts the cases and assertions that ran, as node.test.mjs does (tests/run-summary.mjs reads the line).
let cases = 0, asserts = 0;
const counted = (fn) => (...args) => { asserts++; return fn(...args); };
const assert = Object.assign(counted(strictAssert), Object.fromEntries(
  Object.entries(strictAssert).map(([name, fn]) => [name, typeof fn === 'function' && /^[a-z]/.test(name) ? counted(fn) : fn])));
const test = (name, ...rest) => { const fn = rest.pop(); return nodeTest(name, rest[0] ?? {}, (t) => { cases++; return fn(t); }); };
after(() => {
  console.log(`xfb-test-run: cases=${cases} asserts=${asserts}`);
  if (cases === 0 || asserts === 0) { console.error('xfb-test-run: no test case or no assertion ran: this run checked nothing'); process.exitCode = 1; }
});

const requireAdapter = process.env.XFB_REQUIRE_WEBGPU_ADAPTER === '1';
const sizes = (process.env.XFB_NODE_WEBGPU_SIZES ?? '1,257,10000').split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`XFB_NODE_WEBGPU_SIZES: positive integers, got '${process.env.XFB_NODE_WEBGPU_SIZES}'`);
const dawn = create([]);
const adapter = await dawn.requestAdapter();
const info = adapter ? `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim() : null;
console.log(adapter ? `xfb-node-webgpu: Dawn's adapter: ${info}` : "xfb-node-webgpu: Dawn gives no adapter here: the cases that step are skipped");
// Real cases: skipped (with the reason, never passed silently) where Dawn has no adapter.
const onGpu = adapter ? {} : { skip: 'Dawn gives no WebGPU adapter on this machine (no Vulkan driver it accepts)' };

const SOURCE = `#version 300 es
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity * 0.5; }`;
const FORMAT = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];

/** count particles (8 floats each) of varied magnitudes and signs, the same for a given count. */
function particles(count) {
  const data = new Float32Array(count * 8);
  let x = 12345;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    data[i] = ((x >>> 8) / 2 ** 24 - 0.5) * 2 ** ((i % 7) - 3);
  }
  return data;
}
/** The step in float32 arithmetic, `steps` times. */
function reference(initial, steps, dt = 0.5) {
  const d = Float32Array.from(initial);
  for (let s = 0; s < steps; s++)
    for (let e = 0; e < d.length; e += 8)
      for (let c = 0; c < 4; c++) {
        d[e + c] = Math.fround(d[e + c] + Math.fround(d[e + 4 + c] * dt));
        d[e + 4 + c] = Math.fround(d[e + 4 + c] * 0.5);
      }
  return d;
}
/** The first element whose bits differ, or null. */
function firstDifference(got, want) {
  const a = new Uint32Array(got.buffer, got.byteOffset, got.length), b = new Uint32Array(want.buffer, want.byteOffset, want.length);
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `float ${i} (element ${i >> 3}): ${got[i]} against ${want[i]}`;
  return null;
}
const refusal = async (promise, code, ...mentions) => {
  const error = await promise.then(() => null, (e) => e);
  assert.ok(error instanceof XfbError, `expected XfbError ${code}, got ${error}`);
  assert.equal(error.code, code, error.message);
  for (const m of mentions) assert.match(error.message, m);
  return error;
};

test('no WebGPU globals: the engine must work without them (none installed here)', () => {
  for (const name of ['GPUBufferUsage', 'GPUShaderStage', 'GPUMapMode', 'GPUBuffer', 'navigator'])
    assert.equal(typeof globalThis[name], name === 'navigator' && typeof navigator !== 'undefined' ? 'object' : 'undefined', name);
});

test("Dawn's adapter: an engine where there is one, else XFB_UNSUPPORTED saying no adapter and which drivers work", async () => {
  if (requireAdapter) assert.ok(adapter, 'XFB_REQUIRE_WEBGPU_ADAPTER=1: Dawn (the npm package webgpu) gave no adapter on this machine');
  const made = createXfb({ backend: 'webgpu', gpu: dawn });
  if (!adapter) {
    await refusal(made, 'XFB_UNSUPPORTED', /gpu\.requestAdapter\(\) gave no adapter/, /Vulkan driver/, /lavapipe is refused/);
    return;
  }
  const xfb = await made;
  assert.equal(xfb.backend, 'webgpu');
  assert.equal(xfb.capabilities.compute, true);
  assert.ok(xfb.device.limits.maxStorageBufferBindingSize >= 1 << 27, 'the device has the adapter\'s storage limit');
  xfb.dispose();
});

test('gpu: refusals with a GPU object that gives no adapter, or an adapter that refuses a device', async () => {
  const none = { requestAdapter: async () => null };
  await refusal(createXfb({ backend: 'webgpu', gpu: none }), 'XFB_UNSUPPORTED', /gpu\.requestAdapter\(\) gave no adapter/, /Vulkan driver/);
  await refusal(createXfb({ gpu: none }), 'XFB_UNSUPPORTED', /gave no adapter/); // a gpu alone means WebGPU, as a device does
  const asked = [];
  const limits = { maxStorageBuffersPerShaderStage: 10, maxStorageBufferBindingSize: 2 ** 30, maxBufferSize: 2 ** 31 };
  const refusing = {
    info: { vendor: 'acme', architecture: 'rocket', device: '', description: 'Acme 9000' },
    limits,
    requestDevice: async (descriptor) => { asked.push(descriptor); throw Object.assign(new Error('limit maxBufferSize exceeds the adapter'), { name: 'OperationError' }); },
  };
  const e = await refusal(createXfb({ backend: 'webgpu', gpu: { requestAdapter: async () => refusing } }), 'XFB_UNSUPPORTED',
    /the adapter \(acme rocket Acme 9000\) refused a device/, /OperationError: limit maxBufferSize exceeds the adapter/, /Vulkan driver/, /createXfb\(\{ device \}\)/);
  assert.doesNotMatch(e.message, /no adapter/);
  assert.deepEqual(asked, [{ requiredLimits: limits }], "xfb asks for the adapter's own storage limits");
});

test('gpu: XFB_INVALID_ARGUMENT for what is not a GPU, with a device, or on WebGL2; no adapter requested', async () => {
  let requested = 0;
  const counting = { requestAdapter: async () => { requested++; return null; } };
  for (const gpu of [{}, 42, null, 'gpu', { requestAdapter: 'yes' }])
    await refusal(createXfb({ backend: 'webgpu', gpu }), 'XFB_INVALID_ARGUMENT', /gpu must be a GPU object with requestAdapter\(\)/, /npm package webgpu/);
  const device = { createComputePipeline() {}, queue: {} };
  await refusal(createXfb({ backend: 'webgpu', gpu: counting, device }), 'XFB_INVALID_ARGUMENT', /a device or a gpu/, /not both/);
  await refusal(createXfb({ backend: 'webgl2', gpu: counting }), 'XFB_INVALID_ARGUMENT', /a gpu needs backend 'webgpu'/);
  await refusal(createXfb({ backend: 'webgpu', gpu: counting, gpus: counting }), 'XFB_INVALID_ARGUMENT', /gpus/);
  assert.equal(requested, 0, 'refused before any adapter was requested');
});

test('no gpu in Node: XFB_UNSUPPORTED naming the gpu option (Node has no navigator.gpu)', async () => {
  await refusal(createXfb({ backend: 'webgpu' }), 'XFB_UNSUPPORTED', /navigator\.gpu/, /gpu \}/, /npm package webgpu/);
});

for (const count of sizes)
  test(`a particle step on Dawn, ${count} elements, 5 steps: bit for bit the Math.fround reference`, onGpu, async () => {
    const initial = particles(count), steps = 5;
    const xfb = await createXfb({ backend: 'webgpu', gpu: dawn });
    try {
      const state = xfb.createBuffer({ format: FORMAT, count, data: initial });
      const scratch = xfb.createBuffer({ format: FORMAT, count });
      const sim = xfb.createProgram({ source: SOURCE });
      const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
      sim.setUniform('dt', 0.5);
      for (let s = 0; s < steps; s++) pipeline.step();
      const got = await state.read();
      const want = reference(initial, steps);
      assert.equal(firstDifference(got, want), null);
      const checked = await pipeline.stepChecked(); // a sixth step, its count checked on the GPU
      assert.equal(checked.written, count);
      assert.equal(firstDifference(await state.read(), reference(initial, steps + 1)), null);
    } finally {
      xfb.dispose();
    }
  });

test('read({ first, count }) on Dawn: the middle of a stepped state, and a range past the end refused', onGpu, async () => {
  const count = 1000, initial = particles(count);
  const xfb = await createXfb({ backend: 'webgpu', gpu: dawn });
  try {
    const state = xfb.createBuffer({ format: FORMAT, count, data: initial });
    const scratch = xfb.createBuffer({ format: FORMAT, count });
    const sim = xfb.createProgram({ source: SOURCE });
    sim.setUniform('dt', 0.5);
    const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
    pipeline.step(3);
    const range = await state.read({ first: 321, count: 17 });
    assert.equal(range.length, 17 * 8);
    assert.equal(firstDifference(range, reference(initial, 3).subarray(321 * 8, 338 * 8)), null);
    await refusal(state.read({ first: 990, count: 11 }), 'XFB_INVALID_ARGUMENT', /990/);
  } finally {
    xfb.dispose();
  }
});

test('restore() after the device is lost: a new device from the same gpu (no navigator.gpu in Node)', onGpu, async () => {
  const count = 64, initial = particles(count);
  const xfb = await createXfb({ backend: 'webgpu', gpu: dawn });
  try {
    const state = xfb.createBuffer({ format: FORMAT, count, data: initial, restore: 'initial' });
    const scratch = xfb.createBuffer({ format: FORMAT, count });
    const sim = xfb.createProgram({ source: SOURCE });
    sim.setUniform('dt', 0.5);
    const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
    const lost = new Promise((done) => xfb.on('contextlost', done));
    const old = xfb.device;
    old.destroy();
    assert.equal((await lost).reason, 'destroyed');
    await xfb.restore();
    assert.notEqual(xfb.device, old);
    pipeline.step(2);
    assert.equal(firstDifference(await state.read(), reference(initial, 2)), null);
  } finally {
    xfb.dispose();
  }
});

// The guide's example (docs/examples/node/particles.mjs) as a reader runs it: in a folder where
// `xfb` and `webgpu` are installed packages (links to this build and to tests/web's Dawn).
test('docs/examples/node/particles.mjs: the reference where Dawn has an adapter, else its XFB_UNSUPPORTED', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'xfb-node-example-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(npm, join(dir, 'node_modules', 'xfb'), 'dir');
    symlinkSync(resolve(here, 'node_modules', 'webgpu'), join(dir, 'node_modules', 'webgpu'), 'dir');
    copyFileSync(join(here, '../../docs/examples/node/particles.mjs'), join(dir, 'particles.mjs'));
    const { simulateInNode } = await import(pathToFileURL(join(dir, 'particles.mjs')).href);
    const initial = particles(300);
    const run = simulateInNode(initial, 300, 4);
    if (!adapter) {
      await refusal(run, 'XFB_UNSUPPORTED', /gave no adapter/);
      return;
    }
    assert.equal(firstDifference(await run, reference(initial, 4)), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
