// Misuse rows of buffers: createBuffer, adoptBuffer, upload, read.
import { NOT_AN_OBJECT, NOT_A_STRING, NOT_NON_NEGATIVE_INTEGER, NOT_POSITIVE_INTEGER } from '../bad-values.mjs';
import { family, peer, without } from '../family.mjs';
import { A, VEC4 } from '../setup.mjs';

const INVALID = 'XFB_INVALID_ARGUMENT';
const BASE = { format: VEC4, count: 4, label: 'new' };
const LIMIT_DIFFERS = "the limit is the runtime's: 2^31-1 bytes per WebGL2 buffer, the device's maxStorageBufferBindingSize on WebGPU";

/** Format descriptions that are not a format: a field of the wrong type or out of its range is
 *  XFB_INVALID_ARGUMENT; fields that are each valid but break a layout rule together (alignment,
 *  a semantic twice, overlapping attributes) are XFB_FORMAT_INVALID (error.hpp's definitions). */
const BAD_FORMATS = {
  missing: [undefined, INVALID, 'format'], null: [null, INVALID, 'format'], empty: [[], INVALID, 'format'], string: ['vec4', INVALID, 'format'],
  object: [{ semantic: 'ATTR0' }, INVALID, 'format'], 'null-entry': [[null], INVALID, 'format[0]'], 'no-semantic': [[{ components: 4 }], INVALID, 'semantic'],
  'unknown-semantic': [[{ semantic: 'ATTRX' }], INVALID, "'ATTRX'"], 'number-semantic': [[{ semantic: 0 }], INVALID, 'semantic'],
  'unknown-key': [[{ semantic: 'ATTR0', compnents: 4 }], INVALID, "'compnents'"],
  'components-fractional': [[{ semantic: 'ATTR0', components: 1.5 }], INVALID, 'components'], 'components-string': [[{ semantic: 'ATTR0', components: '4' }], INVALID, 'components'],
  'type-unknown': [[{ semantic: 'ATTR0', type: 'float64' }], INVALID, "'float64'"], 'type-prototype-name': [[{ semantic: 'ATTR0', type: 'toString' }], INVALID, "'toString'"],
  'components-zero': [[{ semantic: 'ATTR0', components: 0 }], INVALID, 'components'], 'components-17': [[{ semantic: 'ATTR0', components: 17 }], INVALID, 'components'],
  'offset-negative': [[{ semantic: 'ATTR0', offset: -4 }], INVALID, 'offset'], 'offset-unaligned': [[{ semantic: 'ATTR0', offset: 2 }], 'XFB_FORMAT_INVALID', 'offset'],
  'semantic-twice': [[{ semantic: 'ATTR0' }, { semantic: 'ATTR0' }], 'XFB_FORMAT_INVALID', 'ATTR0 appears twice'],
  overlap: [[{ semantic: 'ATTR0', components: 4, offset: 0 }, { semantic: 'ATTR1', components: 4, offset: 8 }], 'XFB_FORMAT_INVALID', 'ATTR1 overlaps ATTR0'],
};

/** Contents that do not fit vec4 x 4 (64 bytes of float32). */
const BAD_DATA = {
  Int32Array: new Int32Array(16), Uint8Array: new Uint8Array(64), Float64Array: new Float64Array(16), DataView: new DataView(new ArrayBuffer(64)),
  'too-short': new Float32Array(15), 'too-long': new Float32Array(17), 'ArrayBuffer-short': new ArrayBuffer(60), array: Array.from(A),
  string: 'data', number: 5, null: null,
};

const createBuffer = peer('createBuffer', [
  family('createBuffer.description', { ...NOT_AN_OBJECT, undefined }, (v) => ({ code: INVALID, call: (o) => o.xfb.createBuffer(v) })),
  { id: 'createBuffer.unknown-key', code: INVALID, mentions: ["'colour'"], call: (o) => o.xfb.createBuffer({ ...BASE, colour: 'red' }) },
  family('createBuffer.count', NOT_POSITIVE_INTEGER, (count) => ({ code: INVALID, mentions: ['count'], call: (o) => o.xfb.createBuffer({ ...BASE, count }) })),
  { id: 'createBuffer.count.missing', code: INVALID, mentions: ['count'], call: (o) => o.xfb.createBuffer(without(BASE, 'count')) },
  family('createBuffer.count.too-large', { '2^31': 2 ** 31, '2^53': 2 ** 53, MAX_VALUE: Number.MAX_VALUE }, (count) => ({
    code: 'XFB_BUFFER_TOO_LARGE', messageMayDiffer: LIMIT_DIFFERS, call: (o) => o.xfb.createBuffer({ ...BASE, count }) })),
  family('createBuffer.format', BAD_FORMATS, ([format, code, named]) => ({ code, mentions: [named], call: (o) => o.xfb.createBuffer({ ...BASE, format }) })),
  family('createBuffer.data', BAD_DATA, (data) => ({ code: INVALID, mentions: ['data'], call: (o) => o.xfb.createBuffer({ ...BASE, data }) })),
  family('createBuffer.restore', { unknown: 'always', number: 1, null: null }, (restore) => ({
    code: INVALID, mentions: ['restore'], call: (o) => o.xfb.createBuffer({ ...BASE, restore }) })),
  // stride: judged with the format by the engine's validator (a positive integer, then a multiple of 4 holding every attribute).
  family('createBuffer.stride', { zero: [0, INVALID], negative: [-16, INVALID], fractional: [16.5, INVALID], string: ['32', INVALID], null: [null, INVALID],
    '2^30': [2 ** 30, INVALID], 'not-a-multiple-of-4': [18, 'XFB_FORMAT_INVALID'], 'below-the-format': [12, 'XFB_FORMAT_INVALID'] }, ([stride, code]) => ({
    code, mentions: ['stride'], call: (o) => o.xfb.createBuffer({ ...BASE, stride }) })),
  { id: 'createBuffer.data.short-for-the-stride', code: INVALID, mentions: ['4 elements of 32 bytes need 128'], call: (o) => o.xfb.createBuffer({ ...BASE, stride: 32, data: A }) },
  family('createBuffer.label', NOT_A_STRING, (label) => ({ code: INVALID, mentions: ['label'], call: (o) => o.xfb.createBuffer({ ...BASE, label }) })),
]);

/** The runtime's kind of buffer to adopt (setup 'adoptable'): a WebGLBuffer on WebGL2, a GPUBuffer
 *  (STORAGE | VERTEX, 64 bytes) on WebGPU; each engine names its own kind in its messages. */
const HANDLE = { webgl2: 'glBuffer', webgpu: 'gpuBuffer' };
const OWN_KIND = 'each engine names its own kind of buffer (WebGLBuffer, GPUBuffer)';
const adopt = (o, change = {}) => o.xfb.adoptBuffer({ [HANDLE[o.runtime]]: o.adoptable, format: VEC4, count: 4, ...change });
const handle = (o, value) => ({ [HANDLE[o.runtime]]: value });
const adoptBuffer = peer('adoptBuffer', [
  family('adoptBuffer.description', { null: null, undefined, string: 'buffer' }, (v) => ({ code: INVALID, call: (o) => o.xfb.adoptBuffer(v) })),
  family('adoptBuffer.handle', { missing: undefined, null: null, object: {}, number: 5 }, (value) => ({
    code: INVALID, mentions: ['adoptBuffer()'], messageMayDiffer: OWN_KIND, call: (o) => adopt(o, handle(o, value)) })),
  { id: 'adoptBuffer.handle.xfb-buffer', code: INVALID, messageMayDiffer: OWN_KIND, call: (o) => adopt(o, handle(o, o.a)) },
  // WebGL2: a WebGLBuffer of another context; WebGPU: a WebGLBuffer, not a GPUBuffer.
  { id: 'adoptBuffer.handle.foreign', setup: ['otherGl'], code: INVALID, messageMayDiffer: OWN_KIND, call: (o) => adopt(o, handle(o, o.otherGl)) },
  { id: 'adoptBuffer.handle.the-other-engines-kind', code: INVALID, messageMayDiffer: OWN_KIND, mentions: ["engine's; this engine adopts"],
    call: (o) => adopt(o, { [HANDLE[o.runtime === 'webgl2' ? 'webgpu' : 'webgl2']]: o.adoptable }) },
  { id: 'adoptBuffer.smaller-than-count', code: 'XFB_CAPACITY', messageMayDiffer: OWN_KIND, call: (o) => adopt(o, { count: 8 }) },
  family('adoptBuffer.count', { zero: 0, fractional: 1.5, string: '4', missing: undefined }, (count) => ({
    code: INVALID, mentions: ['count'], call: (o) => adopt(o, { count }) })),
  { id: 'adoptBuffer.count.too-large', code: 'XFB_BUFFER_TOO_LARGE', call: (o) => adopt(o, { count: 2 ** 31 }) },
  { id: 'adoptBuffer.format.null', code: INVALID, call: (o) => adopt(o, { format: null }) },
  { id: 'adoptBuffer.format.overlap', code: 'XFB_FORMAT_INVALID', call: (o) => adopt(o, { format: BAD_FORMATS.overlap[0] }) },
  { id: 'adoptBuffer.stride.below-the-format', code: 'XFB_FORMAT_INVALID', mentions: ['stride 12'], call: (o) => adopt(o, { stride: 12 }) },
  { id: 'adoptBuffer.unknown-key', code: INVALID, mentions: ["'data'"], call: (o) => adopt(o, { data: A }) },
]).map((row) => ({ ...row, setup: ['adoptable', ...(row.setup ?? [])] }));

/** Data that is not 16 floats' worth of float32 words. */
const BAD_UPLOAD_DATA = {
  null: null, undefined, string: 'data', number: 5, array: [1, 2, 3, 4], Int32Array: new Int32Array(16), Uint32Array: new Uint32Array(16),
  Float64Array: new Float64Array(16), Uint8Array: new Uint8Array(16), DataView: new DataView(new ArrayBuffer(16)), 'too-long': new Float32Array(17),
  'ArrayBuffer-of-6-bytes': new ArrayBuffer(6),
};
const upload = peer('upload', [
  family('upload.data', BAD_UPLOAD_DATA, (data) => ({ code: INVALID, mentions: ['upload()'], call: (o) => o.a.upload(data) })),
  family('upload.offset', { ...NOT_NON_NEGATIVE_INTEGER, unaligned: 2, 'past-the-end': 56, '2^53': 2 ** 53 }, (offset) => ({
    code: INVALID, mentions: ['offset'], call: (o) => o.a.upload(new Float32Array(4), { offset }) })),
  family('upload.options', NOT_AN_OBJECT, (options) => ({ code: INVALID, call: (o) => o.a.upload(new Float32Array(4), options) })),
  { id: 'upload.options.unknown-key', code: INVALID, mentions: ["'ofset'"], call: (o) => o.a.upload(new Float32Array(4), { ofset: 4 }) },
  { id: 'upload.data.float-into-int32', setup: ['ints'], code: INVALID, mentions: ['Int32Array'], call: (o) => o.ints.upload(new Float32Array(16)) },
]);

/** read({ first, count }) of buffer a (4 elements): bad options and ranges past the end. */
const read = peer('read', [
  family('read.options', NOT_AN_OBJECT, (options) => ({ code: INVALID, call: (o) => o.a.read(options) })),
  { id: 'read.options.unknown-key', code: INVALID, mentions: ["'frist'"], call: (o) => o.a.read({ frist: 1 }) },
  family('read.first', { ...NOT_NON_NEGATIVE_INTEGER, '2^53': 2 ** 53 }, (first) => ({ code: INVALID, mentions: ['first'], call: (o) => o.a.read({ first }) })),
  family('read.count', { ...NOT_NON_NEGATIVE_INTEGER, '2^53': 2 ** 53 }, (count) => ({ code: INVALID, mentions: ['count'], call: (o) => o.a.read({ count }) })),
  family('read.range', { 'past-the-end': { first: 2, count: 3 }, 'first-past-the-end': { first: 5 }, 'count-past-the-end': { count: 5 } }, (range) => ({
    code: INVALID, mentions: ['first + count <= 4'], call: (o) => o.a.read(range) })),
]);

export const BUFFER_ROWS = [...createBuffer, ...adoptBuffer, ...upload, ...read];
