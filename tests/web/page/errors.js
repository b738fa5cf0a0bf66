// Bad input from JavaScript: every case is an XfbError with a stable code, never a wasm abort,
// and the engine stays usable afterwards.
import { assert, countCalls, createXfb, expectError, nextEvent, pseudoRandom, XfbError } from './assert.js';

const xfb = await createXfb({ canvas: document.getElementById('canvas') });
const format = [{ semantic: 'ATTR0', components: 4 }];
const source = '#version 300 es\nin vec4 p;\nuniform float k;\nout vec4 out_p;\nvoid main() { out_p = p * k; }';

async function stillUsable() {
  const a = xfb.createBuffer({ format, count: 4, data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]) });
  const b = xfb.createBuffer({ format, count: 4 });
  const program = xfb.createProgram({ source });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  program.setUniform('k', 2);
  pipeline.step();
  const r = await a.read();
  assert(r[15] === 32, `the engine still computes after errors (got ${r[15]})`);
  for (const o of [pipeline, program, a, b]) o.dispose();
}

test('typed arrays of the wrong type or length', async () => {
  let e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format, count: 4, data: new Int32Array(16) }));
  assert(e.message.includes('Float32Array'), e.message);
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format, count: 4, data: new Float32Array(15) }));
  assert(e.message.includes('60 bytes') && e.message.includes('64'), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format, count: 4, data: [1, 2, 3] }));
  const ints = [{ semantic: 'ATTR0', type: 'int32', components: 2 }];
  xfb.createBuffer({ format: ints, count: 2, data: new Int32Array(4) }).dispose();
  const b = xfb.createBuffer({ format, count: 4 });
  await expectError('XFB_INVALID_ARGUMENT', () => b.upload(new Uint32Array(16)));
  await expectError('XFB_INVALID_ARGUMENT', () => b.upload(new Float32Array(17)));
  await expectError('XFB_INVALID_ARGUMENT', () => b.upload(new Float32Array(4), { offset: -4 }));
  b.dispose();
  await stillUsable();
});

test('counts: non-integer, negative, zero, NaN', async () => {
  for (const count of [1.5, -3, 0, NaN, '4', Infinity]) {
    const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format, count }));
    assert(e.message.includes('count'), e.message);
  }
  const program = xfb.createProgram({ source });
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(program, [{ output: xfb.createBuffer({ format, count: 4 }) }], { count: -1 }));
  await expectError('XFB_INVALID_ARGUMENT', () => program.setUniform('k', NaN));
  await expectError('XFB_INVALID_ARGUMENT', () => program.setUniform('k', 'fast'));
  program.dispose();
  await stillUsable();
});

test('unknown keys in roles, formats and options', async () => {
  const a = xfb.createBuffer({ format, count: 4 });
  const program = xfb.createProgram({ source });
  let e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(program, [{ input: a, outptu: a }]));
  assert(e.message.includes("'outptu'"), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(program, [{ input: 'a buffer' }]));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format: [{ semantic: 'ATTR0', compnents: 4 }], count: 1 }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source, mode: 'sideways' }));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format: [{ semantic: 'ATTRX' }], count: 1 }));
  e = await expectError('XFB_OUTPUT_COUNT_MISMATCH', () => xfb.createPipeline(program, [{ input: a }]));
  assert(e.message.includes('out_p'), e.message);
  for (const o of [a, program]) o.dispose();
  await stillUsable();
});

test('disposed objects used again', async () => {
  const a = xfb.createBuffer({ format, count: 4 });
  const b = xfb.createBuffer({ format, count: 4 });
  const program = xfb.createProgram({ source });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  pipeline.dispose();
  await expectError('XFB_DISPOSED', () => pipeline.step());
  a.dispose();
  await expectError('XFB_DISPOSED', () => a.read());
  await expectError('XFB_DISPOSED', () => a.glBuffer);
  await expectError('XFB_DISPOSED', () => xfb.createPipeline(program, [{ input: a, output: b }]));
  program.dispose();
  await expectError('XFB_DISPOSED', () => program.setUniform('k', 1));
  b.dispose();
  await stillUsable();
});

test('a shader that does not compile: the log with the line', async () => {
  const e = await expectError('XFB_SHADER_COMPILE', () =>
    xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() {\n  out_p = p * notDeclared;\n}', label: 'broken' }));
  assert(e.message.includes("'broken'"), e.message);
  assert(e.message.includes('notDeclared'), e.message);
  assert(/:5\b/.test(e.message) || e.message.includes('5:'), `the line (5) is named: ${e.message}`);
  await stillUsable();
});

test('the 4-component limit of separate mode: a vec4+float state merged into one varying, and a mat4', async () => {
  let e = await expectError('XFB_SEPARATE_COMPONENTS', () =>
    xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout float out_state[5];\nvoid main() { for (int i = 0; i < 5; ++i) out_state[i] = p.x; }', mode: 'separate' }));
  assert(e.message.includes("'out_state'") && e.message.includes('5 components') && e.message.includes('interleaved'), e.message);
  e = await expectError('XFB_SEPARATE_COMPONENTS', () =>
    xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout mat4 out_m;\nvoid main() { out_m = mat4(p.x); }', mode: 'separate' }));
  assert(e.message.includes('16 components'), e.message);
  // The fix: split into a vec4 and a float.
  xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_pos;\nout float out_life;\nvoid main() { out_pos = p; out_life = p.w; }', mode: 'separate' }).dispose();
  assert(e instanceof Error && e instanceof XfbError && e.name === 'XfbError', 'XfbError is an Error subclass');
});

test('createXfb rejects what is not a WebGL2 context', async () => {
  await expectError('XFB_INVALID_ARGUMENT', () => createXfb({ gl: {} }));
  await expectError('XFB_INVALID_ARGUMENT', () => createXfb({ canvas: {} }));
  await expectError('XFB_INVALID_ARGUMENT', () => createXfb({ canvass: null }));
});

// --- Hostile input (issue 12): each finding ends as a coded XfbError or correct behaviour. ---

const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
const separateSource = '#version 300 es\nin vec4 position;\nin vec4 velocity;\nout vec4 out_position;\nout vec4 out_velocity;\n' +
  'void main() { out_velocity = velocity; out_position = position + velocity; }';

test('byte sizes over WebGL2\'s 2^31-1 bytes per buffer: XFB_BUFFER_TOO_LARGE, nothing created', async () => {
  const before = xfb.liveObjects().buffers;
  for (const [count, stride] of [[2 ** 27, 16], [2 ** 27, 32], [2 ** 40, 16], [2 ** 26, 64]]) {
    const e = await expectError('XFB_BUFFER_TOO_LARGE', () => xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: stride / 4 }], count }));
    assert(e.message.includes(`${count} elements x ${stride} bytes`) && e.message.includes('2^31-1'), e.message);
  }
  assert(xfb.liveObjects().buffers === before, 'no buffer created');
  assert(xfb.gl.getError() === 0, 'no WebGL error left');
  await stillUsable();
});

test('aliasing WebGL2 forbids is refused at creation with both roles named', async () => {
  const gl = xfb.gl;
  const p = xfb.createBuffer({ format: vec4(0), count: 4 }), p2 = xfb.createBuffer({ format: vec4(0), count: 4 });
  const v = xfb.createBuffer({ format: vec4(1), count: 4 }), v2 = xfb.createBuffer({ format: vec4(1), count: 4 });
  const separate = xfb.createProgram({ source: separateSource, mode: 'separate' });
  const before = xfb.liveObjects();
  // One buffer bound twice for transform feedback (otherwise a valid role list).
  let e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(separate, [{ input: p }, { input: v }, { output: p2 }, { output: p2 }]));
  assert(e.message.includes('entry #2 output and entry #3 output') && e.message.includes('bind one buffer twice'), e.message);
  // The output of one entry read as an attribute of another (both orders).
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(separate, [{ input: p, output: p2 }, { input: v }, { output: p }]));
  assert(e.message.includes('entry #0 input and entry #2 output') && e.message.includes('read a buffer while it writes it'), e.message);
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(separate, [{ output: v2 }, { input: p, output: p2 }, { input: v2 }]));
  assert(e.message.includes('entry #0 output and entry #2 input'), e.message);
  // A state pair of one buffer.
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(separate, [{ input: p, output: p }, { input: v, output: v2 }]));
  assert(e.message.includes('entries[0]: ') && e.message.includes('is both the input and the output'), e.message); // core/'s words, as on WebGPU
  // The same through a capture.
  const passThrough = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }' });
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createCapture(passThrough, [{ input: p }, { output: p }]));
  assert(e.message.includes('entry #0 input and entry #1 output'), e.message);
  const after = xfb.liveObjects();
  assert(after.pipelines === before.pipelines && after.captures === before.captures, 'nothing created');
  assert(gl.getError() === 0, 'no WebGL error left');
  // The fix works: each role its own buffer.
  const ok = xfb.createPipeline(separate, [{ input: p, output: p2 }, { input: v, output: v2 }]);
  ok.step();
  assert(ok.info.steps === 1 && gl.getError() === 0, 'a step of distinct buffers runs');
  for (const o of [ok, separate, passThrough, p, p2, v, v2]) o.dispose();
  await stillUsable();
});

test('own-property lookups: Object.prototype names and inherited properties are refused', async () => {
  for (const type of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
    const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format: [{ semantic: 'ATTR0', type }], count: 1 }));
    assert(e.message.includes('float32, int32 or uint32'), e.message);
  }
  Object.prototype.count = 4; // eslint-disable-line no-extend-native
  try {
    const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createBuffer({ format }));
    assert(e.message.includes('count'), `an inherited count is not read: ${e.message}`);
  } finally {
    delete Object.prototype.count;
  }
  const program = xfb.createProgram({ source });
  await expectError('XFB_UNKNOWN_UNIFORM', () => program.setUniform('toString', 1));
  await expectError('XFB_UNKNOWN_UNIFORM', () => program.setUniform('constructor', 1));
  program.dispose();
  await stillUsable();
});

test('every option object checks its keys and values; defines take scalars only', async () => {
  const b = xfb.createBuffer({ format, count: 4 });
  let e = await expectError('XFB_INVALID_ARGUMENT', () => b.upload(new Float32Array(16), { ofset: 0 }));
  assert(e.message.includes("'ofset'"), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => b.upload(new Float32Array(16), null));
  b.upload(new Float32Array(16), { offset: 0 });
  for (const defines of [{ N: {} }, { N: [1] }, { N: null }, { N: NaN }, { 'bad name': 1 }, 'N=1', [['N', 1]]]) {
    e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source, defines }));
    assert(e.message.includes('defines'), e.message);
    await expectError('XFB_INVALID_ARGUMENT', () => xfb.inspect(source, { defines }));
  }
  xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * float(N) * (F ? 1.0 : 0.0); }', defines: { N: 3, F: true } }).dispose();
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source, portable: 'yes' }));
  const program = xfb.createProgram({ source });
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createPipeline(program, [{ output: b }], { queries: 1 }));
  assert(e.message.includes('queries'), e.message);
  program.dispose();
  const { inspect } = await import('/npm/index.js');
  e = await expectError('XFB_INVALID_ARGUMENT', () => inspect(source, { mode: 'bogus' }));
  assert(e.message.includes("'bogus'"), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => inspect(source, { varyings: 'out_p' }));
  assert((await inspect(source, { mode: 'separate' })).mode === 'separate', 'a valid mode still works');
  // Listeners: the event name and the function checked at the call, not at the loss.
  e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.on('contextlost', 'x'));
  assert(e.message.includes('function'), e.message);
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.on('contextlots', () => {}));
  await expectError('XFB_INVALID_ARGUMENT', () => xfb.off('contextlost', 42));
  b.dispose();
  await stillUsable();
});

test('int and uint uniforms: out of range or non-integers are XFB_UNIFORM_TYPE, not wrapped', async () => {
  const src = '#version 300 es\nin vec4 p;\nuniform int n;\nuniform uint u;\nout vec4 out_p;\nvoid main() { out_p = vec4(float(n), float(u), p.xy); }';
  const program = xfb.createProgram({ source: src });
  for (const [name, value] of [['n', 2 ** 40], ['n', 2.5], ['n', 2 ** 31], ['n', -(2 ** 31) - 1], ['u', -1], ['u', 2 ** 32], ['u', 0.5], ['n', [1, 2 ** 40]], ['n', Infinity]]) {
    const e = await expectError('XFB_UNIFORM_TYPE', () => program.setUniform(name, value));
    assert(e.message.includes(`'${name}'`) && e.message.includes('integers'), e.message);
  }
  const a = xfb.createBuffer({ format, count: 1, data: new Float32Array([1, 2, 3, 4]) }), b = xfb.createBuffer({ format, count: 1 });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  program.setUniform('n', -3);
  program.setUniform('u', 2 ** 32 - 1);
  pipeline.step();
  assertArray(await a.read(), [-3, Math.fround(2 ** 32 - 1), 1, 2], 'int -3 and uint 2^32-1 arrive (a wrapped 2^40 would be 0)');
  for (const o of [pipeline, program, a, b]) o.dispose();
  await stillUsable();
});

function assertArray(got, want, what) {
  assert(got.length === want.length && want.every((x, i) => Object.is(got[i], x)), `${what}: got ${Array.from(got)}, want ${want}`);
}

test('a GL error the application left pending is neither blamed on xfb nor swallowed', async () => {
  const gl = xfb.gl;
  xfb.takeForeignGlErrors();
  const a = xfb.createBuffer({ format, count: 4, data: new Float32Array(16).fill(1) }), b = xfb.createBuffer({ format, count: 4 });
  const program = xfb.createProgram({ source });
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  program.setUniform('k', 2);
  gl.enable(0x1234); // INVALID_ENUM, the application's
  pipeline.step();
  const r = await a.read(); // the read path checks GL errors: it must not report this one as its own
  assert(r.every((x) => x === 2), `the read succeeds with the stepped values (${Array.from(r)})`);
  gl.bindBuffer(0x1235, null); // another INVALID_ENUM, pending before an upload and a creation
  a.upload(new Float32Array(16).fill(3));
  xfb.createBuffer({ format, count: 1 }).dispose();
  const foreign = xfb.takeForeignGlErrors();
  assert(foreign.length === 2 && foreign.every((f) => f.name === 'INVALID_ENUM'), `both kept for the application: ${JSON.stringify(foreign)}`);
  assert(gl.getError() === 0, 'nothing else pending');
  for (const o of [pipeline, program, a, b]) o.dispose();
  await stillUsable();
});

test('lifecycle: readbacks released on loss, no re-creation of a buffer disposed while lost, dispose() then liveObjects()', async () => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = countCalls(gl);
  const ext = gl.getExtension('WEBGL_lose_context');
  const engine = await createXfb({ gl });
  const a = engine.createBuffer({ format, count: 4, data: new Float32Array(16) }), gone = engine.createBuffer({ format, count: 4 });
  // A read() in flight when the context is lost: rejected with XFB_CONTEXT_LOST, its readback released.
  const lost = nextEvent(engine, 'contextlost');
  const reading = a.read().then(() => 'resolved', (e) => e);
  ext.loseContext();
  await lost;
  const outcome = await reading;
  assert(outcome === 'resolved' || (outcome instanceof XfbError && outcome.code === 'XFB_CONTEXT_LOST'), `the read in flight: ${outcome}`);
  assert(engine.liveObjects().readbacks === 0, `no readback left: ${JSON.stringify(engine.liveObjects())}`);
  await expectError('XFB_CONTEXT_LOST', () => a.read());
  assert(engine.liveObjects().readbacks === 0, 'a refused read() leaves no readback');
  gone.dispose(); // while lost: gone for good
  assert(engine.liveObjects().buffers === 1, `disposed while lost: ${JSON.stringify(engine.liveObjects())}`);
  const restored = nextEvent(engine, 'contextrestored');
  calls.reset();
  ext.restoreContext();
  const detail = await restored;
  assert(calls.get('createBuffer') === 1 && detail.buffers.length === 1 && detail.buffers[0].buffer === a, `only the live buffer is re-created (${calls.get('createBuffer')} createBuffer)`);
  // createXfb on a context that is already lost.
  ext.loseContext();
  const e = await expectError('XFB_CONTEXT_LOST', () => createXfb({ gl }));
  assert(e.message.includes('webglcontextrestored'), e.message);
  engine.dispose();
  const e2 = await expectError('XFB_DISPOSED', () => engine.liveObjects());
  assert(e2.message.includes('disposed'), e2.message);
  await expectError('XFB_DISPOSED', () => engine.createBuffer({ format, count: 1 }));
});

test('a failed read() leaves no readback, WebGLBuffer or WebGLSync behind', async () => {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = countCalls(gl);
  const engine = await createXfb({ gl });
  const a = engine.createBuffer({ format, count: 4 });
  const reading = a.read().then(() => 'resolved', (e) => e);
  engine.dispose(); // the engine goes away while the read is pending
  const outcome = await reading;
  assert(outcome === 'resolved' || (outcome instanceof XfbError && outcome.code === 'XFB_DISPOSED'), `the pending read: ${outcome}`);
  for (const kind of ['Buffer', 'VertexArray', 'TransformFeedback', 'Query'])
    assert(calls.get(`create${kind}`) === calls.get(`delete${kind}`), `${kind}: ${calls.get(`create${kind}`)} created, ${calls.get(`delete${kind}`)} deleted`);
  assert(calls.get('fenceSync') === calls.get('deleteSync'), `syncs: ${calls.get('fenceSync')} created, ${calls.get('deleteSync')} deleted`);
});
