// The WebGPU backend (web/package/webgpu.js) in headless Chromium (--enable-unsafe-webgpu: SwiftShader's
// fallback adapter): every shader translates and compiles; every simulation gives the same bytes as
// WebGL2 transform feedback and the JS reference (bit for bit: 0 ulp); bad shaders give coded errors;
// no GPU object is created per step; dispose and device loss give coded errors; restore() after a device
// loss brings every object back and the simulation continues; emitted (variable-count) outputs keep
// their totals in a buffer that drives drawIndirect and dispatchWorkgroupsIndirect (their records
// and overflow policies, on both engines: emit.js).
import { assert, assertArrayEqual, createXfb, demoShaders, expectError, flockScene, flockStep, particlesStep, pseudoRandom, shader } from './assert.js';
import { kSplit, kSplitEmits, makeSplit as makeSplitOn, prefix, splitReference } from './emit_fixture.js';

const canvas = document.getElementById('canvas');
const gl2 = await createXfb({ canvas });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } }) }) : null;
const globalGpu = gpu;
const requireGpu = () => assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];

async function compileErrors(code) {
  const info = await gpu.device.createShaderModule({ code }).getCompilationInfo();
  return info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
}

/** Runs `steps` steps of the same program and roles on both engines, setting uniforms per step. */
async function runBoth(source, mode, buffers, roles, steps, uniforms) {
  const results = [];
  for (const xfb of [gl2, gpu]) {
    const made = buffers.map((b) => xfb.createBuffer(b));
    const program = xfb.createProgram({ source, mode });
    const pipeline = xfb.createPipeline(program, roles.map((r) => Object.fromEntries(Object.entries(r).map(([k, i]) => [k, made[i]]))),
      buffers.every((b) => !b.data) ? { count: buffers[0].count } : {});
    for (let s = 1; s <= steps; s++) {
      for (const [name, value] of Object.entries(uniforms(s))) program.setUniform(name, value);
      pipeline.step();
    }
    results.push(await Promise.all(made.map((b) => b.read())));
    for (const o of [pipeline, program, ...made]) o.dispose();
  }
  return results;
}

test('every shader in shaders/ and every demo simulation translates and compiles (getCompilationInfo: no errors)', async ({ note }) => {
  requireGpu();
  note(`adapter: ${JSON.stringify(adapter.info ?? {})}, fallback ${adapter.isFallbackAdapter}`);
  const sources = { ...(await demoShaders()) };
  for (const name of ['particles.vert', 'flock_separate.vert', 'layout36.vert', 'capture_mesh.vert', 'bench_particles.vert']) sources[name] = await shader(name);
  for (const [name, source] of Object.entries(sources)) {
    for (const mode of ['interleaved', 'separate']) {
      if (mode === 'separate' && name === 'skinning') continue; // same code, both modes covered by the others
      const program = gpu.createProgram({ source, mode });
      const errors = await compileErrors(program.wgsl);
      assert(errors.length === 0, `${name} (${mode}): ${errors.join('\n')}\n${program.wgsl}`);
      program.dispose();
    }
  }
  note(`${Object.keys(sources).length} shaders, interleaved and separate`);
});

test('interleaved particles: 40 steps give the same bytes on WebGPU, WebGL2 and the JS reference', async () => {
  requireGpu();
  const n = 1000;
  const data = pseudoRandom(n * 8, -1, 1, 7);
  for (let e = 0; e < n; e++) data[e * 8 + 3] = 0.0625 * (e % 40);
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const [viaGl, viaGpu] = await runBoth(await shader('particles.vert'), 'interleaved', [{ format, count: n, data }, { format, count: n }],
    [{ input: 0, output: 1 }], 40, () => ({ dt: 0.015625, gravity: [0, -9.75, 0.5] }));
  const ref = data.slice();
  for (let s = 0; s < 40; s++) particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
  assertArrayEqual(viaGpu[0], ref, 'WebGPU vs reference');
  assertArrayEqual(viaGpu[0], viaGl[0], 'WebGPU vs WebGL2');
});

test('separate mode with all three roles (flock): state swapped, constants never written, write-only instances', async () => {
  requireGpu();
  const n = 257, { pos, vel, params, buffers, entries } = flockScene(n);
  const target = (s) => [(s % 5) - 2, 1, -0.5 * (s % 3)];
  const [viaGl, viaGpu] = await runBoth(await shader('flock_separate.vert'), 'separate', buffers,
    entries, 25, (s) => ({ dt: 0.125, target: target(s) }));
  const p = pos.slice(), v = vel.slice(), inst = new Float32Array(n * 4);
  for (let s = 1; s <= 25; s++) flockStep(p, v, params, inst, 0.125, target(s));
  for (const [i, ref, what] of [[0, p, 'position'], [2, v, 'velocity'], [4, params, 'constants'], [5, inst, 'instances']]) {
    assertArrayEqual(viaGpu[i], ref, `WebGPU ${what} vs reference`);
    assertArrayEqual(viaGpu[i], viaGl[i], `WebGPU ${what} vs WebGL2`);
  }
});

test('the 36-byte layout (vec4 + vec3 + vec2 interleaved) and gl_VertexID / gl_Position: same bytes as WebGL2', async () => {
  requireGpu();
  const n = 333;
  const format36 = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
  const [gl36, gpu36] = await runBoth(await shader('layout36.vert'), 'interleaved', [{ format: format36, count: n, data: pseudoRandom(n * 9, -2, 2, 5) }, { format: format36, count: n }],
    [{ input: 0, output: 1 }], 3, (s) => ({ scale: 0.5 + s }));
  assertArrayEqual(gpu36[0], gl36[0], '36-byte state');
  const mesh = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }];
  const [glMesh, gpuMesh] = await runBoth(await shader('capture_mesh.vert'), 'interleaved', [{ format: mesh, count: n, data: pseudoRandom(n * 6, -1, 1, 9) }, { format: format36, count: n }],
    [{ input: 0 }, { output: 1 }], 1, () => ({ u_scale: 2 }));
  assertArrayEqual(gpuMesh[1], glMesh[1], 'capture_mesh outputs');
  assert(gpuMesh[1][2 + 9 * 7] === glMesh[1][2 + 9 * 7], 'gl_VertexID carried');
});

const SEMANTICS = `#version 300 es
precision highp float;
in vec4 position;
in ivec4 ids;
in uvec2 keys;
uniform mat4 bones[2];
uniform vec3 shift;
uniform int divisor;
out vec4 out_position;
flat out ivec4 out_ids;
flat out uvec2 out_keys;
uint hash(uint x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }
void split(vec3 v, out float lo, inout int calls) { lo = min(v.x, min(v.y, v.z)); calls++; }
void main() {
    vec3 v = position.xyz + shift;
    v.xz *= 0.5;
    float lo; int calls = 0;
    split(v, lo, calls);
    for (int k = 0; k < 3; ++k) { if (k == 1) continue; v.y += float(k) * 0.25; }
    mat3 m = mat3(bones[gl_VertexID % 2]);
    v = m * v + mod(v, 0.75) + (lo < 0.0 ? vec3(1.0) : vec3(-1.0));
    out_position = vec4(v, float(calls) + clamp(position.w, 0.0, 0.5));
    out_ids = ivec4(ids.x / divisor, abs(ids.y) % divisor, -ids.z, ids.w * 3); // % of negatives: undefined in GLSL ES
    out_keys = uvec2(hash(keys.x), keys.y >> 3u) + uvec2(uint(gl_VertexID));
}`;

test('translated semantics (mod, ?:, swizzle stores, out/inout, loops, mat3(mat4), int / and %, uint hash): same bytes as WebGL2', async () => {
  requireGpu();
  const n = 500;
  const data = new ArrayBuffer(n * 40); // 10 words: vec4, ivec4, uvec2
  const f = new Float32Array(data), i = new Int32Array(data), u = new Uint32Array(data);
  const r = pseudoRandom(n * 8, -3, 3, 11);
  for (let e = 0; e < n; e++) {
    for (let c = 0; c < 4; c++) f[e * 10 + c] = r[e * 8 + c];
    for (let c = 0; c < 4; c++) i[e * 10 + 4 + c] = Math.round(r[e * 8 + 4 + c] * 1000);
    u[e * 10 + 8] = (e * 2654435761) >>> 0; u[e * 10 + 9] = e * 77;
  }
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', type: 'int32', components: 4 }, { semantic: 'ATTR2', type: 'uint32', components: 2 }];
  const out = [{ semantic: 'ATTR10', components: 4 }, { semantic: 'ATTR11', type: 'int32', components: 4 }, { semantic: 'ATTR12', type: 'uint32', components: 2 }];
  const bones = [];
  for (let b = 0; b < 32; b++) bones.push(((b * 7) % 11) / 8 - 0.5);
  const [viaGl, viaGpu] = await runBoth(SEMANTICS, 'interleaved', [{ format, count: n, data }, { format: out, count: n }], [{ input: 0 }, { output: 1 }], 1,
    () => ({ bones, shift: [0.25, -0.5, 1], divisor: 7 }));
  const a = new Uint32Array(viaGl[1].buffer), b = new Uint32Array(viaGpu[1].buffer);
  let firstDiff = -1;
  for (let k = 0; k < a.length && firstDiff < 0; k++) if (a[k] !== b[k]) firstDiff = k;
  assert(firstDiff < 0, `word ${firstDiff} (element ${Math.floor(firstDiff / 10)}, component ${firstDiff % 10}): WebGL2 ${a[firstDiff]}, WebGPU ${b[firstDiff]}`);
});

const LEGACY = `attribute vec4 position;
attribute float weight;
uniform vec4 params[3];
varying vec4 out_position;
varying float out_w;
struct Particle { vec3 p; float life; };
const int N = 3;
const float SCALE = 0.5;
float table[N];
Particle advance(Particle q, float dt) { q.p += vec3(0.0, -dt, 0.0); q.life -= dt; return q; }
void main() {
    Particle q = Particle(position.xyz, position.w);
    for (int i = 0; i < N; i++) table[i] = float(i) * SCALE;
    float acc[3];
    acc[0] = 1.0; acc[1] = 2.0; acc[2] = acc[0] + acc[1];
    int j = 0;
    while (true) { j++; if (j > 4) break; }
    q = advance(q, params[1].x);
    vec2 sel = weight > 0.5 ? vec2(1.0, 2.0) : vec2(3.0);
    out_position = vec4(q.p * table[2] + vec3(acc[2] * params[2].y), q.life) + params[j - 4] + vec4(sel, sel);
    out_w = weight * float(j) + (q.life > 1.0 ? 1.0 : -1.0);
}`;

test('a GLSL ES 1.00 shader (attribute/varying) with structs, global and local arrays, consts, while/break, ?: of vectors: same bytes as WebGL2', async () => {
  requireGpu();
  const n = 300;
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 1 }];
  const out = [{ semantic: 'ATTR10', components: 4 }, { semantic: 'ATTR11', components: 1 }];
  const [viaGl, viaGpu] = await runBoth(LEGACY, 'interleaved', [{ format, count: n, data: pseudoRandom(n * 5, -2, 2, 17) }, { format: out, count: n }],
    [{ input: 0 }, { output: 1 }], 1, () => ({ params: [0.5, 1, 1.5, 2, 0.125, -0.25, 0.375, -0.5, 3, 2.5, 2, 1.5] }));
  assert(viaGl[1].every((v) => v !== 0 && Number.isFinite(v)), 'WebGL2 wrote every output');
  assertArrayEqual(viaGpu[1], viaGl[1], 'ES 1.00 outputs');
});

test('a bad format gives the same code and message on WebGL2 and WebGPU (and from xfb-run: tests/tools)', async () => {
  requireGpu();
  const cases = await (await fetch('/bad_formats.json')).json();
  assert(cases.length >= 8, `${cases.length} cases`);
  for (const { format, code, message } of cases) {
    for (const xfb of [gl2, gpu]) {
      const e = await expectError(code, () => xfb.createBuffer({ format, count: 1 }));
      assert(e.detail === message, `${xfb.backend}: expected "${message}", got "${e.detail}"`);
    }
  }
});

test('bad shaders and bad role lists give coded errors', async () => {
  requireGpu();
  const base = '#version 300 es\nprecision highp float;\nin vec4 position;\nout vec4 out_position;\nuniform sampler2D s;\n';
  // Derivatives exist only in fragment shaders (texture() translates since issue 40: a sampler per uniform).
  let e = await expectError('XFB_COMPUTE_TRANSLATION', () => gpu.createProgram({ source: base + 'void main() {\n  out_position = vec4(dFdx(position.x));\n}' }));
  assert(e.message.includes('line 7') && e.message.includes('dFdx()'), e.message);
  // switch translates since the shader module (issue 40): its bytes are conformance case shader.lowered-constructs.
  assert(gpu.createProgram({ source: base + 'void main() { switch (gl_VertexID) { default: out_position = position; } }' }));
  // Function-like macros are expanded by the translation (WGSL has no preprocessor).
  assert(gpu.createProgram({ source: base + '#define TWICE(x) ((x) * 2.0)\nvoid main() { out_position = TWICE(position); }' }));
  await expectError('XFB_SHADER_SYNTAX', () => gpu.createProgram({ source: '#version 300 es\nin vec4 position\nout vec4 out_p;\nvoid main() {}' }));
  await expectError('XFB_NO_CAPTURED_VARYINGS', () => gpu.createProgram({ source: '#version 300 es\nin vec4 position;\nvoid main() {}' }));
  const program = gpu.createProgram({ source: await shader('particles.vert') });
  const a = gpu.createBuffer({ format: vec4(0), count: 4 });
  const b = gpu.createBuffer({ format: vec4(0), count: 4 });
  await expectError('XFB_SEMANTIC_MISSING', () => gpu.createPipeline(program, [{ input: a, output: b }]));
  await expectError('XFB_INVALID_ARGUMENT', () => gpu.createPipeline(program, [{ input: a, output: a }]));
  await expectError('XFB_UNKNOWN_UNIFORM', () => program.setUniform('nope', 1));
  e = await expectError('XFB_UNIFORM_TYPE', () => program.setUniform('gravity', [1, 2]));
  assert(/is floatx3 but the value has 2 numbers/.test(e.message), e.message); // the kind named from the module's ScalarKind
  e = await expectError('XFB_INVALID_ARGUMENT', async () => gpu.createProgram({ source: await shader('particles.vert'), mode: 'sideways' }));
  assert(e.message.includes("mode must be 'interleaved' or 'separate', got 'sideways'"), e.message); // the module's capture modes
  e = await expectError('XFB_INVALID_ARGUMENT', () => gpu.createCapture(program, [])); // no inputs and no vertexCount
  assert(e.message.includes('the element count must be given'), e.message);
  for (const o of [program, a, b]) o.dispose();
});

test('no GPU object is created in a steady step: one command encoder, one pass, one submit per step', async ({ note }) => {
  requireGpu();
  const n = 100, format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = gpu.createBuffer({ format, count: n, data: pseudoRandom(n * 8, -1, 1, 3) });
  const scratch = gpu.createBuffer({ format, count: n });
  const program = gpu.createProgram({ source: await shader('particles.vert') });
  const pipeline = gpu.createPipeline(program, [{ input: state, output: scratch }]);
  await pipeline.ready;
  program.setUniform('gravity', [0, -1, 0]);
  pipeline.step(); // the first step writes the uniform buffer
  const device = gpu.device, counts = new Map(), originals = new Map();
  const count = (target, name) => {
    const original = target[name];
    originals.set(name, [target, original]);
    target[name] = function (...args) { counts.set(name, (counts.get(name) ?? 0) + 1); return original.apply(this, args); };
  };
  for (const name of ['createBuffer', 'createBindGroup', 'createBindGroupLayout', 'createPipelineLayout', 'createComputePipeline', 'createShaderModule',
    'createTexture', 'createSampler', 'createQuerySet', 'createCommandEncoder', 'createRenderBundleEncoder']) count(device, name);
  count(device.queue, 'writeBuffer');
  count(device.queue, 'submit');
  try {
    const first = state.gpuBuffer;
    for (let s = 0; s < 10; s++) {
      program.setUniform('dt', 0.01 * s); // a changed uniform: one writeBuffer, no object
      pipeline.step();
    }
    for (let s = 0; s < 10; s++) pipeline.step(); // unchanged uniforms: no writeBuffer
    assert(state.gpuBuffer === first, 'after an even number of steps the handle names its first GPUBuffer again');
    pipeline.step();
    assert(state.gpuBuffer !== first, 'after an odd number the other one');
  } finally {
    for (const [name, [target, original]] of originals) target[name] = original;
  }
  const snapshot = Object.fromEntries(counts);
  note(`21 steps: ${JSON.stringify(snapshot)}`);
  assert(counts.get('createCommandEncoder') === 21 && counts.get('submit') === 21, 'one encoder and one submit per step');
  assert(counts.get('writeBuffer') === 10, `uniform buffer written only when a uniform changed (${counts.get('writeBuffer')})`);
  const created = [...counts].filter(([name, n]) => name.startsWith('create') && name !== 'createCommandEncoder' && n > 0);
  assert(created.length === 0, `GPU objects created per step: ${JSON.stringify(created)}`);
  for (const o of [pipeline, program, state, scratch]) o.dispose();
});

test('dispose: disposed objects give XFB_DISPOSED, liveObjects counts, the engine disposes everything', async () => {
  requireGpu();
  const engine = await createXfb({ backend: 'webgpu' });
  assert(engine.backend === 'webgpu' && engine.device, 'a device was requested');
  const buffer = engine.createBuffer({ format: vec4(0), count: 8, data: new Float32Array(32).fill(2) });
  const out = engine.createBuffer({ format: vec4(0), count: 8 });
  const program = engine.createProgram({ source: '#version 300 es\nin vec4 position;\nout vec4 out_p;\nvoid main() { out_p = position * 2.0; }' });
  const pipeline = engine.createPipeline(program, [{ input: buffer }, { output: out }]);
  pipeline.step();
  assertArrayEqual(await out.read(), new Float32Array(32).fill(4), 'the step ran');
  let live = engine.liveObjects();
  assert(live.buffers === 2 && live.programs === 1 && live.pipelines === 1, JSON.stringify(live));
  buffer.dispose();
  await expectError('XFB_DISPOSED', () => buffer.gpuBuffer);
  await expectError('XFB_DISPOSED', () => pipeline.step());
  pipeline.dispose();
  await expectError('XFB_DISPOSED', () => pipeline.step());
  live = engine.liveObjects();
  assert(live.buffers === 1 && live.pipelines === 0, JSON.stringify(live));
  engine.dispose();
  assert(out.disposed && program.disposed, 'engine.dispose() disposes every object');
  await expectError('XFB_DISPOSED', () => engine.createBuffer({ format: vec4(0), count: 1 }));
});

test('device loss: the contextlost event, then XFB_CONTEXT_LOST from every call', async () => {
  requireGpu();
  const engine = await createXfb({ backend: 'webgpu' });
  const buffer = engine.createBuffer({ format: vec4(0), count: 8 });
  const out = engine.createBuffer({ format: vec4(0), count: 8 });
  const program = engine.createProgram({ source: '#version 300 es\nin vec4 position;\nout vec4 out_p;\nvoid main() { out_p = position; }' });
  const pipeline = engine.createPipeline(program, [{ input: buffer }, { output: out }]);
  let lost = null;
  engine.on('contextlost', (d) => { lost = d; });
  engine.device.destroy();
  await engine.device.lost;
  await new Promise((r) => setTimeout(r, 0));
  assert(lost && lost.reason === 'destroyed', `contextlost event: ${JSON.stringify(lost)}`);
  assert(engine.isContextLost, 'isContextLost');
  await expectError('XFB_CONTEXT_LOST', () => pipeline.step());
  await expectError('XFB_CONTEXT_LOST', () => out.read());
  await expectError('XFB_CONTEXT_LOST', () => program.setUniform('x', 1));
  await expectError('XFB_CONTEXT_LOST', () => engine.createBuffer({ format: vec4(0), count: 1 }));
  engine.dispose();
});

// Emitted (variable-count) outputs (emit_fixture.js): the records' bytes, the reports and the
// overflow policies are emit.js's, on both engines; here what only WebGPU has: the totals buffer
// for drawIndirect / dispatchWorkgroupsIndirect.
const makeSplit = (n, capacities, overflow, engine = globalGpu) => makeSplitOn(engine, n, capacities, overflow ? { overflow } : {});

async function readWords(buffer, bytes, device = gpu.device) {
  const staging = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, staging, 0, bytes);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(staging.getMappedRange().slice(0));
  staging.destroy();
  return words;
}

test('emitted outputs: the totals buffer {written,1,0,0} {groups,1,1} requested per budget, for drawIndirect / dispatchWorkgroupsIndirect', async () => {
  requireGpu();
  // 1000: a two-level scan; 70000: three levels (256 x 256 < 70000).
  for (const n of [1000, 70000]) {
    const s = makeSplit(n, [3 * n]);
    await s.pipeline.ready;
    const ref = splitReference(s.data);
    await s.pipeline.stepChecked();
    const sparkCount = ref.sparks.length / 4, tagCount = ref.tags.length;
    const totals = s.pipeline.emitTotalsBuffer;
    assert(totals.usage & GPUBufferUsage.INDIRECT && totals.usage & GPUBufferUsage.STORAGE, 'the totals buffer is usable for indirect draws and dispatches');
    const wg = s.pipeline.info.workGroupSize;
    assertArrayEqual(await readWords(totals, 64), new Uint32Array([sparkCount, 1, 0, 0, Math.ceil(sparkCount / wg), 1, 1, sparkCount,
      tagCount, 1, 0, 0, Math.ceil(tagCount / wg), 1, 1, tagCount]), `n=${n}: totals {written,1,0,0} {groups,1,1} requested per budget`);
    s.dispose();
  }
});

test('emitted outputs: no GPU object per step, bad declarations give coded errors', async ({ note }) => {
  requireGpu();
  const s = makeSplit(300, [900]);
  await s.pipeline.ready;
  s.pipeline.step();
  const device = gpu.device, counts = new Map(), originals = [];
  for (const name of ['createBuffer', 'createBindGroup', 'createBindGroupLayout', 'createPipelineLayout', 'createComputePipeline', 'createShaderModule', 'createCommandEncoder']) {
    const original = device[name];
    originals.push([name, original]);
    device[name] = function (...args) { counts.set(name, (counts.get(name) ?? 0) + 1); return original.apply(this, args); };
  }
  try {
    for (let k = 0; k < 10; k++) s.pipeline.step();
  } finally {
    for (const [name, original] of originals) device[name] = original;
  }
  note(`10 steps: ${JSON.stringify(Object.fromEntries(counts))}`);
  assert(counts.get('createCommandEncoder') === 10 && [...counts.keys()].every((k) => k === 'createCommandEncoder'), `objects per step: ${JSON.stringify(Object.fromEntries(counts))}`);
  s.dispose();

  const program = gpu.createProgram({ source: kSplit });
  const state = gpu.createBuffer({ format: vec4(0), count: 4 }), next = gpu.createBuffer({ format: vec4(0), count: 4 });
  const sparks = gpu.createBuffer({ format: vec4(0), count: 8 }), bad = gpu.createBuffer({ format: vec4(0), count: 8 });
  await expectError('XFB_UNKNOWN_VARYING', () => gpu.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: [{ varying: 'emit_nothing', count: 'emit_count' }] }));
  await expectError('XFB_OUTPUT_LAYOUT_MISMATCH', () => gpu.createPipeline(program, [{ input: state, output: next }, { output: sparks }, { output: bad }],
    { emits: kSplitEmits.slice(0, 2) }));
  await expectError('XFB_INVALID_ARGUMENT', () => gpu.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: kSplitEmits.slice(0, 1), overflow: 'wrap' }));
  await expectError('XFB_OUTPUT_COUNT_MISMATCH', () => gpu.createPipeline(program, [{ input: state, output: next }], { emits: kSplitEmits.slice(0, 1) }));
  const plain = gpu.createPipeline(program, [{ input: state, output: next }]);
  assert(plain.emitTotalsBuffer === null, 'no totals buffer without emitted outputs');
  await expectError('XFB_INVALID_ARGUMENT', () => plain.emitted());
  for (const o of [plain, program, state, next, sparks, bad]) o.dispose();
});

// Device loss and restore(): particles (shaders/particles.vert) stepped before and after the loss.
const kParticleFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
const kDt = 0.015625, kGravity = [0, -9.75, 0.5];
const stepReference = (state, steps) => { for (let s = 0; s < steps; s++) particlesStep(state, kDt, kGravity); return state; };
function particleData(n, seed) {
  const data = pseudoRandom(n * 8, -1, 1, seed);
  for (let e = 0; e < n; e++) data[e * 8 + 3] = 0.0625 * (e % 40);
  return data;
}
// A new adapter for each device: Chromium's adapter is "consumed" by its first device (a second
// requestDevice() rejects). The adapters are kept: Chromium loses a device whose adapter was collected.
const adapters = [];
async function newDevice() {
  const a = await navigator.gpu.requestAdapter();
  adapters.push(a);
  return a.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: a.limits.maxStorageBuffersPerShaderStage } });
}
async function loseDevice(engine) {
  const lost = engine.device;
  lost.destroy();
  await lost.lost;
  await new Promise((r) => setTimeout(r, 0));
  return lost;
}

test('device loss, then restore(device): the same objects on the new device, each buffer re-uploaded by its restore policy, the simulation continues as the float32 reference', async ({ note }) => {
  requireGpu();
  const n = 300;
  const engine = await createXfb({ device: await newDevice() });
  const early = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore());
  assert(/not lost/.test(early.message), early.message);
  const data = particleData(n, 7), initial = particleData(n, 9), uploaded = pseudoRandom(n * 8, -2, 2, 13);
  const state = engine.createBuffer({ format: kParticleFormat, count: n, data, label: 'state' }); // restore: 'last-readback'
  const scratch = engine.createBuffer({ format: kParticleFormat, count: n, label: 'scratch' });
  const fixed = engine.createBuffer({ format: kParticleFormat, count: n, data: initial, restore: 'initial', label: 'fixed' });
  const fixedScratch = engine.createBuffer({ format: kParticleFormat, count: n, restore: 'initial', label: 'fixedScratch' });
  const replaced = engine.createBuffer({ format: kParticleFormat, count: n, data: initial, restore: 'initial', label: 'replaced' });
  const dropped = engine.createBuffer({ format: kParticleFormat, count: n, data, restore: 'none', label: 'dropped' });
  replaced.upload(uploaded);
  const sim = engine.createProgram({ source: await shader('particles.vert') });
  sim.setUniform('dt', kDt);
  sim.setUniform('gravity', kGravity);
  const pipeline = engine.createPipeline(sim, [{ input: state, output: scratch }]);
  const fused = engine.createPipeline(sim, [{ input: fixed, output: fixedScratch }]);
  assert(fused.fusion().fused, `particles fuse: ${JSON.stringify(fused.fusion())}`);
  const split = makeSplit(200, [600], undefined, engine);
  const orphanBuffer = engine.createBuffer({ format: kParticleFormat, count: n, data });
  const orphan = engine.createPipeline(sim, [{ input: orphanBuffer }, { output: engine.createBuffer({ format: kParticleFormat, count: n }) }]);
  orphanBuffer.dispose(); // the pipeline stays, and can no longer step
  for (let s = 0; s < 5; s++) pipeline.step();
  const read5 = await state.read();
  assertArrayEqual(read5, stepReference(data.slice(), 5), 'state before the loss');
  pipeline.step(); // not read: lost with the device
  fused.step(4);
  fused.step(4);
  assertArrayEqual(await fixed.read(), stepReference(initial.slice(), 8), 'fused substeps before the loss');
  split.pipeline.step();
  const oldTotals = split.pipeline.emitTotalsBuffer;
  const live = JSON.stringify(engine.liveObjects());

  let lost = null, restored = null;
  engine.on('contextlost', (d) => { lost = d; });
  engine.on('contextrestored', (d) => { restored = d; });
  const lostDevice = await loseDevice(engine);
  assert(lost?.reason === 'destroyed' && engine.isContextLost, `contextlost: ${JSON.stringify(lost)}, isContextLost ${engine.isContextLost}`);
  const calls = {
    'step()': () => pipeline.step(), 'step(4)': () => fused.step(4), 'stepChecked()': () => pipeline.stepChecked(),
    'read()': () => state.read(), 'upload()': () => state.upload(data), 'setUniform()': () => sim.setUniform('dt', 1),
    'createBuffer()': () => engine.createBuffer({ format: kParticleFormat, count: 1 }), 'createProgram()': () => engine.createProgram({ source: kSplit }),
    'createPipeline()': () => engine.createPipeline(sim, [{ input: dropped }]), 'emitted()': () => split.pipeline.emitted(),
    emitTotalsBuffer: () => split.pipeline.emitTotalsBuffer, gpuBuffer: () => state.gpuBuffer,
  };
  for (const [what, call] of Object.entries(calls)) {
    const e = await expectError('XFB_CONTEXT_LOST', call);
    assert(/call restore\(\)/.test(e.message), `${what}: ${e.message}`);
  }
  // Misuse: nothing restored.
  const noDevice = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore());
  assert(/give the new GPUDevice/.test(noDevice.message), noDevice.message);
  const notDevice = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore({ queue: {} }));
  assert(/restore\(\): device must be a GPUDevice, got object/.test(notDevice.message), notDevice.message);
  const same = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore(lostDevice));
  assert(/is the lost device/.test(same.message), same.message);
  assert(engine.isContextLost && restored === null, 'misuse restored nothing');

  const validation = [];
  // [docs:webgpu-restore]
  const device = await newDevice(); // from a new adapter: the lost device's adapter is consumed
  device.addEventListener('uncapturederror', (e) => validation.push(e.error.message)); // the test: none expected
  await engine.restore(device); // the same buffers, programs and pipelines, then 'contextrestored'
  // [docs:end]
  assert(!engine.isContextLost && engine.device === device, 'restored on the given device');
  assert(JSON.stringify(engine.liveObjects()) === live, `the same objects: ${JSON.stringify(engine.liveObjects())} vs ${live}`);
  const from = restored?.buffers.map((b) => `${b.label}:${b.restoredFrom}`).join(' ');
  assert(from === 'state:last-readback scratch:none fixed:initial fixedScratch:none replaced:upload dropped:none buffer6:initial buffer7:none buffer8:none buffer9:none buffer10:none buffer12:none', `contextrestored: ${from}`);
  assert(restored.buffers[0].buffer === state && restored.buffers[2].buffer === fixed, 'contextrestored names the same buffer objects');
  // Re-uploaded: the last read (not the step after it), the initial data, the whole upload, nothing.
  assertArrayEqual(await state.read(), read5, "'last-readback': the state as last read");
  assertArrayEqual(await replaced.read(), uploaded, "'upload': the last upload of the whole buffer");
  assertArrayEqual(await dropped.read(), new Float32Array(n * 8), "'none': zeros");
  // The simulations continue on the new device.
  for (let s = 0; s < 10; s++) pipeline.step();
  assertArrayEqual(await state.read(), stepReference(read5.slice(), 10), 'state: 10 steps after the restore');
  fused.step(4);
  fused.step(4);
  assert(fused.fusion().fused, 'still fused');
  assertArrayEqual(await fixed.read(), stepReference(initial.slice(), 8), "fused substeps from the 'initial' data");
  const ref = splitReference(split.data);
  const report = await split.pipeline.stepChecked();
  const sparkCount = ref.sparks.length / 4;
  assertArrayEqual(await split.sparks.read(), prefix(ref.sparks, 4, sparkCount, 2400, Float32Array), 'emitted sparks after the restore');
  assert(report.emitted[0].written === sparkCount && report.emitted[1].written === ref.tags.length, `emitted: ${JSON.stringify(report.emitted)}`);
  const totals = split.pipeline.emitTotalsBuffer;
  assert(totals !== oldTotals, 'a new totals buffer on the new device');
  assert((await readWords(totals, 32, device))[0] === sparkCount, 'the totals buffer on the new device holds the written count');
  await expectError('XFB_DISPOSED', () => orphan.step());
  await device.queue.onSubmittedWorkDone();
  assert(validation.length === 0, `no WebGPU validation error on the new device: ${validation.join('; ')}`);
  const again = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore(device));
  assert(/not lost/.test(again.message), again.message);
  note(`restored ${restored.buffers.length} buffers; ${sparkCount} sparks after the restore`);
  engine.dispose();
  await expectError('XFB_DISPOSED', () => engine.restore());
  await expectError('XFB_DISPOSED', () => engine.restore(device));
});

test("device loss of the engine's own device: restore() requests a new one; a lost device's engine disposed", async () => {
  requireGpu();
  const engine = await createXfb({ backend: 'webgpu' });
  const data = pseudoRandom(32, -1, 1, 5);
  const buffer = engine.createBuffer({ format: vec4(0), count: 8, data });
  const out = engine.createBuffer({ format: vec4(0), count: 8 });
  const program = engine.createProgram({ source: '#version 300 es\nin vec4 position;\nout vec4 out_p;\nvoid main() { out_p = position * 2.0; }' });
  const pipeline = engine.createPipeline(program, [{ input: buffer }, { output: out }]);
  const lostDevice = await loseDevice(engine);
  await expectError('XFB_CONTEXT_LOST', () => pipeline.step());
  let restored = null;
  engine.on('contextrestored', (d) => { restored = d; });
  const restoring = engine.restore();
  const twice = await expectError('XFB_INVALID_ARGUMENT', () => engine.restore());
  assert(/requesting a device already/.test(twice.message), twice.message);
  await restoring;
  assert(engine.device !== lostDevice && !engine.isContextLost, 'a new device');
  assert(restored?.buffers.map((b) => b.restoredFrom).join() === 'initial,none', `contextrestored: ${JSON.stringify(restored?.buffers.map((b) => b.restoredFrom))}`);
  pipeline.step();
  assertArrayEqual(await out.read(), data.map((v) => v * 2), 'the pipeline steps on the new device');
  // Disposed while lost: restore() refuses, dispose() twice is harmless.
  await loseDevice(engine);
  engine.dispose();
  engine.dispose();
  const e = await expectError('XFB_DISPOSED', () => engine.restore());
  assert(/disposed/.test(e.message), e.message);
});

test('device loss with a sampler: after restore(device) the pipeline asks for its texture again, then steps with the new one', async () => {
  requireGpu();
  const engine = await createXfb({ device: await newDevice() });
  const data = pseudoRandom(16, -1, 1, 17);
  const input = engine.createBuffer({ format: vec4(0), count: 4, data, restore: 'initial' });
  const output = engine.createBuffer({ format: vec4(0), count: 4 });
  const program = engine.createProgram({ source: '#version 300 es\nprecision highp float;\nuniform highp sampler2D lut;\nin vec4 a;\nout vec4 out_a;\nvoid main() { out_a = a + texelFetch(lut, ivec2(gl_VertexID, 0), 0); }' });
  const pipeline = engine.createPipeline(program, [{ input }, { output }]);
  const lut = (texels) => {
    const texture = engine.device.createTexture({ size: [4, 1], format: 'rgba32float', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    engine.device.queue.writeTexture({ texture }, texels, { bytesPerRow: 64 }, [4, 1]);
    return texture;
  };
  const first = pseudoRandom(16, 0, 4, 18), second = pseudoRandom(16, -4, 0, 19);
  pipeline.setTexture('lut', lut(first));
  pipeline.step();
  assertArrayEqual(await output.read(), data.map((v, i) => Math.fround(v + first[i])), 'before the loss');
  await loseDevice(engine);
  await engine.restore(await newDevice());
  const e = await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step());
  assert(/set the textures first: setTexture\('lut', \.\.\.\)/.test(e.message), e.message);
  pipeline.setTexture('lut', lut(second));
  pipeline.step();
  assertArrayEqual(await output.read(), data.map((v, i) => Math.fround(v + second[i])), "after the restore: the 'initial' input and the new texture");
  engine.dispose();
});

test('texture(), textureLod(), textureOffset(), textureProj() through samplers (linear + repeat, nearest + clamp): the same bytes as WebGL2 transform feedback', async () => {
  requireGpu();
  const source = `#version 300 es
precision highp float;
uniform highp sampler2D lut;
uniform highp sampler2D grid;
in vec4 a;
out vec4 out_a;
out vec4 out_b;
void main() {
  out_a = texture(lut, a.xy * 3.0 - 1.0) + textureLod(lut, a.zw, 0.0) * 0.5;
  out_b = textureOffset(grid, a.yx, ivec2(1, -1)) + textureProj(grid, vec3(a.xy, 2.0)) + texelFetch(grid, ivec2(1, 2), 0);
}`;
  const n = 64;
  const data = pseudoRandom(n * 4, 0, 1, 41);
  const sizes = { lut: [4, 4], grid: [8, 4] };
  const texels = { lut: new Uint8Array(4 * 4 * 4).map((_, i) => (i * 37 + 11) % 256), grid: new Uint8Array(8 * 4 * 4).map((_, i) => (i * 53 + 7) % 256) };
  // WebGL2: the textures on units 1 and 2, linear + repeat for lut, nearest + clamp to edge for grid.
  const gl = canvas.getContext('webgl2');
  const glTextures = Object.entries(sizes).map(([name, [w, h]], i) => {
    const t = gl.createTexture();
    gl.activeTexture(gl.TEXTURE1 + i);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, w, h);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, texels[name]);
    const filter = name === 'lut' ? gl.LINEAR : gl.NEAREST, wrap = name === 'lut' ? gl.REPEAT : gl.CLAMP_TO_EDGE;
    for (const p of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, p, filter);
    for (const p of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T]) gl.texParameteri(gl.TEXTURE_2D, p, wrap);
    return t;
  });
  gl.activeTexture(gl.TEXTURE0);
  const results = [];
  for (const xfb of [gl2, gpu]) {
    const input = xfb.createBuffer({ format: vec4(0), count: n, data });
    const outputs = [0, 1].map(() => xfb.createBuffer({ format: vec4(0), count: n }));
    const program = xfb.createProgram({ source, mode: 'separate' });
    const pipeline = xfb.createPipeline(program, [{ input }, { output: outputs[0] }, { output: outputs[1] }]);
    if (xfb === gl2) {
      program.setUniform('lut', 1);
      program.setUniform('grid', 2);
    } else {
      for (const [name, [w, h]] of Object.entries(sizes)) {
        const texture = gpu.device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
        gpu.device.queue.writeTexture({ texture }, texels[name], { bytesPerRow: w * 4 }, [w, h]);
        const linear = name === 'lut', mode = linear ? 'repeat' : 'clamp-to-edge';
        const filter = linear ? 'linear' : 'nearest';
        pipeline.setTexture(name, texture, gpu.device.createSampler({ addressModeU: mode, addressModeV: mode, magFilter: filter, minFilter: filter }));
      }
      const e = await expectError('XFB_INVALID_ARGUMENT', () => pipeline.setTexture('nope', gpu.device.createTexture({ size: [1, 1], format: 'rgba8unorm', usage: GPUTextureUsage.TEXTURE_BINDING })));
      assert(e.message.includes("no sampler 'nope'"), e.message);
    }
    pipeline.step();
    results.push(await Promise.all(outputs.map((o) => o.read())));
    for (const o of [pipeline, program, input, ...outputs]) o.dispose();
  }
  for (const t of glTextures) gl.deleteTexture(t);
  const [tf, webgpu] = results;
  assert(tf[0].some((v) => v !== 0) && tf[1].some((v) => v !== 0), 'the lookups read texels');
  assert(tf[0].some((v) => Math.round(v * 255 * 1.5) !== v * 255 * 1.5), 'linear filtering blends texels');
  assertArrayEqual(webgpu[0], tf[0], 'out_a (linear, repeat): WebGPU == WebGL2 transform feedback');
  assertArrayEqual(webgpu[1], tf[1], 'out_b (nearest, clamp to edge): WebGPU == WebGL2 transform feedback');
});

test('emitted totals drive draws and dispatches: drawIndirect at 32 x budget covers `written` pixels, dispatchWorkgroupsIndirect at 32 x budget + 16 runs ceil(written / workGroupSize) groups', async ({ note }) => {
  requireGpu();
  const device = gpu.device, n = 1000, side = 64;
  const { pipeline, sparks, data, dispose } = makeSplit(n, [3 * n]);
  const wg = pipeline.info.workGroupSize;
  // Points, one pixel each at vertex_index's pixel; red for a spark record (w: its source element, never 0), green for an unwritten one.
  const module = device.createShaderModule({ code: `
struct Out { @builtin(position) position: vec4f, @location(0) color: vec4f }
@vertex fn vs(@builtin(vertex_index) i: u32, @location(0) spark: vec4f) -> Out {
  let p = (vec2f(f32(i % ${side}u), f32(i / ${side}u)) + 0.5) / ${side / 2}.0;
  return Out(vec4f(p.x - 1.0, 1.0 - p.y, 0.0, 1.0), select(vec4f(0.0, 1.0, 0.0, 1.0), vec4f(1.0, 0.0, 0.0, 1.0), spark.w > 0.5));
}
@fragment fn fs(@location(0) color: vec4f) -> @location(0) vec4f { return color; }` });
  const points = device.createRenderPipeline({
    layout: 'auto', primitive: { topology: 'point-list' },
    vertex: { module, entryPoint: 'vs', buffers: [{ arrayStride: 16, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x4' }] }] },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  const target = device.createTexture({ size: [side, side], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const pixels = device.createBuffer({ size: side * side * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  async function drawRecords() {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
    // [docs:webgpu-draw-indirect]
    pass.setPipeline(points);
    pass.setVertexBuffer(0, sparks.gpuBuffer);                 // the records of budget 0
    pass.drawIndirect(pipeline.emitTotalsBuffer, 32 * 0);      // {written, 1, 0, 0}: one vertex per record
    // [docs:end]
    pass.end();
    encoder.copyTextureToBuffer({ texture: target }, { buffer: pixels, bytesPerRow: side * 4 }, [side, side]);
    device.queue.submit([encoder.finish()]);
    await pixels.mapAsync(GPUMapMode.READ);
    const px = new Uint8Array(pixels.getMappedRange());
    let red = 0, green = 0;
    for (let i = 0; i < px.length; i += 4) { red += px[i] === 255 ? 1 : 0; green += px[i + 1] === 255 ? 1 : 0; }
    pixels.unmap();
    return { red, green };
  }
  // Two steps without a read-back: the totals the GPU wrote decide each draw (step 2 emits fewer sparks).
  const ref1 = splitReference(data), ref2 = splitReference(ref1.state);
  const counts = [ref1.sparks.length / 4, ref2.sparks.length / 4];
  assert(counts[0] < side * side && counts[1] > 0 && counts[1] < counts[0], `spark counts ${counts} fit the target and differ`);
  for (const [s, expected] of counts.entries()) {
    pipeline.step();
    const covered = await drawRecords();
    assert(covered.red === expected && covered.green === 0, `step ${s + 1}: ${covered.red} red pixels (${covered.green} green) for ${expected} sparks`);
  }

  // A compute pass over the records: invocations counted per budget, each record of budget 0 read once.
  const compute = device.createShaderModule({ code: `
override budget: u32;
@group(0) @binding(0) var<storage, read> totals: array<u32>;
@group(0) @binding(1) var<storage, read> records: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read_write> invocations: array<atomic<u32>, 2>;
@compute @workgroup_size(${wg}) fn main(@builtin(global_invocation_id) id: vec3u) {
  atomicAdd(&invocations[budget], 1u);
  if (budget == 0u && id.x < totals[0]) { out[id.x] = records[id.x].x * 2.0 + records[id.x].w; }
}` });
  const out = device.createBuffer({ size: 3 * n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const invocations = device.createBuffer({ size: 8, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const passes = [0, 1].map((budget) => {
    const p = device.createComputePipeline({ layout: 'auto', compute: { module: compute, entryPoint: 'main', constants: { budget } } });
    const group = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [pipeline.emitTotalsBuffer, sparks.gpuBuffer, out, invocations].map((buffer, binding) => ({ binding, resource: { buffer } })) });
    return [p, group];
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  for (const [budget, [computePipeline, bindGroup]] of passes.entries()) {
    // [docs:webgpu-dispatch-indirect]
    pass.setPipeline(computePipeline);                         // @workgroup_size(pipeline.info.workGroupSize)
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroupsIndirect(pipeline.emitTotalsBuffer, 32 * budget + 16); // {ceil(written / workGroupSize), 1, 1}
    // [docs:end]
  }
  pass.end();
  device.queue.submit([encoder.finish()]);
  const tags = ref2.tags.length;
  const expectedOut = new Float32Array(3 * n);
  for (let r = 0; r < counts[1]; r++) expectedOut[r] = Math.fround(Math.fround(ref2.sparks[r * 4] * 2) + ref2.sparks[r * 4 + 3]);
  assertArrayEqual(new Uint32Array((await readWords(invocations, 8)).buffer), new Uint32Array([Math.ceil(counts[1] / wg) * wg, Math.ceil(tags / wg) * wg]),
    `invocations per budget for ${counts[1]} sparks and ${tags} tags, work groups of ${wg}`);
  assertArrayEqual(new Float32Array((await readWords(out, 3 * n * 4)).buffer), expectedOut, 'each spark record read once, nothing past written');
  note(`${counts.join(' then ')} sparks drawn; ${Math.ceil(counts[1] / wg)} + ${Math.ceil(tags / wg)} work groups dispatched`);
  for (const o of [target, pixels, out, invocations]) o.destroy();
  dispose();
});

test('bool and bvec uniforms: an i32 in the uniform buffer on WebGPU, the same bytes as WebGL2 for every value set', async () => {
  requireGpu();
  const source = `#version 300 es
in vec4 p;
uniform bool flip;
uniform bvec2 b2;
uniform bvec3 b3;
uniform bvec4 b4;
out vec4 out_p;
void main() {
  vec4 q = flip ? -p : p;
  out_p = q + vec4(b2.x ? 1.0 : 0.0, b2.y ? 2.0 : 0.0, any(b3) ? 4.0 : 0.0, all(b4) ? 8.0 : float(b3.z));
}`;
  const data = pseudoRandom(16, -1, 1, 6);
  const settings = [{}, { flip: 1 }, { b2: [0, 7], b3: [0, 0, 1] }, { b4: [1, 1, 1, 1], b3: [1, 0, 0], flip: -3 }, { b4: [1, 1, 0, 1] }];
  const run = async (xfb) => {
    const program = xfb.createProgram({ source });
    const input = xfb.createBuffer({ format: vec4(0), count: 4, data });
    const out = xfb.createBuffer({ format: vec4(0), count: 4 });
    const pipeline = xfb.createPipeline(program, [{ input }, { output: out }]);
    const got = [];
    for (const s of settings) {
      for (const [name, value] of Object.entries(s)) program.setUniform(name, value);
      pipeline.step();
      got.push(await out.read());
    }
    return got;
  };
  const [a, b] = [await run(gl2), await run(gpu)];
  const state = { flip: false, b2: [false, false], b3: [false, false, false], b4: [false, false, false, false] };
  settings.forEach((s, k) => {
    for (const [name, value] of Object.entries(s)) state[name] = Array.isArray(value) ? value.map((v) => v !== 0) : value !== 0;
    const add = [state.b2[0] ? 1 : 0, state.b2[1] ? 2 : 0, state.b3.some(Boolean) ? 4 : 0, state.b4.every(Boolean) ? 8 : state.b3[2] ? 1 : 0];
    const want = data.map((x, i) => Math.fround((state.flip ? -x : x) + add[i % 4]));
    assertArrayEqual(a[k], want, `WebGL2 after ${JSON.stringify(s)}`);
    assertArrayEqual(b[k], want, `WebGPU after ${JSON.stringify(s)}`);
  });
});

test("adoptBuffer({ gpuBuffer }): the application's GPUBuffer as an output and as a state, never destroyed by xfb; disposed by restore()", async () => {
  requireGpu();
  const device = gpu.device;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const data = pseudoRandom(32, -1, 1, 8);
  const mine = device.createBuffer({ label: 'application output', size: 8 * 16, usage });
  const program = gpu.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0 + vec4(float(gl_VertexID)); }' });
  const input = gpu.createBuffer({ format: vec4(0), count: 8, data });
  const adopted = gpu.adoptBuffer({ gpuBuffer: mine, format: vec4(0), count: 8, label: 'mine' });
  assert(adopted.adopted && adopted.gpuBuffer === mine, 'the adopted buffer names the GPUBuffer');
  gpu.createPipeline(program, [{ input }, { output: adopted }]).step();
  const want = data.map((x, i) => Math.fround(x * 2 + Math.floor(i / 4)));
  assertArrayEqual(await adopted.read(), want, 'read through xfb');
  // The application reads its own buffer: the step wrote into it, no copy.
  const staging = device.createBuffer({ size: 8 * 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const copyOut = async (buffer) => {
    device.pushErrorScope('validation');
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, 8 * 16);
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    if (error) return error.message;
    await staging.mapAsync(GPUMapMode.READ);
    const words = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    return words;
  };
  assertArrayEqual(await copyOut(mine), want, "the application's own copy");
  // As one side of a state pair: after an odd number of steps xfb's other buffer holds it; disposing
  // everything destroys xfb's GPUBuffers and never the application's.
  const scratch = gpu.createBuffer({ format: vec4(0), count: 8 });
  const step = gpu.createPipeline(gpu.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(1.0); }' }), [{ input: adopted, output: scratch }]);
  for (let s = 0; s < 3; s++) step.step();
  assert(scratch.gpuBuffer === mine, 'after 3 steps the scratch buffer holds the application buffer');
  assertArrayEqual(await adopted.read(), want.map((x) => Math.fround(Math.fround(Math.fround(x + 1) + 1) + 1)), '3 steps');
  step.dispose(); adopted.dispose(); scratch.dispose();
  const still = await copyOut(mine);
  assert(typeof still !== 'string', `the application's buffer was destroyed by xfb: ${still}`);
  mine.destroy();

  // restore(): an adopted buffer belonged to the lost device; it is disposed, and a pipeline using it is refused.
  const engine = await createXfb({ backend: 'webgpu' });
  const theirs = engine.device.createBuffer({ size: 8 * 16, usage });
  const own = engine.createBuffer({ format: vec4(0), count: 8, data, restore: 'initial' });
  const held = engine.adoptBuffer({ gpuBuffer: theirs, format: vec4(0), count: 8, label: 'theirs' });
  const copy = engine.createPipeline(engine.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }' }), [{ input: own }, { output: held }]);
  copy.step();
  const lost = new Promise((resolve) => engine.on('contextlost', resolve));
  engine.device.destroy();
  await lost;
  const restored = new Promise((resolve) => engine.on('contextrestored', resolve));
  await engine.restore();
  const detail = await restored;
  assert(detail.buffers.length === 1 && detail.buffers[0].buffer === own, `restored ${detail.buffers.map((b) => b.label)}`);
  assert(held.disposed, 'the adopted buffer is disposed by restore()');
  const e = await expectError('XFB_DISPOSED', () => copy.step());
  assert(e.message.includes("'theirs'"), e.message);
  assertArrayEqual(await own.read(), data, 'the own buffer restored');
  engine.dispose();
});

test("inspect() plans as the engine's createProgram() checks: 16 vec4 outputs on WebGPU (no varying rows), refused under WebGL2's portable limits", async () => {
  requireGpu();
  const n = 16;
  const source = `#version 300 es\n${Array.from({ length: n }, (_, j) => `out vec4 out_v${j};`).join('\n')}\nvoid main() {\n${Array.from({ length: n }, (_, j) => `  out_v${j} = vec4(${j});`).join('\n')}\n}\n`;
  const plan = gpu.inspect(source);
  assert(plan.varyings.length === n, `WebGPU inspect(): ${plan.varyings.length} varyings`);
  gpu.createProgram({ source }).dispose();
  const e = await expectError('XFB_VARYING_VECTORS', () => gl2.inspect(source));
  assert(/MAX_VARYING_VECTORS/.test(e.message), e.message);
});
