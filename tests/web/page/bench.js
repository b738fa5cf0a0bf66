// Browser benchmark (not a test): the npm module's WebGL2 engine against a hand-written WebGL2
// transform-feedback loop and against the WebGPU engine (the same GLSL translated to a WGSL
// compute pass), same shader and same page load, at 1e4, 1e5, 1e6 elements. Each round times a
// batch of steps of one variant, ended by waiting for the GPU: WebGL2 a 4-byte getBufferSubData
// (the only way without yielding), WebGPU onSubmittedWorkDone; medians of the rounds. Without
// WebGPU in the browser the WebGPU column is null. Run: node browser.mjs NPM_DIR bench
import { countCalls, createXfb, pseudoRandom } from './assert.js';

const source = await (await fetch('/shaders/bench_particles.vert')).text();
const canvas = document.createElement('canvas');
const gl = canvas.getContext('webgl2');
const calls = countCalls(gl);
const xfb = await createXfb({ gl });
const webgpu = navigator.gpu ? await createXfb({ backend: 'webgpu' }).catch(() => null) : null;
const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
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
    const a = xfb.createBuffer({ format, count: n, data: initial }), b = xfb.createBuffer({ format, count: n });
    const program = xfb.createProgram({ source });
    program.setUniform('dt', 1 / 64);
    const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
    const hand = handwritten(n, initial);
    const probe = new Uint8Array(4);
    const glWait = (buffer) => () => {
      gl.bindBuffer(gl.COPY_READ_BUFFER, buffer());
      gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe);
      gl.bindBuffer(gl.COPY_READ_BUFFER, null);
    };
    const variants = { engine: { step: () => pipeline.step(), wait: glWait(() => a.glBuffer) }, handwritten: { step: hand.step, wait: glWait(hand.current) } };
    const gpuObjects = [];
    if (webgpu) {
      const ga = webgpu.createBuffer({ format, count: n, data: initial }), gb = webgpu.createBuffer({ format, count: n });
      const gprogram = webgpu.createProgram({ source });
      gprogram.setUniform('dt', 1 / 64);
      const gpipeline = webgpu.createPipeline(gprogram, [{ input: ga, output: gb }]);
      await gpipeline.ready;
      gpuObjects.push(gpipeline, gprogram, ga, gb);
      variants.webgpu = { step: () => gpipeline.step(), wait: () => webgpu.device.queue.onSubmittedWorkDone() };
    }
    const batch = n >= 1e6 ? 3 : 10, rounds = 7;
    const ms = Object.fromEntries(Object.keys(variants).map((k) => [k, []])), perStep = {};
    for (const v of Object.values(variants)) { v.step(); v.step(); await v.wait(); }
    for (let r = 0; r < rounds; r++)
      for (const [name, v] of Object.entries(variants)) {
        calls.reset();
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) v.step();
        perStep[name] = calls.total() / batch;
        await v.wait();
        ms[name].push((performance.now() - t0) / batch);
      }
    const row = { elements: n, engine_ms: median(ms.engine), handwritten_ms: median(ms.handwritten), webgpu_ms: webgpu ? median(ms.webgpu) : null,
      engine_gl_calls: perStep.engine, handwritten_gl_calls: perStep.handwritten };
    row.ratio = row.engine_ms / row.handwritten_ms;
    row.webgpu_ratio = webgpu ? row.webgpu_ms / row.engine_ms : null;
    results.push(row);
    note(JSON.stringify(row));
    for (const o of [pipeline, program, a, b, ...gpuObjects]) o.dispose();
  });
}
test('summary', async ({ note }) => { note(`BENCH ${JSON.stringify(results)}`); });
