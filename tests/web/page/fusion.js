// Fused substeps through the JavaScript API on WebGL2 (SwiftShader): step(k) of an element-local
// simulation runs one generated pass and equals k ordinary passes (fuseSubsteps: false) and the
// JS reference bit for bit; a simulation that reads other elements says why it does not fuse.
import { assert, assertArrayEqual, createXfb, expectError, flockStep, particlesStep, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const xfb = await createXfb({ canvas });
const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
const sameBytes = (a, b) => a.byteLength === b.byteLength && new Uint8Array(a.buffer, a.byteOffset, a.byteLength).every((x, i) => x === new Uint8Array(b.buffer, b.byteOffset, b.byteLength)[i]);

test('fused particles: step(16) is one pass that equals 16 passes and the JS reference', async ({ note }) => {
  const n = 1000;
  const ref = pseudoRandom(n * 8, -1, 1, 7);
  for (let e = 0; e < n; e++) ref[e * 8 + 3] = 0.0625 * (e % 40); // some respawn inside the loop
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const program = xfb.createProgram({ source: await shader('particles.vert'), mode: 'interleaved' });
  const make = (fuseSubsteps) => {
    const state = xfb.createBuffer({ format, count: n, data: ref });
    const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format, count: n }) }], { fuseSubsteps });
    return { state, pipeline };
  };
  const fused = make(true), passes = make(false);
  assert(fused.pipeline.fusion().fused, `fuses: ${fused.pipeline.fusion().reason}`);
  assert(!passes.pipeline.fusion().fused && passes.pipeline.fusion().reason.includes('fuseSubsteps'), 'fusion off says so');
  program.setUniform('dt', 0.015625);
  program.setUniform('gravity', [0, -9.75, 0.5]);
  for (let round = 0; round < 2; round++) {
    fused.pipeline.step(16);
    passes.pipeline.step(16);
    for (let s = 0; s < 16; s++) particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
  }
  assert(fused.pipeline.info.steps === 32 && passes.pipeline.info.steps === 32, 'substeps counted');
  const a = await fused.state.read();
  assertArrayEqual(a, ref, 'fused vs reference');
  assertArrayEqual(await passes.state.read(), ref, 'passes vs reference');
  note(fused.pipeline.fusion().reason);
});

test('fused flock: separate buffers, constants, the write-only output keeps the last substep', async () => {
  const n = 257, k = 5;
  const pos = pseudoRandom(n * 4, -4, 4, 1), vel = pseudoRandom(n * 4, -1, 1, 2), params = pseudoRandom(n * 2, 0.25, 2, 3);
  const inst = new Float32Array(n * 4);
  const position = xfb.createBuffer({ format: vec4(0), count: n, data: pos });
  const velocity = xfb.createBuffer({ format: vec4(1), count: n, data: vel });
  const constants = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: params });
  const instances = xfb.createBuffer({ format: vec4(12), count: n });
  const program = xfb.createProgram({ source: await shader('flock_separate.vert'), mode: 'separate' });
  const pipeline = xfb.createPipeline(program, [{ input: position, output: xfb.createBuffer({ format: vec4(0), count: n }) },
    { input: velocity, output: xfb.createBuffer({ format: vec4(1), count: n }) }, { input: constants }, { output: instances }]);
  assert(pipeline.fusion().fused, pipeline.fusion().reason);
  program.setUniform('dt', 0.125);
  program.setUniform('target', [1, -0.5, 2]);
  pipeline.step(k);
  for (let s = 0; s < k; s++) flockStep(pos, vel, params, inst, 0.125, [1, -0.5, 2]);
  assertArrayEqual(await position.read(), pos, 'position');
  assertArrayEqual(await velocity.read(), vel, 'velocity');
  assertArrayEqual(await instances.read(), inst, 'instances: the last substep');
  assertArrayEqual(await constants.read(), params, 'constants');
});

const INTEGER_STATE = `#version 300 es
precision highp float;
in float x;
in uint id;
in int hits;
uniform int xfb_substep;
uniform float scale;
flat out uint out_id;
flat out int out_hits;
out float out_x;
void main() {
    out_id = id * 3u + uint(gl_VertexID);
    out_hits = hits - 7 * xfb_substep + 1;
    out_x = x * scale + float(hits);
}
`;

test('int and uint state through the interleaved layout, and xfb_substep, fused and not', async () => {
  const n = 64, k = 4;
  const format = [{ semantic: 'ATTR1', type: 'uint32', components: 1 }, { semantic: 'ATTR2', type: 'int32', components: 1 }, { semantic: 'ATTR0', components: 1 }];
  const words = new ArrayBuffer(n * 12);
  const u32 = new Uint32Array(words), i32 = new Int32Array(words), f32 = new Float32Array(words);
  for (let e = 0; e < n; e++) { u32[e * 3] = Math.imul(e, 2654435761) >>> 0; i32[e * 3 + 1] = e - 30; f32[e * 3 + 2] = 0.25 * e; }
  const program = xfb.createProgram({ source: INTEGER_STATE, mode: 'interleaved' });
  program.setUniform('scale', 0.5);
  const run = async (fuseSubsteps) => {
    const state = xfb.createBuffer({ format, count: n, data: words });
    const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format, count: n }) }], { fuseSubsteps });
    assert(pipeline.fusion().fused === fuseSubsteps, pipeline.fusion().reason);
    pipeline.step(k);
    return state.read();
  };
  const fused = await run(true), passes = await run(false);
  assert(sameBytes(fused, passes), 'fused bytes equal the passes');
  const out = new Int32Array(fused.buffer, fused.byteOffset, fused.byteLength / 4);
  assert(out[9 * 3 + 1] === 9 - 30 + 4 - 42, `hits after 4 substeps: ${out[9 * 3 + 1]}`);
  let id = Math.imul(9, 2654435761) >>> 0;
  for (let s = 0; s < k; s++) id = (Math.imul(id, 3) + 9) >>> 0;
  assert(out[9 * 3] >>> 0 === id, 'uint state');
});

test('a simulation that reads other elements refuses fusion with the reason and runs k passes', async () => {
  const source = `#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;
uniform sampler2D positions;
uniform int xfb_substep;
out vec4 out_position;
void main() {
    vec4 neighbour = texelFetch(positions, ivec2((gl_VertexID + 1) % 8, 0), 0);
    out_position = position + vec4(float(xfb_substep), 1.0, 0.0, 0.0) + neighbour * 0.0;
}
`;
  const n = 8, data = pseudoRandom(n * 4, -1, 1, 21);
  const program = xfb.createProgram({ source });
  const state = xfb.createBuffer({ format: vec4(0), count: n, data });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: xfb.createBuffer({ format: vec4(0), count: n }) }]);
  const f = pipeline.fusion();
  assert(!f.fused && f.reason.includes("uniform 'positions' is a sampler2D"), f.reason);
  pipeline.step(4);
  assert(pipeline.info.steps === 4, 'four passes');
  const out = await state.read();
  assert(out[12] === Math.fround(data[12] + 6) && out[13] === Math.fround(data[13] + 4), `xfb_substep 0..3 and one per pass: ${out[12]}, ${out[13]}`);
  await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(0));
  await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(1.5));
  // Above the engine's limit, and values that would wrap to a small int32 on the way into wasm.
  for (const k of [257, 2 ** 32 + 2, NaN, Infinity, -1, '4']) await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step(k));
  assert(pipeline.info.steps === 4, `refused steps ran nothing: ${pipeline.info.steps}`);
});
