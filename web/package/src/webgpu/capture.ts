// Primitive capture on WebGPU, with the WebGL2 engine's calls and bytes. WebGPU has no transform
// feedback, so the capture is the engine's expansion done as compute: the planner (wasm:
// Module.captureDraws) checks a draw as PrimitiveCapture::capture() does and lists the source
// vertex of every record in the order transform feedback writes them (expandPrimitives(): strips
// and fans as lists, loops closed, restarts honoured); one dispatch of the program's gather WGSL
// (Module.wgslCapture) then runs the vertex shader once per record on its source vertex and stores
// the record at its place. Nothing is written before every check passed.
//
// A session runs one dispatch per run of consecutive parts with the same program, each in its own
// submit: its uniform buffer's record range changes between runs, and WebGPU orders a queue
// write before the submits that follow it, not between the dispatches of one.
import {
  checkDraw,
  checkDrawBack,
  checkDrawSession,
  checkSession,
  drawFields,
  type DrawFields,
} from '../core/draws.js';
import { fail, invalid, XfbError } from '../core/errors.js';
import { checkKeys } from '../core/checks.js';
import { checkPipelineParts, type ObjectRegistry, XfbObjectBase } from '../core/registry.js';
import type {
  CaptureCount,
  CaptureDraw,
  CaptureRunOptions,
  GeometryCaptureCount,
  GPUBufferType,
  SessionPlan,
  StreamStatistics,
} from '../core/types.js';
import { createBindGroup, createBindGroupLayout } from './bind_groups.js';
import { compileComputePipeline, workGroupsFor } from './compile.js';
import type { WebGpuEntry, XfbWebGpu } from './engine.js';
import { GeometryCaptureRun } from './geometry_capture.js';
import { WebGpuObject } from './object.js';
import type { XfbWebGpuProgram } from './program.js';
import type { CaptureDraws, GeometryTranslation, Translation, TranslationEntries } from './wasm_module.js';
import { BufferUsage } from './flags.js';

/** One part of an append session: a draw, optionally with another program writing the same record layout. */
export type WebGpuSessionPart = CaptureDraw & { program?: XfbWebGpuProgram };

/** A render pass or render bundle encoder: what drawCaptured() and drawSession() record into. */
export interface DrawEncoder {
  /** GPURenderPassEncoder.draw() / GPURenderBundleEncoder.draw(). */
  draw(vertexCount: number, instanceCount?: number, firstVertex?: number, firstInstance?: number): void;
  /** GPURenderPassEncoder.drawIndirect(): drawCapturedStream() of a geometry capture. */
  drawIndirect?(indirectBuffer: GPUBufferType, indirectOffset: number): void;
}

/** drawCaptured() / drawSession() options on WebGPU: the render pipeline's topology decides the mode. */
export interface WebGpuDrawBackOptions {
  instances?: number;
}

// One program's gather: its translation over the capture's role list and its GPU objects.
interface Gather {
  program: XfbWebGpuProgram;
  translation: Translation;
  layout: GPUBindGroupLayout;
  pipeline: GPUComputePipeline;
  compiled: Promise<unknown>;
  uniformBuffer: GPUBuffer;
  image: Uint8Array<ArrayBuffer>;
  bindGroup: GPUBindGroup | null;
  bound: GPUBuffer[]; // the GPUBuffers the bind group names (a pipeline's swaps change them)
}

/** Primitive capture: a program run over draws of points, lines or triangles, whole primitives
 *  written to the outputs (compute passes over the planned source list; the same bytes as WebGL2). */
export class XfbWebGpuCapture extends WebGpuObject {
  readonly #program: XfbWebGpuProgram;
  readonly #entries: WebGpuEntry[];
  readonly #described: TranslationEntries;
  readonly #translation: Translation;
  readonly #gathers = new Map<XfbWebGpuProgram, Gather>();
  #source: GPUBuffer | null = null;
  #last: { count: CaptureCount } | { session: SessionPlan } | null = null;
  readonly #geometry: GeometryCaptureRun | null;

  /** @internal Use `XfbWebGpu.createCapture()`. */
  constructor(
    owner: XfbWebGpu,
    registry: ObjectRegistry,
    program: XfbWebGpuProgram,
    entries: WebGpuEntry[],
    described: TranslationEntries,
    translation: Translation,
  ) {
    super(owner, registry, 'capture');
    this.#program = program;
    this.#entries = entries;
    this.#described = described;
    this.#translation = translation;
    const geometry = 'geometry' in translation ? (translation as GeometryTranslation) : null;
    this.#geometry = geometry ? new GeometryCaptureRun(owner, program, entries, geometry) : null;
    if (!geometry) this.#gather(program, translation);
  }

  /** How primitives are expanded (always 'engine': compute passes) and the input vertices draws may refer to. */
  get info(): { expansion: 'engine'; vertexCount: number } {
    this.check();
    return { expansion: 'engine', vertexCount: this.#translation.count };
  }

  /** Resolves once the gather WGSL of every program used so far compiled.
   *  @throws XfbError XFB_SHADER_COMPILE, XFB_CONTEXT_LOST. */
  get ready(): Promise<void> {
    const all = Promise.all([...this.#gathers.values()].map((g) => g.compiled).concat(this.#geometry?.compiled ?? []));
    return this.owner.settle(all, 'ready').then(() => this.check());
  }

  /** Captures a draw: { mode, count } or { mode, indices, restartIndex? }, as on WebGL2.
   *  @throws XfbError XFB_CAPACITY (nothing written) when an output cannot hold the primitives,
   *  XFB_INVALID_ARGUMENT for a vertex or index outside the inputs. */
  capture(draw: CaptureDraw, options: CaptureRunOptions = {}): CaptureCount | GeometryCaptureCount {
    this.check('capture()');
    const d = drawFields(checkDraw(draw, 'capture()'));
    const run = checkKeys(options, ['overflow'], 'capture() options');
    if (run.overflow !== undefined && run.overflow !== 'error' && run.overflow !== 'clamp')
      invalid(`capture() options: overflow must be 'error' or 'clamp', got ${JSON.stringify(run.overflow)}`);
    this.#checkParts('capture()');
    if (this.#geometry) {
      const count = this.#geometry.capture(d, this.#translation.count, run.overflow === 'clamp');
      this.#last = { count };
      return count;
    }
    if (run.overflow !== undefined)
      fail(
        'XFB_UNSUPPORTED',
        `capture(): overflow is a geometry program's option (what its shader emits is known on the GPU only); program '${this.#program.label}' has no geometry shader, its budget is exact`,
      );
    const result = this.#plan([d], false, 0);
    const count = result.count as CaptureCount;
    this.#run([{ program: this.#program, firstRecord: 0, records: count.records }], 0, result.sources);
    this.#last = { count };
    return count;
  }

  /** Draws the last capture's records into a render pass (or bundle) whose pipeline reads the
   *  output buffers as vertex buffers: `encoder.draw(records, instances, 0, 0)`. The render
   *  pipeline's primitive topology is the mode (WebGL2's `mode` option does not exist here).
   *  @throws XfbError XFB_INVALID_ARGUMENT before any capture, after a session, for bad options. */
  drawCaptured(encoder: DrawEncoder, options: WebGpuDrawBackOptions = {}): void {
    this.check('drawCaptured()');
    const instances = drawBack(encoder, checkDrawBack(options, 'drawCaptured()'), 'drawCaptured()');
    const last = this.#last;
    if (last && 'session' in last)
      invalid('the last capture was a session (captureSession); draw it with drawSession(), whole or by part');
    if (!last) invalid('nothing was captured yet; call capture() before drawCaptured()');
    if (this.#geometry) this.#drawStream(encoder, 0, instances, 'drawCaptured()');
    else if (last.count.records) encoder.draw(last.count.records, instances, 0, 0);
  }

  /** What each vertex stream generated and wrote in the last capture() (C++ statistics(), Direct3D's
   *  SO_STATISTICS): a geometry program's from its passes' totals (a read-back), a vertex program's
   *  stream 0 from the planned count.
   *  @throws XfbError XFB_INVALID_ARGUMENT before any capture or after a session. */
  async statistics(): Promise<StreamStatistics[]> {
    this.check('statistics()');
    const last = this.#last;
    if (last && 'session' in last)
      invalid(
        'statistics(): the last capture was a session (captureSession): its ranges are planned, drawSession() draws them',
      );
    if (!last) invalid('statistics(): nothing was captured yet; call capture() before statistics()');
    if (this.#geometry) return this.#geometry.statistics();
    const c = last.count;
    return [
      {
        stream: 0,
        captured: true,
        primitivesGenerated: c.primitives,
        primitivesWritten: c.primitives,
        recordsWritten: c.records,
        overflow: false,
      },
    ];
  }

  /** Draws vertex stream `stream` of the last geometry capture without reading its count back:
   *  `encoder.drawIndirect()` of the passes' totals (the records written), `instances` written
   *  into its arguments first (C++ drawCapturedStream()). A vertex program's stream 0 is drawCaptured().
   *  @throws XfbError XFB_GEOMETRY_STREAM for a stream nothing was captured from, XFB_INVALID_ARGUMENT
   *  before any capture, for an encoder without drawIndirect (a GPURenderPassEncoder or bundle encoder). */
  drawCapturedStream(encoder: DrawEncoder, stream: number, options: WebGpuDrawBackOptions = {}): void {
    this.check('drawCapturedStream()');
    const instances = drawBack(encoder, checkDrawBack(options, 'drawCapturedStream()'), 'drawCapturedStream()');
    if (!Number.isInteger(stream) || stream < 0)
      invalid(`drawCapturedStream(): stream must be an integer >= 0, got ${String(stream)}`);
    if (!this.#geometry) {
      if (stream !== 0)
        fail(
          'XFB_GEOMETRY_STREAM',
          `drawCapturedStream(): stream ${stream}: program '${this.#program.label}' has no geometry shader, so its capture is stream 0 only`,
        );
      this.drawCaptured(encoder, options);
      return;
    }
    if (!this.#last || 'session' in this.#last)
      invalid('drawCapturedStream(): nothing was captured yet; call capture() before drawCapturedStream()');
    this.#drawStream(encoder, stream, instances, 'drawCapturedStream()');
  }

  #drawStream(encoder: DrawEncoder, stream: number, instances: number, what: string): void {
    const g = (this.#geometry as GeometryCaptureRun).translation.geometry;
    const captured = g.streams.filter((s) => s.captured).map((s) => s.stream);
    if (!captured.includes(stream))
      fail(
        'XFB_GEOMETRY_STREAM',
        `${what}: program '${this.#program.label}' captures nothing from stream ${stream}; captured streams: ${captured.join(', ')}`,
      );
    if (typeof encoder.drawIndirect !== 'function')
      invalid(
        `${what}: a geometry capture draws with drawIndirect(): give a GPURenderPassEncoder or GPURenderBundleEncoder`,
      );
    const totals = (this.#geometry as GeometryCaptureRun).totals;
    this.owner.gpuDevice.queue.writeBuffer(totals, stream * 32 + 4, new Uint32Array([instances]));
    encoder.drawIndirect(totals, stream * 32);
  }

  /** Captures several draws one after another into the outputs from record `firstRecord`
   *  (default 0; earlier records untouched), each with an optional program writing the same
   *  record layout, as on WebGL2. The whole session is checked first.
   *  @throws XfbError XFB_CAPACITY, XFB_OUTPUT_LAYOUT_MISMATCH, XFB_SEMANTIC_MISSING, XFB_INVALID_ARGUMENT: nothing written. */
  captureSession(parts: WebGpuSessionPart[], options: { firstRecord?: number } = {}): SessionPlan {
    this.check('captureSession()');
    const isProgram = (p: unknown): p is XfbWebGpuProgram => XfbObjectBase.isOwn(p, 'program', this);
    const checked = checkSession(parts, options, isProgram);
    this.#checkParts('captureSession()');
    if (this.#geometry)
      fail(
        'XFB_UNSUPPORTED',
        `captureSession(): program '${this.#program.label}' has a geometry shader; a session's part ranges are planned on the CPU, a geometry shader's records are known on the GPU only: capture() each draw into its own buffers`,
      );
    const programs = checked.parts.map((p, i) => {
      const program = p.program ?? this.#program;
      program.check(`captureSession(): parts[${i}]`);
      return program;
    });
    const draws = checked.parts.map((p) => p.draw);
    const firstRecord = checked.firstRecord;
    programs.forEach((program, i) => this.#partGather(program, i));
    const result = this.#plan(draws, true, firstRecord);
    const session = result.session as SessionPlan;
    const runs: Run[] = [];
    session.parts.forEach((part, i) => {
      const program = programs[i] as XfbWebGpuProgram;
      const run = runs[runs.length - 1];
      if (run && run.program === program) run.records += part.records;
      else
        runs.push({
          program,
          firstRecord: part.firstRecord,
          records: part.records,
        });
    });
    this.#run(runs, session.firstRecord, result.sources);
    this.#last = { session };
    return session;
  }

  /** Draws the last session's records, of one part ({ part }) or all of them, into a render pass
   *  (or bundle): `encoder.draw(records, instances, firstRecord, 0)` with the planned range.
   *  @throws XfbError XFB_INVALID_ARGUMENT without a session since the last capture(), for a part
   *  out of range, or for a whole session of mixed primitives. */
  drawSession(encoder: DrawEncoder, options: WebGpuDrawBackOptions & { part?: number } = {}): void {
    this.check('drawSession()');
    const o = checkDrawSession(options);
    const instances = drawBack(encoder, o, 'drawSession()');
    const part = o.part;
    const last = this.#last;
    if (!last || !('session' in last))
      invalid('no session was captured since the last capture(); call captureSession() before drawSession()');
    const parts = last.session.parts;
    let first = last.session.firstRecord;
    let records = last.session.endRecord - first;
    if (part !== undefined) {
      const p = parts[part];
      if (!p) invalid(`part ${part} does not exist; the session has ${parts.length} parts (0..${parts.length - 1})`);
      first = p.firstRecord;
      records = p.records;
    } else {
      const other = parts.findIndex((p) => p.primitive !== parts[0]?.primitive);
      if (other > 0)
        invalid(
          `drawSession(): part 0 captured ${parts[0]?.primitive} and part ${other} ${parts[other]?.primitive}; draw the session part by part`,
        );
    }
    if (records) encoder.draw(records, instances, first, 0);
  }

  /** @internal After a device loss, on the engine's new device: every gather's GPU objects again
   *  (the source list is uploaded by each capture). */
  restoreObjects(): void {
    this.#geometry?.build();
    const programs = [...this.#gathers.values()];
    this.#gathers.clear();
    this.#source = null;
    for (const g of programs) if (!g.program.disposed) this.#gather(g.program, g.translation);
  }

  protected release(): void {
    this.#geometry?.destroy();
    for (const g of this.#gathers.values()) g.uniformBuffer.destroy();
    this.#source?.destroy();
  }

  /** XFB_DISPOSED when the program or a buffer it was created with was disposed (as on WebGL2). */
  #checkParts(what: string): void {
    const buffers = this.#entries.map((e) => e.input ?? e.output).filter((b) => b !== undefined);
    checkPipelineParts([this.#program, ...buffers], what, 'capture');
  }

  /** The planner's checks and source list for `draws`: every output's stride and size as held now. */
  #plan(draws: DrawFields[], session: boolean, firstRecord: number): CaptureDraws {
    const outputs = this.#translation.outputs;
    const strides = outputs.map((o) => o.stride);
    const bytes = outputs.map((o) => this.#entries[o.entry]?.output?.byteLength ?? 0);
    const result = this.owner.module.captureDraws(draws, session, firstRecord, this.#translation.count, strides, bytes);
    if (result instanceof XfbError) throw result;
    return result;
  }

  /** A session part's program (another than the capture's): checked against the capture's, once. */
  #partGather(program: XfbWebGpuProgram, part: number): void {
    if (this.#gathers.has(program)) return;
    const base = {
      source: this.#program.source,
      options: this.#program.options,
      label: program.label,
      captureLabel: this.#program.label,
      part,
    };
    this.#gather(program, this.owner.translateCapture(program, this.#described, base));
  }

  #gather(program: XfbWebGpuProgram, translation: Translation): void {
    const device = this.owner.gpuDevice;
    const label = `${program.label} capture`;
    const layout = createBindGroupLayout(device, translation, label);
    const pipelineLayout = device.createPipelineLayout({
      bindGroupLayouts: [layout],
    });
    const { pipeline, compiled } = compileComputePipeline(
      device,
      pipelineLayout,
      translation.source,
      translation.entryPoint,
      label,
    );
    const image = new Uint8Array(translation.uniformBytes);
    const uniformBuffer = device.createBuffer({
      label: `${label} uniforms`,
      size: image.byteLength,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    this.#gathers.set(program, {
      program,
      translation,
      layout,
      pipeline,
      compiled,
      uniformBuffer,
      image,
      bindGroup: null,
      bound: [],
    });
  }

  /** Uploads the source list, then per run its uniforms and one dispatch in its own submit. */
  #run(runs: Run[], sessionFirst: number, sources: Uint32Array<ArrayBuffer>): void {
    const device = this.owner.gpuDevice;
    if (!sources.length) return;
    const source = this.#sourceFor(sources.byteLength);
    device.queue.writeBuffer(source, 0, sources);
    for (const run of runs) {
      if (!run.records) continue;
      const g = this.#gathers.get(run.program) as Gather;
      const t = g.translation;
      g.image.set(new Uint8Array(run.program.uniformBytes));
      const words = new Uint32Array(g.image.buffer);
      words[t.countOffset / 4] = run.records;
      words[(t.gatherOffset as number) / 4] = run.firstRecord;
      words[(t.gatherOffset as number) / 4 + 1] = run.firstRecord - sessionFirst;
      device.queue.writeBuffer(g.uniformBuffer, 0, g.image);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(g.pipeline);
      pass.setBindGroup(0, this.#bindGroup(g, source));
      const [x, y] = workGroupsFor(device, run.records, t.workGroupSize);
      pass.dispatchWorkgroups(x, y);
      pass.end();
      device.queue.submit([encoder.finish()]);
    }
  }

  /** The source list's buffer, grown (never shrunk) to hold `bytes`: a new GPUBuffer only then. */
  #sourceFor(bytes: number): GPUBuffer {
    if (this.#source && this.#source.size >= bytes) return this.#source;
    this.#source?.destroy();
    this.#source = this.owner.gpuDevice.createBuffer({
      label: `${this.#program.label} capture sources`,
      size: Math.max(bytes, 1024),
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
    return this.#source;
  }

  /** The gather's bind group, made again only when a buffer it names changed (the source list
   *  grew, or a pipeline swapped a state buffer this capture reads or writes). */
  #bindGroup(g: Gather, source: GPUBuffer): GPUBindGroup {
    const now = [source, ...this.#entries.map((e) => (e.input ?? e.output)?.current as GPUBuffer)];
    if (g.bindGroup && now.every((b, i) => b === g.bound[i])) return g.bindGroup;
    const bound = {
      translation: g.translation,
      entries: this.#entries,
      pairs: [],
      uniformBuffer: g.uniformBuffer,
      prefixSums: null,
      textures: new Map<string, GPUTextureView>(),
      source,
    };
    g.bindGroup = createBindGroup(this.owner.gpuDevice, g.layout, bound, 0, `${g.program.label} capture`);
    g.bound = now;
    return g.bindGroup;
  }
}

/** A run of consecutive session parts with one program: one dispatch. */
interface Run {
  program: XfbWebGpuProgram;
  firstRecord: number;
  records: number;
}

/** drawCaptured() / drawSession(): the encoder checked, and options checked as on WebGL2 but for
 *  `mode` (a render pipeline's topology is fixed); returns the instance count. */
function drawBack(encoder: unknown, options: { mode?: string; instances: number }, what: string): number {
  if (!encoder || typeof (encoder as DrawEncoder).draw !== 'function')
    invalid(`${what}: the first argument must be a GPURenderPassEncoder or GPURenderBundleEncoder`);
  if (options.mode !== undefined)
    invalid(`${what}: WebGPU draws with the render pipeline's primitive.topology; leave out mode`);
  return options.instances;
}
