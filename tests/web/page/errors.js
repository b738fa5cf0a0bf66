// Bad input from JavaScript: every case is an XfbError with a stable code, never a wasm abort,
// and the engine stays usable afterwards.
import { assert, createXfb, expectError, pseudoRandom, XfbError } from './assert.js';

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
