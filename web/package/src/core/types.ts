// The public data types of both engines (what users pass and get back).
import type { Backend, CaptureMode, ComponentType, DrawMode, Expansion } from '#engine-tables';

export type { Backend, CaptureMode, ComponentType, DrawMode, ErrorCode, Expansion } from '#engine-tables';

/** An attribute's semantic: ATTRn (the n-th input in declaration order) or a standard name. */
export type Semantic =
  | `ATTR${number}`
  | 'POSITION'
  | 'NORMAL'
  | 'TANGENT'
  | 'BLENDWEIGHT'
  | 'BLENDINDICES'
  | 'COLOR'
  | `TEXCOORD${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7}`;

/** One attribute of an interleaved vertex format. Offsets default to packed; components to 4. */
export interface VertexAttribute {
  semantic: Semantic;
  type?: ComponentType;
  components?: number;
  offset?: number;
}

/** A format as the engine normalised it: every attribute complete, offsets packed. */
export interface BufferLayout {
  stride: number;
  attributes: Required<VertexAttribute>[];
}

/** What a buffer restores after a WebGL context or WebGPU device loss: the last read() (default), the initial data, or nothing. */
export type RestoreSource = 'last-readback' | 'initial' | 'none';

/** createBuffer()'s description. */
export interface BufferDescription {
  format: VertexAttribute[];
  /** Bytes per element: a multiple of 4 covering every attribute (default: the packed size). Gaps
   *  and padding past the last attribute, e.g. to hold a declared capture layout's stride
   *  (ProgramOptions.strides, xfb_stride): XFB_FORMAT_INVALID when it does not fit the format. */
  stride?: number;
  /** count x stride must stay within 2^31-1 bytes per buffer (XFB_BUFFER_TOO_LARGE, nothing created). */
  count: number;
  /** Float32Array / Int32Array / Uint32Array matching a homogeneous format, or an ArrayBuffer; count x stride bytes. */
  data?: ArrayBufferView | ArrayBuffer;
  /** What is re-uploaded after a context loss (WebGL2) or by restore() after a device loss (WebGPU). */
  restore?: RestoreSource;
  label?: string;
}

/** One entry of a declared capture layout, as Direct3D's stream-output declaration states it
 *  (D3D11_SO_DECLARATION_ENTRY, stream 0): what is captured (`varying`, or `semantic` +
 *  `semanticIndex`), its components (StartComponent, ComponentCount) and the buffer (OutputSlot).
 *  Entries of one buffer are packed in their order; `{ skip: N }` leaves N 32-bit words unwritten
 *  (a NULL SemanticName). C++: xfb::DeclaredEntry. */
export interface DeclarationEntry {
  /** An output, an element `name[i]`, gl_Position or gl_PointSize. */
  varying?: string;
  /** Instead of `varying`: SV_Position (gl_Position), POSITION, NORMAL, TANGENT, BLENDWEIGHT,
   *  BLENDINDICES, COLOR or TEXCOORD (with semanticIndex 0..7), captured from out_position,
   *  out_normal, ..., out_texCoord0..7. */
  semantic?: string;
  /** SemanticIndex: TEXCOORD with semanticIndex 2 is out_texCoord2 (default 0). Only with `semantic`. */
  semanticIndex?: number;
  /** `[start, count]`: the varying's components captured, flattened (a matrix column after column);
   *  count 0 up to its end. Default [0, 0]: the whole varying. */
  components?: [start: number, count: number];
  /** A gap of this many 32-bit words instead of a varying (only `buffer` beside it). */
  skip?: number;
  /** OutputSlot: the transform-feedback buffer, numbered from 0 without holes (default 0). */
  buffer?: number;
}

/** Program and inspect() options. */
export interface ProgramOptions {
  mode?: CaptureMode;
  /** Outputs to capture, in buffer order; default: every `out_*` output in declaration order. */
  varyings?: string[];
  /** Macro values: strings, finite numbers or booleans (objects, arrays, null: XFB_INVALID_ARGUMENT). */
  defines?: Record<string, string | number | boolean>;
  /** Enforce 4 components per varying in separate mode (default true). */
  portable?: boolean;
  /** A declared capture layout (interleaved mode), instead of `varyings`: see DeclarationEntry.
   *  The shader's own `layout(xfb_buffer, xfb_offset, xfb_stride)` qualifiers and
   *  `gl_SkipComponents1..4` / `gl_NextBuffer` in `varyings` declare a layout too; one way at a
   *  time (XFB_LAYOUT_CONFLICT). The planner's rules: XFB_LAYOUT_OFFSET, _OVERLAP, _STRIDE,
   *  _BUFFER, _COMPONENTS, _CONFLICT. */
  declaration?: DeclarationEntry[];
  /** Bytes per element of each buffer of a declaration or a gl_SkipComponents list (0: the
   *  extent of its fields): a multiple of 4, at least the extent (XFB_LAYOUT_STRIDE). */
  strides?: number[];
}

export interface ProgramDescription extends ProgramOptions {
  /** A GLSL ES 3.00 (or 1.00) vertex shader: the simulation. */
  source: string;
  /** A geometry shader after the vertex shader (C++ ProgramDesc::geometry). The WebGPU engine runs
   *  it as compute passes (createCapture(): the bytes of the GL's capture, per vertex stream);
   *  WebGL2 refuses it with XFB_GEOMETRY_UNSUPPORTED, the message saying where it runs
   *  (docs/guide/geometry.md); a non-string or '' is XFB_INVALID_ARGUMENT. */
  geometry?: string;
  /** A GLSL ES 3.00 fragment shader (C++ ProgramDesc::fragment) drawing a pipeline's elements
   *  when it rasterizes (createPipeline(..., { rasterize: true }), WebGL2); its inputs are the
   *  vertex shader's outputs. A non-string or '' is XFB_INVALID_ARGUMENT; WebGPU ignores it. */
  fragment?: string;
  label?: string;
}

/** The same JSON as the xfb-inspect tool prints (engine/tools/README.md). */
export interface Plan {
  version: number;
  es: boolean;
  mode: CaptureMode;
  /** The layout was declared (xfb_* qualifiers, `declaration`, gl_SkipComponents / gl_NextBuffer):
   *  a buffer's fields may leave gaps and a stride over their extent, and a field may be part of
   *  its varying (first_component, components). */
  declared: boolean;
  attributes: {
    name: string;
    type: string;
    array_size: number;
    semantic: string;
    location: number;
    slots: string[];
    components: number;
    explicit_location: boolean;
    line: number;
  }[];
  varyings: { name: string; type: string; array_size: number; components: number; bytes: number }[];
  buffers: {
    binding: number;
    stride: number;
    /** first_component: the varying's component the field starts at (flattened). */
    fields: { varying: string; offset: number; components: number; first_component: number; type: ComponentType }[];
  }[];
}

/** One budget after a step: records requested, written (min(requested, capacity)), capacity. */
export interface EmitReport {
  budget: string;
  requested: number;
  written: number;
  capacity: number;
}

/** What a checked step wrote: records written and expected (equal unless the step was short). */
export interface StepReport {
  step: number;
  written: number;
  expected: number;
  /** Pipelines with emitted outputs: per budget, the step's totals. */
  emitted?: EmitReport[];
}

/** A variable-count output (C++ PipelineOptions::emits / EmitDesc): `varying` is an
 *  output array `T name[maxRecords]`, `count` an int or uint output saying how many records
 *  the element emits (its budget; outputs naming the same count share it). One {output}
 *  entry each, after the captured ones, in this order. */
export interface EmitDesc {
  varying: string;
  count: string;
}

/** createPipeline() options on WebGL2. */
export interface PipelineOptions {
  count?: number;
  /** How a step runs (C++ xfb::Backend). WebGL2: 'auto' (default) times 'tf' and 'fragment' at
   *  the first step, once per context and shape, and keeps the faster (info.backend is 'auto'
   *  until then; info.backendReason says why; with queries it keeps 'tf'); 'tf' transform feedback; 'fragment' the same
   *  simulation as fragment shaders, one fragment per element, with the state in RGBA32UI
   *  textures between steps and written back into the buffers when they are read, used by
   *  another backend or taken with glBuffer (faster where fragments run in parallel and
   *  vertices less so: SwiftShader, some mobile GPUs);
   *  'compute' is XFB_UNSUPPORTED (WebGL2 has no compute shaders). WebGPU: 'compute' and 'auto'
   *  (every step is a compute pass); 'tf' and 'fragment' are XFB_UNSUPPORTED. */
  backend?: Backend;
  /** A PRIMITIVES_WRITTEN query per step, read by pollQueries(). */
  queries?: boolean;
  /** step(k > 1) of an element-local simulation runs one pass that loops the k substeps
   *  (fusion()); false: always k passes. Default true. */
  fuseSubsteps?: boolean;
  /** Keep the rasterizer on in every step (C++ PipelineOptions::rasterize; WebGL2): the elements
   *  are also drawn as points (gl_Position, gl_PointSize) with the program's `fragment` shader
   *  into the framebuffer, viewport and blend state you set, while the step captures the state.
   *  'tf' only ('auto' keeps it; 'fragment' is XFB_UNSUPPORTED); a program without `fragment` is
   *  XFB_INVALID_ARGUMENT; step(k) draws once, in its last pass. WebGPU: XFB_UNSUPPORTED. */
  rasterize?: boolean;
  /** Variable-count outputs, written in input order: WebGPU as compute passes; WebGL2 as the
   *  fragment backend's passes over a pyramid of counts ('auto' picks it, 'tf' is
   *  XFB_UNSUPPORTED), the totals kept on the GPU (emitted() reads them). */
  emits?: EmitDesc[];
  /** Records past a budget's capacity are never written. 'error' (default): stepChecked()
   *  rejects with XFB_CAPACITY and does not swap; 'clamp': it swaps and reports both numbers. */
  overflow?: 'error' | 'clamp';
}

/** createPipeline() options on WebGPU (the same as WebGL2's). */
export type WebGpuPipelineOptions = PipelineOptions;

/** One field of a population's state (C++ xfb::PopulationField): the shader input an element
 *  reads it from (`in vec4 a_p;`) and the emitted output array of the same type that writes its
 *  next records (`out vec4 emit_p[4];`). */
export interface PopulationField {
  input: string;
  emitted: string;
}

/** createPopulation() options (C++ xfb::PopulationOptions). */
export interface PopulationOptions {
  /** Elements the state holds (each field has two buffers of `capacity` records). > 0. */
  capacity: number;
  /** The fields of the state: every shader input in exactly one field. */
  state: PopulationField[];
  /** The int or uint output saying how many records of the next state an element writes,
   *  clamped to 0..the arrays' length: 0 dies, 1 lives on, k becomes k elements. */
  count: string;
  /** Records past the capacity are dropped (the first ones, in the stable order, are kept) and
   *  counted. 'error' (default): stepChecked() throws XFB_CAPACITY for them; 'clamp': never. */
  overflow?: 'error' | 'clamp';
  /** WebGL2: 'auto' (default) and 'fragment' run the fragment backend's passes over the capacity,
   *  masked by the live count on the GPU; 'compute' and 'tf' are XFB_UNSUPPORTED. */
  backend?: Backend;
}

/** A population's live count and its history (C++ xfb::PopulationCount). */
export interface PopulationCount {
  /** Elements of the current state. */
  live: number;
  capacity: number;
  /** What the last step's elements asked for, or after a spawn the live elements plus the spawned records. */
  requested: number;
  /** Records dropped past the capacity since the population was made (saturates at 2^32 - 1). */
  dropped: number;
  /** Records dropped since the last checked step (what stepChecked() refuses under 'error'). */
  droppedUnchecked: number;
}

/** What the engine made of a population: its backend and each field's buffer layout. */
export interface PopulationInfo {
  backend: string;
  capacity: number;
  steps: number;
  /** WebGL calls the last step or spawn made. */
  glCalls: number;
  fields: { input: string; emitted: string; layout: BufferLayout }[];
}

/** createCapture() options (WebGL2). */
export interface CaptureOptions {
  /** The vertex count when no entry has an input. */
  vertexCount?: number;
  expansion?: Expansion;
}

/** A WebGL2 engine's context: version, renderer and the transform-feedback limits it checks against. */
export interface Capabilities {
  version: string;
  renderer: string;
  es: boolean;
  compute: boolean;
  limits: {
    maxVertexAttribs: number;
    maxSeparateComponents: number;
    maxSeparateAttribs: number;
    maxInterleavedComponents: number;
    maxVaryingVectors: number;
  };
}

/** A WebGPU engine's device: the limits that decide what fits. */
export interface WebGpuCapabilities {
  backend: 'webgpu';
  version: string;
  renderer: string;
  es: false;
  compute: true;
  limits: Record<string, number>;
}

/** A pipeline's elements, steps taken, backend and output buffers. */
export interface PipelineInfo {
  count: number;
  steps: number;
  backend: string;
  /** Why this backend: 'requested', or Auto's measured figures. */
  backendReason: string;
  outputs: { entry: number; binding: number; stride: number }[];
}

/** How the next step() runs: replayed from JavaScript, or through the engine with the reason. */
export type StepPath = { replayed: true } | { replayed: false; reason: string };

/** Whether step(k > 1) runs its k substeps in one pass, and why not (the planner's answer). */
export interface Fusion {
  fused: boolean;
  reason: string;
}

/** A draw to capture: `count` vertices, or an index list (restartIndex defaults to the index type's maximum; null: none). */
export type CaptureDraw =
  | { mode: DrawMode; count: number; indices?: never; restartIndex?: never }
  | {
      mode: DrawMode;
      indices: Uint8Array | Uint16Array | Uint32Array | number[];
      restartIndex?: number | null;
      count?: never;
    };

/** What a draw wrote: strips, loops and fans are captured as whole primitives (a 4-vertex strip: 2 triangles, 6 records). */
export interface CaptureCount {
  primitive: 'points' | 'lines' | 'triangles';
  primitives: number;
  records: number;
  /** Per output buffer: records x stride. */
  bytes: number[];
}

/** What one vertex stream may receive from a geometry capture's draw (C++ StreamBudget). */
export interface StreamBudget {
  stream: number;
  primitive: 'points' | 'lines' | 'triangles';
  /** At most: input primitives x invocations x primitives an invocation. */
  primitives: number;
  records: number;
}

/** A geometry program's capture budget (C++ CaptureCount of countGeometryCapture()): upper
 *  bounds, per buffer and per stream; what was emitted is statistics(). */
export interface GeometryCaptureCount extends CaptureCount {
  /** The draw's primitives, each run `invocations` times through the geometry shader. */
  inputPrimitives: number;
  streams: StreamBudget[];
}

/** What one vertex stream received in the last capture (C++ StreamStatistics, Direct3D's SO_STATISTICS). */
export interface StreamStatistics {
  stream: number;
  /** The capture has buffers for this stream. */
  captured: boolean;
  /** What the geometry shader emitted to the stream. */
  primitivesGenerated: number;
  /** What reached the buffers (whole primitives, the first ones). */
  primitivesWritten: number;
  recordsWritten: number;
  /** A captured stream that generated more than its buffers held (overflow 'clamp'). */
  overflow: boolean;
}

/** How one capture runs (C++ CaptureRunOptions): `overflow` 'error' (default: a budget over the
 *  buffers is XFB_CAPACITY, nothing written) or 'clamp' (whole primitives that fit, statistics()
 *  says what was dropped). */
export interface CaptureRunOptions {
  overflow?: 'error' | 'clamp';
}

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

/** drawCaptured() / drawSession() options: another draw mode, an instance count (default 1). */
export interface DrawBackOptions {
  mode?: DrawMode;
  instances?: number;
}

/** drawEmitted() options: how the records are drawn, 'points' (default), 'lines' or 'triangles'
 *  (whole primitives of a list: a strip, loop or fan is XFB_UNSUPPORTED). */
export interface EmittedDrawOptions {
  mode?: DrawMode;
}

/** Counts of an engine's live objects, for leak checks. */
export interface LiveObjects {
  buffers: number;
  programs: number;
  pipelines: number;
  captures: number;
  readbacks: number;
  populations: number;
}

/** read() options: elements [first, first + count) (default: the whole buffer). */
export interface ReadOptions {
  /** The first element (default 0). */
  first?: number;
  /** How many elements (default: from `first` to the end). */
  count?: number;
}

/** The contents of a buffer: the format's type, bytes for a mixed format. */
export type BufferContents = Float32Array | Int32Array | Uint32Array | Uint8Array;

/** A uniform value: a number, an array of numbers or a typed array. */
export type UniformValue = number | ArrayLike<number>;

// WebGPU types: the DOM's when @webgpu/types (or a newer lib.dom) declares them, else `object`,
// so the package's types need no WebGPU types installed.
/** The global type named K (its prototype), or `object` where no such global is declared. */
export type GlobalType<K extends string> = typeof globalThis extends { [key in K]: { prototype: infer T } }
  ? T
  : object;
/** GPU (navigator.gpu's type) where WebGPU types are declared. */
export type GPUType = GlobalType<'GPU'>;
/** GPUDevice where WebGPU types are declared. */
export type GPUDeviceType = GlobalType<'GPUDevice'>;
/** GPUBuffer where WebGPU types are declared. */
export type GPUBufferType = GlobalType<'GPUBuffer'>;
/** GPUTexture where WebGPU types are declared. */
export type GPUTextureType = GlobalType<'GPUTexture'>;
/** GPUTextureView where WebGPU types are declared. */
export type GPUTextureViewType = GlobalType<'GPUTextureView'>;
/** GPUSampler where WebGPU types are declared. */
export type GPUSamplerType = GlobalType<'GPUSampler'>;

/** Where each uniform lives in the uniform buffer (WGSL uniform address-space rules): element e,
 *  column c, row r at offset + e * arrayStride + c * columnStride + r * 4. kind: Module.enums().scalarKinds. */
export interface UniformLayout {
  bytes: number;
  uniforms: {
    name: string;
    kind: number;
    columns: number;
    rows: number;
    arraySize: number;
    offset: number;
    arrayStride: number;
    columnStride: number;
  }[];
}
