// Issue 27: createPipeline(program, entries, { rasterize: true }) on WebGL2 simulates and draws the
// elements as points in one pass (pixels read back from a framebuffer, the state against a plain
// step's and the JS reference); WebGPU refuses rasterize (no transform feedback).
import { assert, assertArrayEqual, createXfb, expectError } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas });
const gl = xfb.gl;
const SIDE = 16;
const N = 8;
const format = [{ semantic: 'ATTR0', components: 4 }];
const source = `#version 300 es
layout(location = 0) in vec4 a_state;
out vec4 out_state;
void main() {
    out_state = vec4(a_state.xy + a_state.zw, a_state.zw);
    gl_Position = vec4(out_state.xy, 0.0, 1.0);
    gl_PointSize = 1.0;
}
`;
const fragment = `#version 300 es
precision mediump float;
out vec4 color;
void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }
`;
// Particle e starts on the centre of pixel (e, 2e mod 16) and moves one pixel right a step.
const centre = (i) => (i + 0.5) / (SIDE / 2) - 1;
const initial = () => {
  const v = new Float32Array(N * 4);
  for (let e = 0; e < N; e++) v.set([centre(e), centre((2 * e) % SIDE), 2 / SIDE, 0], e * 4);
  return v;
};
const reference = (steps) => {
  const v = initial();
  for (let e = 0; e < N; e++) v[e * 4] = Math.fround(v[e * 4] + steps * (2 / SIDE));
  return v;
};
const expected = (steps) => Array.from({ length: N }, (_, e) => `${e + steps},${(2 * e) % SIDE}`).join(' ');

/** A 16 x 16 RGBA8 framebuffer the test binds and reads back. */
function target() {
  const fbo = gl.createFramebuffer();
  const color = gl.createRenderbuffer();
  gl.bindRenderbuffer(gl.RENDERBUFFER, color);
  gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, SIDE, SIDE);
  gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
  gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color);
  const clear = () => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    gl.viewport(0, 0, SIDE, SIDE);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
  };
  const lit = () => {
    const px = new Uint8Array(SIDE * SIDE * 4);
    gl.readPixels(0, 0, SIDE, SIDE, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const out = [];
    for (let k = 0; k < SIDE * SIDE; k++) if (px[k * 4] > 128) out.push(`${k % SIDE},${Math.floor(k / SIDE)}`);
    return out.sort((a, b) => a.split(',')[1] - b.split(',')[1]).join(' ');
  };
  const dispose = () => {
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.deleteFramebuffer(fbo);
    gl.deleteRenderbuffer(color);
  };
  return { fbo, clear, lit, dispose };
}

test('WebGL2: a rasterizing step draws the points into the bound framebuffer and captures the plain step\'s state', async ({ note }) => {
  note(xfb.capabilities.renderer);
  const screen = target();
  // [docs:pipeline-rasterize-js]
  const program = xfb.createProgram({ source, fragment }); // the points are drawn with `fragment`
  const state = xfb.createBuffer({ format, count: N, data: initial() });
  const next = xfb.createBuffer({ format, count: N });
  const particles = xfb.createPipeline(program, [{ input: state, output: next }], { rasterize: true });
  screen.clear(); // your framebuffer, viewport and blending receive the points
  particles.step(); // simulates, captures and draws in one pass
  // [docs:end]
  assert(screen.lit() === expected(1), `lit pixels ${screen.lit()}, expected ${expected(1)}`);
  assertArrayEqual(await state.read(), reference(1), 'the rasterizing step\'s state');
  assert(particles.info.backend === 'tf', `backend ${particles.info.backend}`);
  assert(/rasterizes/.test(particles.info.backendReason), particles.info.backendReason);
  assert(gl.getParameter(gl.FRAMEBUFFER_BINDING) === screen.fbo, 'the framebuffer stays bound');
  assert(!gl.isEnabled(gl.RASTERIZER_DISCARD), 'discard off, as found');

  // The same program without rasterize: the same bytes, nothing drawn.
  const plainState = xfb.createBuffer({ format, count: N, data: initial() });
  const plainNext = xfb.createBuffer({ format, count: N });
  const plain = xfb.createPipeline(program, [{ input: plainState, output: plainNext }], { backend: 'tf' });
  screen.clear();
  plain.step();
  assert(screen.lit() === '', `the plain step drew ${screen.lit()}`);
  assertArrayEqual(await plainState.read(), await state.read(), 'plain step vs rasterizing step');

  // Discard left on by the application: the points are drawn all the same, discard is on again after.
  screen.clear();
  gl.enable(gl.RASTERIZER_DISCARD);
  xfb.steps([particles]); // the batch path: this pipeline's step is never replayed from JavaScript
  assert(gl.isEnabled(gl.RASTERIZER_DISCARD), 'the application\'s discard is back');
  gl.disable(gl.RASTERIZER_DISCARD);
  assert(screen.lit() === expected(2), `after steps(): ${screen.lit()}`);

  // step(k): k passes, only the last draws.
  assert(!particles.fusion().fused, 'not fused with rasterize');
  screen.clear();
  particles.step(3);
  assert(screen.lit() === expected(5), `after step(3): ${screen.lit()}`);
  assertArrayEqual(await state.read(), reference(5), 'after step(3)');
  screen.dispose();
  for (const o of [particles, plain, program, state, next, plainState, plainNext]) o.dispose();
});

test('WebGL2: rasterize refusals (no fragment shader, the fragment backend, setBackend)', async () => {
  const state = xfb.createBuffer({ format, count: N, data: initial() });
  const next = xfb.createBuffer({ format, count: N });
  const bare = xfb.createProgram({ source, label: 'bare' });
  let e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(bare, [{ input: state, output: next }], { rasterize: true }));
  assert(e.message.includes("program 'bare' has no fragment shader"), e.message);
  const program = xfb.createProgram({ source, fragment });
  e = await expectError('XFB_UNSUPPORTED', () => xfb.createPipeline(program, [{ input: state, output: next }], { rasterize: true, backend: 'fragment' }));
  assert(e.message.includes('rasterize: the fragment backend has no pass that draws'), e.message);
  const pipeline = xfb.createPipeline(program, [{ input: state, output: next }], { rasterize: true });
  e = await expectError('XFB_UNSUPPORTED', () => pipeline.setBackend('fragment'));
  assert(e.message.includes('rasterize: the fragment backend'), e.message);
  assert(pipeline.info.backend === 'tf', 'still transform feedback');
  pipeline.step();
  assertArrayEqual(await state.read(), reference(1), 'a step after the refusals');
  for (const o of [pipeline, program, bare, state, next]) o.dispose();
});

test('WebGPU: rasterize is XFB_UNSUPPORTED (no transform feedback)', async () => {
  const adapter = await navigator.gpu?.requestAdapter();
  assert(adapter, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
  const gpu = await createXfb({ device: await adapter.requestDevice() });
  // The simulation without the rasterizer's outputs; `fragment` is accepted and unused: WebGPU never rasterizes a step.
  const program = gpu.createProgram({ source: source.replace(/^ *gl_Po.*\n/gm, ''), fragment });
  const state = gpu.createBuffer({ format, count: N, data: initial() });
  const next = gpu.createBuffer({ format, count: N });
  const e = await expectError('XFB_UNSUPPORTED', () => gpu.createPipeline(program, [{ input: state, output: next }], { rasterize: true }));
  assert(e.message.includes('rasterize needs transform feedback, and WebGPU has none'), e.message);
  const pipeline = gpu.createPipeline(program, [{ input: state, output: next }], { rasterize: false });
  pipeline.step();
  assertArrayEqual(await state.read(), reference(1), 'WebGPU step without rasterize');
  gpu.dispose();
});
