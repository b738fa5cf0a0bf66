// The steady step(1) replayed from JavaScript (web/package/index.js, Xfb#recipe) against the wasm path: the
// same bits over many steps (a uniform changed every step, side swaps, fused steps, a context loss
// and restore, a rebuilt pipeline), the same GL calls, and every case that must keep the wasm
// path keeps it (pipeline.stepPath says which path the next step takes).
import { assert, assertArrayEqual, countCalls, createXfb, expectError, nextEvent, particlesStep, pseudoRandom, shader } from './assert.js';

const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
const gravity = [0, -9.75, 0.5];
const dtOf = (i) => (1 + (i % 7)) / 256; // changes every step; exact in float32

/** Two pipelines of one program over equal state: `replayed` (replay-eligible) and `wasm`
 *  ({ queries: true }: a query per step keeps every step in wasm). */
function pair(xfb, program, n, initial) {
  const make = (options) => {
    const state = xfb.createBuffer({ format, count: n, data: initial }), scratch = xfb.createBuffer({ format, count: n });
    return { state, scratch, pipeline: xfb.createPipeline(program, [{ input: state, output: scratch }], { backend: 'tf', ...options }) };
  };
  return { replayed: make({}), wasm: make({ queries: true }) };
}

test('replayed steps equal wasm steps bit for bit: a uniform per step, swaps, step(k), context loss, a rebuilt pipeline', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const xfb = await createXfb({ gl });
  const n = 64;
  const initial = pseudoRandom(8 * n, -1, 1, 21);
  initial.forEach((_, i) => { if (i % 8 === 3) initial[i] = 0.05 + Math.fround(Math.abs(initial[i])); }); // lives: respawns happen
  const program = xfb.createProgram({ source: await shader('particles.vert') });
  program.setUniform('gravity', gravity);
  let { replayed: r, wasm: w } = pair(xfb, program, n, initial);
  const ref = Float32Array.from(initial);
  let steps = 0, replays = 0, counted = 0; // counted: steps of the current r.pipeline
  // The WebGLBuffers of the state pair now; run() checks glBuffer moved by the parity of its steps.
  const rebase = () => ({ names: [r.state.glBuffer, r.scratch.glBuffer], steps });
  let base = rebase();
  const run = (count) => {
    for (let i = 0; i < count; i++, steps++) {
      program.setUniform('dt', dtOf(steps));
      if (r.pipeline.stepPath.replayed) replays++;
      r.pipeline.step();
      w.pipeline.step();
      particlesStep(ref, dtOf(steps), gravity);
      counted++;
    }
    const side = (steps - base.steps) & 1;
    assert(r.state.glBuffer === base.names[side] && r.scratch.glBuffer === base.names[side ^ 1], `step ${steps}: the state pair is on side ${side}`);
  };
  const compare = async (what) => {
    const [a, b] = [await r.state.read(), await w.state.read()];
    assertArrayEqual(a, b, `${what}: replayed vs wasm`);
    assertArrayEqual(a, ref, `${what}: replayed vs the JavaScript reference`);
    assert(r.pipeline.info.steps === counted, `${what}: the replayed pipeline counts ${r.pipeline.info.steps} steps, ${counted} ran`);
  };
  run(1);
  assert(r.pipeline.stepPath.replayed, `after a first step the next one replays: ${JSON.stringify(r.pipeline.stepPath)}`);
  assert(!w.pipeline.stepPath.replayed && w.pipeline.stepPath.reason.includes('queries'), `queries keep wasm: ${JSON.stringify(w.pipeline.stepPath)}`);
  run(100); // odd and even counts: both sides
  await compare('101 steps');
  run(31);
  // step(k) runs in wasm (fused); the next step(1) goes through wasm once, then replays again.
  for (const p of [r, w]) p.pipeline.step(4);
  for (let k = 0; k < 4; k++) particlesStep(ref, dtOf(steps - 1), gravity);
  steps += 4;
  counted += 4;
  base = rebase(); // a fused step(4) swaps once
  assert(!r.pipeline.stepPath.replayed, 'after step(k) the next step goes through wasm');
  run(9);
  await compare('after step(4)');

  // A context loss and restore: buffers come back from the last read(), the pipelines are rebuilt.
  const ext = gl.getExtension('WEBGL_lose_context');
  const lost = nextEvent(xfb, 'contextlost'), restored = nextEvent(xfb, 'contextrestored');
  ext.loseContext();
  await lost;
  await expectError('XFB_CONTEXT_LOST', () => r.pipeline.step());
  ext.restoreContext();
  await restored;
  assert(!r.pipeline.stepPath.replayed, 'after a restore the next step goes through wasm');
  base = rebase(); // new WebGLBuffers
  run(40);
  await compare('after a context restore');

  // A rebuilt pipeline over the same buffers.
  r.pipeline.dispose();
  r.pipeline = xfb.createPipeline(program, [{ input: r.state, output: r.scratch }], { backend: 'tf' });
  counted = 0;
  base = rebase();
  run(25);
  await compare('after rebuilding the pipeline');
  note(`${replays} of the steps replayed`);
  assert(replays > 180, `most steps replayed: ${replays}`);
  xfb.dispose();
});

test('the replayed step makes the same WebGL calls as the wasm step, in both modes', async ({ note }) => {
  for (const ownsContext of [false, true]) {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2');
    const calls = countCalls(gl);
    const xfb = await createXfb({ gl, ownsContext });
    const program = xfb.createProgram({ source: await shader('particles.vert') });
    program.setUniform('gravity', gravity);
    const { replayed: r, wasm: w } = pair(xfb, program, 16, pseudoRandom(128, -1, 1, 5));
    // Calls per name; glUniform* as one name (the replay sends one value by value: uniform1f).
    const perStep = (p) => {
      calls.reset();
      program.setUniform('dt', 0.01);
      p.pipeline.step();
      const out = {};
      for (const [name, count] of Object.entries(calls.snapshot())) out[name.startsWith('uniform') ? 'uniform*' : name] = count;
      return out;
    };
    const sum = (c) => Object.values(c).reduce((a, b) => a + b, 0);
    r.pipeline.step();
    w.pipeline.step(); // its first query object
    // Nothing bound by the application: the same calls.
    const replayCalls = perStep(r);
    assert(r.pipeline.stepPath.replayed, 'replayed');
    const wasmCalls = perStep(w);
    for (const q of ['createQuery', 'beginQuery', 'endQuery']) delete wasmCalls[q]; // the wasm pipeline's query (a new one until results are polled)
    note(`ownsContext ${ownsContext}: ${JSON.stringify(replayCalls)}`);
    assert(JSON.stringify(replayCalls) === JSON.stringify(wasmCalls), `ownsContext ${ownsContext}: replayed ${JSON.stringify(replayCalls)} vs wasm ${JSON.stringify(wasmCalls)}`);
    // Shared: + the queries of the application's other bindings of xfb's buffers (UNIFORM_BUFFER,
    // PIXEL_PACK/UNPACK, COPY_READ/WRITE), of every indexed UNIFORM_BUFFER point (issue 39: no
    // cheaper sign tells that the application bound one; answered in the renderer, no GPU round
    // trip) and of its transform feedback (active: XFB_FEEDBACK_ACTIVE).
    const points = gl.getParameter(gl.MAX_UNIFORM_BUFFER_BINDINGS);
    // (+ 1: the feedback probe's TRANSFORM_FEEDBACK_BUFFER_BINDING 0, webgl2/feedback_probe.ts)
    assert(replayCalls.getIndexedParameter === (ownsContext ? undefined : points + 1), `ownsContext ${ownsContext}: ${replayCalls.getIndexedParameter} indexed queries, ${points} points`);
    assert(sum(replayCalls) === (ownsContext ? 10 : 23 + points), `ownsContext ${ownsContext}: ${sum(replayCalls)} calls with one uniform upload`);
    if (!ownsContext) {
      // The application's program, vertex array, ARRAY_BUFFER, transform feedback and discard:
      // found as they were, with no more calls than the wasm step.
      const app = gl.createProgram();
      for (const [type, src] of [[gl.VERTEX_SHADER, '#version 300 es\nvoid main() { gl_Position = vec4(0.0); }'], [gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }']]) {
        const sh = gl.createShader(type); gl.shaderSource(sh, src); gl.compileShader(sh); gl.attachShader(app, sh);
      }
      gl.linkProgram(app);
      const vao = gl.createVertexArray(), buffer = gl.createBuffer(), tf = gl.createTransformFeedback();
      const bindApp = () => { gl.useProgram(app); gl.bindVertexArray(vao); gl.bindBuffer(gl.ARRAY_BUFFER, buffer); gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf); gl.enable(gl.RASTERIZER_DISCARD); };
      bindApp();
      const replayApp = perStep(r);
      const found = [gl.getParameter(gl.CURRENT_PROGRAM) === app, gl.getParameter(gl.VERTEX_ARRAY_BINDING) === vao, gl.getParameter(gl.ARRAY_BUFFER_BINDING) === buffer,
        gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING) === tf, gl.isEnabled(gl.RASTERIZER_DISCARD)];
      assert(found.every(Boolean), `the application's state after a replayed step: ${found}`);
      const wasmApp = perStep(w);
      note(`with application state: replayed ${sum(replayApp)} ${JSON.stringify(replayApp)}, wasm ${sum(wasmApp) - 3}`);
      assert(sum(replayApp) <= sum(wasmApp) - 3, `replayed ${sum(replayApp)} calls, wasm ${sum(wasmApp) - 3}`);
      assert(gl.getError() === gl.NO_ERROR, 'no GL error');
      assert(!replayApp.bindBuffer, `the application's own ARRAY_BUFFER stays bound, untouched: ${replayApp.bindBuffer} bindBuffer calls`);
      // An xfb buffer bound to ARRAY_BUFFER by the application (to draw it): cleared for the pass
      // (WebGL2 refuses a transform-feedback draw into a buffer bound elsewhere), then restored.
      for (const [name, buffer] of [['scratch', r.scratch], ['state', r.state]]) {
        const glBuffer = buffer.glBuffer;
        gl.bindBuffer(gl.ARRAY_BUFFER, glBuffer);
        const c = perStep(r);
        const error = gl.getError();
        assert(c.bindBuffer === 2 && gl.getParameter(gl.ARRAY_BUFFER_BINDING) === glBuffer && error === gl.NO_ERROR,
          `xfb's ${name} buffer bound to ARRAY_BUFFER: ${c.bindBuffer} bindBuffer calls, found again: ${gl.getParameter(gl.ARRAY_BUFFER_BINDING) === glBuffer}, error 0x${error.toString(16)}`);
      }
      gl.disable(gl.RASTERIZER_DISCARD); gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null); gl.bindBuffer(gl.ARRAY_BUFFER, null); gl.bindVertexArray(null); gl.useProgram(null);
    }
    xfb.dispose();
  }
});

test('what must keep the wasm path keeps it: checked steps, shared buffers, queries, loss, disposal', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const xfb = await createXfb({ gl });
  const n = 16;
  const program = xfb.createProgram({ source: await shader('particles.vert') });
  program.setUniform('gravity', gravity);
  program.setUniform('dt', 0.015625);
  const a = xfb.createBuffer({ format, count: n, data: pseudoRandom(8 * n, -1, 1, 9) }), b = xfb.createBuffer({ format, count: n });
  const p = xfb.createPipeline(program, [{ input: a, output: b }], { backend: 'tf' });
  p.step();
  assert(p.stepPath.replayed, 'armed after a first step');

  // A checked step runs in wasm, and a step while it is pending is refused as before.
  const checked = p.stepChecked();
  assert(!p.stepPath.replayed, 'a pending checked step disarms the replay');
  await expectError('XFB_INVALID_ARGUMENT', () => p.step());
  const report = await checked;
  assert(report.written === n && report.expected === n, `checked step: ${JSON.stringify(report)}`);
  p.step();
  p.step();
  assert(p.stepPath.replayed, 'armed again');
  // A checked step after replayed steps still detects a short write: the output shrunk by other code.
  gl.bindBuffer(gl.ARRAY_BUFFER, b.glBuffer);
  gl.bufferData(gl.ARRAY_BUFFER, 32, gl.DYNAMIC_COPY);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  const before = a.glBuffer;
  const e = await expectError('XFB_SHORT_WRITE', () => p.stepChecked());
  note(e.message);
  assert(a.glBuffer === before, 'a short write is not swapped');
  while (gl.getError() !== gl.NO_ERROR) {} // the short pass's own error (WebGL refuses it)

  // A second pipeline over the same buffers: neither replays (the side is told from shared names).
  const cData = pseudoRandom(8 * n, -1, 1, 10), cRef = Float32Array.from(cData);
  const c = xfb.createBuffer({ format, count: n, data: cData }), d = xfb.createBuffer({ format, count: n });
  const q1 = xfb.createPipeline(program, [{ input: c, output: d }], { backend: 'tf' });
  const q2 = xfb.createPipeline(program, [{ input: c, output: d }], { backend: 'tf' });
  q1.step(); q2.step();
  assert(!q1.stepPath.replayed && q1.stepPath.reason.includes('shared'), `shared buffers: ${JSON.stringify(q1.stepPath)}`);
  assert(!q2.stepPath.replayed, 'shared buffers, the other pipeline');
  const cBefore = c.glBuffer;
  for (let i = 0; i < 3; i++) { q1.step(); q2.step(); }
  assert(c.glBuffer === cBefore, 'an even number of steps over the shared pair: back on the first side');
  for (let i = 0; i < 8; i++) particlesStep(cRef, 0.015625, gravity);
  assertArrayEqual(await c.read(), cRef, 'two pipelines stepping one shared pair in turn');
  q2.dispose();
  q1.step();
  q1.step();
  assert(q1.stepPath.replayed, `once the other pipeline is disposed, it replays: ${JSON.stringify(q1.stepPath)}`);

  // Queries: every step in wasm.
  const r = xfb.createPipeline(program, [{ input: xfb.createBuffer({ format, count: n }), output: xfb.createBuffer({ format, count: n }) }], { queries: true });
  r.step(); r.step();
  assert(!r.stepPath.replayed && r.stepPath.reason.includes('queries'), `queries: ${JSON.stringify(r.stepPath)}`);

  // A disposed pipeline is refused, not replayed.
  q1.dispose();
  await expectError('XFB_DISPOSED', () => q1.step());
  // A lost context: the step is refused, not replayed into a dead context.
  p.step(); p.step();
  assert(p.stepPath.replayed, 'armed before the loss');
  const ext = gl.getExtension('WEBGL_lose_context');
  const lost = nextEvent(xfb, 'contextlost'), restored = nextEvent(xfb, 'contextrestored');
  ext.loseContext();
  await lost;
  assert(!p.stepPath.replayed, 'a lost context disarms the replay');
  await expectError('XFB_CONTEXT_LOST', () => p.step());
  await expectError('XFB_CONTEXT_LOST', () => program.setUniform('dt', 0.5));
  ext.restoreContext();
  await restored;
  xfb.dispose();
  await expectError('XFB_DISPOSED', () => p.step());
});

test('setUniform keeps its checks on the JavaScript path', async () => {
  const canvas = document.createElement('canvas');
  const xfb = await createXfb({ canvas });
  const program = xfb.createProgram({ source: await shader('particles.vert') });
  const a = xfb.createBuffer({ format, count: 4 }), b = xfb.createBuffer({ format, count: 4 });
  const p = xfb.createPipeline(program, [{ input: a, output: b }], { backend: 'tf' });
  program.setUniform('dt', 0.5);
  p.step();
  assert(p.stepPath.replayed, 'armed');
  await expectError('XFB_UNIFORM_TYPE', () => program.setUniform('dt', [1, 2]));
  await expectError('XFB_UNIFORM_TYPE', () => program.setUniform('gravity', [1, 2]));
  await expectError('XFB_INVALID_ARGUMENT', () => program.setUniform('dt', NaN));
  await expectError('XFB_UNKNOWN_UNIFORM', () => program.setUniform('missing', 1));
  program.setUniform('gravity', new Float32Array([0, 0, 0]));
  program.dispose();
  await expectError('XFB_DISPOSED', () => program.setUniform('dt', 1));
  await expectError('XFB_DISPOSED', () => p.step()); // a pipeline steps only while its program lives (as on WebGPU)
  xfb.dispose();
});

test('every uniform type uploads the same values on both paths: two float scalars, vectors, ints, uints, bools, a matrix, an array', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const xfb = await createXfb({ canvas });
  const source = '#version 300 es\nin vec4 p;\nuniform float f;\nuniform float g;\nuniform vec2 v2;\nuniform int i1;\nuniform ivec2 i2;\nuniform uint u1;\nuniform uvec3 u3;\n' +
    'uniform mat2 m;\nuniform float arr[3];\nuniform bool flag;\nout vec4 out_p;\n' +
    'void main() { vec2 a = m * v2; out_p = p + vec4(f + 2.0 * g + arr[0] + arr[1] + arr[2], a.x, float(i1 + i2.x + i2.y) + float(u1 + u3.x + u3.z), a.y + (flag ? 1.0 : 0.0)); }';
  const n = 8, initial = pseudoRandom(4 * n, -1, 1, 3);
  const vec4 = [{ semantic: 'ATTR0', components: 4 }];
  // A program each: the GL program holds what each path uploaded.
  const make = (options) => {
    const program = xfb.createProgram({ source });
    const state = xfb.createBuffer({ format: vec4, count: n, data: initial }), scratch = xfb.createBuffer({ format: vec4, count: n });
    return { program, state, pipeline: xfb.createPipeline(program, [{ input: state, output: scratch }], { backend: 'tf', ...options }) };
  };
  const r = make({}), w = make({ queries: true });
  let replays = 0;
  for (let i = 0; i < 12; i++) for (const { program } of [r, w]) {
    program.setUniform('f', i / 8);
    program.setUniform('g', 3 - i / 4); // a second float scalar: set by name, not the last one set
    program.setUniform('v2', [i, 0.5]);
    program.setUniform('i1', -i);
    program.setUniform('i2', new Int32Array([i, 2 * i]));
    program.setUniform('u1', i * 3);
    program.setUniform('u3', [i, 1, 2]);
    program.setUniform('m', [1, i / 4, 0.25, 2]);
    program.setUniform('arr', i % 2 ? [1, 2, 3] : [0.5, 0.25, 0.125]);
    program.setUniform('flag', i % 3 === 0 ? 1 : 0);
    if (program !== w.program) continue;
    if (r.pipeline.stepPath.replayed) replays++;
    r.pipeline.step();
    w.pipeline.step();
  }
  assertArrayEqual(await r.state.read(), await w.state.read(), 'replayed vs wasm');
  note(`${replays} of 12 steps replayed`);
  assert(replays === 11, `${replays} of 12 steps replayed`);
  xfb.dispose();
});

test('xfb.steps(): several pipelines in one save/restore give the results of separate steps and keep the application state', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = countCalls(gl);
  const xfb = await createXfb({ gl });
  const program = xfb.createProgram({ source: await shader('particles.vert') });
  program.setUniform('gravity', gravity);
  // A pipeline on the wasm path (queries) and four replayed ones in the batch; each against a
  // twin stepped alone (queries: always wasm) and the JavaScript reference.
  const n = 16, sims = [];
  for (let k = 0; k < 5; k++) {
    const initial = pseudoRandom(8 * n, -1, 1, 40 + k);
    initial.forEach((_, i) => { if (i % 8 === 3) initial[i] = 50; }); // no respawn in these steps
    const { replayed, wasm } = pair(xfb, program, n, initial);
    if (k === 0) replayed.pipeline.dispose(), replayed.pipeline = xfb.createPipeline(program, [{ input: replayed.state, output: replayed.scratch }], { queries: true });
    sims.push({ batched: replayed, alone: wasm, ref: Float32Array.from(initial) });
  }
  const app = { vao: gl.createVertexArray(), buffer: gl.createBuffer() };
  const frames = 9;
  for (let f = 0; f < frames; f++) {
    program.setUniform('dt', dtOf(f));
    // The application's, between frames; in the last one a buffer of the batch itself (bound to draw
    // it), which the batch must clear for its passes and bind again.
    const last = f === frames - 1, appBuffer = last ? sims[3].batched.state.glBuffer : app.buffer;
    gl.bindVertexArray(app.vao); gl.bindBuffer(gl.ARRAY_BUFFER, appBuffer);
    calls.reset();
    xfb.steps(sims.map((s) => s.batched.pipeline));
    if (f > 0) {
      // One save/restore for the four replayed pipelines (the wasm one brings its own guard).
      assert(calls.get('isEnabled') === 2, `frame ${f}: ${calls.get('isEnabled')} isEnabled calls (one per guard: the batch's and the wasm step's)`);
      assert(calls.get('drawArrays') === 5, `frame ${f}: five passes`);
      // The wasm step's guard makes 2 bindBuffer calls; the batch 2 more only when ARRAY_BUFFER holds
      // one of its buffers.
      const expected = last ? 4 : 2;
      assert(calls.get('bindBuffer') === expected, `frame ${f}: ${calls.get('bindBuffer')} bindBuffer calls, expected ${expected}`);
    }
    const found = [gl.getParameter(gl.VERTEX_ARRAY_BINDING) === app.vao, gl.getParameter(gl.ARRAY_BUFFER_BINDING) === appBuffer, gl.getParameter(gl.CURRENT_PROGRAM) === null, !gl.isEnabled(gl.RASTERIZER_DISCARD)];
    assert(found.every(Boolean), `frame ${f}: the application's state after xfb.steps(): ${found}`);
    for (const s of sims) { s.alone.pipeline.step(); particlesStep(s.ref, dtOf(f), gravity); }
  }
  assert(sims.slice(1).every((s) => s.batched.pipeline.stepPath.replayed), 'the four are replayed');
  for (const [k, s] of sims.entries()) {
    const [a, b] = [await s.batched.state.read(), await s.alone.state.read()];
    assertArrayEqual(a, b, `pipeline ${k}: batched vs alone`);
    assertArrayEqual(a, s.ref, `pipeline ${k}: batched vs the JavaScript reference`);
    assert(s.batched.pipeline.info.steps === frames, `pipeline ${k}: ${s.batched.pipeline.info.steps} steps counted`);
  }
  assert(gl.getError() === gl.NO_ERROR, 'no GL error');
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.steps([sims[1].batched.pipeline, {}]));
  note(`${frames} frames of 5 pipelines, one save/restore per frame for the replayed four`);
  xfb.dispose();
});
