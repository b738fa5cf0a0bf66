// Primitive capture on WebGL2 (SwiftShader): strips, loops, fans and index lists captured as
// whole primitives by the engine's expansion, byte for byte against a JS reference; capacity
// refused before drawing; drawCaptured draws the planned count.
import { assert, assertArrayEqual, countCalls, createXfb, expand, expectError, nextEvent, pseudoRandom, redCoverage, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas, contextAttributes: { preserveDrawingBuffer: true } });
const gl = xfb.gl;
const f = Math.fround;

const meshShader = await shader('capture_mesh.vert'); // the 36-byte record: vec4 position + vec3 normal + vec2 uv
const inputFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }];
const recordFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];

function mesh(n, mode = 'interleaved') {
  const vertices = pseudoRandom(n * 6, -1, 1, 7);
  const program = xfb.createProgram({ source: meshShader, mode });
  program.setUniform('u_scale', 2);
  const input = xfb.createBuffer({ format: inputFormat, count: n, data: vertices });
  const record = (v) => {
    const p = vertices.subarray(v * 6, v * 6 + 6);
    return [f(p[0] * 2), f(p[1] * 2), f(f(p[2] * 2) + v), f(p[3] * 2), p[5], -p[4], 1, f(p[4] * 2), f(p[5] * 2)];
  };
  return { program, input, record, expected: (sources) => new Float32Array(sources.flatMap(record)) };
}


test('a 4-vertex triangle strip captures 6 records, 216 bytes, equal to the reference', async ({ note }) => {
  const m = mesh(4);
  const out = xfb.createBuffer({ format: recordFormat, count: 6 });
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
  note(`expansion: ${capture.info.expansion}`);
  assert(capture.info.expansion === 'engine', 'WebGL2 expands strips in the engine');
  const c = capture.capture({ mode: 'triangle_strip', count: 4 });
  assert(c.primitive === 'triangles' && c.primitives === 2 && c.records === 6 && c.bytes[0] === 216, JSON.stringify(c));
  assert(m.program.plan.buffers[0].fields.map((x) => x.offset).join() === '0,16,28', 'offsets 0, 16, 28');
  assertArrayEqual(await out.read(), m.expected([0, 1, 2, 2, 1, 3]), 'captured strip');
});

test('a 144-byte buffer is refused before drawing with both sizes, and keeps its contents', async () => {
  const m = mesh(4);
  const sentinel = new Float32Array(4 * 9).fill(42);
  const small = xfb.createBuffer({ format: recordFormat, count: 4, data: sentinel });
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: small }]);
  const e = await expectError('XFB_CAPACITY', () => capture.capture({ mode: 'triangle_strip', count: 4 }));
  assert(e.message.includes('144 bytes (4 records)') && e.message.includes('216 bytes'), e.message);
  assertArrayEqual(await small.read(), sentinel, 'untouched');
});

test('every mode, plain and indexed with restart (Uint16Array, 0xFFFF by default), equals the reference', async () => {
  const m = mesh(40);
  const out = xfb.createBuffer({ format: recordFormat, count: 200 });
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
  const indices = new Uint16Array(64);
  let seed = 3;
  for (let k = 0; k < 64; k++) { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; indices[k] = k % 11 === 10 ? 0xFFFF : (seed >>> 8) % 40; }
  const runs = [[]];
  for (const i of indices) i === 0xFFFF ? runs.push([]) : runs[runs.length - 1].push(i);
  for (const mode of ['points', 'lines', 'line_strip', 'line_loop', 'triangles', 'triangle_strip', 'triangle_fan']) {
    for (const indexed of [false, true]) {
      const sources = indexed ? expand(mode, runs) : expand(mode, [[...Array(37).keys()]]);
      const c = capture.capture(indexed ? { mode, indices } : { mode, count: 37 });
      assert(c.records === sources.length, `${mode}: ${c.records} records, reference ${sources.length}`);
      const got = (await out.read()).subarray(0, sources.length * 9);
      assertArrayEqual(got, m.expected(sources), `${mode}${indexed ? ' indexed' : ''}`);
      assert(gl.getError() === gl.NO_ERROR, `${mode}: no WebGL error left behind`);
    }
  }
});

test('separate mode: a line loop into one buffer per varying', async () => {
  const m = mesh(6, 'separate');
  const pos = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 10 });
  const nrm = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 3 }], count: 10 });
  const uv = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 2 }], count: 10 });
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: pos }, { output: nrm }, { output: uv }]);
  const c = capture.capture({ mode: 'line_loop', count: 5 });
  assert(c.records === 10 && c.bytes.join() === '160,120,80', JSON.stringify(c));
  const records = [0, 1, 1, 2, 2, 3, 3, 4, 4, 0].map(m.record);
  assertArrayEqual(await pos.read(), new Float32Array(records.flatMap((r) => r.slice(0, 4))), 'positions');
  assertArrayEqual(await nrm.read(), new Float32Array(records.flatMap((r) => r.slice(4, 7))), 'normals');
  assertArrayEqual(await uv.read(), new Float32Array(records.flatMap((r) => r.slice(7))), 'uvs');
});

test('drawCaptured draws the captured vertices only, not stale records after them', async () => {
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = a_position; gl_Position = a_position; }' });
  const input = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 4, data: new Float32Array([-1, -1, 0, 1, 0, -1, 0, 1, -1, 1, 0, 1, 0, 1, 0, 1]) });
  const stale = new Float32Array(48);
  for (let k = 0; k < 4; k++) stale.set([0, -1, 0, 1, 1, -1, 0, 1, 1, 1, 0, 1], k * 12); // right half
  const out = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 12, data: stale });
  const capture = xfb.createCapture(program, [{ input }, { output: out }]);
  capture.capture({ mode: 'triangle_strip', count: 4 });

  const coverage = redCoverage(gl, out.glBuffer);
  for (const instances of [1, 3]) {
    const [bottomLeft, bottomRight, topLeft, topRight] = coverage.quadrants(() => capture.drawCaptured({ instances }));
    const left = bottomLeft + topLeft, right = bottomRight + topRight;
    assert(left === 64 * 32 && right === 0, `instances ${instances}: ${left} red pixels left, ${right} right`);
  }
  assert(gl.getError() === gl.NO_ERROR, 'no WebGL error');
  coverage.dispose();
});

test('bad captures get XfbErrors; disposed captures are refused', async () => {
  const m = mesh(4);
  const out = xfb.createBuffer({ format: recordFormat, count: 12 });
  await expectError('XFB_UNSUPPORTED', () => xfb.createCapture(m.program, [{ input: m.input }, { output: out }], { expansion: 'driver' }));
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
  await expectError('XFB_INVALID_ARGUMENT', () => capture.drawCaptured());
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'quads', count: 4 }));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'lines', indices: new Float32Array(4) }));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'lines', count: 4, indices: [0, 1] }));
  const e = await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'lines', indices: [0, 9] }));
  assert(e.message.includes('index 9 at position 1'), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => capture.capture({ mode: 'lines', count: 5 }));
  capture.dispose();
  await expectError('XFB_DISPOSED', () => capture.capture({ mode: 'lines', count: 2 }));
  assert(gl.getError() === gl.NO_ERROR, 'no WebGL error');
});

test('steady state: a capture creates no WebGL object; the strip costs two POINTS passes', async ({ note }) => {
  const m = mesh(40);
  const out = xfb.createBuffer({ format: recordFormat, count: 200 });
  const capture = xfb.createCapture(m.program, [{ input: m.input }, { output: out }]);
  capture.capture({ mode: 'triangle_strip', count: 40 });
  const calls = countCalls(gl);
  capture.capture({ mode: 'triangle_strip', count: 40 });
  note(`WebGL calls per capture: ${calls.total()} (${JSON.stringify(calls.snapshot())})`);
  for (const kind of ['Buffer', 'VertexArray', 'TransformFeedback', 'Texture', 'Program', 'Query'])
    assert(calls.get(`create${kind}`) === 0, `create${kind} called`);
  assert(calls.get('drawArrays') === 2 && calls.get('beginTransformFeedback') === 2, JSON.stringify(calls.snapshot()));
  assertArrayEqual((await out.read()).subarray(0, 38 * 3 * 9), m.expected(expand('triangle_strip', [[...Array(40).keys()]])), 'strip of 40');
});

test('context loss: captures are refused while lost and rebuilt on restore', async () => {
  const canvas2 = document.createElement('canvas');
  const gl2 = canvas2.getContext('webgl2');
  const own = await createXfb({ gl: gl2 });
  const vertices = pseudoRandom(4 * 6, -1, 1, 5);
  const program = own.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0; }' });
  const input = own.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 6, data: vertices, restore: 'initial' });
  const out = own.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 12 });
  const capture = own.createCapture(program, [{ input }, { output: out }]);
  const want = new Float32Array(expand('triangle_fan', [[0, 1, 2, 3, 4, 5]]).flatMap((v) => [...vertices.subarray(v * 4, v * 4 + 4)].map((x) => f(x * 2))));
  capture.capture({ mode: 'triangle_fan', count: 6 });
  assertArrayEqual(await out.read(), want, 'before the loss');
  const lost = nextEvent(own, 'contextlost'), restored = nextEvent(own, 'contextrestored');
  const ext = gl2.getExtension('WEBGL_lose_context');
  ext.loseContext();
  await lost;
  await expectError('XFB_CONTEXT_LOST', () => capture.capture({ mode: 'triangle_fan', count: 6 }));
  ext.restoreContext();
  await restored;
  capture.capture({ mode: 'triangle_fan', count: 6 });
  assertArrayEqual(await out.read(), want, 'after the restoration');
  own.dispose();
});
