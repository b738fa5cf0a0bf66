// The application's own GL state around xfb calls: its buffers bound to other targets
// (simultaneous binding), its vertex array, and its own transform feedback object bound, active
// or paused (switching objects). xfb must give the same bytes and leave all of it as it was.
import { CAPTURE_ONLY, NO_GL_ON_WEBGPU, S, doubler, range, vec4, vertexIdRecord, vertexIdSource } from '../words.mjs';

const input4 = range(16, (i) => i);
const doubled = range(16, (i) => i * 2 + Math.floor(i / 4));
const stepCase = { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 4 } };
const captured = range(6, vertexIdRecord).flat();

// Where an application may also have bound xfb's output buffer.
const bindings = [
  ['array-buffer', { bind: 'ARRAY_BUFFER' }],
  ['uniform-buffer', { bind: 'UNIFORM_BUFFER' }],
  ['uniform-buffer-index-0', { bindBase: 'UNIFORM_BUFFER', index: 0 }],
  ['uniform-buffer-index-1', { bindBase: 'UNIFORM_BUFFER', index: 1 }],
  // Issue 39: the generic binding set back to null after bindBufferBase/Range (as engines do)
  // hid the indexed point from xfb's WebGL2 guard: INVALID_OPERATION, a short write, XFB_GL_ERROR.
  ['uniform-buffer-index-0-generic-unbound', [{ bindBase: 'UNIFORM_BUFFER', index: 0 }, { unbind: 'UNIFORM_BUFFER' }]],
  ['uniform-buffer-range-generic-unbound', [{ bindRange: 'UNIFORM_BUFFER', index: 2, offset: 0, size: 32 }, { unbind: 'UNIFORM_BUFFER' }]],
  ['pixel-pack', { bind: 'PIXEL_PACK_BUFFER' }],
  ['pixel-unpack', { bind: 'PIXEL_UNPACK_BUFFER' }],
  ['copy-read', { bind: 'COPY_READ_BUFFER' }],
  ['copy-write', { bind: 'COPY_WRITE_BUFFER' }],
  ['transform-feedback-buffer', { bind: 'TRANSFORM_FEEDBACK_BUFFER' }],
  ['vertex-array', { vertexArray: true, location: 0 }],
];
const appBind = (actions, buffer) =>
  [actions].flat().map((a) => ({ op: 'app', ...a, ...(a.unbind ? {} : a.vertexArray ? { vertexArray: buffer } : { buffer }) }));
const simultaneous = bindings.flatMap(([name, action]) => [
  {
    id: `simultaneous.${name}.step`,
    peers: ['webgl conformance2/transform_feedback/simultaneous_binding.html', 'webgl conformance2/transform_feedback/simultaneous_access.html'],
    intent: `a step writes its output while the application also has it bound (${name}); the binding is kept`,
    finding: 4,
    na: NO_GL_ON_WEBGPU,
    buffers: stepCase,
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, ...appBind(action, 'out'), { op: 'step' }],
    expect: { buffers: { out: doubled } },
  },
  {
    id: `simultaneous.${name}.step-checked`,
    peers: ['webgl conformance2/transform_feedback/simultaneous_binding.html'],
    intent: `a checked step counts every record while the application also has the output bound (${name})`,
    finding: 4,
    na: NO_GL_ON_WEBGPU,
    buffers: stepCase,
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, ...appBind(action, 'out'), { op: 'stepChecked', written: 4 }],
    expect: { buffers: { out: doubled } },
  },
  {
    id: `simultaneous.${name}.capture`,
    peers: ['webgl conformance2/transform_feedback/simultaneous_binding.html'],
    intent: `a primitive capture writes its output while the application also has it bound (${name})`,
    finding: 4,
    na: { ...NO_GL_ON_WEBGPU, ...CAPTURE_ONLY },
    buffers: { out: { format: vec4(0), count: 6 } },
    run: [
      { op: 'program', source: vertexIdSource },
      { op: 'capture', entries: [{ output: 'out' }], vertexCount: 6 },
      ...appBind(action, 'out'),
      { op: 'draw', mode: 'triangles', count: 6, records: 6 },
    ],
    expect: { buffers: { out: captured } },
  },
]);

// The application's own transform feedback object: bound (xfb must work and rebind it), active
// or paused (xfb refuses every call before touching anything, and the application's capture goes on).
const ops = {
  program: [{ op: 'program', source: doubler }],
  pipeline: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }],
  step: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'step' }],
  'step-checked': [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'stepChecked', written: 4 }],
  read: [{ op: 'read', buffer: 'a', expect: input4 }],
  upload: [{ op: 'upload', buffer: 'out', data: range(4, (i) => i + 100) }],
  'capture-object': [{ op: 'program', source: doubler }, { op: 'capture', entries: [{ input: 'a' }, { output: 'out' }] }],
  'capture-draw': [{ op: 'program', source: doubler }, { op: 'capture', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'draw', mode: 'points', count: 4, records: 4 }],
};
const afterOps = {
  program: {},
  pipeline: {},
  step: { out: doubled },
  'step-checked': { out: doubled },
  read: { a: input4 },
  upload: { out: [100, 101, 102, 103, ...range(12, () => S)] },
  'capture-object': {},
  'capture-draw': { out: doubled },
};
const isCapture = (name) => name.startsWith('capture');
const feedback = Object.entries(ops).flatMap(([name, run]) => [
  {
    id: `own-feedback.bound.${name}`,
    peers: ['webgl conformance2/transform_feedback/switching-objects.html', 'dEQP-GLES3.functional.transform_feedback (state)'],
    intent: `${name} works while the application's own transform feedback object is bound (not active), and leaves it bound`,
    finding: 3,
    na: isCapture(name) ? { ...NO_GL_ON_WEBGPU, ...CAPTURE_ONLY } : NO_GL_ON_WEBGPU,
    buffers: stepCase,
    run: [{ op: 'app', feedback: 'bound' }, ...run],
    expect: { buffers: afterOps[name] },
  },
  ...['active', 'paused'].map((state) => ({
    id: `own-feedback.${state}.${name}`,
    peers: ['webgl conformance2/transform_feedback/switching-objects.html', 'webgl conformance2/transform_feedback/states-and-errors.html', 'piglit ext_transform_feedback/api-errors.c'],
    intent: `${name} while the application's transform feedback is ${state} is refused with XFB_FEEDBACK_ACTIVE, writes nothing, and the application's capture goes on`,
    finding: 2,
    na: isCapture(name) ? { ...NO_GL_ON_WEBGPU, ...CAPTURE_ONLY } : NO_GL_ON_WEBGPU,
    buffers: stepCase,
    // Objects first (the application's feedback begins after them), then the call that must refuse.
    run: [...run.slice(0, -1), { op: 'app', feedback: state }, { ...run[run.length - 1], error: 'XFB_FEEDBACK_ACTIVE' }],
    expect: { buffers: { a: input4, out: range(16, () => S) } },
  })),
]);

// Creating a buffer binds no program and draws nothing: legal GL while the application's capture
// is paused (its object may be unbound around the upload, and is bound back). Issue 39: WebGL2
// refused it with XFB_FEEDBACK_ACTIVE where native GL did not. While it is active (not paused) its
// object cannot be unbound, so it is still refused there, as every other call.
const late = range(16, (i) => i + 50);
const createBuffer = ['bound', 'paused', 'active'].map((state) => ({
  id: `own-feedback.${state}.create-buffer`,
  peers: ['webgl conformance2/transform_feedback/switching-objects.html', 'webgl conformance2/transform_feedback/states-and-errors.html'],
  intent: state === 'active'
    ? "createBuffer while the application's transform feedback is active (not paused) is refused with XFB_FEEDBACK_ACTIVE, writes nothing, and the application's capture goes on"
    : `createBuffer works while the application's transform feedback is ${state} (a new buffer, no program, no draw), and the application's capture goes on`,
  finding: 2,
  na: NO_GL_ON_WEBGPU,
  buffers: { ...stepCase, late: { format: vec4(0), count: 4, data: late, later: true } },
  run: [{ op: 'app', feedback: state }, { op: 'createBuffer', buffer: 'late', ...(state === 'active' ? { error: 'XFB_FEEDBACK_ACTIVE' } : {}) }],
  expect: { buffers: state === 'active' ? { a: input4 } : { a: input4, late } },
}));

// The application's bound (not active) object holds one of xfb's buffers: copies and fences from
// it must not run with that object bound (WebGL2 reads zeros and raises INVALID_OPERATION).
const holding = [
  ['read', [{ op: 'read', buffer: 'a', expect: input4 }], { a: input4 }],
  ['step', ops.step, { out: doubled }],
  ['upload', ops.upload, afterOps.upload],
].map(([name, run, buffers]) => ({
  id: `own-feedback.bound-holding-xfb-buffer.${name}`,
  peers: ['webgl conformance2/transform_feedback/switching-objects.html', 'webgl conformance2/transform_feedback/simultaneous_binding.html'],
  intent: `${name} works while the application's bound transform feedback object holds xfb's buffer, and leaves it bound`,
  finding: 3,
  na: NO_GL_ON_WEBGPU,
  buffers: stepCase,
  run: [{ op: 'app', feedback: 'bound', holds: name === 'read' ? 'a' : 'out' }, ...run],
  expect: { buffers },
}));

export const applicationState = [...simultaneous, ...feedback, ...createBuffer, ...holding];
