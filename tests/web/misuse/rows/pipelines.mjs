// Misuse rows of pipelines: createPipeline (program, role list, options), step(substeps), steps().
import { forged, NOT_AN_OBJECT, NOT_BOOLEAN, NOT_POSITIVE_INTEGER } from '../bad-values.mjs';
import { family, peer } from '../family.mjs';
import { geometryPipeline } from '../setup.mjs';

const INVALID = 'XFB_INVALID_ARGUMENT';
const create = (o, entries, options) => o.xfb.createPipeline(o.program, entries, options);
const state = (o) => [{ input: o.a, output: o.b }];

/** Role lists that are not a list of { input?, output? } buffers of this engine. */
const BAD_ENTRIES = {
  undefined: [() => undefined], null: [() => null], string: [() => 'a'], object: [(o) => ({ input: o.a })], 'null-entry': [() => [null]], 'number-entry': [() => [5]],
  'string-role': [(o) => [{ input: 'a', output: o.b }]], 'program-as-buffer': [(o) => [{ input: o.program, output: o.b }]],
  'spare-engine-buffer': [(o) => [{ input: o.spare.buffer, output: o.b }], ['spare']],
  'other-runtime-buffer': [(o) => [{ input: o.foreign.buffer, output: o.b }], ['foreign']],
  // Issue 39: an object with a buffer's prototype and no brand (it threw a raw TypeError, "Cannot read private member").
  'forged-buffer': [(o) => [{ input: forged(o.a), output: o.b }]],
};

/** Role lists of this engine's buffers that the planner refuses, each with its code. */
const BAD_ROLES = {
  'empty-entry': ['XFB_ROLE_EMPTY', (o) => [...state(o), {}]],
  'input-only': ['XFB_OUTPUT_COUNT_MISMATCH', (o) => [{ input: o.a }], [], ['out_p']],
  'output-only': [INVALID, (o) => [{ output: o.b }], [], ['count']],
  'one-buffer-as-pair': [INVALID, (o) => [{ input: o.a, output: o.a }]],
  'output-read-by-another-entry': [INVALID, (o) => [{ input: o.c8 }, { output: o.c8 }], ['c8'], ['entry #0 input and entry #1 output are the same buffer']],
  'one-output-twice': [INVALID, (o) => [{ input: o.a }, { output: o.b }, { output: o.b }], [], ['entry #1 output and entry #2 output', 'bind one buffer twice']],
  'pair-input-read-by-another-entry': [INVALID, (o) => [{ input: o.a, output: o.b }, { input: o.a }], [], ['a state pair writes its input too']],
  'pair-of-two-counts': ['XFB_STATE_FORMAT_MISMATCH', (o) => [{ input: o.a, output: o.c8 }], ['c8']],
  'pair-of-two-semantics': ['XFB_STATE_FORMAT_MISMATCH', (o) => [{ input: o.a, output: o.attr1 }], ['attr1']],
  'int-input-for-vec4': ['XFB_SEMANTIC_TYPE_MISMATCH', (o) => [{ input: o.ints }, { output: o.b }], ['ints']],
  'unused-input': ['XFB_SEMANTIC_UNUSED', (o) => [{ input: o.a }, { input: o.attr1 }, { output: o.b }], ['attr1']],
  'output-smaller-than-count': ['XFB_CAPACITY', (o) => [{ input: o.c8 }, { output: o.a }], ['c8']],
  'int-output-for-vec4': ['XFB_OUTPUT_LAYOUT_MISMATCH', (o) => [{ input: o.a }, { output: o.ints }], ['ints']],
};

/** Backends that are no name of the engine's table (C++ XFB_BACKENDS). */
const BAD_BACKENDS = { unknown: 'vulkan', 'upper-case': 'TF', number: 1, null: null, object: {} };

const createPipeline = peer('createPipeline', [
  // Issue 27: a pipeline steps vertex programs; a geometry program is captured (createCapture()).
  { id: 'createPipeline.program.geometry', code: 'XFB_UNSUPPORTED', mentions: ["program 'new' has a geometry shader", 'capture it with createCapture()'],
    notOn: { webgl2: { code: 'XFB_GEOMETRY_UNSUPPORTED', reason: 'WebGL2 refuses the geometry program itself, at createProgram() (the row createProgram.geometry.unsupported): there is no program to make a pipeline of' } },
    call: geometryPipeline },
  family('createPipeline.program', { undefined, null: null, object: {} }, (program) => ({
    code: INVALID, mentions: ['program'], call: (o) => o.xfb.createPipeline(program, state(o)) })),
  { id: 'createPipeline.program.forged', code: INVALID, mentions: ['createPipeline(): the first argument must be a program of this engine', 'createProgram()'],
    call: (o) => o.xfb.createPipeline(forged(o.program), state(o)) },
  { id: 'createPipeline.program.buffer', code: INVALID, mentions: ['program'], call: (o) => o.xfb.createPipeline(o.a, state(o)) },
  { id: 'createPipeline.program.spare-engine', setup: ['spare'], code: INVALID, mentions: ['program'], call: (o) => o.xfb.createPipeline(o.spare.program, state(o)) },
  { id: 'createPipeline.program.other-runtime', setup: ['foreign'], code: INVALID, mentions: ['program'], call: (o) => o.xfb.createPipeline(o.foreign.program, state(o)) },
  family('createPipeline.entries', BAD_ENTRIES, ([entries, setup = []]) => ({ setup, code: INVALID, call: (o) => create(o, entries(o)) })),
  { id: 'createPipeline.entries.unknown-role', code: INVALID, mentions: ["'outptu'"], call: (o) => create(o, [{ input: o.a, outptu: o.b }]) },
  family('createPipeline.roles', BAD_ROLES, ([code, entries, setup = [], mentions]) => ({ setup, code, mentions, call: (o) => create(o, entries(o)) })),
  family('createPipeline.options', NOT_AN_OBJECT, (options) => ({ code: INVALID, call: (o) => create(o, state(o), options) })),
  { id: 'createPipeline.options.unknown-key', code: INVALID, mentions: ["'cnt'"], call: (o) => create(o, state(o), { cnt: 4 }) },
  family('createPipeline.options.count', NOT_POSITIVE_INTEGER, (count) => ({ code: INVALID, mentions: ['count'], call: (o) => create(o, state(o), { count }) })),
  { id: 'createPipeline.roles.attribute-nobody-provides', code: 'XFB_SEMANTIC_MISSING', mentions: ["'p'"], call: (o) => create(o, [{ output: o.b }], { count: 4 }) },
  { id: 'createPipeline.options.count.disagrees', code: 'XFB_COUNT_MISMATCH', mentions: ['8', '4'], call: (o) => create(o, state(o), { count: 8 }) },
  family('createPipeline.options.queries', NOT_BOOLEAN, (queries) => ({ code: INVALID, mentions: ['queries'], call: (o) => create(o, state(o), { queries }) })),
  // Issue 27: rasterize (a boolean; WebGL2 draws with the program's fragment shader, WebGPU has no transform feedback).
  family('createPipeline.options.rasterize', NOT_BOOLEAN, (rasterize) => ({ code: INVALID, mentions: ['createPipeline(): rasterize'], call: (o) => create(o, state(o), { rasterize }) })),
  { id: 'createPipeline.options.rasterize.no-fragment', code: INVALID, mentions: ['rasterize', 'has no fragment shader', 'createProgram({ fragment })'],
    notOn: { webgpu: { code: 'XFB_UNSUPPORTED', reason: 'WebGPU has no transform feedback, so it refuses rasterize itself before looking at the program' } },
    call: (o) => create(o, state(o), { rasterize: true }) },
  family('createPipeline.options.fuseSubsteps', NOT_BOOLEAN, (fuseSubsteps) => ({ code: INVALID, mentions: ['fuseSubsteps'], call: (o) => create(o, state(o), { fuseSubsteps }) })),
  // emits and overflow: the same shape checks on both runtimes (both run well-formed emits: tests/web/page/emit.js).
  family('createPipeline.options.emits', { number: 5, 'number-entry': [5], 'entry-without-count': [{ varying: 'out_p' }] }, (emits) => ({
    code: INVALID, mentions: ['emits'], call: (o) => create(o, state(o), { emits }) })),
  family('createPipeline.options.overflow', { unknown: 'wrap', number: 1 }, (overflow) => ({ code: INVALID, mentions: ['overflow'], call: (o) => create(o, state(o), { overflow }) })),
  // backend: a name of the engine's table on both runtimes; then each refuses the one it lacks.
  family('createPipeline.options.backend', BAD_BACKENDS, (backend) => ({ code: INVALID, mentions: ['backend'], call: (o) => create(o, state(o), { backend }) })),
  { id: 'createPipeline.options.backend.not-on-this-runtime', code: 'XFB_UNSUPPORTED', mentions: ['createPipeline()'],
    messageMayDiffer: 'each runtime names the backend it lacks: WebGL2 compute shaders, WebGPU the WebGL2 backends',
    call: (o) => create(o, state(o), { backend: o.runtime === 'webgl2' ? 'compute' : 'fragment' }) },
]);

const BAD_SUBSTEPS = { ...NOT_POSITIVE_INTEGER, 'above-max': 257, '2^31': 2 ** 31, '2^53': 2 ** 53 };
/** What steps() refuses: anything but an array of this engine's pipelines. */
const NOT_PIPELINES = {
  undefined: [() => undefined], null: [() => null], string: [() => 'p'], 'pipeline-not-in-array': [(o) => o.pipeline], buffers: [(o) => [o.a]],
  'spare-engine': [(o) => [o.pipeline, o.spare.pipeline], ['spare']], forged: [(o) => [o.pipeline, forged(o.pipeline)]],
};
/** Calls on the spare engine's pipeline while its stepChecked() is pending (WebGL2 reads the step's
 *  query across frames; WebGPU would record a second pass on the same ping-pong side). */
const WHILE_CHECKED = { stepChecked: (p) => p.stepChecked(), step: (p) => p.step(), 'step-substeps': (p) => p.step(2) };
/** The application deletes the WebGLBuffer (destroys the GPUBuffer) behind a buffer of xfb's. */
const deleteHandle = (o, b) => (o.runtime === 'webgl2' ? o.env.webgl().deleteBuffer(b.glBuffer) : b.gpuBuffer.destroy());
const step = peer('step', [
  // stepChecked() only: a plain step() does not look (on WebGL2 that would cost a GL call per buffer per step).
  { id: 'stepChecked.output-deleted-by-the-application', setup: ['spare'], code: 'XFB_DISPOSED',
    notOn: { webgpu: { code: 'XFB_INVALID_ARGUMENT', reason: "WebGPU cannot ask a GPUBuffer whether it was destroyed: a destroyed one surfaces only as a validation error of the submit, which stepChecked() reports naming the pipeline and the step" } },
    before: (o) => deleteHandle(o, o.spare.output), call: (o) => o.spare.pipeline.stepChecked() },
  family('step.while-stepChecked-pending', WHILE_CHECKED, (use) => ({
    setup: ['spare'], code: INVALID, mentions: ['stepChecked('], before: (o) => { o.pending = o.spare.pipeline.stepChecked(); }, call: (o) => use(o.spare.pipeline) })),
  family('step.substeps', BAD_SUBSTEPS, (substeps) => ({ code: INVALID, mentions: ['substeps'], call: (o) => o.pipeline.step(substeps) })),
  family('steps.pipelines', NOT_PIPELINES, ([list, setup = []]) => ({ setup, code: INVALID, mentions: ['steps()'], call: (o) => o.xfb.steps(list(o)) })),
  family('setBackend', BAD_BACKENDS, (backend) => ({ code: INVALID, mentions: ['setBackend()'], call: (o) => o.pipeline.setBackend(backend) })),
  { id: 'setBackend.not-on-this-runtime', code: 'XFB_UNSUPPORTED', mentions: ['setBackend()'],
    messageMayDiffer: 'each runtime names the backend it lacks: WebGL2 compute shaders, WebGPU the WebGL2 backends',
    call: (o) => o.pipeline.setBackend(o.runtime === 'webgl2' ? 'compute' : 'tf') },
]);

export const PIPELINE_ROWS = [...createPipeline, ...step];
