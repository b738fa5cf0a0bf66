// Append captures on WebGL2 (SwiftShader): several draws into one buffer at planned record
// ranges (captureSession), byte for byte against single captures and a JS reference; offsets,
// capacity and layout refusals; drawSession draws one part or all of them.
import { assert, assertArrayEqual, createXfb, expectError, pseudoRandom, redCoverage, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas, contextAttributes: { preserveDrawingBuffer: true } });
const gl = xfb.gl;
const f = Math.fround;

const meshShader = await shader('capture_mesh.vert'); // 36-byte records: vec4 position + vec3 normal + vec2 uv
const inputFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }];
const recordFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
const otherShader = await shader('capture_mesh_second_material.vert'); // the same record layout, computed differently

const n = 24;
const vertices = pseudoRandom(n * 6, -1, 1, 11);
const mesh = xfb.createProgram({ source: meshShader, label: 'mesh' });
mesh.setUniform('u_scale', 2);
const other = xfb.createProgram({ source: otherShader, label: 'other' });
const input = xfb.createBuffer({ format: inputFormat, count: n, data: vertices });
// What each program writes for vertex v, computed here without the engine.
const recordOf = {
  mesh: (v) => { const p = vertices.subarray(v * 6, v * 6 + 6); return [f(p[0] * 2), f(p[1] * 2), f(f(p[2] * 2) + v), f(p[3] * 2), p[5], -p[4], 1, f(p[4] * 2), f(p[5] * 2)]; },
  other: (v) => { const p = vertices.subarray(v * 6, v * 6 + 6); return [f(p[0] * 3), f(p[1] * 3), f(f(p[2] * 3) - v), f(p[3] * 3), p[4], p[5], 0.5, p[4], p[5]]; },
};
const R = 0xFFFFFFFF;
const indices = [3, 9, 4, R, 20, 21, 22, 23, 2];
// Parts (sources per record from the GL's decomposition, written out by hand).
const parts = [
  { part: { mode: 'triangle_strip', count: 5 }, material: 'mesh', sources: [0, 1, 2, 2, 1, 3, 2, 3, 4] },
  { part: { mode: 'line_loop', count: 3, program: other }, material: 'other', sources: [0, 1, 1, 2, 2, 0] },
  { part: { mode: 'triangle_fan', indices: new Uint32Array(indices), restartIndex: R }, material: 'mesh', sources: [3, 9, 4, 20, 21, 22, 20, 22, 23, 20, 23, 2] },
];
const reference = new Float32Array(parts.flatMap((p) => p.sources.flatMap(recordOf[p.material])));

test('a three-part session equals three single captures laid end to end, and the reference', async () => {
  const out = xfb.createBuffer({ format: recordFormat, count: 40 });
  const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
  const s = capture.captureSession(parts.map((p) => p.part));
  assert(s.firstRecord === 0 && s.endRecord === 27 && s.endBytes[0] === 27 * 36, JSON.stringify(s));
  assert(s.parts.map((p) => `${p.primitive}@${p.firstRecord}+${p.records}`).join() === 'triangles@0+9,lines@9+6,triangles@15+12', JSON.stringify(s.parts));
  assert(s.parts[2].firstByte[0] === 540 && s.parts[2].bytes[0] === 432, JSON.stringify(s.parts[2]));
  assertArrayEqual((await out.read()).subarray(0, 27 * 9), reference, 'session vs reference');
  // The same parts captured one by one, each with its own program.
  const singles = [];
  for (const p of parts) {
    const single = xfb.createBuffer({ format: recordFormat, count: 40 });
    const { program, ...draw } = p.part;
    const c = xfb.createCapture(program ?? mesh, [{ input }, { output: single }]).capture(draw);
    singles.push(...(await single.read()).subarray(0, c.records * 9));
  }
  assertArrayEqual((await out.read()).subarray(0, 27 * 9), new Float32Array(singles), 'session vs single captures');
  assert(gl.getError() === gl.NO_ERROR, 'no WebGL error');
});

test('a session at a record offset leaves the records before and after it untouched', async () => {
  const before = new Float32Array(40 * 9).map((_, i) => -1000 - i);
  const out = xfb.createBuffer({ format: recordFormat, count: 40, data: before });
  const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
  const s = capture.captureSession(parts.map((p) => p.part), { firstRecord: 7 });
  assert(s.firstRecord === 7 && s.endRecord === 34 && s.parts[1].firstRecord === 16, JSON.stringify(s));
  const want = before.slice();
  want.set(reference, 7 * 9);
  assertArrayEqual(await out.read(), want, 'sentinels, the session, sentinels');
});

test('an overflowing session is refused with both sizes and writes nothing', async () => {
  const before = new Float32Array(30 * 9).fill(42);
  const out = xfb.createBuffer({ format: recordFormat, count: 30, data: before });
  const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
  const e = await expectError('XFB_CAPACITY', () => capture.captureSession(parts.map((p) => p.part), { firstRecord: 4 }));
  assert(e.message.includes('holds 1080 bytes (30 records)') && e.message.includes('needs 1116 bytes'), e.message);
  assertArrayEqual(await out.read(), before, 'untouched');
  await expectError('XFB_INVALID_ARGUMENT', () => capture.drawSession());
  for (const firstRecord of [1e300, 2 ** 53, -1, NaN, 2.5, '3'])
    await expectError('XFB_INVALID_ARGUMENT', () => capture.captureSession(parts.map((p) => p.part), { firstRecord }));
  await expectError('XFB_CAPACITY', () => capture.captureSession(parts.map((p) => p.part), { firstRecord: 2 ** 53 - 1 }));
  assertArrayEqual(await out.read(), before, 'untouched by refused sessions');
  assert(capture.captureSession(parts.map((p) => p.part), { firstRecord: 3 }).endRecord === 30, 'fits from record 3');
});

test('a part whose program writes another layout is refused, naming both layouts', async () => {
  const reordered = xfb.createProgram({ label: 'reordered', source: await shader('capture_mesh_reordered.vert') });
  const out = xfb.createBuffer({ format: recordFormat, count: 40 });
  const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
  const e = await expectError('XFB_OUTPUT_LAYOUT_MISMATCH', () => capture.captureSession([{ mode: 'triangles', count: 3 }, { mode: 'triangles', count: 3, program: reordered }]));
  assert(e.message.includes("program 'reordered' writes records as {interleaved, buffer 0 stride 36: out_position vec4 @0, out_uv vec2 @16, out_normal vec3 @24}"), e.message);
  assert(e.message.includes("'mesh' writes {interleaved, buffer 0 stride 36: out_position vec4 @0, out_normal vec3 @16, out_uv vec2 @28}"), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => capture.captureSession([]));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.captureSession([{ mode: 'triangles', count: 3 }], { firstRecord: -1 }));
  await expectError('XFB_INVALID_ARGUMENT', () => capture.captureSession([{ mode: 'triangles', count: 3, program: 7 }]));
  assert(gl.getError() === gl.NO_ERROR, 'no WebGL error');
});

test('drawSession draws exactly one part, or all of them, with the planned ranges', async () => {
  const quad = xfb.createProgram({ source: '#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = a_position; }' });
  const up = xfb.createProgram({ source: '#version 300 es\nin vec4 a_position;\nout vec4 out_position;\nvoid main() { out_position = a_position + vec4(0.0, 1.0, 0.0, 0.0); }' });
  // Quads as strips: bottom-left (vertices 0..3), bottom-right (4..7); `up` moves one to the top-left.
  const quads = new Float32Array([-1, -1, 0, 1, 0, -1, 0, 1, -1, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 1, 1, -1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1]);
  const corners = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 8, data: quads });
  const stale = new Float32Array(24 * 4);
  for (let k = 0; k < 8; k++) stale.set([0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1], k * 12); // top-right wherever a wrong range reads
  const out = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 24, data: stale });
  const capture = xfb.createCapture(quad, [{ input: corners }, { output: out }]);
  const s = capture.captureSession([{ mode: 'triangle_strip', indices: [4, 5, 6, 7] }, { mode: 'triangle_strip', count: 4 }, { mode: 'triangle_strip', count: 4, program: up }], { firstRecord: 3 });
  assert(s.parts[2].firstRecord === 15, JSON.stringify(s));

  // Lit pixels per quadrant: bottom-left, bottom-right, top-left, top-right.
  const coverage = redCoverage(gl, out.glBuffer);
  const quadrants = (options) => coverage.quadrants(() => capture.drawSession(options)).join();
  const Q = 32 * 32;
  assert(quadrants({ part: 0 }) === `0,${Q},0,0`, `part 0: ${quadrants({ part: 0 })}`);
  assert(quadrants({ part: 1 }) === `${Q},0,0,0`, `part 1: ${quadrants({ part: 1 })}`);
  assert(quadrants({ part: 2, instances: 3 }) === `0,0,${Q},0`, `part 2: ${quadrants({ part: 2, instances: 3 })}`);
  assert(quadrants({}) === `${Q},${Q},${Q},0`, `whole: ${quadrants({})}`);
  const e = await expectError('XFB_INVALID_ARGUMENT', () => capture.drawSession({ part: 3 }));
  assert(e.message.includes('the session has 3 parts'), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => capture.drawCaptured());
  assert(gl.getError() === gl.NO_ERROR, 'no WebGL error');
  coverage.dispose();
});
