// The WebGL2 module (dist/xfb.mjs, web/src/bindings.cpp) as this package uses it. What is read of
// Emscripten's objects survives Closure by web/src/closure_externs.js (checked by tests/web/size.mjs).
import type { PlannerModule } from '../core/module_loader.js';
import type { XfbError } from '../core/errors.js';
import type {
  BufferLayout,
  Capabilities,
  CaptureCount,
  Fusion,
  LiveObjects,
  Plan,
  PipelineInfo,
  SessionPlan,
  StepReport,
} from '../core/types.js';
import type { CheckedProgramOptions } from '../core/program_options.js';

/** A result of the bindings: the value, or the failure as an XfbError. */
type Result<T> = T | XfbError;

/** Emscripten's record of a WebGLProgram (the uniform location cache of its glGetUniformLocation). */
export interface EmscriptenProgram extends WebGLProgram {
  name: number;
  uniformLocsById?: Record<number, WebGLUniformLocation | number | null>;
  uniformArrayNamesById: Record<number, string>;
}

export interface NamedBuffer extends WebGLBuffer {
  name: number;
}

/** The state guard's bits, by the names the engine gives them. */
export type GuardBit =
  | 'program'
  | 'vertexArray'
  | 'arrayBuffer'
  | 'copyBuffers'
  | 'unpackBuffer'
  | 'transformFeedback'
  | 'discard'
  | 'textures'
  | 'pixelStore'
  | 'samplers'
  | 'feedbackBuffer'
  | 'writtenBindings';
/** What xfbStateGuard.save() returns: opaque, restored once. */
export type GuardToken = { readonly __guardToken: unique symbol };

/** Emscripten's GL object (library.js exposes it as Module.GL). */
export interface EmscriptenGl {
  registerContext(
    gl: WebGL2RenderingContext,
    attributes: { majorVersion: number; minorVersion: number; enableExtensionsByDefault: boolean },
  ): number;
  makeContextCurrent(handle: number): boolean;
  currentContext?: { handle: number };
  getNewId(table: unknown[]): number;
  buffers: (NamedBuffer | null)[];
  programs: EmscriptenProgram[];
  vaos: WebGLVertexArrayObject[];
  transformFeedbacks: WebGLTransformFeedback[];
  /** The engine's one state guard (engine/src/gl/state_guard_library.js; its header documents it). */
  xfbStateGuard: {
    /** The engine's StateBit values by name (XFB_GUARDED_STATE in gl/state_guard.hpp). */
    bits: Record<GuardBit, number>;
    save<S>(
      gl: WebGL2RenderingContext,
      bits: number,
      writes: (subject: S, buffer: WebGLBuffer) => boolean,
      subject: S,
    ): GuardToken;
    restore(gl: WebGL2RenderingContext, token: GuardToken): void;
  };
}

/** A uniform as the engine's replay recipe names it. */
export interface RecipeUniform {
  name: string;
  kind: number;
  components: number;
  arraySize: number;
  type: number;
  location: number;
}

/** Pipeline::recipe(): the WebGL objects of the steady step, or why it is not replayed. */
export type ReplayRecipe =
  | { refusal: string }
  | {
      refusal?: undefined;
      program: number;
      vao: number[];
      tf: number[];
      side: number;
      count: number;
      uniforms: RecipeUniform[];
    };

export interface DeclaredUniform {
  kind: number;
}

/** The embind Engine (web/src/bindings.cpp): every method answers its result or an XfbError. */
export interface WasmEngine {
  creationError(): XfbError | null;
  delete(): void;
  capabilities(): Result<Capabilities>;
  createBuffer(attributes: BufferLayout['attributes'], count: number, pointer: number, bytes: number): Result<number>;
  adoptBuffer(attributes: BufferLayout['attributes'], count: number, name: number): Result<number>;
  createProgram(source: string, options: CheckedProgramOptions & { label: string }): Result<number>;
  uniforms(program: number): Result<Record<string, DeclaredUniform>>;
  createPipeline(program: number, entries: object[], options: object): Result<number>;
  createCapture(program: number, entries: object[], options: object): Result<number>;
  takeForeignErrors(): Result<number[]>;
  liveObjects(): LiveObjects;
  contextLost(): void;
  contextRestored(): Result<void>;
  dispose(kind: string, id: number): void;
  step(pipeline: number): Result<void>;
  stepSubsteps(pipeline: number, substeps: number): Result<void>;
  pipelineInfo(pipeline: number): Result<PipelineInfo>;
  fusion(pipeline: number): Result<Fusion>;
  beginChecked(pipeline: number): Result<void>;
  pollChecked(pipeline: number): Result<StepReport | null>;
  pollQueries(pipeline: number): Result<StepReport[]>;
  replayRecipe(pipeline: number): Result<ReplayRecipe>;
  replayed(pipeline: number, steps: number, calls: number): Result<void>;
  glName(buffer: number): Result<number>;
  upload(buffer: number, pointer: number, bytes: number, offset: number): Result<void>;
  readAsync(buffer: number): Result<number>;
  readbackReady(readback: number): Result<boolean>;
  takeReadback(readback: number): Result<Uint8Array>;
  programPlan(program: number): Result<Plan>;
  setUniform(
    program: number,
    name: string,
    kind: number,
    pointer: number,
    bytes: number,
    uploaded: boolean,
  ): Result<void>;
  captureInfo(capture: number): Result<{ expansion: 'driver' | 'engine'; vertexCount: number }>;
  capture(
    capture: number,
    mode: string,
    count: number,
    pointer: number,
    indices: number,
    restart: number,
  ): Result<CaptureCount>;
  drawCaptured(capture: number, mode: string, instances: number): Result<void>;
  captureSession(capture: number, parts: object[], firstRecord: number): Result<SessionPlan>;
  drawSession(capture: number, part: number, mode: string, instances: number): Result<void>;
}

export interface WebGl2Module extends PlannerModule {
  GL: EmscriptenGl;
  Engine: new (ownsContext: boolean) => WasmEngine;
  normaliseFormat(format: object[]): Result<BufferLayout>;
  inspect(source: string, options: CheckedProgramOptions): Result<Plan>;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}
