// The shared-context contract (README "Sharing a context") on a raw WebGL2 context: before every
// xfb call the page sets every piece of state in the contract to a non-default value; afterwards
// each one is as it was, no GL error is pending, and xfb's results equal the reference. Also: the
// ownsContext mode, errors attributed to the call that caused them, and the cost in GL calls and
// milliseconds per step of both modes.
import { assert, assertArrayEqual, countCalls, createXfb, expectError, particlesStep, pseudoRandom, shader } from './assert.js';

const f = Math.fround;
const particlesSource = await shader('particles.vert');
const meshSource = await shader('capture_mesh.vert');
const particleFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];

function compile(gl, vs, fs) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    gl.attachShader(p, s);
  }
  gl.linkProgram(p);
  assert(gl.getProgramParameter(p, gl.LINK_STATUS), 'foreign program links');
  return p;
}

/** The application's state: every piece of the contract at a non-default value. */
function foreignState(gl) {
  const units = gl.getParameter(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS);
  const program = compile(gl, '#version 300 es\nin vec4 a;\nvoid main() { gl_Position = a; }', '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }');
  const buffer = () => { const b = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, 64, gl.STATIC_DRAW); return b; };
  const vao = gl.createVertexArray(), element = gl.createBuffer();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, element); // an element buffer is one for ever in WebGL
  gl.bindVertexArray(null);
  const o = { program, vao, array: buffer(), element, copyRead: buffer(), copyWrite: buffer(), unpack: buffer(), pack: buffer(),
    feedback: gl.createTransformFeedback(), feedbackBuffer: buffer(), textures: [], samplers: [], units };
  for (let u = units - 4; u < units; u++) {
    const t = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + u);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    const s = gl.createSampler();
    gl.samplerParameteri(s, gl.TEXTURE_MIN_FILTER, gl.LINEAR); // makes an integer texture incomplete: texelFetch returns 0
    o.textures.push(t);
    o.samplers.push(s);
  }
  o.activeTexture = gl.createTexture();
  o.apply = () => {
    gl.useProgram(program);
    gl.bindVertexArray(o.vao);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, o.element);
    gl.bindBuffer(gl.ARRAY_BUFFER, o.array);
    gl.bindBuffer(gl.COPY_READ_BUFFER, o.copyRead);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, o.copyWrite);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, o.unpack);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, o.pack);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, o.feedback);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, o.feedbackBuffer);
    gl.enable(gl.RASTERIZER_DISCARD);
    for (let i = 0; i < 4; i++) {
      gl.activeTexture(gl.TEXTURE0 + units - 4 + i);
      gl.bindTexture(gl.TEXTURE_2D, o.textures[i]);
      gl.bindSampler(units - 4 + i, o.samplers[i]);
    }
    gl.activeTexture(gl.TEXTURE3);
    gl.bindTexture(gl.TEXTURE_2D, o.activeTexture);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 7);
    gl.pixelStorei(gl.UNPACK_SKIP_PIXELS, 1);
    gl.pixelStorei(gl.UNPACK_SKIP_ROWS, 2);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 8);
  };
  return o;
}

/** Every piece of state in the contract, as the context reports it. */
function snapshot(gl, units) {
  const s = {};
  for (const name of ['CURRENT_PROGRAM', 'VERTEX_ARRAY_BINDING', 'ELEMENT_ARRAY_BUFFER_BINDING', 'ARRAY_BUFFER_BINDING', 'COPY_READ_BUFFER_BINDING',
    'COPY_WRITE_BUFFER_BINDING', 'PIXEL_UNPACK_BUFFER_BINDING', 'PIXEL_PACK_BUFFER_BINDING', 'TRANSFORM_FEEDBACK_BINDING', 'TRANSFORM_FEEDBACK_BUFFER_BINDING',
    'ACTIVE_TEXTURE', 'TEXTURE_BINDING_2D', 'UNPACK_FLIP_Y_WEBGL', 'UNPACK_PREMULTIPLY_ALPHA_WEBGL', 'UNPACK_ROW_LENGTH', 'UNPACK_SKIP_PIXELS',
    'UNPACK_SKIP_ROWS', 'UNPACK_ALIGNMENT'])
    s[name] = gl.getParameter(gl[name]);
  s.RASTERIZER_DISCARD = gl.isEnabled(gl.RASTERIZER_DISCARD);
  const active = gl.getParameter(gl.ACTIVE_TEXTURE);
  for (let u = units - 4; u < units; u++) {
    gl.activeTexture(gl.TEXTURE0 + u);
    s[`TEXTURE_BINDING_2D@${u}`] = gl.getParameter(gl.TEXTURE_BINDING_2D);
    s[`SAMPLER_BINDING@${u}`] = gl.getParameter(gl.SAMPLER_BINDING);
  }
  gl.activeTexture(active);
  return s;
}

function assertSame(before, after, call) {
  for (const key of Object.keys(before)) assert(before[key] === after[key], `${call} changed ${key}: ${before[key]} -> ${after[key]}`);
}

/** Runs `fn` (an xfb call) between the application's state and a check that it is unchanged. */
async function guarded(gl, state, call, fn) {
  state.apply();
  const applied = gl.getError();
  assert(applied === gl.NO_ERROR, `setting the application's state before ${call} raised 0x${applied.toString(16)}`);
  const before = snapshot(gl, state.units);
  const result = await fn();
  assertSame(before, snapshot(gl, state.units), call);
  const error = gl.getError();
  assert(error === gl.NO_ERROR, `${call} left GL error 0x${error.toString(16)}`);
  return result;
}

test('every piece of state in the contract, set to a non-default value before each call, is as found after it', async ({ note }) => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const state = foreignState(gl);
  const xfb = await guarded(gl, state, 'createXfb', () => createXfb({ gl }));
  const n = 300;
  const ref = pseudoRandom(n * 8, -1, 1, 11);
  const a = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: particleFormat, count: n, data: ref }));
  const b = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: particleFormat, count: n }));
  const program = await guarded(gl, state, 'createProgram', () => xfb.createProgram({ source: particlesSource }));
  await guarded(gl, state, 'setUniform', () => { program.setUniform('dt', 0.015625); program.setUniform('gravity', [0, -9.75, 0.5]); });
  const pipeline = await guarded(gl, state, 'createPipeline', () => xfb.createPipeline(program, [{ input: a, output: b }]));
  for (let s = 0; s < 5; s++) {
    await guarded(gl, state, 'step', () => pipeline.step());
    particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
  }
  await guarded(gl, state, 'stepChecked', () => pipeline.stepChecked());
  particlesStep(ref, 0.015625, [0, -9.75, 0.5]);
  assertArrayEqual(await guarded(gl, state, 'read', () => a.read()), ref, 'particles stepped inside a foreign state');
  await guarded(gl, state, 'upload', () => a.upload(ref));

  // A rasterizing step (createPipeline(..., { rasterize: true })) draws into the page's framebuffer
  // through the page's state; its RASTERIZER_DISCARD is off for the pass only.
  const fragment = '#version 300 es\nprecision mediump float;\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n';
  const drawn = await guarded(gl, state, 'createProgram (fragment)', () => xfb.createProgram({ source: particlesSource, fragment }));
  await guarded(gl, state, 'setUniform', () => { drawn.setUniform('dt', 0.015625); drawn.setUniform('gravity', [0, -9.75, 0.5]); });
  const drawnRef = ref.slice();
  const drawnState = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: particleFormat, count: n, data: drawnRef }));
  const drawnNext = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: particleFormat, count: n }));
  const drawing = await guarded(gl, state, 'createPipeline (rasterize)', () => xfb.createPipeline(drawn, [{ input: drawnState, output: drawnNext }], { rasterize: true }));
  await guarded(gl, state, 'step (rasterize)', () => drawing.step());
  await guarded(gl, state, 'steps (rasterize)', () => xfb.steps([drawing]));
  await guarded(gl, state, 'step(2) (rasterize)', () => drawing.step(2));
  for (let s = 0; s < 4; s++) particlesStep(drawnRef, 0.015625, [0, -9.75, 0.5]);
  assertArrayEqual(await guarded(gl, state, 'read', () => drawnState.read()), drawnRef, 'particles stepped while rasterizing inside a foreign state');

  // A capture: the engine expansion uploads through a pixel-unpack buffer into textures on the
  // highest units, where the page bound samplers that would make texelFetch return 0.
  const vertices = pseudoRandom(4 * 6, -1, 1, 7);
  const mesh = await guarded(gl, state, 'createProgram', () => xfb.createProgram({ source: meshSource }));
  await guarded(gl, state, 'setUniform', () => mesh.setUniform('u_scale', 2));
  const input = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }], count: 4, data: vertices }));
  const out = await guarded(gl, state, 'createBuffer', () => xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }], count: 6 }));
  const capture = await guarded(gl, state, 'createCapture', () => xfb.createCapture(mesh, [{ input }, { output: out }]));
  const c = await guarded(gl, state, 'capture', () => capture.capture({ mode: 'triangle_strip', count: 4 }));
  assert(c.records === 6, JSON.stringify(c));
  const record = (v) => { const p = vertices.subarray(v * 6, v * 6 + 6); return [f(p[0] * 2), f(p[1] * 2), f(f(p[2] * 2) + v), f(p[3] * 2), p[5], -p[4], 1, f(p[4] * 2), f(p[5] * 2)]; };
  assertArrayEqual(await guarded(gl, state, 'read', () => out.read()), new Float32Array([0, 1, 2, 2, 1, 3].flatMap(record)), 'captured strip inside a foreign state');
  assert(xfb.takeForeignGlErrors().length === 0, 'no foreign error recorded');
  await guarded(gl, state, 'dispose', () => xfb.dispose());
  note('checked after createXfb, createBuffer, createProgram, setUniform, createPipeline, step, stepChecked, read, upload, createCapture, capture, dispose');
});

test('ownsContext: the minimal step (9 GL calls) leaves xfb\'s program bound; the default restores it', async ({ note }) => {
  const figures = [];
  for (const ownsContext of [true, false]) {
    const gl = document.createElement('canvas').getContext('webgl2');
    const mine = compile(gl, '#version 300 es\nin vec4 a;\nvoid main() { gl_Position = a; }', '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }');
    const xfb = await createXfb({ gl, ownsContext });
    const n = 1000;
    const a = xfb.createBuffer({ format: particleFormat, count: n, data: pseudoRandom(n * 8, -1, 1, 3) }), b = xfb.createBuffer({ format: particleFormat, count: n });
    const program = xfb.createProgram({ source: particlesSource });
    const pipeline = xfb.createPipeline(program, [{ input: a, output: b }], { backend: 'tf' }) // the transform-feedback step's calls;
    program.setUniform('dt', 0.01);
    program.setUniform('gravity', [0, -1, 0]);
    gl.useProgram(mine);
    pipeline.step();
    const kept = gl.getParameter(gl.CURRENT_PROGRAM) === mine;
    assert(kept === !ownsContext, `ownsContext ${ownsContext}: the application's program is ${kept ? '' : 'not '}current after a step`);
    const calls = countCalls(gl);
    const steps = 200;
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) pipeline.step();
    await a.read(); // waits for the GPU
    const ms = (performance.now() - t0) / steps;
    calls.reset();
    for (let i = 0; i < 10; i++) pipeline.step();
    const exact = calls.total() / 10;
    const stepCalls = JSON.stringify(calls.snapshot());
    // A capture's calls in the same mode (engine expansion: upload, gather, checks).
    const mesh = xfb.createProgram({ source: meshSource });
    const input = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }], count: 4, data: pseudoRandom(24, -1, 1, 1) });
    const out = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }], count: 6 });
    const capture = xfb.createCapture(mesh, [{ input }, { output: out }]);
    capture.capture({ mode: 'triangle_strip', count: 4 });
    calls.reset();
    capture.capture({ mode: 'triangle_strip', count: 4 });
    figures.push(`${ownsContext ? 'ownsContext' : 'default'}: ${exact} GL calls per step, ${ms.toFixed(3)} ms per step (${n} particles, ${steps} steps and one read); ` +
      `${calls.total()} GL calls per capture; 10 steps: ${stepCalls}`);
    if (ownsContext) assert(exact <= 9, `${exact} GL calls per owned step`);
    // 9 + the guard's 14 (README "Sharing a context") + one getIndexedParameter per indexed
    // UNIFORM_BUFFER point (issue 39: every point is read; a buffer bound at one fails the draw).
    else assert(exact <= 23 + gl.getParameter(gl.MAX_UNIFORM_BUFFER_BINDINGS), `${exact} GL calls per shared step`);
    xfb.dispose();
  }
  for (const line of figures) note(line);
});

test('an error the application left pending is neither blamed on xfb nor dropped', async () => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const xfb = await createXfb({ gl });
  gl.bindBuffer(0x1234, null); // INVALID_ENUM, left pending
  const a = xfb.createBuffer({ format: particleFormat, count: 4 }); // checks errors: must not throw
  await a.read();
  const foreign = xfb.takeForeignGlErrors();
  assert(foreign.length === 1 && foreign[0].name === 'INVALID_ENUM' && foreign[0].code === 0x500, JSON.stringify(foreign));
  assert(xfb.takeForeignGlErrors().length === 0, 'taken once');
  assert(gl.getError() === gl.NO_ERROR, 'no error left behind');
  xfb.dispose();
});

// The capture mesh's strip (4 vertices) and a 6-record output: the set-up of the capture cases.
function meshCapture(xfb) {
  const program = xfb.createProgram({ source: meshSource });
  const input = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }], count: 4, data: pseudoRandom(24, -1, 1, 1) });
  const out = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }], count: 6 });
  return { out, capture: xfb.createCapture(program, [{ input }, { output: out }]) };
}

test('a capture into a buffer the application deleted fails in capture(), with a code, not at a later read', async () => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const xfb = await createXfb({ gl });
  const { out, capture } = meshCapture(xfb);
  gl.deleteBuffer(out.glBuffer); // what an engine's dispose() does to a buffer it wrapped
  const e = await expectError('XFB_DISPOSED', () => capture.capture({ mode: 'triangle_strip', count: 4 }));
  assert(e.message.includes('PrimitiveCapture::capture') && e.message.includes('deleted by other code'), e.message);
  await expectError('XFB_DISPOSED', () => out.read());
  assert(gl.getError() === gl.NO_ERROR, 'no error left behind');
  xfb.dispose();
});

test('a current program the application deleted is not made current again, and no error is left', async () => {
  const gl = document.createElement('canvas').getContext('webgl2');
  const xfb = await createXfb({ gl });
  const a = xfb.createBuffer({ format: particleFormat, count: 4 }), b = xfb.createBuffer({ format: particleFormat, count: 4 });
  const program = xfb.createProgram({ source: particlesSource });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  const doomed = compile(gl, '#version 300 es\nin vec4 a;\nvoid main() { gl_Position = a; }', '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }');
  gl.useProgram(doomed);
  gl.deleteProgram(doomed); // flagged: current until replaced
  pipeline.step();
  assert(gl.getError() === gl.NO_ERROR, 'no error from restoring a deleted program');
  assert(gl.getParameter(gl.CURRENT_PROGRAM) === null, 'no program current');
  xfb.dispose();
});
