// Misuse rows of the engine and its objects' lifetime: createXfb, on/off, use after dispose(),
// use while the context or device is lost, followBuffer, createdBuffers.
import { forged, NOT_AN_OBJECT, NOT_BOOLEAN } from '../bad-values.mjs';
import { family, peer } from '../family.mjs';
import { PASS_SOURCE, VEC4 } from '../setup.mjs';

const INVALID = 'XFB_INVALID_ARGUMENT';
const DISPOSED = 'XFB_DISPOSED';
/** o.engineOptions: { gl } of the page's WebGL2 engine, or { device } of the WebGPU one. */
const engine = (o, change) => o.pkg.createXfb({ ...o.engineOptions, ...change });

const createXfb = peer('createXfb', [
  family('createXfb.options', NOT_AN_OBJECT, (options) => ({ code: INVALID, mentions: ['createXfb()'], call: (o) => o.pkg.createXfb(options) })),
  { id: 'createXfb.unknown-key', code: INVALID, mentions: ["'canvass'"], call: (o) => engine(o, { canvass: null }) },
  family('createXfb.backend', { unknown: 'metal', 'upper-case': 'WebGPU', number: 2, null: null }, (backend) => ({
    code: INVALID, mentions: ['backend'], call: (o) => engine(o, { backend }) })),
  { id: 'createXfb.backend.of-the-other-runtime', code: INVALID, messageMayDiffer: 'each names the option given and the backend it belongs to',
    call: (o) => engine(o, { backend: o.runtime === 'webgl2' ? 'webgpu' : 'webgl2' }) },
  family('createXfb.ownsContext', NOT_BOOLEAN, (ownsContext) => ({
    code: INVALID, mentions: ['ownsContext'], messageMayDiffer: 'ownsContext is a WebGL2 option: the WebGPU engine refuses the key, WebGL2 its value',
    call: (o) => engine(o, { ownsContext }) })),
  { id: 'createXfb.context.not-a-context', code: INVALID, messageMayDiffer: 'each names its own context option: gl must be a WebGL2RenderingContext, device a GPUDevice',
    call: (o) => o.pkg.createXfb(o.runtime === 'webgl2' ? { gl: {} } : { device: {} }) },
  { id: 'createXfb.context.canvas-not-a-canvas', code: INVALID, mentions: ['canvas'], call: (o) => o.pkg.createXfb({ canvas: {} }) },
  { id: 'createXfb.context.gl-and-device', code: INVALID, call: (o) => o.pkg.createXfb({ gl: o.env.webgl(), device: o.env.device() }) },
]);

const on = peer('on', [
  family('on.type', { unknown: 'nope', 'dom-event-name': 'webglcontextlost', empty: '', undefined, number: 1, symbol: Symbol('event') }, (type) => ({
    code: INVALID, mentions: ['on()', 'contextlost'], call: (o) => o.xfb.on(type, () => {}) })),
  family('on.listener', { string: 'x', null: null, undefined, object: {} }, (listener) => ({
    code: INVALID, mentions: ['on()', 'function'], call: (o) => o.xfb.on('contextlost', listener) })),
  { id: 'off.type.unknown', code: INVALID, mentions: ['off()'], call: (o) => o.xfb.off('nope', () => {}) },
  { id: 'off.listener.number', code: INVALID, mentions: ['off()', 'function'], call: (o) => o.xfb.off('contextlost', 42) },
]);

/** A use of an object after `before` disposed it: [what is disposed, the use, what the message
 *  names (the object's label; an engine has none), extra setup]. */
const handle = (o, b) => (o.runtime === 'webgl2' ? b.glBuffer : b.gpuBuffer);
const USES_AFTER_DISPOSE = {
  'buffer.upload': [(o) => o.a, (o) => o.a.upload(new Float32Array(16)), "'a'"],
  'buffer.read': [(o) => o.a, (o) => o.a.read(), "'a'"],
  'buffer.layout': [(o) => o.a, (o) => o.a.layout, "'a'"],
  'buffer.handle': [(o) => o.a, (o) => handle(o, o.a), "'a'"],
  'buffer.in-createPipeline': [(o) => o.a, (o) => o.xfb.createPipeline(o.program, [{ input: o.a, output: o.b }]), "'a'"],
  'buffer.under-its-pipeline.step': [(o) => o.b, (o) => o.pipeline.step(), "'b'"],
  'program.setUniform': [(o) => o.program, (o) => o.program.setUniform('k', 3), "'sim'"],
  'program.plan': [(o) => o.program, (o) => o.program.plan, "'sim'"],
  'program.in-createPipeline': [(o) => o.program, (o) => o.xfb.createPipeline(o.program, [{ input: o.a, output: o.b }]), "'sim'"],
  'program.under-its-pipeline.step': [(o) => o.program, (o) => o.pipeline.step(), "'sim'"],
  'pipeline.step': [(o) => o.pipeline, (o) => o.pipeline.step(), 'pipeline'],
  'pipeline.step-substeps': [(o) => o.pipeline, (o) => o.pipeline.step(2), 'pipeline'],
  'pipeline.stepChecked': [(o) => o.pipeline, (o) => o.pipeline.stepChecked(), 'pipeline'],
  'pipeline.info': [(o) => o.pipeline, (o) => o.pipeline.info, 'pipeline'],
  'pipeline.fusion': [(o) => o.pipeline, (o) => o.pipeline.fusion(), 'pipeline'],
  'engine.createBuffer': [(o) => o.spare.xfb, (o) => o.spare.xfb.createBuffer({ format: VEC4, count: 4 }), 'engine', ['spare']],
  'engine.createProgram': [(o) => o.spare.xfb, (o) => o.spare.xfb.createProgram({ source: PASS_SOURCE }), 'engine', ['spare']],
  'engine.createPipeline': [(o) => o.spare.xfb, (o) => o.spare.xfb.createPipeline(o.spare.program, [{ input: o.spare.buffer }]), 'engine', ['spare']],
  'engine.liveObjects': [(o) => o.spare.xfb, (o) => o.spare.xfb.liveObjects(), 'engine', ['spare']],
  'engine.its-buffer.read': [(o) => o.spare.xfb, (o) => o.spare.buffer.read(), "'spare a'", ['spare']],
  'engine.its-buffer.upload': [(o) => o.spare.xfb, (o) => o.spare.buffer.upload(new Float32Array(16)), "'spare a'", ['spare']],
  'engine.its-program.setUniform': [(o) => o.spare.xfb, (o) => o.spare.program.setUniform('k', 1), "'spare'", ['spare']],
  'engine.its-pipeline.step': [(o) => o.spare.xfb, (o) => o.spare.pipeline.step(), 'pipeline', ['spare']],
  'engine.its-pipeline.stepChecked': [(o) => o.spare.xfb, (o) => o.spare.pipeline.stepChecked(), 'pipeline', ['spare']],
};
const dispose = peer('dispose', [
  family('dispose', USES_AFTER_DISPOSE, ([object, use, named, setup = []]) => ({ setup, code: DISPOSED, mentions: [named], before: (o) => object(o).dispose(), call: use })),
  { id: 'dispose.capture.capture', setup: ['capture'], code: DISPOSED, before: (o) => o.capture.dispose(), call: (o) => o.capture.capture({ mode: 'points', count: 4 }) },
]);

/** Calls on an engine whose context or device is lost: XFB_CONTEXT_LOST on both runtimes, the
 *  message naming the public call: [the call, its name]. */
const USES_WHILE_LOST = {
  createBuffer: [(l) => l.xfb.createBuffer({ format: VEC4, count: 4 }), 'createBuffer('], createProgram: [(l) => l.xfb.createProgram({ source: PASS_SOURCE }), 'createProgram('],
  createPipeline: [(l) => l.xfb.createPipeline(l.program, [{ input: l.buffer }]), 'createPipeline('], 'buffer.upload': [(l) => l.buffer.upload(new Float32Array(16)), 'upload('],
  'buffer.read': [(l) => l.buffer.read(), 'read('], 'program.setUniform': [(l) => l.program.setUniform('k', 3), 'setUniform('],
  'program.setUniform-int': [(l) => l.program.setUniform('n', 3), 'setUniform('], 'pipeline.step': [(l) => l.pipeline.step(), 'step('],
  'pipeline.step-substeps': [(l) => l.pipeline.step(2), 'step('], 'pipeline.stepChecked': [(l) => l.pipeline.stepChecked(), 'stepChecked('],
};
const lost = peer('lost', family('lost', USES_WHILE_LOST, ([use, name]) => ({
  setup: ['lost'], code: 'XFB_CONTEXT_LOST', mentions: [name],
  messageMayDiffer: 'the way back differs: a lost WebGL context comes back by itself (wait for contextrestored), a lost WebGPU device through restore(device)',
  call: (o) => use(o.lost) })));

const helpers = peer('followBuffer', [
  family('followBuffer.buffer', { null: () => null, undefined: () => undefined, object: () => ({}), program: (o) => o.program, forged: (o) => forged(o.a) }, (buffer) => ({
    code: INVALID, mentions: ['followBuffer()', 'buffer'], call: (o) => o.pkg.followBuffer(buffer(o), () => 0) })),
  family('followBuffer.make', { number: 5, undefined }, (make) => ({ code: INVALID, mentions: ['followBuffer()', 'make'], call: (o) => o.pkg.followBuffer(o.a, make) })),
  family('createdBuffers.gl', { null: null, object: {}, string: 'gl' }, (gl) => ({
    code: INVALID, mentions: ['createdBuffers()', 'gl'], call: (o) => o.pkg.createdBuffers(gl, () => 0) })),
  family('createdBuffers.fn', { number: 5, undefined }, (fn) => ({ code: INVALID, mentions: ['createdBuffers()'], call: (o) => o.pkg.createdBuffers(o.env.webgl(), fn) })),
]);

export const ENGINE_ROWS = [...createXfb, ...on, ...dispose, ...lost, ...helpers];
