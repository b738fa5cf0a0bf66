// Partial reads on both engines: read({ first, count }) gives exactly the bytes of elements
// [first, first + count) after steps (a 36-byte interleaved record, so ranges start off any vec4
// boundary; an int32 format), the same typed array type as a whole read, an empty range is empty,
// only a whole read is kept for the 'last-readback' restore policy, refusals carry the same code
// and message on both engines and change nothing, and a WebGL2 read no longer waits for an
// animation frame (the fence is polled across tasks: core/poll.ts).
import { assert, assertArrayEqual, createXfb, expectError, pseudoRandom } from './assert.js';

const gl2 = await createXfb({ canvas: document.getElementById('canvas') });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice() }) : null;
const engines = [gl2, gpu];
const f = Math.fround;
const record = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
const source = `#version 300 es
in vec4 p;
in vec3 n;
in vec2 t;
out vec4 out_p;
out vec3 out_n;
out vec2 out_t;
void main() { out_p = p * 2.0; out_n = n + vec3(1.0); out_t = t - vec2(0.5); }`;

async function onBoth(body) {
  assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
  const results = [];
  for (const xfb of engines) results.push(await body(xfb));
  return results;
}

test('elements [first, first + count) of a 36-byte record after two steps, on both engines, equal the reference', async () => {
  const n = 1000;
  const initial = pseudoRandom(9 * n, -1, 1, 5);
  const after = initial.map((x, i) => { const w = i % 9; return w < 4 ? f(f(x * 2) * 2) : w < 7 ? f(f(x + 1) + 1) : f(f(x - 0.5) - 0.5); });
  const ranges = [{ first: 0, count: 16 }, { first: 1, count: 1 }, { first: 517, count: 16 }, { first: 984 }, { count: 3 }, {}, { first: 1000 }, { first: 10, count: 0 }];
  const [a, b] = await onBoth(async (xfb) => {
    const state = xfb.createBuffer({ format: record, count: n, data: initial });
    const pipeline = xfb.createPipeline(xfb.createProgram({ source }), [{ input: state, output: xfb.createBuffer({ format: record, count: n }) }]);
    pipeline.step();
    pipeline.step();
    const got = [];
    for (const r of ranges) got.push(await state.read(r));
    return got;
  });
  ranges.forEach((r, k) => {
    const first = r.first ?? 0, count = r.count ?? n - first;
    const want = after.subarray(first * 9, (first + count) * 9);
    for (const [engine, got] of [['WebGL2', a[k]], ['WebGPU', b[k]]]) {
      assert(got instanceof Float32Array, `${engine} ${JSON.stringify(r)}: a Float32Array, got ${got?.constructor?.name}`);
      assertArrayEqual(got, want, `${engine} read(${JSON.stringify(r)})`);
    }
  });
});

test('an int32 format reads as Int32Array, a range of it too', async () => {
  const ints = [{ semantic: 'ATTR0', type: 'int32', components: 2 }];
  const data = Int32Array.from({ length: 20 }, (_, i) => (i - 10) * 1000003);
  const [a, b] = await onBoth((xfb) => xfb.createBuffer({ format: ints, count: 10, data }).read({ first: 3, count: 4 }));
  for (const got of [a, b]) {
    assert(got instanceof Int32Array, got.constructor.name);
    assertArrayEqual(got, data.subarray(6, 14), 'int32 range');
  }
});

test('refusals: the same code and message on both engines, and the buffer unchanged', async () => {
  const data = pseudoRandom(16, -1, 1, 9);
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  const buffers = new Map(engines.map((xfb) => [xfb, xfb.createBuffer({ format: vec4, count: 4, data, label: 'small' })]));
  for (const options of [{ first: 2, count: 3 }, { first: 5 }, { count: 5 }, { first: -1 }, { count: 1.5 }, { frist: 0 }, null]) {
    const [e0, e1] = await onBoth((xfb) => expectError('XFB_INVALID_ARGUMENT', () => buffers.get(xfb).read(options)));
    assert(e0.message === e1.message, `${JSON.stringify(options)}: "${e0.message}" / "${e1.message}"`);
  }
  const e = await expectError('XFB_INVALID_ARGUMENT', () => buffers.get(gpu).read({ first: 2, count: 3 }));
  assert(e.message.endsWith("read(): first 2, count 3 does not fit the buffer's 4 elements; give first + count <= 4"), e.message);
  for (const xfb of engines) assertArrayEqual(await buffers.get(xfb).read(), data, 'unchanged');
});

test("only a whole read is kept for 'last-readback': a partial read after it does not replace it", async () => {
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  const engine = await createXfb({ canvas: document.createElement('canvas') });
  const lose = engine.gl.getExtension('WEBGL_lose_context');
  const state = engine.createBuffer({ format: vec4, count: 8, data: pseudoRandom(32, -1, 1, 2) });
  const pipeline = engine.createPipeline(engine.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(1.0); }' }),
    [{ input: state, output: engine.createBuffer({ format: vec4, count: 8 }) }]);
  pipeline.step();
  const whole = await state.read(); // kept
  pipeline.step();
  const part = await state.read({ first: 2, count: 2 }); // not kept: it would mix two steps' data
  assertArrayEqual(part, whole.subarray(8, 16).map((x) => f(x + 1)), 'the partial read is of the second step');
  const restored = new Promise((resolve) => engine.on('contextrestored', resolve));
  lose.loseContext();
  await new Promise((resolve) => setTimeout(resolve, 50));
  lose.restoreContext();
  const detail = await restored;
  assert(detail.buffers.some((r) => r.buffer === state && r.restoredFrom === 'last-readback'), JSON.stringify(detail.buffers.map((r) => r.restoredFrom)));
  assertArrayEqual(await state.read(), whole, 'restored from the last whole read');
  engine.dispose();
});

test('a WebGL2 read resolves in fewer tasks than frames: it does not wait for requestAnimationFrame', async ({ note }) => {
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  const buffer = gl2.createBuffer({ format: vec4, count: 16, data: pseudoRandom(64, -1, 1, 4) });
  await buffer.read();
  let frames = 0, running = true;
  const count = () => { frames++; if (running) requestAnimationFrame(count); };
  requestAnimationFrame(count);
  const reads = 20;
  for (let i = 0; i < reads; i++) await buffer.read({ first: 3, count: 2 });
  running = false;
  note(`${reads} reads of 2 elements in ${frames} animation frames`);
  assert(frames < reads / 2, `${reads} sequential reads took ${frames} frames: read() waits for frames`);
});

// A read never waits forever: here the application's own listener stops the 'webglcontextlost'
// event before xfb's sees it (so xfb does not know), and the lost context's fence never signals.
// Before the bounded wait the read polled forever; now it settles with XFB_CONTEXT_LOST.
test('a read pending when the context is lost settles with XFB_CONTEXT_LOST, even if xfb never hears of the loss', async () => {
  const canvas = document.createElement('canvas');
  canvas.addEventListener('webglcontextlost', (e) => { e.preventDefault(); e.stopImmediatePropagation(); });
  const engine = await createXfb({ canvas });
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  const state = engine.createBuffer({ format: vec4, count: 1000, data: pseudoRandom(4000, -1, 1, 6) });
  const pipeline = engine.createPipeline(engine.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0; }' }),
    [{ input: state, output: engine.createBuffer({ format: vec4, count: 1000 }) }]);
  pipeline.step();
  const refused = expectError('XFB_CONTEXT_LOST', () => state.read({ first: 0, count: 16 }));
  engine.gl.getExtension('WEBGL_lose_context').loseContext();
  let timer;
  const never = new Promise((resolve) => { timer = setTimeout(() => resolve('never settled'), 20_000); }); // liveness, not speed
  const e = await Promise.race([refused, never]);
  clearTimeout(timer);
  assert(e !== 'never settled', 'the read of a lost context never settled');
  assert(e.message.startsWith('XFB_CONTEXT_LOST: read(): the WebGL context was lost while it waited for the GPU'), e.message);
  assert(!engine.isContextLost, 'xfb was not told of the loss (the event was stopped): the read found it itself');
  engine.dispose();
});

// The other bound: a fence that never signals (the context's clientWaitSync stubbed to answer
// TIMEOUT_EXPIRED) and a clock that runs 10 s per look (performance.now stubbed) settle the read with
// XFB_GL_ERROR once 60 s have "passed"; with both restored, the same buffer reads its bytes: nothing lost.
test('a read whose fence never signals settles with XFB_GL_ERROR after 60 s, and the next read works', async () => {
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  const data = pseudoRandom(64, -1, 1, 9);
  const buffer = gl2.createBuffer({ format: vec4, count: 16, data });
  const gl = gl2.gl;
  const now = performance.now;
  let offset = 0;
  gl.clientWaitSync = () => gl.TIMEOUT_EXPIRED;
  performance.now = () => now.call(performance) + (offset += 10_000);
  let e;
  try {
    e = await expectError('XFB_GL_ERROR', () => buffer.read({ first: 0, count: 4 }));
  } finally {
    delete gl.clientWaitSync;
    performance.now = now;
  }
  assert(/read\(\): no answer from the GPU in 60 s/.test(e.message), e.message);
  assert(offset > 60_000 && offset <= 120_000, `the wait gave up after ${offset / 1000} s of the stubbed clock`);
  assertArrayEqual(await buffer.read(), data, 'the buffer after the abandoned read');
  buffer.dispose();
});
