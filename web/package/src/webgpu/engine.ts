// The WebGPU engine: the WebGL2 engine's API with the simulation run as a WebGPU compute pass.
// The plan and the WGSL come from the same C++ planner (wasm: Module.wgsl, see
// engine/include/xfb/wgsl_translation.hpp); this driver only drives WebGPU. Every argument is
// checked by core/, as on WebGL2. Loaded by createXfb() on demand (webgpu.js), so WebGL2 users
// never download it.
import { checkDevice, checkKeys, checkPipelineList } from '../core/checks.js';
import { checkCaptureOptions } from '../core/draws.js';
import { checkAdoption, checkBufferDescription } from '../core/buffer_data.js';
import { fail, invalid, XfbError } from '../core/errors.js';
import { Listeners } from '../core/events.js';
import { inspectWith } from '../core/inspect.js';
import { checkPipelineOptions } from '../core/pipeline_options.js';
import { checkPopulationOptions } from '../core/population_options.js';
import { checkProgramDescription, type CheckedProgramOptions } from '../core/program_options.js';
import {
  checkDistinctPair,
  checkOwn,
  checkRoleClashes,
  engineDisposed,
  ObjectRegistry,
  OWN_BUFFER_MAKERS,
  XfbObjectBase,
} from '../core/registry.js';
import type { RestoredFrom } from '../core/restore_shadow.js';
import type {
  BufferDescription,
  CaptureOptions,
  GPUBufferType,
  GPUDeviceType,
  LiveObjects,
  Plan,
  PopulationOptions,
  ProgramDescription,
  ProgramOptions,
  VertexAttribute,
  WebGpuCapabilities,
  WebGpuPipelineOptions,
} from '../core/types.js';
import { XfbWebGpuBuffer } from './buffer.js';
import { XfbWebGpuCapture } from './capture.js';
import { requestDevice } from './device.js';
import { PREFIX_SUM_GROUP } from './prefix_sum.js';
import prefixSumSource from './prefix_sum.wgsl';
import { XfbWebGpuPipeline } from './pipeline.js';
import { XfbWebGpuProgram } from './program.js';
import type { CaptureBase, GeometryTranslation, Translation, TranslationEntries, WebGpuModule } from './wasm_module.js';
import { BufferUsage } from './flags.js';

/** What a listener of 'contextrestored' gets per buffer. */
export interface RestoredWebGpuBuffer {
  buffer: XfbWebGpuBuffer;
  label: string;
  restoredFrom: RestoredFrom;
}

/** An entry of a WebGPU role list. */
export interface WebGpuEntry {
  input?: XfbWebGpuBuffer;
  output?: XfbWebGpuBuffer;
}

const WORK_GROUP_SIZE = 256;

/** A GPUBuffer: by class where WebGPU's globals exist (browsers), else by shape (Node's Dawn
 *  installs no globals unless asked to). */
function isGpuBuffer(value: unknown): value is GPUBuffer {
  if (typeof GPUBuffer !== 'undefined') return value instanceof GPUBuffer;
  const b = value as Partial<GPUBuffer> | null;
  return typeof b?.mapAsync === 'function' && typeof b.usage === 'number' && typeof b.size === 'number';
}

/**
 * A transform-feedback engine on a GPUDevice: the same API as the WebGL2 engine, each step one
 * WebGPU compute pass (one command encoder, one submit). Created by `createXfb({ device })`.
 */
export class XfbWebGpu {
  readonly #module: WebGpuModule;
  #device: GPUDevice;
  // Kept: Chromium loses a device whose adapter was garbage-collected ("A valid external Instance
  // reference no longer exists").
  #adapter: GPUAdapter | undefined;
  #ownsDevice: boolean;
  readonly #gpu: GPU | undefined; // where restore() requests a device (undefined: navigator.gpu)
  readonly #objects = new ObjectRegistry();
  readonly #listeners = new Listeners<XfbWebGpuBuffer>();
  #prefixSum: GPUShaderModule | null = null;
  #lost: GPUDeviceLostInfo | null = null;
  #restoring = false;
  #disposed = false;

  /** @internal Use `createXfb({ device })`. */
  constructor(module: WebGpuModule, device: GPUDevice, ownsDevice: boolean, adapter?: GPUAdapter, gpu?: GPU) {
    this.#module = module;
    this.#gpu = gpu;
    this.#device = device;
    this.#adapter = adapter;
    this.#ownsDevice = ownsDevice;
    this.#watch(device);
  }

  #watch(device: GPUDevice): void {
    void device.lost.then((info) => {
      if (this.#disposed || device !== this.#device) return;
      this.#lost = info;
      this.#listeners.emit('contextlost', {
        reason: info.reason,
        message: info.message,
      });
    });
  }

  /** Always 'webgpu'. */
  get backend(): 'webgpu' {
    return 'webgpu';
  }
  /** The GPUDevice the engine records on. */
  get device(): GPUDeviceType {
    return this.#device;
  }
  /** Always null: a WebGPU engine has no WebGL context. */
  get gl(): null {
    return null;
  }
  /** true between a 'contextlost' event and the restore() that follows it. */
  get isContextLost(): boolean {
    return this.#lost !== null;
  }
  /** The device's limits that decide what fits. */
  get capabilities(): WebGpuCapabilities {
    const l = this.#device.limits;
    return {
      backend: 'webgpu',
      version: 'WebGPU',
      renderer: 'WebGPU',
      es: false,
      compute: true,
      limits: {
        maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
        maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
        maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      },
    };
  }

  /** What the planner would do with a shader (as on WebGL2). @throws XfbError with the planner's code. */
  inspect(source: string, options: ProgramOptions = {}): Plan {
    return inspectWith(this.#module, source, options);
  }

  /** A GPUBuffer of `count` elements of `format` (usage STORAGE | VERTEX | COPY_SRC | COPY_DST), the
   *  data written by queue.writeBuffer. `restore`: what restore() re-uploads after a device loss, as
   *  on WebGL2 (default 'last-readback').
   *  @throws XfbError XFB_UNSUPPORTED over the device's maxStorageBufferBindingSize, as WebGL2's checks otherwise. */
  createBuffer(description: BufferDescription): XfbWebGpuBuffer {
    this.checkUsable('createBuffer()');
    const d = checkBufferDescription((f, stride) => this.#module.normaliseFormat(f, stride), description);
    const size = d.count * d.layout.stride;
    const max = this.#device.limits.maxStorageBufferBindingSize;
    if (size > max)
      fail(
        'XFB_UNSUPPORTED',
        `createBuffer(): ${size} bytes exceed this device's maxStorageBufferBindingSize (${max})`,
      );
    const label = d.label ?? `buffer${this.#objects.count('buffer')}`;
    return this.#objects.add(new XfbWebGpuBuffer(this, this.#objects, d.layout, d.count, d.restore, d.data, label));
  }

  /** Translates the simulation to WGSL (in wasm) with the default roles.
   *  @throws XfbError with the planner's code, XFB_COMPUTE_TRANSLATION for what WGSL cannot express;
   *  for a `geometry` shader, what translateGeometryToWgsl() refuses (XFB_COMPUTE_TRANSLATION) and the
   *  geometry planner's codes (XFB_GEOMETRY_LAYOUT, XFB_GEOMETRY_STREAM, XFB_LAYOUT_STREAM). */
  createProgram(description: ProgramDescription): XfbWebGpuProgram {
    this.checkUsable('createProgram()');
    const d = checkProgramDescription(description, 'webgpu');
    let translated;
    try {
      translated =
        d.geometry === undefined
          ? this.translate(d.source, d.options)
          : this.translateGeometry(d.source, d.geometry, d.options);
    } catch (e) {
      // Named as on WebGL2, where the GL compiler's message names the program.
      if (e instanceof XfbError && e.code === 'XFB_SHADER_COMPILE')
        fail(
          'XFB_SHADER_COMPILE',
          `program '${d.label}' does not compile; the GLSL-to-WGSL translator says: ${e.message}`,
        );
      throw e;
    }
    return this.#objects.add(
      new XfbWebGpuProgram(this, this.#objects, d.source, d.options, translated, d.label, d.geometry),
    );
  }

  /** A compute pipeline stepping `program` over the role list (bind groups of both ping-pong sides
   *  built here: no GPU object is created in a steady step).
   *  @throws XfbError XFB_INVALID_ARGUMENT for a buffer in two roles a pass cannot combine (written
   *  twice, or read while written: checkRoleClashes), XFB_UNSUPPORTED over the device's storage-buffer limits. */
  createPipeline(
    program: XfbWebGpuProgram,
    entries: WebGpuEntry[],
    options: WebGpuPipelineOptions = {},
  ): XfbWebGpuPipeline {
    this.checkUsable('createPipeline()');
    checkOwn<XfbWebGpuProgram>(
      program,
      'program',
      this.#objects,
      'createPipeline(): the first argument',
      'createProgram()',
    );
    program.check();
    const o = checkPipelineOptions(options, 'webgpu');
    if (program.geometry !== undefined)
      fail(
        'XFB_UNSUPPORTED',
        `createPipeline(): program '${program.label}' has a geometry shader; a pipeline steps vertex programs (as C++ Pipeline): capture it with createCapture()`,
      );
    const emitted = o;
    const described = this.#describeEntries(entries);
    const limits = this.#device.limits;
    const workGroupSize = this.#workGroupSize();
    const translationOptions = {
      ...program.options,
      workGroupSize,
      emits: emitted.emits,
      ...(o.common.count !== undefined ? { count: o.common.count } : {}),
    };
    const translation = this.translate(program.source, translationOptions, described);
    const substeps = this.#module.wgslSubsteps(
      program.source,
      { ...translationOptions, fuseSubsteps: o.common.fuseSubsteps ?? true },
      described,
    );
    if (substeps instanceof XfbError) throw substeps;
    const maxScanned = PREFIX_SUM_GROUP * limits.maxComputeWorkgroupsPerDimension;
    if (translation.budgets.length && translation.count > maxScanned)
      fail(
        'XFB_UNSUPPORTED',
        `createPipeline(): emitted outputs scan at most ${maxScanned} elements on this device, the pipeline has ${translation.count}`,
      );
    this.#checkStorageBuffers(translation, 'createPipeline()');
    const list = entries.map((e) => ({ ...e }));
    return this.#objects.add(
      new XfbWebGpuPipeline(this, this.#objects, program, list, translation, substeps, emitted.overflow),
    );
  }

  /** One step() of each pipeline, in order (the same checks as on WebGL2: all of them before the first step). */
  steps(pipelines: XfbWebGpuPipeline[]): void {
    checkPipelineList(pipelines, (p): p is XfbWebGpuPipeline => XfbObjectBase.isOwn(p, 'pipeline', this.#objects));
    for (const p of pipelines) p.checkStep('steps()');
    for (const p of pipelines) p.step();
  }

  /** Wraps a GPUBuffer of the application's (an engine's vertex or storage buffer) as an xfb
   *  buffer of `count` elements of `format`, typically a write-only {output} a step writes straight
   *  into. It must be of this engine's device, with STORAGE usage (xfb binds every buffer as
   *  storage) and at least count x stride bytes. xfb never destroys it; after a device loss the
   *  adopted buffer is disposed by restore() (its owner recreates it: adopt the new one).
   *  @throws XfbError XFB_INVALID_ARGUMENT (not a GPUBuffer, no STORAGE usage, a glBuffer: the
   *  WebGL2 engine's), XFB_CAPACITY (smaller than count x stride), as createBuffer() otherwise. */
  adoptBuffer(description: {
    gpuBuffer: GPUBufferType;
    format: VertexAttribute[];
    /** Bytes per element, as createBuffer()'s (default: the packed size). */
    stride?: number;
    count: number;
    label?: string;
  }): XfbWebGpuBuffer {
    this.checkUsable('adoptBuffer()');
    const d = checkAdoption((f, stride) => this.#module.normaliseFormat(f, stride), description, 'gpuBuffer');
    const gpuBuffer = d.handle;
    if (!isGpuBuffer(gpuBuffer)) invalid("adoptBuffer(): gpuBuffer must be a GPUBuffer (of this engine's device)");
    const label = d.label ?? `adopted${this.#objects.count('buffer')}`;
    if (!(gpuBuffer.usage & BufferUsage.STORAGE))
      invalid(
        `adoptBuffer(): GPUBuffer '${gpuBuffer.label || label}' has usage ${gpuBuffer.usage} without STORAGE; xfb binds its buffers as storage: create it with GPUBufferUsage.STORAGE`,
      );
    const bytes = d.count * d.layout.stride;
    if (gpuBuffer.size < bytes)
      fail(
        'XFB_CAPACITY',
        `adoptBuffer(): GPUBuffer '${gpuBuffer.label || label}' holds ${gpuBuffer.size} bytes; ${d.count} elements of ${d.layout.stride} bytes need ${bytes}`,
      );
    return this.#objects.add(
      new XfbWebGpuBuffer(this, this.#objects, d.layout, d.count, 'none', null, label, gpuBuffer),
    );
  }

  /** Populations (C++ xfb::Population) run on the WebGL2 engine and natively; on WebGPU the options
   *  are checked as there, then refused. @throws XfbError XFB_UNSUPPORTED. */
  createPopulation(program: XfbWebGpuProgram, options: PopulationOptions): never {
    this.checkUsable('createPopulation()');
    checkOwn<XfbWebGpuProgram>(
      program,
      'program',
      this.#objects,
      'createPopulation(): the first argument',
      'createProgram()',
    );
    checkPopulationOptions(options, 'webgpu');
    fail(
      'XFB_UNSUPPORTED',
      'createPopulation(): populations are not yet on the WebGPU engine; create the engine on a WebGL2 context (createXfb({ gl })), which runs them on its fragment backend',
    );
  }

  /** Primitive capture over {input} vertex buffers and {output} buffers, as on WebGL2: each draw
   *  checked and expanded by the planner, then one compute pass runs the program once per
   *  record (capture.ts). Options as on WebGL2: vertexCount (no inputs); expansion 'auto' or
   *  'engine' (WebGPU has no driver expansion).
   *  @throws XfbError from the planner (roles, semantics), XFB_INVALID_ARGUMENT for a state pair,
   *  XFB_UNSUPPORTED for expansion 'driver' or past the device's storage-buffer limit,
   *  XFB_COMPUTE_TRANSLATION for what WGSL cannot express. */
  createCapture(program: XfbWebGpuProgram, entries: WebGpuEntry[], options: CaptureOptions = {}): XfbWebGpuCapture {
    this.checkUsable('createCapture()');
    checkOwn<XfbWebGpuProgram>(
      program,
      'program',
      this.#objects,
      'createCapture(): the first argument',
      'createProgram()',
    );
    program.check();
    const o = checkCaptureOptions(options);
    if (o.expansion === 'driver')
      fail(
        'XFB_UNSUPPORTED',
        "createCapture(): expansion 'driver' needs desktop OpenGL's transform feedback; WebGPU expands primitives in compute passes: use 'engine' or 'auto'",
      );
    const described = this.#describeEntries(entries, 'createCapture()');
    const geometry = program.geometry;
    const translation =
      geometry === undefined
        ? this.translateCapture(program, described, undefined, o.vertexCount)
        : this.translateGeometry(
            program.source,
            geometry,
            {
              ...program.options,
              workGroupSize: this.#workGroupSize(),
              ...(o.vertexCount !== undefined ? { vertexCount: o.vertexCount } : {}),
            },
            described,
          );
    this.#checkStorageBuffers(translation, 'createCapture()');
    const list = entries.map((e) => ({ ...e }));
    return this.#objects.add(new XfbWebGpuCapture(this, this.#objects, program, list, described, translation));
  }

  /** Counts of live engine objects, for leak checks (WebGPU has no pending read-backs). */
  liveObjects(): LiveObjects {
    if (this.#disposed) fail('XFB_DISPOSED', 'liveObjects(): this engine was disposed; it holds no objects');
    const o = this.#objects;
    return {
      buffers: o.count('buffer'),
      programs: o.count('program'),
      pipelines: o.count('pipeline'),
      captures: o.count('capture'),
      readbacks: 0,
      populations: 0,
    };
  }

  /** Listens to 'contextlost' ({ reason, message } of the lost device) or 'contextrestored' ({
   *  buffers: which contents each got back }, emitted by restore()). The same checks as on WebGL2. */
  on(type: 'contextlost', listener: (detail: { reason: string; message: string }) => void): this;
  on(type: 'contextrestored', listener: (detail: { buffers: RestoredWebGpuBuffer[] }) => void): this;
  on(type: 'contextlost' | 'contextrestored', listener: (detail: never) => void): this {
    this.#listeners.add(type, listener);
    return this;
  }
  /** Removes a listener given to on(); the same checks. */
  off(type: 'contextlost' | 'contextrestored', listener: (detail: never) => void): this {
    this.#listeners.remove(type, listener);
    return this;
  }

  /** After a device loss ('contextlost'): every buffer, program, pipeline and capture of the engine on
   *  `device` (the same objects), each buffer re-uploaded from its `restore` source as on WebGL2,
   *  then 'contextrestored'. Without `device`, an engine that createXfb() gave its own device
   *  requests a new one; an engine on the application's device needs the new device (from the
   *  application's adapter, with the limits of the lost one). Textures given to setTexture()
   *  belonged to the lost device: give them again.
   *  @throws XfbError XFB_DISPOSED; XFB_INVALID_ARGUMENT while the device is not lost, for a value
   *  that is no GPUDevice, the lost device itself, no device for an engine on the application's, or
   *  while another restore() requests its device. */
  async restore(device?: GPUDeviceType): Promise<void> {
    if (this.#disposed) engineDisposed();
    if (!this.#lost) invalid("restore(): the WebGPU device is not lost; call restore() after the 'contextlost' event");
    if (device === undefined && !this.#ownsDevice)
      invalid(
        "restore(): give the new GPUDevice (adapter.requestDevice()): this engine runs on the application's device",
      );
    if (device !== undefined) checkDevice(device, 'restore()');
    if (device === this.#device)
      invalid('restore(): device is the lost device; give a new one (adapter.requestDevice())');
    if (this.#restoring) invalid('restore(): a restore() is requesting a device already; await it');
    this.#restoring = true;
    let given: { device: GPUDevice; adapter: GPUAdapter | undefined };
    try {
      given = device === undefined ? await requestDevice(this.#gpu) : { device, adapter: undefined };
    } finally {
      this.#restoring = false;
    }
    if (this.#disposed) {
      if (device === undefined) given.device.destroy();
      fail('XFB_DISPOSED', 'restore(): this engine was disposed meanwhile');
    }
    this.#device = given.device;
    this.#adapter = given.adapter;
    this.#ownsDevice = device === undefined;
    this.#prefixSum = null;
    this.#lost = null;
    this.#watch(given.device);
    const objects = [...this.#objects];
    const buffers: RestoredWebGpuBuffer[] = [];
    // Adopted buffers belonged to the lost device, as their GPUBuffers: disposed (never
    // destroyed); a pipeline or capture using one is then not rebuilt (XFB_DISPOSED naming it).
    for (const o of objects) if (o instanceof XfbWebGpuBuffer && o.adopted) o.dispose();
    for (const o of objects)
      if (o instanceof XfbWebGpuBuffer && !o.adopted)
        buffers.push({
          buffer: o,
          label: o.label,
          restoredFrom: o.restoreContents(),
        });
    for (const o of objects) if (o instanceof XfbWebGpuPipeline || o instanceof XfbWebGpuCapture) o.restoreObjects();
    this.#listeners.emit('contextrestored', { buffers });
  }

  /** Destroys every GPU object of this engine (and the device, when createXfb() requested it). */
  dispose(): void {
    if (this.#disposed) return;
    this.#objects.disposeAll();
    this.#disposed = true;
    if (this.#ownsDevice) this.#device.destroy();
  }

  // Internal: what the objects call. ------------------------------------------------------------

  /** @internal */
  get gpuDevice(): GPUDevice {
    return this.#device;
  }
  /** @internal The scalar kinds of uniforms come from the module's tables. */
  get module(): WebGpuModule {
    return this.#module;
  }
  /** @internal Keeps the adapter reachable as long as the engine. */
  get adapter(): GPUAdapter | undefined {
    return this.#adapter;
  }
  /** @internal The prefix-sum module, compiled once per engine. */
  get prefixSumModule(): GPUShaderModule {
    return (this.#prefixSum ??= this.#device.createShaderModule({
      label: 'xfb prefix sum',
      code: prefixSumSource,
    }));
  }

  /** @internal XFB_DISPOSED after dispose(), XFB_CONTEXT_LOST once the device is lost (`what`: the
   *  public call, named by that message). */
  checkUsable(what?: string): void {
    if (this.#disposed) engineDisposed();
    if (this.#lost)
      fail(
        'XFB_CONTEXT_LOST',
        `${what ? `${what}: ` : ''}the WebGPU device is lost (${this.#lost.reason}: ${this.#lost.message}); call restore() (after 'contextlost')`,
      );
  }

  /** @internal Awaits a WebGPU promise. A rejection is an XfbError: xfb's own (shader compile) as it
   *  is, XFB_DISPOSED when the engine was disposed meanwhile, else XFB_CONTEXT_LOST: mapAsync rejects
   *  (AbortError) before device.lost resolves, and with xfb's staging buffers untouched only a lost
   *  or destroyed device rejects it. */
  settle = async <T>(promise: Promise<T>, what: string): Promise<T> => {
    try {
      return await promise;
    } catch (e) {
      if (e instanceof XfbError) throw e;
      if (this.#disposed) fail('XFB_DISPOSED', `${what}: this engine was disposed meanwhile`);
      const cause = this.#lost
        ? `${this.#lost.reason}: ${this.#lost.message}`
        : `${(e as Error)?.name}: ${(e as Error)?.message}`;
      fail(
        'XFB_CONTEXT_LOST',
        `${what}: the WebGPU device was lost meanwhile (${cause}); call restore() (after 'contextlost')`,
      );
    }
  };

  /** @internal The planner in wasm: plan + WGSL for a role list (undefined: the default roles). */
  translate(source: string, options: CheckedProgramOptions | object, entries?: TranslationEntries) {
    const translation = this.#module.wgsl(source, options, entries);
    if (translation instanceof XfbError) throw translation;
    return translation;
  }

  /** @internal A geometry program's WGSL (Module.wgslGeometry) for a role list (undefined: the default roles). */
  translateGeometry(
    source: string,
    geometry: string,
    options: object,
    entries?: TranslationEntries,
  ): GeometryTranslation {
    const t = this.#module.wgslGeometry(source, geometry, options, entries);
    if (t instanceof XfbError) throw t;
    return t;
  }

  /** @internal The gather translation of `program` over a capture's role list (`base`: a session
   *  part's program, checked against the capture's). */
  translateCapture(
    program: XfbWebGpuProgram,
    entries: TranslationEntries,
    base?: CaptureBase,
    vertexCount?: number,
  ): Translation {
    const t = this.#module.wgslCapture(
      program.source,
      {
        ...program.options,
        workGroupSize: this.#workGroupSize(),
        ...(vertexCount !== undefined ? { vertexCount } : {}),
      },
      entries,
      base,
    );
    if (t instanceof XfbError) throw t;
    return t;
  }

  /** The storage buffers a translation binds (inputs, outputs, a scan's counts and firsts, a
   *  capture's source list) within the device's maxStorageBuffersPerShaderStage. */
  #checkStorageBuffers(t: Translation, what: string): void {
    const kernels = 'geometry' in t ? (t as GeometryTranslation).geometry.storageBuffers : 0;
    const storage = Math.max(
      kernels, // a geometry capture's count or write kernel; the rest: its vertex pass, or the program's pass
      t.readBinding.filter((b) => b >= 0).length +
        t.writeBinding.filter((b) => b >= 0).length +
        2 * t.budgets.length +
        (t.sourceBinding !== undefined && t.sourceBinding >= 0 ? 1 : 0),
    );
    const max = this.#device.limits.maxStorageBuffersPerShaderStage;
    if (storage > max)
      fail(
        'XFB_UNSUPPORTED',
        `${what}: ${storage} storage buffers exceed this device's maxStorageBuffersPerShaderStage (${max}); use interleaved buffers`,
      );
  }

  #workGroupSize(): number {
    const limits = this.#device.limits;
    return Math.min(WORK_GROUP_SIZE, limits.maxComputeWorkgroupSizeX, limits.maxComputeInvocationsPerWorkgroup);
  }

  #describeEntries(entries: unknown, what = 'createPipeline()'): TranslationEntries {
    if (!Array.isArray(entries)) invalid(`${what}: entries must be an array of { input?, output? }`);
    const described = entries.map((given, i) => {
      const entry = checkKeys(given, ['input', 'output'], `entries[${i}]`);
      checkDistinctPair(i, entry);
      const roles: TranslationEntries[number] = {};
      for (const role of ['input', 'output'] as const) {
        const buffer = entry[role];
        if (buffer === undefined) continue;
        checkOwn<XfbWebGpuBuffer>(buffer, 'buffer', this.#objects, `${what}: entries[${i}].${role}`, OWN_BUFFER_MAKERS);
        buffer.check();
        const { attributes, stride } = buffer.layout;
        roles[role] = { format: attributes, stride, count: buffer.count };
      }
      return roles;
    });
    checkRoleClashes(
      entries as { input?: unknown; output?: unknown }[],
      (a, b) => a === b || (a as XfbWebGpuBuffer).current === (b as XfbWebGpuBuffer).current,
    );
    return described;
  }
}
