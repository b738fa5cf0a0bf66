// Misuse rows of programs: createProgram and its options, inspect, setUniform per uniform type.
import { NOT_AN_INT, NOT_AN_OBJECT, NOT_A_STRING, NOT_A_UINT, NOT_A_UNIFORM_NAME, NOT_A_UNIFORM_VALUE, NOT_BOOLEAN } from '../bad-values.mjs';
import { family, peer } from '../family.mjs';
import { GEOMETRY, PASS_SOURCE, geometryPipeline } from '../setup.mjs';

const INVALID = 'XFB_INVALID_ARGUMENT';
const BASE = { source: PASS_SOURCE, label: 'new' };
const shader = (body) => `#version 300 es\n${body}`;

/** Program options every call that plans a shader takes (createProgram, inspect). */
const BAD_OPTIONS = {
  'mode.unknown': { mode: 'sideways' }, 'mode.empty': { mode: '' }, 'mode.upper-case': { mode: 'Interleaved' }, 'mode.number': { mode: 1 }, 'mode.null': { mode: null },
  'varyings.string': { varyings: 'out_p' }, 'varyings.numbers': { varyings: [1] }, 'varyings.object': { varyings: {} }, 'varyings.null': { varyings: null },
  'defines.NaN': { defines: { N: NaN } }, 'defines.Infinity': { defines: { N: Infinity } }, 'defines.null-value': { defines: { N: null } },
  'defines.object-value': { defines: { N: {} } }, 'defines.array-value': { defines: { N: [1] } }, 'defines.symbol-value': { defines: { N: Symbol('N') } },
  'defines.bigint-value': { defines: { N: 1n } }, 'defines.space-in-name': { defines: { 'bad name': 1 } }, 'defines.digit-first': { defines: { '1N': 1 } },
  'defines.string': { defines: 'N=1' }, 'defines.entries': { defines: [['N', 1]] }, 'defines.null': { defines: null },
  ...Object.fromEntries(Object.entries(NOT_BOOLEAN).map(([name, portable]) => [`portable.${name}`, { portable }])),
};
const mentionOf = (key) => [key.split('.')[0]];

/** Declared layouts (ProgramOptions.declaration, strides) of the wrong shape or type: refused by the
 *  package's one validator, naming the entry index and the field. */
const BAD_LAYOUTS = {
  'declaration.string': [{ declaration: 'out_p' }, 'declaration must be an array'], 'declaration.null': [{ declaration: null }, 'declaration must be an array'],
  'declaration.object': [{ declaration: { varying: 'out_p' } }, 'declaration must be an array'],
  'declaration.entry-null': [{ declaration: [null] }, 'declaration[0] must be an object'], 'declaration.entry-string': [{ declaration: ['out_p'] }, 'declaration[0] must be an object'],
  'declaration.entry-empty': [{ declaration: [{}] }, 'declaration[0] must name a varying or a semantic'],
  'declaration.unknown-key': [{ declaration: [{ varyng: 'out_p' }] }, "declaration[0]: unknown key 'varyng'"],
  'declaration.varying-number': [{ declaration: [{ varying: 1 }] }, 'declaration[0].varying must be a string'],
  'declaration.semantic-null': [{ declaration: [{ semantic: null }] }, 'declaration[0].semantic must be a string'],
  'declaration.semanticIndex-fractional': [{ declaration: [{ semantic: 'TEXCOORD', semanticIndex: 1.5 }] }, 'declaration[0].semanticIndex must be an integer'],
  'declaration.semanticIndex-without-semantic': [{ declaration: [{ varying: 'out_p', semanticIndex: 1 }] }, 'declaration[0].semanticIndex'],
  'declaration.components-number': [{ declaration: [{ varying: 'out_p', components: 4 }] }, 'declaration[0].components must be [start, count]'],
  'declaration.components-three': [{ declaration: [{ varying: 'out_p', components: [0, 1, 2] }] }, 'declaration[0].components must be [start, count]'],
  'declaration.components-negative': [{ declaration: [{ varying: 'out_p', components: [-1, 2] }] }, 'declaration[0].components[0] must be an integer'],
  'declaration.components-string': [{ declaration: [{ varying: 'out_p', components: [0, '2'] }] }, 'declaration[0].components[1] must be an integer'],
  'declaration.buffer-string': [{ declaration: [{ varying: 'out_p', buffer: '0' }] }, 'declaration[0].buffer must be an integer'],
  'declaration.buffer-null': [{ declaration: [{ varying: 'out_p', buffer: null }] }, 'declaration[0].buffer must be an integer'],
  'declaration.second-entry-buffer-NaN': [{ declaration: [{ varying: 'out_p' }, { skip: 1, buffer: NaN }] }, 'declaration[1].buffer must be an integer'],
  'declaration.skip-fractional': [{ declaration: [{ varying: 'out_p' }, { skip: 0.5 }] }, 'declaration[1].skip must be an integer'],
  'declaration.skip-with-varying': [{ declaration: [{ skip: 1, varying: 'out_p' }] }, 'declaration[0]: a { skip } entry'],
  'strides.number': [{ declaration: [{ varying: 'out_p' }], strides: 16 }, 'strides must be an array'], 'strides.null': [{ declaration: [{ varying: 'out_p' }], strides: null }, 'strides must be an array'],
  'strides.string-element': [{ declaration: [{ varying: 'out_p' }], strides: ['16'] }, 'strides[0] must be an integer'],
  'strides.negative': [{ declaration: [{ varying: 'out_p' }], strides: [-4] }, 'strides[0] must be an integer'],
};

/** Declared layouts the planner refuses (the same C++ on both runtimes), each with its rule's code. */
const qualified = (body) => shader(`in vec4 p;\n${body}\nvoid main() { out_p = p; }`);
const LAYOUT_RULES = {
  offset: [qualified('layout(xfb_offset = 2) out vec4 out_p;'), {}, 'XFB_LAYOUT_OFFSET', ["'out_p'", 'xfb_offset 2']],
  overlap: [qualified('layout(xfb_offset = 0) out vec4 out_p;\nlayout(xfb_offset = 8) out vec2 out_q;'), {}, 'XFB_LAYOUT_OVERLAP', ["'out_q' at offset 8", "inside 'out_p'"]],
  stride: [PASS_SOURCE, { declaration: [{ varying: 'out_p' }], strides: [12] }, 'XFB_LAYOUT_STRIDE', ['strides[0]', 'extent of 16 bytes']],
  buffer: [PASS_SOURCE, { declaration: [{ varying: 'out_p', buffer: 4 }] }, 'XFB_LAYOUT_BUFFER', ['declaration entry 0', 'buffer 4']],
  'buffer-hole': [PASS_SOURCE, { varyings: ['out_p', 'gl_NextBuffer', 'gl_NextBuffer'] }, 'XFB_LAYOUT_BUFFER', ['buffer 1']],
  components: [PASS_SOURCE, { declaration: [{ varying: 'out_p', components: [3, 2] }] }, 'XFB_LAYOUT_COMPONENTS', ["components 3..4 of 'out_p' (vec4)"]],
  'skip-5': [PASS_SOURCE, { varyings: ['out_p', 'gl_SkipComponents5'] }, 'XFB_LAYOUT_COMPONENTS', ["'gl_SkipComponents5'"]],
  'varying-and-semantic': [PASS_SOURCE, { declaration: [{ varying: 'out_p', semantic: 'POSITION' }] }, 'XFB_LAYOUT_CONFLICT', ["varying 'out_p' and semantic 'POSITION'"]],
  'separate-mode': [PASS_SOURCE, { declaration: [{ varying: 'out_p' }], mode: 'separate' }, 'XFB_LAYOUT_CONFLICT', ['interleaved mode only']],
  'unknown-semantic': [PASS_SOURCE, { declaration: [{ semantic: 'TEXCOORD', semanticIndex: 9 }] }, 'XFB_UNKNOWN_VARYING', ["semantic 'TEXCOORD' index 9"]],
};

/** Shaders the planner refuses (the same C++ on both runtimes), and one the compiler refuses. */
const BAD_SHADERS = {
  'no-captured-varyings': [shader('in vec4 p;\nvoid main() { gl_Position = p; }'), 'XFB_NO_CAPTURED_VARYINGS'],
  'unreadable-declaration': [shader('in vec4 p\nout vec4 out_p;\nvoid main() { out_p = p; }'), 'XFB_SHADER_SYNTAX'],
  'active-error-directive': [shader('#error stop here\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }'), 'XFB_PREPROCESSOR_DIRECTIVE'],
  'bool-attribute': [shader('in bool flag;\nout vec4 out_p;\nvoid main() { out_p = vec4(flag ? 1.0 : 0.0); }'), 'XFB_ATTRIBUTE_TYPE'],
  'location-collision': [shader('layout(location = 0) in vec4 p;\nlayout(location = 0) in vec4 q;\nout vec4 out_p;\nvoid main() { out_p = p + q; }'), 'XFB_ATTRIBUTE_LOCATION_COLLISION'],
  'too-large': [`${PASS_SOURCE}\n//${'x'.repeat(1 << 20)}`, 'XFB_SOURCE_TOO_LARGE'],
};

const createProgram = peer('createProgram', [
  family('createProgram.description', { ...NOT_AN_OBJECT, undefined }, (v) => ({ code: INVALID, call: (o) => o.xfb.createProgram(v) })),
  { id: 'createProgram.unknown-key', code: INVALID, mentions: ["'varyngs'"], call: (o) => o.xfb.createProgram({ ...BASE, varyngs: ['out_p'] }) },
  family('createProgram.source', { ...NOT_A_STRING, missing: undefined }, (source) => ({ code: INVALID, mentions: ['source'], call: (o) => o.xfb.createProgram({ ...BASE, source }) })),
  family('createProgram', BAD_OPTIONS, (options, key) => ({ code: INVALID, mentions: mentionOf(key), call: (o) => o.xfb.createProgram({ ...BASE, ...options }) })),
  family('createProgram', BAD_LAYOUTS, ([options, named]) => ({ code: INVALID, mentions: [`createProgram(): ${named}`], call: (o) => o.xfb.createProgram({ ...BASE, ...options }) })),
  family('createProgram.layout', LAYOUT_RULES, ([source, options, code, mentions]) => ({ code, mentions, call: (o) => o.xfb.createProgram({ source, ...options, label: 'bad' }) })),
  family('createProgram.label', NOT_A_STRING, (label) => ({ code: INVALID, mentions: ['label'], call: (o) => o.xfb.createProgram({ ...BASE, label }) })),
  family('createProgram.geometry', { ...NOT_A_STRING, empty: '' }, (geometry) => ({ code: INVALID, mentions: ['createProgram(): geometry'], call: (o) => o.xfb.createProgram({ ...BASE, geometry }) })),
  family('createProgram.fragment', { ...NOT_A_STRING, empty: '' }, (fragment) => ({ code: INVALID, mentions: ['createProgram(): fragment'], call: (o) => o.xfb.createProgram({ ...BASE, fragment }) })),
  // Issue 27: WebGL2 refuses a geometry program, naming where it runs; WebGPU runs it (a capture's compute passes).
  { id: 'createProgram.geometry.unsupported', code: 'XFB_GEOMETRY_UNSUPPORTED', mentions: ["program 'new' has a geometry shader", 'WebGL2 has no geometry shaders', 'createXfb({ device })', 'OpenGL 4.3+ / ES 3.1+'],
    notOn: { webgpu: { code: 'XFB_UNSUPPORTED', reason: 'WebGPU makes the geometry program (its capture runs as compute passes); what it refuses is the pipeline of it, the row createPipeline.program.geometry' } },
    call: geometryPipeline },
  { id: 'createProgram.geometry.after-shape-checks', code: INVALID, mentions: ['createProgram(): mode'], call: (o) => o.xfb.createProgram({ ...BASE, geometry: GEOMETRY, mode: 'sideways' }) },
  { id: 'createProgram.varyings.unknown', code: 'XFB_UNKNOWN_VARYING', mentions: ["'nope'"], call: (o) => o.xfb.createProgram({ ...BASE, varyings: ['nope'] }) },
  { id: 'createProgram.varyings.twice', code: 'XFB_DUPLICATE_VARYING', mentions: ["'out_p'"], call: (o) => o.xfb.createProgram({ ...BASE, varyings: ['out_p', 'out_p'] }) },
  { id: 'createProgram.separate.mat4-varying', code: 'XFB_SEPARATE_COMPONENTS', mentions: ["'out_m'"],
    call: (o) => o.xfb.createProgram({ source: shader('in vec4 p;\nout mat4 out_m;\nvoid main() { out_m = mat4(p.x); }'), mode: 'separate' }) },
  family('createProgram.shader', BAD_SHADERS, ([source, code]) => ({ code, call: (o) => o.xfb.createProgram({ source, label: 'bad' }) })),
  { id: 'createProgram.shader.undeclared-name', code: 'XFB_SHADER_COMPILE', mentions: ["'bad'", 'nope'],
    messageMayDiffer: "the compiler's log is the runtime's own: the GL compiler's on WebGL2, the GLSL-to-WGSL translator's on WebGPU",
    call: (o) => o.xfb.createProgram({ source: shader('in vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * nope; }'), label: 'bad' }) },
]);

const inspect = peer('inspect', [
  family('inspect.source', { ...NOT_A_STRING, missing: undefined }, (source) => ({ code: INVALID, mentions: ['source'], call: (o) => o.xfb.inspect(source) })),
  family('inspect.options', NOT_AN_OBJECT, (options) => ({ code: INVALID, call: (o) => o.xfb.inspect(PASS_SOURCE, options) })),
  { id: 'inspect.options.label', code: INVALID, mentions: ["'label'"], call: (o) => o.xfb.inspect(PASS_SOURCE, { label: 'x' }) },
  { id: 'inspect.options.geometry', code: INVALID, mentions: ["'geometry'"], call: (o) => o.xfb.inspect(PASS_SOURCE, { geometry: GEOMETRY }) },
  family('inspect', BAD_OPTIONS, (options, key) => ({ code: INVALID, mentions: mentionOf(key), call: (o) => o.xfb.inspect(PASS_SOURCE, options) })),
  family('inspect', BAD_LAYOUTS, ([options, named]) => ({ code: INVALID, mentions: [`inspect(): ${named}`], call: (o) => o.xfb.inspect(PASS_SOURCE, options) })),
  family('inspect.layout', LAYOUT_RULES, ([source, options, code, mentions]) => ({ code, mentions, call: (o) => o.xfb.inspect(source, options) })),
  { id: 'inspect.module.declaration.entry-empty', code: INVALID, mentions: ['inspect(): declaration[0]'], call: (o) => o.pkg.inspect(PASS_SOURCE, { declaration: [{}] }) },
  { id: 'inspect.module.mode.unknown', code: INVALID, mentions: ["'sideways'"], call: (o) => o.pkg.inspect(PASS_SOURCE, { mode: 'sideways' }) },
  { id: 'inspect.shader.no-captured-varyings', code: 'XFB_NO_CAPTURED_VARYINGS', call: (o) => o.xfb.inspect(BAD_SHADERS['no-captured-varyings'][0]) },
]);

/** Value counts each uniform of the 'sim' program refuses (XFB_UNIFORM_TYPE): too few, too many,
 *  not a whole number of elements of an array. */
const BAD_COUNTS = {
  k: [2], v2: [1, 3], v3: [2, 4], v4: [5], i2: [1], i3: [4], i4: [3], u2: [3], u3: [2], m2: [3, 5], m3: [8], m4: [15, 17], m23: [5], m34: [11], m42: [7], va: [6, 12],
};
const values = (n) => Array.from({ length: n }, (_, i) => i + 1);
const set = (name, value) => (o) => o.program.setUniform(name, value);

const setUniform = peer('setUniform', [
  family('setUniform.name', { ...NOT_A_STRING, missing: undefined }, (name) => ({ code: INVALID, call: set(name, 1) })),
  family('setUniform.name', NOT_A_UNIFORM_NAME, (name) => ({ code: 'XFB_UNKNOWN_UNIFORM', mentions: [`'${name}'`, "'sim'"], call: set(name, 1) })),
  ...['k', 'v3', 'i2', 'u', 'm4'].map((name) => family(`setUniform.${name}`, NOT_A_UNIFORM_VALUE, (value) => ({ code: INVALID, mentions: [`'${name}'`], call: set(name, value) }))),
  family('setUniform.n', NOT_AN_INT, (value) => ({ code: 'XFB_UNIFORM_TYPE', mentions: ["'n'", 'int'], call: set('n', value) })),
  family('setUniform.i3', { 'one-fractional': [1, 2.5, 3], 'one-2^40': [1, 2 ** 40, 3], 'Float64Array-with-a-fraction': Float64Array.of(1, 2.5, 3) }, (value) => ({
    code: 'XFB_UNIFORM_TYPE', mentions: ["'i3'"], call: set('i3', value) })),
  family('setUniform.u', NOT_A_UINT, (value) => ({ code: 'XFB_UNIFORM_TYPE', mentions: ["'u'", 'uint'], call: set('u', value) })),
  family('setUniform.u4', { 'one-negative': [1, -1, 2, 3], 'one-2^32': [1, 2, 2 ** 32, 3] }, (value) => ({ code: 'XFB_UNIFORM_TYPE', mentions: ["'u4'"], call: set('u4', value) })),
  Object.entries(BAD_COUNTS).flatMap(([name, counts]) => counts.map((n) => ({
    id: `setUniform.${name}.count-${n}`, code: 'XFB_UNIFORM_TYPE', mentions: [`'${name}'`], call: set(name, values(n)) }))),
  // Bool uniforms take integers (as WebGL2's uniform1i does), on WebGPU an i32 in the uniform buffer.
  [['f', 'fractional', 2.5, 'XFB_UNIFORM_TYPE'], ['f', '2^40', 2 ** 40, 'XFB_UNIFORM_TYPE'], ['f', 'NaN', NaN, INVALID], ['f', 'string', '1', INVALID],
    ['b2', 'count-1', [1], 'XFB_UNIFORM_TYPE'], ['b3', 'count-4', [1, 0, 1, 0], 'XFB_UNIFORM_TYPE'], ['b4', 'one-fractional', [1, 0.5, 0, 1], 'XFB_UNIFORM_TYPE'],
  ].map(([name, what, value, code]) => ({ id: `setUniform.bool.${name}.${what}`, setup: ['bools'], code, mentions: [`'${name}'`],
    call: (o) => o.bools.setUniform(name, value) })),
]);

export const PROGRAM_ROWS = [...createProgram, ...inspect, ...setUniform];
