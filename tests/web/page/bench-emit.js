// Browser measurement (not a test): variable-count output in one headless Chromium (issue 41).
// The workload: a particle keeps its state (moves one unit along z) and throws off
// clamp(int(energy / 0.5) - 1, 0, 3) sparks a step, energies 0.5 (i % 5): 0, 0, 1, 2, 3 sparks,
// 1.2 per element, the same every step. Variants:
//   webgl2_emit         xfb on WebGL2, { emits } (the fragment backend's pyramid of counts): the
//                       sparks in input order, packed, the total on the GPU;
//   webgpu_emit         xfb on WebGPU, { emits } (compute passes: counts, prefix sum, main pass);
//   webgl2_fixed_pool   the same workload as WebGL engines write it: a fixed pool of 3 slots per
//                       element (three separate buffers, slot k of element i at index i), each
//                       written every step, a dead slot flagged by w = -1 (xfb on WebGL2,
//                       backend 'auto': what it picks for a plain step is in the row);
//   webgl2_emit_draw    webgl2_emit and drawEmitted() of the capacity (3 n points, the slots past
//                       the GPU total clipped by xfb.emittedDrawSnippet) into a 64 x 64 target;
//   webgl2_pool_draw    webgl2_fixed_pool and a draw of its 3 n slots, the dead ones clipped;
//   webgl2_emit_gather1 webgl2_emit with a capacity of one record (overflow 'clamp'): the state,
//                       count and pyramid passes and a gather of one slot, where the step's time goes.
// Each round times a batch of steps of one variant, ended by a read of one record (xfb's
// read({ count: 1 }) of the sparks, or of the pool's first slot buffer); medians of the rounds.
// After the timing each variant's records are compared with a JavaScript reference (the emitting
// ones byte for byte in input order, the pool's live slots likewise). Run: node browser.mjs NPM_DIR bench-emit
import { assert, createXfb } from './assert.js';

const sizes = (new URLSearchParams(location.search).get('sizes') ?? '1e3,1e4,1e5,1e6').split(',').map(Number);
const canvas = document.createElement('canvas');
canvas.width = canvas.height = 64;
const gl = canvas.getContext('webgl2');
const gl2 = await createXfb({ gl });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter
  ? await createXfb({ device: await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage, maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize } }) })
  : null;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const vec4 = [{ semantic: 'ATTR0', components: 4 }];

const kEmit = `#version 300 es
in vec4 a_particle;
out vec4 out_particle;
out vec4 emit_spark[3];
flat out int emit_count;
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz + vec3(0.0, 0.0, 1.0), e);
    emit_count = int(e / 0.5) - 1;
    for (int k = 0; k < 3; ++k) emit_spark[k] = vec4(a_particle.xyz + float(k), float(gl_VertexID));
}`;
// The fixed pool: the same sparks in 3 slots per element, w = -1 where the slot is dead.
const kPool = `#version 300 es
in vec4 a_particle;
out vec4 out_particle;
out vec4 out_slot0;
out vec4 out_slot1;
out vec4 out_slot2;
vec4 slot(int k, int count) {
    return k < count ? vec4(a_particle.xyz + float(k), float(gl_VertexID)) : vec4(0.0, 0.0, 0.0, -1.0);
}
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz + vec3(0.0, 0.0, 1.0), e);
    int count = clamp(int(e / 0.5) - 1, 0, 3);
    out_slot0 = slot(0, count);
    out_slot1 = slot(1, count);
    out_slot2 = slot(2, count);
}`;

function particles(n) {
  const p = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) (p[i * 4] = i % 13), (p[i * 4 + 3] = 0.5 * (i % 5));
  return p;
}
const sparksOf = (i) => Math.max(0, (i % 5) - 1);
/** The sparks of step `steps` in input order: element i's k-th is (x + k, k, steps - 1 + k, i). */
function referenceSparks(n, steps) {
  const out = [];
  for (let i = 0; i < n; i++) for (let k = 0; k < sparksOf(i); k++) out.push((i % 13) + k, k, steps - 1 + k, i);
  return new Float32Array(out);
}

function emitting(xfb, n, capacity = 3 * n) {
  const state = xfb.createBuffer({ format: vec4, count: n, data: particles(n) });
  const scratch = xfb.createBuffer({ format: vec4, count: n });
  const sparks = xfb.createBuffer({ format: vec4, count: capacity });
  const program = xfb.createProgram({ source: kEmit });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: scratch }, { output: sparks }], {
    emits: [{ varying: 'emit_spark', count: 'emit_count' }],
    overflow: 'clamp',
  });
  return { state, sparks, pipeline, dispose: () => [pipeline, program, state, scratch, sparks].forEach((o) => o.dispose()) };
}

function pool(n) {
  const state = gl2.createBuffer({ format: vec4, count: n, data: particles(n) });
  const scratch = gl2.createBuffer({ format: vec4, count: n });
  const slots = [0, 1, 2].map(() => gl2.createBuffer({ format: vec4, count: n }));
  const program = gl2.createProgram({ source: kPool, mode: 'separate' });
  const pipeline = gl2.createPipeline(program, [{ input: state, output: scratch }, ...slots.map((s) => ({ output: s }))]);
  return { state, slots, pipeline, dispose: () => [pipeline, program, state, scratch, ...slots].forEach((o) => o.dispose()) };
}

// The draws: a point per slot into a 64 x 64 RGBA8 target, the slots past the total (or dead)
// moved out of the clip volume.
const target = gl.createFramebuffer(), colour = gl.createRenderbuffer();
gl.bindRenderbuffer(gl.RENDERBUFFER, colour);
gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, 64, 64);
gl.bindFramebuffer(gl.FRAMEBUFFER, target);
gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, colour);
gl.bindFramebuffer(gl.FRAMEBUFFER, null);
function link(vs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }']]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  return p;
}
const place = 'vec4(fract(a_spark.xy / 64.0) * 2.0 - 1.0, 0.0, 1.0)';
const emitDraw = link(`#version 300 es\n${gl2.emittedDrawSnippet}\nin vec4 a_spark;\nvoid main() { gl_Position = xfb_emittedPosition(${place}); gl_PointSize = 1.0; }`);
const poolDraw = link(`#version 300 es\nin vec4 a_spark;\nvoid main() { gl_Position = a_spark.w < 0.0 ? vec4(0.0, 0.0, 2.0, 1.0) : ${place}; gl_PointSize = 1.0; }`);
function vertexArray(program, buffers) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const at = gl.getAttribLocation(program, 'a_spark');
  gl.enableVertexAttribArray(at);
  gl.bindBuffer(gl.ARRAY_BUFFER, buffers);
  gl.vertexAttribPointer(at, 4, gl.FLOAT, false, 16, 0);
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  return vao;
}
function drawInto(program, vao, draw) {
  gl.bindFramebuffer(gl.FRAMEBUFFER, target);
  gl.viewport(0, 0, 64, 64);
  gl.useProgram(program);
  gl.bindVertexArray(vao);
  draw();
  gl.bindVertexArray(null);
  gl.useProgram(null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
}

const results = [];
for (const n of sizes) {
  test(`${n} elements`, async ({ note }) => {
    if (!gpu) throw new Error('navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
    const e2 = emitting(gl2, n), eg = emitting(gpu, n), p = pool(n);
    const e2d = emitting(gl2, n), pd = pool(n), e21 = emitting(gl2, n, 1);
    const emitVao = vertexArray(emitDraw, e2d.sparks.glBuffer); // handed out: each step writes its records into it
    const poolVaos = pd.slots.map((s) => vertexArray(poolDraw, s.glBuffer));
    const variants = {
      webgl2_emit: { step: () => e2.pipeline.step(), wait: () => e2.sparks.read({ count: 1 }) },
      webgpu_emit: { step: () => eg.pipeline.step(), wait: () => eg.sparks.read({ count: 1 }) },
      webgl2_fixed_pool: { step: () => p.pipeline.step(), wait: () => p.slots[0].read({ count: 1 }) },
      webgl2_emit_draw: {
        step: () => {
          e2d.pipeline.step();
          drawInto(emitDraw, emitVao, () => e2d.pipeline.drawEmitted('emit_count'));
        },
        wait: () => e2d.sparks.read({ count: 1 }),
      },
      webgl2_emit_gather1: { step: () => e21.pipeline.step(), wait: () => e21.sparks.read({ count: 1 }) },
      webgl2_pool_draw: {
        step: () => {
          pd.pipeline.step();
          for (const vao of poolVaos) drawInto(poolDraw, vao, () => gl.drawArrays(gl.POINTS, 0, n));
        },
        wait: () => pd.slots[0].read({ count: 1 }),
      },
    };
    const batch = n >= 1e6 ? 2 : n >= 1e5 ? 4 : 10,
      rounds = n >= 1e6 ? 5 : 7;
    const ms = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
    for (const v of Object.values(variants)) {
      v.step(); // the first step: Auto's trial passes, pipelines and framebuffers made
      v.step();
      await v.wait();
    }
    for (let r = 0; r < rounds; r++)
      for (const [name, v] of Object.entries(variants)) {
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) v.step();
        await v.wait();
        ms[name].push((performance.now() - t0) / batch);
      }
    // Every variant took 2 + rounds x batch steps: its records against the reference.
    const steps = 2 + rounds * batch, want = referenceSparks(n, steps);
    const same = (got, what) => {
      for (let f = 0; f < want.length; f++) if (!Object.is(got[f], want[f])) return `${what}: float ${f} is ${got[f]}, the reference ${want[f]}`;
      return 'identical';
    };
    const poolSparks = async (q) => {
      const slots = await Promise.all(q.slots.map((s) => s.read()));
      const out = [];
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) if (slots[k][i * 4 + 3] >= 0) out.push(...slots[k].subarray(i * 4, i * 4 + 4));
      return out;
    };
    const checks = {
      webgl2_emit: same(await e2.sparks.read(), 'webgl2_emit'),
      webgpu_emit: same(await eg.sparks.read(), 'webgpu_emit'),
      webgl2_fixed_pool: same(await poolSparks(p), 'webgl2_fixed_pool'),
      webgl2_emit_draw: same(await e2d.sparks.read(), 'webgl2_emit_draw'),
      webgl2_pool_draw: same(await poolSparks(pd), 'webgl2_pool_draw'),
    };
    const totals = { webgl2: (await e2.pipeline.emitted())[0], webgpu: (await eg.pipeline.emitted())[0], webgl2_gather1: (await e21.pipeline.emitted())[0] };
    const first = await e21.sparks.read(); // its one record: the first spark
    checks.webgl2_emit_gather1 = [0, 1, 2, 3].every((f) => Object.is(first[f], want[f])) ? 'identical' : `the first record is ${[...first]}`;
    const row = { elements: n, sparks: want.length / 4, capacity: 3 * n, steps, batch, rounds };
    for (const name of Object.keys(variants)) row[`${name}_ms`] = median(ms[name]);
    row.webgl2_emit_over_webgpu_emit = row.webgl2_emit_ms / row.webgpu_emit_ms;
    row.webgl2_emit_over_fixed_pool = row.webgl2_emit_ms / row.webgl2_fixed_pool_ms;
    row.emit_draw_over_pool_draw = row.webgl2_emit_draw_ms / row.webgl2_pool_draw_ms;
    row.draw_emitted_ms = row.webgl2_emit_draw_ms - row.webgl2_emit_ms;
    row.pool_draw_ms = row.webgl2_pool_draw_ms - row.webgl2_fixed_pool_ms;
    row.gather_share_of_webgl2_emit = 1 - row.webgl2_emit_gather1_ms / row.webgl2_emit_ms;
    row.webgl2_emit_backend = `${e2.pipeline.info.backend}: ${e2.pipeline.info.backendReason}`;
    row.webgl2_fixed_pool_backend = `${p.pipeline.info.backend}: ${p.pipeline.info.backendReason}`;
    row.totals = totals;
    row.records = checks;
    row.ms_per_round = ms;
    results.push(row);
    note(JSON.stringify(row));
    gl.deleteVertexArray(emitVao);
    poolVaos.forEach((v) => gl.deleteVertexArray(v));
    for (const o of [e2, eg, p, e2d, pd, e21]) o.dispose();
    // Checked (and counted: the ctest smoke run fails a page that checks nothing): every variant's
    // records against the reference, and the totals the GPU kept.
    for (const [variant, v] of Object.entries(checks)) assert(v === 'identical', `${variant} at ${n} elements: ${v}`);
    for (const engine of ['webgl2', 'webgpu']) assert(totals[engine].written === want.length / 4, `${engine} wrote ${totals[engine].written} records, the reference ${want.length / 4}`);
    assert(totals.webgl2_gather1.requested === want.length / 4, `the one-record gather requested ${totals.webgl2_gather1.requested}, the reference ${want.length / 4}`);
  });
}
