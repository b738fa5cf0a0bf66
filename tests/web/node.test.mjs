// The npm package in Node 20 (no WebGL): the same .mjs loads, and the planner validates shaders
// offline. Run: node --test node.test.mjs NPM_DIR   (NPM_DIR via XFB_NPM_DIR)
import strictAssert from 'node:assert/strict';
import { after, test as nodeTest } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const npm = resolve(process.env.XFB_NPM_DIR ?? '../../build/wasm/npm');
const { default: createXfb, inspect, XfbError } = await import(pathToFileURL(`${npm}/index.js`).href);

// Counts the cases and assertions that ran, prints them for tests/run-summary.mjs and fails the
// file (exit status 1, which `node --test` reports) when either is zero.
let cases = 0, asserts = 0;
const counted = (fn) => (...args) => { asserts++; return fn(...args); };
const assert = Object.assign(counted(strictAssert), Object.fromEntries(
  Object.entries(strictAssert).map(([name, fn]) => [name, typeof fn === 'function' && /^[a-z]/.test(name) ? counted(fn) : fn])));
const test = (name, fn) => nodeTest(name, (t) => { cases++; return fn(t); });
after(() => {
  console.log(`xfb-test-run: cases=${cases} asserts=${asserts}`);
  if (cases === 0 || asserts === 0) { console.error('xfb-test-run: no test case or no assertion ran: this run checked nothing'); process.exitCode = 1; }
});

test('inspect: the 36-byte interleaved layout, offsets 0, 16, 28', async () => {
  const plan = await inspect('#version 300 es\nin vec4 position;\nout vec4 out_position;\nout vec3 out_normal;\nout vec2 out_uv;\nvoid main() {}');
  assert.equal(plan.buffers[0].stride, 36);
  assert.deepEqual(plan.buffers[0].fields.map((f) => f.offset), [0, 16, 28]);
  assert.equal(plan.attributes[0].semantic, 'ATTR0');
});

test('inspect: errors are XfbErrors with stable codes', async () => {
  await assert.rejects(inspect('#version 300 es\nin vec4 p;\nout mat4 out_m;\nvoid main() {}', { mode: 'separate' }),
    (e) => e instanceof XfbError && e.code === 'XFB_SEPARATE_COMPONENTS' && /out_m/.test(e.message));
  await assert.rejects(inspect('#version 300 es\n#if QUALITY > 1\nin vec4 p;\n#endif\n'), (e) => e.code === 'XFB_PREPROCESSOR_UNEVALUABLE');
  await assert.rejects(inspect(42), (e) => e.code === 'XFB_INVALID_ARGUMENT');
  await assert.rejects(inspect('in vec4 p; out vec4 out_p;', { mood: 'x' }), (e) => e.code === 'XFB_INVALID_ARGUMENT');
  const plan = await inspect('#if QUALITY > 1\nin vec4 p;\n#endif\nout vec4 out_p;', { defines: { QUALITY: 2 } });
  assert.equal(plan.attributes.length, 1);
});

test('createXfb without WebGL gives a planner that refuses GPU work clearly', async () => {
  const xfb = await createXfb();
  assert.equal(xfb.inspect('in vec4 vertex_position; out vec4 out_p;').attributes[0].semantic, 'POSITION');
  assert.throws(() => xfb.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 1 }), (e) => e.code === 'XFB_UNSUPPORTED');
});

// The modules' extern "C" boundary (web/src/call.hpp), below the package's wrappers: each xfb_*
// export answers 0 or an error code's index + 1, xfb_result() the JSON result or the message.
function exportsOf(module) {
  const encoder = new TextEncoder(), decoder = new TextDecoder();
  const answer = (status) => {
    const heap = module.HEAPU8, at = module._xfb_result();
    return { status, text: decoder.decode(heap.subarray(at, heap.indexOf(0, at))) };
  };
  // Strings as (pointer, bytes); a list of strings as '\0'-ended items.
  const call = (name, ...args) => {
    const blocks = [];
    const flat = args.flatMap((a) => {
      if (typeof a !== 'string' && !Array.isArray(a)) return [a];
      const bytes = encoder.encode(typeof a === 'string' ? a : a.map((s) => `${s}\0`).join(''));
      const at = module._malloc(bytes.length + 1);
      blocks.push(at);
      module.HEAPU8.set(bytes, at);
      return [at, bytes.length];
    });
    try { return answer(module[`_xfb_${name}`](...flat)); } finally { blocks.forEach((b) => module._free(b)); }
  };
  const enums = JSON.parse(call('enums').text);
  return {
    enums,
    // inspect(source, mode, varyings, portable, defines as name, value, ...): the plan, or { code, message }.
    inspect: (source, { mode = 'interleaved', varyings = [], portable = true, defines = {} } = {}) => {
      const { status, text } = call('inspect', source, mode, varyings, portable, Object.entries(defines).flatMap(([k, v]) => [k, String(v)]));
      return status === 0 ? JSON.parse(text) : { code: enums.errorCodes[status - 1], message: text };
    },
  };
}

test('the boundary itself: JSON results, the engine\'s code and message for a failure, unknown names refused in C++', async () => {
  // Below index.js's checks: the modules' own xfb_inspect(), one implementation in both (planner_calls.cpp).
  for (const file of ['xfb.mjs', 'xfb-webgpu.mjs']) {
    const { default: factory } = await import(pathToFileURL(`${npm}/dist/${file}`).href);
    const module = exportsOf(await factory({ XfbError }));
    const plan = module.inspect('#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() {}', { defines: { N: 1.5, ON: true } });
    assert.equal(plan.buffers[0].stride, 16, file);
    const bad = module.inspect('in vec4 p; out vec4 out_p;', { mode: 'sideways' });
    assert.equal(bad.code, 'XFB_INVALID_ARGUMENT', file);
    assert.match(bad.message, /mode must be one of 'interleaved', 'separate', got 'sideways'/);
    const unreadable = module.inspect('#version 300 es\n#if Q > 1\nin vec4 p;\n#endif\n', {});
    assert.equal(unreadable.code, 'XFB_PREPROCESSOR_UNEVALUABLE', file);
  }
});

test('a module loaded without index.js still answers a failure with its code and message', async () => {
  const { default: factory } = await import(pathToFileURL(`${npm}/dist/xfb.mjs`).href);
  const module = exportsOf(await factory());
  const bad = module.inspect('in vec4 p; out vec4 out_p;', { mode: 'sideways' });
  assert.equal(bad.code, 'XFB_INVALID_ARGUMENT');
  assert.match(bad.message, /^mode must be one of/);
});

test('the WebGL2 module exports the extern "C" boundary and no embind', async () => {
  const { default: factory } = await import(pathToFileURL(`${npm}/dist/xfb.mjs`).href);
  const module = await factory();
  assert.equal(module.Engine, undefined, 'no embind class');
  assert.equal(module.normaliseFormat, undefined, 'no embind function');
  for (const name of ['result', 'enums', 'inspect', 'normalise_format', 'engine_create', 'engine_delete', 'create_buffer', 'step', 'replay_recipe', 'capture_session'])
    assert.equal(typeof module[`_xfb_${name}`], 'function', `_xfb_${name}`);
});

test('enums(): both modules give the C++ tables (xfb/enum_tables.hpp) that index.js validates with', async () => {
  for (const file of ['xfb.mjs', 'xfb-webgpu.mjs']) {
    const { default: factory } = await import(pathToFileURL(`${npm}/dist/${file}`).href);
    const e = exportsOf(await factory({ XfbError })).enums;
    assert.deepEqual(e.drawModes, ['points', 'lines', 'line_strip', 'line_loop', 'triangles', 'triangle_strip', 'triangle_fan'], file);
    assert.deepEqual(e.captureModes, ['interleaved', 'separate'], file);
    assert.deepEqual(e.componentTypes, ['float32', 'int32', 'uint32'], file);
    assert.deepEqual(e.backends, ['tf', 'compute', 'auto'], file);
    assert.deepEqual(e.expansions, ['auto', 'driver', 'engine'], file);
    assert.deepEqual(e.scalarKinds, { float: 0, int: 1, uint: 2, bool: 3, double: 4, struct: 5, opaque: 6 }, file);
    // Every code once, first and last as in xfb/error.hpp (60 codes).
    assert.equal(e.errorCodes.length, 60, file);
    assert.equal(new Set(e.errorCodes).size, 60, file);
    assert.equal(e.errorCodes[0], 'XFB_SHADER_SYNTAX', file);
    assert.equal(e.errorCodes.at(-1), 'XFB_INTERNAL', file);
    // The C++ constants JavaScript checks against (xfb/limits.hpp, xfb/fusion_plan.hpp).
    assert.deepEqual(e.constants, { maxBufferBytes: 2 ** 31 - 1, maxSubsteps: 256, substepUniform: 'xfb_substep' }, file);
  }
  // index.js's own checks list the module's names.
  const xfb = await createXfb();
  assert.throws(() => xfb.inspect('in vec4 p; out vec4 out_p;', { mode: 'sideways' }),
    (err) => err.code === 'XFB_INVALID_ARGUMENT' && /mode must be 'interleaved' or 'separate', got 'sideways'/.test(err.detail));
});

// The WebGL2 module's own data for the package: the one state guard.
const loadGlModule = async () => (await import(pathToFileURL(`${npm}/dist/xfb.mjs`).href)).default({ XfbError });

// A WebGL2 context stand-in for the guard: getParameter answers from `state` (pixel-store
// parameters default to WebGL's defaults, bindings to null), every call is logged.
const PIXEL_STORE_DEFAULTS = { 0x9240: false, 0x9241: false, 0x0CF2: 0, 0x0CF3: 0, 0x0CF4: 0, 0x0CF5: 4 };
function recordingContext(state) {
  const calls = [];
  const log = (name) => (...args) => { calls.push([name, ...args]); };
  return {
    calls,
    getParameter: (e) => state[e] ?? PIXEL_STORE_DEFAULTS[e] ?? null,
    getIndexedParameter: () => null,
    getProgramParameter: () => false,
    isEnabled: (e) => !!state[e],
    bindBuffer: log('bindBuffer'), bindBufferBase: log('bindBufferBase'), useProgram: log('useProgram'), bindVertexArray: log('bindVertexArray'),
    bindTransformFeedback: log('bindTransformFeedback'), enable: log('enable'), disable: log('disable'), pixelStorei: log('pixelStorei'),
  };
}
const ARRAY_BUFFER = 0x8892, ARRAY_BUFFER_BINDING = 0x8894, CURRENT_PROGRAM = 0x8B8D, VERTEX_ARRAY_BINDING = 0x85B5, UNPACK_ALIGNMENT = 0x0CF5;

test('GL.xfbStateGuard: the engine\'s state bits by name, and one save/restore for the engine and the replayed step', async () => {
  const guard = (await loadGlModule()).GL.xfbStateGuard;
  const names = ['program', 'vertexArray', 'arrayBuffer', 'copyBuffers', 'unpackBuffer', 'transformFeedback', 'discard', 'textures', 'pixelStore',
    'samplers', 'feedbackBuffer', 'writtenBindings'];
  assert.deepEqual(Object.keys(guard.bits).sort(), [...names].sort());
  const values = Object.values(guard.bits);
  assert.ok(values.every((v) => Number.isInteger(v) && v > 0 && (v & (v - 1)) === 0), `one bit each: ${values}`);
  assert.equal(new Set(values).size, names.length, 'no two names share a bit');
  const b = guard.bits;
  // The replayed step's bits: the application's program and vertex array come back; its
  // ARRAY_BUFFER is cleared for the pass only when it holds a buffer the pass writes.
  const program = { name: 7 }, vao = {}, written = {}, other = {};
  for (const [bound, writes] of [[written, true], [other, false]]) {
    const gl = recordingContext({ [CURRENT_PROGRAM]: program, [VERTEX_ARRAY_BINDING]: vao, [ARRAY_BUFFER_BINDING]: bound, [0x8A2F]: 0 });
    const token = guard.save(gl, b.program | b.vertexArray | b.writtenBindings, (subject, buffer) => subject === 'recipe' && buffer === written, 'recipe');
    assert.deepEqual(gl.calls, writes ? [['bindBuffer', ARRAY_BUFFER, null]] : [], 'save');
    gl.calls.length = 0;
    guard.restore(gl, token);
    assert.deepEqual(gl.calls, [['useProgram', program], ['bindVertexArray', vao], ...(writes ? [['bindBuffer', ARRAY_BUFFER, written]] : [])], 'restore');
  }
  // arrayBuffer clears whatever ARRAY_BUFFER holds; pixelStore sets ALIGNMENT to 4 and back.
  const gl = recordingContext({ [ARRAY_BUFFER_BINDING]: other, [UNPACK_ALIGNMENT]: 1 });
  const token = guard.save(gl, b.arrayBuffer | b.pixelStore, () => false, null);
  guard.restore(gl, token);
  assert.deepEqual(gl.calls, [['bindBuffer', ARRAY_BUFFER, null], ['pixelStorei', UNPACK_ALIGNMENT, 4], ['bindBuffer', ARRAY_BUFFER, other], ['pixelStorei', UNPACK_ALIGNMENT, 1]]);
  // Nothing asked, nothing done.
  const idle = recordingContext({ [ARRAY_BUFFER_BINDING]: other });
  guard.restore(idle, guard.save(idle, 0, () => true, null));
  assert.deepEqual(idle.calls, []);
});
