// Misuse rows of primitive capture: createCapture, capture, drawCaptured, captureSession,
// drawSession, on both runtimes (WebGPU's draw-backs take a render encoder first: the setup's
// o.encoder, a GPURenderBundleEncoder).
import { forged, NOT_AN_OBJECT, NOT_NON_NEGATIVE_INTEGER } from '../bad-values.mjs';
import { family, peer } from '../family.mjs';

const INVALID = 'XFB_INVALID_ARGUMENT';
const roles = (o) => [{ input: o.a }, { output: o.b }];
/** capture.drawCaptured(options) / drawSession(options); on WebGPU into the setup's render encoder. */
const drawBack = (o, method, options) => (o.runtime === 'webgpu' ? o.capture[method](o.encoder, options) : o.capture[method](options));

/** Draws that capture() and every part of captureSession() refuse: not a draw, or a malformed one. */
const BAD_DRAWS = {
  null: null, undefined, empty: {}, 'mode-unknown': { mode: 'quads', count: 4 }, 'mode-missing': { count: 4 }, 'mode-number': { mode: 0, count: 4 },
  'count-missing': { mode: 'points' }, 'count-negative': { mode: 'points', count: -1 }, 'count-fractional': { mode: 'points', count: 1.5 },
  'count-string': { mode: 'points', count: '4' }, 'count-and-indices': { mode: 'points', count: 2, indices: [0, 1] },
  'indices-string': { mode: 'points', indices: '0,1' }, 'indices-fractional': { mode: 'points', indices: [0, 1.5] },
  'indices-negative': { mode: 'points', indices: [-1, 0] }, 'indices-Int16Array': { mode: 'points', indices: Int16Array.of(0, 1) },
  'indices-Float32Array': { mode: 'points', indices: Float32Array.of(0, 1) },
  'restartIndex-without-indices': { mode: 'points', count: 2, restartIndex: 0 }, 'restartIndex-negative': { mode: 'points', indices: [0, 1], restartIndex: -1 },
  'restartIndex-fractional': { mode: 'points', indices: [0, 1], restartIndex: 0.5 }, 'unknown-key': { mode: 'points', count: 2, instances: 1 },
};
const BAD_DRAW_OPTIONS = {
  ...NOT_AN_OBJECT, 'mode-unknown': { mode: 'quads' }, 'instances-zero': { instances: 0 }, 'instances-fractional': { instances: 1.5 },
  'instances-string': { instances: '2' }, 'unknown-key': { count: 4 },
};

const createCapture = peer('createCapture', [
  family('createCapture.program', { null: null, object: {} }, (program) => ({ code: INVALID, mentions: ['program'], call: (o) => o.xfb.createCapture(program, roles(o)) })),
  { id: 'createCapture.program.forged', code: INVALID, mentions: ['createCapture(): the first argument must be a program of this engine'],
    call: (o) => o.xfb.createCapture(forged(o.program), roles(o)) },
  { id: 'createCapture.program.buffer', code: INVALID, mentions: ['program'], call: (o) => o.xfb.createCapture(o.a, roles(o)) },
  family('createCapture.entries', { null: () => null, string: () => 'a', 'unknown-role': (o) => [{ input: o.a, outptu: o.b }] }, (entries) => ({
    code: INVALID, call: (o) => o.xfb.createCapture(o.program, entries(o)) })),
  { id: 'createCapture.roles.one-buffer-twice', code: INVALID, call: (o) => o.xfb.createCapture(o.program, [{ input: o.a }, { output: o.a }]) },
  family('createCapture.options', { ...NOT_AN_OBJECT, 'unknown-key': { count: 4 }, 'vertexCount-zero': { vertexCount: 0 }, 'vertexCount-fractional': { vertexCount: 1.5 },
    'vertexCount-string': { vertexCount: '4' }, 'expansion-unknown': { expansion: 'gpu' }, 'expansion-number': { expansion: 1 } }, (options) => ({
    code: INVALID, call: (o) => o.xfb.createCapture(o.program, roles(o), options) })),
]);

const capture = peer('capture', [
  family('capture.draw', BAD_DRAWS, (draw) => ({ code: INVALID, call: (o) => o.capture.capture(draw) })),
  { id: 'capture.count-beyond-inputs', code: INVALID, mentions: ['8', '4'], call: (o) => o.capture.capture({ mode: 'points', count: 8 }) },
  { id: 'capture.capacity', code: 'XFB_CAPACITY', call: (o) => o.capture.capture({ mode: 'points', indices: [0, 1, 2, 3, 0, 1] }) },
  { id: 'capture.index-beyond-input', code: INVALID, mentions: ['9'], call: (o) => o.capture.capture({ mode: 'points', indices: [0, 1, 9] }) },
  { id: 'drawCaptured.before-any-capture', code: INVALID, mentions: ['capture()'], call: (o) => drawBack(o, 'drawCaptured') },
  { id: 'drawSession.before-any-session', code: INVALID, mentions: ['captureSession()'], call: (o) => drawBack(o, 'drawSession') },
  // A capture over a disposed program or buffer: refused naming it, as a pipeline's step is.
  { id: 'capture.program-disposed', code: 'XFB_DISPOSED', mentions: ["'pass'"], before: (o) => o.captureParts.program.dispose(),
    call: (o) => o.capture.capture({ mode: 'points', count: 4 }) },
  { id: 'capture.output-disposed', code: 'XFB_DISPOSED', mentions: ["'cb'"], before: (o) => o.captureParts.output.dispose(),
    call: (o) => o.capture.capture({ mode: 'points', count: 4 }) },
  { id: 'drawCaptured.after-a-session', code: INVALID, mentions: ['drawSession()'], before: (o) => o.capture.captureSession([{ mode: 'points', count: 0 }]), // writes nothing
    call: (o) => drawBack(o, 'drawCaptured') },
  { id: 'drawSession.part-past-the-end', code: INVALID, mentions: ['part 1 does not exist', '1 parts'], before: (o) => o.capture.captureSession([{ mode: 'points', count: 0 }]), // writes nothing
    call: (o) => drawBack(o, 'drawSession', { part: 1 }) },
  family('drawCaptured.options', BAD_DRAW_OPTIONS, (options) => ({ code: INVALID, call: (o) => drawBack(o, 'drawCaptured', options) })),
  family('captureSession.parts', { ...BAD_DRAWS, 'not-an-array': 'parts', 'empty-list': [] }, (part, name) => ({
    code: INVALID, call: (o) => o.capture.captureSession(name === 'not-an-array' || name === 'empty-list' ? part : [part]) })),
  { id: 'captureSession.parts.program-not-program', code: INVALID, mentions: ['program'], call: (o) => o.capture.captureSession([{ mode: 'points', count: 2, program: 5 }]) },
  { id: 'captureSession.parts.program-of-spare-engine', setup: ['spare'], code: INVALID, mentions: ['program'],
    call: (o) => o.capture.captureSession([{ mode: 'points', count: 2, program: o.spare.program }]) },
  family('captureSession.options', { ...NOT_AN_OBJECT, 'unknown-key': { first: 0 } }, (options) => ({
    code: INVALID, call: (o) => o.capture.captureSession([{ mode: 'points', count: 2 }], options) })),
  family('captureSession.firstRecord', { ...NOT_NON_NEGATIVE_INTEGER, '2^53': 2 ** 53 }, (firstRecord) => ({
    code: INVALID, mentions: ['firstRecord'], call: (o) => o.capture.captureSession([{ mode: 'points', count: 2 }], { firstRecord }) })),
  { id: 'captureSession.capacity', code: 'XFB_CAPACITY', call: (o) => o.capture.captureSession([{ mode: 'points', count: 3 }, { mode: 'points', count: 3 }]) },
  family('drawSession.options', { ...BAD_DRAW_OPTIONS, 'part-negative': { part: -1 }, 'part-fractional': { part: 0.5 }, 'part-string': { part: '0' } }, (options) => ({
    code: INVALID, call: (o) => drawBack(o, 'drawSession', options) })),
]);

export const CAPTURE_ROWS = [...createCapture, ...capture].map((row) => ({
  ...row, setup: [...(row.peer === 'createCapture' ? [] : ['capture']), ...(row.setup ?? [])] }));
