// Shared by the engine suites (three, babylon, playcanvas): xfb work that runs between an
// engine's frames (a particle pipeline and a primitive capture, each checked against a JS
// reference), pixel comparison of the engine's frames, and GL error checks. The engines come from
// tests/web/node_modules, served under /modules/ (page/modules links there).
import { assert, assertArrayEqual, createXfb, particlesStep, pseudoRandom, shader } from './assert.js';

export { assert, assertArrayEqual, createXfb, pseudoRandom };
export { followBuffer, createdBuffers } from '/npm/index.js';

const f = Math.fround;
const particlesSource = await shader('particles.vert');
const meshSource = await shader('capture_mesh.vert');
export const SIZE = 64;

/** A canvas with a WebGL2 context that keeps its drawing buffer (read back after a frame). */
export function context() {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = SIZE;
  document.body.appendChild(canvas);
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false, alpha: false });
  return { canvas, gl };
}

/** A particle pipeline and a triangle-strip capture, each with its JS reference, on `target`: a
 *  WebGL2 context (an engine's) or a GPUDevice (an engine's WebGPU device); `options` go to
 *  createXfb(), `steps` per run() (the WebGPU recipes run two). */
export async function xfbWork(target, options = {}, { steps = 1 } = {}) {
  const onDevice = typeof GPUDevice !== 'undefined' && target instanceof GPUDevice;
  const xfb = await createXfb({ ...(onDevice ? { device: target } : { gl: target }), ...options });
  if (onDevice) assert(xfb.device === target, "xfb runs on the engine's device");
  const n = 400;
  const ref = pseudoRandom(n * 8, -1, 1, 21);
  for (let e = 0; e < n; e++) ref[e * 8 + 3] = 0.0625 * (e % 40);
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = xfb.createBuffer({ format, count: n, data: ref });
  const scratch = xfb.createBuffer({ format, count: n });
  const program = xfb.createProgram({ source: particlesSource });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: scratch }]);
  program.setUniform('dt', 0.015625);
  program.setUniform('gravity', [0, -9.75, 0.5]);

  const vertices = pseudoRandom(4 * 6, -1, 1, 7);
  const mesh = xfb.createProgram({ source: meshSource });
  mesh.setUniform('u_scale', 2);
  const input = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }], count: 4, data: vertices });
  const out = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }], count: 6 });
  const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
  if (onDevice) await Promise.all([pipeline.ready, capture.ready]); // WebGPU compiles asynchronously
  const record = (v) => { const p = vertices.subarray(v * 6, v * 6 + 6); return [f(p[0] * 2), f(p[1] * 2), f(f(p[2] * 2) + v), f(p[3] * 2), p[5], -p[4], 1, f(p[4] * 2), f(p[5] * 2)]; };
  const expected = new Float32Array([0, 1, 2, 2, 1, 3].flatMap(record));
  let stepped = 0;
  return {
    xfb,
    /** One capture and `steps` steps, as an application would run them between frames. */
    run() {
      const c = capture.capture({ mode: 'triangle_strip', count: 4 });
      assert(c.records === 6, `capture: ${JSON.stringify(c)}`);
      for (let s = 0; s < steps; s++) {
        pipeline.step(); // last, so a step's vertex array is the one an engine could write into
        particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
        stepped++;
      }
    },
    async check() {
      assertArrayEqual(await state.read(), ref, `particles after ${stepped} steps between the engine's frames`);
      assertArrayEqual(await out.read(), expected, 'captured strip between the engine\'s frames');
      if (onDevice) return; // WebGPU: no GL errors to take
      const foreign = xfb.takeForeignGlErrors();
      assert(foreign.length === 0, `GL errors pending before xfb calls (the engine's): ${JSON.stringify(foreign)}`);
    },
  };
}

/**
 * The frame's pixels, read once the GPU has finished it: a fence is polled between tasks (WebGL
 * updates a sync's status only there) before readPixels. A readPixels that has to wait for the GPU
 * makes ANGLE log "GPU stall due to ReadPixels" on the console, which the runner counts as a WebGL
 * warning of the engine suites: seen in 2 of 12 three.js runs on a loaded machine.
 */
export async function pixels(gl) {
  const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  while (gl.clientWaitSync(sync, 0, 0) === gl.TIMEOUT_EXPIRED) await new Promise((resolve) => setTimeout(resolve, 1));
  gl.deleteSync(sync);
  const out = new Uint8Array(SIZE * SIZE * 4);
  gl.readPixels(0, 0, SIZE, SIZE, gl.RGBA, gl.UNSIGNED_BYTE, out);
  return out;
}

export function noGlError(gl, when) {
  const errors = [];
  for (let e = gl.getError(); e !== gl.NO_ERROR && errors.length < 8; e = gl.getError()) errors.push(`0x${e.toString(16)}`);
  assert(errors.length === 0, `GL error ${errors.join(', ')} ${when}`);
}

/** The pixel at (x, y) from the top-left, as [r, g, b, a]. */
export function pixelAt(p, x, y) {
  const i = ((SIZE - 1 - y) * SIZE + x) * 4;
  return [p[i], p[i + 1], p[i + 2], p[i + 3]];
}

/**
 * Renders a frame (`render()`, may return a promise), then `frames` more with xfb work between them; every frame must
 * equal the first pixel for pixel, no GL error may be raised, and xfb's results must equal the
 * reference. `interesting(p)` checks that the first frame shows the scene at all.
 */
export async function unchangedByXfb(gl, render, work, { frames = 3, interesting, note } = {}) {
  await render();
  noGlError(gl, 'in the engine\'s first frame');
  const first = await pixels(gl);
  if (interesting) interesting(first);
  for (let k = 1; k <= frames; k++) {
    work.run();
    noGlError(gl, `after xfb's step and capture before frame ${k}`);
    await render();
    noGlError(gl, `in the engine's frame ${k} after xfb's work`);
    const p = await pixels(gl);
    let differing = 0, firstAt = -1;
    for (let i = 0; i < p.length; i += 4)
      if (p[i] !== first[i] || p[i + 1] !== first[i + 1] || p[i + 2] !== first[i + 2]) { differing++; if (firstAt < 0) firstAt = i / 4; }
    assert(differing === 0, `frame ${k}: ${differing} of ${SIZE * SIZE} pixels differ from the frame rendered before any xfb call ` +
      `(first at x=${firstAt % SIZE}, y=${SIZE - 1 - Math.floor(firstAt / SIZE)}: ${[...p.subarray(firstAt * 4, firstAt * 4 + 4)]} vs ${[...first.subarray(firstAt * 4, firstAt * 4 + 4)]})`);
  }
  await work.check();
  noGlError(gl, 'after reading xfb\'s results');
  note?.(`${frames} frames with xfb work between them equal the first, pixel for pixel`);
}

/** How many pixels of `p` are not the background colour `bg` (r, g, b). */
export function coverage(p, bg) {
  let n = 0;
  for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - bg[0]) > 8 || Math.abs(p[i + 1] - bg[1]) > 8 || Math.abs(p[i + 2] - bg[2]) > 8) n++;
  return n;
}

/** A 16x16 RGBA canvas: opaque red left half, half-transparent blue right half, green top rows
 *  (so flipY and premultiplied alpha both matter to the engine's upload). */
export function imageCanvas() {
  const c = document.createElement('canvas');
  c.width = c.height = 16;
  const x = c.getContext('2d');
  x.fillStyle = 'rgba(255, 0, 0, 1)'; x.fillRect(0, 0, 8, 16);
  x.fillStyle = 'rgba(0, 0, 255, 0.5)'; x.fillRect(8, 0, 8, 16);
  x.fillStyle = 'rgba(0, 255, 0, 1)'; x.fillRect(0, 0, 16, 4);
  return c;
}

/** A "flipper" simulation whose output the engine draws: three vertices of a triangle in the
 *  left half; every step mirrors x, so the triangle alternates between the halves. */
export const FLIPPER = '#version 300 es\nin vec4 position;\nout vec4 out_position;\nvoid main() { out_position = vec4(-position.x, position.yzw); }\n';
export const TRIANGLE_LEFT = new Float32Array([-0.9, -0.8, 0, 1, -0.1, -0.8, 0, 1, -0.5, 0.8, 0, 1]);
