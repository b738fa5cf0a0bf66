// Browser measurement (not a test): the fragment backend of the WebGL2 engine against transform
// feedback, on SwiftShader, where fragments run in parallel and vertices less so. Variants, same
// shader (shaders/bench_particles.vert: position vec4 + velocity vec4, 32-byte records) and page:
//   handwritten_tf   a hand-written WebGL2 transform-feedback loop (9 calls a step);
//   engine_tf        xfb, { backend: 'tf' };
//   engine_fragment  xfb, { backend: 'fragment' } (texture upload, one pass, read-back into the buffer);
//   engine_auto      xfb, { backend: 'auto' } (what it chose is in the row);
//   gpu_computation_renderer  three.js's GPUComputationRenderer (render to RGBA32F textures, one
//                    variable each for position and velocity, a pass each: what a three.js user
//                    writes instead), on a WebGLRenderer of its own canvas, waited for with a
//                    1-pixel readRenderTargetPixels.
// Each round times a batch of steps of one variant, ended by a 4-byte getBufferSubData (the GPU
// done); medians of the rounds. After the timing every variant has taken the same number of steps:
// their states are compared byte for byte. Run: node browser.mjs NPM_DIR bench-fragment
import { handwritten } from '/demos/web/bench/core.js';
import { countCalls, createXfb, pseudoRandom } from './assert.js';
import * as THREE from '/modules/three/build/three.module.js';
import { GPUComputationRenderer } from '/modules/three/examples/jsm/misc/GPUComputationRenderer.js';

const source = await (await fetch('/shaders/bench_particles.vert')).text();
const canvas = document.createElement('canvas');
const gl = canvas.getContext('webgl2');
const calls = countCalls(gl);
const xfb = await createXfb({ gl });
const format = [
  { semantic: 'ATTR0', components: 4 },
  { semantic: 'ATTR1', components: 4 },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];


function engineLoop(n, initial, backend) {
  const a = xfb.createBuffer({ format, count: n, data: initial }),
    b = xfb.createBuffer({ format, count: n });
  const program = xfb.createProgram({ source });
  program.setUniform('dt', 1 / 64);
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }], { backend });
  return {
    a,
    pipeline,
    dispose() {
      for (const o of [pipeline, program, a, b]) o.dispose();
    },
  };
}

const probe = new Uint8Array(4);
const wait = (buffer) => () => {
  gl.bindBuffer(gl.COPY_READ_BUFFER, buffer());
  gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe);
  gl.bindBuffer(gl.COPY_READ_BUFFER, null);
};
const bytes = (buffer, n) => {
  const out = new Uint8Array(n * 32);
  gl.bindBuffer(gl.COPY_READ_BUFFER, buffer);
  gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out);
  gl.bindBuffer(gl.COPY_READ_BUFFER, null);
  return out;
};

// bench_particles.vert as two GPUComputationRenderer variables; position recomputes the new
// velocity from the old one (every variable reads the previous step's textures).
const threeRenderer = new THREE.WebGLRenderer({ canvas: document.createElement('canvas') });
function gpuComputation(n, initial) {
  const sizeX = n === 1e5 ? 400 : Math.round(Math.sqrt(n)),
    sizeY = n / sizeX;
  const compute = new GPUComputationRenderer(sizeX, sizeY, threeRenderer);
  const pos0 = compute.createTexture(),
    vel0 = compute.createTexture();
  for (let e = 0; e < n; e++)
    for (let c = 0; c < 4; c++) {
      pos0.image.data[e * 4 + c] = initial[e * 8 + c];
      vel0.image.data[e * 4 + c] = initial[e * 8 + 4 + c];
    }
  const velocity = compute.addVariable(
    'textureVelocity',
    'uniform float dt;\nvoid main() {\n  vec2 uv = gl_FragCoord.xy / resolution.xy;\n  gl_FragColor = texture2D(textureVelocity, uv) + vec4(0.0, -9.81, 0.0, 0.0) * dt;\n}\n',
    vel0,
  );
  const position = compute.addVariable(
    'texturePosition',
    'uniform float dt;\nvoid main() {\n  vec2 uv = gl_FragCoord.xy / resolution.xy;\n  vec4 v = texture2D(textureVelocity, uv) + vec4(0.0, -9.81, 0.0, 0.0) * dt;\n  gl_FragColor = texture2D(texturePosition, uv) + v * dt;\n}\n',
    pos0,
  );
  compute.setVariableDependencies(velocity, [velocity]);
  compute.setVariableDependencies(position, [position, velocity]);
  velocity.material.uniforms.dt = { value: 1 / 64 };
  position.material.uniforms.dt = { value: 1 / 64 };
  const error = compute.init();
  if (error) throw new Error(error);
  const pixel = new Float32Array(4);
  const read = (variable, out) =>
    threeRenderer.readRenderTargetPixels(compute.getCurrentRenderTarget(variable), 0, 0, sizeX, sizeY, out);
  return {
    step: () => compute.compute(),
    wait: () => threeRenderer.readRenderTargetPixels(compute.getCurrentRenderTarget(position), 0, 0, 1, 1, pixel),
    bytes() {
      const p = new Float32Array(n * 4),
        v = new Float32Array(n * 4),
        out = new Float32Array(n * 8);
      read(position, p);
      read(velocity, v);
      for (let e = 0; e < n; e++)
        for (let c = 0; c < 4; c++) ((out[e * 8 + c] = p[e * 4 + c]), (out[e * 8 + 4 + c] = v[e * 4 + c]));
      return new Uint8Array(out.buffer);
    },
    dispose: () => compute.dispose(),
  };
}

const results = [];
for (const n of [1e4, 1e5, 1e6]) {
  test(`${n} elements`, async ({ note }) => {
    const initial = pseudoRandom(n * 8, -1, 1, 7);
    const hand = handwritten(gl, source, n, initial); // demos/web/bench/core.js: the gallery's and ./xfb bench's loop
    const tf = engineLoop(n, initial, 'tf'),
      fragment = engineLoop(n, initial, 'fragment'),
      auto = engineLoop(n, initial, 'auto'),
      three = gpuComputation(n, initial);
    const variants = {
      handwritten_tf: { step: () => hand.step(), wait: wait(hand.current), state: hand.current },
      // xfb is waited for with its own partial read of one element, as an application reads a
      // few: taking the buffer's name would make it the application's (Buffer::glName()).
      engine_tf: { step: () => tf.pipeline.step(), wait: () => tf.a.read({ count: 1 }), state: () => tf.a.glBuffer },
      engine_fragment: {
        step: () => fragment.pipeline.step(),
        wait: () => fragment.a.read({ count: 1 }),
        state: () => fragment.a.glBuffer,
      },
      engine_auto: {
        step: () => auto.pipeline.step(),
        wait: () => auto.a.read({ count: 1 }),
        state: () => auto.a.glBuffer,
      },
      gpu_computation_renderer: { step: three.step, wait: three.wait, bytes: three.bytes },
    };
    const batch = n >= 1e6 ? 3 : 10,
      rounds = 7;
    const ms = Object.fromEntries(Object.keys(variants).map((k) => [k, []])),
      perStep = {};
    for (const v of Object.values(variants)) {
      v.step();
      v.step();
      await v.wait();
    }
    for (let r = 0; r < rounds; r++)
      for (const [name, v] of Object.entries(variants)) {
        calls.reset();
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) v.step();
        perStep[name] = name === 'gpu_computation_renderer' ? null : calls.total() / batch; // three: its own context
        await v.wait();
        ms[name].push((performance.now() - t0) / batch);
      }
    const want = bytes(variants.handwritten_tf.state(), n);
    const identical = Object.fromEntries(
      Object.entries(variants).map(([name, v]) => {
        const got = v.bytes ? v.bytes() : bytes(v.state(), n);
        return [name, got.every((x, i) => x === want[i])];
      }),
    );
    const row = { elements: n, steps: 2 + rounds * batch };
    for (const name of Object.keys(variants)) {
      row[`${name}_ms`] = median(ms[name]);
      row[`${name}_gl_calls`] = perStep[name];
    }
    row.fragment_over_engine_tf = row.engine_fragment_ms / row.engine_tf_ms;
    row.fragment_over_handwritten_tf = row.engine_fragment_ms / row.handwritten_tf_ms;
    row.engine_tf_over_handwritten_tf = row.engine_tf_ms / row.handwritten_tf_ms;
    row.fragment_over_gpu_computation_renderer = row.engine_fragment_ms / row.gpu_computation_renderer_ms;
    row.auto_over_gpu_computation_renderer = row.engine_auto_ms / row.gpu_computation_renderer_ms;
    row.auto_chose = auto.pipeline.info.backend;
    row.auto_reason = auto.pipeline.info.backendReason;
    row.identical_to_handwritten_tf = identical;
    row.ms_per_round = ms;
    results.push(row);
    note(JSON.stringify(row));
    for (const o of [hand, tf, fragment, auto, three]) o.dispose();
  });
}
