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
  { id: 'on.type.unknown', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.type.dom-event-name', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.type.empty', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.type.undefined', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.type.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.type.symbol', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.listener.string', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.listener.null', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.listener.undefined', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'on.listener.object', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'off.type.unknown', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'off.listener.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  // WebGPU: int and uint uniforms are written without the integer range check (2.5 -> 2, 2^40 -> 0, -1 -> 2^32-1) (17)
  { id: 'setUniform.n.fractional', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 4, not 2 (4,4,6,8,12,12,14,16...)' },
  { id: 'setUniform.n.above-2^31-1', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is -2147483648, not 2 (-2147483648,4,6,8,-2147483648,12,14,16...)' },
  { id: 'setUniform.n.below--2^31', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 2147483648, not 2 (2147483648,4,6,8,2147483648,12,14,16...)' },
  { id: 'setUniform.n.2^40', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.n.Infinity', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.n.-Infinity', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.n.1e300', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.i3.one-fractional', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 8, not 2 (8,4,6,8,16,12,14,16...)' },
  { id: 'setUniform.i3.one-2^40', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 6, not 2 (6,4,6,8,14,12,14,16...)' },
  { id: 'setUniform.i3.Float64Array-with-a-fraction', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 8, not 2 (8,4,6,8,16,12,14,16...)' },
  { id: 'setUniform.u.negative', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 4294967296, not 2 (4294967296,4,6,8,4294967296,12,14,16...)' },
  { id: 'setUniform.u.fractional', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.u.2^32', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.u.Infinity', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'setUniform.u4.one-negative', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 7, not 2 (7,4,6,8,15,12,14,16...)' },
  { id: 'setUniform.u4.one-2^32', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then pipeline \'sim\' after a step: element 0 is 8, not 2 (8,4,6,8,16,12,14,16...)' },
  { id: 'setUniform.i3.count-4', webgl2: 'XFB_UNIFORM_TYPE: uniform \'i3\' is intx3 but the value is intx4', webgpu: 'XFB_UNIFORM_TYPE: uniform \'i3\' is intx3 but the value has 4 numbers' },
  // WebGPU: program options reach the translator unchecked (define names, finite define values, portable) (9)
  { id: 'createProgram.defines.NaN', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.defines.Infinity', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.defines.space-in-name', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.defines.digit-first', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.defines.string', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.portable.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.portable.string', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.portable.null', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.portable.object', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  // WebGPU: other options accepted unchecked (createBuffer restore, createPipeline queries, liveObjects after dispose) (7)
  { id: 'dispose.engine.liveObjects', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.restore.unknown', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.restore.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createPipeline.options.queries.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createPipeline.options.queries.string', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createPipeline.options.queries.null', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createPipeline.options.queries.object', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  // WebGPU: no adoptBuffer() and no steps(): a TypeError instead of a coded refusal (23)
  { id: 'adoptBuffer.description.null', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.description.undefined', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.description.string', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.missing', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.null', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.object', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.number', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.xfb-buffer', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.glBuffer.other-context', webgl2: 'XFB_INVALID_ARGUMENT: cannot adopt GL buffer 2313: it is not a live buffer object (created and bound once)', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.count.zero', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.count.fractional', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.count.string', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.count.missing', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.count.too-large', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.format.null', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.format.overlap', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'adoptBuffer.unknown-key', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.adoptBuffer is not a function' },
  { id: 'steps.pipelines.undefined', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  { id: 'steps.pipelines.null', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  { id: 'steps.pipelines.string', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  { id: 'steps.pipelines.pipeline-not-in-array', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  { id: 'steps.pipelines.buffers', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  { id: 'steps.pipelines.spare-engine', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): o.xfb.steps is not a function' },
  // a Symbol in a message template: a TypeError instead of XFB_INVALID_ARGUMENT (3)
  { id: 'upload.offset.symbol', webgl2: 'throws TypeError (not an XfbError): Cannot convert a Symbol value to a string', webgpu: 'throws TypeError (not an XfbError): Cannot convert a Symbol value to a string' },
  { id: 'step.substeps.symbol', webgl2: 'throws TypeError (not an XfbError): Cannot convert a Symbol value to a string', webgpu: 'as expected' },
  { id: 'captureSession.firstRecord.symbol', webgl2: 'throws TypeError (not an XfbError): Cannot convert a Symbol value to a string', webgpu: 'as expected' },
  // upload(): WebGL2 writes unaligned offsets, odd byte lengths and offset null; WebGPU reads no options object (null: a TypeError; unknown keys, non-objects: ignored) (9)
  { id: 'upload.data.ArrayBuffer-of-6-bytes', webgl2: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,2,3,4,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,4,6,8,10,12,14,16...)', webgpu: 'as expected' },
  { id: 'upload.offset.null', webgl2: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)', webgpu: 'as expected' },
  { id: 'upload.offset.unaligned', webgl2: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)', webgpu: 'as expected' },
  { id: 'upload.options.null', webgl2: 'as expected', webgpu: 'throws TypeError (not an XfbError): Cannot read properties of null (reading \'offset\')' },
  { id: 'upload.options.string', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)' },
  { id: 'upload.options.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)' },
  { id: 'upload.options.array', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)' },
  { id: 'upload.options.function', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)' },
  { id: 'upload.options.unknown-key', webgl2: 'as expected', webgpu: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 0, not 1 (0,0,0,0,5,6,7,8...); pipeline \'sim\' after a step: element 0 is 0, not 2 (0,0,0,0,10,12,14,16...)' },
  // labels: createBuffer() checks none on either runtime, createProgram() none on WebGPU (10)
  { id: 'createBuffer.label.number', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.label.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.label.object', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.label.array', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.label.symbol', webgl2: 'no error: the call is accepted', webgpu: 'throws TypeError (not an XfbError): Failed to execute \'createBuffer\' on \'GPUDevice\': Failed to read the \'label\' property from \'GPUObjectDescriptorBase\': Cannot convert a Symbol ...' },
  { id: 'createProgram.label.number', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.label.null', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.label.object', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.label.array', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.label.symbol', webgl2: 'as expected', webgpu: 'no error: the call is accepted' },
  // null taken as absent (the default) instead of refused, on both runtimes (6)
  { id: 'createXfb.backend.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createBuffer.restore.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.mode.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createProgram.defines.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'inspect.mode.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'inspect.defines.null', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  // createdBuffers() checks neither argument (TypeErrors, or {} accepted) (5)
  { id: 'createdBuffers.gl.null', webgl2: 'throws TypeError (not an XfbError): Cannot convert undefined or null to object', webgpu: 'throws TypeError (not an XfbError): Cannot convert undefined or null to object' },
  { id: 'createdBuffers.gl.object', webgl2: 'no error: the call is accepted', webgpu: 'no error: the call is accepted' },
  { id: 'createdBuffers.gl.string', webgl2: 'throws TypeError (not an XfbError): Cannot create property \'createBuffer\' on string \'gl\'', webgpu: 'throws TypeError (not an XfbError): Cannot create property \'createBuffer\' on string \'gl\'' },
  { id: 'createdBuffers.fn.number', webgl2: 'throws TypeError (not an XfbError): t is not a function', webgpu: 'throws TypeError (not an XfbError): t is not a function' },
  { id: 'createdBuffers.fn.undefined', webgl2: 'throws TypeError (not an XfbError): t is not a function', webgpu: 'throws TypeError (not an XfbError): t is not a function' },
  // codes that differ: WebGPU says XFB_UNSUPPORTED for a buffer over its limit and XFB_COMPUTE_TRANSLATION for an undeclared name; WebGL2 says XFB_UNSUPPORTED for malformed emits (6)
  { id: 'createBuffer.count.too-large.2^31', webgl2: 'as expected', webgpu: 'XFB_UNSUPPORTED: createBuffer(): 34359738368 bytes exceed this device\'s maxStorageBufferBindingSize (134217728)' },
  { id: 'createBuffer.count.too-large.2^53', webgl2: 'as expected', webgpu: 'XFB_UNSUPPORTED: createBuffer(): 144115188075855870 bytes exceed this device\'s maxStorageBufferBindingSize (134217728)' },
  { id: 'createBuffer.count.too-large.MAX_VALUE', webgl2: 'as expected', webgpu: 'XFB_UNSUPPORTED: createBuffer(): Infinity bytes exceed this device\'s maxStorageBufferBindingSize (134217728)' },
  { id: 'createProgram.shader.undeclared-name', webgl2: 'as expected', webgpu: 'XFB_COMPUTE_TRANSLATION: WGSL: line 4: unknown name \'nope\'' },
  { id: 'createPipeline.options.emits.number-entry', webgl2: 'XFB_UNSUPPORTED: createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones' },
  { id: 'createPipeline.options.emits.entry-without-count', webgl2: 'XFB_UNSUPPORTED: createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones' },
  // WebGPU: step() and stepChecked() while a stepChecked() is pending are accepted (its pass and the next record on the same ping-pong side: a step is lost); WebGL2 refuses, naming internal methods (beginCheckedStep, pollCheckedStep) (3)
  { id: 'step.while-stepChecked-pending.stepChecked', webgl2: 'XFB_INVALID_ARGUMENT: beginCheckedStep while a checked step is pending; poll it (pollCheckedStep) until it returns first', webgpu: 'no error: the call is accepted' },
  { id: 'step.while-stepChecked-pending.step', webgl2: 'XFB_INVALID_ARGUMENT: step() while a checked step is pending; poll it (pollCheckedStep) until it returns first', webgpu: 'no error: the call is accepted' },
  { id: 'step.while-stepChecked-pending.step-substeps', webgl2: 'XFB_INVALID_ARGUMENT: step() while a checked step is pending; poll it (pollCheckedStep) until it returns first', webgpu: 'no error: the call is accepted' },
  // WebGPU: a validation error (here: the application destroyed a GPUBuffer of xfb's) surfaces as XFB_GL_ERROR; WebGL2 finds the deleted buffer: XFB_DISPOSED (1)
  { id: 'stepChecked.output-deleted-by-the-application', webgl2: 'as expected', webgpu: 'XFB_GL_ERROR: WebGPU validation error in step 1: [Buffer "spare b"] used in submit while destroyed. - While calling [Queue].Submit([[CommandBuffer]])' },
  // WebGL2: a pipeline steps on after its buffer or program was disposed (WebGPU: XFB_DISPOSED) (2)
  { id: 'dispose.buffer.under-its-pipeline.step', webgl2: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 2, not 1 (2,4,6,8,10,12,14,16...)', webgpu: 'as expected' },
  { id: 'dispose.program.under-its-pipeline.step', webgl2: 'no error: the call is accepted; then buffer \'a\' after the call: element 0 is 2, not 1 (2,4,6,8,10,12,14,16...); buffer \'b\' after the call: element 0 is 1, not 101 (1,2,3,4,5,6,7,8...)', webgpu: 'as expected' },
  // messages: step(k) worded twice (13)
  { id: 'step.substeps.zero', webgl2: 'XFB_INVALID_ARGUMENT: step(0): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(0): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.negative', webgl2: 'XFB_INVALID_ARGUMENT: step(-1): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(-1): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.fractional', webgl2: 'XFB_INVALID_ARGUMENT: step(1.5): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(1.5): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.NaN', webgl2: 'XFB_INVALID_ARGUMENT: step(NaN): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(NaN): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.Infinity', webgl2: 'XFB_INVALID_ARGUMENT: step(Infinity): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(Infinity): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.string', webgl2: 'XFB_INVALID_ARGUMENT: step(4): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(4): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.null', webgl2: 'XFB_INVALID_ARGUMENT: step(null): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(null): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.boolean', webgl2: 'XFB_INVALID_ARGUMENT: step(true): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(true): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.bigint', webgl2: 'XFB_INVALID_ARGUMENT: step(4): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(4): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.object', webgl2: 'XFB_INVALID_ARGUMENT: step([object Object]): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step([object Object]): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.above-max', webgl2: 'XFB_INVALID_ARGUMENT: step(257): the number of substeps must be 1..256 (limits::maxSubsteps); call step() more often for more', webgpu: 'XFB_INVALID_ARGUMENT: step(257): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.2^31', webgl2: 'XFB_INVALID_ARGUMENT: step(2147483648): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(2147483648): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  { id: 'step.substeps.2^53', webgl2: 'XFB_INVALID_ARGUMENT: step(9007199254740992): substeps must be an integer 1..256', webgpu: 'XFB_INVALID_ARGUMENT: step(9007199254740992): the number of substeps must be an integer 1..256 (limits::maxSubsteps); call step() more often for more' },
  // messages: setUniform() value counts ("the value is floatx2" / "the value has 2 numbers") (20)
  { id: 'setUniform.k.count-2', webgl2: 'XFB_UNIFORM_TYPE: uniform \'k\' is floatx1 but the value is floatx2', webgpu: 'XFB_UNIFORM_TYPE: uniform \'k\' is floatx1 but the value has 2 numbers' },
  { id: 'setUniform.v2.count-1', webgl2: 'XFB_UNIFORM_TYPE: uniform \'v2\' is floatx2 but the value is floatx1', webgpu: 'XFB_UNIFORM_TYPE: uniform \'v2\' is floatx2 but the value has 1 numbers' },
  { id: 'setUniform.v2.count-3', webgl2: 'XFB_UNIFORM_TYPE: uniform \'v2\' is floatx2 but the value is floatx3', webgpu: 'XFB_UNIFORM_TYPE: uniform \'v2\' is floatx2 but the value has 3 numbers' },
  { id: 'setUniform.v3.count-2', webgl2: 'XFB_UNIFORM_TYPE: uniform \'v3\' is floatx3 but the value is floatx2', webgpu: 'XFB_UNIFORM_TYPE: uniform \'v3\' is floatx3 but the value has 2 numbers' },
  { id: 'setUniform.v3.count-4', webgl2: 'XFB_UNIFORM_TYPE: uniform \'v3\' is floatx3 but the value is floatx4', webgpu: 'XFB_UNIFORM_TYPE: uniform \'v3\' is floatx3 but the value has 4 numbers' },
  { id: 'setUniform.v4.count-5', webgl2: 'XFB_UNIFORM_TYPE: uniform \'v4\' is floatx4 but the value is floatx5', webgpu: 'XFB_UNIFORM_TYPE: uniform \'v4\' is floatx4 but the value has 5 numbers' },
  { id: 'setUniform.i2.count-1', webgl2: 'XFB_UNIFORM_TYPE: uniform \'i2\' is intx2 but the value is intx1', webgpu: 'XFB_UNIFORM_TYPE: uniform \'i2\' is intx2 but the value has 1 numbers' },
  { id: 'setUniform.i4.count-3', webgl2: 'XFB_UNIFORM_TYPE: uniform \'i4\' is intx4 but the value is intx3', webgpu: 'XFB_UNIFORM_TYPE: uniform \'i4\' is intx4 but the value has 3 numbers' },
  { id: 'setUniform.u2.count-3', webgl2: 'XFB_UNIFORM_TYPE: uniform \'u2\' is uintx2 but the value is uintx3', webgpu: 'XFB_UNIFORM_TYPE: uniform \'u2\' is uintx2 but the value has 3 numbers' },
  { id: 'setUniform.u3.count-2', webgl2: 'XFB_UNIFORM_TYPE: uniform \'u3\' is uintx3 but the value is uintx2', webgpu: 'XFB_UNIFORM_TYPE: uniform \'u3\' is uintx3 but the value has 2 numbers' },
  { id: 'setUniform.m2.count-3', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m2\' is floatx4 but the value is floatx3', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m2\' is floatx4 but the value has 3 numbers' },
  { id: 'setUniform.m2.count-5', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m2\' is floatx4 but the value is floatx5', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m2\' is floatx4 but the value has 5 numbers' },
  { id: 'setUniform.m3.count-8', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m3\' is floatx9 but the value is floatx8', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m3\' is floatx9 but the value has 8 numbers' },
  { id: 'setUniform.m4.count-15', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m4\' is floatx16 but the value is floatx15', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m4\' is floatx16 but the value has 15 numbers' },
  { id: 'setUniform.m4.count-17', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m4\' is floatx16 but the value is floatx17', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m4\' is floatx16 but the value has 17 numbers' },
  { id: 'setUniform.m23.count-5', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m23\' is floatx6 but the value is floatx5', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m23\' is floatx6 but the value has 5 numbers' },
  { id: 'setUniform.m34.count-11', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m34\' is floatx12 but the value is floatx11', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m34\' is floatx12 but the value has 11 numbers' },
  { id: 'setUniform.m42.count-7', webgl2: 'XFB_UNIFORM_TYPE: uniform \'m42\' is floatx8 but the value is floatx7', webgpu: 'XFB_UNIFORM_TYPE: uniform \'m42\' is floatx8 but the value has 7 numbers' },
  { id: 'setUniform.va.count-6', webgl2: 'XFB_UNIFORM_TYPE: uniform \'va\' is floatx4[2] but the value is floatx6', webgpu: 'XFB_UNIFORM_TYPE: uniform \'va\' is floatx4[2] but the value has 6 numbers' },
  { id: 'setUniform.va.count-12', webgl2: 'XFB_UNIFORM_TYPE: uniform \'va\' is floatx4[2] but the value is floatx12', webgpu: 'XFB_UNIFORM_TYPE: uniform \'va\' is floatx4[2] but the value has 12 numbers' },
  // messages: an unknown uniform lists the declared ones sorted on WebGL2, in declaration order on WebGPU (8)
  { id: 'setUniform.name.unknown', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'nope\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'nope\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.toString', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'toString\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'toString\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.__proto__', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'__proto__\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'__proto__\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.constructor', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'constructor\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'constructor\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.empty', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.trailing-space', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'k \'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'k \'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.attribute', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'p\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'p\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  { id: 'setUniform.name.varying', webgl2: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'out_p\'; uniforms: i2, i3, i4, k, m2, m23, m3, m34, m4, m42, n, u, u2, u3, u4, v2, v3, v4, va', webgpu: 'XFB_UNKNOWN_UNIFORM: program \'sim\' declares no uniform \'out_p\'; uniforms: k, v2, v3, v4, n, i2, i3, i4, u, u2, u3, u4, m2, m3, m4, m23, m34, m42, va' },
  // messages: upload() worded twice (and WebGPU states its 4-byte rule where WebGL2 has none) (10)
  { id: 'upload.data.too-long', webgl2: 'XFB_INVALID_ARGUMENT: upload of 68 bytes at offset 0 does not fit the 64-byte buffer', webgpu: 'XFB_INVALID_ARGUMENT: upload(): 68 bytes at offset 0 do not fit the buffer\'s 64 bytes in whole 4-byte words' },
  { id: 'upload.offset.negative', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got -4', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got -4' },
  { id: 'upload.offset.fractional', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got 1.5', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got 1.5' },
  { id: 'upload.offset.NaN', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got NaN', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got NaN' },
  { id: 'upload.offset.Infinity', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got Infinity', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got Infinity' },
  { id: 'upload.offset.string', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got 4', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got 4' },
  { id: 'upload.offset.boolean', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got true', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got true' },
  { id: 'upload.offset.bigint', webgl2: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative integer byte offset, got 4', webgpu: 'XFB_INVALID_ARGUMENT: upload(): offset must be a non-negative multiple of 4 bytes, got 4' },
  { id: 'upload.offset.past-the-end', webgl2: 'XFB_INVALID_ARGUMENT: upload of 16 bytes at offset 56 does not fit the 64-byte buffer', webgpu: 'XFB_INVALID_ARGUMENT: upload(): 16 bytes at offset 56 do not fit the buffer\'s 64 bytes in whole 4-byte words' },
  { id: 'upload.offset.2^53', webgl2: 'XFB_INVALID_ARGUMENT: upload of 16 bytes at offset 9007199254740992 does not fit the 64-byte buffer', webgpu: 'XFB_INVALID_ARGUMENT: upload(): 16 bytes at offset 9007199254740992 do not fit the buffer\'s 64 bytes in whole 4-byte words' },
  // messages: define values checked by index.js on WebGL2, by the C++ bindings on WebGPU (6)
  { id: 'createProgram.defines.null-value', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines.N must be a string, a finite number or a boolean, got null', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'N\'] must be a string, a number or a boolean, got null' },
  { id: 'createProgram.defines.object-value', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines.N must be a string, a finite number or a boolean, got object', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'N\'] must be a string, a number or a boolean, got object' },
  { id: 'createProgram.defines.array-value', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines.N must be a string, a finite number or a boolean, got object', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'N\'] must be a string, a number or a boolean, got object' },
  { id: 'createProgram.defines.symbol-value', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines.N must be a string, a finite number or a boolean, got symbol', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'N\'] must be a string, a number or a boolean, got symbol' },
  { id: 'createProgram.defines.bigint-value', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines.N must be a string, a finite number or a boolean, got bigint', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'N\'] must be a string, a number or a boolean, got bigint' },
  { id: 'createProgram.defines.entries', webgl2: 'XFB_INVALID_ARGUMENT: createProgram(): defines must be an object { NAME: value }', webgpu: 'XFB_INVALID_ARGUMENT: defines[\'0\'] must be a string, a number or a boolean, got object' },
  // messages: createPipeline() keys allowed per runtime (WebGL2 refuses emits and overflow as unknown keys), a state pair of one buffer worded twice (5)
  { id: 'createPipeline.roles.one-buffer-as-pair', webgl2: 'XFB_INVALID_ARGUMENT: entry #0 uses the same Buffer as input and output; a state pair needs two buffers of the same format and size', webgpu: 'XFB_INVALID_ARGUMENT: entries[0].output: buffer \'a\' appears twice in the role list; WebGPU cannot read and write one buffer in a pass' },
  { id: 'createPipeline.options.unknown-key', webgl2: 'XFB_INVALID_ARGUMENT: createPipeline() options: unknown key \'cnt\' (allowed: count, queries, fuseSubsteps)', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline() options: unknown key \'cnt\' (allowed: count, queries, emits, overflow, fuseSubsteps)' },
  { id: 'createPipeline.options.emits.number', webgl2: 'XFB_INVALID_ARGUMENT: createPipeline() options: unknown key \'emits\' (allowed: count, queries, fuseSubsteps)', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones' },
  { id: 'createPipeline.options.overflow.unknown', webgl2: 'XFB_INVALID_ARGUMENT: createPipeline() options: unknown key \'overflow\' (allowed: count, queries, fuseSubsteps)', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline(): overflow must be \'error\' or \'clamp\', got \'wrap\'' },
  { id: 'createPipeline.options.overflow.number', webgl2: 'XFB_INVALID_ARGUMENT: createPipeline() options: unknown key \'overflow\' (allowed: count, queries, fuseSubsteps)', webgpu: 'XFB_INVALID_ARGUMENT: createPipeline(): overflow must be \'error\' or \'clamp\', got \'1\'' },
  // messages: a call on a lost context or device does not name the public call (WebGL2 names internal methods such as readAsync, beginChecked; WebGPU names none) (10)
  { id: 'lost.createBuffer', webgl2: 'XFB_CONTEXT_LOST: createBuffer: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.createProgram', webgl2: 'XFB_CONTEXT_LOST: createProgram: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.createPipeline', webgl2: 'XFB_CONTEXT_LOST: createPipeline: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.buffer.upload', webgl2: 'XFB_CONTEXT_LOST: upload: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.buffer.read', webgl2: 'XFB_CONTEXT_LOST: readAsync: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.program.setUniform', webgl2: 'XFB_CONTEXT_LOST: setUniform: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.program.setUniform-int', webgl2: 'XFB_CONTEXT_LOST: setUniform: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.pipeline.step', webgl2: 'XFB_CONTEXT_LOST: step: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.pipeline.step-substeps', webgl2: 'XFB_CONTEXT_LOST: stepSubsteps: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  { id: 'lost.pipeline.stepChecked', webgl2: 'XFB_CONTEXT_LOST: beginChecked: the WebGL context is lost; wait for the \'contextrestored\' event', webgpu: 'XFB_CONTEXT_LOST: the WebGPU device is lost (destroyed: Device was destroyed.); create a new engine' },
  // messages: a disposed buffer or program is not named by its label ("this buffer was disposed"); after engine.dispose() WebGL2 blames the program (12)
  { id: 'dispose.buffer.upload', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.buffer.read', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.buffer.layout', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.buffer.handle', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.buffer.in-createPipeline', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.program.setUniform', webgl2: 'XFB_DISPOSED: this program was disposed; create a new one', webgpu: 'XFB_DISPOSED: this program was disposed; create a new one' },
  { id: 'dispose.program.plan', webgl2: 'XFB_DISPOSED: this program was disposed; create a new one', webgpu: 'XFB_DISPOSED: this program was disposed; create a new one' },
  { id: 'dispose.program.in-createPipeline', webgl2: 'XFB_DISPOSED: this program was disposed; create a new one', webgpu: 'XFB_DISPOSED: this program was disposed; create a new one' },
  { id: 'dispose.engine.createPipeline', webgl2: 'XFB_DISPOSED: this program was disposed; create a new one', webgpu: 'XFB_DISPOSED: this engine was disposed' },
  { id: 'dispose.engine.its-buffer.read', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.engine.its-buffer.upload', webgl2: 'XFB_DISPOSED: this buffer was disposed; create a new one', webgpu: 'XFB_DISPOSED: this buffer was disposed; create a new one' },
  { id: 'dispose.engine.its-program.setUniform', webgl2: 'XFB_DISPOSED: this program was disposed; create a new one', webgpu: 'XFB_DISPOSED: this program was disposed; create a new one' },
  // messages: an unaligned attribute offset is blamed on the stride it implies (the shared C++ validator) (1)
  { id: 'createBuffer.format.offset-unaligned', webgl2: 'XFB_FORMAT_INVALID: vertex format {ATTR0 float32x4 @2} stride 18: stride must be a positive multiple of 4 bytes, got 18', webgpu: 'XFB_FORMAT_INVALID: vertex format {ATTR0 float32x4 @2} stride 18: stride must be a positive multiple of 4 bytes, got 18' },
  // messages: others (followBuffer blames the buffer on WebGPU; a buffer of another context named by number) (2)
  { id: 'followBuffer.make.number', webgl2: 'XFB_INVALID_ARGUMENT: followBuffer(): make must be a function (glBuffer) => wrapper', webgpu: 'XFB_INVALID_ARGUMENT: followBuffer(): buffer must be an xfb buffer' },
  { id: 'followBuffer.make.undefined', webgl2: 'XFB_INVALID_ARGUMENT: followBuffer(): make must be a function (glBuffer) => wrapper', webgpu: 'XFB_INVALID_ARGUMENT: followBuffer(): buffer must be an xfb buffer' },
];
