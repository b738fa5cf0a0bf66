// xfb — transform feedback for WebGL2, as an ES module. The engine is C++ compiled to
// WebAssembly (dist/xfb.mjs + dist/xfb.wasm); this file is the JavaScript API: it validates
// every argument, turns failures into XfbError, polls queries and fences across frames, and
// handles context loss. Types: index.d.ts.
import createXfbModule from './dist/xfb.mjs';

const wasmUrl = new URL('./dist/xfb.wasm', import.meta.url); // a static URL, so bundlers copy the file
const isNode = typeof process === 'object' && !!process.versions?.node;

/** Every failure: a stable `code` (e.g. 'XFB_SEPARATE_COMPONENTS') and the engine's message. */
export class XfbError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = 'XfbError';
    this.code = code;
    this.detail = message;
  }
}

const fail = (code, message) => { throw new XfbError(code, message); };
const invalid = (message) => fail('XFB_INVALID_ARGUMENT', message);
// Lookup tables without a prototype: a name such as 'toString' or '__proto__' is never found in them.
const table = (entries) => Object.freeze(Object.assign(Object.create(null), entries));
const COMPONENT_TYPES = table({ float32: Float32Array, int32: Int32Array, uint32: Uint32Array });
/** WebGL2 cannot allocate a buffer of 2^31 bytes or more (GLsizeiptr is 32-bit in the browser). */
const MAX_BUFFER_BYTES = 2 ** 31 - 1;
const EVENTS = ['contextlost', 'contextrestored'];
// The Engine methods' traits as the bindings declare them (Module.engineMethods(), web/src/bindings.cpp),
// as Sets: keepsRecipes (leaves replayed steps' recipes valid, Xfb#recipe; any other makes the next
// step(1) go through wasm), feedbackSafe (allowed while the application's transform feedback is
// active; others: XFB_FEEDBACK_ACTIVE), renewsRefusals (a refused recipe is asked again after it).
let METHODS;
const GL_ERROR_NAMES = table({ 0x500: 'INVALID_ENUM', 0x501: 'INVALID_VALUE', 0x502: 'INVALID_OPERATION', 0x505: 'OUT_OF_MEMORY', 0x506: 'INVALID_FRAMEBUFFER_OPERATION', 0x9242: 'CONTEXT_LOST_WEBGL' });

/** The public enums' names (and ScalarKind's values) as the module gives them (Module.enums(), from
 *  the C++ tables in xfb/enum_tables.hpp): nothing here copies a list of names or numbers. */
let ENUMS;
/** 'a', 'b' or 'c' */
const oneOf = (names) => names.map((n) => `'${n}'`).join(', ').replace(/, ([^,]*)$/, ' or $1');

/** Instantiates a module (its factory and the static URL of its .wasm). */
async function instantiate(factory, url) {
  const locateFile = (file) => {
    if (!file.endsWith('.wasm')) return file;
    return isNode ? decodeURIComponent(url.pathname) : url.href;
  };
  const module = await factory({ locateFile, XfbError }); // the bindings answer a failure with an XfbError
  ENUMS ??= module.enums();
  module.ScalarKind = ENUMS.scalarKinds; // uniform kinds as numbers: { float: 0, int: 1, ... }
  return module;
}
async function loadModule() {
  const module = await instantiate(createXfbModule, wasmUrl);
  METHODS ??= Object.fromEntries(Object.entries(module.engineMethods()).map(([trait, names]) => [trait, new Set(names)]));
  return module;
}
/** The WebGPU module: the planner and the WGSL translator, no WebGL engine; fetched only by
 *  createXfb({ device }) (a separate file, so WebGL2 users never download the translator). */
async function loadWebGpuModule() {
  const { default: factory } = await import('./dist/xfb-webgpu.mjs');
  return instantiate(factory, new URL('./dist/xfb-webgpu.wasm', import.meta.url));
}

function nextFrame() {
  return new Promise((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 0)));
}

/** Checks an options object's keys and returns a copy of its own properties without a prototype:
 *  validation never reads an inherited property (Object.prototype.count, a class getter). */
function checkKeys(object, allowed, what) {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) invalid(`${what} must be an object`);
  const own = Object.create(null);
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) invalid(`${what}: unknown key '${key}' (allowed: ${allowed.join(', ')})`);
    own[key] = object[key];
  }
  return own;
}

/** count x stride within WebGL2's per-buffer limit, checked before anything is allocated. */
function checkByteLength(count, stride, what) {
  const bytes = count * stride;
  if (bytes > MAX_BUFFER_BYTES)
    fail('XFB_BUFFER_TOO_LARGE', `${what}: ${count} elements x ${stride} bytes = ${bytes} bytes, over WebGL2's limit of 2^31-1 bytes per buffer; use fewer elements or split them over several buffers`);
}

/** Program and inspect() options: mode, varyings, defines ({ NAME: string | number | boolean }), portable. */
function checkProgramOptions(o, what) {
  const mode = o.mode ?? 'interleaved';
  if (!ENUMS.captureModes.includes(mode)) invalid(`${what}: mode must be ${oneOf(ENUMS.captureModes)}, got '${String(mode)}'`);
  if (o.varyings !== undefined && (!Array.isArray(o.varyings) || o.varyings.some((v) => typeof v !== 'string')))
    invalid(`${what}: varyings must be an array of output names`);
  if (o.portable !== undefined && typeof o.portable !== 'boolean') invalid(`${what}: portable must be a boolean`);
  const defines = o.defines ?? {};
  if (defines === null || typeof defines !== 'object' || Array.isArray(defines)) invalid(`${what}: defines must be an object { NAME: value }`);
  for (const [name, value] of Object.entries(defines)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) invalid(`${what}: defines: '${name}' is not a macro name`);
    if (!(typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))))
      invalid(`${what}: defines.${name} must be a string, a finite number or a boolean, got ${value === null ? 'null' : typeof value}`);
  }
  return { mode, varyings: o.varyings ?? [], defines: { ...defines }, portable: o.portable ?? true };
}

function checkCount(value, what) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) invalid(`${what} must be a positive integer, got ${String(value)}`);
}

/** A format description as { attributes, stride }, offsets packed. JavaScript checks only that it
 *  is an array of plain objects with known keys; the values are checked by the engine's one
 *  validator (the module's normaliseFormat, shared with the C++ API and xfb-run). */
function normaliseFormat(module, format) {
  if (!Array.isArray(format) || format.length === 0) invalid('format must be a non-empty array of { semantic, type?, components?, offset? }');
  const result = module.normaliseFormat(format.map((entry, i) => checkKeys(entry, ['semantic', 'type', 'components', 'offset'], `format[${i}]`)));
  check(result);
  return result;
}

/** The typed array a format reads and writes: one type for homogeneous formats, bytes otherwise. */
function arrayTypeOf(format) {
  const types = new Set(format.attributes.map((a) => a.type));
  return types.size === 1 ? COMPONENT_TYPES[[...types][0]] : Uint8Array;
}

function asBytes(data, format, count, what) {
  const Expected = arrayTypeOf(format);
  const bytes = count * format.stride;
  let view;
  if (data instanceof ArrayBuffer) view = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) {
    if (Expected !== Uint8Array && !(data instanceof Expected))
      invalid(`${what} must be a ${Expected.name} for this format (or an ArrayBuffer), got ${data.constructor.name}`);
    view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else invalid(`${what} must be a typed array or an ArrayBuffer, got ${data === null ? 'null' : typeof data}`);
  if (view.byteLength !== bytes)
    invalid(`${what} holds ${view.byteLength} bytes but ${count} elements of ${format.stride} bytes need ${bytes}` +
      (Expected !== Uint8Array ? ` (${bytes / Expected.BYTES_PER_ELEMENT} ${Expected.name} values)` : ''));
  return view;
}

class Xfb {
  #module; #engine; #gl; #handle; #scratch = 0; #scratchBytes = 0; #lost = false; #listeners = new Map(); #objects = new Set(); #disposed = false; #onLost; #onRestored;

  // A recipe is valid while #epoch is unchanged; a refusal holds until #generation moves (a
  // pipeline created or freed, a restore). #pending: what wasm must learn before its next call.
  #own; #epoch = 0; #generation = 0; #pending = new Set(); #stepBits = 0;
  // Names adoptBuffer() put in Emscripten's table: how many live adoptions hold each.
  #adoptions = new Map();

  constructor(module, gl, ownsContext) {
    this.#module = module;
    this.#gl = gl;
    this.#own = ownsContext;
    if (gl) {
      if (gl.isContextLost()) fail('XFB_CONTEXT_LOST', "createXfb(): the WebGL context is lost; create the engine after its 'webglcontextrestored' event");
      this.#handle = module.GL.registerContext(gl, { majorVersion: 2, minorVersion: 0, enableExtensionsByDefault: true });
      module.GL.makeContextCurrent(this.#handle);
      const bits = module.GL.xfbStateGuard.bits; // the engine's StateBit values
      this.#stepBits = bits.program | bits.vertexArray | bits.writtenBindings;
      this.#engine = new module.Engine(ownsContext);
      const error = this.#engine.creationError();
      if (error) { this.#engine.delete(); throw error; }
      const canvas = gl.canvas;
      if (canvas && canvas.addEventListener) {
        this.#onLost = (event) => { event.preventDefault(); this.#contextLost(); };
        this.#onRestored = () => this.#contextRestored();
        canvas.addEventListener('webglcontextlost', this.#onLost);
        canvas.addEventListener('webglcontextrestored', this.#onRestored);
      }
    }
  }

  get backend() { return 'webgl2'; }
  /** The WebGL2 context the engine draws with. */
  get gl() { return this.#gl; }
  get isContextLost() { return this.#lost; }
  get capabilities() { return this.#call('capabilities'); }

  /** What the engine would do with a shader: attributes (ATTRn), captured varyings, buffer layout. */
  inspect(source, options = {}) { return inspectWith(this.#module, source, options); }

  createBuffer(options) {
    const description = checkKeys(options, ['format', 'count', 'data', 'restore', 'label'], 'createBuffer()');
    const format = normaliseFormat(this.#module, description.format);
    checkCount(description.count, 'createBuffer(): count');
    checkByteLength(description.count, format.stride, 'createBuffer()');
    const restore = description.restore ?? 'last-readback';
    if (!['last-readback', 'initial', 'none'].includes(restore)) invalid(`createBuffer(): restore must be 'last-readback', 'initial' or 'none', got '${restore}'`);
    const bytes = description.data === undefined ? null : asBytes(description.data, format, description.count, 'createBuffer(): data');
    const id = this.#withHeap(bytes, (ptr, n) => this.#call('createBuffer', format.attributes, description.count, ptr, n));
    const buffer = new XfbBuffer(this, id, format, description.count, restore, bytes ? bytes.slice() : null, description.label ?? `buffer${id}`);
    this.#objects.add(buffer);
    return buffer;
  }

  /** Adopts a WebGLBuffer another library owns (an engine's vertex buffer) as an xfb buffer of
   *  { format, count }, typically a write-only { output } the simulation writes straight into.
   *  xfb never deletes it; after a context loss its owner recreates it: adopt the new one. */
  adoptBuffer(options) {
    const description = checkKeys(options, ['glBuffer', 'format', 'count', 'label'], 'adoptBuffer()');
    if (typeof WebGLBuffer === 'undefined' || !(description.glBuffer instanceof WebGLBuffer)) invalid('adoptBuffer(): glBuffer must be a WebGLBuffer');
    const format = normaliseFormat(this.#module, description.format);
    checkCount(description.count, 'adoptBuffer(): count');
    checkByteLength(description.count, format.stride, 'adoptBuffer()');
    // Emscripten's name for the WebGLBuffer: the one it has already (adopted before, or one of
    // xfb's own), so that two adoptions name one GL buffer and the engine refuses it twice in a
    // role list as natively; else a new one, forgotten when the last adoption holding it goes.
    const GL = this.#module.GL, glBuffer = description.glBuffer, known = GL.buffers[glBuffer.name] === glBuffer;
    const name = known ? glBuffer.name : GL.getNewId(GL.buffers);
    if (!known) GL.buffers[name] = glBuffer, glBuffer.name = name;
    const adoptions = this.#adoptions.get(name); // undefined: xfb's own buffer, never forgotten
    let id;
    try {
      id = this.#call('adoptBuffer', format.attributes, description.count, name);
    } catch (e) {
      if (!known) GL.buffers[name] = null;
      throw e;
    }
    if (!known) this.#adoptions.set(name, 1);
    else if (adoptions) this.#adoptions.set(name, adoptions + 1);
    const buffer = new XfbBuffer(this, id, format, description.count, 'none', null, description.label ?? `adopted${id}`, name);
    this.#objects.add(buffer);
    return buffer;
  }

  createProgram(given) {
    const description = checkKeys(given, ['source', 'mode', 'varyings', 'defines', 'portable', 'label'], 'createProgram()');
    if (typeof description.source !== 'string') invalid('createProgram(): source must be a string of GLSL');
    if (description.label !== undefined && typeof description.label !== 'string') invalid('createProgram(): label must be a string');
    const options = { ...checkProgramOptions(description, 'createProgram()'), label: description.label ?? 'program' };
    const id = this.#call('createProgram', description.source, options);
    const program = new XfbProgram(this, id, this.#call('uniforms', id));
    this.#objects.add(program);
    return program;
  }

  createPipeline(program, entries, pipelineOptions = {}) {
    this.#checkProgram(program, 'createPipeline()');
    if (pipelineOptions?.emits?.length) fail('XFB_UNSUPPORTED', 'createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine');
    const options = checkKeys(pipelineOptions, ['count', 'queries', 'fuseSubsteps'], 'createPipeline() options');
    if (options.count !== undefined) checkCount(options.count, 'createPipeline(): count');
    if (options.queries !== undefined && typeof options.queries !== 'boolean') invalid('createPipeline(): queries must be a boolean');
    if (options.fuseSubsteps !== undefined && typeof options.fuseSubsteps !== 'boolean') invalid('createPipeline(): fuseSubsteps must be a boolean');
    const written = [];
    const id = this.#call('createPipeline', program.id, this.#entries(entries, 'createPipeline()', written), options);
    const pipeline = new XfbPipeline(this, id, program, written);
    this.#objects.add(pipeline);
    return pipeline;
  }

  /** Runs a program over draws of points, lines or triangles and captures whole primitives:
   *  entries are { input } vertex buffers and { output } buffers (one per captured buffer). */
  createCapture(program, entries, captureOptions = {}) {
    this.#checkProgram(program, 'createCapture()');
    const options = checkKeys(captureOptions, ['vertexCount', 'expansion'], 'createCapture() options');
    if (options.vertexCount !== undefined) checkCount(options.vertexCount, 'createCapture(): vertexCount');
    if (options.expansion !== undefined && !ENUMS.expansions.includes(options.expansion))
      invalid(`createCapture(): expansion must be ${oneOf(ENUMS.expansions)}, got '${options.expansion}'`);
    const id = this.#call('createCapture', program.id, this.#entries(entries, 'createCapture()'), options);
    const capture = new XfbCapture(this, id);
    this.#objects.add(capture);
    return capture;
  }

  #checkProgram(program, what) {
    if (!(program instanceof XfbProgram) || program.owner !== this) invalid(`${what}: the first argument must be a program of this engine`);
  }

  // `written`, if given, receives the buffers a pass may write: outputs, and the inputs of state pairs.
  #entries(entries, what, written) {
    if (!Array.isArray(entries)) invalid(`${what}: entries must be an array of { input?, output? }`);
    return entries.map((given, i) => {
      const entry = checkKeys(given, ['input', 'output'], `entries[${i}]`);
      const out = {};
      for (const role of ['input', 'output']) {
        if (entry[role] === undefined) continue;
        if (!(entry[role] instanceof XfbBuffer) || entry[role].owner !== this) invalid(`entries[${i}].${role} must be a buffer of this engine`);
        out[role] = entry[role].id;
      }
      if (written && entry.output !== undefined) written.push(...(entry.input !== undefined ? [entry.input, entry.output] : [entry.output]));
      return out;
    });
  }

  /** GL errors that were already pending when an error-checking call (creation, upload, read,
   *  capture) began: raised by other code on the shared context, so never reported as xfb's own
   *  and never dropped. Returns [{ code, name }] (oldest first, at most 16) and clears the list. */
  takeForeignGlErrors() {
    return this.#call('takeForeignErrors').map((code) => ({ code, name: GL_ERROR_NAMES[code] ?? `0x${code.toString(16)}` }));
  }

  /** Counts of live engine objects (buffers, programs, pipelines, captures, readbacks), for leak checks. */
  liveObjects() {
    if (this.#disposed) fail('XFB_DISPOSED', 'liveObjects(): this engine was disposed; it holds no objects');
    if (!this.#engine) fail('XFB_UNSUPPORTED', 'this engine has no WebGL2 context: pass { canvas } or { gl } to createXfb()');
    return this.#engine.liveObjects();
  }

  on(type, listener) {
    checkListener(type, listener, 'on()');
    (this.#listeners.get(type) ?? this.#listeners.set(type, new Set()).get(type)).add(listener);
    return this;
  }
  off(type, listener) { checkListener(type, listener, 'off()'); this.#listeners.get(type)?.delete(listener); return this; }

  /** Frees every GPU object of this engine. */
  dispose() {
    if (this.#disposed) return;
    for (const o of [...this.#objects]) o.dispose();
    const canvas = this.#gl?.canvas;
    canvas?.removeEventListener?.('webglcontextlost', this.#onLost);
    canvas?.removeEventListener?.('webglcontextrestored', this.#onRestored);
    this.#engine?.delete();
    if (this.#probe) this.#gl.deleteBuffer(this.#probe);
    if (this.#scratch) this.#module._free(this.#scratch);
    this.#scratch = 0; this.#scratchBytes = 0;
    this.#disposed = true;
  }

  // Internal ---------------------------------------------------------------------------------
  get module() { return this.#module; }
  forget(object) { this.#objects.delete(object); }
  /** An adoption of `name` disposed: the name is forgotten with the last one (the object is kept). */
  unadopt(name) {
    const n = this.#adoptions.get(name);
    if (n > 1) this.#adoptions.set(name, n - 1);
    else if (n === 1) { this.#adoptions.delete(name); this.#module.GL.buffers[name] = null; }
  }
  emit(type, detail) { for (const l of this.#listeners.get(type) ?? []) l(detail); }

  #call(method, ...args) {
    this.#enter(method);
    return this.#result(method, this.#engine[method](...args));
  }
  // The checks before any engine call, and the context made current.
  #enter(method) {
    if (this.#disposed) fail('XFB_DISPOSED', 'this engine was disposed');
    if (!this.#engine) fail('XFB_UNSUPPORTED', 'this engine has no WebGL2 context: pass { canvas } or { gl } to createXfb()');
    if (this.#lost) fail('XFB_CONTEXT_LOST', `${method}: the WebGL context is lost; wait for the 'contextrestored' event`);
    if (!METHODS.feedbackSafe.has(method) && !(this.#own && method === 'step')) this.#requireFeedbackIdle(method);
    const GL = this.#module.GL;
    if (GL.currentContext?.handle !== this.#handle) GL.makeContextCurrent(this.#handle);
    this.#sync();
    if (!METHODS.keepsRecipes.has(method)) this.#epoch++;
    if (METHODS.renewsRefusals.has(method)) this.#generation++;
  }
  /** The bindings answer every call with its result or an XfbError (web/src/js_values.hpp). */
  #result(method, result) {
    if (result instanceof XfbError) {
      // Lost before the event arrived (the browser can lose a context at any call, e.g. out of GPU
      // memory): that is the cause, not whatever the failed call saw.
      if (this.#gl?.isContextLost()) fail('XFB_CONTEXT_LOST', `${method}: the WebGL context was lost; wait for the 'contextrestored' event`);
      throw result;
    }
    return result;
  }
  /** pipeline.step(): the per-frame call, without the rest-argument dispatch of call(). */
  stepPipeline(id) {
    this.#enter('step');
    return this.#result('step', this.#engine.step(id));
  }
  call(method, ...args) { return this.#call(method, ...args); }
  /** Frees an engine object now, also while the context is lost (deleting names on a lost context
   *  is a no-op, and the object is then not re-created on restore). kind: as XfbObject. */
  release(kind, id) {
    if (this.#disposed || !this.#engine) return;
    const GL = this.#module.GL;
    if (GL.currentContext?.handle !== this.#handle) GL.makeContextCurrent(this.#handle);
    this.#sync();
    this.#epoch++; this.#generation++;
    this.#engine.dispose(kind, id);
  }

  // Replayed steps (README "Performance", CPU per step): after a step(1) in wasm, detail::stepRecipe()
  // names its WebGL objects; the next ones make the same calls here. Wasm learns the swaps and
  // values (detail::stepsReplayed, detail::uniformUploaded: xfb/detail/step_replay.hpp) before its next call.
  get epoch() { return this.#epoch; }
  get generation() { return this.#generation; }
  /** The recipe for the next step(1)s, or { refusal }. `cache`: the program's kept values;
   *  `written`: the XfbBuffers its passes may write (their WebGLBuffers are kept as r.written). */
  recipe(id, cache, written) {
    const d = this.#call('replayRecipe', id), GL = this.#module.GL, K = this.#module.ScalarKind;
    if (d.refusal) return { refusal: d.refusal, generation: this.#generation };
    const program = GL.programs[d.program], uniforms = [];
    for (const u of d.uniforms) {
      let e = cache.get(u.name);
      if (!e) {
        const max = u.components * u.arraySize, scalar = max === 1;
        cache.set(u.name, e = { name: u.name, kind: u.kind, components: u.components, max, scalar, fast: scalar && u.kind === K.float, value: null, gl: false, wasm: false });
      }
      const m = MATRICES[u.type], t = `uniform${u.components}${u.kind === K.float ? 'f' : u.kind === K.uint ? 'ui' : 'i'}`;
      uniforms.push({ e, set: uniformSetter(this.#gl, uniformLocation(this.#gl, program, u.location), m && `uniformMatrix${m}fv`, t, u.components, e.scalar) });
    }
    for (const e of cache.values()) e.gl = false; // the wasm step just now uploaded every value
    // null (clear ARRAY_BUFFER whatever it holds) if a buffer was disposed under the pipeline.
    const glWritten = written.every((b) => !b.disposed) ? written.map((b) => b.glBuffer) : null;
    const r = { program, vaos: d.vao.map((n) => GL.vaos[n]), tfs: d.tf.map((n) => GL.transformFeedbacks[n]), side: d.side, count: d.count, uniforms, written: glWritten, n: 0, calls: 0, epoch: this.#epoch };
    r.pass = passOf(this.#gl, r, this.#pending);
    r.sync = (engine) => { if (r.n) check(engine.replayed(id, r.n, r.calls)); r.n = 0; };
    return r;
  }
  replay(r) {
    if (this.#own) return r.pass(false, null);
    this.#requireFeedbackIdle('step()');
    const s = this.#s;
    this.#save(r, recipeWrites);
    r.pass(s.discard, s.tf);
    this.#restore();
  }

  /** One step() of each pipeline, in order; the replayed ones inside one save/restore of the
   *  application's WebGL state instead of one each (README "Sharing a context"). */
  steps(pipelines) {
    if (!Array.isArray(pipelines) || !pipelines.every((p) => p instanceof XfbPipeline && p.owner === this)) invalid("steps(): pipelines must be an array of this engine's pipelines");
    let saved = false;
    const own = this.#own, s = this.#s;
    if (!own) this.#requireFeedbackIdle('steps()');
    for (const p of pipelines) {
      const r = p.armed;
      if (r) {
        if (!saved) this.#save(pipelines, batchWrites), saved = true; // asked at each save: a wasm step may have armed more
        r.pass(!own && s.discard, own ? null : s.tf);
      } else {
        if (saved) this.#restore(), saved = false;
        p.step();
      }
    }
    if (saved) this.#restore();
  }
  // The application's state a replayed step changes, saved and restored by the engine's own
  // JavaScript guard (Module.GL.xfbStateGuard, engine/src/gl/state_guard_library.js) with the bits
  // of the replayed pass (#stepBits): its program and vertex array, and every binding of a buffer
  // `writes(subject, buffer)` says a pass of `subject` may write (a recipe: recipeWrites, a steps()
  // batch: batchWrites; a TF draw fails while a buffer it writes is bound elsewhere); another
  // buffer stays bound, untouched. Its transform feedback binding and discard are read for the pass.
  #s = { token: null, tf: null, discard: false };
  #save(subject, writes) {
    if (this.#own) return;
    const gl = this.#gl, s = this.#s;
    s.token = this.#module.GL.xfbStateGuard.save(gl, this.#stepBits, writes, subject);
    s.tf = gl.getParameter(0x8E25); // TRANSFORM_FEEDBACK_BINDING
    s.discard = gl.isEnabled(0x8C89); // RASTERIZER_DISCARD
  }
  #restore() {
    if (this.#own) return;
    this.#module.GL.xfbStateGuard.restore(this.#gl, this.#s.token);
  }

  // XFB_FEEDBACK_ACTIVE unless the application's transform feedback is neither active nor paused.
  // Every call that reaches WebGL asks, except step() and steps() with ownsContext, whose minimal
  // step makes no query (the application that owns the context ends its transform feedback
  // itself, as it leaves the bindings xfb relies on at zero). Asked without a GPU round trip (getParameter(TRANSFORM_FEEDBACK_ACTIVE) is a synchronous one in
  // Chromium, ~0.2 ms). Active means a buffer at index 0 of the bound object (beginTransformFeedback
  // needs one, and it cannot be unbound while active): none, the common case, is one query. Else
  // WebGL2 refuses bindBufferBase(TRANSFORM_FEEDBACK_BUFFER) while the object is active, paused or
  // not: a buffer of xfb's is bound at its last index, if that is empty, and unbound again (with the
  // generic binding bindBufferBase sets); the refusal's INVALID_OPERATION is taken back (getError()
  // answers a WebGL-side error without a round trip). A full last index: the query.
  #probe = null; #lastIndex = -1;
  #requireFeedbackIdle(what) {
    const gl = this.#gl;
    if (!gl || !gl.getIndexedParameter(0x8C8F, 0)) return; // TRANSFORM_FEEDBACK_BUFFER_BINDING
    if (this.#lastIndex < 0) this.#lastIndex = gl.getParameter(0x8C8B) - 1; // MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS
    const k = this.#lastIndex;
    let active;
    if (gl.getIndexedParameter(0x8C8F, k)) active = gl.getParameter(0x8E24); // TRANSFORM_FEEDBACK_ACTIVE
    else {
      const generic = gl.getParameter(0x8C8F), probe = (this.#probe ??= gl.createBuffer());
      gl.bindBufferBase(0x8C8E, k, probe);
      active = gl.getIndexedParameter(0x8C8F, k) !== probe;
      if (active) gl.getError();
      else gl.bindBufferBase(0x8C8E, k, null), gl.bindBuffer(0x8C8E, generic);
    }
    if (active) fail('XFB_FEEDBACK_ACTIVE', `${what}: the application's transform feedback is active or paused (beginTransformFeedback() without endTransformFeedback()); xfb changed nothing: call endTransformFeedback() before calling xfb`);
  }
  markPending(object) { this.#pending.add(object); }
  #sync() {
    if (!this.#pending.size) return;
    const list = [...this.#pending];
    this.#pending.clear();
    for (const o of list) o.sync(this.#engine);
  }

  /** Copies bytes into the wasm heap for the duration of `f(ptr, length)`. */
  #withHeap(bytes, f) {
    if (!bytes || bytes.byteLength === 0) return f(0, 0);
    const ptr = this.#module._malloc(bytes.byteLength);
    if (!ptr) fail('XFB_OUT_OF_MEMORY', `the WebAssembly heap has no room for ${bytes.byteLength} bytes; use smaller buffers`);
    try {
      this.#module.HEAPU8.set(bytes, ptr);
      return f(ptr, bytes.byteLength);
    } finally {
      this.#module._free(ptr);
    }
  }
  withHeap(bytes, f) { return this.#withHeap(bytes, f); }
  /** Writes 32-bit values (kind: Module.ScalarKind, the C++ enum's values from Module.enums()) into a heap block kept for the engine's life and
   *  calls f(ptr, bytes): a uniform set per step allocates no typed array and mallocs nothing. */
  withValues(values, kind, f) {
    this.#sync(); // first: values kept for wasm go through this block too
    const module = this.#module, bytes = values.length * 4, K = module.ScalarKind;
    if (bytes > this.#scratchBytes) {
      if (this.#scratch) module._free(this.#scratch);
      this.#scratch = module._malloc(bytes);
      this.#scratchBytes = this.#scratch ? bytes : 0;
      if (!this.#scratch) fail('XFB_OUT_OF_MEMORY', `the WebAssembly heap has no room for ${bytes} bytes`);
    }
    const heap = kind === K.float ? module.HEAPF32 : kind === K.uint ? module.HEAPU32 : module.HEAP32;
    for (let i = 0, at = this.#scratch >> 2; i < values.length; i++) heap[at + i] = values[i];
    return f(this.#scratch, bytes);
  }

  #contextLost() {
    this.#sync();
    this.#epoch++;
    this.#lost = true;
    this.#engine.contextLost();
    this.emit('contextlost', {});
  }

  #contextRestored() {
    this.#probe = null; // died with the context
    this.#module.GL.makeContextCurrent(this.#handle);
    this.#lost = false;
    this.#call('contextRestored');
    const buffers = [];
    for (const o of this.#objects) if (o instanceof XfbBuffer) buffers.push({ buffer: o, label: o.label, restoredFrom: o.restoreContents() });
    this.emit('contextrestored', { buffers });
  }
}

class XfbObject {
  #owner; #id; #kind; #disposed = false;
  constructor(owner, id, kind) { this.#owner = owner; this.#id = id; this.#kind = kind; }
  get owner() { return this.#owner; }
  get id() { this.check(); return this.#id; }
  get disposed() { return this.#disposed; }
  check() { if (this.#disposed) fail('XFB_DISPOSED', `this ${this.#kind} was disposed; create a new one`); }
  call(method, ...args) { this.check(); return this.#owner.call(method, this.#id, ...args); }
  /** One step of this pipeline (XfbPipeline.step), the per-frame path. */
  callStep() { this.check(); this.#owner.stepPipeline(this.#id); }
  dispose() {
    if (this.#disposed) return;
    this.#owner.release(this.#kind, this.#id);
    this.#disposed = true;
    this.#owner.forget(this);
  }
}

export class XfbBuffer extends XfbObject {
  #format; #count; #restore; #shadow; #shadowSource; #adoptedName;
  constructor(owner, id, format, count, restore, initial, label, adoptedName = 0) {
    super(owner, id, 'buffer');
    this.#adoptedName = adoptedName;
    this.#format = format; this.#count = count; this.#restore = restore; this.label = label;
    this.#shadow = restore === 'none' ? null : initial;
    this.#shadowSource = initial ? 'initial' : 'none';
  }
  /** The WebGLBuffer holding the latest data (it changes after every step of a state pair). */
  get glBuffer() { return this.owner.module.GL.buffers[this.call('glName')]; }
  /** How to bind it as vertex input: stride and, per attribute, semantic, type, components, offset. */
  get layout() { this.check(); return { stride: this.#format.stride, attributes: this.#format.attributes.map((a) => ({ ...a })) }; }
  get count() { return this.#count; }
  /** true for a buffer adopted with adoptBuffer(): xfb never deletes it. */
  get adopted() { return this.#adoptedName !== 0; }
  dispose() {
    if (this.disposed) return;
    super.dispose();
    if (this.#adoptedName) this.owner.unadopt(this.#adoptedName); // forget the name, keep the object
  }
  get byteLength() { return this.#count * this.#format.stride; }

  upload(data, options = {}) {
    const offset = checkKeys(options, ['offset'], 'upload() options').offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0) invalid(`upload(): offset must be a non-negative integer byte offset, got ${offset}`);
    const Expected = arrayTypeOf(this.#format);
    if (!ArrayBuffer.isView(data) && !(data instanceof ArrayBuffer)) invalid('upload(): data must be a typed array or an ArrayBuffer');
    if (ArrayBuffer.isView(data) && Expected !== Uint8Array && !(data instanceof Expected)) invalid(`upload(): data must be a ${Expected.name} for this format`);
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.owner.withHeap(bytes, (ptr, n) => this.call('upload', ptr, n, offset));
    if (this.#shadow && offset === 0 && bytes.byteLength === this.byteLength) { this.#shadow = bytes.slice(); this.#shadowSource = 'upload'; }
  }

  /** Resolves to the contents (a typed array of the format's type) once the GPU is done; never blocks. */
  async read() {
    const rid = this.call('readAsync');
    let view;
    try {
      while (!this.owner.call('readbackReady', rid)) await nextFrame();
      view = this.owner.call('takeReadback', rid);
    } catch (e) {
      this.owner.release('readback', rid); // the staging buffer and its fence, also after a context loss
      throw e;
    }
    const bytes = view.slice(); // copy out of the wasm heap
    if (this.#restore === 'last-readback') { this.#shadow = bytes; this.#shadowSource = 'last-readback'; }
    const Type = arrayTypeOf(this.#format);
    return new Type(bytes.buffer, 0, bytes.byteLength / Type.BYTES_PER_ELEMENT);
  }

  restoreContents() {
    if (!this.#shadow) return 'none';
    this.owner.withHeap(this.#shadow, (ptr, n) => this.call('upload', ptr, n, 0));
    return this.#shadowSource;
  }
}

const NO_NAME = Symbol('no uniform');

export class XfbProgram extends XfbObject {
  #uniforms;
  constructor(owner, id, uniforms) { super(owner, id, 'program'); this.#uniforms = uniforms; }
  /** Attributes (ATTRn), captured varyings and the output buffer layout. */
  get plan() { return this.call('programPlan'); }

  /** A number, an array of numbers or a typed array, converted to the uniform's declared type. */
  setUniform(name, value) {
    // Kept in JavaScript for replayed steps (Xfb#recipe); wasm learns it before its next call. The
    // per-frame case first: a float scalar, found without a lookup (nor the disposal check: dispose()
    // forgets it) when it is the name set last.
    let e = this.#last;
    if (name !== this.#lastName) {
      this.check();
      e = this.#cache.get(name);
      if (e?.fast) { this.#last = e; this.#lastName = name; }
    }
    const owner = this.owner;
    if (e !== undefined && e.fast && typeof value === 'number' && value === value && !owner.isContextLost) {
      e.value = value; e.gl = true;
      if (!e.wasm) { e.wasm = true; owner.markPending(this); }
      return;
    }
    if (typeof name !== 'string') invalid('setUniform(): name must be a string');
    const declared = Object.hasOwn(this.#uniforms, name) ? this.#uniforms[name] : undefined;
    const values = typeof value === 'number' ? [value] : Array.isArray(value) || ArrayBuffer.isView(value) ? Array.from(value) : null;
    if (!values || values.length === 0) invalid(`setUniform('${name}'): value must be a number, an array of numbers or a typed array`);
    values.forEach((v, i) => { if (typeof v !== 'number' || Number.isNaN(v)) invalid(`setUniform('${name}'): value[${i}] is ${v}, not a number`); });
    // Bool uniforms and samplers (opaque: a texture unit) take ints.
    const K = this.owner.module.ScalarKind;
    const kind = !declared ? K.float : declared.kind === K.opaque || declared.kind === K.bool ? K.int : declared.kind;
    const Type = kind === K.float ? Float32Array : kind === K.uint ? Uint32Array : Int32Array;
    if (Type !== Float32Array) {
      // Int32Array/Uint32Array.from() would wrap 2**40 to 0 and truncate 2.5: refused instead.
      const [lo, hi] = Type === Uint32Array ? [0, 2 ** 32 - 1] : [-(2 ** 31), 2 ** 31 - 1];
      values.forEach((v, i) => {
        if (!Number.isInteger(v) || v < lo || v > hi)
          fail('XFB_UNIFORM_TYPE', `setUniform('${name}'): value[${i}] is ${v}, but the uniform takes ${Type === Uint32Array ? 'uint' : 'int'} values: integers ${lo}..${hi}`);
      });
    }
    if (e?.kind === kind && values.length % e.components === 0 && values.length <= e.max && !owner.isContextLost) return this.#keep(e, values);
    owner.withValues(values, kind, (ptr, n) => this.call('setUniform', name, kind, ptr, n, false)); // a refusal, or a program no step replays yet
  }

  // By name: { name, kind, components, max, scalar: one value (kept as a number), fast: a float scalar, value, gl: to upload, wasm: to give wasm }, from Xfb#recipe.
  // #last, #lastName: the float scalar entry setUniform found last, and the name it was given
  // (NO_NAME: none; no caller passes it).
  #cache = new Map(); #last = undefined; #lastName = NO_NAME;
  dispose() { this.#last = undefined; this.#lastName = NO_NAME; super.dispose(); }
  get uniformCache() { return this.#cache; }
  #keep(e, values) {
    e.value = e.scalar ? values[0] : values; e.gl = true;
    if (!e.wasm) { e.wasm = true; this.owner.markPending(this); }
  }
  sync(engine) {
    for (const [name, e] of this.#cache) {
      if (!e.wasm) continue;
      e.wasm = false;
      check(this.owner.withValues(e.scalar ? [e.value] : e.value, e.kind, (ptr, n) => engine.setUniform(this.id, name, e.kind, ptr, n, !e.gl)));
    }
  }
}

// glUniformMatrix*fv by GL type.
const MATRICES = { 0x8B5A: '2', 0x8B5B: '3', 0x8B5C: '4', 0x8B65: '2x3', 0x8B66: '2x4', 0x8B67: '3x2', 0x8B68: '3x4', 0x8B69: '4x2', 0x8B6A: '4x3' };
const check = (result) => { if (result instanceof XfbError) throw result; };

// The upload of one kept uniform value `v` (an array of numbers, a number for a scalar) to location `l`, made once per
// recipe with the exact arity: one value goes by value (uniform1f(l, x) is faster than uniform1fv
// in Chromium, and a call with surplus arguments or out-of-range reads is slower than either).
// A recipe's pass, engine/src/pipeline/pipeline_state.hpp PipelineState::draw from JavaScript: a
// closure over the recipe's WebGL objects (as a hand-written loop holds them), the side its own.
// discard: the application left RASTERIZER_DISCARD on (neither enabled nor disabled); tfAfter: the
// transform feedback object to leave bound (the application's in default mode: #restore does not
// bind it again). `pending`: the engine's set of what wasm must learn (r.sync).
function passOf(gl, r, pending) {
  const program = r.program, vaos = r.vaos, tfs = r.tfs, count = r.count, us = r.uniforms;
  let side = r.side;
  return (discard, tfAfter) => {
    gl.useProgram(program);
    let calls = 9;
    for (let i = 0; i < us.length; i++) {
      const u = us[i], e = u.e;
      if (!e.gl) continue;
      e.gl = false; calls++;
      u.set(e.value);
    }
    gl.bindVertexArray(vaos[side]);
    gl.bindTransformFeedback(0x8E22, tfs[side]);
    if (!discard) gl.enable(0x8C89);
    gl.beginTransformFeedback(0); // POINTS
    gl.drawArrays(0, 0, count);
    gl.endTransformFeedback();
    if (!discard) gl.disable(0x8C89);
    gl.bindTransformFeedback(0x8E22, tfAfter);
    side ^= 1; r.calls = calls;
    if (r.n++ === 0) pending.add(r);
  };
}
// Whether a replayed pass of recipe `r` may write the WebGLBuffer `buffer` (r.written null: one of
// its buffers was disposed, so it cannot say); of any armed pipeline of a steps() batch. Asked only
// when ARRAY_BUFFER holds a buffer, and without allocating (Xfb#save, every step).
function recipeWrites(r, buffer) { return r.written === null || r.written.includes(buffer); }
function batchWrites(pipelines, buffer) {
  for (const p of pipelines) {
    const r = p.armed;
    if (r !== null && recipeWrites(r, buffer)) return true;
  }
  return false;
}
// A scalar (one value, not an array) is kept as a number and set by a direct method call.
function uniformSetter(gl, l, matrix, name, components, scalar) {
  if (scalar) {
    if (name === 'uniform1f') return (x) => gl.uniform1f(l, x);
    return name === 'uniform1ui' ? (x) => gl.uniform1ui(l, x) : (x) => gl.uniform1i(l, x);
  }
  if (matrix) { const f = gl[matrix]; return (v) => f.call(gl, l, false, v); }
  const f = gl[name], fv = gl[`${name}v`];
  switch (components) {
    case 1: return (v) => (v.length === 1 ? f.call(gl, l, v[0]) : fv.call(gl, l, v));
    case 2: return (v) => (v.length === 2 ? f.call(gl, l, v[0], v[1]) : fv.call(gl, l, v));
    case 3: return (v) => (v.length === 3 ? f.call(gl, l, v[0], v[1], v[2]) : fv.call(gl, l, v));
    default: return (v) => (v.length === 4 ? f.call(gl, l, v[0], v[1], v[2], v[3]) : fv.call(gl, l, v));
  }
}

// The WebGLUniformLocation of Emscripten's location id, resolved as its glGetUniformLocation does.
function uniformLocation(gl, program, id) {
  const known = program.uniformLocsById?.[id];
  if (typeof known !== 'number') return known ?? null;
  return (program.uniformLocsById[id] = gl.getUniformLocation(program, program.uniformArrayNamesById[id] + (known > 0 ? `[${known}]` : '')));
}

export class XfbPipeline extends XfbObject {
  #uniforms; #replay = null; #written;
  constructor(owner, id, program, written) { super(owner, id, 'pipeline'); this.#uniforms = program.uniformCache; this.#written = written; }
  get info() { return this.call('pipelineInfo'); }
  get count() { return this.info.count; }

  /** One transform-feedback pass; every { input, output } pair swaps its buffers. step(k): k
   *  substeps, fused into one pass when the simulation is element-local (see fusion()). */
  step(substeps = 1) {
    if (substeps === 1) {
      const r = this.#replay, owner = this.owner;
      if (r !== null && r.epoch === owner.epoch) return void owner.replay(r);
      this.callStep();
      if (r?.generation !== owner.generation) this.#replay = owner.recipe(this.id, this.#uniforms, this.#written);
      return;
    }
    // The engine checks the range (1..256); here only what would wrap on the way in (int32).
    if (!Number.isInteger(substeps) || substeps < 1 || substeps > 0x7fffffff) invalid(`step(${substeps}): substeps must be an integer 1..256`);
    this.call('stepSubsteps', substeps);
  }

  get armed() { const r = this.#replay; return r?.epoch === this.owner.epoch && !this.disposed ? r : null; }
  /** How the next step() runs: { replayed: true } from JavaScript, or { replayed: false, reason } through wasm. */
  get stepPath() {
    const r = this.#replay;
    return this.armed ? { replayed: true } : { replayed: false, reason: r?.refusal ?? 'the first step, or a call since that may change it' };
  }

  /** Whether step(k > 1) runs its substeps in one pass: { fused, reason }. */
  fusion() { return this.call('fusion'); }

  /** A step that resolves once its PRIMITIVES_WRITTEN query is read (polled across frames):
   *  swapped and resolved with { step, written, expected }, or rejected with XFB_SHORT_WRITE and
   *  not swapped. */
  async stepChecked() {
    this.call('beginChecked');
    for (;;) {
      await nextFrame();
      const report = this.call('pollChecked'); // null while pending
      if (report) return report;
    }
  }

  /** With { queries: true }: the reports of earlier steps whose queries are available. */
  pollQueries() { return this.call('pollQueries'); }
}

const INDEX_MAX = new Map([[Uint8Array, 0xFF], [Uint16Array, 0xFFFF], [Uint32Array, 0xFFFFFFFF]]);

function checkListener(type, listener, what) {
  if (!EVENTS.includes(type)) invalid(`${what}: the event must be 'contextlost' or 'contextrestored', got '${String(type)}'`);
  if (typeof listener !== 'function') invalid(`${what}: the listener must be a function, got ${listener === null ? 'null' : typeof listener}`);
}

function checkMode(mode, what) {
  if (!ENUMS.drawModes.includes(mode)) invalid(`${what}: mode must be one of ${ENUMS.drawModes.join(', ')}, got '${mode}'`);
}

// A draw ({ mode, count } or { mode, indices, restartIndex? }) checked; indices as a Uint32Array
// (null for a count), restart -1 for none. `keys`: what the caller allows.
function checkDraw(given, what, keys) {
  const draw = checkKeys(given, keys, what);
  checkMode(draw.mode, what);
  let indices = null, restart = -1;
  if (draw.indices !== undefined) {
    if (draw.count !== undefined) invalid(`${what}: give either count or indices, not both`);
    const max = INDEX_MAX.get(draw.indices?.constructor) ?? 0xFFFFFFFF;
    if (Array.isArray(draw.indices)) {
      draw.indices.forEach((v, i) => { if (!Number.isInteger(v) || v < 0 || v > max) invalid(`${what}: indices[${i}] is ${v}, not an integer 0..${max}`); });
    } else if (!INDEX_MAX.has(draw.indices?.constructor)) invalid(`${what}: indices must be a Uint8Array, Uint16Array, Uint32Array or an array of integers`);
    indices = Uint32Array.from(draw.indices);
    const r = draw.restartIndex === undefined ? max : draw.restartIndex;
    if (r !== null && (!Number.isInteger(r) || r < 0 || r > 0xFFFFFFFF)) invalid(`${what}: restartIndex must be an integer 0..4294967295 or null, got ${r}`);
    restart = r ?? -1;
  } else {
    if (!Number.isInteger(draw.count) || draw.count < 0) invalid(`${what}: count must be a non-negative integer, got ${String(draw.count)}`);
    if (draw.restartIndex !== undefined) invalid(`${what}: restartIndex needs indices`);
  }
  return { indices, restart, draw };
}

export class XfbCapture extends XfbObject {
  constructor(owner, id) { super(owner, id, 'capture'); }
  /** { expansion: 'driver' | 'engine', vertexCount } */
  get info() { return this.call('captureInfo'); }

  /** Captures a draw: { mode, count } or { mode, indices, restartIndex? }. indices: a Uint8/16/32Array
   *  or an array of integers; restartIndex defaults to the index type's maximum, as WebGL2's
   *  fixed-index primitive restart does (null: no restart). The capacity is checked first
   *  (XFB_CAPACITY, nothing written). Returns { primitive, primitives, records, bytes }. */
  capture(given) {
    const { indices, restart, draw } = checkDraw(given, 'capture()', ['mode', 'count', 'indices', 'restartIndex']);
    const bytes = indices ? new Uint8Array(indices.buffer) : null;
    return this.owner.withHeap(bytes, (ptr) => this.call('capture', draw.mode, draw.count ?? 0, ptr, indices ? indices.length : -1, restart));
  }

  /** Draws the last capture's vertices with the program and vertex array bound on the context
   *  (drawArrays(Instanced) with the planned count on WebGL2: no readback, no query). */
  drawCaptured(options = {}) {
    const { mode, instances = 1 } = checkKeys(options, ['mode', 'instances'], 'drawCaptured() options');
    if (mode !== undefined) checkMode(mode, 'drawCaptured()');
    if (!Number.isInteger(instances) || instances < 1) invalid(`drawCaptured(): instances must be a positive integer, got ${instances}`);
    this.call('drawCaptured', mode ?? '', instances);
  }

  // --- Append captures (README "Append captures") ---
  /** Captures several draws one after another into the outputs, from record `firstRecord`
   *  (default 0; the records before it are untouched). parts: [{ mode, count } or { mode, indices,
   *  restartIndex? }, each with an optional program writing the same record layout]. The whole
   *  session is checked first (XFB_CAPACITY: nothing written; XFB_OUTPUT_LAYOUT_MISMATCH).
   *  Returns { firstRecord, endRecord, endBytes, parts: [{ primitive, primitives, firstRecord,
   *  records, firstByte, bytes }] }. */
  captureSession(parts, options = {}) {
    const { firstRecord = 0 } = checkKeys(options, ['firstRecord'], 'captureSession() options');
    if (!Array.isArray(parts) || parts.length === 0) invalid('captureSession(): parts must be a non-empty array of draws');
    if (!Number.isSafeInteger(firstRecord) || firstRecord < 0) invalid(`captureSession(): firstRecord must be an integer 0..2^53-1, got ${firstRecord}`);
    const list = parts.map((given, i) => {
      const what = `captureSession(): parts[${i}]`;
      const { indices, restart, draw: part } = checkDraw(given, what, ['mode', 'count', 'indices', 'restartIndex', 'program']);
      const out = { mode: part.mode, count: part.count ?? 0 };
      if (indices) out.indices = indices;
      if (restart >= 0) out.restartIndex = restart;
      if (part.program !== undefined) {
        if (!(part.program instanceof XfbProgram) || part.program.owner !== this.owner) invalid(`${what}: program must be an XfbProgram of this engine`);
        out.program = part.program.id;
      }
      return out;
    });
    return this.call('captureSession', list, firstRecord);
  }

  /** Draws the last session's records, of one part ({ part }) or all of them, with the program and
   *  vertex array bound on the context: drawArraysInstanced(mode, firstRecord, records, instances)
   *  with the planned range (no readback, no query). */
  drawSession(options = {}) {
    const { part, mode, instances = 1 } = checkKeys(options, ['part', 'mode', 'instances'], 'drawSession() options');
    if (part !== undefined && (!Number.isInteger(part) || part < 0)) invalid(`drawSession(): part must be a non-negative integer, got ${part}`);
    if (mode !== undefined) checkMode(mode, 'drawSession()');
    if (!Number.isInteger(instances) || instances < 1) invalid(`drawSession(): instances must be a positive integer, got ${instances}`);
    this.call('drawSession', part ?? -1, mode ?? '', instances);
  }
}

/** Creates an engine on a canvas ({ canvas, contextAttributes? }) or an existing WebGL2 context
 *  ({ gl }); on WebGPU with a GPUDevice ({ device }) or a new one ({ backend: 'webgpu' }).
 *  ownsContext (WebGL2, default false): false leaves the state engines cache as found after every
 *  call (README "Sharing a context"); true, for an application that owns the context alone, keeps
 *  the minimal step and leaves xfb's program and vertex array bound. */
export default async function createXfb(given = {}) {
  const options = checkKeys(given, ['canvas', 'gl', 'contextAttributes', 'ownsContext', 'device', 'backend'], 'createXfb()');
  const backend = options.backend ?? (options.device ? 'webgpu' : 'webgl2');
  if (backend !== 'webgl2' && backend !== 'webgpu') invalid(`createXfb(): backend must be 'webgl2' or 'webgpu', got '${backend}'`);
  if (backend === 'webgpu') {
    if (options.gl || options.canvas) invalid("createXfb(): { backend: 'webgpu' } takes a device, not a canvas or gl");
    if (options.ownsContext !== undefined) invalid("createXfb(): ownsContext is for WebGL2 contexts; a WebGPU engine changes no shared state");
    const gpu = await import('./webgpu.js'); // loaded only by WebGPU users
    const { device, adapter } = options.device ? { device: options.device } : await gpu.requestDevice(fail);
    if (typeof device?.createComputePipeline !== 'function' || !device.queue) invalid('createXfb(): device must be a GPUDevice');
    return gpu.createWebGpuEngine(await loadWebGpuModule(), device, SHARED, !options.device, adapter);
  }
  if (options.device) invalid("createXfb(): a device needs backend 'webgpu'");
  if (options.ownsContext !== undefined && typeof options.ownsContext !== 'boolean') invalid('createXfb(): ownsContext must be a boolean');
  let gl = options.gl;
  if (gl !== undefined && !(typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext))
    invalid('createXfb(): gl must be a WebGL2RenderingContext');
  if (!gl && options.canvas) {
    if (typeof options.canvas.getContext !== 'function') invalid('createXfb(): canvas must be an HTMLCanvasElement or OffscreenCanvas');
    gl = options.canvas.getContext('webgl2', options.contextAttributes ?? {});
    if (!gl) fail('XFB_UNSUPPORTED', 'this browser or canvas gives no WebGL2 context');
  }
  const module = await loadModule();
  return new Xfb(module, gl ?? null, options.ownsContext ?? false);
}

function inspectWith(module, source, given) {
  if (typeof source !== 'string') invalid('inspect(): source must be a string of GLSL');
  const options = checkProgramOptions(checkKeys(given, ['mode', 'varyings', 'defines', 'portable'], 'inspect() options'), 'inspect()');
  const result = module.inspect(source, options);
  check(result);
  return result;
}

/** For engines that wrap a WebGLBuffer in an object of their own (three.js GLBufferAttribute, a
 *  Babylon.js VertexBuffer): calls `make(glBuffer)` once per WebGLBuffer `buffer` names (two for
 *  a state pair, which swaps every step) and returns a function that gives the wrapper of the
 *  current one. Hand its result to the engine every frame, so the engine draws the latest state. */
export function followBuffer(buffer, make) {
  if (!(buffer instanceof XfbBuffer)) invalid('followBuffer(): buffer must be an xfb buffer');
  if (typeof make !== 'function') invalid('followBuffer(): make must be a function (glBuffer) => wrapper');
  const wrappers = new Map();
  return () => {
    const glBuffer = buffer.glBuffer;
    let wrapper = wrappers.get(glBuffer);
    if (wrapper === undefined) wrappers.set(glBuffer, (wrapper = make(glBuffer)));
    return wrapper;
  };
}

/** Runs `fn()` and returns { result, buffers }: the WebGLBuffers created on `gl` meanwhile. The way to
 *  find the WebGLBuffer behind an engine's vertex buffer (to adoptBuffer() it) without reading
 *  the engine's private fields. */
export function createdBuffers(gl, fn) {
  const own = Object.prototype.hasOwnProperty.call(gl, 'createBuffer');
  const original = gl.createBuffer;
  const buffers = [];
  gl.createBuffer = function createBuffer() { const b = original.call(gl); buffers.push(b); return b; };
  try {
    return { result: fn(), buffers };
  } finally {
    if (own) gl.createBuffer = original;
    else delete gl.createBuffer;
  }
}
// What webgpu.js shares with this file: the same validation and the same XfbError.
const SHARED = { fail, invalid, checkKeys, checkCount, checkProgramOptions, normaliseFormat, asBytes, arrayTypeOf, inspectWith, enums: () => ENUMS, oneOf };

let planner;
/** The planner alone (no WebGL; works in Node): attributes, captured varyings, buffer layout. */
export async function inspect(source, options = {}) {
  planner ??= await loadModule();
  return inspectWith(planner, source, options);
}
