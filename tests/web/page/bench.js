// Browser benchmark (not a test): the npm module against a hand-written WebGL2 transform-feedback
// loop, same shader and same page load, at 1e4, 1e5, 1e6 elements. Each round times a batch of
// steps of one variant, ended by a 4-byte getBufferSubData (the only way to wait for the GPU in
// a WebGL page without yielding); medians of the rounds. Run: node browser.mjs NPM_DIR bench
import { countCalls, createXfb, pseudoRandom } from './assert.js';

const source = await (await fetch('/shaders/bench_particles.vert')).text();
const canvas = document.createElement('canvas');
const gl = canvas.getContext('webgl2');
const calls = countCalls(gl);
const xfb = await createXfb({ gl });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function handwritten(n, initial) {
  const compile = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, source));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }'));
  gl.bindAttribLocation(program, 0, 'position');
  gl.bindAttribLocation(program, 1, 'velocity');
  gl.transformFeedbackVaryings(program, ['out_position', 'out_velocity'], gl.INTERLEAVED_ATTRIBS);
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.uniform1f(gl.getUniformLocation(program, 'dt'), 1 / 64);
  const buffers = [0, 1].map((i) => { const b = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, i ? initial.byteLength : initial, gl.DYNAMIC_COPY); return b; });
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  const vaos = [], tfs = [];
  for (let s = 0; s < 2; s++) {
    vaos[s] = gl.createVertexArray();
    gl.bindVertexArray(vaos[s]);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffers[s]);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 32, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 32, 16);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    tfs[s] = gl.createTransformFeedback();
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tfs[s]);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffers[1 - s]);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  }
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  let side = 0;
  return {
    step() {
      gl.useProgram(program);
      gl.bindVertexArray(vaos[side]);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tfs[side]);
      gl.enable(gl.RASTERIZER_DISCARD);
      gl.beginTransformFeedback(gl.POINTS);
      gl.drawArrays(gl.POINTS, 0, n);
      gl.endTransformFeedback();
      gl.disable(gl.RASTERIZER_DISCARD);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
      side ^= 1;
    },
    current: () => buffers[side],
  };
}

const results = [];
for (const n of [1e4, 1e5, 1e6]) {
  test(`${n} elements`, async ({ note }) => {
    const initial = pseudoRandom(n * 8, -1, 1, 7);
    const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
    const a = xfb.createBuffer({ format, count: n, data: initial }), b = xfb.createBuffer({ format, count: n });
    const program = xfb.createProgram({ source });
    program.setUniform('dt', 1 / 64);
    const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
    const hand = handwritten(n, initial);
    const variants = { engine: { step: () => pipeline.step(), current: () => a.glBuffer }, handwritten: hand };
    const batch = n >= 1e6 ? 3 : 10, rounds = 7, probe = new Uint8Array(4);
    const ms = { engine: [], handwritten: [] }, perStep = {};
    for (const [name, v] of Object.entries(variants)) { v.step(); v.step(); }
    for (let r = 0; r < rounds; r++)
      for (const [name, v] of Object.entries(variants)) {
        calls.reset();
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) v.step();
        perStep[name] = calls.total() / batch;
        gl.bindBuffer(gl.COPY_READ_BUFFER, v.current());
        gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe);
        gl.bindBuffer(gl.COPY_READ_BUFFER, null);
        ms[name].push((performance.now() - t0) / batch);
      }
    const row = { elements: n, engine_ms: median(ms.engine), handwritten_ms: median(ms.handwritten), engine_gl_calls: perStep.engine, handwritten_gl_calls: perStep.handwritten };
    row.ratio = row.engine_ms / row.handwritten_ms;
    results.push(row);
    note(JSON.stringify(row));
    for (const o of [pipeline, program, a, b]) o.dispose();
  });
}
test('summary', async ({ note }) => { note(`BENCH ${JSON.stringify(results)}`); });
