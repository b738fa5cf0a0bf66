// The npm package in Node 20 (no WebGL): the same .mjs loads, and the planner validates shaders
// offline. Run: node --test node.test.mjs NPM_DIR   (NPM_DIR via XFB_NPM_DIR)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, test } from './node-counting.mjs';

const npm = resolve(process.env.XFB_NPM_DIR ?? '../../build/wasm/npm');
const { default: createXfb, inspect, XfbError } = await import(pathToFileURL(`${npm}/index.js`).href);


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

// Declared capture layouts (issue 26): the shader's xfb_* qualifiers, a Direct3D-style declaration
// and GL's gl_SkipComponents / gl_NextBuffer list give one plan (the C++ planner's, through wasm).
const fieldsOf = (plan) => plan.buffers.map((b) => ({ binding: b.binding, stride: b.stride,
  fields: b.fields.map((f) => `${f.varying}@${f.offset}+${f.components}[${f.first_component}] ${f.type}`) }));
const SEED = 'out vec4 out_position; out vec3 out_normal; out vec2 out_texCoord0;';

test('declared layouts: the seed\'s record (4 + 3 + 2 components) three ways, stride 36, offsets 0/16/28', async () => {
  const qualifiers = await inspect('#version 300 es\nlayout(xfb_buffer = 0, xfb_offset = 0) out vec4 out_position;\n' +
    'layout(xfb_offset = 16) out vec3 out_normal;\nlayout(xfb_offset = 28) out vec2 out_texCoord0;\nvoid main() {}');
  const semantics = await inspect(SEED, { declaration: [
    { semantic: 'POSITION', components: [0, 4] }, { semantic: 'NORMAL', components: [0, 3] }, { semantic: 'TEXCOORD', semanticIndex: 0, components: [0, 2] }] });
  const list = await inspect(SEED, { varyings: ['out_position', 'out_normal', 'out_texCoord0'] });
  const expected = [{ binding: 0, stride: 36, fields: ['out_position@0+4[0] float32', 'out_normal@16+3[0] float32', 'out_texCoord0@28+2[0] float32'] }];
  for (const [way, plan] of [['qualifiers', qualifiers], ['semantics', semantics], ['list', list]]) {
    assert.deepEqual(fieldsOf(plan), expected, way);
    assert.equal(plan.mode, 'interleaved', way);
  }
  assert.equal(qualifiers.declared, true);
  assert.equal(semantics.declared, true);
  assert.equal(list.declared, false, 'whole varyings in order: the layout GL derives, nothing declared');
  assert.deepEqual(qualifiers.varyings.map((v) => v.name), ['out_position', 'out_normal', 'out_texCoord0']);
});

// The padded record: a vec4, a gap of one word, a vec3 (stride 40); buffer 1: a vec2 and an int.
const PADDED_SOURCE = `#version 300 es
in vec4 position;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_texCoord0;
flat out int out_id;
void main() {
  out_position = position;
  out_normal = position.xyz * 2.0;
  out_texCoord0 = position.xy;
  out_id = gl_VertexID;
}`;
const padded = {
  declaration: [
    { semantic: 'POSITION' },                 // SemanticName POSITION, all 4 components, slot 0
    { skip: 1 },                              // a NULL semantic: 1 word never written
    { varying: 'out_normal', components: [0, 3] },
    { semantic: 'TEXCOORD', semanticIndex: 0, buffer: 1 },
    { varying: 'out_id', buffer: 1 },
  ],
  strides: [40], // buffer 0 padded to 40 bytes; buffer 1: its extent, 12
};

test('declared layouts: a padded two-buffer layout by declaration, by qualifiers and by a gl_SkipComponents / gl_NextBuffer list', async () => {
  const byDeclaration = await inspect(PADDED_SOURCE, padded);
  const byQualifiers = await inspect(`#version 300 es
layout(xfb_buffer = 0, xfb_stride = 40) out;
in vec4 position;
layout(xfb_offset = 0) out vec4 out_position;
layout(xfb_offset = 20) out vec3 out_normal;
layout(xfb_buffer = 1, xfb_offset = 0) out vec2 out_texCoord0;
layout(xfb_buffer = 1, xfb_offset = 8) flat out int out_id;
void main() {}`);
  const byList = await inspect(PADDED_SOURCE, { varyings: ['out_position', 'gl_SkipComponents1', 'out_normal', 'gl_SkipComponents2',
    'gl_NextBuffer', 'out_texCoord0', 'out_id'] });
  const expected = [
    { binding: 0, stride: 40, fields: ['out_position@0+4[0] float32', 'out_normal@20+3[0] float32'] },
    { binding: 1, stride: 12, fields: ['out_texCoord0@0+2[0] float32', 'out_id@8+1[0] int32'] },
  ];
  for (const [way, plan] of [['declaration', byDeclaration], ['qualifiers', byQualifiers], ['list', byList]]) {
    assert.deepEqual(fieldsOf(plan), expected, way);
    assert.equal(plan.declared, true, way);
    assert.deepEqual(plan.varyings.map((v) => `${v.name} ${v.type}`), ['out_position vec4', 'out_normal vec3', 'out_texCoord0 vec2', 'out_id int'], way);
  }
  // Partial fields and an element: first_component says where in the varying a field starts.
  const partial = await inspect('out vec4 out_position; out vec4 out_color; out vec4 out_r[3];', { declaration: [
    { semantic: 'POSITION', components: [0, 3] }, { varying: 'out_color', components: [2, 0] }, { varying: 'out_r[2]', components: [1, 2] }] });
  assert.deepEqual(fieldsOf(partial), [{ binding: 0, stride: 28,
    fields: ['out_position@0+3[0] float32', 'out_color@12+2[2] float32', 'out_r[2]@20+2[1] float32'] }]);
  assert.deepEqual(partial.varyings.map((v) => `${v.name} ${v.components}`), ['out_position 4', 'out_color 4', 'out_r[2] 4'], 'the varyings whole');
  // Engines answer as the package's inspect() does.
  const xfb = await createXfb();
  assert.deepEqual(xfb.inspect(PADDED_SOURCE, padded), byDeclaration);
});

test('declared layouts: each rule refused by the planner with its code, naming the entry', async () => {
  const refused = async (code, source, options, ...mentions) => {
    const error = await inspect(source, options).then(() => null, (e) => e);
    assert.ok(error instanceof XfbError, `${code}: ${error}`);
    assert.equal(error.code, code, error.message);
    for (const m of mentions) assert.ok(error.message.includes(m), `${code}: '${m}' in: ${error.message}`);
  };
  await refused('XFB_LAYOUT_OFFSET', '#version 300 es\nlayout(xfb_offset = 2) out float out_a;\nvoid main() {}', {}, "'out_a'", 'xfb_offset 2', 'multiple of 4');
  await refused('XFB_LAYOUT_OVERLAP', 'layout(xfb_offset = 0) out vec4 out_a; layout(xfb_offset = 8) out vec2 out_b;', {}, "'out_b' at offset 8", "inside 'out_a'");
  await refused('XFB_LAYOUT_STRIDE', SEED, { declaration: [{ varying: 'out_position' }], strides: [12] }, 'strides[0]', 'less than its extent of 16 bytes');
  await refused('XFB_LAYOUT_STRIDE', SEED, { declaration: [{ varying: 'out_position' }], strides: [30] }, 'not a multiple of 4');
  await refused('XFB_LAYOUT_BUFFER', SEED, { declaration: [{ varying: 'out_position', buffer: 4 }] }, 'declaration entry 0', "'out_position'", 'buffer 4', '0..3');
  await refused('XFB_LAYOUT_BUFFER', SEED, { declaration: [{ varying: 'out_position' }, { varying: 'out_normal', buffer: 2 }] }, 'buffer 1');
  await refused('XFB_LAYOUT_COMPONENTS', SEED, { declaration: [{ varying: 'out_position', components: [3, 2] }] }, "components 3..4 of 'out_position' (vec4)");
  await refused('XFB_LAYOUT_COMPONENTS', SEED, { declaration: [{ varying: 'out_position' }, { skip: 0 }] }, 'declaration entry 1', 'a gap of 0 words');
  await refused('XFB_LAYOUT_CONFLICT', SEED, { declaration: [{ varying: 'out_position', semantic: 'POSITION' }] }, "both varying 'out_position' and semantic 'POSITION'");
  await refused('XFB_LAYOUT_CONFLICT', SEED, { declaration: [{ varying: 'out_position' }], varyings: ['out_normal'] }, 'declaration', 'varyings list');
  await refused('XFB_LAYOUT_CONFLICT', SEED, { declaration: [{ varying: 'out_position' }], mode: 'separate' }, 'interleaved mode only');
  await refused('XFB_LAYOUT_CONFLICT', SEED, { strides: [16] }, 'without a declared layout');
  await refused('XFB_DUPLICATE_VARYING', SEED, { declaration: [{ varying: 'out_position', components: [0, 2] }, { varying: 'out_position', components: [1, 1], buffer: 1 }] }, 'declaration entry 1');
  await refused('XFB_UNKNOWN_VARYING', SEED, { declaration: [{ semantic: 'TEXCOORD', semanticIndex: 5 }] }, 'out_texCoord5');
});

test('declared layouts: the options\' shapes and types are XFB_INVALID_ARGUMENT naming the entry and the field', async () => {
  const cases = [
    [{ declaration: { varying: 'out_position' } }, 'inspect(): declaration must be an array'],
    [{ declaration: ['out_position'] }, 'inspect(): declaration[0] must be an object'],
    [{ declaration: [{ varying: 'out_position' }, { varyng: 'out_normal' }] }, "inspect(): declaration[1]: unknown key 'varyng'"],
    [{ declaration: [{ varying: 3 }] }, 'inspect(): declaration[0].varying must be a string, got number'],
    [{ declaration: [{ semantic: null }] }, 'inspect(): declaration[0].semantic must be a string, got null'],
    [{ declaration: [{ semantic: 'TEXCOORD', semanticIndex: 1.5 }] }, 'inspect(): declaration[0].semanticIndex must be an integer 0..2^31-1, got 1.5'],
    [{ declaration: [{ varying: 'out_position', semanticIndex: 1 }] }, 'inspect(): declaration[0].semanticIndex is a semantic\'s index'],
    [{ declaration: [{ varying: 'out_position', components: 3 }] }, 'inspect(): declaration[0].components must be [start, count]'],
    [{ declaration: [{ varying: 'out_position', components: [0, 1, 2] }] }, 'got 3 items'],
    [{ declaration: [{ varying: 'out_position', components: [0, -1] }] }, 'inspect(): declaration[0].components[1] must be an integer 0..2^31-1, got -1'],
    [{ declaration: [{ varying: 'out_position', buffer: '1' }] }, 'inspect(): declaration[0].buffer must be an integer 0..2^31-1, got string'],
    [{ declaration: [{ skip: 2 ** 31 }] }, 'inspect(): declaration[0].skip must be an integer 0..2^31-1'],
    [{ declaration: [{ skip: 1, varying: 'out_position' }] }, 'inspect(): declaration[0]: a { skip } entry is a gap of words and takes no varying'],
    [{ declaration: [{ buffer: 1 }] }, 'inspect(): declaration[0] must name a varying or a semantic, or be a gap { skip: words }'],
    [{ declaration: [{ varying: 'out_position' }], strides: 40 }, 'inspect(): strides must be an array'],
    [{ declaration: [{ varying: 'out_position' }], strides: [16, NaN] }, 'inspect(): strides[1] must be an integer 0..2^31-1, got NaN'],
  ];
  for (const [options, message] of cases)
    await assert.rejects(inspect(SEED, options), (e) => {
      assert.ok(e instanceof XfbError && e.code === 'XFB_INVALID_ARGUMENT', `${e.code}: ${e.message}`);
      assert.ok(e.detail.startsWith('inspect(): declaration') || e.detail.startsWith('inspect(): strides'), e.detail);
      assert.ok(e.detail.includes(message), `'${message}' in: ${e.detail}`);
      return true;
    }, JSON.stringify(options));
});

// xfb-inspect (engine/tools) takes the same entries as JSON (--declaration) and --strides: the same
// plan as inspect(). Run where ctest gives the native tool (XFB_INSPECT, tests/web/CMakeLists.txt).
const xfbInspect = process.env.XFB_INSPECT;
test('declared layouts: xfb-inspect --declaration JSON --strides gives inspect()\'s plan, its shape errors exit 2, the rules 1', { skip: !xfbInspect && 'XFB_INSPECT not set (no native xfb-inspect)' }, async () => {
  const shader = join(mkdtempSync(join(tmpdir(), 'xfb-inspect-')), 'padded.vert');
  writeFileSync(shader, PADDED_SOURCE);
  const run = (...args) => {
    try {
      return { status: 0, out: execFileSync(xfbInspect, [shader, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
    } catch (e) {
      return { status: e.status, err: e.stderr };
    }
  };
  const printed = JSON.parse(run('--declaration', JSON.stringify(padded.declaration), '--strides', padded.strides.join(',')).out);
  const plan = await inspect(PADDED_SOURCE, padded);
  for (const key of ['declared', 'mode', 'varyings', 'buffers']) assert.deepEqual(printed[key], plan[key], key);
  const byList = JSON.parse(run('--varyings', 'out_position,gl_SkipComponents1,out_normal,gl_SkipComponents2,gl_NextBuffer,out_texCoord0,out_id').out);
  assert.deepEqual(byList.buffers, plan.buffers, 'the gl_SkipComponents list');
  const shape = run('--declaration', '[{"varying": "out_normal", "buffer": "1"}]');
  assert.equal(shape.status, 2);
  assert.match(shape.err, /--declaration\[0\]\.buffer must be an integer 0\.\.2\^31-1, got "1"/);
  const rule = run('--declaration', '[{"varying": "out_normal"}]', '--strides', '8');
  assert.equal(rule.status, 1);
  assert.match(rule.err, /XFB_LAYOUT_STRIDE: strides\[0\] gives buffer 0 a stride of 8 bytes, less than its extent of 12 bytes/);
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
  // Strings as (pointer, bytes); a list of strings as '\0'-ended items; a Float64Array as (pointer, count).
  const call = (name, ...args) => {
    const blocks = [];
    const flat = args.flatMap((a) => {
      if (a instanceof Float64Array) {
        const at = module._malloc(a.byteLength + 8);
        blocks.push(at);
        module.HEAPU8.set(new Uint8Array(a.buffer), at);
        return [at, a.length];
      }
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
    // inspect(source, mode, varyings, portable, defines as name, value, ..., the declaration's texts
    // (varying, semantic per entry), its numbers (semanticIndex, firstComponent, components, buffer
    // per entry, then the strides)): the plan, or { code, message }.
    inspect: (source, { mode = 'interleaved', varyings = [], portable = true, defines = {}, declaration = [], strides = [] } = {}) => {
      const texts = declaration.flatMap((e) => [e.varying ?? '', e.semantic ?? '']);
      const numbers = Float64Array.from([...declaration.flatMap((e) => [e.semanticIndex ?? 0, e.first ?? 0, e.components ?? 0, e.buffer ?? 0]), ...strides]);
      const { status, text } = call('inspect', source, mode, varyings, portable, Object.entries(defines).flatMap(([k, v]) => [k, String(v)]), texts, numbers);
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
    // A declaration crosses as texts and numbers: a gap (two empty texts) of 1 word, a stride of 24.
    const declared = module.inspect('out vec4 out_p; out float out_q;', {
      declaration: [{ varying: 'out_p', first: 1, components: 2 }, { components: 1 }, { semantic: 'SV_Position', buffer: 1 }, { varying: 'out_q' }], strides: [24] });
    assert.deepEqual(declared.buffers.map((b) => [b.stride, b.fields.map((f) => [f.varying, f.offset, f.components, f.first_component])]),
      [[24, [['out_p', 0, 2, 1], ['out_q', 12, 1, 0]]], [16, [['gl_Position', 0, 4, 0]]]], file);
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
    assert.deepEqual(e.backends, ['tf', 'compute', 'auto', 'fragment'], file);
    assert.deepEqual(e.expansions, ['auto', 'driver', 'engine'], file);
    assert.deepEqual(e.scalarKinds, { float: 0, int: 1, uint: 2, bool: 3, double: 4, struct: 5, opaque: 6 }, file);
    // Every code once, first and last as in xfb/error.hpp (60 codes).
    assert.equal(e.errorCodes.length, 66, file);
    assert.equal(new Set(e.errorCodes).size, 66, file);
    assert.equal(e.errorCodes[0], 'XFB_SHADER_SYNTAX', file);
    assert.equal(e.errorCodes.at(-1), 'XFB_INTERNAL', file);
    // The C++ constants JavaScript checks against (xfb/limits.hpp, xfb/fusion_plan.hpp) and
    // emittedDrawSnippet() with its uniforms' names (xfb/emit_plan.hpp), which drawEmitted() sets.
    const { emittedDrawSnippet, ...constants } = e.constants;
    assert.deepEqual(constants, { maxBufferBytes: 2 ** 31 - 1, maxSubsteps: 256, substepUniform: 'xfb_substep', emittedTotalsUniform: 'xfb_emitted_totals', emittedAtUniform: 'xfb_emitted_at' }, file);
    for (const part of ['uniform highp usampler2D xfb_emitted_totals;', 'uniform highp ivec4 xfb_emitted_at;', 'vec4 xfb_emittedPosition(vec4 position)'])
      assert.ok(emittedDrawSnippet.includes(part), `${file}: the snippet declares ${part}`);
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
    'samplers', 'feedbackBuffer', 'writtenBindings', 'framebuffer', 'packBuffer', 'packStore', 'raster'];
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
