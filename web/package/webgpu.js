// xfb on WebGPU: the WebGL2 engine's API (index.js) with the simulation run as a WebGPU compute
// pass. The plan and the WGSL come from the same C++ planner (wasm: Module.wgsl, see
// engine/include/xfb/wgsl_translation.hpp); this file only drives WebGPU. Loaded by createXfb()
// on demand, so WebGL2 users never download it.
//
// Per step: one command encoder, one compute pass, one submit; the bind group of the current
// ping-pong side was built at createPipeline() (or setTexture()), and the uniform buffer is
// written only when a uniform changed. No GPU object is created in a steady step.
//
// step(k) of an element-local simulation (fusion()): one dispatch of a second pipeline whose WGSL
// loops the body k times per element (wasm: Module.wgslSubsteps). k is a u32 in the uniform
// buffer, not a constant of the WGSL: one module for every k, compiled the first time step(k > 1)
// runs, so no k costs a compile in the middle of a simulation and nothing needs a cache bound.
// Otherwise k ordinary dispatches in one pass (one submit per substep when the shader declares
// the built-in `uniform int xfb_substep`, whose value changes between them).


// Emitted outputs: the exclusive prefix sum of the per-element counts, level by level (256 per
// work group; each level's group totals are the next level's input), then each level's scanned
// totals added back down, then the budget's totals. Fixed order of additions: deterministic.
// Buffers are sized exactly, so arrayLength() is each level's element count.
const SCAN_GROUP = 256;
const SCAN_WGSL = `@group(0) @binding(0) var<storage, read> xin: array<u32>;
@group(0) @binding(1) var<storage, read_write> xout: array<u32>;
@group(0) @binding(2) var<storage, read_write> xsums: array<u32>;
var<workgroup> t: array<u32, 256>;
@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) g: vec3<u32>) {
  let i = g.x * 256u + l;
  let n = arrayLength(&xout);
  var x = 0u;
  if (i < n) { x = xin[i]; }
  t[l] = x;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {
    var add = 0u;
    if (l >= d) { add = t[l - d]; }
    workgroupBarrier();
    t[l] += add;
    workgroupBarrier();
  }
  if (i < n) { xout[i] = t[l] - x; }
  if (l == 255u) { xsums[g.x] = t[l]; }
}
@compute @workgroup_size(256)
fn add(@builtin(global_invocation_id) i: vec3<u32>) {
  if (i.x < arrayLength(&xsums)) { xsums[i.x] += xin[i.x / 256u]; }
}
override capacity: u32 = 0u;
override slot: u32 = 0u;
override groupSize: u32 = 1u;
@compute @workgroup_size(1)
fn total() {
  let n = arrayLength(&xin);
  let requested = xout[n - 1u] + xin[n - 1u];
  let written = min(requested, capacity);
  let o = slot * 8u;
  xsums[o] = written; xsums[o + 1u] = 1u; xsums[o + 2u] = 0u; xsums[o + 3u] = 0u;
  xsums[o + 4u] = (written + groupSize - 1u) / groupSize; xsums[o + 5u] = 1u; xsums[o + 6u] = 1u;
  xsums[o + 7u] = requested;
}`;

/** The engine for a GPUDevice. `shared`: index.js's validation helpers and XfbError. */
export function createWebGpuEngine(module, device, shared, ownsDevice, adapter) {
  return new XfbGpu(module, device, shared, ownsDevice, adapter);
}

class XfbGpu {
  #module; #device; #adapter; #s; #ownsDevice; #scanModule = null; #lost = null; #disposed = false; #objects = new Set(); #listeners = new Map();

  constructor(module, device, shared, ownsDevice, adapter) {
    // The adapter is kept: Chromium loses a device whose adapter was garbage-collected
    // ("A valid external Instance reference no longer exists").
    this.#module = module; this.#device = device; this.#adapter = adapter; this.#s = shared; this.#ownsDevice = ownsDevice;
    device.lost.then((info) => {
      if (this.#disposed) return;
      this.#lost = info;
      this.emit('contextlost', { reason: info.reason, message: info.message });
    });
  }

  get backend() { return 'webgpu'; }
  /** The GPUDevice the engine records on. */
  get device() { return this.#device; }
  get gl() { return null; }
  get isContextLost() { return this.#lost !== null; }
  get capabilities() {
    const l = this.#device.limits;
    return { backend: 'webgpu', version: 'WebGPU', renderer: 'WebGPU', es: false, compute: true,
      limits: { maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage, maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX, maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension } };
  }

  inspect(source, options = {}) { return this.#s.inspectWith(this.#module, source, options); }

  createBuffer(description) {
    const s = this.#s;
    this.check();
    s.checkKeys(description, ['format', 'count', 'data', 'restore', 'label'], 'createBuffer()');
    const format = s.normaliseFormat(this.#module, description.format);
    s.checkCount(description.count, 'createBuffer(): count');
    const bytes = description.data === undefined ? null : s.asBytes(description.data, format, description.count, 'createBuffer(): data');
    const size = description.count * format.stride;
    if (size > this.#device.limits.maxStorageBufferBindingSize)
      s.fail('XFB_UNSUPPORTED', `createBuffer(): ${size} bytes exceed this device's maxStorageBufferBindingSize (${this.#device.limits.maxStorageBufferBindingSize})`);
    const label = description.label ?? `buffer${this.#objects.size}`;
    const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const gpuBuffer = this.#device.createBuffer({ label, size, usage });
    if (bytes) this.#device.queue.writeBuffer(gpuBuffer, 0, bytes);
    return this.#add(new XfbGpuBuffer(this, gpuBuffer, format, description.count, label));
  }

  createProgram(description) {
    const s = this.#s;
    this.check();
    s.checkKeys(description, ['source', 'mode', 'varyings', 'defines', 'portable', 'label'], 'createProgram()');
    if (typeof description.source !== 'string') s.invalid('createProgram(): source must be a string of GLSL');
    const mode = description.mode ?? 'interleaved';
    const modes = s.enums().captureModes;
    if (!modes.includes(mode)) s.invalid(`createProgram(): mode must be ${s.oneOf(modes)}, got '${mode}'`);
    if (description.varyings !== undefined && (!Array.isArray(description.varyings) || description.varyings.some((v) => typeof v !== 'string')))
      s.invalid('createProgram(): varyings must be an array of output names');
    const options = { mode, varyings: description.varyings ?? [], defines: description.defines ?? {}, portable: description.portable ?? true };
    const translated = this.translate(description.source, options);
    return this.#add(new XfbGpuProgram(this, description.source, options, translated, description.label ?? 'program'));
  }

  createPipeline(program, entries, options = {}) {
    const s = this.#s;
    this.check();
    if (!(program instanceof XfbGpuProgram) || program.owner !== this) s.invalid('createPipeline(): the first argument must be a program of this engine');
    program.check();
    s.checkKeys(options, ['count', 'queries', 'emits', 'overflow', 'fuseSubsteps'], 'createPipeline() options');
    if (options.count !== undefined) s.checkCount(options.count, 'createPipeline(): count');
    if (options.fuseSubsteps !== undefined && typeof options.fuseSubsteps !== 'boolean') s.invalid('createPipeline(): fuseSubsteps must be a boolean');
    const emits = options.emits ?? [];
    if (!Array.isArray(emits) || emits.some((e) => !e || typeof e.varying !== 'string' || typeof e.count !== 'string'))
      s.invalid('createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones');
    const overflow = options.overflow ?? 'error';
    if (overflow !== 'error' && overflow !== 'clamp') s.invalid(`createPipeline(): overflow must be 'error' or 'clamp', got '${overflow}'`);
    if (!Array.isArray(entries)) s.invalid('createPipeline(): entries must be an array of { input?, output? }');
    const seen = new Set();
    const described = entries.map((entry, i) => {
      s.checkKeys(entry, ['input', 'output'], `entries[${i}]`);
      const out = {};
      for (const role of ['input', 'output']) {
        const b = entry[role];
        if (b === undefined) continue;
        if (!(b instanceof XfbGpuBuffer) || b.owner !== this) s.invalid(`entries[${i}].${role} must be a buffer of this engine`);
        b.check();
        if (seen.has(b)) s.invalid(`entries[${i}].${role}: buffer '${b.label}' appears twice in the role list; WebGPU cannot read and write one buffer in a pass`);
        seen.add(b);
        out[role] = { format: b.layout.attributes, count: b.count };
      }
      return out;
    });
    const limits = this.#device.limits;
    const workGroupSize = Math.min(256, limits.maxComputeWorkgroupSizeX, limits.maxComputeInvocationsPerWorkgroup);
    const opts = { ...program.options, workGroupSize, emits: emits.map((e) => ({ varying: e.varying, count: e.count })),
      ...(options.count !== undefined ? { count: options.count } : {}) };
    const t = this.translate(program.source, opts, described);
    t.overflow = overflow;
    t.substeps = this.translate(program.source, { ...opts, fuseSubsteps: options.fuseSubsteps ?? true }, described, 'wgslSubsteps');
    if (t.budgets.length && t.count > SCAN_GROUP * limits.maxComputeWorkgroupsPerDimension)
      s.fail('XFB_UNSUPPORTED', `createPipeline(): emitted outputs scan at most ${SCAN_GROUP * limits.maxComputeWorkgroupsPerDimension} elements on this device, the pipeline has ${t.count}`);
    const storage = t.readBinding.filter((b) => b >= 0).length + t.writeBinding.filter((b) => b >= 0).length + 2 * t.budgets.length;
    if (storage > limits.maxStorageBuffersPerShaderStage)
      s.fail('XFB_UNSUPPORTED', `createPipeline(): ${storage} storage buffers exceed this device's maxStorageBuffersPerShaderStage (${limits.maxStorageBuffersPerShaderStage}); use interleaved buffers`);
    return this.#add(new XfbGpuPipeline(this, program, entries, t));
  }

  createCapture() {
    this.check();
    this.#s.fail('XFB_UNSUPPORTED', 'createCapture(): primitive capture needs transform feedback, which WebGPU does not have; use the WebGL2 engine');
  }

  liveObjects() {
    const n = { buffers: 0, programs: 0, pipelines: 0, captures: 0, readbacks: 0 };
    for (const o of this.#objects) n[o instanceof XfbGpuBuffer ? 'buffers' : o instanceof XfbGpuProgram ? 'programs' : 'pipelines']++;
    return n;
  }

  on(type, listener) { (this.#listeners.get(type) ?? this.#listeners.set(type, new Set()).get(type)).add(listener); return this; }
  off(type, listener) { this.#listeners.get(type)?.delete(listener); return this; }

  /** Destroys every GPU object of this engine (and the device, when createXfb() requested it). */
  dispose() {
    if (this.#disposed) return;
    for (const o of [...this.#objects]) o.dispose();
    this.#disposed = true;
    if (this.#ownsDevice) this.#device.destroy();
  }

  // Internal ---------------------------------------------------------------------------------
  get shared() { return this.#s; }
  /** The wasm module (its ScalarKind: the C++ enum's values, set by index.js from Module.enums()). */
  get module() { return this.#module; }
  /** The prefix-sum module, compiled once per engine. */
  get scanModule() { return (this.#scanModule ??= this.#device.createShaderModule({ label: 'xfb prefix sum', code: SCAN_WGSL })); }
  emit(type, detail) { for (const l of this.#listeners.get(type) ?? []) l(detail); }
  forget(o) { this.#objects.delete(o); }
  #add(o) { this.#objects.add(o); return o; }
  check() {
    if (this.#disposed) this.#s.fail('XFB_DISPOSED', 'this engine was disposed');
    if (this.#lost) this.#s.fail('XFB_CONTEXT_LOST', `the WebGPU device is lost (${this.#lost.reason}: ${this.#lost.message}); create a new engine`);
  }
  /** Awaits a WebGPU promise. A rejection is an XfbError: xfb's own (shader compile) as it is,
   *  XFB_DISPOSED when the engine was disposed meanwhile, else XFB_CONTEXT_LOST: mapAsync rejects
   *  (AbortError) before device.lost resolves, and with xfb's staging buffers untouched only a lost
   *  or destroyed device rejects it. */
  async settle(promise, what) {
    try {
      return await promise;
    } catch (e) {
      if (e instanceof Error && e.name === 'XfbError') throw e;
      if (this.#disposed) this.#s.fail('XFB_DISPOSED', `${what}: this engine was disposed meanwhile`);
      this.#s.fail('XFB_CONTEXT_LOST', `${what}: the WebGPU device was lost meanwhile (${this.#lost ? `${this.#lost.reason}: ${this.#lost.message}` : `${e?.name}: ${e?.message}`}); create a new engine`);
    }
  }
  /** The planner in wasm: plan + WGSL (or, with 'wgslSubsteps', the fused substeps) for a role list
   *  (undefined: the default roles); a failure comes back as an XfbError, thrown here. */
  translate(source, options, entries, entry = 'wgsl') {
    const r = this.#module[entry](source, options, entries);
    if (r instanceof Error) throw r;
    return r;
  }
}

class XfbGpuObject {
  #owner; #kind; #disposed = false;
  constructor(owner, kind) { this.#owner = owner; this.#kind = kind; }
  get owner() { return this.#owner; }
  get disposed() { return this.#disposed; }
  check() {
    if (this.#disposed) this.#owner.shared.fail('XFB_DISPOSED', `this ${this.#kind} was disposed; create a new one`);
    this.#owner.check();
  }
  dispose() {
    if (this.#disposed) return;
    this.destroy();
    this.#disposed = true;
    this.#owner.forget(this);
  }
  destroy() {}
}

export class XfbGpuBuffer extends XfbGpuObject {
  #gpu; #format; #count; #staging = null; #stagingBusy = false;
  constructor(owner, gpuBuffer, format, count, label) {
    super(owner, 'buffer');
    this.#gpu = gpuBuffer; this.#format = format; this.#count = count; this.label = label;
  }
  /** The GPUBuffer holding the latest data (after a step of a state pair, the other one of the pair).
   *  Usage STORAGE | VERTEX | COPY_SRC | COPY_DST: bind it as a vertex buffer with `layout`. */
  get gpuBuffer() { this.check(); return this.#gpu; }
  get glBuffer() { return null; }
  get layout() { this.check(); return { stride: this.#format.stride, attributes: this.#format.attributes.map((a) => ({ ...a })) }; }
  get count() { return this.#count; }
  get byteLength() { return this.#count * this.#format.stride; }

  upload(data, { offset = 0 } = {}) {
    const s = this.owner.shared;
    this.check();
    if (!Number.isInteger(offset) || offset < 0 || offset % 4) s.invalid(`upload(): offset must be a non-negative multiple of 4 bytes, got ${offset}`);
    const Expected = s.arrayTypeOf(this.#format);
    if (!ArrayBuffer.isView(data) && !(data instanceof ArrayBuffer)) s.invalid('upload(): data must be a typed array or an ArrayBuffer');
    if (ArrayBuffer.isView(data) && Expected !== Uint8Array && !(data instanceof Expected)) s.invalid(`upload(): data must be a ${Expected.name} for this format`);
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (bytes.byteLength % 4 || offset + bytes.byteLength > this.byteLength)
      s.invalid(`upload(): ${bytes.byteLength} bytes at offset ${offset} do not fit the buffer's ${this.byteLength} bytes in whole 4-byte words`);
    this.owner.device.queue.writeBuffer(this.#gpu, offset, bytes);
  }

  /** Resolves to the contents once the GPU is done: a copy into a staging buffer (MAP_READ, kept
   *  for the next read) and mapAsync; never blocks the frame. */
  async read() {
    this.check();
    const device = this.owner.device;
    const temporary = this.#stagingBusy;
    const staging = temporary ? this.#createStaging() : (this.#staging ??= this.#createStaging());
    if (!temporary) this.#stagingBusy = true;
    try {
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(this.#gpu, 0, staging, 0, this.byteLength);
      device.queue.submit([encoder.finish()]);
      await this.owner.settle(staging.mapAsync(GPUMapMode.READ), 'read()');
      const bytes = new Uint8Array(staging.getMappedRange().slice(0));
      staging.unmap();
      const Type = this.owner.shared.arrayTypeOf(this.#format);
      return new Type(bytes.buffer, 0, bytes.byteLength / Type.BYTES_PER_ELEMENT);
    } finally {
      if (temporary) staging.destroy();
      else this.#stagingBusy = false;
    }
  }

  #createStaging() { return this.owner.device.createBuffer({ label: `${this.label} readback`, size: this.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }); }
  swapWith(other) { [this.#gpu, other.#gpu] = [other.#gpu, this.#gpu]; }
  get current() { return this.#gpu; }
  destroy() {
    this.#gpu.destroy();
    if (this.#staging && !this.#stagingBusy) this.#staging.destroy();
  }
}

export class XfbGpuProgram extends XfbGpuObject {
  #source; #options; #t; #uniforms = new Map(); #bytes; #f32; #i32; #u32;
  version = 0;
  constructor(owner, source, options, translated, label) {
    super(owner, 'program');
    this.#source = source; this.#options = options; this.#t = translated; this.label = label;
    for (const u of translated.uniforms) this.#uniforms.set(u.name, u);
    this.#bytes = new ArrayBuffer(translated.uniformBytes);
    this.#f32 = new Float32Array(this.#bytes); this.#i32 = new Int32Array(this.#bytes); this.#u32 = new Uint32Array(this.#bytes);
  }
  /** Attributes (ATTRn), captured varyings and the output buffer layout (as on WebGL2). */
  get plan() { this.check(); return this.#t.plan; }
  /** The WGSL this program translates to with the default roles (one {input}, {output} per buffer). */
  get wgsl() { this.check(); return this.#t.source; }
  /** Uniform buffer layout: per uniform its offset, array and column strides (WGSL rules). */
  get uniformLayout() { return { bytes: this.#t.uniformBytes, uniforms: this.#t.uniforms.map((u) => ({ ...u })) }; }
  get source() { return this.#source; }
  get options() { return this.#options; }
  get uniformBytes() { return this.#bytes; }

  /** A number, an array of numbers or a typed array, converted to the uniform's declared type;
   *  matrices column-major, arrays element after element (as on WebGL2). */
  setUniform(name, value) {
    const s = this.owner.shared;
    this.check();
    if (typeof name !== 'string') s.invalid('setUniform(): name must be a string');
    const values = typeof value === 'number' ? [value] : Array.isArray(value) || ArrayBuffer.isView(value) ? Array.from(value) : null;
    if (!values || values.length === 0) s.invalid(`setUniform('${name}'): value must be a number, an array of numbers or a typed array`);
    values.forEach((v, i) => { if (typeof v !== 'number' || Number.isNaN(v)) s.invalid(`setUniform('${name}'): value[${i}] is ${v}, not a number`); });
    const u = this.#uniforms.get(name);
    if (!u) {
      const texture = this.#t.textures.some((t) => t.name === name);
      s.fail('XFB_UNKNOWN_UNIFORM', texture ? `'${name}' is a sampler: on WebGPU give its texture with pipeline.setTexture('${name}', texture)`
        : `program '${this.label}' declares no uniform '${name}'; uniforms: ${[...this.#uniforms.keys()].join(', ') || 'none'}`);
    }
    const per = u.columns * u.rows, elements = Math.max(1, u.arraySize), K = this.owner.module.ScalarKind;
    if (values.length % per || values.length > per * elements)
      s.fail('XFB_UNIFORM_TYPE', `uniform '${name}' is ${Object.keys(K).find((k) => K[k] === u.kind)}x${per}${u.arraySize ? `[${u.arraySize}]` : ''} but the value has ${values.length} numbers`);
    const view = u.kind === K.float ? this.#f32 : u.kind === K.int ? this.#i32 : this.#u32;
    for (let i = 0; i < values.length; i++) {
      const e = Math.floor(i / per), c = Math.floor((i % per) / u.rows), r = i % u.rows;
      view[(u.offset + e * u.arrayStride + c * u.columnStride + r * 4) / 4] = values[i];
    }
    this.version++;
  }
}

export class XfbGpuPipeline extends XfbGpuObject {
  #program; #entries; #t; #pipeline; #layout; #pipelineLayout; #uniform; #uniformBytes; #uniformVersion = -1; #pairs = []; #bindGroups = null;
  #fusedPipeline = null; #substepOffset; #substep = 0; #substeps = 0;
  #textures = new Map(); #steps = 0; #groups; #compiled; #countPipeline = null; #scans = []; #emitBuffers = []; #countBuffers = []; #totals = null; #totalsStaging = null; #totalsBusy = false;

  constructor(owner, program, entries, t) {
    super(owner, 'pipeline');
    this.#program = program; this.#entries = entries; this.#t = t;
    const device = owner.device;
    const layoutEntries = [{ binding: t.uniformBinding, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } }];
    for (const b of t.readBinding) if (b >= 0) layoutEntries.push({ binding: b, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } });
    for (const b of t.writeBinding) if (b >= 0) layoutEntries.push({ binding: b, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } });
    for (const b of t.countsBinding ?? []) layoutEntries.push({ binding: b, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } });
    for (const b of t.firstBinding ?? []) layoutEntries.push({ binding: b, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } });
    for (const x of t.textures)
      layoutEntries.push({ binding: x.binding, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: ['unfilterable-float', 'sint', 'uint'][x.kind] } });
    this.#layout = device.createBindGroupLayout({ label: `${program.label} bindings`, entries: layoutEntries });
    this.#pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [this.#layout] });
    const compile = (code, label) => this.#compile(code, label);
    const main = compile(t.source, program.label);
    this.#pipeline = main.pipeline;
    this.#compiled = main.compiled;
    if (t.budgets.length) {
      const counting = compile(t.countSource, `${program.label} count pass`);
      this.#countPipeline = counting.pipeline;
      this.#compiled = Promise.all([main.compiled, counting.compiled]).then(([info]) => info);
      this.#buildScans();
    }
    this.#compiled.catch(() => {}); // reported by ready / stepChecked()
    // The fused shader's uniforms are the ordinary ones plus the substep count k after them.
    const uniformBytes = Math.max(t.uniformBytes, t.substeps.uniformBytes ?? 0);
    this.#uniform = device.createBuffer({ label: `${program.label} uniforms`, size: uniformBytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.#uniformBytes = new Uint8Array(uniformBytes);
    this.#substepOffset = t.uniforms.find((u) => u.name === 'xfb_substep')?.offset ?? -1;
    new Uint32Array(this.#uniformBytes.buffer)[t.countOffset / 4] = t.count;
    entries.forEach((e) => { if (e.input && e.output) this.#pairs.push({ entry: e, a: e.input.current, b: e.output.current }); });
    const groups = Math.ceil(t.count / t.workGroupSize);
    this.#groups = [Math.min(groups, device.limits.maxComputeWorkgroupsPerDimension), Math.ceil(groups / device.limits.maxComputeWorkgroupsPerDimension)];
    if (!t.textures.length) this.#buildBindGroups();
  }

  get info() {
    this.check();
    return { count: this.#t.count, steps: this.#steps, backend: 'webgpu', workGroupSize: this.#t.workGroupSize, outputs: this.#t.outputs.map((o) => ({ ...o })) };
  }
  get count() { return this.#t.count; }
  /** The WGSL this pipeline runs. */
  get wgsl() { return this.#t.source; }
  /** Resolves once the shader module compiled; rejects with XFB_SHADER_COMPILE otherwise, and
   *  with XFB_CONTEXT_LOST (XFB_DISPOSED) when the device was lost (the pipeline disposed) meanwhile. */
  get ready() { return this.owner.settle(this.#compiled, 'ready').then(() => this.check()); }

  /** The texture a sampler uniform reads (texelFetch): a GPUTexture or GPUTextureView. Rebuilds
   *  the two bind groups (not per step). */
  setTexture(name, texture) {
    const s = this.owner.shared;
    this.check();
    if (!this.#t.textures.some((x) => x.name === name)) s.invalid(`setTexture(): the shader has no sampler '${name}'; samplers: ${this.#t.textures.map((x) => x.name).join(', ') || 'none'}`);
    if (!texture || (typeof texture.createView !== 'function' && typeof texture.label !== 'string')) s.invalid('setTexture(): texture must be a GPUTexture or a GPUTextureView');
    this.#textures.set(name, typeof texture.createView === 'function' ? texture.createView() : texture);
    if (this.#t.textures.every((x) => this.#textures.has(x.name))) this.#buildBindGroups();
  }

  #compile(code, label) {
    const device = this.owner.device;
    const module = device.createShaderModule({ label, code });
    const compiled = module.getCompilationInfo().then((info) => {
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length) this.owner.shared.fail('XFB_SHADER_COMPILE', `the WGSL of '${label}' does not compile: ` + errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; '));
      return info;
    });
    return { compiled, pipeline: device.createComputePipeline({ label, layout: this.#pipelineLayout, compute: { module, entryPoint: this.#t.entryPoint } }) };
  }

  /** The uniform buffer: the program's values, the count, the built-in xfb_substep and the fused
   *  substep count k; written only when one of them changed. */
  #writeUniforms(substep, substeps = this.#substeps) {
    const program = this.#program, t = this.#t;
    if (this.#uniformVersion === program.version && this.#substep === substep && this.#substeps === substeps) return;
    if (this.#uniformVersion !== program.version) {
      this.#uniformBytes.set(new Uint8Array(program.uniformBytes));
      new Uint32Array(this.#uniformBytes.buffer)[t.countOffset / 4] = t.count;
    }
    if (this.#substepOffset >= 0) new Int32Array(this.#uniformBytes.buffer)[this.#substepOffset / 4] = substep;
    if (t.substeps.fused) new Uint32Array(this.#uniformBytes.buffer)[t.substeps.substepsOffset / 4] = substeps;
    this.owner.device.queue.writeBuffer(this.#uniform, 0, this.#uniformBytes);
    this.#uniformVersion = program.version; this.#substep = substep; this.#substeps = substeps;
  }

  /** The fused pipeline, compiled the first time step(k > 1) needs it; `ready` and stepChecked()
   *  report its compile errors too. */
  #fused() {
    if (!this.#fusedPipeline) {
      const fused = this.#compile(this.#t.substeps.source, `${this.#program.label} (fused substeps)`);
      this.#fusedPipeline = fused.pipeline;
      this.#compiled = Promise.all([this.#compiled, fused.compiled]).then(([info]) => info);
      this.#compiled.catch(() => {});
    }
    return this.#fusedPipeline;
  }

  /** Records and submits `substeps` substeps: fused, one dispatch of the fused pipeline; else one
   *  pass per substep, alternating ping-pong sides. Swaps nothing (the caller does). */
  #run(substeps = 1, fused = false) {
    this.check();
    const s = this.owner.shared;
    for (const e of this.#entries)
      for (const b of [e.input, e.output]) if (b && b.disposed) s.fail('XFB_DISPOSED', `buffer '${b.label}' of this pipeline was disposed`);
    if (!this.#bindGroups) s.invalid(`step(): set the textures first: ${this.#t.textures.filter((x) => !this.#textures.has(x.name)).map((x) => `setTexture('${x.name}', ...)`).join(', ')}`);
    const device = this.owner.device;
    const program = this.#program;
    if (program.disposed) s.fail('XFB_DISPOSED', `program '${program.label}' of this pipeline was disposed`);
    const side = this.#pairs.length && this.#pairs[0].entry.input.current !== this.#pairs[0].a ? 1 : 0;
    if (fused) {
      const pipeline = this.#fused();
      this.#writeUniforms(0, substeps);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, this.#bindGroups[side]);
      pass.dispatchWorkgroups(this.#groups[0], this.#groups[1]);
      pass.end();
      device.queue.submit([encoder.finish()]);
      return;
    }
    let encoder = null, pass = null;
    for (let i = 0; i < substeps; i++) {
      // WebGPU orders a queue write before the submits that follow it, not between the
      // dispatches of one submit: a changing xfb_substep needs a submit per substep.
      if (!encoder || this.#substepOffset >= 0) {
        if (encoder) { pass.end(); device.queue.submit([encoder.finish()]); }
        this.#writeUniforms(i);
        encoder = device.createCommandEncoder();
        pass = encoder.beginComputePass();
      }
      this.#record(pass, this.#pairs.length ? side ^ (i & 1) : 0);
    }
    pass.end();
    device.queue.submit([encoder.finish()]);
  }

  /** One substep's dispatches on ping-pong side `side`. */
  #record(pass, side) {
    if (this.#countPipeline) {
      // Count pass, then per budget the prefix sum and the totals; each dispatch sees the
      // previous one's writes (WebGPU orders storage accesses between dispatches).
      pass.setPipeline(this.#countPipeline);
      pass.setBindGroup(0, this.#bindGroups[side]);
      pass.dispatchWorkgroups(this.#groups[0], this.#groups[1]);
      for (const scan of this.#scans)
        for (const [pipeline, group, groups] of scan) {
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, group);
          pass.dispatchWorkgroups(groups);
        }
    }
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, this.#bindGroups[side]);
    pass.dispatchWorkgroups(this.#groups[0], this.#groups[1]);
  }

  /** One compute pass over every element; every { input, output } pair swaps its buffers. With
   *  emitted outputs: the count pass, the prefix sums and totals, then the main pass.
   *  step(k): k substeps (1..maxSubsteps, 256), one dispatch that loops them when fusion().fused,
   *  else k dispatches; stepsTaken grows by k, `buffer.gpuBuffer` names the latest state. */
  step(substeps = 1) {
    const max = this.#t.substeps.maxSubsteps;
    if (!Number.isInteger(substeps) || substeps < 1 || substeps > max)
      this.owner.shared.invalid(`step(${String(substeps)}): the number of substeps must be an integer 1..${max} (limits::maxSubsteps); call step() more often for more`);
    const fused = substeps > 1 && this.#t.substeps.fused;
    this.#run(substeps, fused);
    this.#swap(fused ? 1 : substeps, substeps);
  }

  /** Whether step(k > 1) runs its substeps in one pass, and why not: { fused, reason } (the
   *  planner's answer, the same as on WebGL2). */
  fusion() {
    this.check();
    return { fused: this.#t.substeps.fused, reason: this.#t.substeps.reason };
  }

  #swap(swaps = 1, steps = swaps) {
    if (swaps % 2) for (const p of this.#pairs) p.entry.input.swapWith(p.entry.output);
    this.#steps += steps;
  }

  /** Emitted outputs: the GPUBuffer of the totals, 32 bytes per budget in `emits` order (usage
   *  STORAGE | INDIRECT | COPY_SRC): {written, 1, 0, 0} at 32 b for drawIndirect, {ceil(written /
   *  workGroupSize), 1, 1} at 32 b + 16 for dispatchWorkgroupsIndirect, the requested total at
   *  32 b + 28. Written by every step on the GPU; null without emitted outputs. */
  get emitTotalsBuffer() { this.check(); return this.#totals; }

  /** Emitted outputs: per budget the last step's { budget, requested, written, capacity }, read
   *  from the totals buffer (mapAsync, not blocking the frame). */
  async emitted() {
    this.check();
    if (!this.#totals) this.owner.shared.invalid('emitted(): this pipeline has no emitted outputs (createPipeline() option emits)');
    const device = this.owner.device, bytes = this.#t.budgets.length * 32;
    const temporary = this.#totalsBusy;
    const staging = temporary ? this.#createTotalsStaging() : (this.#totalsStaging ??= this.#createTotalsStaging());
    if (!temporary) this.#totalsBusy = true;
    try {
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(this.#totals, 0, staging, 0, bytes);
      device.queue.submit([encoder.finish()]);
      await this.owner.settle(staging.mapAsync(GPUMapMode.READ), 'emitted()');
      const words = new Uint32Array(staging.getMappedRange().slice(0));
      staging.unmap();
      return this.#t.budgets.map((b, i) => ({ budget: b.budget, requested: words[i * 8 + 7], written: words[i * 8], capacity: b.capacity }));
    } finally {
      if (temporary) staging.destroy();
      else this.#totalsBusy = false;
    }
  }

  #createTotalsStaging() {
    return this.owner.device.createBuffer({ label: `${this.#program.label} totals readback`, size: this.#t.budgets.length * 32, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  /** Per budget: counts and firsts (n words each), the scan levels' buffers, the bind groups of
   *  every scan, add and totals dispatch. Built once: a step only records them. */
  #buildScans() {
    const device = this.owner.device, t = this.#t, n = t.count, module = this.owner.scanModule, label = this.#program.label;
    const storage = (words, name, extra = 0) => device.createBuffer({ label: `${label} ${name}`, size: 4 * Math.max(1, words), usage: GPUBufferUsage.STORAGE | extra });
    const kernel = (entryPoint, constants) => device.createComputePipeline({ label: `${label} ${entryPoint}`, layout: 'auto', compute: { module, entryPoint, constants } });
    const scanKernel = kernel('scan'), addKernel = kernel('add');
    const group = (pipeline, buffers) => device.createBindGroup({ layout: pipeline.getBindGroupLayout(0),
      entries: Object.entries(buffers).map(([binding, buffer]) => ({ binding: Number(binding), resource: { buffer } })) });
    const groupsOf = (k) => Math.ceil(k / SCAN_GROUP);
    this.#totals = storage(8 * t.budgets.length, 'emit totals', GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
    this.#emitBuffers = [this.#totals];
    this.#scans = t.budgets.map((b, slot) => {
      const counts = storage(n, `${b.budget} counts`), firsts = storage(n, `${b.budget} firsts`);
      const sizes = [n];
      while (sizes.at(-1) > SCAN_GROUP) sizes.push(groupsOf(sizes.at(-1)));
      const sums = sizes.map((k, j) => (j ? storage(k, `${b.budget} sums ${j}`) : null)), scanned = sizes.map((k, j) => (j ? storage(k, `${b.budget} scanned ${j}`) : null));
      const top = sizes.length - 1, topSum = storage(1, `${b.budget} top sum`);
      this.#emitBuffers.push(counts, firsts, topSum, ...sums.slice(1), ...scanned.slice(1));
      this.#countBuffers.push(counts, firsts);
      const dispatches = [];
      for (let j = 0; j <= top; j++)
        dispatches.push([scanKernel, group(scanKernel, { 0: j ? sums[j] : counts, 1: j ? scanned[j] : firsts, 2: j === top ? topSum : sums[j + 1] }), groupsOf(sizes[j])]);
      for (let j = top; j >= 1; j--) dispatches.push([addKernel, group(addKernel, { 0: scanned[j], 2: j === 1 ? firsts : scanned[j - 1] }), groupsOf(sizes[j - 1])]);
      const totalKernel = kernel('total', { capacity: b.capacity, slot, groupSize: t.workGroupSize });
      dispatches.push([totalKernel, group(totalKernel, { 0: counts, 1: firsts, 2: this.#totals }), 1]);
      return dispatches;
    });
  }

  /** A step that resolves once the GPU finished it, with { step, written, expected }: a compute
   *  pass writes every element, so written === expected; rejects with XFB_SHADER_COMPILE when the
   *  module did not compile, XFB_GL_ERROR on a WebGPU validation error. */
  async stepChecked() {
    const owner = this.owner, device = owner.device;
    await owner.settle(this.#compiled, 'stepChecked()');
    device.pushErrorScope('validation');
    let error;
    try {
      this.#run();
    } finally {
      error = await owner.settle(device.popErrorScope(), 'stepChecked()');
    }
    this.check(); // a lost device's error scope resolves with null
    if (error) owner.shared.fail('XFB_GL_ERROR', `WebGPU validation error in step ${this.#steps + 1}: ${error.message}`);
    if (!this.#totals) {
      await owner.settle(device.queue.onSubmittedWorkDone(), 'stepChecked()');
      this.check();
      this.#swap();
      return { step: this.#steps, written: this.#t.count, expected: this.#t.count };
    }
    // Emitted outputs: the totals decide, as on GL compute (Capacity: not swapped).
    const emitted = await this.emitted();
    const over = emitted.find((e) => e.requested > e.capacity);
    if (over && this.#t.overflow === 'error')
      this.owner.shared.fail('XFB_CAPACITY', `budget '${over.budget}' requested ${over.requested} records but its buffers hold ${over.capacity}; ` +
        "give larger {output} buffers or createPipeline() option overflow: 'clamp' (the state was not swapped)");
    this.#swap();
    return { step: this.#steps, written: this.#t.count, expected: this.#t.count, emitted };
  }

  /** WebGPU has no primitive queries: always empty. */
  pollQueries() { this.check(); return []; }

  #buildBindGroups() {
    const device = this.owner.device;
    const t = this.#t;
    const make = (side) => {
      const entries = [{ binding: t.uniformBinding, resource: { buffer: this.#uniform } }];
      this.#entries.forEach((e, i) => {
        const pair = e.input && e.output ? this.#pairs.find((p) => p.entry === e) : null;
        const input = pair ? (side ? pair.b : pair.a) : e.input?.current;
        const output = pair ? (side ? pair.a : pair.b) : e.output?.current;
        if (t.readBinding[i] >= 0) entries.push({ binding: t.readBinding[i], resource: { buffer: input } });
        if (t.writeBinding[i] >= 0) entries.push({ binding: t.writeBinding[i], resource: { buffer: output } });
      });
      (t.countsBinding ?? []).forEach((b, k) => entries.push({ binding: b, resource: { buffer: this.#countBuffers[2 * k] } },
        { binding: t.firstBinding[k], resource: { buffer: this.#countBuffers[2 * k + 1] } }));
      for (const x of t.textures) entries.push({ binding: x.binding, resource: this.#textures.get(x.name) });
      return device.createBindGroup({ label: `${this.#program.label} side ${side}`, layout: this.#layout, entries });
    };
    this.#bindGroups = [make(0), make(1)];
  }

  destroy() {
    this.#uniform.destroy();
    for (const b of this.#emitBuffers) b.destroy();
    if (this.#totalsStaging && !this.#totalsBusy) this.#totalsStaging.destroy();
  }
}

/** A device (and its adapter) for createXfb({ backend: 'webgpu' }): the adapter's storage
 *  limits, so large and separate-mode pipelines fit. */
export async function requestDevice(fail) {
  if (typeof navigator === 'undefined' || !navigator.gpu) fail('XFB_UNSUPPORTED', 'this browser has no WebGPU (navigator.gpu is missing); use the WebGL2 engine');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) fail('XFB_UNSUPPORTED', 'navigator.gpu.requestAdapter() gave no adapter (WebGPU disabled or no usable GPU); use the WebGL2 engine');
  const l = adapter.limits;
  const device = await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize, maxBufferSize: l.maxBufferSize } });
  return { device, adapter };
}
