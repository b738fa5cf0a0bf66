// Types of the xfb npm package (index.js).

/** Every failure: a stable code (e.g. 'XFB_SEPARATE_COMPONENTS', 'XFB_CONTEXT_LOST') and the message. */
export class XfbError extends Error {
  readonly name: 'XfbError';
  readonly code: string;
  /** The message without the code prefix. */
  readonly detail: string;
}

export type Semantic = `ATTR${number}` | 'POSITION' | 'NORMAL' | 'TANGENT' | 'BLENDWEIGHT' | 'BLENDINDICES' | 'COLOR' | `TEXCOORD${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7}`;
export type ComponentType = 'float32' | 'int32' | 'uint32';

/** One attribute of an interleaved vertex format. Offsets default to packed; components to 4. */
export interface VertexAttribute {
  semantic: Semantic;
  type?: ComponentType;
  components?: number;
  offset?: number;
}

export interface BufferLayout {
  stride: number;
  attributes: Required<VertexAttribute>[];
}

export interface BufferDescription {
  format: VertexAttribute[];
  /** count x stride must stay within WebGL2's 2^31-1 bytes per buffer (XFB_BUFFER_TOO_LARGE, nothing created). */
  count: number;
  /** Float32Array / Int32Array / Uint32Array matching a homogeneous format, or an ArrayBuffer; count x stride bytes. */
  data?: ArrayBufferView | ArrayBuffer;
  /** What is re-uploaded after a context loss: the last read() (default), the initial data, or nothing. */
  restore?: 'last-readback' | 'initial' | 'none';
  label?: string;
}

export interface ProgramDescription {
  /** A GLSL ES 3.00 (or 1.00) vertex shader: the simulation. */
  source: string;
  mode?: 'interleaved' | 'separate';
  /** Outputs to capture, in buffer order; default: every `out_*` output in declaration order. */
  varyings?: string[];
  /** Macro values: strings, finite numbers or booleans (objects, arrays, null: XFB_INVALID_ARGUMENT). */
  defines?: Record<string, string | number | boolean>;
  /** Enforce 4 components per varying in separate mode (default true). */
  portable?: boolean;
  label?: string;
}

/** The same JSON as the xfb-inspect tool prints (engine/tools/README.md). */
export interface Plan {
  version: number;
  es: boolean;
  mode: 'interleaved' | 'separate';
  attributes: { name: string; type: string; array_size: number; semantic: string; location: number; slots: string[]; components: number; explicit_location: boolean; line: number }[];
  varyings: { name: string; type: string; array_size: number; components: number; bytes: number }[];
  buffers: { binding: number; stride: number; fields: { varying: string; offset: number; components: number; type: ComponentType }[] }[];
}

export interface StepReport {
  step: number;
  written: number;
  expected: number;
  /** WebGPU pipelines with emitted outputs: per budget, the step's totals. */
  emitted?: EmitReport[];
}

/** A variable-count output (WebGPU; C++ PipelineOptions::emits / EmitDesc): `varying` is an
 *  output array `T name[maxRecords]`, `count` an int or uint output saying how many records
 *  the element emits (its budget; outputs naming the same count share it). One {output}
 *  entry each, after the captured ones, in this order. */
export interface EmitDesc {
  varying: string;
  count: string;
}

/** One budget after a step: records requested, written (min(requested, capacity)), capacity. */
export interface EmitReport {
  budget: string;
  requested: number;
  written: number;
  capacity: number;
}

export interface WebGpuPipelineOptions {
  count?: number;
  queries?: boolean;
  emits?: EmitDesc[];
  /** Records past a budget's capacity are never written. 'error' (default): stepChecked()
   *  rejects with XFB_CAPACITY and does not swap; 'clamp': it swaps and reports both numbers. */
  overflow?: 'error' | 'clamp';
  /** step(k > 1) of an element-local simulation runs one compute pass that loops the k
   *  substeps (fusion()); false: always k dispatches. Default true. */
  fuseSubsteps?: boolean;
}

/** An entry of the role list: {input, output} state (swapped each step), {input} constants, {output} write-only. */
export interface Entry {
  input?: XfbBuffer;
  output?: XfbBuffer;
}

export interface Capabilities {
  version: string;
  renderer: string;
  es: boolean;
  compute: boolean;
  limits: { maxVertexAttribs: number; maxSeparateComponents: number; maxSeparateAttribs: number; maxInterleavedComponents: number; maxVaryingVectors: number };
}

export class XfbBuffer {
  /** The WebGLBuffer holding the latest data; after a step of a state pair it is the other buffer. */
  readonly glBuffer: WebGLBuffer;
  readonly layout: BufferLayout;
  readonly count: number;
  readonly byteLength: number;
  readonly disposed: boolean;
  /** true for a buffer adopted with Xfb.adoptBuffer(): xfb never deletes it. */
  readonly adopted: boolean;
  label: string;
  upload(data: ArrayBufferView | ArrayBuffer, options?: { offset?: number }): void;
  /** Resolves once the GPU finished writing; polls a fence across frames, never blocks. */
  read(): Promise<Float32Array | Int32Array | Uint32Array | Uint8Array>;
  dispose(): void;
}

export class XfbProgram {
  readonly plan: Plan;
  readonly disposed: boolean;
  /** int/uint/bool/sampler uniforms take integers in their range (int32, uint32): anything else is
   *  XFB_UNIFORM_TYPE, never wrapped or truncated. */
  setUniform(name: string, value: number | ArrayLike<number>): void;
  dispose(): void;
}

export class XfbPipeline {
  readonly count: number;
  readonly info: { count: number; steps: number; backend: string; outputs: { entry: number; binding: number; stride: number }[] };
  readonly disposed: boolean;
  /** One transform-feedback pass (9 WebGL calls); swaps every state pair. step(k): k substeps,
   *  one pass when fusion().fused (a `uniform int xfb_substep;` holds the substep index). */
  step(substeps?: number): void;
  /** How the next step() runs: replayed from JavaScript (the steady step's WebGL calls, named by
   *  the engine after a step ran in wasm), or through the engine, with the reason (queries, a
   *  buffer another pipeline uses, the first step or a call since that may change the step). */
  readonly stepPath: { replayed: true } | { replayed: false; reason: string };
  /** Whether step(k > 1) fuses its substeps into one pass, and why not. */
  fusion(): { fused: boolean; reason: string };
  /** Resolves with the report once PRIMITIVES_WRITTEN is read; rejects with XFB_SHORT_WRITE, not swapped. */
  stepChecked(): Promise<StepReport>;
  /** With { queries: true }: reports of earlier steps whose queries are available. */
  pollQueries(): StepReport[];
  dispose(): void;
}

export type DrawMode = 'points' | 'lines' | 'line_strip' | 'line_loop' | 'triangles' | 'triangle_strip' | 'triangle_fan';

/** A draw to capture: `count` vertices, or an index list (restartIndex defaults to the index type's maximum; null: none). */
export type CaptureDraw =
  | { mode: DrawMode; count: number; indices?: never; restartIndex?: never }
  | { mode: DrawMode; indices: Uint8Array | Uint16Array | Uint32Array | number[]; restartIndex?: number | null; count?: never };

/** What a draw wrote: strips, loops and fans are captured as whole primitives (a 4-vertex strip: 2 triangles, 6 records). */
export interface CaptureCount {
  primitive: 'points' | 'lines' | 'triangles';
  primitives: number;
  records: number;
  /** Per output buffer: records x stride. */
  bytes: number[];
}

/** One part of an append session: a draw, optionally with another program writing the same record layout. */
export type SessionPart = CaptureDraw & { program?: XfbProgram };

/** Where one part of a session lies in the outputs (README "Append captures"). */
export interface PartRange {
  primitive: 'points' | 'lines' | 'triangles';
  primitives: number;
  /** Its first record: the first vertex when drawing it back. */
  firstRecord: number;
  records: number;
  /** Per output buffer: firstRecord x stride. */
  firstByte: number[];
  /** Per output buffer: records x stride. */
  bytes: number[];
}

/** A session: its parts, contiguous from firstRecord to endRecord (the filled size after it). */
export interface SessionPlan {
  firstRecord: number;
  endRecord: number;
  /** Per output buffer: the size it must have (endRecord x stride). */
  endBytes: number[];
  parts: PartRange[];
}

export class XfbCapture {
  readonly info: { expansion: 'driver' | 'engine'; vertexCount: number };
  readonly disposed: boolean;
  /** Captures the draw's primitives; XFB_CAPACITY (nothing written) when an output cannot hold them. */
  capture(draw: CaptureDraw): CaptureCount;
  /** Draws the captured vertices with the bound program and vertex array, without reading anything back. */
  drawCaptured(options?: { mode?: DrawMode; instances?: number }): void;
  /** Appends the parts one after another from record firstRecord; the whole session is checked first
   *  (XFB_CAPACITY, XFB_OUTPUT_LAYOUT_MISMATCH: nothing written). */
  captureSession(parts: SessionPart[], options?: { firstRecord?: number }): SessionPlan;
  /** Draws one part of the last session, or all of it, with the bound program and vertex array, without reading anything back. */
  drawSession(options?: { part?: number; mode?: DrawMode; instances?: number }): void;
  dispose(): void;
}

export interface RestoredBuffer {
  buffer: XfbBuffer;
  label: string;
  restoredFrom: 'initial' | 'last-readback' | 'upload' | 'none';
}

export interface Xfb {
  readonly backend: 'webgl2';
  readonly gl: WebGL2RenderingContext | null;
  readonly isContextLost: boolean;
  readonly capabilities: Capabilities;
  inspect(source: string, options?: Omit<ProgramDescription, 'source' | 'label'>): Plan;
  createBuffer(description: BufferDescription): XfbBuffer;
  /** Adopts a WebGLBuffer another library owns (an engine's vertex buffer), typically as a
   *  write-only { output }; xfb never deletes it. XFB_CAPACITY when it is smaller than count x stride. */
  adoptBuffer(description: { glBuffer: WebGLBuffer; format: VertexAttribute[]; count: number; label?: string }): XfbBuffer;
  createProgram(description: ProgramDescription): XfbProgram;
  /** XFB_INVALID_ARGUMENT, nothing created, when a buffer is the output of two entries or the input of
   *  one and the output of another (WebGL2 forbids both); the message names both roles. */
  createPipeline(program: XfbProgram, entries: Entry[], options?: { count?: number; queries?: boolean; fuseSubsteps?: boolean }): XfbPipeline;
  /** step() of each pipeline in order; the replayed ones share one save/restore of the
   *  application's WebGL state instead of one each (README "Sharing a context"). */
  steps(pipelines: XfbPipeline[]): void;
  /** Entries: { input } vertex buffers and { output } buffers; vertexCount when no entry has an input. */
  createCapture(program: XfbProgram, entries: Entry[], options?: { vertexCount?: number; expansion?: 'auto' | 'engine' | 'driver' }): XfbCapture;
  /** GL errors already pending when an error-checking xfb call began (raised by other code on the
   *  shared context): kept, oldest first, and cleared by this call. */
  takeForeignGlErrors(): { code: number; name: string }[];
  /** XFB_DISPOSED after dispose(). */
  liveObjects(): { buffers: number; programs: number; pipelines: number; captures: number; readbacks: number };
  /** The type and the listener are checked at the call (XFB_INVALID_ARGUMENT). */
  on(type: 'contextlost', listener: (detail: {}) => void): this;
  on(type: 'contextrestored', listener: (detail: { buffers: RestoredBuffer[] }) => void): this;
  off(type: 'contextlost' | 'contextrestored', listener: (detail: any) => void): this;
  dispose(): void;
}

/** An engine on a canvas or on an existing WebGL2 context (to share it with your renderer).
 *  ownsContext (default false): false leaves the state engines cache as found after every call
 *  (README "Sharing a context"); true keeps the minimal 9-call step for an application that owns
 *  the context alone, leaving xfb's program and vertex array bound. */
export default function createXfb(options?: { canvas?: HTMLCanvasElement | OffscreenCanvas; gl?: WebGL2RenderingContext; contextAttributes?: WebGLContextAttributes; ownsContext?: boolean; backend?: 'webgl2' }): Promise<Xfb>;

/** For engines that wrap a WebGLBuffer in an object of their own: make(glBuffer) once per WebGLBuffer
 *  the buffer names (two for a state pair); the returned function gives the wrapper of the current one. */
export function followBuffer<T>(buffer: XfbBuffer, make: (glBuffer: WebGLBuffer) => T): () => T;

/** Runs fn() and returns its result with the WebGLBuffers created on gl meanwhile (to adopt an
 *  engine's vertex buffer without reading its private fields). */
export function createdBuffers<T>(gl: WebGL2RenderingContext, fn: () => T): { result: T; buffers: WebGLBuffer[] };
/** An engine on WebGPU: on your GPUDevice ({ device }), or on a device it requests ({ backend: 'webgpu' }; disposed with the engine). */
export default function createXfb(options: { device: GPUDeviceType; backend?: 'webgpu' } | { backend: 'webgpu' }): Promise<XfbWebGpu>;

// WebGPU types: the DOM's when @webgpu/types (or a newer lib.dom) declares them, else `object`.
type GlobalType<K extends string> = typeof globalThis extends { [key in K]: { prototype: infer T } } ? T : object;
export type GPUDeviceType = GlobalType<'GPUDevice'>;
export type GPUBufferType = GlobalType<'GPUBuffer'>;
export type GPUTextureType = GlobalType<'GPUTexture'>;
export type GPUTextureViewType = GlobalType<'GPUTextureView'>;

/** Where each uniform lives in the uniform buffer (WGSL uniform address-space rules): element e,
 *  column c, row r at offset + e * arrayStride + c * columnStride + r * 4. kind: 0 float, 1 int, 2 uint. */
export interface UniformLayout {
  bytes: number;
  uniforms: { name: string; kind: 0 | 1 | 2; columns: number; rows: number; arraySize: number; offset: number; arrayStride: number; columnStride: number }[];
}
export interface WebGpuBuffer extends Omit<XfbBuffer, 'glBuffer'> {
  /** The GPUBuffer holding the latest data (STORAGE | VERTEX | COPY_SRC | COPY_DST); after a step of a state pair, the other one. */
  readonly gpuBuffer: GPUBufferType;
  readonly glBuffer: null;
}
export interface WebGpuProgram extends XfbProgram {
  /** The WGSL compute shader with the default roles (every input in one {input}, one {output} per captured buffer). */
  readonly wgsl: string;
  readonly uniformLayout: UniformLayout;
}
export interface WebGpuEntry {
  input?: WebGpuBuffer;
  output?: WebGpuBuffer;
}
export interface WebGpuPipeline extends Omit<XfbPipeline, 'info' | 'stepPath'> {
  readonly info: XfbPipeline['info'] & { workGroupSize: number };
  /** The WGSL this pipeline runs. */
  readonly wgsl: string;
  /** Resolves once the shader module compiled; rejects with XFB_SHADER_COMPILE. */
  readonly ready: Promise<void>;
  /** The texture a sampler uniform reads with texelFetch (rebuilds the bind groups, not per step). */
  setTexture(name: string, texture: GPUTextureType | GPUTextureViewType): void;
  /** Emitted outputs: 32 bytes per budget, {written, 1, 0, 0} (drawIndirect) at 32 b,
   *  {ceil(written / workGroupSize), 1, 1} (dispatchWorkgroupsIndirect) at 32 b + 16, requested
   *  at 32 b + 28; usage STORAGE | INDIRECT | COPY_SRC. null without emitted outputs. */
  readonly emitTotalsBuffer: GPUBufferType | null;
  /** Emitted outputs: the last step's totals per budget (mapAsync; XFB_INVALID_ARGUMENT without). */
  emitted(): Promise<EmitReport[]>;
}
export interface XfbWebGpu {
  readonly backend: 'webgpu';
  readonly device: GPUDeviceType;
  readonly gl: null;
  readonly isContextLost: boolean;
  readonly capabilities: { backend: 'webgpu'; version: string; renderer: string; es: false; compute: true; limits: Record<string, number> };
  inspect(source: string, options?: Omit<ProgramDescription, 'source' | 'label'>): Plan;
  createBuffer(description: Omit<BufferDescription, 'restore'>): WebGpuBuffer;
  createProgram(description: ProgramDescription): WebGpuProgram;
  createPipeline(program: WebGpuProgram, entries: WebGpuEntry[], options?: WebGpuPipelineOptions): WebGpuPipeline;
  /** Always XFB_UNSUPPORTED: primitive capture needs transform feedback. */
  createCapture(program: WebGpuProgram, entries: WebGpuEntry[], options?: object): never;
  liveObjects(): { buffers: number; programs: number; pipelines: number; captures: number; readbacks: number };
  /** A lost device is not restored: create a new engine. */
  on(type: 'contextlost', listener: (detail: { reason: string; message: string }) => void): this;
  off(type: string, listener: (detail: any) => void): this;
  dispose(): void;
}

/** The planner alone, without WebGL (works in Node). */
export function inspect(source: string, options?: Omit<ProgramDescription, 'source' | 'label'>): Promise<Plan>;
