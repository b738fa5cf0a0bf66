// Populations on WebGL2 (createXfb({ gl, populations: true }), the fragment backend): a state whose
// live count stays on the GPU, stepped against a JavaScript reference byte for byte (the program of
// tests/gl/population_test.cpp and docs/guide/populations.md), spawns into a full population, the
// overflow policies, the masked draw, no readback in steady steps, and every refusal.
import { assert, assertArrayEqual, countCalls, createXfb, expectError } from './assert.js';
import { populationSource as kSource, populationStep } from '/conformance/cases/population.mjs';

const kState = [{ input: 'a_p', emitted: 'emit_p' }, { input: 'a_tag', emitted: 'emit_tag' }];

const canvas = document.getElementById('canvas');
const gl = canvas.getContext('webgl2');
const xfb = await createXfb({ gl, populations: true });

/** n elements: x, y, fuel 1..8, parent -1; tags i + 1 (every fifth bursts). */
function seed(n, from = 0) {
  const p = new Float32Array(4 * n), tags = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    p.set([from + i, 0.5 * i, 1 + ((i * 7) % 8), -1], 4 * i);
    tags[i] = from + i + 1;
  }
  return { p, tags };
}

/** One step of the program in JavaScript (the conformance table's reference, u_max 3), capped at `capacity` records. */
function reference(state, capacity) {
  const r = populationStep({ p: Array.from(state.p), tags: Array.from(state.tags) }, capacity);
  return { p: new Float32Array(r.p), tags: new Uint32Array(r.tags), requested: r.requested };
}

function make(capacity, options = {}) {
  const program = xfb.createProgram({ source: kSource, varyings: ['gl_Position'] });
  program.setUniform('u_max', 3);
  const population = xfb.createPopulation(program, { capacity, state: kState, count: 'emit_n', ...options });
  return { program, population, dispose: () => [population, program].forEach((o) => o.dispose()) };
}

async function expectState(population, ref, what) {
  const live = ref.tags.length;
  const count = await population.count();
  assert(count.live === live, `${what}: live ${count.live}, expected ${live}`);
  assertArrayEqual((await population.state(0).read()).subarray(0, 4 * live), ref.p, `${what}: field a_p`);
  assertArrayEqual((await population.state(1).read({ first: 0, count: live })), ref.tags, `${what}: field a_tag`);
  return count;
}

test('a population stepped 6 times equals the JavaScript reference byte for byte (births, deaths, bursts), spawns appended after the live elements', async ({ note }) => {
  for (const n of [1, 700, 5000]) {
    const capacity = 4 * n + 16;
    const s = make(capacity, { overflow: 'clamp' });
    const { population } = s;
    assert(population.info.backend === 'fragment' && population.capacity === capacity, JSON.stringify(population.info));
    const layouts = population.info.fields.map((f) => f.layout);
    assert(layouts[0].stride === 16 && layouts[1].stride === 4 && layouts[1].attributes[0].type === 'uint32', JSON.stringify(layouts));
    let ref = seed(n);
    population.spawn([ref.p, ref.tags]);
    await expectState(population, ref, `n=${n} after the spawn`);
    for (let step = 1; step <= 6; step++) {
      const next = reference(ref, capacity);
      if (step % 2) population.step();
      else {
        const c = population.stepChecked();
        assert(c.live === next.tags.length && c.requested === next.requested, `n=${n} step ${step}: stepChecked ${JSON.stringify(c)}`);
      }
      ref = next;
      const c = await expectState(population, ref, `n=${n} step ${step}`);
      assert(c.requested === ref.requested && c.capacity === capacity, `n=${n} step ${step}: ${JSON.stringify(c)}`);
      if (step === 3) {
        // A spawn between steps: appended after the live elements.
        const more = seed(5, 10000);
        population.spawn([more.p, more.tags]);
        ref = { p: Float32Array.of(...ref.p, ...more.p), tags: Uint32Array.of(...ref.tags, ...more.tags) };
        await expectState(population, ref, `n=${n} spawn after step 3`);
      }
    }
    note(`n=${n}: live ${ref.tags.length} after 6 steps, capacity ${capacity}`);
    s.dispose();
  }
});

test('an empty population steps to 0; spawning into a full one keeps the first records and counts the rest; the overflow policies', async () => {
  const empty = make(8);
  empty.population.step();
  const c0 = empty.population.stepChecked();
  assert(c0.live === 0 && c0.requested === 0 && c0.dropped === 0, `empty: ${JSON.stringify(c0)}`);
  empty.dispose();

  for (const overflow of ['error', 'clamp']) {
    const s = make(10, { overflow });
    const a = seed(8), b = seed(5, 100);
    s.population.spawn([a.p, a.tags]);
    s.population.spawn([b.p, b.tags]);
    const kept = { p: Float32Array.of(...a.p, ...b.p.subarray(0, 8)), tags: Uint32Array.of(...a.tags, ...b.tags.subarray(0, 2)) };
    const c = await expectState(s.population, kept, `${overflow}: spawn past the capacity`);
    assert(c.dropped === 3 && c.droppedUnchecked === 3, `${overflow}: ${JSON.stringify(c)}`);
    if (overflow === 'error') {
      const e = await expectError('XFB_CAPACITY', () => s.population.stepChecked());
      assert(e.message.includes('3 records were dropped') && e.message.includes('10'), e.message);
      await expectState(s.population, kept, 'error: the refused step was not run');
      // Reported once: the next checked step runs, and its own overflow is refused, not swapped.
      const e2 = await expectError('XFB_CAPACITY', () => s.population.stepChecked());
      assert(e2.message.includes(`wrote ${reference(kept).requested} records`), e2.message);
      await expectState(s.population, kept, 'error: an overflowing step is not swapped');
    } else {
      const c2 = s.population.stepChecked();
      const ref = reference(kept, 10);
      assert(c2.live === 10 && c2.requested === ref.requested && c2.dropped === 3 + ref.requested - 10, JSON.stringify(c2));
      await expectState(s.population, ref, 'clamp: the first records in the stable order');
    }
    await expectError('XFB_CAPACITY', () => s.population.spawn([seed(11).p, seed(11).tags]));
    s.dispose();
  }
});

test('steady steps and spawns read nothing back (no readPixels, getBufferSubData, fence) and create nothing', async ({ note }) => {
  const s = make(4000, { overflow: 'clamp' });
  const a = seed(1000);
  s.population.spawn([a.p, a.tags]);
  // Warm-up: each side's planes and targets are made at their first use (both sides, a spawn).
  s.population.step();
  s.population.step();
  s.population.spawn([a.p.subarray(0, 40), a.tags.subarray(0, 10)]);
  const calls = countCalls(gl);
  for (let i = 0; i < 5; i++) s.population.step();
  s.population.spawn([a.p.subarray(0, 40), a.tags.subarray(0, 10)]);
  const snapshot = calls.snapshot();
  for (const name of ['readPixels', 'getBufferSubData', 'fenceSync', 'clientWaitSync', 'getSyncParameter', 'finish', 'createBuffer', 'createTexture', 'createFramebuffer', 'createProgram'])
    assert(calls.get(name) === 0, `${name} called ${calls.get(name)} times: ${JSON.stringify(snapshot)}`);
  note(`5 steps and a spawn: ${calls.total()} WebGL calls, the last step or spawn ${s.population.info.glCalls}`);
  s.dispose();
});

test('draw(): the live elements only, from the GPU count (the bound program holds the snippet); refusals', async () => {
  const s = make(64, { overflow: 'clamp' });
  const a = seed(10);
  s.population.spawn([a.p, a.tags]);
  const vs = `#version 300 es\n${xfb.emittedDrawSnippet}in vec4 a_p;\nvoid main() { gl_PointSize = 1.0; gl_Position = xfb_emittedPosition(vec4((a_p.x + 0.5) / 32.0 - 1.0, 0.0, 0.0, 1.0)); }`;
  const fs = '#version 300 es\nprecision highp float;\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }';
  const compile = (type, source) => { const sh = gl.createShader(type); gl.shaderSource(sh, source); gl.compileShader(sh); return sh; };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, vs));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, fs));
  gl.bindAttribLocation(program, 0, 'a_p');
  gl.linkProgram(program);
  assert(gl.getProgramParameter(program, gl.LINK_STATUS), gl.getProgramInfoLog(program));
  const vao = gl.createVertexArray();
  const litPixels = () => {
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, s.population.state(0).glBuffer); // the latest state: taken again each frame
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, 64, 1);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.useProgram(program);
    s.population.draw('points');
    const pixels = new Uint8Array(64 * 4);
    gl.readPixels(0, 0, 64, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    let lit = 0;
    for (let x = 0; x < 64; x++) lit += pixels[4 * x] > 0 ? 1 : 0;
    return lit;
  };
  canvas.width = 64;
  canvas.height = 1;
  assert(litPixels() === 10, 'ten live points drawn of the capacity of 64');
  s.population.step(); // every fifth tag bursts into 3: 2 of 10 -> 8 + 6 = 14 records, at x, x+1, x+2 (some overlap)
  const ref = reference(a, 64);
  assert(litPixels() === new Set(Array.from({ length: ref.tags.length }, (_, i) => Math.floor(ref.p[4 * i]))).size, 'the live records after a step');
  gl.useProgram(null);
  const e = await expectError('XFB_INVALID_ARGUMENT', () => s.population.draw('points'));
  assert(e.message.includes('emittedDrawSnippet'), e.message);
  gl.useProgram(program);
  await expectError('XFB_UNSUPPORTED', () => s.population.draw('triangle_strip'));
  await expectError('XFB_INVALID_ARGUMENT', () => s.population.draw('quads'));
  gl.useProgram(null);
  gl.bindVertexArray(null);
  gl.deleteVertexArray(vao);
  gl.deleteProgram(program);
  s.dispose();
});

test('refusals: the default module, WebGPU, the options, the planner, the spawn data, a disposed program', async () => {
  const plain = await createXfb({ gl });
  const program = plain.createProgram({ source: kSource, varyings: ['gl_Position'] });
  const e = await expectError('XFB_UNSUPPORTED', () => plain.createPopulation(program, { capacity: 4, state: kState, count: 'emit_n' }));
  assert(e.message.includes('populations: true'), e.message);
  plain.dispose();
  const adapter = await navigator.gpu?.requestAdapter();
  if (adapter) {
    const gpu = await createXfb({ device: await adapter.requestDevice() });
    const p = gpu.createProgram({ source: kSource, varyings: ['gl_Position'] });
    await expectError('XFB_UNSUPPORTED', () => gpu.createPopulation(p, { capacity: 4, state: kState, count: 'emit_n' }));
    await expectError('XFB_INVALID_ARGUMENT', () => gpu.createPopulation(p, { capacity: 0, state: kState, count: 'emit_n' }));
    gpu.dispose();
  }
  await expectError('XFB_INVALID_ARGUMENT', () => createXfb({ backend: 'webgpu', populations: true }));
  const s = make(16);
  const p = s.program;
  const good = { capacity: 4, state: kState, count: 'emit_n' };
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, capacity: 0 }));
  for (const capacity of [-3, 2.5, NaN, '8']) await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, capacity }));
  // Too large: the planner's refusal (capacity x 3 records reaches 2^32), nothing allocated.
  for (const capacity of [2 ** 31, 1e300]) await expectError('XFB_BUFFER_TOO_LARGE', () => xfb.createPopulation(p, { ...good, capacity }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, state: [] }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, state: [{ input: 'a_p' }, kState[1]] }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, overflow: 'wrap' }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation(p, { ...good, extra: 1 }));
  await expectError('XFB_UNSUPPORTED', () => xfb.createPopulation(p, { ...good, backend: 'compute' }));
  await expectError('XFB_UNSUPPORTED', () => xfb.createPopulation(p, { ...good, backend: 'tf' }));
  await expectError('XFB_UNKNOWN_VARYING', () => xfb.createPopulation(p, { ...good, state: [{ input: 'a_p', emitted: 'emit_q' }, kState[1]] }));
  await expectError('XFB_SEMANTIC_MISSING', () => xfb.createPopulation(p, { ...good, state: [kState[0]] }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPopulation({}, good));
  const { population } = s;
  await expectError('XFB_INVALID_ARGUMENT', () => population.spawn(seed(2).p));
  await expectError('XFB_INVALID_ARGUMENT', () => population.spawn([seed(2).tags, seed(2).tags]));
  await expectError('XFB_INVALID_ARGUMENT', () => population.spawn([new Float32Array(6), new Uint32Array(1)]));
  await expectError('XFB_INVALID_ARGUMENT', () => population.spawn([seed(2).p, seed(3).tags]));
  await expectError('XFB_INVALID_ARGUMENT', () => population.state(2));
  await expectError('XFB_INVALID_ARGUMENT', () => population.state(1).read({ first: 17 }));
  assert(xfb.liveObjects().populations === 1, JSON.stringify(xfb.liveObjects()));
  p.dispose();
  await expectError('XFB_DISPOSED', () => population.step());
  population.dispose();
  await expectError('XFB_DISPOSED', () => population.step());
  assert(xfb.liveObjects().populations === 0, JSON.stringify(xfb.liveObjects()));
  assert(gl.getError() === gl.NO_ERROR, 'no GL error left behind');
});
