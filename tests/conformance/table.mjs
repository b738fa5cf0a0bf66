// The conformance table: the intent of the Khronos WebGL 2 conformance suite
// (sdk/tests/conformance2/transform_feedback/), piglit (tests/spec/ext_transform_feedback/) and
// dEQP-GLES3 (transform_feedback.*) written once as cases of xfb's public API, and run on every
// runtime: native GL 4.3 core and GLES 3.0/3.2 (tests/conformance/runner.cpp, transform feedback
// and compute) and WebGL2 and WebGPU in headless Chromium (tests/web/page/conformance.js).
// docs/conformance.md is generated from it (export.mjs --markdown).
//
// A case, as written in cases/*.mjs (materialize() turns it into the plain data both runners read):
//   id        'category.name', unique and stable
//   peers     the peer tests whose intent it carries, e.g. 'webgl too-small-buffers.html',
//             'piglit overflow-edge-cases', 'deqp transform_feedback.basic_types.*'
//   intent    one sentence: what a wrapper must guarantee
//   finding   (optional) the number of the issue-23 finding it guards
//   limits    (optional) { maxInterleavedComponents: '>=68' | '<68', ... }: the case applies only
//             where the runtime's limits satisfy every entry (elsewhere: not applicable, with the
//             limit named). Limit names: maxVertexAttribs, maxSeparateComponents,
//             maxSeparateAttribs, maxInterleavedComponents, maxVaryingVectors.
//   na        (optional) { tag: 'reason' }: not applicable where the runtime has the tag
//             (RUNTIMES below); the first matching key is the reason. A runtime that cannot run
//             an op of the case and has no reason here fails the case: never a silent skip.
//   buffers   { name: { format: [{ semantic, type = 'float32', components = 4, offset? }],
//               count, data?: [numbers], adopt?: true, adoptOf?: 'other' } }
//             data: numbers in the format's field types, element after element (absent: every
//             word is the SENTINEL). adopt: the runner creates the GL buffer itself (the
//             application's) with that content and adopts it; adoptOf: adopts the GL buffer of
//             another adopted buffer a second time. later: not created before the ops; the op
//             createBuffer makes it.
//   run       ops, in order. Every op may carry `error: 'XFB_CODE'`: it must throw that code, and
//             then every buffer must hold the bytes it held before the op (a refusal writes
//             nothing) except those its `writes: [names]` lists (a checked step refused after its
//             pass ran: the outputs it wrote, not swapped in); the runner goes on with the next op. The ops:
//     { op: 'createBuffer', buffer }                          (a buffer marked later, with its data)
//     { op: 'program', name = 'main', source, mode = 'interleaved', varyings?, portable? }
//     { op: 'pipeline', name = 'p', program = 'main', entries: [{ input?, output? }], count?,
//       emits?: [{ varying, count }], overflow?: 'error' | 'clamp' }  (emitted outputs: compute, or
//       on a runtime that steps by transform feedback the fragment backend's pyramid passes)
//     { op: 'step', pipeline = 'p', substeps = 1, times = 1 }
//     { op: 'stepChecked', pipeline = 'p', written?, emitted? }  (written: the report's records;
//       emitted: [{ budget, requested, written, capacity }], the pipeline's emitted() after it)
//     { op: 'capture', name = 'c', program = 'main', entries, vertexCount?, expansion? }
//     { op: 'draw', capture = 'c', mode, count? | indices?, restartIndex?, records?, primitives? }
//     { op: 'session', capture = 'c', parts: [{ mode, count? | indices?, program? }], firstRecord?,
//       endRecord? }
//     { op: 'upload', buffer, data, offset = 0 }              (offset in bytes)
//     { op: 'read', buffer, expect: [numbers | S] }           (an intervening read by xfb)
//     { op: 'uniform', program = 'main', name, value: number | number[] }
//     { op: 'readAsync', buffer, name }  starts a read (C++ readAsync(), JS read() not awaited)
//     { op: 'take', name, expect?: [numbers | S] }  finishes it (take() / await)
//     { op: 'population', program = 'main', capacity, state: [{ input, emitted, format }], count,
//       overflow? }  a Population (tf runtimes: the fragment backend; format: the field's, for the
//       numbers of spawn and populationRead)
//     { op: 'spawn', fields: [[numbers] per field] }
//     { op: 'populationStep', times = 1 } / { op: 'populationStepChecked', count?: { live, requested, dropped } }
//     { op: 'populationRead', field, expect: [numbers] }  the field's first records (as many as given)
//     { op: 'populationCount', expect: { live, capacity, requested, dropped, droppedUnchecked } }
//     { op: 'lose' } / { op: 'restore' }  the context (WebGL2: WEBGL_lose_context, native:
//       Device::contextLost / contextRestored) or device (WebGPU: device.destroy()) is lost / back;
//       while it is lost, a refused op's buffers are not compared (nothing can be read)
//     draw and session parts may name mode 'invalid' (with rawMode, the number C++ casts to
//       DrawMode): a mode outside the enumeration
//     { op: 'app', ... }: the application's own GL calls (GL runtimes only), kept as it set them:
//       { bind: TARGET, buffer }        glBindBuffer(TARGET, the buffer's GL name now), TARGET one of
//                                       ARRAY_BUFFER UNIFORM_BUFFER PIXEL_PACK_BUFFER PIXEL_UNPACK_BUFFER
//                                       COPY_READ_BUFFER COPY_WRITE_BUFFER TRANSFORM_FEEDBACK_BUFFER
//       { bindBase: 'UNIFORM_BUFFER', index, buffer }   glBindBufferBase
//       { bindRange: 'UNIFORM_BUFFER', index, buffer, offset, size }   glBindBufferRange
//       { unbind: TARGET }              glBindBuffer(TARGET, 0): the generic point only
//       { vertexArray: buffer, location }               its own VAO, bound, attribute -> the buffer
//       { feedback: 'bound' | 'active' | 'paused' }     its own program (captures
//                     `v = vec4(gl_VertexID, 1, 2, 3)`), buffer and TF object, bound; 'active':
//                     begun (POINTS, rasterizer discard on) with one point drawn; 'paused': then paused;
//                     holds: buffer (bound only): one of xfb's buffers at its index 0 instead of its own
//       { respecify: buffer, bytes }                    glBufferData(bytes) on the buffer's GL name
//     After the last op the runner checks the application's state is as it set it (each binding,
//     an indexed one's range too,
//     its VAO, its TF object bound / active / paused), and for 'feedback' that the application's
//     capture still works: it resumes if paused, draws vertex 1, ends and reads [0,1,2,3, 1,1,2,3];
//     then it unbinds all of it. Last, no GL error may be pending.
//   expect    { buffers: { name: [numbers | S] } }: the final bytes of those buffers (a state
//             buffer names the latest state, as the API says)
//
// Expected values are numbers in the field types of the buffer's format, element after element;
// S stands for one sentinel word (never written).

import { applicationState } from './cases/application_state.mjs';
import { basic } from './cases/basic.mjs';
import { captureCases } from './cases/capture.mjs';
import { emit } from './cases/emit.mjs';
import { population } from './cases/population.mjs';
import { loss } from './cases/loss.mjs';
import { outputTypes } from './cases/output_types.mjs';
import { reuse } from './cases/reuse.mjs';
import { shaderLanguage } from './cases/shader_language.mjs';
import { varyings } from './cases/varyings.mjs';
import { S, SENTINEL } from './words.mjs';

export { S, SENTINEL };

/** Every runtime and its tags (the keys `na` may use). */
export const RUNTIMES = {
  'gl43core.tf': ['native', 'desktop', 'gl', 'tf'],
  'gl43core.compute': ['native', 'desktop', 'gl', 'compute'],
  'gles30.tf': ['native', 'es', 'gl', 'tf'],
  'gles32.tf': ['native', 'es', 'gl', 'tf'],
  'gles32.compute': ['native', 'es', 'gl', 'compute'],
  webgl2: ['web', 'webgl2', 'es', 'gl', 'tf'],
  webgpu: ['web', 'webgpu', 'compute'],
};

export const cases = [...basic, ...outputTypes, ...varyings, ...applicationState, ...reuse, ...captureCases, ...loss, ...shaderLanguage, ...emit, ...population];

const fieldsOf = (format) => format.map((f) => ({ type: f.type ?? 'float32', components: f.components ?? 4 }));

/** Numbers (and S) in a format's field types -> 32-bit words, repeating the format element after element. */
export function toWords(format, values) {
  const fields = fieldsOf(format);
  const types = fields.flatMap((f) => Array(f.components).fill(f.type));
  const view = new DataView(new ArrayBuffer(4));
  return values.map((v, i) => {
    if (v === S) return SENTINEL;
    const type = types[i % types.length];
    if (type === 'float32') view.setFloat32(0, v, true);
    else if (type === 'int32') view.setInt32(0, v, true);
    else view.setUint32(0, v, true);
    return view.getUint32(0, true);
  });
}

/** Words per element of a format: its stride / 4 (offsets may leave gaps). */
export function elementWords(format) {
  let end = 0, packed = 0;
  for (const f of format) {
    const at = f.offset ?? packed;
    packed = at + 4 * (f.components ?? 4);
    end = Math.max(end, packed);
  }
  return end / 4;
}

/** A case as plain data: every number list turned into words, defaults filled in. */
export function materialize(c) {
  const buffers = {};
  for (const [name, b] of Object.entries(c.buffers ?? {})) {
    const format = b.format.map((f) => ({ semantic: f.semantic, type: f.type ?? 'float32', components: f.components ?? 4, ...(f.offset !== undefined ? { offset: f.offset } : {}) }));
    const words = b.count * elementWords(format);
    const initial = b.data ? toWords(format, b.data) : Array(words).fill(b.withoutData ? 0 : SENTINEL); // withoutData: made with no data, zeros expected
    if (initial.length !== words) throw new Error(`${c.id}: buffer ${name} has ${initial.length} words of data, count x stride is ${words}`);
    buffers[name] = { format, count: b.count, initial, ...(b.adopt ? { adopt: true } : {}), ...(b.adoptOf ? { adoptOf: b.adoptOf } : {}), ...(b.later ? { later: true } : {}), ...(b.withoutData ? { withoutData: true } : {}) };
  }
  const formatOf = (name) => {
    if (!c.buffers?.[name]) throw new Error(`${c.id}: no buffer named ${name}`);
    return c.buffers[name].format;
  };
  const readOf = {}; // readAsync name -> its buffer, for take's expect
  let fieldFormats = []; // the last population op's: its spawns' and reads' numbers -> words
  const run = (c.run ?? []).map((op) => {
    const o = { ...op };
    if (o.op === 'population') {
      fieldFormats = o.state.map((f) => f.format);
      o.state = o.state.map(({ input, emitted }) => ({ input, emitted }));
    }
    if (o.op === 'spawn') o.fields = o.fields.map((values, f) => toWords(fieldFormats[f], values));
    if (o.op === 'populationRead') o.expect = toWords(fieldFormats[o.field], o.expect);
    if (o.op === 'readAsync') readOf[o.name] = o.buffer;
    if (o.op === 'read') o.expect = toWords(formatOf(o.buffer), o.expect);
    if (o.op === 'take' && o.expect) o.expect = toWords(formatOf(readOf[o.name]), o.expect);
    if (o.op === 'upload') o.data = toWords(formatOf(o.buffer), o.data);
    if (o.op === 'program') o.mode ??= 'interleaved';
    return o;
  });
  const expect = {};
  for (const [name, values] of Object.entries(c.expect?.buffers ?? {})) expect[name] = toWords(formatOf(name), values);
  return { id: c.id, peers: c.peers, intent: c.intent, ...(c.finding ? { finding: c.finding } : {}), limits: c.limits ?? {}, na: c.na ?? {}, buffers, run, expect };
}

/** Why `c` does not apply to `runtime` (given its limits), or null. */
export function notApplicable(c, runtime, limits) {
  for (const [key, reason] of Object.entries(c.na ?? {}))
    if (key === runtime || RUNTIMES[runtime].includes(key)) return reason;
  for (const [name, rule] of Object.entries(c.limits ?? {})) {
    const [, cmp, value] = /^(>=|<)(\d+)$/.exec(rule);
    const have = limits[name];
    if (cmp === '>=' ? !(have >= Number(value)) : !(have < Number(value))) return `needs ${name} ${rule}; this runtime has ${have}`;
  }
  return null;
}

/** Peer tests whose intent is not a case, and why (docs/conformance.md lists them). */
export const NOT_PORTED = {
  'piglit ext_transform_feedback/discard-api.c, discard-bitmap.c, discard-clear.c, discard-copypixels.c, discard-drawarrays.c, discard-drawpixels.c':
    'rasterizer discard of the application\'s draws: xfb turns RASTERIZER_DISCARD on for its own pass only and restores it (the own-feedback and simultaneous cases check the state it leaves)',
  'piglit ext_transform_feedback/generatemipmap.c': 'mipmap generation during transform feedback: xfb captures no textures',
  'piglit ext_transform_feedback/get-buffer-state.c, buffer-usage.c': 'GL query state of the TF binding points: xfb binds them only inside its own pass (every case checks no binding and no error is left)',
  'piglit ext_transform_feedback/geometry-shaders-basic.c, tessellation.c': 'xfb captures vertex-shader output only today (geometry streams are issue 27)',
  'piglit ext_transform_feedback/primgen.c, pipeline-basic-primgen.c': 'PRIMITIVES_GENERATED queries: xfb exposes PRIMITIVES_WRITTEN only (stepChecked, queries)',
  'piglit ext_transform_feedback/nonflat-integral.c': 'a GLSL compile rule (integer outputs must be flat) the GL compiler enforces: a program that breaks it is XFB_SHADER_COMPILE with the log',
  'piglit ext_transform_feedback/structs.c': 'struct outputs are refused by the planner (XFB_VARYING_TYPE) on every runtime: the unit tests provoke it',
  'piglit ext_transform_feedback/points.c': 'point sprites and sizes of the rasterized draw: xfb rasterizes nothing',
  'webgl conformance2/transform_feedback/default_transform_feedback.html': 'the default TF object: xfb always uses its own objects and rebinds the application\'s (own-feedback.bound.*)',
};
