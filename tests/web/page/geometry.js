// Geometry programs in the browser (issue 27): createProgram({ source, geometry }). WebGL2 has no
// geometry shaders and no compute shaders: every geometry shader of tests/gl/geometry_test.cpp is
// refused there with XFB_GEOMETRY_UNSUPPORTED, the message naming where geometry programs run.
// WebGPU gives the bytes native GL compute wrote into geometry_fixture.json (tests/gl/geometry_test.cpp
// checks them on llvmpipe), the shaders from shaders/, every word compared.
// The WebGPU engine runs them as the compute passes of the GL compute capture (the same plan, its
// kernels in WGSL): face points, fins as lines, triangle strips, invocations and two streams are
// captured into sentinel-filled buffers and every word is compared with a JavaScript reference of
// the shader over inputs whose arithmetic is exact in f32 (so the GL's geometry shader, its GL
// compute translation and WebGPU must all give these bytes), with the budget and the statistics;
// every misuse of a geometry capture is provoked with its code.
import { assert, assertArrayEqual, countMethodCalls, createXfb, expectError, GPU_CREATE, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const gl2 = await createXfb({ canvas });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice() }) : null;
const requireGpu = () => assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
const runtimes = () => (requireGpu(), [['webgl2', gl2], ['webgpu', gpu]]);
const webgl2Only = () => [['webgl2', gl2]];

// shaders/geometry_pass.vert in GLSL ES 3.00: positions and the vertex's index.
const VERTEX = `#version 300 es\n${await shader('geometry_pass.vert')}`;
const GS = '#version 320 es\nprecision highp float;\nprecision highp int;\n';

// The geometry shaders of tests/gl/geometry_test.cpp and of the fixture, from shaders/ (ES 3.2 header).
const GEOMETRY = {
  // Amplification: every triangle in, its centroid and face normal out as two points.
  'face-points': `${GS}${await shader('geometry_face_points.geom')}`,
  // Amplification as lines: a fin per vertex of each triangle.
  fins: `${GS}${await shader('geometry_fins.geom')}`,
  invocations: `${GS}${await shader('geometry_invocations.geom')}`,
  // Two streams (desktop GLSL 4.00: ES 3.2 has stream 0 only): centroids, odd faces' normals.
  'two-streams': `#version 400 core\n${await shader('geometry_two_streams.geom')}`,
  // The overflow case: point i emits 1 + i % 3 points, a budget of 3 a point.
  overflow: `${GS}layout(points) in;
layout(points, max_vertices = 3) out;
flat in int v_id[];
out vec4 out_value;
void main() {
    for (int c = 0; c <= v_id[0] % 3; ++c) { out_value = vec4(float(v_id[0]), float(c), 0.0, 1.0); EmitVertex(); }
}
`,
};

const WHAT_EACH_LACKS = {
  webgl2: 'WebGL2 has no geometry shaders (it ends at the vertex shader) and no compute shaders',
};

/** The refusal of a geometry program: code, message, and nothing created. */
async function refused(runtime, xfb, description) {
  const before = JSON.stringify(xfb.liveObjects());
  // [docs:geometry-web-refusal]
  const e = await expectError('XFB_GEOMETRY_UNSUPPORTED', () => xfb.createProgram(description)); // { source, geometry, label }
  // WebGL2, before any GL call; e.message names the program, what WebGL2 lacks, and where geometry
  // programs run (in the browser the WebGPU engine; native GL through the C++ API)
  // [docs:end]
  const label = description.label ?? 'program';
  for (const part of [`program '${label}' has a geometry shader`, WHAT_EACH_LACKS[runtime], 'the WebGPU engine (createXfb({ device })', 'desktop OpenGL 4.0+', 'OpenGL ES 3.2 (stream 0)', 'compute on OpenGL 4.3+ / ES 3.1+'])
    assert(e.message.includes(part), `${runtime}: the message names "${part}": ${e.message}`);
  assert(JSON.stringify(xfb.liveObjects()) === before, `${runtime}: nothing created: ${before} -> ${JSON.stringify(xfb.liveObjects())}`);
  return e;
}

for (const [name, geometry] of Object.entries(GEOMETRY))
  test(`${name}: the geometry program of geometry_test.cpp is XFB_GEOMETRY_UNSUPPORTED on WebGL2, naming where it runs (WebGPU)`, async () => {
    for (const [runtime, xfb] of webgl2Only()) {
      await refused(runtime, xfb, { source: VERTEX, geometry, label: name });
      // The same in separate mode and with a list: the options are checked, then the refusal.
      await refused(runtime, xfb, { source: VERTEX, geometry, mode: 'separate', varyings: ['out_x'], label: `${name}-separate` });
    }
  });

test('the refusal comes after the shape checks and before the planner: a malformed option is XFB_INVALID_ARGUMENT first, an unreadable vertex shader is still XFB_GEOMETRY_UNSUPPORTED', async () => {
  for (const [runtime, xfb] of webgl2Only()) {
    const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source: VERTEX, geometry: GEOMETRY.overflow, mode: 'sideways' }));
    assert(e.message.includes('createProgram(): mode'), `${runtime}: ${e.message}`);
    await refused(runtime, xfb, { source: 'not glsl at all', geometry: GEOMETRY.overflow });
  }
});

test("malformed geometry values are XFB_INVALID_ARGUMENT with one message on both engines; geometry: '' is no vertex program", async () => {
  for (const geometry of [5, null, {}, ['layout(points) in;'], true, '']) {
    const messages = [];
    for (const [runtime, xfb] of runtimes()) {
      const before = JSON.stringify(xfb.liveObjects());
      const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source: VERTEX, varyings: ['v_position'], geometry }));
      assert(e.message.includes('createProgram(): geometry must be a non-empty string of GLSL'), `${runtime}: ${e.message}`);
      assert(JSON.stringify(xfb.liveObjects()) === before, `${runtime}: nothing created`);
      messages.push(e.message);
    }
    assert(messages[0] === messages[1], `one message: ${messages.join(' / ')}`);
  }
  // geometry: undefined is a vertex program, as leaving it out.
  for (const [, xfb] of runtimes()) xfb.createProgram({ source: VERTEX, varyings: ['v_position'], geometry: undefined }).dispose();
});

test('after the refusals both engines capture the vertex shader alone: 4 triangles of a strip, the same bytes as a JS reference', async () => {
  const positions = pseudoRandom(6 * 4, -1, 1, 11);
  for (let v = 0; v < 6; v++) positions[v * 4 + 3] = 1;
  // A triangle strip of 6 vertices: triangles k = 0..3 as k, k+1, k+2 (odd ones k+1, k, k+2).
  const order = [0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5];
  const reference = new Float32Array(order.flatMap((v) => [...positions.subarray(v * 4, v * 4 + 4)]));
  const format = [{ semantic: 'ATTR0', components: 4 }];
  for (const [runtime, xfb] of runtimes()) {
    if (runtime === 'webgl2') await refused(runtime, xfb, { source: VERTEX, geometry: GEOMETRY['face-points'], label: 'face-points' });
    const program = xfb.createProgram({ source: VERTEX, varyings: ['v_position'], label: 'vertex-only' });
    const input = xfb.createBuffer({ format, count: 6, data: positions });
    const out = xfb.createBuffer({ format, count: 12 });
    const capture = xfb.createCapture(program, [{ input }, { output: out }]);
    const c = capture.capture({ mode: 'triangle_strip', count: 6 });
    assert(c.records === 12, `${runtime}: ${JSON.stringify(c)}`);
    assertArrayEqual(await out.read(), reference, `${runtime}: the strip's records`);
    for (const o of [capture, out, input, program]) o.dispose();
  }
});

// ---- WebGPU: geometry programs captured as compute passes, every word against a reference. ----

const SENTINEL = 0xdeadbeef;
// Vertex v: small binary fractions, so sums, differences and cross products are exact in f32: the
// reference below is then the GL's result too (geometry shader, GL compute and WebGPU alike).
const position = (v) => [(v % 3) - 1, ((v * 7) % 5) * 0.5 - 1, ((v * 3) % 4) * 0.25, 1];
const f32bits = (x) => new Uint32Array(new Float32Array([x]).buffer)[0];
const int = (x) => x >>> 0;
// Triangles of a strip of n vertices in the GL's order: k, k+1, k+2 (odd k: k+1, k, k+2).
const strip = (n) => Array.from({ length: n - 2 }, (_, k) => (k % 2 ? [k + 1, k, k + 2] : [k, k + 1, k + 2]));
const list = (n) => Array.from({ length: n / 3 }, (_, t) => [3 * t, 3 * t + 1, 3 * t + 2]);
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (u, v) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];

/** A planned buffer's format (its fields in order); the data and read-backs are compared as raw words. */
const formatOf = (b) => b.fields.map((f, i) => ({ semantic: `ATTR${i}`, type: f.type, components: f.components }));

/** Captures `draw` through `geometry` on WebGPU into sentinel-filled buffers of `records[b]`
 *  records, and returns every buffer's words, the budget and the statistics. `uniforms`: a list of
 *  settings ({ name: value }), one capture each with the same capture object, the values set
 *  before it (the words and figures are the last capture's). */
async function captureOnGpu(geometry, draw, records, { vertices = 8, overflow, label = 'geometry', vertex = VERTEX, uniforms = [{}] } = {}) {
  const program = gpu.createProgram({ source: vertex, geometry, label });
  const input = gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: vertices, data: new Float32Array(Array.from({ length: vertices }, (_, v) => position(v)).flat()) });
  const outputs = program.plan.buffers.map((b, i) => {
    const words = new Uint32Array(((records[i] ?? 0) * b.stride) / 4).fill(SENTINEL);
    return gpu.createBuffer({ format: formatOf(b), count: records[i], data: words.buffer });
  });
  const capture = gpu.createCapture(program, [{ input }, ...outputs.map((output) => ({ output }))]);
  let budget;
  for (const values of uniforms) {
    for (const [name, value] of Object.entries(values)) program.setUniform(name, value);
    budget = capture.capture(draw, overflow ? { overflow } : {});
  }
  const statistics = await capture.statistics();
  const words = [];
  for (const o of outputs) words.push(new Uint32Array((await o.read()).buffer.slice(0)));
  const objects = [capture, ...outputs, input, program];
  return { budget, statistics, words, dispose: () => objects.forEach((o) => o.dispose()) };
}

/** Every word of `gpuWords` equals the reference records, then sentinels to the end. */
function requireWords(gpuWords, reference, what) {
  const expected = new Uint32Array(gpuWords.length).fill(SENTINEL);
  expected.set(reference);
  assertArrayEqual(gpuWords, expected, what);
}

test('webgpu face-points: a triangle strip in, centroid and face normal out as points, every word as the GL writes it', async () => {
  requireGpu();
  const r = await captureOnGpu(GEOMETRY['face-points'], { mode: 'triangle_strip', count: 7 }, [12], { label: 'face-points' });
  const ref = strip(7).flatMap(([i, j, k], t) => {
    const [a, b, c] = [position(i), position(j), position(k)];
    const order = i * 256 + j * 16 + k;
    const n = cross(sub(b, a), sub(c, a));
    return [...[a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2], 0].map(f32bits), t, 0, order, 7, ...[...n, 1].map(f32bits), t, 1, order, 7].map(int);
  });
  requireWords(r.words[0], ref, 'face points: 10 records, then 2 sentinels');
  assert(r.budget.records === 10 && r.budget.inputPrimitives === 5, `budget ${JSON.stringify(r.budget)}`);
  const s = r.statistics[0];
  assert(s.primitivesGenerated === 10 && s.primitivesWritten === 10 && s.recordsWritten === 10 && !s.overflow, JSON.stringify(s));
  r.dispose();
});

test('webgpu fins: triangles in, line strips out, closed into lines in order', async () => {
  requireGpu();
  const r = await captureOnGpu(GEOMETRY.fins, { mode: 'triangles', count: 6 }, [22], { label: 'fins' });
  const ref = list(6).flatMap((tri) => tri.flatMap((v, i) => {
    const p = position(v);
    const q = [p[0], p[1], p[2] + position(tri[(i + 1) % 3])[0] - p[0], p[3]];
    return [...p, ...q].map(f32bits);
  }));
  requireWords(r.words[0], ref, 'fins: 3 lines a triangle, 12 records, then sentinels');
  assert(r.budget.records === 20, `budget: 5 lines of 6 vertices a triangle: ${JSON.stringify(r.budget)}`);
  assert(r.statistics[0].primitivesGenerated === 6 && r.statistics[0].recordsWritten === 12, JSON.stringify(r.statistics));
  r.dispose();
});

test('webgpu invocations: each triangle runs the shader 3 times, records in invocation order, gl_PrimitiveIDIn and gl_InvocationID', async () => {
  requireGpu();
  const r = await captureOnGpu(GEOMETRY.invocations, { mode: 'triangle_fan', count: 4 }, [7], { label: 'invocations' });
  // A fan of 4: triangles (0, 1, 2), (0, 2, 3), the GL's order (expandPrimitives).
  const fan = [[0, 1, 2], [0, 2, 3]];
  const ref = fan.flatMap((tri, p) => [0, 1, 2].flatMap((inv) => [...position(tri[inv]).map(f32bits), p, inv, tri[inv], 0].map(int)));
  requireWords(r.words[0], ref, 'invocations: 6 records, then a sentinel');
  r.dispose();
});

test('webgpu two streams (shaders/geometry_two_streams.geom): centroids to stream 0, odd faces\' normals to stream 1, per-stream statistics', async () => {
  requireGpu();
  const r = await captureOnGpu(GEOMETRY['two-streams'], { mode: 'triangle_strip', count: 7 }, [10, 10], { label: 'two-streams' });
  const tris = strip(7);
  const centroids = tris.flatMap(([i, j, k]) => {
    const [a, b, c] = [position(i), position(j), position(k)];
    return [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2], 1].map(f32bits);
  });
  const normals = tris.flatMap(([i, j, k], t) => {
    if (t % 2 === 0) return [];
    const [a, b, c] = [position(i), position(j), position(k)];
    return [...cross(sub(b, a), sub(c, a)).map(f32bits), int(t)];
  });
  requireWords(r.words[0], centroids, 'stream 0: 5 centroids');
  requireWords(r.words[1], normals, 'stream 1: the normals of triangles 1 and 3');
  const [s0, s1] = r.statistics;
  assert(s0.primitivesGenerated === 5 && s0.recordsWritten === 5, `stream 0 ${JSON.stringify(s0)}`);
  assert(s1.stream === 1 && s1.captured && s1.primitivesGenerated === 2 && s1.recordsWritten === 2, `stream 1 ${JSON.stringify(s1)}`);
  assert(r.budget.streams.length === 2 && r.budget.streams[1].records === 10, `budget ${JSON.stringify(r.budget)}`);
  r.dispose();
});

// Amplification as a triangle strip: 4 vertices a point, 2 triangles closed in the GL's winding.
const QUADS = `${GS}${await shader('geometry_quads.geom')}`;
const quadCorners = (v) => [0, 1, 2, 3].map((k) => { const p = position(v); return [p[0] + (k % 2), p[1] + Math.floor(k / 2), p[2] + v, p[3]]; });
const quadRecords = (v) => { const c = quadCorners(v); return [c[0], c[1], c[2], c[2], c[1], c[3]].flat().map(f32bits); };

test('webgpu triangle_strip out: quads as two triangles each (k, k+1, k+2 / k+1, k, k+2); clamp keeps whole triangles and says so', async () => {
  requireGpu();
  const r = await captureOnGpu(QUADS, { mode: 'points', count: 3 }, [20], { label: 'quads' });
  requireWords(r.words[0], [0, 1, 2].flatMap(quadRecords), 'quads: 18 records, then sentinels');
  assert(r.statistics[0].primitivesGenerated === 6 && !r.statistics[0].overflow, JSON.stringify(r.statistics));
  r.dispose();
  const c = await captureOnGpu(QUADS, { mode: 'points', count: 3 }, [10], { label: 'quads-clamped', overflow: 'clamp' });
  requireWords(c.words[0], [0, 1].flatMap(quadRecords).slice(0, 9 * 4), 'clamped: 3 whole triangles (9 records), the 10th a sentinel');
  const s = c.statistics[0];
  assert(s.primitivesGenerated === 6 && s.primitivesWritten === 3 && s.recordsWritten === 9 && s.overflow, JSON.stringify(s));
  c.dispose();
});

// The bytes native GL compute gives (tests/gl/geometry_test.cpp writes and checks the fixture on
// llvmpipe, Backend::Compute): the same shaders from shaders/, the same inputs, every word equal.
const FIXTURE = await (await fetch('/geometry_fixture.json')).json();

test(`webgpu gives native GL compute's bytes: the ${FIXTURE.cases.length} cases of geometry_fixture.json, every word, the budget, the statistics`, async () => {
  requireGpu();
  const positions = Array.from({ length: FIXTURE.positions.length / 4 }, (_, v) => position(v)).flat();
  assertArrayEqual(new Float32Array(FIXTURE.positions), new Float32Array(positions), "the fixture's positions are this suite's position(v)");
  assert(FIXTURE.sentinel === SENTINEL && FIXTURE.vertex === 'geometry_pass.vert', 'the fixture fills with SENTINEL and uses the vertex shader of VERTEX');
  for (const c of FIXTURE.cases) {
    assert(c.words?.length === c.records.length, `${c.name}: the fixture has the native words of every buffer (XFB_WRITE_GEOMETRY_FIXTURE=1 writes them)`);
    const header = c.desktopOnly ? '#version 400 core\n' : GS;
    const geometry = `${header}${await shader(c.geometry)}`;
    // A case may name its own vertex shader, and settings of uniforms captured one after another.
    const vertex = `#version 300 es\n${await shader(c.vertex ?? FIXTURE.vertex)}`;
    const r = await captureOnGpu(geometry, c.draw, c.records, { vertices: positions.length / 4, overflow: c.overflow === 'clamp' ? 'clamp' : undefined, label: c.name, vertex, uniforms: c.uniforms });
    for (const [b, words] of c.words.entries()) assertArrayEqual(r.words[b], new Uint32Array(words), `${c.name}: buffer ${b}, WebGPU vs native GL compute`);
    assert(r.budget.records === c.budget.records && r.budget.inputPrimitives === c.budget.inputPrimitives, `${c.name}: budget ${JSON.stringify(r.budget)} vs native ${JSON.stringify(c.budget)}`);
    // Each stream's figures in one key order (the fixture's are sorted by name).
    const shown = (list) => JSON.stringify(list.map((s) => ['stream', 'captured', 'primitivesGenerated', 'primitivesWritten', 'recordsWritten', 'overflow'].map((k) => [k, s[k]])));
    assert(shown(r.statistics) === shown(c.statistics), `${c.name}: statistics ${shown(r.statistics)} vs native ${shown(c.statistics)}`);
    r.dispose();
  }
});

// A geometry shader with its own uniforms (shaders/geometry_fins_uniform.geom): fins whose length
// and direction are uniforms, u_scale shared with the vertex shader (shaders/geometry_pass_scaled.vert).
const SCALED = `#version 300 es\n${await shader('geometry_pass_scaled.vert')}`;
const FINS_UNIFORM = `${GS}${await shader('geometry_fins_uniform.geom')}`;
const finsUniform = ({ u_finLength: length, u_finDirection: dir, u_scale: scale }) =>
  list(6).flatMap((tri) => tri.flatMap((v) => {
    const p = [...position(v).slice(0, 3).map((x) => x * scale), 1];
    const q = [p[0] + dir[0] * length * scale, p[1] + dir[1] * length * scale, p[2] + dir[2] * length * scale, 1];
    return [...p.map(f32bits), v, ...q.map(f32bits), v];
  }));

test('webgpu a geometry shader\'s own uniforms: setUniform() reaches the kernels, a name of both shaders is one value, a changed value between captures', async () => {
  requireGpu();
  const first = { u_finLength: 0.5, u_finDirection: [0, 0, 1], u_scale: 2 };
  const second = { u_finLength: 0.25, u_finDirection: [1, 0.5, 0], u_scale: 0.5 };
  const r = await captureOnGpu(FINS_UNIFORM, { mode: 'triangles', count: 6 }, [22], { label: 'fins-uniform', vertex: SCALED, uniforms: [first] });
  requireWords(r.words[0], finsUniform(first), 'fins of length u_finLength * u_scale along u_finDirection: 12 records, then sentinels');
  r.dispose();
  const changed = await captureOnGpu(FINS_UNIFORM, { mode: 'triangles', count: 6 }, [22], { label: 'fins-uniform-changed', vertex: SCALED, uniforms: [first, second] });
  requireWords(changed.words[0], finsUniform(second), 'the second capture: the values set after the first');
  changed.dispose();
  // The value checks of the vertex shader's uniforms apply to the geometry shader's.
  const program = gpu.createProgram({ source: SCALED, geometry: FINS_UNIFORM, label: 'fins-uniform-checks' });
  let e = await expectError('XFB_UNIFORM_TYPE', () => program.setUniform('u_finDirection', 1));
  assert(e.message.includes("uniform 'u_finDirection' is floatx3"), e.message);
  await expectError('XFB_UNIFORM_TYPE', () => program.setUniform('u_finLength', [1, 2]));
  await expectError('XFB_INVALID_ARGUMENT', () => program.setUniform('u_finLength', 'long'));
  e = await expectError('XFB_UNKNOWN_UNIFORM', () => program.setUniform('u_nope', 1));
  assert(e.message.includes('uniforms: u_finDirection, u_finLength, u_scale'), e.message);
  program.dispose();
  // A name both shaders declare with two types: the GL's link fails, and so does this.
  e = await expectError('XFB_PROGRAM_LINK', () => gpu.createProgram({ source: SCALED, geometry: FINS_UNIFORM.replace('uniform float u_scale;', 'uniform vec2 u_scale;').replace('* u_scale)', '* u_scale.x)') }));
  assert(e.message.includes("uniform 'u_scale' is float in the vertex shader"), e.message);
});

test('webgpu geometry steady state: a capture of the same draw into the same buffers creates no GPU object', async ({ note }) => {
  requireGpu();
  const program = gpu.createProgram({ source: VERTEX, geometry: GEOMETRY['face-points'], label: 'steady' });
  const input = gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 8 });
  const out = gpu.createBuffer({ format: formatOf(program.plan.buffers[0]), count: 12 });
  const capture = gpu.createCapture(program, [{ input }, { output: out }]);
  capture.capture({ mode: 'triangle_strip', count: 8 });
  const counted = await countMethodCalls(gpu.device, GPU_CREATE, () => {
    capture.capture({ mode: 'triangle_strip', count: 8 });
    capture.capture({ mode: 'triangles', count: 6 });
  });
  assert(Object.values(counted).every((n) => n === 0), `GPU objects created: ${JSON.stringify(counted)}`);
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) capture.capture({ mode: 'triangle_strip', count: 8 });
  note(`CPU per steady capture (check, record, submit): ${((performance.now() - t0) / 100).toFixed(3)} ms`);
  await gpu.device.queue.onSubmittedWorkDone();
  for (const o of [capture, out, input, program]) o.dispose();
});

test('webgpu geometry misuse: every refusal coded, nothing written', async () => {
  requireGpu();
  const program = gpu.createProgram({ source: VERTEX, geometry: GEOMETRY['face-points'], label: 'misuse' });
  assert(program.geometry === GEOMETRY['face-points'], 'program.geometry is the shader');
  const input = gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 8 });
  const b = program.plan.buffers[0];
  const out = gpu.createBuffer({ format: formatOf(b), count: 3, data: new Uint32Array((3 * b.stride) / 4).fill(SENTINEL).buffer });
  const capture = gpu.createCapture(program, [{ input }, { output: out }]);
  await expectError('XFB_INVALID_ARGUMENT', () => capture.statistics());
  let e = await expectError('XFB_GEOMETRY_INPUT', () => capture.capture({ mode: 'points', count: 3 }));
  assert(e.message.includes('triangles'), e.message);
  e = await expectError('XFB_CAPACITY', () => capture.capture({ mode: 'triangles', count: 6 })); // 3 records: 2 faces need 4
  requireWords(new Uint32Array((await out.read()).buffer.slice(0)), [], 'nothing written');
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'triangles', count: 3 }, { overflow: 'sideways' }));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'triangles', count: 9 })); // vertex 8 is past the inputs
  await expectError('XFB_UNSUPPORTED', () => capture.captureSession([{ mode: 'triangles', count: 3 }]));
  await expectError('XFB_UNSUPPORTED', () => gpu.createPipeline(program, [{ input }, { output: out }]));
  capture.capture({ mode: 'triangles', count: 3 });
  await expectError('XFB_GEOMETRY_STREAM', () => capture.drawCapturedStream({ draw() {}, drawIndirect() {} }, 1));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.drawCapturedStream({ draw() {} }, 0));
  e = await expectError('XFB_COMPUTE_TRANSLATION', () => gpu.createProgram({ source: VERTEX, geometry: `${GS}layout(points) in;\nlayout(points, max_vertices = 1) out;\nuniform highp sampler2D u_table;\nout vec4 out_value;\nvoid main() { out_value = texelFetch(u_table, ivec2(0), 0); EmitVertex(); }\n` }));
  assert(e.message.includes("sampler 'u_table' of the geometry shader"), e.message);
  await expectError('XFB_GEOMETRY_LAYOUT', () => gpu.createProgram({ source: VERTEX, geometry: `${GS}layout(points) in;\nout vec4 out_value;\nvoid main() { EmitVertex(); }\n` }));
  const vertexOnly = gpu.createProgram({ source: VERTEX, varyings: ['v_position'] });
  const c2 = gpu.createCapture(vertexOnly, [{ input }, { output: gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 3 }) }]);
  await expectError('XFB_UNSUPPORTED', () => c2.capture({ mode: 'points', count: 3 }, { overflow: 'clamp' }));
  // 32-bit counts, as natively: 2^19 points x 32 invocations x 256 records = 2^32, refused before
  // anything runs, also with overflow 'clamp' (which skips the capacity check).
  const wide = gpu.createProgram({ source: VERTEX, geometry: `${GS}layout(points, invocations = 32) in;\nlayout(points, max_vertices = 256) out;\nout vec4 out_a;\nvoid main() { out_a = vec4(1.0); EmitVertex(); }\n` });
  const many = gpu.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 1 << 19 });
  const one = gpu.createBuffer({ format: formatOf(wide.plan.buffers[0]), count: 1, data: new Uint32Array(wide.plan.buffers[0].stride / 4).fill(SENTINEL).buffer });
  const huge = gpu.createCapture(wide, [{ input: many }, { output: one }]);
  e = await expectError('XFB_BUFFER_TOO_LARGE', () => huge.capture({ mode: 'points', count: 1 << 19 }, { overflow: 'clamp' }));
  assert(e.message.includes('4294967296 records'), e.message);
  requireWords(new Uint32Array((await one.read()).buffer.slice(0)), [], 'nothing written past 2^32');
  for (const o of [huge, one, many, wide, c2, vertexOnly, capture, out, input, program]) o.dispose();
});
