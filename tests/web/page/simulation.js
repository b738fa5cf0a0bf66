// The core GL scenarios through the JavaScript API on WebGL2 (SwiftShader), against JS references.
import { assert, assertArrayEqual, createXfb, expectError, flockStep, particlesStep, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas });
const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];

test('interleaved particles: 40 swap steps equal the JS reference element by element', async ({ note }) => {
  note(`${xfb.capabilities.renderer}`);
  const n = 1000;
  const ref = pseudoRandom(n * 8, -1, 1, 7);
  for (let e = 0; e < n; e++) ref[e * 8 + 3] = 0.0625 * (e % 40);
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = xfb.createBuffer({ format, count: n, data: ref });
  const scratch = xfb.createBuffer({ format, count: n });
  const program = xfb.createProgram({ source: await shader('particles.vert'), mode: 'interleaved' });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: scratch }]);
  program.setUniform('dt', 0.015625);
  program.setUniform('gravity', [0, -9.75, 0.5]);
  const first = state.glBuffer;
  for (let s = 1; s <= 40; s++) {
    pipeline.step();
    particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
    if (s === 1) assert(state.glBuffer !== first, 'after a swap the handle names the other WebGLBuffer');
  }
  assertArrayEqual(await state.read(), ref, 'particle state');
  assert(pipeline.info.steps === 40, 'steps counted');
});

test('separate mode with all three roles', async () => {
  const n = 257;
  const pos = pseudoRandom(n * 4, -4, 4, 1), vel = pseudoRandom(n * 4, -1, 1, 2), params = pseudoRandom(n * 2, 0.25, 2, 3);
  const inst = new Float32Array(n * 4);
  const position = xfb.createBuffer({ format: vec4(0), count: n, data: pos });
  const positionOut = xfb.createBuffer({ format: vec4(0), count: n });
  const velocity = xfb.createBuffer({ format: vec4(1), count: n, data: vel });
  const velocityOut = xfb.createBuffer({ format: vec4(1), count: n });
  const constants = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: params });
  const instances = xfb.createBuffer({ format: vec4(12), count: n });
  const program = xfb.createProgram({ source: await shader('flock_separate.vert'), mode: 'separate' });
  const pipeline = xfb.createPipeline(program, [{ input: position, output: positionOut }, { input: velocity, output: velocityOut }, { input: constants }, { output: instances }]);
  assert(JSON.stringify(pipeline.info.outputs.map((o) => [o.entry, o.binding])) === '[[0,0],[1,1],[3,2]]', 'output bindings skip the {input} entry');
  program.setUniform('dt', 0.125);
  for (let s = 1; s <= 25; s++) {
    const target = [(s % 5) - 2, 1, -0.5 * (s % 3)];
    program.setUniform('target', target);
    pipeline.step();
    flockStep(pos, vel, params, inst, 0.125, target);
  }
  assertArrayEqual(await position.read(), pos, 'position');
  assertArrayEqual(await velocity.read(), vel, 'velocity');
  assertArrayEqual(await instances.read(), inst, 'instances');
  assertArrayEqual(await constants.read(), params, 'constants (never written)');
});

test('the 36-byte layout: offsets 0, 16, 28, and the captured buffer read back as vertex input', async () => {
  const program = xfb.createProgram({ source: await shader('layout36.vert') });
  const layout = program.plan.buffers[0];
  assert(layout.stride === 36, `stride ${layout.stride}`);
  assert(layout.fields.map((f) => f.offset).join() === '0,16,28', 'offsets 0, 16, 28');
  const n = 32;
  const input = pseudoRandom(n * 9, -2, 2, 11);
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
  const source = xfb.createBuffer({ format, count: n, data: input });
  const captured = xfb.createBuffer({ format, count: n });
  assert(captured.layout.attributes.map((a) => a.offset).join() === '0,16,28', 'the same offsets describe it as vertex input');
  const first = xfb.createPipeline(program, [{ input: source }, { output: captured }]);
  program.setUniform('scale', 2);
  first.step();
  const ref = new Float32Array(input.length);
  for (let e = 0; e < n; e++) {
    const s = input.subarray(e * 9), d = ref.subarray(e * 9);
    d[0] = Math.fround(s[0] * 2); d[1] = Math.fround(s[1] * 2); d[2] = Math.fround(s[2] * 2); d[3] = s[3];
    d[4] = s[6]; d[5] = s[4]; d[6] = s[5]; d[7] = Math.fround(s[7] + 0.5); d[8] = Math.fround(s[8] + 0.25);
  }
  assertArrayEqual(await captured.read(), ref, '36-byte records');
  const again = xfb.createBuffer({ format, count: n });
  xfb.createPipeline(program, [{ input: captured }, { output: again }]).step();
  const g = await again.read();
  for (let e = 0; e < n; e++) assert(g[e * 9 + 7] === Math.fround(ref[e * 9 + 7] * 1 + 0.5) || g[e * 9 + 7] === Math.fround(ref[e * 9 + 7] + 0.5), `uv after re-binding, element ${e}`);
});

test('a checked step detects a short write and keeps the state', async () => {
  const n = 64;
  const data = pseudoRandom(n * 4, 0, 1, 5);
  const a = xfb.createBuffer({ format: vec4(0), count: n, data });
  const b = xfb.createBuffer({ format: vec4(0), count: n });
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(1.0); }' });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  const report = await pipeline.stepChecked();
  assert(report.written === n && report.expected === n, `report ${JSON.stringify(report)}`);
  const expected = data.map((x) => Math.fround(x + 1));
  // Foreign code shrinks the buffer the next step writes into.
  const gl = xfb.gl;
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, b.glBuffer);
  gl.bufferData(gl.COPY_WRITE_BUFFER, 16 * (n / 2), gl.DYNAMIC_COPY);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
  const e = await expectError('XFB_SHORT_WRITE', () => pipeline.stepChecked());
  assert(e.message.includes('not swapped'), e.message);
  assertArrayEqual(await a.read(), expected, 'state after the refused step');
  assert(pipeline.info.steps === 1, 'not counted');
  assert(gl.getError() === gl.NO_ERROR, 'no GL error left behind');
});

test('the user draws from the latest state with their own WebGL2 code', async () => {
  const n = 16;
  const a = xfb.createBuffer({ format: vec4(0), count: n, data: pseudoRandom(n * 4, 0, 1, 9) });
  const b = xfb.createBuffer({ format: vec4(0), count: n });
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 0.5; }' });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  pipeline.step();
  const gl = xfb.gl;
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, a.glBuffer); // allowed: nothing stays bound for transform feedback
  const { stride, attributes } = a.layout;
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, attributes[0].components, gl.FLOAT, false, stride, attributes[0].offset);
  const vs = gl.createShader(gl.VERTEX_SHADER);
  gl.shaderSource(vs, '#version 300 es\nin vec4 p;\nvoid main() { gl_Position = vec4(p.xy, 0.0, 1.0); gl_PointSize = 1.0; }');
  gl.compileShader(vs);
  const fs = gl.createShader(gl.FRAGMENT_SHADER);
  gl.shaderSource(fs, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }');
  gl.compileShader(fs);
  const prog = gl.createProgram();
  gl.attachShader(prog, vs); gl.attachShader(prog, fs); gl.linkProgram(prog);
  gl.useProgram(prog);
  gl.drawArrays(gl.POINTS, 0, n);
  assert(gl.getError() === gl.NO_ERROR, 'drawing from the state buffer raises no GL error');
  gl.bindVertexArray(null);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  for (const o of [vs, fs]) gl.deleteShader(o);
  gl.deleteProgram(prog);
  gl.deleteVertexArray(vao);
});
