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
  // Auto: the only backend that writes emitted outputs on WebGL2, and why the others cannot.
  const { backend, backendReason } = s.pipeline.info;
  assert(backend === 'fragment', `auto chose ${backend}`);
  for (const why of ['auto: fragment, the only backend here', 'pyramid of counts', 'transform feedback cannot write emitted outputs', 'compute is not available'])
    assert(backendReason.includes(why), `the reason says '${why}': ${backendReason}`);
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

// drawEmitted() on WebGL2 (no indirect draw): the capacity is drawn and the application's vertex
// shader, holding xfb.emittedDrawSnippet, moves the records at or past the GPU total (the
// pyramid's top texel) out of the clip volume. Record slot s is drawn as the pixel (s % W, s / W)
// of an RGBA32UI target holding the record's bits, so the pixels are compared with the JS
// reference exactly: the first `total` slots hold the sparks in input order, the rest the clear value.
const kW = 128, kH = 80, kClear = 0xdeadbeef;
// [docs:webgl2-emitted-vertex]
const drawVertex = (snippet) => `#version 300 es
${snippet}
in vec4 a_spark;
uniform int u_per;
flat out uvec4 v_bits;
void main() {
    int j = gl_VertexID / u_per;
    vec2 pixel = vec2(float(j % ${kW}), float(j / ${kW})) + 0.5;
    if (u_per == 3) pixel += vec2(gl_VertexID % 3 == 1 ? 0.45 : -0.4, gl_VertexID % 3 == 2 ? 0.45 : -0.4);
    gl_Position = xfb_emittedPosition(vec4(pixel / vec2(${kW}.0, ${kH}.0) * 2.0 - 1.0, 0.0, 1.0));
    gl_PointSize = 1.0;
    v_bits = u_per == 3 ? uvec4(1u) : floatBitsToUint(a_spark);
}`;
// [docs:end]
const drawFragment = `#version 300 es
precision highp float;
flat in uvec4 v_bits;
out uvec4 o;
void main() { o = v_bits; }`;

function linkDraw(vs, fs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    assert(gl.getShaderParameter(s, gl.COMPILE_STATUS), `draw shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  assert(gl.getProgramParameter(p, gl.LINK_STATUS), `draw program: ${gl.getProgramInfoLog(p)}`);
  return p;
}

/** An RGBA32UI target of kW x kH, its clear and its pixels (after the counted section). */
function uintTarget() {
  const fb = gl.createFramebuffer(), rb = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, rb);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA32UI, kW, kH);
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, rb);
  assert(gl.checkFramebufferStatus(gl.FRAMEBUFFER) === gl.FRAMEBUFFER_COMPLETE, 'the RGBA32UI target is complete');
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  return {
    bind: () => { gl.bindFramebuffer(gl.FRAMEBUFFER, fb); gl.viewport(0, 0, kW, kH); },
    clear: () => gl.clearBufferuiv(gl.COLOR, 0, [kClear, kClear, kClear, kClear]),
    pixels: () => { const out = new Uint32Array(kW * kH * 4); gl.readPixels(0, 0, kW, kH, gl.RGBA_INTEGER, gl.UNSIGNED_INT, out); return out; },
    dispose: () => { gl.bindFramebuffer(gl.FRAMEBUFFER, null); gl.deleteFramebuffer(fb); gl.deleteRenderbuffer(rb); },
  };
}

/** The expected pixels of points: slot s < min(total, capacity) holds spark s's bits. */
function expectedPoints(sparks, capacity) {
  const out = new Uint32Array(kW * kH * 4).fill(kClear);
  out.set(new Uint32Array(sparks.buffer, 0, Math.min(sparks.length, capacity * 4)));
  return out;
}

test('WebGL2: drawEmitted draws the GPU total through xfb.emittedDrawSnippet, pixels = the reference, no readback in steady steps and draws', async ({ note }) => {
  const capacity = 9000, n = 3000;
  const s = makeSplit(gl2, n, [capacity], { overflow: 'clamp' });
  const program = linkDraw(drawVertex(gl2.emittedDrawSnippet), drawFragment);
  const per = gl.getUniformLocation(program, 'u_per');
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, s.sparks.glBuffer); // handed out: each step writes its records into it
  gl.enableVertexAttribArray(gl.getAttribLocation(program, 'a_spark'));
  gl.vertexAttribPointer(gl.getAttribLocation(program, 'a_spark'), 4, gl.FLOAT, false, 16, 0);
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  const target = uintTarget();
  // An application texture on every unit: drawEmitted binds the pyramid's top on one of them and must put it back.
  const units = gl.getParameter(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS), appTexture = gl.createTexture();
  for (let u = 0; u < units; u++) { gl.activeTexture(gl.TEXTURE0 + u); gl.bindTexture(gl.TEXTURE_2D, appTexture); }
  gl.activeTexture(gl.TEXTURE3);
  // [docs:webgl2-draw-emitted]
  const frame = (mode, pipeline = s.pipeline) => {
    target.bind();
    target.clear();
    gl.useProgram(program);
    gl.uniform1i(per, mode === 'triangles' ? 3 : 1);
    gl.bindVertexArray(vao);
    pipeline.drawEmitted('emit_count', mode === 'points' ? {} : { mode });
    gl.bindVertexArray(null);
  };
  // [docs:end]
  // The energies halve every step: the threshold follows them (powers of two, exact on both
  // sides), alternating between two scales so that the totals differ from step to step.
  const threshold = (step) => 0.5 / 2 ** (step - 1) / (step % 2 ? 1 : 2);
  // Step 1 (the planes filled, framebuffers made on first use): sparks of the initial energies.
  s.pipeline.step();
  frame('points');
  let ref = splitReference(s.data, threshold(1));
  assert(ref.sparks.length / 4 > 0 && ref.sparks.length / 4 < capacity, `step 1 emits below the capacity: ${ref.sparks.length / 4}`);
  assertArrayEqual(target.pixels(), expectedPoints(ref.sparks, capacity), 'step 1: the drawn slots hold the sparks, the rest is clear');
  // Triangles: whole primitives only (slot j lit for the triangles that end below the total).
  frame('triangles');
  const lit = target.pixels(), whole = Math.floor(ref.sparks.length / 4 / 3);
  let wrong = -1;
  for (let j = 0; j < kW * kH && wrong < 0; j++) if ((lit[j * 4] === 1) !== (j < whole)) wrong = j;
  assert(wrong < 0, `triangles: pixel ${wrong} is ${lit[wrong * 4] === 1 ? 'lit' : 'dark'}; ${whole} whole triangles below the total`);
  for (let u = 0; u < units; u++) {
    gl.activeTexture(gl.TEXTURE0 + u);
    assert(gl.getParameter(gl.TEXTURE_BINDING_2D) === appTexture, `unit ${u}: the application's texture is bound again after drawEmitted`);
  }
  gl.activeTexture(gl.TEXTURE3);
  assert(gl.getParameter(gl.ACTIVE_TEXTURE) === gl.TEXTURE3, 'the active unit is the application\'s');
  // Steady frames: step + drawEmitted, counted. A readPixels into a pixel-pack buffer (offset as its
  // last argument) is the GPU copy of the handed-out buffer's records from their planes; one into
  // memory, getBufferSubData or a wait would bring the total (or anything) to the CPU.
  s.program.setUniform('u_threshold', threshold(2));
  s.pipeline.step();
  frame('points');
  ref = splitReference(ref.state, threshold(2));
  const totals = [];
  const calls = countCalls(gl);
  let cpuReadPixels = 0, packReadPixels = 0;
  const readPixels = gl.readPixels;
  gl.readPixels = function (...args) { if (typeof args[6] === 'number') packReadPixels++; else cpuReadPixels++; return readPixels.apply(this, args); };
  const steady = 10;
  for (let k = 0; k < steady; k++) {
    ref = splitReference(ref.state, threshold(3 + k));
    totals.push(ref.sparks.length / 4);
    s.program.setUniform('u_threshold', threshold(3 + k));
    s.pipeline.step();
    frame('points');
  }
  const counted = calls.snapshot();
  gl.readPixels = readPixels;
  calls.reset();
  note(`${steady} steady steps + drawEmitted: ${JSON.stringify(counted)}; readPixels into a pack buffer ${packReadPixels}, into memory ${cpuReadPixels}`);
  assert(cpuReadPixels === 0, `readPixels into memory in steady steps and draws: ${cpuReadPixels}`);
  for (const read of ['getBufferSubData', 'clientWaitSync', 'fenceSync', 'getQueryParameter', 'finish'])
    assert(!counted[read], `${read} in steady steps and draws: ${counted[read]}`);
  const created = Object.keys(counted).filter((k) => k.startsWith('create') || k.startsWith('delete') || k === 'texStorage2D' || k === 'bufferData');
  assert(created.length === 0, `objects made or freed in steady frames: ${created.join(', ')}`);
  assert(counted.drawArrays >= steady * 5, `each frame draws its passes and the records: ${counted.drawArrays}`);
  // The last frame's pixels: the 12th step's sparks (fewer: the energies halve every step).
  assertArrayEqual(target.pixels(), expectedPoints(ref.sparks, capacity), 'step 12: the drawn slots hold the sparks, the rest is clear');
  const reports = await s.pipeline.emitted();
  assert(reports[0].written === ref.sparks.length / 4, `emitted() agrees: ${JSON.stringify(reports[0])}`);
  note(`sparks drawn of ${capacity} slots: step 1 ${splitReference(s.data, threshold(1)).sparks.length / 4}, steps 3..12 ${totals.join(' ')}`);
  assert(new Set(totals).size > 1 && Math.min(...totals) > 0, `the steady steps' totals vary and are not zero: ${totals.join(' ')}`);
  // Past the capacity (overflow 'clamp'): every slot is drawn, the first records in input order.
  const big = makeSplit(gl2, n, [500], { overflow: 'clamp' });
  big.pipeline.step();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, big.sparks.glBuffer);
  gl.vertexAttribPointer(gl.getAttribLocation(program, 'a_spark'), 4, gl.FLOAT, false, 16, 0);
  gl.bindVertexArray(null);
  frame('points', big.pipeline);
  const clamped = splitReference(big.data);
  assert(clamped.sparks.length / 4 > 500, 'the clamped case asks for more than its capacity');
  assertArrayEqual(target.pixels(), expectedPoints(clamped.sparks, 500), 'over the capacity: the first 500 sparks, nothing past them');
  assert(gl.getError() === gl.NO_ERROR && gl2.takeForeignGlErrors().length === 0, 'no GL error');
  big.dispose();
  target.dispose();
  gl.deleteProgram(program);
  gl.deleteVertexArray(vao);
  gl.deleteTexture(appTexture);
  s.dispose();
});

test('WebGL2: drawEmitted refuses what native refuses (no snippet, no program, strips, unknown budgets, no emits), drawing nothing', async () => {
  const s = makeSplit(gl2, 100, [300]);
  s.pipeline.step();
  const withSnippet = linkDraw(drawVertex(gl2.emittedDrawSnippet), drawFragment);
  const plain = linkDraw('#version 300 es\nvoid main() { gl_Position = vec4(0.0); gl_PointSize = 1.0; }', '#version 300 es\nprecision highp float;\nout uvec4 o;\nvoid main() { o = uvec4(1u); }');
  const calls = countCalls(gl);
  gl.useProgram(plain);
  let e = await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted('emit_count'));
  assert(e.message.includes("drawEmitted('emit_count')") && e.message.includes('the bound WebGLProgram') && e.message.includes('xfb::emittedDrawSnippet()'), e.message);
  gl.useProgram(null);
  e = await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted('emit_count'));
  assert(e.message.includes('none is bound'), e.message);
  gl.useProgram(withSnippet);
  e = await expectError('XFB_UNSUPPORTED', () => s.pipeline.drawEmitted('emit_count', { mode: 'triangle_strip' }));
  assert(e.message.includes('triangle_strip'), e.message);
  e = await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted('emit_nothing'));
  assert(e.message.includes('emit_count') && e.message.includes('emit_tags'), `names the budgets: ${e.message}`);
  await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted('emit_count', { mode: 'quads' }));
  await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted('emit_count', { instances: 2 }));
  await expectError('XFB_INVALID_ARGUMENT', () => s.pipeline.drawEmitted(3));
  const program = gl2.createProgram({ source: kSplit });
  const state = gl2.createBuffer({ format: vec4(0), count: 4 }), next = gl2.createBuffer({ format: vec4(0), count: 4 });
  const plainPipeline = gl2.createPipeline(program, [{ input: state, output: next }]);
  e = await expectError('XFB_INVALID_ARGUMENT', () => plainPipeline.drawEmitted('emit_count'));
  assert(e.message.includes('no emitted outputs'), e.message);
  assert(!calls.get('drawArrays'), `a refused drawEmitted draws nothing: ${calls.get('drawArrays')} drawArrays`);
  calls.reset();
  gl.useProgram(null);
  for (const o of [plainPipeline, program, state, next]) o.dispose();
  gl.deleteProgram(withSnippet);
  gl.deleteProgram(plain);
  assert(gl.getError() === gl.NO_ERROR && gl2.takeForeignGlErrors().length === 0, 'no GL error left behind');
  s.dispose();
});
