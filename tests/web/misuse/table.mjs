// The misuse table: bad inputs to every call of the web package, each run on both browser
// runtimes, WebGL2 (createXfb({ canvas })) and WebGPU (createXfb({ device })), by
// tests/web/page/misuse.js (ctest web.chromium.misuse). Issue 24: one table of bad inputs through
// both engines, the same code (and message) on both, or a tested reason where a runtime cannot apply.
// Run: node tests/web/browser.mjs build/wasm/npm misuse (about 45 s for both runtimes).
//
// A row (rows/*.mjs; families of rows are written with family() from family.mjs):
//   id        'peer.argument.value', unique and stable (a family's value names end it)
//   peer      the call it exercises (the runner's group): createXfb, createBuffer, adoptBuffer,
//             upload, createProgram, inspect, setUniform, createPipeline, step, createCapture,
//             capture, on, dispose, lost, followBuffer
//   setup     (optional) names from setup.mjs beyond the default a, b, program, pipeline (every row
//             has those): bools, capture, c8, ints, attr1, spare, foreign, lost, glBuffer, otherGl
//   before    (optional) o => void, run after the setup: what makes the call a misuse (dispose(),
//             a stepChecked() left pending as o.pending: the runner awaits it after the call)
//   call      o => result or promise: the bad call. o holds the setup's objects (o.a, o.program,
//             o.pipeline, ...), o.xfb (the runtime's engine), o.pkg (the package's exports, the default
//             export as createXfb),
//             o.runtime ('webgl2' | 'webgpu'), o.engineOptions ({ gl } | { device } of the page's
//             engines), o.env.webgl() (the page's WebGL2 context), o.env.device() (its GPUDevice)
//   code      the XfbError code both runtimes must throw (names: engine/include/xfb/enum_tables.hpp)
//   mentions  (optional) strings the message must contain: the offending argument, the value
//   messageMayDiffer  (optional) 'reason': the two runtimes' messages may differ, and why
//   notOn     (optional) { webgl2 | webgpu: { code, reason } }: the row cannot apply on that
//             runtime; there the row (setup, before, call) must throw `code` instead: the tested
//             reason. Never a silent skip.
//
// For every row and runtime the runner requires: an XfbError (instanceof the package's class)
// with the code; the same message on both runtimes (unless messageMayDiffer); `mentions` in it;
// and nothing lost: every setup buffer not disposed reads back what it held, every setup pipeline
// still steps to its expected result, the capture still captures, no WebGL or WebGPU error is left.
import { BUFFER_ROWS } from './rows/buffers.mjs';
import { CAPTURE_ROWS } from './rows/captures.mjs';
import { ENGINE_ROWS } from './rows/engine.mjs';
import { PIPELINE_ROWS } from './rows/pipelines.mjs';
import { PROGRAM_ROWS } from './rows/programs.mjs';

export const ROWS = [...ENGINE_ROWS, ...BUFFER_ROWS, ...PROGRAM_ROWS, ...PIPELINE_ROWS, ...CAPTURE_ROWS];

// Rows whose expectation is right and today's package fails: the findings the TypeScript core
// (one validator for both drivers) must fix. The runner reports them as DRIFT and fails when a
// row not listed fails, or when a listed row passes (delete its line then): this list only shrinks.
// Each entry: { id, webgl2: 'what it does today', webgpu: 'what it does today' } ('as expected':
// that runtime is right and the other, or the message, is not); a failing row not listed here is
// printed by the runner with the same two lines ("today: ...").
export const KNOWN_DRIFT = [
  // WebGPU: on() and off() check neither the event name nor the listener (12)
  // WebGPU: int and uint uniforms are written without the integer range check (2.5 -> 2, 2^40 -> 0, -1 -> 2^32-1) (17)
  // WebGPU: program options reach the translator unchecked (define names, finite define values, portable) (9)
  // WebGPU: other options accepted unchecked (createBuffer restore, createPipeline queries, liveObjects after dispose) (7)
  // WebGPU: no adoptBuffer() and no steps(): a TypeError instead of a coded refusal (23)
  // a Symbol in a message template: a TypeError instead of XFB_INVALID_ARGUMENT (3)
  // upload(): WebGL2 writes unaligned offsets, odd byte lengths and offset null; WebGPU reads no options object (null: a TypeError; unknown keys, non-objects: ignored) (9)
  // labels: createBuffer() checks none on either runtime, createProgram() none on WebGPU (10)
  // null taken as absent (the default) instead of refused, on both runtimes (6)
  // createdBuffers() checks neither argument (TypeErrors, or {} accepted) (5)
  // codes that differ: WebGPU says XFB_UNSUPPORTED for a buffer over its limit and XFB_COMPUTE_TRANSLATION for an undeclared name; WebGL2 says XFB_UNSUPPORTED for malformed emits (6)
  // WebGPU: step() and stepChecked() while a stepChecked() is pending are accepted (its pass and the next record on the same ping-pong side: a step is lost); WebGL2 refuses, naming internal methods (beginCheckedStep, pollCheckedStep) (3)
  // WebGPU: a validation error (here: the application destroyed a GPUBuffer of xfb's) surfaces as XFB_GL_ERROR; WebGL2 finds the deleted buffer: XFB_DISPOSED (1)
  { id: 'stepChecked.output-deleted-by-the-application', webgl2: 'as expected', webgpu: 'XFB_GL_ERROR: WebGPU validation error in step 1: [Buffer "spare b"] used in submit while destroyed. - While calling [Queue].Submit([[CommandBuffer]])' },
  // WebGL2: a pipeline steps on after its buffer or program was disposed (WebGPU: XFB_DISPOSED) (2)
  // messages: step(k) worded twice (13)
  // messages: setUniform() value counts ("the value is floatx2" / "the value has 2 numbers") (20)
  // messages: an unknown uniform lists the declared ones sorted on WebGL2, in declaration order on WebGPU (8)
  // messages: upload() worded twice (and WebGPU states its 4-byte rule where WebGL2 has none) (10)
  // messages: define values checked by index.js on WebGL2, by the C++ bindings on WebGPU (6)
  // messages: createPipeline() keys allowed per runtime (WebGL2 refuses emits and overflow as unknown keys), a state pair of one buffer worded twice (5)
  // messages: a call on a lost context or device does not name the public call (WebGL2 names internal methods such as readAsync, beginChecked; WebGPU names none) (10)
  // messages: a disposed buffer or program is not named by its label ("this buffer was disposed"); after engine.dispose() WebGL2 blames the program (12)
  // messages: an unaligned attribute offset is blamed on the stride it implies (the shared C++ validator) (1)
  // messages: others (followBuffer blames the buffer on WebGPU; a buffer of another context named by number) (2)
  { id: 'followBuffer.make.number', webgl2: 'XFB_INVALID_ARGUMENT: followBuffer(): make must be a function (glBuffer) => wrapper', webgpu: 'XFB_INVALID_ARGUMENT: followBuffer(): buffer must be an xfb buffer' },
  { id: 'followBuffer.make.undefined', webgl2: 'XFB_INVALID_ARGUMENT: followBuffer(): make must be a function (glBuffer) => wrapper', webgpu: 'XFB_INVALID_ARGUMENT: followBuffer(): buffer must be an xfb buffer' },
];
