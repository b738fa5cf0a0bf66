// Primitive capture and append sessions on WebGPU (SwiftShader's fallback adapter), against the
// WebGL2 engine in the same page: the cases of capture.js and append.js run on both engines and
// compare bytes with each other and with a JS reference written independently of the engine
// (the GL's decomposition of strips, loops, fans and restarts); refusals carry the same codes
// and messages on both and write nothing; drawCaptured / drawSession draw the planned ranges
// into a WebGPU render pass (pixels counted); no GPU object is created by a steady capture; a
// capture follows a pipeline's swapped state buffer; device loss and restore() bring captures back.
import { assert, assertArrayEqual, countMethodCalls, createXfb, expand, expectError, GPU_CREATE, nextEvent, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const gl2 = await createXfb({ canvas });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice() }) : null;
const engines = [gl2, gpu];
const requireGpu = () => assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
const f = Math.fround;
const vec4 = [{ semantic: 'ATTR0', components: 4 }];

const meshShader = await shader('capture_mesh.vert'); // 36-byte records: vec4 position + vec3 normal + vec2 uv
const otherShader = await shader('capture_mesh_second_material.vert'); // the same record layout, computed differently
const inputFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }];
const recordFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];

/** The mesh program, its input and the records it writes for vertex v (computed without the engine). */
function mesh(xfb, n, mode = 'interleaved', seed = 7) {
  const vertices = pseudoRandom(n * 6, -1, 1, seed);
  const program = xfb.createProgram({ source: meshShader, mode, label: 'mesh' });
  program.setUniform('u_scale', 2);
  const input = xfb.createBuffer({ format: inputFormat, count: n, data: vertices });
  const record = (v) => {
    const p = vertices.subarray(v * 6, v * 6 + 6);
    return [f(p[0] * 2), f(p[1] * 2), f(f(p[2] * 2) + v), f(p[3] * 2), p[5], -p[4], 1, f(p[4] * 2), f(p[5] * 2)];
  };
  const other = (v) => {
    const p = vertices.subarray(v * 6, v * 6 + 6);
    return [f(p[0] * 3), f(p[1] * 3), f(f(p[2] * 3) - v), f(p[3] * 3), p[4], p[5], 0.5, p[4], p[5]];
  };
  return { program, input, record, other, expected: (sources, of = record) => new Float32Array(sources.flatMap(of)) };
}


/** Runs `body(xfb)` on both engines; returns both results (WebGL2's first). */
async function onBoth(body) {
  requireGpu();
  const results = [];
  for (const xfb of engines) results.push(await body(xfb));
  return results;
}

/** Both engines' bytes equal each other and the reference. */
function sameBytes([webgl2, webgpu], reference, what) {
  assertArrayEqual(webgpu, webgl2, `${what}: WebGPU vs WebGL2`);
  assertArrayEqual(webgpu, reference, `${what}: WebGPU vs the reference`);
}

/** Both engines refuse with the same code and message. */
async function sameRefusal(code, call, what) {
  const [a, b] = await onBoth((xfb) => expectError(code, () => call(xfb)));
  assert(a.message === b.message, `${what}: WebGL2 says "${a.message}", WebGPU "${b.message}"`);
  return b;
}

test('a 4-vertex triangle strip captures 6 records, 216 bytes, on both engines', async () => {
  const [c0, c1] = await onBoth(async (xfb) => {
    const m = mesh(xfb, 4);
    const out = xfb.createBuffer({ format: recordFormat, count: 6 });
    const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
    assert(capture.info.expansion === 'engine' && capture.info.vertexCount === 4, JSON.stringify(capture.info));
    const c = capture.capture({ mode: 'triangle_strip', count: 4 });
    return { c, bytes: await out.read(), reference: m.expected([0, 1, 2, 2, 1, 3]) };
  });
  assert(JSON.stringify(c1.c) === JSON.stringify(c0.c) && c1.c.records === 6 && c1.c.bytes[0] === 216, `${JSON.stringify(c0.c)} / ${JSON.stringify(c1.c)}`);
  sameBytes([c0.bytes, c1.bytes], c1.reference, 'strip');
});

test('every mode, plain and indexed with restart (Uint16Array, 0xFFFF by default): the same bytes on both engines and the reference', async () => {
  const indices = new Uint16Array(64);
  let seed = 3;
  for (let k = 0; k < 64; k++) { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; indices[k] = k % 11 === 10 ? 0xFFFF : (seed >>> 8) % 40; }
  const runs = [[]];
  for (const i of indices) i === 0xFFFF ? runs.push([]) : runs[runs.length - 1].push(i);
  const modes = ['points', 'lines', 'line_strip', 'line_loop', 'triangles', 'triangle_strip', 'triangle_fan'];
  const [a, b] = await onBoth(async (xfb) => {
    const m = mesh(xfb, 40);
    const out = xfb.createBuffer({ format: recordFormat, count: 200 });
    const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
    const got = [];
    for (const mode of modes)
      for (const indexed of [false, true]) {
        const sources = indexed ? expand(mode, runs) : expand(mode, [[...Array(37).keys()]]);
        const c = capture.capture(indexed ? { mode, indices } : { mode, count: 37 });
        assert(c.records === sources.length, `${mode}: ${c.records} records, reference ${sources.length}`);
        got.push({ what: `${mode}${indexed ? ' indexed' : ''}`, bytes: (await out.read()).subarray(0, sources.length * 9), reference: m.expected(sources) });
      }
    return got;
  });
  b.forEach((x, i) => sameBytes([a[i].bytes, x.bytes], x.reference, x.what));
});

test('separate mode: a line loop into one buffer per varying', async () => {
  const [a, b] = await onBoth(async (xfb) => {
    const m = mesh(xfb, 6, 'separate');
    const outs = [4, 3, 2].map((components) => xfb.createBuffer({ format: [{ semantic: 'ATTR0', components }], count: 10 }));
    const capture = xfb.createCapture(m.program, [{ input: m.input }, ...outs.map((output) => ({ output }))]);
    const c = capture.capture({ mode: 'line_loop', count: 5 });
    assert(c.records === 10 && c.bytes.join() === '160,120,80', JSON.stringify(c));
    const records = [0, 1, 1, 2, 2, 3, 3, 4, 4, 0].map(m.record);
    return { bytes: await Promise.all(outs.map((o) => o.read())), reference: [[0, 4], [4, 7], [7, 9]].map(([s, e]) => new Float32Array(records.flatMap((r) => r.slice(s, e)))) };
  });
  ['positions', 'normals', 'uvs'].forEach((what, i) => sameBytes([a.bytes[i], b.bytes[i]], b.reference[i], what));
});

test('without inputs: vertexCount and gl_VertexID (indexed: the index value)', async () => {
  const source = '#version 300 es\nout vec4 out_p;\nvoid main() { float v = float(gl_VertexID); out_p = vec4(v, v * 2.0, -v, 1.0); }';
  const indices = [5, 2, 7, 7, 0, 3];
  const [a, b] = await onBoth(async (xfb) => {
    const program = xfb.createProgram({ source });
    const out = xfb.createBuffer({ format: vec4, count: 12 });
    const capture = xfb.createCapture(program, [{ output: out }], { vertexCount: 8 });
    capture.capture({ mode: 'triangle_strip', indices });
    return out.read();
  });
  const reference = new Float32Array(expand('triangle_strip', [indices]).flatMap((v) => [v, 2 * v, -v, 1]));
  sameBytes([a, b], reference, 'gl_VertexID');
});

test('refusals: the same codes and messages on both engines, and nothing written', async () => {
  const sentinel = new Float32Array(4 * 9).fill(42);
  const setup = (xfb) => {
    const m = mesh(xfb, 4);
    const small = xfb.createBuffer({ format: recordFormat, count: 4, data: sentinel });
    return { m, small, capture: xfb.createCapture(m.program, [{ input: m.input }, { output: small }]) };
  };
  const made = new Map(engines.map((xfb) => [xfb, setup(xfb)]));
  const e = await sameRefusal('XFB_CAPACITY', (xfb) => made.get(xfb).capture.capture({ mode: 'triangle_strip', count: 4 }), 'capacity');
  assert(e.message.includes('144 bytes (4 records)') && e.message.includes('216 bytes'), e.message);
  const index = await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.capture({ mode: 'lines', indices: [0, 9] }), 'index');
  assert(index.message.includes('index 9 at position 1'), index.message);
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.capture({ mode: 'lines', count: 5 }), 'count beyond the inputs');
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.capture({ mode: 'quads', count: 4 }), 'mode');
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.capture({ mode: 'lines', count: 4, indices: [0, 1] }), 'count and indices');
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => xfb.createCapture(made.get(xfb).m.program, [{ input: made.get(xfb).m.input, output: made.get(xfb).small }]), 'a state pair');
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.captureSession([]), 'empty session');
  const drawn = await expectError('XFB_UNSUPPORTED', () => gpu.createCapture(made.get(gpu).m.program, [{ input: made.get(gpu).m.input }, { output: made.get(gpu).small }], { expansion: 'driver' }));
  assert(drawn.message.includes("'engine' or 'auto'"), drawn.message);
  const [untouched0, untouched1] = await onBoth((xfb) => made.get(xfb).small.read());
  sameBytes([untouched0, untouched1], sentinel, 'untouched by every refusal');
  // Ten inputs of their own buffers, one output and the source list: 12 storage buffers, past
  // SwiftShader's maxStorageBuffersPerShaderStage (10), refused before any GPU object is made.
  const max = gpu.device.limits.maxStorageBuffersPerShaderStage, inputs = max;
  const wide = gpu.createProgram({ source: `#version 300 es\n${[...Array(inputs).keys()].map((k) => `in float a${k};`).join('\n')}\nout float out_s;\nvoid main() { out_s = ${[...Array(inputs).keys()].map((k) => `a${k}`).join(' + ')}; }` });
  const columns = [...Array(inputs).keys()].map((k) => gpu.createBuffer({ format: [{ semantic: `ATTR${k}`, components: 1 }], count: 3 }));
  const sum = gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 1 }], count: 3 });
  const over = await expectError('XFB_UNSUPPORTED', () => gpu.createCapture(wide, [...columns.map((input) => ({ input })), { output: sum }]));
  assert(over.message.includes(`${inputs + 2} storage buffers exceed this device's maxStorageBuffersPerShaderStage (${max})`), over.message);
  const capture = made.get(gpu).capture;
  const live = gpu.liveObjects().captures;
  capture.dispose();
  await expectError('XFB_DISPOSED', () => capture.capture({ mode: 'lines', count: 2 }));
  assert(gpu.liveObjects().captures === live - 1, `captures ${live} -> ${gpu.liveObjects().captures}`);
});

// Sessions: the parts of append.js (sources per record written out by hand from the GL's decomposition).
const R = 0xFFFFFFFF;
const sessionParts = (other) => [
  { part: { mode: 'triangle_strip', count: 5 }, material: 'mesh', sources: [0, 1, 2, 2, 1, 3, 2, 3, 4] },
  { part: { mode: 'line_loop', count: 3, program: other }, material: 'other', sources: [0, 1, 1, 2, 2, 0] },
  { part: { mode: 'triangle_fan', indices: new Uint32Array([3, 9, 4, R, 20, 21, 22, 23, 2]), restartIndex: R }, material: 'mesh', sources: [3, 9, 4, 20, 21, 22, 20, 22, 23, 20, 23, 2] },
];

test('a three-part session of two programs, at a record offset: both engines equal the reference, the records around it untouched', async () => {
  const before = new Float32Array(40 * 9).map((_, i) => -1000 - i);
  const [a, b] = await onBoth(async (xfb) => {
    const m = mesh(xfb, 24, 'interleaved', 11);
    const other = xfb.createProgram({ source: otherShader, label: 'other' });
    const parts = sessionParts(other);
    const out = xfb.createBuffer({ format: recordFormat, count: 40, data: before });
    const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
    const s = capture.captureSession(parts.map((p) => p.part), { firstRecord: 7 });
    const want = before.slice();
    want.set(new Float32Array(parts.flatMap((p) => p.sources.flatMap(p.material === 'mesh' ? m.record : m.other))), 7 * 9);
    return { s, bytes: await out.read(), want };
  });
  assert(JSON.stringify(a.s) === JSON.stringify(b.s), `plans differ: ${JSON.stringify(a.s)} / ${JSON.stringify(b.s)}`);
  assert(b.s.firstRecord === 7 && b.s.endRecord === 34 && b.s.parts.map((p) => `${p.primitive}@${p.firstRecord}+${p.records}`).join() === 'triangles@7+9,lines@16+6,triangles@22+12', JSON.stringify(b.s));
  sameBytes([a.bytes, b.bytes], b.want, 'session');
});

test('session refusals: capacity with both sizes, another record layout naming both, nothing written', async () => {
  const before = new Float32Array(30 * 9).fill(42);
  const made = new Map();
  for (const xfb of engines) {
    const m = mesh(xfb, 24, 'interleaved', 11);
    const other = xfb.createProgram({ source: otherShader, label: 'other' });
    const reordered = xfb.createProgram({ label: 'reordered', source: await shader('capture_mesh_reordered.vert') });
    const out = xfb.createBuffer({ format: recordFormat, count: 30, data: before });
    made.set(xfb, { m, other, reordered, out, capture: xfb.createCapture(m.program, [{ input: m.input }, { output: out }]) });
  }
  const parts = (xfb) => sessionParts(made.get(xfb).other).map((p) => p.part);
  const e = await sameRefusal('XFB_CAPACITY', (xfb) => made.get(xfb).capture.captureSession(parts(xfb), { firstRecord: 4 }), 'session capacity');
  assert(e.message.includes('holds 1080 bytes (30 records)') && e.message.includes('needs 1116 bytes'), e.message);
  const layout = await sameRefusal('XFB_OUTPUT_LAYOUT_MISMATCH', (xfb) => made.get(xfb).capture.captureSession([{ mode: 'triangles', count: 3 }, { mode: 'triangles', count: 3, program: made.get(xfb).reordered }]), 'layout');
  assert(layout.message.includes("program 'reordered' writes records as {interleaved, buffer 0 stride 36: out_position vec4 @0, out_uv vec2 @16, out_normal vec3 @24}"), layout.message);
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.captureSession([{ mode: 'points', indices: [1, 99] }]), 'a part index');
  await sameRefusal('XFB_INVALID_ARGUMENT', (xfb) => made.get(xfb).capture.captureSession([{ mode: 'points', count: 2 }], { firstRecord: -1 }), 'firstRecord');
  const [u0, u1] = await onBoth((xfb) => made.get(xfb).out.read());
  sameBytes([u0, u1], before, 'untouched by refused sessions');
  assert(made.get(gpu).capture.captureSession(parts(gpu), { firstRecord: 3 }).endRecord === 30, 'fits from record 3');
});

/** A WebGPU render pass drawing the capture's vec4 positions in red into a 64x64 target; lit pixels per quadrant. */
function redQuadrants(device, buffer, stride) {
  const side = 64;
  const module = device.createShaderModule({ code: `
@vertex fn vs(@location(0) p: vec4f) -> @builtin(position) vec4f { return p; }
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.0, 0.0, 1.0); }` });
  const pipeline = device.createRenderPipeline({
    layout: 'auto', primitive: { topology: 'triangle-list' },
    vertex: { module, entryPoint: 'vs', buffers: [{ arrayStride: stride, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x4' }] }] },
    fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba8unorm' }] },
  });
  const target = device.createTexture({ size: [side, side], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const pixels = device.createBuffer({ size: side * side * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  return async (draw) => {
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginRenderPass({ colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
    pass.setPipeline(pipeline);
    pass.setVertexBuffer(0, buffer.gpuBuffer);
    draw(pass);
    pass.end();
    encoder.copyTextureToBuffer({ texture: target }, { buffer: pixels, bytesPerRow: side * 4 }, [side, side]);
    device.queue.submit([encoder.finish()]);
    await pixels.mapAsync(GPUMapMode.READ);
    const px = new Uint8Array(pixels.getMappedRange());
    const q = [0, 0, 0, 0]; // bottom-left, bottom-right, top-left, top-right (row 0 is the top)
    for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) if (px[(y * side + x) * 4] === 255) q[(y < side / 2 ? 2 : 0) + (x < side / 2 ? 0 : 1)]++;
    pixels.unmap();
    return q.join();
  };
}

test('drawCaptured and drawSession record the planned ranges into a render pass (pixels), not stale records', async () => {
  requireGpu();
  const quad = gpu.createProgram({ source: '#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = a_position; }' });
  const up = gpu.createProgram({ source: '#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = a_position + vec4(0.0, 1.0, 0.0, 0.0); }' });
  // Quads as strips: bottom-left (vertices 0..3), bottom-right (4..7); `up` moves one to the top-left.
  const quads = new Float32Array([-1, -1, 0, 1, 0, -1, 0, 1, -1, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 1, 1, -1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1]);
  const corners = gpu.createBuffer({ format: vec4, count: 8, data: quads });
  const stale = new Float32Array(24 * 4);
  for (let k = 0; k < 8; k++) stale.set([0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1], k * 12); // top-right wherever a wrong range reads
  const out = gpu.createBuffer({ format: vec4, count: 24, data: stale });
  const capture = gpu.createCapture(quad, [{ input: corners }, { output: out }]);
  const quadrants = redQuadrants(gpu.device, out, 16);
  const Q = 32 * 32;
  await expectError('XFB_INVALID_ARGUMENT', () => quadrants((pass) => capture.drawCaptured(pass)));
  capture.capture({ mode: 'triangle_strip', count: 4 });
  for (const instances of [1, 3]) {
    const got = await quadrants((pass) => capture.drawCaptured(pass, { instances }));
    assert(got === `${Q},0,0,0`, `drawCaptured, instances ${instances}: ${got}`);
  }
  const s = capture.captureSession([{ mode: 'triangle_strip', indices: [4, 5, 6, 7] }, { mode: 'triangle_strip', count: 4 }, { mode: 'triangle_strip', count: 4, program: up }], { firstRecord: 3 });
  assert(s.parts[2].firstRecord === 15, JSON.stringify(s));
  const cases = [[{ part: 0 }, `0,${Q},0,0`], [{ part: 1 }, `${Q},0,0,0`], [{ part: 2, instances: 3 }, `0,0,${Q},0`], [{}, `${Q},${Q},${Q},0`]];
  for (const [options, want] of cases) {
    const got = await quadrants((pass) => capture.drawSession(pass, options));
    assert(got === want, `drawSession(${JSON.stringify(options)}): ${got}, want ${want}`);
  }
  const e = await expectError('XFB_INVALID_ARGUMENT', () => quadrants((pass) => capture.drawSession(pass, { part: 3 })));
  assert(e.message.includes('the session has 3 parts'), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => quadrants((pass) => capture.drawCaptured(pass)));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.drawSession({ part: 0 }));
  await expectError('XFB_INVALID_ARGUMENT', () => quadrants((pass) => capture.drawSession(pass, { mode: 'triangles' })));
});

test('steady state: a capture creates no GPU object once its source list fits; one dispatch per capture', async () => {
  requireGpu();
  const m = mesh(gpu, 40);
  const out = gpu.createBuffer({ format: recordFormat, count: 200 });
  const capture = gpu.createCapture(m.program, [{ input: m.input }, { output: out }]);
  capture.capture({ mode: 'triangle_strip', count: 40 });
  let counted;
  const { submit: submits } = await countMethodCalls(gpu.device.queue, ['submit'], async () => {
    counted = await countMethodCalls(gpu.device, GPU_CREATE, () => {
      capture.capture({ mode: 'triangle_strip', count: 40 });
      capture.capture({ mode: 'triangles', count: 39 });
    });
  });
  assert(Object.values(counted).every((n) => n === 0), `GPU objects created: ${JSON.stringify(counted)}`);
  assert(submits === 2, `${submits} submits for two captures`);
  assertArrayEqual((await out.read()).subarray(0, 39 * 9), m.expected([...Array(39).keys()]), 'triangles of 39');
});

test("a capture reading a pipeline's state follows its swaps (the latest state is captured)", async () => {
  const step = '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(1.0, 2.0, 3.0, 0.0); }';
  const copy = '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0; }';
  const start = pseudoRandom(4 * 4, -1, 1, 9);
  const [a, b] = await onBoth(async (xfb) => {
    const state = xfb.createBuffer({ format: vec4, count: 4, data: start });
    const scratch = xfb.createBuffer({ format: vec4, count: 4 });
    const pipeline = xfb.createPipeline(xfb.createProgram({ source: step }), [{ input: state, output: scratch }]);
    const out = xfb.createBuffer({ format: vec4, count: 6 });
    const capture = xfb.createCapture(xfb.createProgram({ source: copy }), [{ input: state }, { output: out }]);
    const got = [];
    for (let s = 0; s < 3; s++) {
      capture.capture({ mode: 'triangle_fan', count: 4 });
      got.push(await out.read());
      pipeline.step();
    }
    return got;
  });
  let state = start;
  for (let s = 0; s < 3; s++) {
    const want = new Float32Array(expand('triangle_fan', [[0, 1, 2, 3]]).flatMap((v) => [...state.subarray(v * 4, v * 4 + 4)].map((x) => f(x * 2))));
    sameBytes([a[s], b[s]], want, `after ${s} steps`);
    state = state.map((x, i) => f(x + [1, 2, 3, 0][i % 4]));
  }
});

test('device loss: captures are refused while lost and rebuilt by restore(), the same bytes after it', async () => {
  requireGpu();
  const engine = await createXfb({ backend: 'webgpu' });
  const vertices = pseudoRandom(6 * 4, -1, 1, 5);
  const program = engine.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0; }' });
  const input = engine.createBuffer({ format: vec4, count: 6, data: vertices, restore: 'initial' });
  const out = engine.createBuffer({ format: vec4, count: 12 });
  const capture = engine.createCapture(program, [{ input }, { output: out }]);
  const want = new Float32Array(expand('triangle_fan', [[0, 1, 2, 3, 4, 5]]).flatMap((v) => [...vertices.subarray(v * 4, v * 4 + 4)].map((x) => f(x * 2))));
  capture.capture({ mode: 'triangle_fan', count: 6 });
  assertArrayEqual(await out.read(), want, 'before the loss');
  const lost = nextEvent(engine, 'contextlost');
  engine.device.destroy();
  await lost;
  await expectError('XFB_CONTEXT_LOST', () => capture.capture({ mode: 'triangle_fan', count: 6 }));
  await engine.restore();
  let validation = null;
  engine.device.addEventListener('uncapturederror', (e) => { validation = e.error.message; });
  const c = capture.capture({ mode: 'triangle_fan', count: 6 });
  assert(c.records === 12, JSON.stringify(c));
  assertArrayEqual(await out.read(), want, 'after restore()');
  await capture.ready;
  assert(validation === null, `a WebGPU validation error after restore(): ${validation}`);
  engine.dispose();
});
