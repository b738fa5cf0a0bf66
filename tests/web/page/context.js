// GL calls per step, object leaks after dispose(), and context loss and restoration.
import { assert, assertArrayEqual, countCalls, createXfb, expectError, nextEvent, pseudoRandom } from './assert.js';

const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
const separateSource = '#version 300 es\nin vec4 position;\nin vec4 velocity;\nuniform float dt;\nout vec4 out_position;\nout vec4 out_velocity;\n' +
  'void main() { out_velocity = velocity + vec4(0.0, -1.0, 0.0, 0.0) * dt; out_position = position + out_velocity * dt; }';

test('GL calls per steady-state step with ownsContext: at most 9 for a two-state separate simulation', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = countCalls(gl);
  const xfb = await createXfb({ gl, ownsContext: true }); // the shared default's cost: shared-context.js
  const n = 1000;
  const p = xfb.createBuffer({ format: vec4(0), count: n, data: pseudoRandom(4 * n, -1, 1, 1) }), p2 = xfb.createBuffer({ format: vec4(0), count: n });
  const v = xfb.createBuffer({ format: vec4(1), count: n, data: pseudoRandom(4 * n, -1, 1, 2) }), v2 = xfb.createBuffer({ format: vec4(1), count: n });
  const program = xfb.createProgram({ source: separateSource, mode: 'separate' });
  const pipeline = xfb.createPipeline(program, [{ input: p, output: p2 }, { input: v, output: v2 }], { backend: 'tf' }); // the transform-feedback step's calls
  program.setUniform('dt', 0.01);
  pipeline.step(); pipeline.step(); // the first step uploads the uniform
  calls.reset();
  const steps = 10;
  for (let i = 0; i < steps; i++) pipeline.step();
  const perStep = calls.total() / steps;
  note(`GL calls per step: ${perStep} ${JSON.stringify(calls.snapshot())}`);
  assert(perStep <= 9, `${perStep} GL calls per step`);
  assert(calls.get('createVertexArray') === 0 && calls.get('createBuffer') === 0 && calls.get('createTransformFeedback') === 0, 'no GL object created');
  xfb.dispose();
});

test('dispose() frees every GPU object: WebGL creates and deletes balance', async () => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = countCalls(gl);
  const xfb = await createXfb({ gl });
  const a = xfb.createBuffer({ format: vec4(0), count: 8 }), b = xfb.createBuffer({ format: vec4(0), count: 8 });
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }' });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }], { queries: true });
  for (let i = 0; i < 5; i++) pipeline.step();
  await a.read();
  await pipeline.stepChecked();
  const strip = xfb.createBuffer({ format: vec4(0), count: 6 });
  const capture = xfb.createCapture(program, [{ input: a }, { output: strip }]); // scratch, textures, gather program
  capture.capture({ mode: 'triangle_strip', count: 4 });
  let live = xfb.liveObjects();
  assert(live.buffers === 3 && live.programs === 1 && live.pipelines === 1 && live.captures === 1 && live.readbacks === 0, JSON.stringify(live));
  xfb.dispose();
  const balance = (kind) => calls.get(`create${kind}`) - calls.get(`delete${kind}`);
  for (const kind of ['Buffer', 'VertexArray', 'TransformFeedback', 'Query', 'Program', 'Shader', 'Texture'])
    assert(balance(kind) === 0, `${kind}: ${calls.get(`create${kind}`)} created, ${calls.get(`delete${kind}`)} deleted`);
  assert(calls.get('fenceSync') === calls.get('deleteSync'), 'fences deleted');
});

test('context loss: steps refused while lost; on restore the objects return with the last readback', async ({ note }) => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const xfb = await createXfb({ gl });
  const n = 64;
  const initial = pseudoRandom(4 * n, 0, 1, 4);
  const a = xfb.createBuffer({ format: vec4(0), count: n, data: initial }), b = xfb.createBuffer({ format: vec4(0), count: n });
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nuniform float k;\nout vec4 out_p;\nvoid main() { out_p = p + vec4(k); }' });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  program.setUniform('k', 1);
  pipeline.step();
  const afterOne = await a.read(); // the last readback: what a restoration re-uploads
  assertArrayEqual(afterOne, initial.map((x) => Math.fround(x + 1)), 'one step');
  const lost = nextEvent(xfb, 'contextlost'), restored = nextEvent(xfb, 'contextrestored');
  const ext = gl.getExtension('WEBGL_lose_context');
  ext.loseContext();
  await lost;
  assert(xfb.isContextLost, 'the engine noticed the loss');
  const e = await expectError('XFB_CONTEXT_LOST', () => pipeline.step());
  assert(e.message.includes('contextrestored'), e.message);
  ext.restoreContext();
  const detail = await restored;
  note(`restored: ${JSON.stringify(detail.buffers.map((x) => [x.label, x.restoredFrom]))}`);
  assert(detail.buffers.find((x) => x.buffer === a).restoredFrom === 'last-readback', 'state restored from the last readback');
  pipeline.step(); // uniforms are re-applied too
  assertArrayEqual(await a.read(), afterOne.map((x) => Math.fround(x + 1)), 'a step after restoration continues from the readback');
  xfb.dispose();
});
