// The browser runner of the conformance table (tests/conformance/table.mjs, whose header comment
// is the specification; tests/conformance/runner.cpp is the native runner of the same table):
// every case on the two browser runtimes, `webgl2` (createXfb({ canvas }) on a WebGL2 canvas) and
// `webgpu` (createXfb({ backend: 'webgpu' })), one test() each, named `<runtime> <case id>`.
//
// On WebGL2 every buffer is read back with raw WebGL (getBufferSubData on COPY_READ_BUFFER, the
// application's COPY_READ binding kept), never with xfb's read(), which a case may be testing;
// the application's own calls of the `app` ops are made here with raw WebGL. On WebGPU (no state
// shared with the application) buffers are read with xfb's read().
//
// A failure is one assert() whose message names the runtime, the case, the op (its index in
// `run`) and the values. Failures of the runner itself (an exception in this file, not an xfb
// error) say "runner error" and keep their stack.
// Usage: node tests/web/browser.mjs build/wasm/npm conformance
import { assert, createXfb, XfbError } from './assert.js';

const RUNTIME_NAMES = ['webgl2', 'webgpu'];
const GL_ERROR_NAMES = { 0x500: 'INVALID_ENUM', 0x501: 'INVALID_VALUE', 0x502: 'INVALID_OPERATION', 0x505: 'OUT_OF_MEMORY', 0x506: 'INVALID_FRAMEBUFFER_OPERATION', 0x9242: 'CONTEXT_LOST_WEBGL' };
const glErrorName = (e) => `${GL_ERROR_NAMES[e] ?? 'error'} (0x${e.toString(16)})`;
const hex = (w) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;
// What the WebGPU engine plans with (web/src/wgsl_bindings.cpp webgpuLimits(): Limits::portable(),
// the WebGL2 / ES 3.0 minimums of engine/include/xfb/limits.hpp) where it reports no limit of that
// name; maxVaryingVectors unbounded: a compute pass has no varying rows (issue 39).
const WEBGPU_PLANNING_LIMITS = { maxVertexAttribs: 16, maxSeparateComponents: 4, maxSeparateAttribs: 4, maxInterleavedComponents: 64, maxVaryingVectors: Infinity };
const LIMIT_NAMES = Object.keys(WEBGPU_PLANNING_LIMITS);
const KNOWN_OPS = ['createBuffer', 'program', 'pipeline', 'step', 'stepChecked', 'capture', 'draw', 'session', 'upload', 'read', 'uniform', 'readAsync', 'take', 'lose', 'restore', 'app', 'population', 'spawn', 'populationStep', 'populationStepChecked', 'populationCount', 'populationRead'];
const BIND_TARGETS = ['ARRAY_BUFFER', 'UNIFORM_BUFFER', 'PIXEL_PACK_BUFFER', 'PIXEL_UNPACK_BUFFER', 'COPY_READ_BUFFER', 'COPY_WRITE_BUFFER', 'TRANSFORM_FEEDBACK_BUFFER'];
const bindingQuery = (gl, target) => ({
  [gl.ARRAY_BUFFER]: gl.ARRAY_BUFFER_BINDING, [gl.UNIFORM_BUFFER]: gl.UNIFORM_BUFFER_BINDING, [gl.PIXEL_PACK_BUFFER]: gl.PIXEL_PACK_BUFFER_BINDING,
  [gl.PIXEL_UNPACK_BUFFER]: gl.PIXEL_UNPACK_BUFFER_BINDING, [gl.COPY_READ_BUFFER]: gl.COPY_READ_BUFFER_BINDING, [gl.COPY_WRITE_BUFFER]: gl.COPY_WRITE_BUFFER_BINDING,
  [gl.TRANSFORM_FEEDBACK_BUFFER]: gl.TRANSFORM_FEEDBACK_BUFFER_BINDING,
})[target];

/** A failure of a case: an assertion message, without the runner's stack. */
class CaseFailure extends Error {}
function fail(message) {
  try {
    assert(false, message);
  } catch (e) {
    const f = new CaseFailure(e.message);
    f.stack = e.message;
    throw f;
  }
}

// --- The table ----------------------------------------------------------------------------------
let table = null, tableError = null;
try {
  table = await import('/conformance/table.mjs');
} catch (e) {
  tableError = e;
}

// --- Engines: one per runtime for the whole suite, created lazily --------------------------------
const engines = { webgl2: null, webgpu: null };

async function engineFor(runtime) {
  const have = engines[runtime];
  if (have && !have.error) return have;
  if (have?.error) return have; // a runtime whose engine could not be made fails every case with the reason
  try {
    if (runtime === 'webgl2') {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 64;
      const xfb = await createXfb({ canvas, populations: true }); // the module with populations (a superset)
      const gl = xfb.gl;
      const caps = xfb.capabilities;
      const limits = {};
      for (const name of LIMIT_NAMES) limits[name] = caps.limits[name];
      const limitSource = 'xfb.capabilities.limits';
      engines.webgl2 = { runtime, xfb, gl, canvas, loseExt: gl.getExtension('WEBGL_lose_context'), limits, limitSource, version: `${caps.version} / ${caps.renderer}` };
    } else {
      const xfb = await createXfb({ backend: 'webgpu' });
      const reported = xfb.capabilities.limits ?? {};
      const limits = {};
      const fromEngine = [];
      for (const name of LIMIT_NAMES) {
        if (typeof reported[name] === 'number') { limits[name] = reported[name]; fromEngine.push(name); }
        else limits[name] = WEBGPU_PLANNING_LIMITS[name];
      }
      const limitSource = fromEngine.length === LIMIT_NAMES.length ? 'xfb.capabilities.limits'
        : `the WebGPU planner's Limits::portable() (web/src/wgsl_bindings.cpp)${fromEngine.length ? `; from xfb.capabilities.limits: ${fromEngine.join(', ')}` : ''}`;
      engines.webgpu = { runtime, xfb, gl: null, limits, limitSource, version: xfb.capabilities.version };
    }
  } catch (e) {
    engines[runtime] = { runtime, error: `the ${runtime} engine could not be created: ${e && e.code ? `${e.code}: ${e.detail}` : e}` };
  }
  return engines[runtime];
}

/** Resolves with the event's detail once `xfb` emits `type` and that dispatch is over; rejects after `ms`. */
function waitEvent(xfb, type, ms = 10_000) {
  return new Promise((resolve, reject) => {
    const listener = (detail) => { clearTimeout(timer); xfb.off(type, listener); setTimeout(() => resolve(detail), 0); };
    const timer = setTimeout(() => { xfb.off(type, listener); reject(new Error(`no '${type}' event within ${ms} ms`)); }, ms);
    xfb.on(type, listener);
  });
}

// --- Words -----------------------------------------------------------------------------------------
/** For word i of a buffer of `format`: ' (element e, SEMANTIC.x type)', and the word as that type. */
function wordInfo(format, i) {
  const stride = table.elementWords(format);
  const element = Math.floor(i / stride), w = i % stride;
  let packed = 0;
  for (const f of format) {
    const at = (f.offset ?? packed) / 4;
    packed = at * 4 + 4 * (f.components ?? 4);
    if (w >= at && w < at + (f.components ?? 4)) return { where: ` (element ${element}, ${f.semantic}.${'xyzw'[w - at] ?? w - at} ${f.type ?? 'float32'})`, type: f.type ?? 'float32' };
  }
  return { where: ` (element ${element}, word ${w}: a gap of the format)`, type: 'uint32' };
}
function asType(word, type) {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, word >>> 0, true);
  return type === 'float32' ? view.getFloat32(0, true) : type === 'int32' ? view.getInt32(0, true) : view.getUint32(0, true);
}
/** One description of how `got` differs from `want` (word lists), or null when equal. */
function wordsDiffer(got, want, format) {
  if (got.length !== want.length) return `${got.length} words, expected ${want.length}`;
  let first = -1, count = 0;
  for (let i = 0; i < want.length; i++) if ((got[i] >>> 0) !== (want[i] >>> 0)) { if (first < 0) first = i; count++; }
  if (first < 0) return null;
  const g = got[first] >>> 0, e = want[first] >>> 0;
  const { where, type } = format ? wordInfo(format, first) : { where: '', type: 'uint32' };
  const note = e === table.SENTINEL ? ' (the sentinel: must never be written)' : g === table.SENTINEL ? ' (the sentinel: never written)' : '';
  const value = (w) => (w === table.SENTINEL ? '' : ` (${asType(w, type)})`);
  return `word ${first}${where} is ${hex(g)}${value(g)}, expected ${hex(e)}${value(e)}${note}; ${count} of ${want.length} words differ`;
}
const wordsOf = (typed) => Array.from(new Uint32Array(typed.buffer, typed.byteOffset, typed.byteLength / 4));
const errorText = (e) => (e instanceof XfbError ? `${e.code}: ${e.detail}` : e && e.name ? `${e.name}: ${e.message}` : String(e));

// --- One case on one runtime -----------------------------------------------------------------------
class CaseRun {
  constructor(env, c, m, note) {
    this.env = env; this.runtime = env.runtime; this.c = c; this.m = m; this.note = note;
    this.xfb = env.xfb; this.gl = env.gl;
    this.prefix = `${this.runtime} ${m.id}`;
    this.buffers = {}; // name -> { spec, xfb, own (the application's WebGLBuffer, adopted ones), words }
    this.programs = {}; this.pipelines = {}; this.captures = {}; this.reads = {};
    this.created = []; // every xfb object, for disposal
    this.ownBuffers = []; // WebGLBuffers (GPUBuffers on WebGPU) the runner created (adopted buffers)
    this.app = { bindings: [], indexed: [], vao: null, vaoBuffer: null, vaoLocation: 0, feedback: null };
    this.lost = false; this.wasLost = false;
    this.pendingErrors = []; // GL errors the runner found pending before its own calls: [what ran since the last look, error]
    this.since = []; // what ran since the runner last looked at getError(): op labels
    this.where = 'the start of the case';
  }

  say(message) { return `${this.prefix}: ${message}`; }
  fail(message) { fail(this.say(message)); }
  check(cond, message) { if (!cond) this.fail(message); assert(true, this.say(message)); }

  // GL errors pending now (raised by what ran since the last look: xfb calls): kept for the end of the case.
  drainErrors() {
    const gl = this.gl;
    if (!gl || gl.isContextLost()) return;
    const since = this.since.length ? this.since.join(', ') : 'nothing the runner knows of';
    for (let e = gl.getError(), n = 0; e !== gl.NO_ERROR && n < 16; e = gl.getError(), n++) this.pendingErrors.push([since, e]);
    this.since = [];
  }

  /** The WebGLBuffer a buffer's latest data is in (the application's own for adopted buffers). */
  glBufferOf(name) {
    const b = this.slot(name);
    if (b.own) return b.own;
    try {
      return b.xfb.glBuffer; // the name only (no GL call, no read): Module.GL.buffers[glName()]
    } catch (e) {
      this.fail(`${this.where}: cannot name the WebGLBuffer of buffer ${name}: ${errorText(e)}`);
    }
  }

  /** A buffer's words with raw WebGL, the application's COPY_READ binding kept (null: lost). */
  rawRead(glBuffer, words, what) {
    const gl = this.gl;
    this.drainErrors();
    const saved = gl.getParameter(gl.COPY_READ_BUFFER_BINDING);
    // WebGL2 refuses to bind a buffer that the bound transform feedback object holds to another
    // target: the application's object (not active, so it may be) is unbound for the read.
    const feedback = gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING);
    const swapFeedback = feedback && !gl.getParameter(gl.TRANSFORM_FEEDBACK_ACTIVE);
    if (swapFeedback) gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindBuffer(gl.COPY_READ_BUFFER, glBuffer);
    const size = gl.getBufferParameter(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE) ?? 0;
    const out = new Uint32Array(Math.min(words, Math.floor(size / 4)));
    if (out.length) gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out);
    gl.bindBuffer(gl.COPY_READ_BUFFER, saved);
    if (swapFeedback) gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, feedback);
    const error = gl.getError();
    if (error !== gl.NO_ERROR) this.fail(`${this.where}: the runner's raw read of ${what} (bindBuffer(COPY_READ_BUFFER) + getBufferSubData) raised ${glErrorName(error)}`);
    return Array.from(out);
  }

  async readWords(name, what) {
    const b = this.slot(name);
    if (this.gl) return this.rawRead(this.glBufferOf(name), b.words, what ?? `buffer ${name}`);
    let data;
    try {
      data = await b.xfb.read();
    } catch (e) {
      this.fail(`${this.where}: xfb's read() of buffer ${name} (the WebGPU runner's only way to read it) threw ${errorText(e)}`);
    }
    return wordsOf(data);
  }

  async snapshot() {
    const all = {};
    for (const name of Object.keys(this.buffers)) if (this.buffers[name].xfb) all[name] = await this.readWords(name);
    return all;
  }

  slot(name) {
    const b = this.buffers[name];
    if (!b) this.fail(`${this.where}: no buffer named ${name}`);
    return b;
  }
  named(objects, name, kind) {
    const o = objects[name];
    if (!o) this.fail(`${this.where}: no ${kind} named ${name} (its creation failed or was refused)`);
    return o;
  }
  entriesOf(op) {
    return (op.entries ?? []).map((e) => ({ ...(e.input !== undefined ? { input: this.slot(e.input).xfb } : {}), ...(e.output !== undefined ? { output: this.slot(e.output).xfb } : {}) }));
  }
  keep(o) { this.created.push(o); return o; }
  livePopulation(where) {
    if (!this.population) this.fail(`${where}: no population op came before (a table error)`);
    return this.population;
  }
  checkCount(c, want, where) {
    for (const [key, value] of Object.entries(want)) this.check(c[key] === value, `${where}: ${key} is ${c[key]}, expected ${value} (${JSON.stringify(c)})`);
  }

  /** What the runtime cannot do of this case (reasons), before anything runs. */
  cannot() {
    const out = [];
    this.m.run.forEach((op, i) => {
      if (!KNOWN_OPS.includes(op.op)) out.push(`op ${i}: unknown op '${op.op}' (the browser runner does not implement it)`);
    });
    if (this.runtime !== 'webgpu') return out;
    this.m.run.forEach((op, i) => {
      if (op.op === 'app') out.push(`op ${i} (app): WebGPU has no GL state shared with the application`);
    });
    return out;
  }

  createBuffers() {
    for (const [name, b] of Object.entries(this.m.buffers)) if (!b.later) this.createBuffer(name, b);
  }

  /** Creates (or adopts) buffer `name`; `asOp`: an op of the case, whose XfbError is thrown as is. */
  createBuffer(name, b, asOp = false) {
    const gl = this.gl;
    {
      if (!asOp) this.where = `buffer ${name}`;
      this.since.push(`the creation of buffer ${name}`);
      const initial = new Uint32Array(b.initial);
      const slot = { spec: b, xfb: null, own: null, words: initial.length };
      this.buffers[name] = slot;
      try {
        if ((b.adopt || b.adoptOf) && this.runtime === 'webgpu') {
          // The application's GPUBuffer (STORAGE: xfb binds its buffers as storage), or another's again.
          const other = b.adoptOf ? this.buffers[b.adoptOf] : null;
          if (b.adoptOf && !other?.own) this.fail(`buffer ${name}: adoptOf '${b.adoptOf}' names no adopted buffer made before it`);
          let own = other?.own;
          if (!own) {
            const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
            own = this.xfb.device.createBuffer({ label: `application ${name}`, size: initial.byteLength, usage });
            this.xfb.device.queue.writeBuffer(own, 0, initial);
            this.ownBuffers.push(own);
          }
          slot.own = own;
          slot.xfb = this.keep(this.xfb.adoptBuffer({ gpuBuffer: own, format: b.format, count: b.count }));
        } else if (b.adoptOf) {
          const other = this.buffers[b.adoptOf];
          if (!other?.own) this.fail(`buffer ${name}: adoptOf '${b.adoptOf}' names no adopted buffer made before it`);
          slot.own = other.own;
          slot.xfb = this.keep(this.xfb.adoptBuffer({ glBuffer: other.own, format: b.format, count: b.count }));
        } else if (b.adopt) {
          this.drainErrors();
          const own = gl.createBuffer();
          this.ownBuffers.push(own);
          const saved = gl.getParameter(gl.COPY_WRITE_BUFFER_BINDING);
          gl.bindBuffer(gl.COPY_WRITE_BUFFER, own);
          gl.bufferData(gl.COPY_WRITE_BUFFER, initial, gl.DYNAMIC_COPY);
          gl.bindBuffer(gl.COPY_WRITE_BUFFER, saved);
          const error = gl.getError();
          if (error !== gl.NO_ERROR) this.fail(`buffer ${name}: the application's createBuffer/bufferData raised ${glErrorName(error)}`);
          slot.own = own;
          slot.xfb = this.keep(this.xfb.adoptBuffer({ glBuffer: own, format: b.format, count: b.count }));
        } else {
          slot.xfb = this.keep(this.xfb.createBuffer({ format: b.format, count: b.count, ...(b.withoutData ? {} : { data: initial.buffer }) }));
        }
      } catch (e) {
        if (e instanceof CaseFailure) throw e;
        if (asOp) { delete this.buffers[name]; throw e; }
        this.fail(`buffer ${name}: ${b.adopt || b.adoptOf ? 'adoptBuffer' : 'createBuffer'}() of ${b.count} elements threw ${errorText(e)}`);
      }
    }
  }

  drawOf(op) {
    const d = { mode: op.mode };
    if (op.indices !== undefined) {
      d.indices = op.indices;
      if (op.restartIndex !== undefined) d.restartIndex = op.restartIndex;
    } else d.count = op.count ?? 0;
    return d;
  }

  async perform(op, i, where) {
    const xfb = this.xfb;
    switch (op.op) {
      case 'createBuffer': {
        const b = this.m.buffers[op.buffer];
        if (!b?.later || this.buffers[op.buffer]) this.fail(`${where}: buffer ${op.buffer} is not marked later, or exists (a table error)`);
        this.createBuffer(op.buffer, b, true); // its XfbError is the op's (a refusal may be expected)
        return;
      }
      case 'program': {
        const name = op.name ?? 'main';
        this.programs[name] = null;
        const desc = { source: op.source, mode: op.mode ?? 'interleaved' };
        if (op.varyings !== undefined) desc.varyings = op.varyings;
        if (op.portable !== undefined) desc.portable = op.portable;
        this.programs[name] = this.keep(xfb.createProgram(desc));
        return;
      }
      case 'pipeline': {
        const name = op.name ?? 'p';
        this.pipelines[name] = null;
        const program = this.named(this.programs, op.program ?? 'main', 'program');
        const entries = this.entriesOf(op);
        const options = { ...(op.count !== undefined ? { count: op.count } : {}), ...(op.emits ? { emits: op.emits } : {}), ...(op.overflow ? { overflow: op.overflow } : {}) };
        const p = this.keep(xfb.createPipeline(program, entries, options));
        if (p.ready) await p.ready; // WebGPU: the shader module compiled (XFB_SHADER_COMPILE)
        this.pipelines[name] = p;
        return;
      }
      case 'step': {
        const p = this.named(this.pipelines, op.pipeline ?? 'p', 'pipeline');
        for (let t = 0, times = op.times ?? 1; t < times; t++) p.step(op.substeps ?? 1);
        return;
      }
      case 'stepChecked': {
        const report = await this.named(this.pipelines, op.pipeline ?? 'p', 'pipeline').stepChecked();
        if (op.written !== undefined) this.check(report.written === op.written, `${where}: the report's written is ${report.written}, expected ${op.written} (report ${JSON.stringify(report)})`);
        if (op.emitted !== undefined) this.check(JSON.stringify(report.emitted) === JSON.stringify(op.emitted), `${where}: the report's emitted is ${JSON.stringify(report.emitted)}, expected ${JSON.stringify(op.emitted)}`);
        return;
      }
      case 'capture': {
        const name = op.name ?? 'c';
        this.captures[name] = null;
        const program = this.named(this.programs, op.program ?? 'main', 'program');
        const options = {};
        if (op.vertexCount !== undefined) options.vertexCount = op.vertexCount;
        if (op.expansion !== undefined) options.expansion = op.expansion;
        this.captures[name] = this.keep(xfb.createCapture(program, this.entriesOf(op), options));
        return;
      }
      case 'draw': {
        const count = this.named(this.captures, op.capture ?? 'c', 'capture').capture(this.drawOf(op));
        if (op.records !== undefined) this.check(count.records === op.records, `${where}: records ${count.records}, expected ${op.records} (${JSON.stringify(count)})`);
        if (op.primitives !== undefined) this.check(count.primitives === op.primitives, `${where}: primitives ${count.primitives}, expected ${op.primitives} (${JSON.stringify(count)})`);
        return;
      }
      case 'session': {
        const capture = this.named(this.captures, op.capture ?? 'c', 'capture');
        const parts = op.parts.map((p) => ({ ...this.drawOf(p), ...(p.program !== undefined ? { program: this.named(this.programs, p.program, 'program') } : {}) }));
        const plan = capture.captureSession(parts, op.firstRecord !== undefined ? { firstRecord: op.firstRecord } : {});
        if (op.endRecord !== undefined) this.check(plan.endRecord === op.endRecord, `${where}: endRecord ${plan.endRecord}, expected ${op.endRecord} (${JSON.stringify(plan)})`);
        return;
      }
      case 'upload': {
        this.slot(op.buffer).xfb.upload(new Uint32Array(op.data).buffer, { offset: op.offset ?? 0 });
        return;
      }
      case 'read': {
        const b = this.slot(op.buffer);
        const data = await b.xfb.read();
        const diff = wordsDiffer(wordsOf(data), op.expect, b.spec.format);
        this.check(diff === null, `${where}: xfb's read of ${op.buffer}: ${diff ?? 'as expected'}`);
        return;
      }
      case 'uniform': {
        this.named(this.programs, op.program ?? 'main', 'program').setUniform(op.name, op.value);
        return;
      }
      case 'population': {
        this.population = null;
        const options = { capacity: op.capacity, state: op.state, count: op.count, ...(op.overflow ? { overflow: op.overflow } : {}) };
        this.population = this.keep(xfb.createPopulation(this.named(this.programs, op.program ?? 'main', 'program'), options));
        return;
      }
      case 'spawn': {
        this.livePopulation(where).spawn(op.fields.map((words) => new Uint32Array(words).buffer));
        return;
      }
      case 'populationStep': {
        for (let t = 0, times = op.times ?? 1; t < times; t++) this.livePopulation(where).step();
        return;
      }
      case 'populationStepChecked': {
        const c = this.livePopulation(where).stepChecked();
        if (op.count) this.checkCount(c, op.count, where);
        return;
      }
      case 'populationCount': {
        this.checkCount(await this.livePopulation(where).count(), op.expect, where);
        return;
      }
      case 'populationRead': {
        const words = wordsOf(await this.livePopulation(where).state(op.field).read()).slice(0, op.expect.length);
        const diff = wordsDiffer(words, op.expect, null);
        this.check(diff === null, `${where}: field ${op.field}: ${diff ?? 'as expected'}`);
        return;
      }
      case 'readAsync': {
        const b = this.slot(op.buffer);
        let promise;
        try {
          promise = b.xfb.read();
        } catch (e) {
          promise = Promise.reject(e);
        }
        // Settled into a value at once: a rejection before `take` is never unhandled.
        this.reads[op.name ?? 'r'] = { buffer: op.buffer, settled: promise.then((data) => ({ data }), (error) => ({ error })) };
        if (op.error !== undefined) { const r = await this.reads[op.name ?? 'r'].settled; if (r.error) throw r.error; }
        return;
      }
      case 'take': {
        const r = this.reads[op.name ?? 'r'];
        if (!r) this.fail(`${where}: no read named ${op.name ?? 'r'} was started (readAsync)`);
        const got = await r.settled;
        if (got.error) throw got.error;
        if (op.expect !== undefined) {
          const diff = wordsDiffer(wordsOf(got.data), op.expect, this.slot(r.buffer).spec.format);
          this.check(diff === null, `${where}: the read of ${r.buffer} started by readAsync: ${diff ?? 'as expected'}`);
        }
        return;
      }
      case 'lose': {
        if (this.runtime === 'webgl2') {
          if (!this.env.loseExt) this.fail(`${where}: this context has no WEBGL_lose_context`);
          const lost = waitEvent(xfb, 'contextlost');
          this.env.loseExt.loseContext();
          this.lost = this.wasLost = true;
          await lost;
        } else {
          const lost = waitEvent(xfb, 'contextlost');
          xfb.device.destroy();
          this.lost = this.wasLost = true;
          await xfb.device.lost;
          await lost;
        }
        return;
      }
      case 'restore': {
        const restored = waitEvent(xfb, 'contextrestored');
        if (this.runtime === 'webgl2') this.env.loseExt.restoreContext();
        else await xfb.restore(); // the engine's own device: it requests a new one
        await restored;
        this.lost = false;
        return;
      }
      default:
        this.fail(`${where}: unknown op '${op.op}'`);
    }
  }

  // The application's own WebGL calls (GL runtimes only).
  appOp(op, where) {
    const gl = this.gl;
    this.drainErrors();
    if (op.bind !== undefined) {
      if (!BIND_TARGETS.includes(op.bind)) this.fail(`${where}: unknown bind target ${op.bind}`);
      const target = gl[op.bind], buffer = this.glBufferOf(op.buffer);
      gl.bindBuffer(target, buffer);
      this.app.bindings.push({ target, name: op.bind, buffer, of: op.buffer });
    } else if (op.bindBase !== undefined || op.bindRange !== undefined) {
      const name = op.bindBase ?? op.bindRange;
      if (name !== 'UNIFORM_BUFFER' && name !== 'TRANSFORM_FEEDBACK_BUFFER') this.fail(`${where}: unknown indexed target ${name}`);
      const target = gl[name], buffer = this.glBufferOf(op.buffer), offset = op.offset ?? 0, size = op.size ?? 0;
      if (op.bindRange !== undefined) gl.bindBufferRange(target, op.index, buffer, offset, size);
      else gl.bindBufferBase(target, op.index, buffer);
      this.app.indexed.push({ target, name, index: op.index, buffer, of: op.buffer, offset, size });
      this.app.bindings.push({ target, name, buffer, of: op.buffer }); // bindBufferBase/Range bind the generic point too
    } else if (op.unbind !== undefined) {
      if (!BIND_TARGETS.includes(op.unbind)) this.fail(`${where}: unknown bind target ${op.unbind}`);
      const target = gl[op.unbind];
      gl.bindBuffer(target, null);
      this.app.bindings = this.app.bindings.filter((b) => b.target !== target);
      this.app.bindings.push({ target, name: op.unbind, buffer: null, of: 'nothing' });
    } else if (op.vertexArray !== undefined) {
      const buffer = this.glBufferOf(op.vertexArray), location = op.location ?? 0;
      const vao = gl.createVertexArray();
      this.app.vao = vao; this.app.vaoBuffer = buffer; this.app.vaoLocation = location; this.app.vaoOf = op.vertexArray;
      gl.bindVertexArray(vao);
      const saved = gl.getParameter(gl.ARRAY_BUFFER_BINDING);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 4, gl.FLOAT, false, 16, 0);
      gl.bindBuffer(gl.ARRAY_BUFFER, saved);
    } else if (op.feedback !== undefined) {
      if (!['bound', 'active', 'paused'].includes(op.feedback)) this.fail(`${where}: unknown feedback state '${op.feedback}'`);
      if (op.holds !== undefined && op.feedback !== 'bound') this.fail(`${where}: holds is for a bound (not active) feedback object only`);
      this.app.feedback = this.createFeedback(op.feedback, where, op.holds !== undefined ? this.glBufferOf(op.holds) : null);
    } else if (op.respecify !== undefined) {
      const saved = gl.getParameter(gl.COPY_WRITE_BUFFER_BINDING);
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, this.glBufferOf(op.respecify));
      gl.bufferData(gl.COPY_WRITE_BUFFER, op.bytes, gl.DYNAMIC_COPY);
      gl.bindBuffer(gl.COPY_WRITE_BUFFER, saved);
    } else {
      this.fail(`${where}: unknown app action ${JSON.stringify(op)}`);
    }
    const error = gl.getError();
    this.check(error === gl.NO_ERROR, `${where}: the application's own WebGL calls raised ${error === gl.NO_ERROR ? 'no error' : glErrorName(error)}`);
  }

  // Its own program (v = vec4(gl_VertexID, 1, 2, 3)), buffer, vertex array and TF object, bound;
  // 'active': begun (POINTS, rasterizer discard) with vertex 0 drawn; 'paused': then paused.
  // `holds`: a WebGLBuffer of xfb's bound at its index 0 instead of its own buffer.
  createFeedback(state, where, holds) {
    const gl = this.gl;
    const f = { state };
    const shader = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
    f.vs = shader(gl.VERTEX_SHADER, '#version 300 es\nout vec4 v;\nvoid main() { v = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); gl_Position = vec4(0.0); }\n');
    f.fs = shader(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n');
    f.program = gl.createProgram();
    gl.attachShader(f.program, f.vs);
    gl.attachShader(f.program, f.fs);
    gl.transformFeedbackVaryings(f.program, ['v'], gl.INTERLEAVED_ATTRIBS);
    gl.linkProgram(f.program);
    if (!gl.getProgramParameter(f.program, gl.LINK_STATUS)) this.fail(`${where}: runner error: the application's feedback program did not link: ${gl.getProgramInfoLog(f.program)}`);
    f.buffer = gl.createBuffer();
    const saved = gl.getParameter(gl.COPY_WRITE_BUFFER_BINDING);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, f.buffer);
    gl.bufferData(gl.COPY_WRITE_BUFFER, new Uint32Array(8).fill(table.SENTINEL), gl.DYNAMIC_COPY);
    gl.bindBuffer(gl.COPY_WRITE_BUFFER, saved);
    f.vao = gl.createVertexArray();
    gl.bindVertexArray(f.vao);
    f.object = gl.createTransformFeedback();
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, f.object);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, holds ?? f.buffer);
    if (state === 'bound') return f;
    gl.useProgram(f.program);
    gl.enable(gl.RASTERIZER_DISCARD);
    gl.beginTransformFeedback(gl.POINTS);
    gl.drawArrays(gl.POINTS, 0, 1);
    if (state === 'paused') gl.pauseTransformFeedback();
    return f;
  }

  /** Runs the case's buffers and ops; throws a CaseFailure at the first failing op. */
  async run() {
    const cannot = this.cannot();
    if (cannot.length) this.fail(cannot.some((r) => r.includes('unknown op')) ? cannot.join('; ') : `no reason given for ${this.runtime}: ${cannot.join('; ')}`);
    if (this.gl) {
      this.drainErrors();
      this.pendingErrors = []; // left by an earlier case (reported there)
      try { this.xfb.takeForeignGlErrors(); } catch { /* lost: nothing kept */ }
    }
    if (this.runtime === 'webgpu') { this.xfb.device.pushErrorScope('validation'); this.scoped = true; }
    this.createBuffers();
    this.started = true;
    for (let i = 0; i < this.m.run.length; i++) {
      const op = this.m.run[i];
      const where = `op ${i} (${op.op}${op.op === 'app' ? ` ${JSON.stringify(op).replace(/^\{"op":"app",?/, '').replace(/\}$/, '')}` : ''})`;
      this.where = where;
      if (op.op === 'app') { this.appOp(op, where); continue; }
      const before = op.error !== undefined && !this.lost ? await this.snapshot() : null;
      let threw = null, returned;
      this.since.push(where);
      try {
        returned = await this.perform(op, i, where);
      } catch (e) {
        if (e instanceof CaseFailure) throw e;
        threw = e;
      }
      // The stack only where it shows where in xfb the exception came from (not for a DOMException rethrown here).
      const stack = threw?.stack?.includes('/npm/') ? `\n${threw.stack}` : '';
      if (threw && !(threw instanceof XfbError)) this.fail(`${where} threw a non-XfbError ${errorText(threw)}${op.error ? `, expected ${op.error}` : ''}${stack}`);
      if (op.error === undefined) {
        this.check(!threw, `${where} threw ${threw ? errorText(threw) : 'nothing'}`);
        continue;
      }
      this.check(threw, `${where} returned normally${returned !== undefined ? ` (${JSON.stringify(returned)})` : ''}, expected ${op.error}`);
      this.check(threw.code === op.error, `${where} threw ${errorText(threw)}, expected ${op.error}`);
      if (before && !this.lost) {
        for (const [name, words] of Object.entries(before)) {
          if (op.writes?.includes(name)) continue; // a pass that ran before the refusal wrote it
          const diff = wordsDiffer(await this.readWords(name), words, this.buffers[name].spec.format);
          this.check(diff === null, `${where} was refused (${op.error}) but buffer ${name} changed: ${diff ?? 'unchanged'}`);
        }
      }
    }
  }

  /** The checks after the last op: every failure, not only the first (one assert each). */
  async finalChecks(failures) {
    const soft = (cond, message) => { if (cond) assert(true, this.say(message)); else failures.push(message); };
    if (!this.started) return; // refused before its buffers existed: nothing to check
    const guard = async (what, f) => {
      try { await f(); } catch (e) { failures.push(e instanceof CaseFailure ? e.message.replace(/^assertion failed: [^:]*: /, '') : `${what}: runner error: ${e && e.stack ? e.stack : e}`); }
    };
    this.where = 'the final checks';
    for (const [name, want] of Object.entries(this.m.expect)) {
      await guard(`expect ${name}`, async () => {
        if (this.lost) { failures.push(`expect: buffer ${name} cannot be read: the context is lost at the end of the case`); return; }
        const diff = wordsDiffer(await this.readWords(name), want, this.slot(name).spec.format);
        soft(diff === null, `expect: buffer ${name}: ${diff ?? 'as expected'}`);
      });
    }
    if (!this.gl) return;
    if (this.wasLost) {
      if (this.app.bindings.length || this.app.vao || this.app.feedback) this.note(`the context was lost: the application's state is not checked`);
      return;
    }
    const gl = this.gl;
    await guard('application state', async () => {
      for (const b of this.app.bindings) {
        const now = gl.getParameter(bindingQuery(gl, b.target));
        soft(now === b.buffer, `the application's ${b.name} binding no longer holds ${b.buffer ? `buffer ${b.of}'s WebGLBuffer` : 'null'} (${now === null ? 'null' : 'a buffer'})`);
      }
      for (const b of this.app.indexed) {
        const now = gl.getIndexedParameter(b.target === gl.UNIFORM_BUFFER ? gl.UNIFORM_BUFFER_BINDING : gl.TRANSFORM_FEEDBACK_BUFFER_BINDING, b.index);
        soft(now === b.buffer, `the application's indexed ${b.name} binding ${b.index} no longer holds buffer ${b.of}'s WebGLBuffer (${now === null ? 'null' : 'another buffer'})`);
        const uniform = b.target === gl.UNIFORM_BUFFER;
        const start = gl.getIndexedParameter(uniform ? gl.UNIFORM_BUFFER_START : gl.TRANSFORM_FEEDBACK_BUFFER_START, b.index);
        const size = gl.getIndexedParameter(uniform ? gl.UNIFORM_BUFFER_SIZE : gl.TRANSFORM_FEEDBACK_BUFFER_SIZE, b.index);
        soft(start === b.offset && size === b.size, `the application's indexed ${b.name} binding ${b.index} has range ${start}+${size}, it bound ${b.offset}+${b.size}`);
      }
      if (this.app.vao) {
        const now = gl.getParameter(gl.VERTEX_ARRAY_BINDING);
        soft(now === this.app.vao, `the application's vertex array is no longer bound (${now === null ? 'null' : 'another'} is)`);
        if (now === this.app.vao) {
          const reads = gl.getVertexAttrib(this.app.vaoLocation, gl.VERTEX_ATTRIB_ARRAY_BUFFER_BINDING);
          soft(reads === this.app.vaoBuffer, `the application's vertex array no longer reads buffer ${this.app.vaoOf} at location ${this.app.vaoLocation}`);
        }
      }
      if (this.app.feedback) this.verifyFeedback(this.app.feedback, soft);
    });
  }

  verifyFeedback(f, soft) {
    const gl = this.gl;
    const tf = gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING);
    soft(tf === f.object, `app feedback: its transform feedback object is no longer bound (${tf === null ? 'the default one' : 'another one'} is)`);
    const vao = gl.getParameter(gl.VERTEX_ARRAY_BINDING);
    soft(vao === f.vao, `app feedback: its vertex array is no longer bound`);
    if (f.state === 'bound') return;
    const active = gl.getParameter(gl.TRANSFORM_FEEDBACK_ACTIVE), paused = gl.getParameter(gl.TRANSFORM_FEEDBACK_PAUSED);
    soft(active, `app feedback: its transform feedback is no longer active (TRANSFORM_FEEDBACK_ACTIVE ${active})`);
    soft(paused === (f.state === 'paused'), `app feedback: its paused state changed (TRANSFORM_FEEDBACK_PAUSED ${paused}, it left it ${f.state})`);
    const program = gl.getParameter(gl.CURRENT_PROGRAM);
    soft(program === f.program, `app feedback: its program is no longer current`);
    if (tf !== f.object || !active || program !== f.program) return; // its draw would only report the same
    this.drainErrors();
    if (paused) gl.resumeTransformFeedback();
    if (vao !== f.vao) gl.bindVertexArray(f.vao);
    gl.drawArrays(gl.POINTS, 1, 1);
    gl.endTransformFeedback();
    gl.disable(gl.RASTERIZER_DISCARD);
    const error = gl.getError();
    soft(error === gl.NO_ERROR, `app feedback: its own resume/draw/end after the xfb calls raised ${error === gl.NO_ERROR ? 'no error' : glErrorName(error)}`);
    const want = wordsOf(new Float32Array([0, 1, 2, 3, 1, 1, 2, 3]));
    // WebGL2 refuses to bind a buffer to COPY_READ_BUFFER while it is a TRANSFORM_FEEDBACK_BUFFER
    // binding of the bound TF object (INVALID_OPERATION): the default object is bound for the read.
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    let words;
    try {
      words = this.rawRead(f.buffer, 8, "the application's feedback buffer");
    } finally {
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, f.object);
    }
    const diff = wordsDiffer(words, want, [{ semantic: 'ATTR0', type: 'float32', components: 4 }]);
    soft(diff === null, `app feedback: its own captured buffer: ${diff ?? 'as expected'}`);
  }

  /** Unbinds and deletes what the application made, disposes every xfb object, restores a lost
   *  context; returns failures (a case that failed earlier still cleans up). */
  async cleanup(failures) {
    const gl = this.gl;
    const attempt = (what, f) => { try { f(); } catch (e) { failures.push(`cleanup: ${what} threw ${errorText(e)}`); } };
    this.drainErrors();
    if (gl && !this.wasLost && !gl.isContextLost()) {
      this.since.push("the runner's release of the application's objects");
      attempt("releasing the application's objects", () => {
        const f = this.app.feedback;
        if (f) {
          if (gl.getParameter(gl.TRANSFORM_FEEDBACK_BINDING) === f.object && gl.getParameter(gl.TRANSFORM_FEEDBACK_ACTIVE)) gl.endTransformFeedback();
          gl.disable(gl.RASTERIZER_DISCARD);
          gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
          gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
          gl.useProgram(null);
          gl.bindVertexArray(null);
          gl.deleteTransformFeedback(f.object);
          gl.deleteVertexArray(f.vao);
          gl.deleteBuffer(f.buffer);
          gl.deleteProgram(f.program);
          gl.deleteShader(f.vs);
          gl.deleteShader(f.fs);
        }
        for (const b of this.app.bindings) gl.bindBuffer(b.target, null);
        for (const b of this.app.indexed) gl.bindBufferBase(b.target, b.index, null);
        if (this.app.vao) { gl.bindVertexArray(null); gl.deleteVertexArray(this.app.vao); }
      });
    }
    this.drainErrors();
    this.since.push('dispose() of every xfb object');
    for (const o of this.created.reverse()) attempt(`dispose() of an xfb object`, () => o.dispose());
    this.drainErrors();
    if (gl && !this.wasLost && this.ownBuffers.length) {
      this.since.push("the runner's deleteBuffer() of the adopted buffers");
      for (const own of this.ownBuffers) gl.deleteBuffer(own);
    }
    if (this.runtime === 'webgpu') for (const own of this.ownBuffers) own.destroy(); // after xfb's dispose(), which keeps them
    if (this.runtime === 'webgl2' && (this.lost || gl.isContextLost())) {
      // A case that lost the context restores it: the next case needs it.
      try {
        const restored = waitEvent(this.xfb, 'contextrestored');
        this.env.loseExt.restoreContext();
        await restored;
        this.lost = false;
      } catch (e) {
        failures.push(`cleanup: the context could not be restored (${errorText(e)}): the next case gets a new engine`);
        try { this.xfb.dispose(); } catch { /* already broken */ }
        engines.webgl2 = null;
      }
    }
    if (this.runtime === 'webgpu') {
      let error = null;
      if (this.scoped) try { error = await this.xfb.device.popErrorScope(); } catch { /* lost */ }
      if (error && !this.wasLost) failures.push(`WebGPU validation error during the case: ${error.message}`);
      if (this.wasLost || this.xfb.isContextLost) {
        // A case that lost the device: the next case gets a new engine (restore() is the case's to test).
        try { this.xfb.dispose(); } catch { /* already lost */ }
        engines.webgpu = null;
      }
    }
    if (gl && engines.webgl2 === this.env) {
      const foreign = (() => { try { return this.xfb.takeForeignGlErrors(); } catch { return []; } })();
      if (foreign.length) failures.push(`xfb saw ${foreign.length} GL error(s) pending at its calls (raised by other code), first ${foreign[0].name}`);
      this.drainErrors();
      const real = this.pendingErrors.filter(([, e]) => !(this.wasLost && e === gl.CONTEXT_LOST_WEBGL));
      if (real.length) failures.push(`GL errors were raised: ${real.map(([since, e]) => `${glErrorName(e)}, pending after ${since}`).join('; ')}`);
      else assert(true, this.say('no GL error pending'));
    }
  }
}

// --- Registration ------------------------------------------------------------------------------------
const counts = Object.fromEntries(RUNTIME_NAMES.map((r) => [r, { cases: 0, pass: 0, fail: 0, na: 0 }]));

if (tableError) {
  test('conformance table', () => assert(false, `/conformance/table.mjs could not be imported: ${tableError && tableError.stack ? tableError.stack : tableError}`));
} else {
  for (const runtime of RUNTIME_NAMES) {
    for (const c of table.cases) {
      test(`${runtime} ${c.id}`, async ({ note }) => {
        const total = counts[runtime];
        total.cases++;
        try {
          await runOne(runtime, c, note);
        } catch (e) {
          total.fail++;
          throw e;
        }
      });
    }
  }
}

async function runOne(runtime, c, note) {
  const total = counts[runtime];
  let m;
  try {
    m = table.materialize(c);
  } catch (e) {
    fail(`${runtime} ${c.id}: materialize() failed (a table error): ${e && e.message}`);
  }
  const env = await engineFor(runtime);
  if (env.error) fail(`${runtime} ${m.id}: ${env.error}`);
  const reason = table.notApplicable(m, runtime, env.limits);
  if (reason !== null && reason !== undefined) {
    note(`N/A: ${reason}`);
    total.na++;
    assert(typeof reason === 'string' && reason.trim().length > 0, `${runtime} ${m.id}: not applicable without a reason (na ${JSON.stringify(m.na)}, limits ${JSON.stringify(m.limits)})`);
    return;
  }
  const run = new CaseRun(env, c, m, note);
  const failures = [];
  let first = null;
  try {
    await run.run();
  } catch (e) {
    first = e instanceof CaseFailure ? e : new Error(`${run.prefix}: runner error at ${run.where}: ${e && e.stack ? e.stack : e}`);
  }
  // The final checks also after a failed op (as notes then): what the failure left behind.
  const counted = globalThis.__xfbAsserts;
  try {
    await run.finalChecks(failures);
  } catch (e) {
    failures.push(`the final checks: runner error: ${e && e.stack ? e.stack : e}`);
  }
  if (first) globalThis.__xfbAsserts = counted; // checks after the failure are information, not passes
  const after = [];
  try {
    await run.cleanup(after);
  } catch (e) {
    after.push(`cleanup: runner error: ${e && e.stack ? e.stack : e}`);
  }
  if (first) {
    if (failures.length || after.length) note(`also: ${[...failures, ...after].join('; ')}`);
    throw first;
  }
  failures.push(...after);
  if (failures.length) fail(`${run.prefix}: ${failures.join('; ')}`);
  total.pass++;
}

test('conformance totals', ({ note }) => {
  assert(!tableError, 'the table was imported');
  const ids = new Set();
  for (const c of table.cases) {
    assert(!ids.has(c.id), `case id ${c.id} appears twice`);
    ids.add(c.id);
  }
  for (const runtime of RUNTIME_NAMES) {
    const t = counts[runtime], env = engines[runtime];
    if (env && !env.error) note(`${runtime}: ${env.version}; limits ${JSON.stringify(env.limits)} from ${env.limitSource}`);
    note(`${runtime}: ${t.cases} cases, ${t.pass} pass, ${t.fail} fail, ${t.na} not applicable`);
    assert(t.cases === table.cases.length, `${runtime}: ${t.cases} cases ran of ${table.cases.length}`);
  }
});
