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
  defines?: Record<string, string | number>;
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
  limits: { maxVertexAttribs: number; maxSeparateComponents: number; maxSeparateAttribs: number; maxInterleavedComponents: number };
}

export class XfbBuffer {
  /** The WebGLBuffer holding the latest data; after a step of a state pair it is the other buffer. */
  readonly glBuffer: WebGLBuffer;
  readonly layout: BufferLayout;
  readonly count: number;
  readonly byteLength: number;
  readonly disposed: boolean;
  label: string;
  upload(data: ArrayBufferView | ArrayBuffer, options?: { offset?: number }): void;
  /** Resolves once the GPU finished writing; polls a fence across frames, never blocks. */
  read(): Promise<Float32Array | Int32Array | Uint32Array | Uint8Array>;
  dispose(): void;
}

export class XfbProgram {
  readonly plan: Plan;
  readonly disposed: boolean;
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

export class XfbCapture {
  readonly info: { expansion: 'driver' | 'engine'; vertexCount: number };
  readonly disposed: boolean;
  /** Captures the draw's primitives; XFB_CAPACITY (nothing written) when an output cannot hold them. */
  capture(draw: CaptureDraw): CaptureCount;
  /** Draws the captured vertices with the bound program and vertex array, without reading anything back. */
  drawCaptured(options?: { mode?: DrawMode; instances?: number }): void;
  dispose(): void;
}

export interface RestoredBuffer {
  buffer: XfbBuffer;
  label: string;
  restoredFrom: 'initial' | 'last-readback' | 'upload' | 'none';
}

export interface Xfb {
  readonly gl: WebGL2RenderingContext | null;
  readonly isContextLost: boolean;
  readonly capabilities: Capabilities;
  inspect(source: string, options?: Omit<ProgramDescription, 'source' | 'label'>): Plan;
  createBuffer(description: BufferDescription): XfbBuffer;
  createProgram(description: ProgramDescription): XfbProgram;
  createPipeline(program: XfbProgram, entries: Entry[], options?: { count?: number; queries?: boolean; fuseSubsteps?: boolean }): XfbPipeline;
  /** Entries: { input } vertex buffers and { output } buffers; vertexCount when no entry has an input. */
  createCapture(program: XfbProgram, entries: Entry[], options?: { vertexCount?: number; expansion?: 'auto' | 'engine' | 'driver' }): XfbCapture;
  liveObjects(): { buffers: number; programs: number; pipelines: number; captures: number; readbacks: number };
  on(type: 'contextlost', listener: (detail: {}) => void): this;
  on(type: 'contextrestored', listener: (detail: { buffers: RestoredBuffer[] }) => void): this;
  off(type: string, listener: (detail: any) => void): this;
  dispose(): void;
}

/** An engine on a canvas or on an existing WebGL2 context (to share it with your renderer). */
export default function createXfb(options?: { canvas?: HTMLCanvasElement | OffscreenCanvas; gl?: WebGL2RenderingContext; contextAttributes?: WebGLContextAttributes }): Promise<Xfb>;

/** The planner alone, without WebGL (works in Node). */
export function inspect(source: string, options?: Omit<ProgramDescription, 'source' | 'label'>): Promise<Plan>;
