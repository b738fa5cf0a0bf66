// The package's WebGPU engine in Node on Dawn (the npm package webgpu, no globals installed): the
// refusals and the `gpu` option's checks always; real steps only where Dawn finds an adapter (a
// GPU machine with a Vulkan driver Dawn accepts), else those cases are reported skipped with why.
// Run: XFB_NPM_DIR=build/wasm/npm node --test tests/web/node-webgpu.test.mjs
//   XFB_REQUIRE_WEBGPU_ADAPTER=1  no adapter is a failure (the GPU machine's run sets it)
//   XFB_NODE_WEBGPU_SIZES=1e6,1.6e7  element counts of the step case (default 1, 257, 10000)
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { create } from 'webgpu';
import { assert, test } from './node-counting.mjs';
import { FORMAT, SOURCE, firstDifference, particles, reference } from './particle-fixture.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const npm = resolve(process.env.XFB_NPM_DIR ?? join(here, '../../build/wasm/npm'));
const { default: createXfb, XfbError } = await import(pathToFileURL(`${npm}/index.js`).href);

const requireAdapter = process.env.XFB_REQUIRE_WEBGPU_ADAPTER === '1';
const sizes = (process.env.XFB_NODE_WEBGPU_SIZES ?? '1,257,10000').split(',').map(Number);
if (!sizes.every((n) => Number.isInteger(n) && n > 0)) throw new Error(`XFB_NODE_WEBGPU_SIZES: positive integers, got '${process.env.XFB_NODE_WEBGPU_SIZES}'`);
const dawn = create([]);
const adapter = await dawn.requestAdapter();
const info = adapter ? `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim() : null;
console.log(adapter ? `xfb-node-webgpu: Dawn's adapter: ${info}` : "xfb-node-webgpu: Dawn gives no adapter here: the cases that step are skipped");
// Real cases: skipped (with the reason, never passed silently) where Dawn has no adapter.
const onGpu = adapter ? {} : { skip: 'Dawn gives no WebGPU adapter on this machine (no Vulkan driver it accepts)' };

/** An engine on Dawn with the particle step over `initial` (state pair, dt 0.5) given to `use`,
 *  disposed afterwards. */
async function withParticleStep(initial, use, bufferOptions = {}) {
  const count = initial.length / 8;
  const xfb = await createXfb({ backend: 'webgpu', gpu: dawn });
  try {
    const state = xfb.createBuffer({ format: FORMAT, count, data: initial, ...bufferOptions });
    const scratch = xfb.createBuffer({ format: FORMAT, count });
    const sim = xfb.createProgram({ source: SOURCE });
    sim.setUniform('dt', 0.5);
    const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
    await use({ xfb, state, pipeline });
  } finally {
    xfb.dispose();
  }
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
    await withParticleStep(initial, async ({ state, pipeline }) => {
      for (let s = 0; s < steps; s++) pipeline.step();
      assert.equal(firstDifference(await state.read(), reference(initial, steps)), null);
      const checked = await pipeline.stepChecked(); // a sixth step, its count checked on the GPU
      assert.equal(checked.written, count);
      assert.equal(firstDifference(await state.read(), reference(initial, steps + 1)), null);
    });
  });

test('read({ first, count }) on Dawn: the middle of a stepped state, and a range past the end refused', onGpu, async () => {
  const initial = particles(1000);
  await withParticleStep(initial, async ({ state, pipeline }) => {
    pipeline.step(3);
    const range = await state.read({ first: 321, count: 17 });
    assert.equal(range.length, 17 * 8);
    assert.equal(firstDifference(range, reference(initial, 3).subarray(321 * 8, 338 * 8)), null);
    await refusal(state.read({ first: 990, count: 11 }), 'XFB_INVALID_ARGUMENT', /990/);
  });
});

test('restore() after the device is lost: a new device from the same gpu (no navigator.gpu in Node)', onGpu, async () => {
  const initial = particles(64);
  await withParticleStep(initial, async ({ xfb, state, pipeline }) => {
    const lost = new Promise((done) => xfb.on('contextlost', done));
    const old = xfb.device;
    old.destroy();
    assert.equal((await lost).reason, 'destroyed');
    await xfb.restore();
    assert.notEqual(xfb.device, old);
    pipeline.step(2);
    assert.equal(firstDifference(await state.read(), reference(initial, 2)), null);
  }, { restore: 'initial' });
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
