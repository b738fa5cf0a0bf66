// The JavaScript the documentation quotes (docs/examples/web/*.js, README.md and docs/guide/), run
// as a user runs it: the bare specifier 'xfb' resolves to the npm package through an import map,
// and every result is compared with a JavaScript reference (bit for bit: the inputs are multiples
// of 1/4 and dt = 1/2, so every value is exact in float32). The engine recipes run with the
// engines of tests/web/node_modules (served at /modules/).
import { assert, assertArrayEqual } from './assert.js';

const map = document.createElement('script');
map.type = 'importmap';
map.textContent = JSON.stringify({ imports: { xfb: '/npm/index.js' } });
document.head.append(map);
const webgl2 = await import('/docs/examples/web/webgl2.js');
const webgpu = await import('/docs/examples/web/webgpu.js');
const engines = await import('/docs/examples/web/engines.js');

const count = 64;
const initial = new Float32Array(count * 8).map((_, i) => 0.25 * ((i % 11) - 5));
function reference(steps) {
  const s = Float32Array.from(initial);
  for (let k = 0; k < steps; k++)
    for (let e = 0; e < s.length; e += 8)
      for (let c = 0; c < 4; c++) {
        s[e + c] = s[e + c] + s[e + 4 + c] * 0.5;
        s[e + 4 + c] = s[e + 4 + c] * 0.5;
      }
  return s;
}
const canvas = () => Object.assign(document.createElement('canvas'), { width: 1, height: 1 });

test('README WebGL2 example: three steps equal the reference', async () => {
  assertArrayEqual(await webgl2.simulate(canvas(), initial, count, 3), reference(3), 'state after 3 steps');
});

test('README WebGPU example: three compute steps equal the reference', async () => {
  assert(navigator.gpu, 'no navigator.gpu: is --enable-unsafe-webgpu set?');
  assertArrayEqual(await webgpu.simulateOnGpu(initial, count, 3), reference(3), 'state after 3 steps');
});

test('guide tour: checked step, layout, planner, coded error', async () => {
  const r = await webgl2.tour(canvas(), initial, count);
  assert(r.report.written === count && r.report.expected === count, `stepChecked wrote ${r.report.written} of ${r.report.expected}`);
  assert(r.stride === 32, `stride ${r.stride}`);
  assert(r.attributes.length === 2, `${r.attributes.length} attributes`);
  assert(r.restored === null, 'no context restore happened');
  assert(r.plan.mode === 'separate' && r.plan.buffers.length === 2, `plan: ${r.plan.mode}, ${r.plan.buffers.length} buffers`);
  assert(r.refused === 'XFB_UNKNOWN_VARYING', `refused with ${r.refused}`);
  assertArrayEqual(r.values, reference(1), 'state after the checked step');
});

test('guide capture: a strip of 4 vertices is 2 triangles, 6 records, 216 bytes', async () => {
  const { counts, records } = await webgl2.captureQuad(canvas());
  assert(counts.primitives === 2 && counts.records === 6 && counts.bytes[0] === 216, `counts ${JSON.stringify(counts)}`);
  const quad = [0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1];
  const expected = [0, 1, 2, 1, 2, 3].flatMap((v) => quad.slice(v * 4, v * 4 + 4)); // the indexed capture
  assertArrayEqual(Array.from({ length: 6 }, (_, r) => [...records.slice(r * 9, r * 9 + 4)]).flat(), expected, 'positions of the indexed capture');
});

// The mirror simulation of engines.js after an odd number of steps: x negated.
const mirroredTriangle = Float32Array.from([0.9, -0.8, 0, 1, 0.1, -0.8, 0, 1, 0.5, 0.8, 0, 1]);

test('guide recipe, three.js: the GLBufferAttribute follows the state; xfb outlives the geometry', async () => {
  const THREE = await import('/modules/three/build/three.module.js');
  const r = await engines.three(THREE, canvas());
  assert(r.follows, 'position() wraps state.glBuffer after the last step');
  assert(r.glError === 0, `GL error ${r.glError}`);
  assertArrayEqual(r.values, mirroredTriangle, 'state after 3 steps, read after geometry.dispose()');
});

test('guide recipe, Babylon.js: the VertexBuffer follows the state; xfb outlives the mesh', async () => {
  const babylon = await import('/modules/@babylonjs/core/index.js');
  const r = await engines.babylon(babylon, canvas());
  assert(r.follows, 'vb() wraps state.glBuffer after the last step');
  assert(r.glError === 0, `GL error ${r.glError}`);
  assertArrayEqual(r.values, mirroredTriangle, 'state after 3 steps, read after mesh.dispose()');
});

test('guide recipe, PlayCanvas: the simulation writes into the engine\'s vertex buffer', async () => {
  const pc = await import('/modules/playcanvas/build/playcanvas.mjs');
  const r = await engines.playcanvas(pc, canvas());
  assert(r.follows, 'PlayCanvas created one WebGLBuffer for the mesh');
  assert(r.glError === 0, `GL error ${r.glError}`);
  assertArrayEqual(r.values, Float32Array.from([0.9, -0.8, 0, 0.1, -0.8, 0, 0.5, 0.8, 0]), 'the adopted buffer after one step');
});
