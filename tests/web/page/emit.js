// Emitted (variable-count) outputs on both engines (emit_fixture.js): WebGL2 runs them as the
// fragment backend's passes over a pyramid of counts, WebGPU as compute passes over a prefix sum.
// One test body per case, run on each engine: the records land in input order, byte for byte the
// JavaScript reference (so both engines give the same bytes), with the same reports and the same
// overflow policies; a steady WebGL2 step reads nothing back and creates nothing.
import { assert, assertArrayEqual, countCalls, createXfb, expectError } from './assert.js';
import { kSplit, kSplitEmits, makeSplit, prefix, splitReference, vec4 } from './emit_fixture.js';

const gl = document.getElementById('canvas').getContext('webgl2');
const gl2 = await createXfb({ gl });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } }) }) : null;
const engines = () => {
  assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
  return [['webgl2', gl2], ['webgpu', gpu]];
};

test('emitted outputs: records in input order, byte-identical to the JS reference on WebGL2 and WebGPU, two budgets, the reports', async ({ note }) => {
  for (const [name, xfb] of engines()) {
    // 1000: one pyramid / scan level more than 256; 70000: past 4096 (a texture row) and 256 x 256.
    for (const n of [1000, 70000]) {
      const s = makeSplit(xfb, n, [3 * n]);
      await s.pipeline.ready;
      const ref = splitReference(s.data);
      const report = await s.pipeline.stepChecked();
      const sparkCount = ref.sparks.length / 4, tagCount = ref.tags.length, at = `${name} n=${n}`;
      assertArrayEqual(await s.state.read(), ref.state, `${at}: the state advanced`);
      assertArrayEqual(await s.sparks.read(), prefix(ref.sparks, 4, sparkCount, 12 * n, Float32Array), `${at}: sparks, input order`);
      assertArrayEqual(await s.colors.read(), prefix(ref.colors, 2, sparkCount, 6 * n, Float32Array), `${at}: colours, the same ranges as the sparks`);
      assertArrayEqual(await s.tags.read(), prefix(ref.tags, 1, tagCount, 2 * n, Uint32Array), `${at}: tags, the second budget`);
      const expected = [{ budget: 'emit_count', requested: sparkCount, written: sparkCount, capacity: 3 * n },
        { budget: 'emit_tags', requested: tagCount, written: tagCount, capacity: 2 * n }];
      assert(JSON.stringify(report.emitted) === JSON.stringify(expected), `${at}: report ${JSON.stringify(report.emitted)}`);
      assert(report.written === n && report.expected === n, `${at}: ${JSON.stringify(report)}`);
      // A second step from the halved energies: fewer sparks, still in order (counts change per step).
      s.pipeline.step();
      const ref2 = splitReference(ref.state);
      assertArrayEqual((await s.sparks.read()).subarray(0, ref2.sparks.length), ref2.sparks, `${at}: step 2 sparks`);
      assert((await s.pipeline.emitted())[0].written === ref2.sparks.length / 4, `${at}: emitted() after step()`);
      note(`${at}: ${sparkCount} sparks, ${tagCount} tags; step 2: ${ref2.sparks.length / 4} sparks (${s.pipeline.info.backend})`);
      s.dispose();
    }
  }
});

test('emitted outputs: capacity overflow is an XFB_CAPACITY error (state not swapped) or clamped, never written past capacity, on both engines', async () => {
  const n = 600, capacity = 100;
  for (const [name, xfb] of engines())
    for (const overflow of [undefined, 'clamp']) {
      const s = makeSplit(xfb, n, [capacity, capacity + 7, 50], overflow ? { overflow } : {});
      await s.pipeline.ready;
      const ref = splitReference(s.data);
      const at = `${name} ${overflow ?? 'error'}`;
      if (overflow === undefined) {
        const e = await expectError('XFB_CAPACITY', () => s.pipeline.stepChecked());
        assert(e.message.includes('emit_count') && e.message.includes(String(ref.sparks.length / 4)) && e.message.includes(String(capacity)), `${at}: ${e.message}`);
        assertArrayEqual(await s.state.read(), s.data, `${at}: not swapped, the state is the one before the step`);
        assert(s.pipeline.info.steps === 0, `${at}: no step counted`);
      } else {
        const report = await s.pipeline.stepChecked();
        assertArrayEqual(await s.state.read(), ref.state, `${at}: swapped, the state advanced`);
        assert(report.emitted[0].requested === ref.sparks.length / 4 && report.emitted[0].written === capacity && report.emitted[0].capacity === capacity,
          `${at}: ${JSON.stringify(report.emitted)}`);
        assert(report.emitted[1].written === 50 && report.emitted[1].requested === ref.tags.length, `${at}: ${JSON.stringify(report.emitted)}`);
      }
      // Either way: the first `capacity` records (the budget's smallest buffer), nothing past it.
      assertArrayEqual(await s.sparks.read(), ref.sparks.subarray(0, capacity * 4), `${at}: sparks, the first records in input order`);
      assertArrayEqual(await s.colors.read(), prefix(ref.colors, 2, capacity, (capacity + 7) * 2, Float32Array), `${at}: colours, nothing past the budget capacity`);
      assertArrayEqual(await s.tags.read(), ref.tags.subarray(0, 50), `${at}: tags, the second budget clamped at its own capacity`);
      s.dispose();
    }
});

test('WebGL2: a steady emitting step reads nothing back (no readPixels, getBufferSubData, clientWaitSync) and creates nothing', async ({ note }) => {
  const s = makeSplit(gl2, 3000, [9000]);
  assert(s.pipeline.info.backend === 'fragment' && s.pipeline.info.backendReason.includes('pyramid'), JSON.stringify(s.pipeline.info));
  // The first two steps fill the planes and make each ping-pong side's framebuffers (on first use).
  s.pipeline.step();
  s.pipeline.step();
  const calls = countCalls(gl);
  let ref = splitReference(splitReference(s.data).state);
  for (let k = 0; k < 10; k++) {
    ref = splitReference(ref.state);
    s.pipeline.step();
  }
  const counted = calls.snapshot();
  calls.reset();
  note(`10 steady steps: ${JSON.stringify(counted)}`);
  for (const read of ['readPixels', 'getBufferSubData', 'clientWaitSync', 'fenceSync', 'getQueryParameter', 'finish'])
    assert(!counted[read], `${read} in a steady step: ${counted[read]}`);
  const created = Object.keys(counted).filter((k) => k.startsWith('create') || k.startsWith('delete') || k === 'texStorage2D' || k === 'bufferData');
  assert(created.length === 0, `objects made or freed in steady steps: ${created.join(', ')}`);
  assert(counted.drawArrays >= 10 * 4, `each step draws its passes: ${counted.drawArrays} draws`);
  // What the steps wrote (read after counting): the 12th step's state and tags, and emitted() agrees.
  assertArrayEqual(await s.state.read(), ref.state, 'the state after 12 steps');
  assertArrayEqual((await s.tags.read()).subarray(0, ref.tags.length), ref.tags, 'the 12th step\'s tags');
  const reports = await s.pipeline.emitted();
  assert(reports[0].requested === ref.sparks.length / 4 && reports[1].requested === ref.tags.length, JSON.stringify(reports));
  s.dispose();
});

test('WebGL2: emits run on the fragment backend only (tf refused, auto says why); malformed emits refused as on WebGPU', async () => {
  const program = gl2.createProgram({ source: kSplit });
  const state = gl2.createBuffer({ format: vec4(0), count: 4 }), next = gl2.createBuffer({ format: vec4(0), count: 4 });
  const sparks = gl2.createBuffer({ format: vec4(0), count: 8 });
  const e = await expectError('XFB_UNSUPPORTED', () => gl2.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: kSplitEmits.slice(0, 1), backend: 'tf' }));
  assert(e.message.includes('fragment'), e.message);
  await expectError('XFB_UNKNOWN_VARYING', () => gl2.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: [{ varying: 'emit_nothing', count: 'emit_count' }] }));
  await expectError('XFB_INVALID_ARGUMENT', () => gl2.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: kSplitEmits.slice(0, 1), overflow: 'wrap' }));
  await expectError('XFB_OUTPUT_COUNT_MISMATCH', () => gl2.createPipeline(program, [{ input: state, output: next }], { emits: kSplitEmits.slice(0, 1) }));
  const plain = gl2.createPipeline(program, [{ input: state, output: next }]);
  await expectError('XFB_INVALID_ARGUMENT', () => plain.emitted());
  for (const o of [plain, program, state, next, sparks]) o.dispose();
  assert(gl2.takeForeignGlErrors().length === 0 && gl.getError() === gl.NO_ERROR, 'no GL error left behind');
});
