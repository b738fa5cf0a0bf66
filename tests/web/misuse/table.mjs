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
export const KNOWN_DRIFT = [];
