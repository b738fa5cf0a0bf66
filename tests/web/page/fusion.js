// Fused substeps through the JavaScript API on WebGL2 and WebGPU (SwiftShader): step(k) of an
// element-local simulation runs one generated pass and equals k ordinary passes (fuseSubsteps:
// false), k plain steps, the other engine and the JS reference bit for bit; a simulation that
// reads other elements (or emits) says why it does not fuse, the same on both engines.
import { assert, assertArrayEqual, createXfb, demoShaders, expectError, flockScene, flockStep, particlesStep, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas });
const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
const sameBytes = (a, b) => a.byteLength === b.byteLength && new Uint8Array(a.buffer, a.byteOffset, a.byteLength).every((x, i) => x === new Uint8Array(b.buffer, b.byteOffset, b.byteLength)[i]);

// Reads a neighbour (texelFetch): not element-local, so step(k) runs k passes.
const NEIGHBOUR_SOURCE = await shader('neighbour_fetch.vert');

test('fused particles: step(16) is one pass that equals 16 passes and the JS reference', async ({ note }) => {
  const n = 1000;
  const ref = pseudoRandom(n * 8, -1, 1, 7);
  for (let e = 0; e < n; e++) ref[e * 8 + 3] = 0.0625 * (e % 40); // some respawn inside the loop
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const program = xfb.createProgram({ source: await shader('particles.vert'), mode: 'interleaved' });
  const make = (fuseSubsteps) => {
    const state = xfb.createBuffer({ format, count: n, data: ref });
    const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format, count: n }) }], { fuseSubsteps });
    return { state, pipeline };
  };
  const fused = make(true), passes = make(false);
  assert(fused.pipeline.fusion().fused, `fuses: ${fused.pipeline.fusion().reason}`);
  assert(!passes.pipeline.fusion().fused && passes.pipeline.fusion().reason.includes('fuseSubsteps'), 'fusion off says so');
  program.setUniform('dt', 0.015625);
  program.setUniform('gravity', [0, -9.75, 0.5]);
  for (let round = 0; round < 2; round++) {
    fused.pipeline.step(16);
    passes.pipeline.step(16);
    for (let s = 0; s < 16; s++) particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
  }
  assert(fused.pipeline.info.steps === 32 && passes.pipeline.info.steps === 32, 'substeps counted');
  const a = await fused.state.read();
  assertArrayEqual(a, ref, 'fused vs reference');
  assertArrayEqual(await passes.state.read(), ref, 'passes vs reference');
  note(fused.pipeline.fusion().reason);
});

test('fused flock: separate buffers, constants, the write-only output keeps the last substep', async () => {
  const n = 257, k = 5;
  const pos = pseudoRandom(n * 4, -4, 4, 1), vel = pseudoRandom(n * 4, -1, 1, 2), params = pseudoRandom(n * 2, 0.25, 2, 3);
  const inst = new Float32Array(n * 4);
  const position = xfb.createBuffer({ format: vec4(0), count: n, data: pos });
  const velocity = xfb.createBuffer({ format: vec4(1), count: n, data: vel });
  const constants = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: params });
  const instances = xfb.createBuffer({ format: vec4(12), count: n });
  const program = xfb.createProgram({ source: await shader('flock_separate.vert'), mode: 'separate' });
  const pipeline = xfb.createPipeline(program, [{ input: position, output: xfb.createBuffer({ format: vec4(0), count: n }) },
    { input: velocity, output: xfb.createBuffer({ format: vec4(1), count: n }) }, { input: constants }, { output: instances }]);
  assert(pipeline.fusion().fused, pipeline.fusion().reason);
  program.setUniform('dt', 0.125);
  program.setUniform('target', [1, -0.5, 2]);
  pipeline.step(k);
  for (let s = 0; s < k; s++) flockStep(pos, vel, params, inst, 0.125, [1, -0.5, 2]);
  assertArrayEqual(await position.read(), pos, 'position');
  assertArrayEqual(await velocity.read(), vel, 'velocity');
  assertArrayEqual(await instances.read(), inst, 'instances: the last substep');
  assertArrayEqual(await constants.read(), params, 'constants');
});

const INTEGER_STATE = await shader('integer_state.vert');

test('int and uint state through the interleaved layout, and xfb_substep, fused and not', async () => {
  const n = 64, k = 4;
  const format = [{ semantic: 'ATTR1', type: 'uint32', components: 1 }, { semantic: 'ATTR2', type: 'int32', components: 1 }, { semantic: 'ATTR0', components: 1 }];
  const words = new ArrayBuffer(n * 12);
  const u32 = new Uint32Array(words), i32 = new Int32Array(words), f32 = new Float32Array(words);
  for (let e = 0; e < n; e++) { u32[e * 3] = Math.imul(e, 2654435761) >>> 0; i32[e * 3 + 1] = e - 30; f32[e * 3 + 2] = 0.25 * e; }
  const program = xfb.createProgram({ source: INTEGER_STATE, mode: 'interleaved' });
  program.setUniform('scale', 0.5);
  const run = async (fuseSubsteps) => {
    const state = xfb.createBuffer({ format, count: n, data: words });
    const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format, count: n }) }], { fuseSubsteps });
    assert(pipeline.fusion().fused === fuseSubsteps, pipeline.fusion().reason);
    pipeline.step(k);
    return state.read();
  };
  const fused = await run(true), passes = await run(false);
  assert(sameBytes(fused, passes), 'fused bytes equal the passes');
  const out = new Int32Array(fused.buffer, fused.byteOffset, fused.byteLength / 4);
  assert(out[9 * 3 + 1] === 9 - 30 + 4 - 42, `hits after 4 substeps: ${out[9 * 3 + 1]}`);
  let id = Math.imul(9, 2654435761) >>> 0;
  for (let s = 0; s < k; s++) id = (Math.imul(id, 3) + 9) >>> 0;
  assert(out[9 * 3] >>> 0 === id, 'uint state');
});

test('a simulation that reads other elements refuses fusion with the reason and runs k passes', async () => {
  const source = NEIGHBOUR_SOURCE;
  const n = 8, data = pseudoRandom(n * 4, -1, 1, 21);
  const program = xfb.createProgram({ source });
  const state = xfb.createBuffer({ format: vec4(0), count: n, data });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format: vec4(0), count: n }) }]);
  const f = pipeline.fusion();
  assert(!f.fused && f.reason.includes("uniform 'positions' is a sampler2D"), f.reason);
  pipeline.step(4);
  assert(pipeline.info.steps === 4, 'four passes');
  const out = await state.read();
  assert(out[12] === Math.fround(data[12] + 6) && out[13] === Math.fround(data[13] + 4), `xfb_substep 0..3 and one per pass: ${out[12]}, ${out[13]}`);
  await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(0));
  await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(1.5));
  // Above the engine's limit, and values that would wrap to a small int32 on the way into wasm.
  for (const k of [257, 2 ** 32 + 2, NaN, Infinity, -1, '4']) await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(k));
  assert(pipeline.info.steps === 4, `refused steps ran nothing: ${pipeline.info.steps}`);
});

// WebGPU (SwiftShader's adapter, --enable-unsafe-webgpu): step(k) of an element-local simulation
// is one dispatch of a WGSL loop (web/package/webgpu.js). Each simulation runs as four variants
// on the same data: WebGPU fused step(k), WebGPU fuseSubsteps: false step(k) (k dispatches), WebGPU
// k plain step() calls (only where xfb_substep is not read: a plain step() sets it to 0), and
// WebGL2 fused step(k); every buffer's bytes must be equal, and fusion() the same on both engines.
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } }) }) : null;
const requireGpu = () => assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');

/** `rounds` calls of step(k) per variant; returns per variant { fusion, steps, bytes[] }. Every
 *  buffer but a state pair's output (its partner, which holds an older state after a fused call
 *  than after k passes) must hold the same bytes in every variant. */
async function fusedVariants(source, mode, buffers, roles, k, uniforms, { rounds = 2, singles = true } = {}) {
  const variants = { webgpu_fused: [gpu, true], webgpu_passes: [gpu, false], ...(singles ? { webgpu_singles: [gpu, true] } : {}), webgl2_fused: [xfb, true] };
  const runs = {};
  for (const [name, [engine, fuseSubsteps]] of Object.entries(variants)) {
    const made = buffers.map((b) => engine.createBuffer(b));
    const program = engine.createProgram({ source, mode });
    for (const [u, value] of Object.entries(uniforms)) program.setUniform(u, value);
    const pipeline = engine.createPipeline(program, roles.map((r) => Object.fromEntries(Object.entries(r).map(([role, i]) => [role, made[i]]))), { fuseSubsteps });
    for (let r = 0; r < rounds; r++) {
      if (name === 'webgpu_singles') for (let s = 0; s < k; s++) pipeline.step();
      else pipeline.step(k);
    }
    if (engine === gpu) await pipeline.ready; // the fused module compiled (rejects with XFB_SHADER_COMPILE otherwise)
    runs[name] = { fusion: pipeline.fusion(), steps: pipeline.info.steps, bytes: await Promise.all(made.map((b) => b.read())) };
    for (const o of [pipeline, program, ...made]) o.dispose();
  }
  assert(runs.webgpu_fused.fusion.fused, `fuses on WebGPU: ${runs.webgpu_fused.fusion.reason}`);
  assert(JSON.stringify(runs.webgpu_fused.fusion) === JSON.stringify(runs.webgl2_fused.fusion), `the same fusion() on both engines: ${JSON.stringify(runs.webgpu_fused.fusion)}`);
  assert(!runs.webgpu_passes.fusion.fused && runs.webgpu_passes.fusion.reason === 'PipelineOptions::fuseSubsteps is off', `fusion off: ${runs.webgpu_passes.fusion.reason}`);
  for (const [name, run] of Object.entries(runs)) {
    assert(run.steps === rounds * k, `${name}: ${run.steps} substeps counted, expected ${rounds * k}`);
    run.bytes.forEach((b, i) => {
      if (!roles.some((r) => r.input !== undefined && r.output === i)) assert(sameBytes(b, runs.webgpu_fused.bytes[i]), `k=${k}: buffer ${i} of ${name} differs from WebGPU fused`);
    });
  }
  return runs;
}

test('WebGPU fused particles (interleaved): step(k) for k = 1, 4, 16 equals k passes, k step() calls, WebGL2 and the JS reference', async ({ note }) => {
  requireGpu();
  const n = 1000, format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const data = pseudoRandom(n * 8, -1, 1, 7);
  for (let e = 0; e < n; e++) data[e * 8 + 3] = 0.0625 * (e % 40); // some respawn inside the loop
  const source = await shader('particles.vert'), uniforms = { dt: 0.015625, gravity: [0, -9.75, 0.5] };
  for (const k of [1, 4, 16]) {
    const runs = await fusedVariants(source, 'interleaved', [{ format, count: n, data }, { format, count: n }], [{ input: 0, output: 1 }], k, uniforms);
    const ref = data.slice();
    for (let s = 0; s < 2 * k; s++) particlesStep(ref, uniforms.dt, uniforms.gravity);
    assertArrayEqual(runs.webgpu_fused.bytes[0], ref, `k=${k}: WebGPU fused vs reference`);
  }
  note('k = 1, 4, 16, two calls each: bit-identical to the reference');
});

test('WebGPU fused flock (separate buffers, constants, write-only output keeping the last substep) and bench_particles', async () => {
  requireGpu();
  const n = 257, { pos, vel, params, buffers, entries } = flockScene(n);
  for (const k of [4, 16]) {
    const runs = await fusedVariants(await shader('flock_separate.vert'), 'separate', buffers, entries,
      k, { dt: 0.125, target: [1, -0.5, 2] });
    const p = pos.slice(), v = vel.slice(), inst = new Float32Array(n * 4);
    for (let s = 0; s < 2 * k; s++) flockStep(p, v, params, inst, 0.125, [1, -0.5, 2]);
    for (const [i, ref, what] of [[0, p, 'position'], [2, v, 'velocity'], [4, params, 'constants'], [5, inst, 'instances (the last substep)']])
      assertArrayEqual(runs.webgpu_fused.bytes[i], ref, `k=${k}: WebGPU fused ${what} vs reference`);
  }
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }], data = pseudoRandom(512 * 8, -1, 1, 5);
  await fusedVariants(await shader('bench_particles.vert'), 'interleaved', [{ format, count: 512, data }, { format, count: 512 }], [{ input: 0, output: 1 }], 16, { dt: 1 / 64 }, { rounds: 3 });
});

test('WebGPU fused 36-byte interleaved state (vec4 + vec3 + vec2, word views), odd k', async () => {
  requireGpu();
  const n = 300, format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
  const data = pseudoRandom(n * 9, -2, 2, 13);
  const runs = await fusedVariants(await shader('layout36.vert'), 'interleaved', [{ format, count: n, data }, { format, count: n }], [{ input: 0, output: 1 }], 5, { scale: 0.75 });
  const f = Math.fround, ref = data.slice();
  for (let s = 0; s < 10; s++)
    for (let e = 0; e < n; e++) {
      const r = ref.subarray(e * 9, e * 9 + 9), [nx, ny, nz] = [r[4], r[5], r[6]];
      for (let i = 0; i < 3; i++) r[i] = f(r[i] * 0.75);
      [r[4], r[5], r[6]] = [nz, nx, ny];
      r[7] = f(r[7] + 0.5); r[8] = f(r[8] + 0.25);
    }
  assertArrayEqual(runs.webgpu_fused.bytes[0], ref, 'WebGPU fused vs reference');
});

test('WebGPU fused int and uint state with xfb_substep: equals k dispatches and WebGL2, the substep index runs 0..k-1', async () => {
  requireGpu();
  const n = 64, format = [{ semantic: 'ATTR1', type: 'uint32', components: 1 }, { semantic: 'ATTR2', type: 'int32', components: 1 }, { semantic: 'ATTR0', components: 1 }];
  const words = new ArrayBuffer(n * 12);
  const u32 = new Uint32Array(words), i32 = new Int32Array(words), f32 = new Float32Array(words);
  for (let e = 0; e < n; e++) { u32[e * 3] = Math.imul(e, 2654435761) >>> 0; i32[e * 3 + 1] = e - 30; f32[e * 3 + 2] = 0.25 * e; }
  for (const k of [4, 16]) {
    const runs = await fusedVariants(INTEGER_STATE, 'interleaved', [{ format, count: n, data: words }, { format, count: n }], [{ input: 0, output: 1 }], k, { scale: 0.5 },
      { rounds: 1, singles: false });
    const out = new Int32Array(runs.webgpu_fused.bytes[0].buffer);
    let hits = 9 - 30, id = Math.imul(9, 2654435761) >>> 0;
    for (let s = 0; s < k; s++) { hits = hits - 7 * s + 1; id = (Math.imul(id, 3) + 9) >>> 0; }
    assert(out[9 * 3 + 1] === hits, `k=${k}: hits ${out[9 * 3 + 1]}, expected ${hits}`);
    assert(out[9 * 3] >>> 0 === id, `k=${k}: uint state`);
  }
});

/** Counts dispatches and submits while `fn` runs (wraps the prototypes Chromium's objects use). */
async function countGpuWork(fn) {
  const counts = { dispatches: 0, submits: 0 };
  const pass = GPUComputePassEncoder.prototype, queue = GPUQueue.prototype;
  const dispatch = pass.dispatchWorkgroups, submit = queue.submit;
  pass.dispatchWorkgroups = function (...a) { counts.dispatches++; return dispatch.apply(this, a); };
  queue.submit = function (...a) { counts.submits++; return submit.apply(this, a); };
  try { await fn(); } finally { pass.dispatchWorkgroups = dispatch; queue.submit = submit; }
  return counts;
}

test('WebGPU step(k): fused is one dispatch and one submit, k dispatches otherwise (one submit each when xfb_substep changes)', async () => {
  requireGpu();
  const n = 64, format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const program = gpu.createProgram({ source: await shader('bench_particles.vert') });
  program.setUniform('dt', 1 / 64);
  const make = (fuseSubsteps) => gpu.createPipeline(program, [{ input: gpu.createBuffer({ format, count: n }), output: gpu.createBuffer({ format, count: n }) }], { fuseSubsteps });
  const fused = make(true), passes = make(false);
  fused.step(2); // compiles the fused module
  await fused.ready;
  let c = await countGpuWork(() => fused.step(16));
  assert(c.dispatches === 1 && c.submits === 1, `fused step(16): ${JSON.stringify(c)}`);
  c = await countGpuWork(() => passes.step(16));
  assert(c.dispatches === 16 && c.submits === 1, `step(16) unfused: ${JSON.stringify(c)}`);
  c = await countGpuWork(() => fused.step());
  assert(c.dispatches === 1 && c.submits === 1, `step(): ${JSON.stringify(c)}`);
  const withSubstep = gpu.createProgram({ source: INTEGER_STATE });
  const iformat = [{ semantic: 'ATTR1', type: 'uint32', components: 1 }, { semantic: 'ATTR2', type: 'int32', components: 1 }, { semantic: 'ATTR0', components: 1 }];
  const p = gpu.createPipeline(withSubstep, [{ input: gpu.createBuffer({ format: iformat, count: n }), output: gpu.createBuffer({ format: iformat, count: n }) }], { fuseSubsteps: false });
  c = await countGpuWork(() => p.step(5));
  assert(c.dispatches === 5 && c.submits === 5, `unfused step(5) with xfb_substep: ${JSON.stringify(c)}`);
});

test('WebGPU refuses fusion as WebGL2 does, with the reason (flock, cloth, a texel fetch, emitted outputs), and runs k passes', async ({ note }) => {
  requireGpu();
  const demos = await demoShaders(), n = 16;
  // The demos' non-local simulations, separate buffers: state pairs, constants, write-only outputs.
  const cases = {
    flock: { entries: [[0, 4, true], [1, 4, true], [2, 2, false], [12, 4, null], [13, 4, null]] },
    cloth: { entries: [[0, 4, true], [1, 4, true], [2, 2, false]] },
  };
  for (const [name, { entries }] of Object.entries(cases)) {
    const answers = [];
    for (const engine of [xfb, gpu]) {
      const program = engine.createProgram({ source: demos[name], mode: 'separate' });
      const buffer = (slot, components) => engine.createBuffer({ format: [{ semantic: `ATTR${slot}`, components }], count: n });
      const pipeline = engine.createPipeline(program, entries.map(([slot, c, state]) => (state === true ? { input: buffer(slot, c), output: buffer(slot, c) } : state === false ? { input: buffer(slot, c) } : { output: buffer(slot, c) })));
      answers.push(pipeline.fusion());
    }
    assert(!answers[1].fused && /uniform '(positions|velocities)' is a sampler2D/.test(answers[1].reason), `${name} on WebGPU: ${answers[1].reason}`);
    assert(JSON.stringify(answers[0]) === JSON.stringify(answers[1]), `${name}: the same answer as WebGL2: ${JSON.stringify(answers)}`);
    note(`${name}: ${answers[1].reason}`);
  }
  // A texel fetch of a neighbour refuses; step(4) runs four passes, xfb_substep 0..3 one per pass.
  const source = NEIGHBOUR_SOURCE;
  const data = pseudoRandom(8 * 4, -1, 1, 21);
  const program = gpu.createProgram({ source });
  const state = gpu.createBuffer({ format: vec4(0), count: 8, data });
  const pipeline = gpu.createPipeline(program, [{ input: state, output: gpu.createBuffer({ format: vec4(0), count: 8 }) }]);
  pipeline.setTexture('positions', gpu.device.createTexture({ size: [8, 1], format: 'rgba32float', usage: GPUTextureUsage.TEXTURE_BINDING }));
  const f = pipeline.fusion();
  assert(!f.fused && f.reason.includes("uniform 'positions' is a sampler2D"), f.reason);
  const c = await countGpuWork(() => pipeline.step(4));
  assert(c.dispatches === 4 && pipeline.info.steps === 4, `four passes: ${JSON.stringify(c)}, steps ${pipeline.info.steps}`);
  const out = await state.read();
  assert(out[12] === Math.fround(data[12] + 6) && out[13] === Math.fround(data[13] + 4), `xfb_substep 0..3 and one per pass: ${out[12]}, ${out[13]}`);
  pipeline.step();
  const again = await state.read();
  assert(again[12] === Math.fround(out[12] + 0), `a plain step() sets xfb_substep to 0: ${again[12]}`);
  // Emitted outputs are counted and ordered per step: not fused (as on GL compute), k full steps.
  const emitting = gpu.createProgram({ source: `#version 300 es
precision highp float;
in vec4 a;
out vec4 out_a;
out vec4 emit_copy[2];
flat out int emit_count;
void main() { out_a = a + vec4(1.0); emit_count = gl_VertexID % 3; emit_copy[0] = a; emit_copy[1] = -a; }
` });
  const e = gpu.createPipeline(emitting, [{ input: gpu.createBuffer({ format: vec4(0), count: 8, data }), output: gpu.createBuffer({ format: vec4(0), count: 8 }) },
    { output: gpu.createBuffer({ format: vec4(0), count: 32 }) }], { emits: [{ varying: 'emit_copy', count: 'emit_count' }] });
  assert(!e.fusion().fused && e.fusion().reason === 'emitted outputs are counted and ordered per step, between passes', e.fusion().reason);
  e.step(3);
  assert(e.info.steps === 3 && (await e.emitted())[0].written === 7, `three full steps with their emits: ${JSON.stringify(await e.emitted())}`);
});

test('WebGPU step(k): substeps outside 1..256 or not an integer are XFB_INVALID_ARGUMENT and run nothing', async () => {
  requireGpu();
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const program = gpu.createProgram({ source: await shader('bench_particles.vert') });
  program.setUniform('dt', 1 / 64);
  const state = gpu.createBuffer({ format, count: 8, data: pseudoRandom(64, -1, 1, 3) });
  const pipeline = gpu.createPipeline(program, [{ input: state, output: gpu.createBuffer({ format, count: 8 }) }]);
  await expectError('XFB_INVALID_ARGUMENT', () => gpu.createPipeline(program, [{ input: gpu.createBuffer({ format, count: 8 }), output: gpu.createBuffer({ format, count: 8 }) }], { fuseSubsteps: 1 }));
  const before = await state.read();
  for (const k of [0, 1.5, 257, 2 ** 32 + 2, NaN, Infinity, -1, '4', null]) {
    const error = await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(k));
    assert(error.message.includes('1..256'), error.message);
  }
  const c = await countGpuWork(() => pipeline.step(256));
  assert(c.dispatches === 1 && pipeline.info.steps === 256, `step(256) is allowed and fused: ${JSON.stringify(c)}, ${pipeline.info.steps}`);
  assert(!sameBytes(await state.read(), before), 'step(256) moved the state');
});
