// Browser benchmark (not a test). The GPU cases, ms per step at 1e4, 1e5, 1e6 elements (or
// globalThis.xfbBenchSizes), are the gallery's benchmark page (demos/web/bench.html) run here: one
// implementation, demos/web/bench/core.js, which says how it times and checks. Variants: the npm
// module's WebGL2 engine in its default shared-context mode and with { ownsContext: true } (the same
// 9 calls per step as the hand-written loop), its WebGPU engine (the same GLSL translated to a WGSL
// compute pass), a hand-written WebGL2 transform-feedback loop, three.js GPUComputationRenderer
// (render-to-texture, RGBA32F) and three.js TSL compute on WebGPU; every variant's state is compared
// with a float32 reference at the end, and a wrong one fails its case. Here the shared WebGL2
// context is wrapped by a call counter, so the rows also give the WebGL calls per step of the
// variants on it. Without WebGPU the WebGPU variants are listed as unavailable, with the reason.
// Then the CPU cost of a step: a 16-element simulation (the GPU work is negligible), warm, the JS
// time of setUniform + step() for 5000 steps without waiting for the GPU, in paired runs (each
// run times every variant over 5000 steps, interleaved in blocks of 500: pairedRuns), medians
// of the runs and of the per-run ratios, on a context of its own without the call counter (its
// wrapper around every WebGL call would weigh on the variant with more calls). The page runs
// cross-origin isolated (browser.mjs), so performance.now() ticks in 5 us.
// Run: node browser.mjs NPM_DIR bench (bench-cpu: the CPU cases alone, page/bench-cpu.js)
import { countCalls, createXfb, pseudoRandom } from './assert.js';
import { FORMAT as format, benchParticlesReference, createBench, engineLoop as sharedEngineLoop, handwritten as sharedHandwritten, median } from '/demos/web/bench/core.js';

const cpuOnly = globalThis.xfbBenchCpuOnly === true; // bench-cpu.js: no GPU-bound case
const bench = cpuOnly ? null : await createBench({ countCalls });
const source = bench?.source ?? await (await fetch('/shaders/bench_particles.vert')).text();
const xfb = bench?.engines.xfb, webgpu = bench?.engines.webgpu;
const handwritten = (n, initial, gl) => sharedHandwritten(gl, source, n, initial);
const engineLoop = (engine, n, initial) => sharedEngineLoop(engine, source, n, initial, { backend: 'tf' }); // the CPU cases: against the hand-written transform-feedback loop

// The hand-written loop with the save/restore of the shared-context default (state_guard.cpp):
// what leaving an engine's cached state as found costs without xfb.
function guarded(hand, gl) {
  return (setDt) => {
    const p = gl.getParameter(gl.CURRENT_PROGRAM), deleted = p ? gl.getProgramParameter(p, gl.DELETE_STATUS) : false;
    const v = gl.getParameter(gl.VERTEX_ARRAY_BINDING), a = gl.getParameter(gl.ARRAY_BUFFER_BINDING);
    if (a) gl.bindBuffer(gl.ARRAY_BUFFER, null);
    const t = gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING), d = gl.isEnabled(gl.RASTERIZER_DISCARD);
    hand.step(setDt);
    gl.useProgram(p && !deleted ? p : null);
    gl.bindVertexArray(v);
    if (a) gl.bindBuffer(gl.ARRAY_BUFFER, a);
    if (t) gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, t);
    if (d) gl.enable(gl.RASTERIZER_DISCARD);
  };
}

const results = [];
const alternatives = [];
for (const n of cpuOnly ? [] : globalThis.xfbBenchSizes ?? [1e4, 1e5, 1e6]) {
  test(`${n} elements: xfb (WebGL2, WebGPU), hand-written WebGL2, three.js GPUComputationRenderer and TSL (ms per step, checked)`, async ({ note }) => {
    const row = await bench.runSize(n, { rounds: 7 });
    alternatives.push(row);
    const brief = Object.fromEntries(Object.entries(row.variants).map(([id, r]) => [id, r.error ?? `${r.ms.toFixed(3)} ms${r.gl_calls !== undefined ? `, ${r.gl_calls} calls` : ''}, ${r.correct ? (r.exact ? 'bit-identical' : `max error ${r.max_error}`) : `WRONG: ${r.first_difference}`}`]));
    note(JSON.stringify(brief));
    note(`ratios (xfb default / variant): ${JSON.stringify(Object.fromEntries(Object.entries(row.ratios).map(([k, v]) => [k, +v.toFixed(3)])))}`);
    const wrong = Object.entries(row.variants).filter(([, r]) => r.error || !r.correct).map(([id, r]) => `${id}: ${r.error ?? r.first_difference}`);
    if (wrong.length) throw new Error(`wrong results: ${wrong.join('; ')}`);
  });
}
if (!cpuOnly)
  test('alternatives: the raw rows', async ({ note }) => {
    const unavailable = bench.variants.filter((v) => !v.available).map((v) => `${v.id}: ${v.why}`);
    if (unavailable.length) note(`not run here: ${unavailable.join('; ')}`);
    note(`BENCH_ALTERNATIVES ${JSON.stringify({ date: new Date().toISOString(), userAgent: navigator.userAgent, gpu: bench.gpu, variants: bench.variants, rows: alternatives })}`);
  });

// The CPU side: what a step costs in JavaScript + wasm + the browser's WebGL2 front end. The GL
// commands are only queued (no wait inside the timed loop); the queue is drained between runs.
const cpu = { elements: 16, steps: 5000, runs: 15, blocks: 10 };
/** µs per call of each variant, per run: each run interleaves the variants in `blocks` blocks of
 *  steps / blocks calls (order rotated) and takes each one's median block, so a time slice lost
 *  to another process (this machine is shared) weighs on one block, not on the run; the queue is
 *  drained after each block, outside the timing. */
function pairedRuns(variants, steps, drain) {
  const names = Object.keys(variants), per = steps / cpu.blocks, runs = [];
  for (let r = 0; r < cpu.runs; r++) {
    const blocks = Object.fromEntries(names.map((k) => [k, []]));
    for (let b = 0; b < cpu.blocks; b++)
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r + b) % names.length], step = variants[name];
        const t0 = performance.now();
        for (let i = 0; i < per; i++) step(i);
        blocks[name].push(((performance.now() - t0) * 1000) / per);
        drain();
      }
    runs.push(Object.fromEntries(names.map((k) => [k, median(blocks[k])])));
  }
  return runs;
}
test(`CPU per step (${cpu.elements} elements, ${cpu.steps} steps, ${cpu.runs} paired runs)`, async ({ note }) => {
  const gl = document.createElement('canvas').getContext('webgl2'); // no call counter on this one
  const xfb = await createXfb({ gl }), owned = await createXfb({ gl, ownsContext: true });
  const initial = pseudoRandom(cpu.elements * 8, -1, 1, 11);
  const engine = engineLoop(xfb, cpu.elements, initial), ownedEngine = engineLoop(owned, cpu.elements, initial);
  const hand = handwritten(cpu.elements, initial, gl), hand3 = handwritten(cpu.elements, initial, gl), hand2 = handwritten(cpu.elements, initial, gl), handGuarded = guarded(hand2, gl);
  const dt = (i) => (1 + (i & 7)) / 1024; // a value that changes every step, as a time step or a clock would
  const closure = (() => { const { program, vaos, tfs, dt: loc } = hand3; let side = 0; return (v) => {
    gl.useProgram(program); gl.uniform1f(loc, v); gl.bindVertexArray(vaos[side]); gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tfs[side]);
    gl.enable(gl.RASTERIZER_DISCARD); gl.beginTransformFeedback(gl.POINTS); gl.drawArrays(gl.POINTS, 0, 16); gl.endTransformFeedback(); gl.disable(gl.RASTERIZER_DISCARD);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null); side ^= 1; }; })();
  const variants = {
    handwritten: (i) => hand.step(dt(i)),
    handwritten_guarded: (i) => handGuarded(dt(i)),
    engine: (i) => { engine.program.setUniform('dt', dt(i)); engine.pipeline.step(); },
    engine_owned: (i) => { ownedEngine.program.setUniform('dt', dt(i)); ownedEngine.pipeline.step(); },
    // The same hand-written loop written once more (a closure over its objects): how far two
    // equivalent loops differ once V8 has compiled them.
    handwritten_closure: (i) => closure(dt(i)),
    // The parts: step() alone (no uniform changed), setUniform() alone.
    engine_step: () => engine.pipeline.step(),
    engine_owned_step: () => ownedEngine.pipeline.step(),
    set_uniform: (i) => engine.program.setUniform('dt', dt(i)),
  };
  const probe = new Uint8Array(4);
  const drain = () => { gl.bindBuffer(gl.COPY_READ_BUFFER, hand.current()); gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe); gl.bindBuffer(gl.COPY_READ_BUFFER, null); };
  const names = Object.keys(variants);
  for (const name of names) for (let i = 0; i < 1000; i++) variants[name](i); // warm: JIT tiers, caches
  drain();
  const us = Object.fromEntries(names.map((k) => [k, []]));
  const ratios = { engine: [], engine_owned: [], handwritten_guarded: [], handwritten_closure: [], engine_to_guarded: [] };
  for (const run of pairedRuns(variants, cpu.steps, drain)) {
    for (const name of names) us[name].push(run[name]);
    for (const name of ['engine', 'engine_owned', 'handwritten_guarded', 'handwritten_closure']) ratios[name].push(run[name] / run.handwritten);
    ratios.engine_to_guarded.push(run.engine / run.handwritten_guarded);
  }
  const row = { elements: cpu.elements, steps: cpu.steps, runs: cpu.runs };
  for (const name of names) row[`${name}_us`] = median(us[name]);
  for (const name of Object.keys(ratios)) row[`${name}_ratio`] = median(ratios[name]);
  row.per_run_us = Object.fromEntries(names.map((k) => [k, us[k].map((x) => +x.toFixed(2))]));
  results.push(row);
  note(JSON.stringify(row));
  for (const o of [engine, ownedEngine, hand, hand2, hand3]) o.dispose();
  xfb.dispose(); owned.dispose();
});

// Several small simulations per frame (issue 16): four, each its own program and state pair, a
// uniform set on each every frame. Per step: the frame's time / 4. The hand-written loop against
// the engine's four step() calls and xfb.steps() (one save/restore for the four), both modes.
test(`CPU per step, 4 pipelines per frame (${cpu.elements} elements each, ${cpu.steps / 4} frames, ${cpu.runs} paired runs)`, async ({ note }) => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const xfb = await createXfb({ gl }), owned = await createXfb({ gl, ownsContext: true });
  const initial = pseudoRandom(cpu.elements * 8, -1, 1, 12), four = [0, 1, 2, 3];
  const sims = four.map(() => engineLoop(xfb, cpu.elements, initial)), ownedSims = four.map(() => engineLoop(owned, cpu.elements, initial));
  const hands = four.map(() => handwritten(cpu.elements, initial, gl));
  const pipelines = sims.map((e) => e.pipeline), ownedPipelines = ownedSims.map((e) => e.pipeline);
  const dt = (i) => (1 + (i & 7)) / 1024;
  const variants = {
    handwritten: (i) => { for (const h of hands) h.step(dt(i)); },
    engine_steps: (i) => { for (const e of sims) { e.program.setUniform('dt', dt(i)); e.pipeline.step(); } },
    engine_batched: (i) => { for (const e of sims) e.program.setUniform('dt', dt(i)); xfb.steps(pipelines); },
    engine_owned_steps: (i) => { for (const e of ownedSims) { e.program.setUniform('dt', dt(i)); e.pipeline.step(); } },
    engine_owned_batched: (i) => { for (const e of ownedSims) e.program.setUniform('dt', dt(i)); owned.steps(ownedPipelines); },
  };
  const probe = new Uint8Array(4), frames = cpu.steps / 4;
  const drain = () => { gl.bindBuffer(gl.COPY_READ_BUFFER, hands[0].current()); gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe); gl.bindBuffer(gl.COPY_READ_BUFFER, null); };
  const names = Object.keys(variants);
  for (const name of names) for (let i = 0; i < 250; i++) variants[name](i);
  drain();
  const us = Object.fromEntries(names.map((k) => [k, []])), ratios = Object.fromEntries(names.slice(1).map((k) => [k, []]));
  for (const perFrame of pairedRuns(variants, frames, drain)) {
    const run = Object.fromEntries(names.map((k) => [k, perFrame[k] / 4]));
    for (const name of names) us[name].push(run[name]);
    for (const name of names.slice(1)) ratios[name].push(run[name] / run.handwritten);
  }
  const row = { pipelines: 4, elements: cpu.elements, frames, runs: cpu.runs };
  for (const name of names) row[`${name}_us`] = median(us[name]);
  for (const name of names.slice(1)) row[`${name}_ratio`] = median(ratios[name]);
  row.per_run_us = Object.fromEntries(names.map((k) => [k, us[k].map((x) => +x.toFixed(2))]));
  results.push(row);
  note(JSON.stringify(row));
  for (const o of [...sims, ...ownedSims, ...hands]) o.dispose();
  xfb.dispose(); owned.dispose();
});

// Where a step's time goes: each WebGL call of the default mode's save/restore and of the pass,
// alone in a loop (ns per call, minus an empty loop; paired runs, medians). A call that sets state
// alternates between two values, as in a step (Chromium returns early from one that changes nothing).
test(`CPU per WebGL call (${cpu.runs} paired runs)`, async ({ note }) => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const initial = pseudoRandom(cpu.elements * 8, -1, 1, 13);
  const a = handwritten(cpu.elements, initial, gl), b = handwritten(cpu.elements, initial, gl);
  a.step(); // a's program and vertex array bound, as an application leaves its own
  let sink;
  const calls = {
    empty: () => {},
    'getParameter(CURRENT_PROGRAM)': () => gl.getParameter(gl.CURRENT_PROGRAM),
    'getProgramParameter(DELETE_STATUS)': () => gl.getProgramParameter(a.program, gl.DELETE_STATUS),
    'getParameter(VERTEX_ARRAY_BINDING)': () => gl.getParameter(gl.VERTEX_ARRAY_BINDING),
    'getParameter(ARRAY_BUFFER_BINDING)': () => gl.getParameter(gl.ARRAY_BUFFER_BINDING),
    'getParameter(TRANSFORM_FEEDBACK_BINDING)': () => gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING),
    'isEnabled(RASTERIZER_DISCARD)': () => gl.isEnabled(gl.RASTERIZER_DISCARD),
    useProgram: (i) => gl.useProgram(i & 1 ? b.program : a.program),
    bindVertexArray: (i) => gl.bindVertexArray(i & 1 ? b.vaos[0] : a.vaos[0]),
    bindTransformFeedback: (i) => gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, i & 1 ? a.tfs[0] : null),
    'enable/disable(RASTERIZER_DISCARD)': (i) => (i & 1 ? gl.enable(gl.RASTERIZER_DISCARD) : gl.disable(gl.RASTERIZER_DISCARD)),
    'uniform1f (program current)': (i) => gl.uniform1f(a.dt, (1 + (i & 7)) / 1024),
    'JS: allocate [value]': (i) => { sink = [i]; },
  };
  const loops = 20000, names = Object.keys(calls);
  const probe = new Uint8Array(4);
  const drain = () => { gl.bindBuffer(gl.COPY_READ_BUFFER, a.current()); gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe); gl.bindBuffer(gl.COPY_READ_BUFFER, null); };
  const prepare = () => { gl.useProgram(a.program); gl.bindVertexArray(a.vaos[0]); gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null); gl.disable(gl.RASTERIZER_DISCARD); };
  for (const name of names) { prepare(); for (let i = 0; i < 2000; i++) calls[name](i); }
  drain();
  const ns = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < cpu.runs; r++) {
    const run = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length], f = calls[name];
      prepare();
      const t0 = performance.now();
      for (let i = 0; i < loops; i++) f(i);
      run[name] = ((performance.now() - t0) * 1e6) / loops;
      drain();
    }
    for (const name of names) ns[name].push(run[name] - (name === 'empty' ? 0 : run.empty));
  }
  const row = { per_call_ns: Object.fromEntries(names.map((k) => [k, +median(ns[k]).toFixed(1)])), loops, runs: cpu.runs };
  results.push(row);
  note(JSON.stringify(row));
  void sink;
  for (const o of [a, b]) o.dispose();
});

test('summary', async ({ note }) => { note(`BENCH ${JSON.stringify(results)}`); note(`crossOriginIsolated ${globalThis.crossOriginIsolated}: performance.now() ticks in ${globalThis.crossOriginIsolated ? 5 : 100} us`); });

// Fused substeps (issue 16), both engines in the same page load: ms per substep of step(k) for
// k = 1, 4, 16, fused (one pass looping k substeps) against the same call with fuseSubsteps:
// false (k passes; on WebGPU k dispatches in one submit). Every variant advances the same number
// of substeps per round (16 * m: step(k) called 16 * m / k times, then one wait), so at the end
// all states must hold the same bytes, and a sample of elements must equal the float32 JS
// reference of bench_particles.vert: the figures are of correct work. Medians of the rounds.
const fusionResults = [];
const fusionK = [1, 4, 16];

// benchParticlesReference: the float32 reference of demos/web/bench/core.js.

/** One engine's fusion variants at n elements: a state pair per variant, its step and wait. */
function fusionVariants(engine, n, initial) {
  const program = engine.createProgram({ source });
  program.setUniform('dt', 1 / 64);
  const variants = {};
  for (const k of fusionK)
    for (const fuseSubsteps of k === 1 ? [true] : [true, false]) {
      const a = engine.createBuffer({ format, count: n, data: initial }), b = engine.createBuffer({ format, count: n });
      const pipeline = engine.createPipeline(program, [{ input: a, output: b }], { fuseSubsteps });
      variants[k === 1 ? 'k1' : `k${k}_${fuseSubsteps ? 'fused' : 'passes'}`] = { k, a, b, pipeline };
    }
  const probe = new Uint8Array(4);
  const wait = engine.backend === 'webgpu' ? () => engine.device.queue.onSubmittedWorkDone() : (v) => {
    const g = engine.gl;
    g.bindBuffer(g.COPY_READ_BUFFER, v.a.glBuffer);
    g.getBufferSubData(g.COPY_READ_BUFFER, 0, probe);
    g.bindBuffer(g.COPY_READ_BUFFER, null);
  };
  return { program, variants, wait, dispose() { for (const v of Object.values(variants)) for (const o of [v.pipeline, v.a, v.b]) o.dispose(); program.dispose(); } };
}

async function fusionRow(engineName, engine, n, initial, rounds) {
  const m = n >= 1e6 ? 1 : n >= 1e5 ? 2 : 16, perRound = 16 * m;
  const { variants, wait, dispose } = fusionVariants(engine, n, initial);
  const runRound = async (v) => { for (let i = 0; i < perRound / v.k; i++) v.pipeline.step(v.k); await wait(v); };
  for (const v of Object.values(variants)) await runRound(v); // warm: compiles the fused programs
  if (engine.backend === 'webgpu') for (const v of Object.values(variants)) await v.pipeline.ready;
  const ms = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  for (let r = 0; r < rounds; r++)
    for (const [name, v] of Object.entries(variants)) {
      const t0 = performance.now();
      await runRound(v);
      ms[name].push((performance.now() - t0) / perRound);
    }
  // Checked: every variant ran (rounds + 1) * perRound substeps: the same bytes, and the reference.
  const substeps = (rounds + 1) * perRound;
  const states = {};
  for (const [name, v] of Object.entries(variants)) {
    if (v.pipeline.info.steps !== substeps) throw new Error(`${engineName} ${name}: ${v.pipeline.info.steps} substeps, expected ${substeps}`);
    states[name] = await v.a.read();
  }
  for (const [name, s] of Object.entries(states))
    if (!new Uint8Array(s.buffer).every((x, i) => x === new Uint8Array(states.k1.buffer)[i])) throw new Error(`${engineName} n=${n}: ${name} differs from k1`);
  const stride = Math.max(1, Math.floor(n / 997));
  for (const [e, ref] of benchParticlesReference(initial, substeps, 1 / 64, stride))
    for (let c = 0; c < 8; c++)
      if (!Object.is(states.k1[e * 8 + c], ref[c])) throw new Error(`${engineName} n=${n}: element ${e}[${c}] is ${states.k1[e * 8 + c]}, the reference ${ref[c]}`);
  const row = { elements: n, engine: engineName, substeps_checked: substeps, fused: variants.k4_fused.pipeline.fusion().fused, one_pass_ms: median(ms.k1) };
  for (const k of [4, 16]) {
    row[`k${k}_fused_ms`] = median(ms[`k${k}_fused`]);
    row[`k${k}_passes_ms`] = median(ms[`k${k}_passes`]);
    row[`k${k}_ratio`] = row[`k${k}_passes_ms`] / row[`k${k}_fused_ms`];
  }
  row.per_round_ms = Object.fromEntries(Object.entries(ms).map(([k, xs]) => [k, xs.map((x) => +x.toFixed(4))]));
  dispose();
  return row;
}

for (const n of cpuOnly ? [] : [1e4, 1e5, 1e6]) {
  test(`fused substeps, ${n} elements (ms per substep, k = 1, 4, 16, fused vs k passes, WebGL2 and WebGPU)`, async ({ note }) => {
    const initial = pseudoRandom(n * 8, -1, 1, 17);
    const rounds = n >= 1e6 ? 3 : 5;
    for (const [name, engine] of [['webgl2', xfb], ['webgpu', webgpu]]) {
      if (!engine) { note(`${name}: not available`); continue; }
      const row = await fusionRow(name, engine, n, initial, rounds);
      fusionResults.push(row);
      note(JSON.stringify(row));
    }
  });
}

test('fusion summary', async ({ note }) => { note(`BENCH_FUSION ${JSON.stringify(fusionResults)}`); });
