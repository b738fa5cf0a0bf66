// The WebGL2 module (dist/xfb.mjs) as this package uses it: a typed wrapper of its extern "C"
// exports (web/src/engine_calls.cpp, planner_calls.cpp; the convention is core/boundary.ts), one
// method per export: arguments marshalled into the heap, the JSON result parsed, a failure thrown
// as an XfbError with the engine's code. Each export's effect on replayed steps and its rule under
// the application's transform feedback is declared once, in ENGINE_CALLS. What is read of
// Emscripten's objects survives Closure by web/src/closure_externs.js (checked by tests/web/size.mjs).
import { formatArgs, Planner, programArgs, result, withHeap, type PlannerExports } from '../core/boundary.js';
import type {
  BufferLayout,
  Capabilities,
  CaptureCount,
  EmitDesc,
  EmitReport,
  Fusion,
  LiveObjects,
  Plan,
  PipelineInfo,
  PopulationCount,
  PopulationInfo,
  SessionPlan,
  StepReport,
} from '../core/types.js';
import type { CheckedProgramOptions } from '../core/program_options.js';

import {
  CHANGES,
  DRAWS,
  MAKES_BUFFER,
  CREATES_PIPELINE,
  POLLS,
  READS,
  RESTORES,
  SETS_UNIFORM,
  STEPS,
  type CallEffect,
} from './call_effects.js';

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
  | 'writtenBindings'
  | 'framebuffer'
  | 'packBuffer'
  | 'packStore'
  | 'raster';
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
  textures: (WebGLTexture | null)[];
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

/** The values of emittedDrawSnippet()'s uniforms: xfb_emitted_totals = unit, xfb_emitted_at =
 *  (row, component, perPrimitive, 0) (C++ xfb::detail::EmittedDrawUniforms). */
export interface EmittedDrawUniforms {
  unit: number;
  row: number;
  component: number;
  perPrimitive: number;
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

/** The engine's exports (web/src/engine_calls.cpp): e is the Engine's address; each answers a status. */
export interface WebGl2Exports extends PlannerExports {
  GL: EmscriptenGl;
  _xfb_engine_create(ownsContext: boolean): number;
  _xfb_engine_delete(e: number): number;
  _xfb_capabilities(e: number): number;
  _xfb_create_buffer(
    e: number,
    t: number,
    tn: number,
    f: number,
    fn: number,
    count: number,
    p: number,
    n: number,
  ): number;
  _xfb_adopt_buffer(e: number, t: number, tn: number, f: number, fn: number, count: number, glName: number): number;
  _xfb_upload(e: number, id: number, p: number, n: number, offset: number): number;
  _xfb_gl_name(e: number, id: number): number;
  _xfb_read_async(e: number, id: number, first: number, count: number): number;
  _xfb_readback_ready(e: number, id: number): number;
  _xfb_take_readback(e: number, id: number): number;
  _xfb_create_program(
    e: number,
    source: number,
    sourceBytes: number,
    mode: number,
    modeBytes: number,
    varyings: number,
    varyingBytes: number,
    portable: boolean,
    defines: number,
    defineBytes: number,
    declaration: number,
    declarationBytes: number,
    layout: number,
    layoutCount: number,
    label: number,
    labelBytes: number,
    fragment: number,
    fragmentBytes: number,
  ): number;
  _xfb_set_uniform(
    e: number,
    id: number,
    name: number,
    nameBytes: number,
    kind: number,
    p: number,
    n: number,
    up: boolean,
  ): number;
  _xfb_program_plan(e: number, id: number): number;
  _xfb_uniforms(e: number, id: number): number;
  _xfb_create_pipeline(
    e: number,
    program: number,
    entries: number,
    n: number,
    count: number,
    q: boolean,
    f: boolean,
    b: number,
    bn: number,
    r: boolean,
    em: number,
    emn: number,
    clamp: boolean,
  ): number;
  _xfb_set_backend(e: number, id: number, b: number, bn: number): number;
  _xfb_step(e: number, id: number): number;
  _xfb_step_substeps(e: number, id: number, substeps: number): number;
  _xfb_replay_recipe(e: number, id: number): number;
  _xfb_replayed(e: number, id: number, steps: number, calls: number): number;
  _xfb_fusion(e: number, id: number): number;
  _xfb_begin_checked(e: number, id: number): number;
  _xfb_poll_checked(e: number, id: number): number;
  _xfb_poll_queries(e: number, id: number): number;
  _xfb_emitted(e: number, id: number): number;
  _xfb_emitted_draw_uniforms(
    e: number,
    id: number,
    b: number,
    bn: number,
    m: number,
    mn: number,
    readsTotal: boolean,
    p: number,
    pn: number,
  ): number;
  _xfb_draw_emitted(e: number, id: number, b: number, bn: number, m: number, mn: number): number;
  _xfb_pipeline_info(e: number, id: number): number;
  _xfb_create_capture(
    e: number,
    program: number,
    entries: number,
    n: number,
    count: number,
    x: number,
    xn: number,
  ): number;
  _xfb_capture(
    e: number,
    id: number,
    m: number,
    mn: number,
    count: number,
    p: number,
    n: number,
    restart: number,
  ): number;
  _xfb_draw_captured(e: number, id: number, m: number, mn: number, instances: number): number;
  _xfb_capture_session(
    e: number,
    id: number,
    modes: number,
    modeBytes: number,
    numbers: number,
    count: number,
    indices: number,
    indexCount: number,
    firstRecord: number,
  ): number;
  _xfb_draw_session(e: number, id: number, part: number, m: number, mn: number, instances: number): number;
  _xfb_capture_info(e: number, id: number): number;
  _xfb_create_population(
    e: number,
    program: number,
    capacity: number,
    f: number,
    fn: number,
    c: number,
    cn: number,
    clamp: boolean,
    b: number,
    bn: number,
  ): number;
  _xfb_population_info(e: number, id: number): number;
  _xfb_population_step(e: number, id: number): number;
  _xfb_population_step_checked(e: number, id: number): number;
  _xfb_population_spawn(e: number, id: number, p: number, sizes: number, fields: number): number;
  _xfb_population_count_async(e: number, id: number): number;
  _xfb_population_count_ready(e: number, id: number): number;
  _xfb_population_count_take(e: number, id: number): number;
  _xfb_population_read_async(e: number, id: number, field: number, first: number, count: number): number;
  _xfb_population_gl_name(e: number, id: number, field: number): number;
  _xfb_population_count_texture(e: number, id: number): number;
  _xfb_population_draw_uniforms(
    e: number,
    id: number,
    m: number,
    mn: number,
    readsTotal: boolean,
    p: number,
    pn: number,
  ): number;
  _xfb_population_draw(e: number, id: number, m: number, mn: number): number;
  _xfb_dispose(e: number, kind: number, id: number): number;
  _xfb_live_objects(e: number): number;
  _xfb_take_foreign_errors(e: number): number;
  _xfb_context_lost(e: number): number;
  _xfb_context_restored(e: number): number;
}

/** The WebGL2 module: the planner (core/boundary.ts) and Emscripten's GL object. */
export class WebGl2Module extends Planner<WebGl2Exports> {
  get GL(): EmscriptenGl {
    return this.raw.GL;
  }
}

/** An engine object's kind, as xfb_dispose numbers it. */
export type ObjectKind = 'buffer' | 'program' | 'pipeline' | 'capture' | 'readback' | 'population' | 'count';
const OBJECT_KINDS: readonly ObjectKind[] = [
  'buffer',
  'program',
  'pipeline',
  'capture',
  'readback',
  'population',
  'count',
];

/** A list of role entries as xfb_create_pipeline / xfb_create_capture read it: (input id, output id), 0 for none. */
const entryIds = (entries: readonly { input?: number; output?: number }[]): number[] =>
  entries.flatMap((e) => [e.input ?? 0, e.output ?? 0]);

/** A part of captureSession(), its buffers and program as ids. */
export interface SessionPartIds {
  mode: string;
  count: number;
  indices?: Uint32Array;
  restartIndex?: number;
  program?: number;
}

/** The engine in wasm (xfb_engine_create), one method per export of web/src/engine_calls.cpp; each
 *  answers its result or throws the engine's failure as an XfbError. */
export class WasmEngine {
  readonly #m: WebGl2Exports;
  readonly #e: number;

  /** @throws XfbError what kept the engine from starting. */
  constructor(module: WebGl2Module, ownsContext: boolean) {
    this.#m = module.raw;
    this.#e = result<number>(this.#m, this.#m._xfb_engine_create(ownsContext));
  }

  #result<T>(status: number): T {
    return result<T>(this.#m, status);
  }

  delete(): void {
    this.#m._xfb_engine_delete(this.#e);
  }
  capabilities(): Capabilities {
    return this.#result(this.#m._xfb_capabilities(this.#e));
  }
  createBuffer(layout: BufferLayout, count: number, pointer: number, bytes: number): number {
    return withHeap(this.#m, formatArgs(layout.attributes, layout.stride), ([t, tn, f, fn]) =>
      this.#result<number>(this.#m._xfb_create_buffer(this.#e, t!, tn!, f!, fn!, count, pointer, bytes)),
    );
  }
  adoptBuffer(layout: BufferLayout, count: number, name: number): number {
    return withHeap(this.#m, formatArgs(layout.attributes, layout.stride), ([t, tn, f, fn]) =>
      this.#result<number>(this.#m._xfb_adopt_buffer(this.#e, t!, tn!, f!, fn!, count, name)),
    );
  }
  createProgram(source: string, options: CheckedProgramOptions & { label: string; fragment: string }): number {
    const { args, portable } = programArgs(options);
    const texts = [source, ...args, options.label, options.fragment];
    return withHeap(this.#m, texts, ([s, sn, mo, mn, v, vn, d, dn, e, en, y, yn, l, ln, f, fn]) =>
      this.#result<number>(
        this.#m._xfb_create_program(
          this.#e,
          s!,
          sn!,
          mo!,
          mn!,
          v!,
          vn!,
          portable,
          d!,
          dn!,
          e!,
          en!,
          y!,
          yn!,
          l!,
          ln!,
          f!,
          fn!,
        ),
      ),
    );
  }
  uniforms(program: number): Record<string, DeclaredUniform> {
    return this.#result(this.#m._xfb_uniforms(this.#e, program));
  }
  createPipeline(
    program: number,
    entries: { input?: number; output?: number }[],
    options: { count?: number; queries?: boolean; fuseSubsteps?: boolean; backend?: string; rasterize?: boolean },
    emits: readonly EmitDesc[],
    overflow: 'error' | 'clamp',
  ): number {
    const emitNames = emits.flatMap((e) => [e.varying, e.count]);
    return withHeap(this.#m, [entryIds(entries), options.backend ?? 'auto', emitNames], ([p, n, b, bn, em, emn]) =>
      this.#result<number>(
        this.#m._xfb_create_pipeline(
          this.#e,
          program,
          p!,
          n!,
          options.count ?? NaN,
          options.queries ?? false,
          options.fuseSubsteps ?? true,
          b!,
          bn!,
          options.rasterize ?? false,
          em!,
          emn!,
          overflow === 'clamp',
        ),
      ),
    );
  }
  setBackend(pipeline: number, backend: string): void {
    withHeap(this.#m, [backend], ([b, bn]) => this.#result(this.#m._xfb_set_backend(this.#e, pipeline, b!, bn!)));
  }
  createCapture(
    program: number,
    entries: { input?: number; output?: number }[],
    options: { vertexCount?: number; expansion?: string },
  ): number {
    return withHeap(this.#m, [entryIds(entries), options.expansion ?? 'auto'], ([p, n, x, xn]) =>
      this.#result<number>(this.#m._xfb_create_capture(this.#e, program, p!, n!, options.vertexCount ?? NaN, x!, xn!)),
    );
  }
  takeForeignErrors(): number[] {
    return this.#result(this.#m._xfb_take_foreign_errors(this.#e));
  }
  liveObjects(): LiveObjects {
    return this.#result(this.#m._xfb_live_objects(this.#e));
  }
  contextLost(): void {
    this.#m._xfb_context_lost(this.#e);
  }
  contextRestored(): void {
    this.#result(this.#m._xfb_context_restored(this.#e));
  }
  /** Whether the object was live. */
  dispose(kind: ObjectKind, id: number): boolean {
    return this.#result(this.#m._xfb_dispose(this.#e, OBJECT_KINDS.indexOf(kind), id));
  }
  step(pipeline: number): void {
    this.#result(this.#m._xfb_step(this.#e, pipeline));
  }
  stepSubsteps(pipeline: number, substeps: number): void {
    this.#result(this.#m._xfb_step_substeps(this.#e, pipeline, substeps));
  }
  pipelineInfo(pipeline: number): PipelineInfo {
    return this.#result(this.#m._xfb_pipeline_info(this.#e, pipeline));
  }
  fusion(pipeline: number): Fusion {
    return this.#result(this.#m._xfb_fusion(this.#e, pipeline));
  }
  beginChecked(pipeline: number): void {
    this.#result(this.#m._xfb_begin_checked(this.#e, pipeline));
  }
  /** null while pending. */
  pollChecked(pipeline: number): StepReport | null {
    return this.#result(this.#m._xfb_poll_checked(this.#e, pipeline));
  }
  pollQueries(pipeline: number): StepReport[] {
    return this.#result(this.#m._xfb_poll_queries(this.#e, pipeline));
  }
  /** Per budget, the last step's totals (the fragment backend's pyramid top, read with readPixels). */
  emitted(pipeline: number): EmitReport[] {
    return this.#result(this.#m._xfb_emitted(this.#e, pipeline));
  }
  /** What the bound program's emittedDrawSnippet() uniforms get before drawEmitted() (checked as
   *  C++ Pipeline::drawEmitted() checks; `readsTotal` false: the refusal naming `program`). */
  emittedDrawUniforms(
    pipeline: number,
    budget: string,
    mode: string,
    readsTotal: boolean,
    program: string,
  ): EmittedDrawUniforms {
    return withHeap(this.#m, [budget, mode, program], ([b, bn, m, mn, p, pn]) =>
      this.#result<EmittedDrawUniforms>(
        this.#m._xfb_emitted_draw_uniforms(this.#e, pipeline, b!, bn!, m!, mn!, readsTotal, p!, pn!),
      ),
    );
  }
  /** Pipeline::drawEmitted() with the uniforms set: the pyramid's top bound, the capacity drawn. */
  drawEmitted(pipeline: number, budget: string, mode: string): void {
    withHeap(this.#m, [budget, mode], ([b, bn, m, mn]) =>
      this.#result(this.#m._xfb_draw_emitted(this.#e, pipeline, b!, bn!, m!, mn!)),
    );
  }
  replayRecipe(pipeline: number): ReplayRecipe {
    return this.#result(this.#m._xfb_replay_recipe(this.#e, pipeline));
  }
  /** `steps` steps replayed in JavaScript, `calls` WebGL calls in the last (detail::stepsReplayed). */
  replayed(pipeline: number, steps: number, calls: number): void {
    this.#result(this.#m._xfb_replayed(this.#e, pipeline, steps, calls));
  }
  glName(buffer: number): number {
    return this.#result(this.#m._xfb_gl_name(this.#e, buffer));
  }
  upload(buffer: number, pointer: number, bytes: number, offset: number): void {
    this.#result(this.#m._xfb_upload(this.#e, buffer, pointer, bytes, offset));
  }
  /** Elements [first, first + count) of the buffer, copied to a staging buffer and fenced. */
  readAsync(buffer: number, first: number, count: number): number {
    return this.#result(this.#m._xfb_read_async(this.#e, buffer, first, count));
  }
  readbackReady(readback: number): boolean {
    return this.#result(this.#m._xfb_readback_ready(this.#e, readback));
  }
  /** The bytes as a view into the wasm heap, valid until the next call (the caller copies them out). */
  takeReadback(readback: number): Uint8Array {
    const [at, bytes] = this.#result<[number, number]>(this.#m._xfb_take_readback(this.#e, readback));
    return this.#m.HEAPU8.subarray(at, at + bytes);
  }
  programPlan(program: number): Plan {
    return this.#result(this.#m._xfb_program_plan(this.#e, program));
  }
  /** kind: a ScalarKind value; `uploaded`: a replayed step gave the value to the GL program already. */
  setUniform(program: number, name: string, kind: number, pointer: number, bytes: number, uploaded: boolean): void {
    withHeap(this.#m, [name], ([s, sn]) =>
      this.#result(this.#m._xfb_set_uniform(this.#e, program, s!, sn!, kind, pointer, bytes, uploaded)),
    );
  }
  captureInfo(capture: number): { expansion: 'driver' | 'engine'; vertexCount: number } {
    return this.#result(this.#m._xfb_capture_info(this.#e, capture));
  }
  /** indices: `indexCount` 32-bit indices at `pointer` (< 0: not indexed); restart < 0: none. */
  capture(
    capture: number,
    mode: string,
    count: number,
    pointer: number,
    indexCount: number,
    restart: number,
  ): CaptureCount {
    return withHeap(this.#m, [mode], ([s, sn]) =>
      this.#result<CaptureCount>(this.#m._xfb_capture(this.#e, capture, s!, sn!, count, pointer, indexCount, restart)),
    );
  }
  drawCaptured(capture: number, mode: string, instances: number): void {
    withHeap(this.#m, [mode], ([s, sn]) =>
      this.#result(this.#m._xfb_draw_captured(this.#e, capture, s!, sn!, instances)),
    );
  }
  captureSession(capture: number, parts: SessionPartIds[], firstRecord: number): SessionPlan {
    // Per part five numbers: count, its first index in the joined indices, index count (< 0: not
    // indexed), restart index (< 0: none), program id (0: the capture's).
    const numbers: number[] = [];
    let indexCount = 0;
    for (const p of parts) {
      numbers.push(p.count, indexCount, p.indices ? p.indices.length : -1, p.restartIndex ?? -1, p.program ?? 0);
      indexCount += p.indices?.length ?? 0;
    }
    const indices = new Uint32Array(indexCount);
    let at = 0;
    for (const p of parts)
      if (p.indices) {
        indices.set(p.indices, at);
        at += p.indices.length;
      }
    const modes = parts.map((p) => p.mode);
    return withHeap(this.#m, [modes, numbers, indices], ([mo, mn, v, vn, i, n]) =>
      this.#result<SessionPlan>(this.#m._xfb_capture_session(this.#e, capture, mo!, mn!, v!, vn!, i!, n!, firstRecord)),
    );
  }
  /** fields: the state's { input, emitted } pairs (C++ PopulationOptions). */
  createPopulation(
    program: number,
    capacity: number,
    fields: readonly { input: string; emitted: string }[],
    count: string,
    overflow: 'error' | 'clamp',
    backend: string,
  ): number {
    const names = fields.flatMap((f) => [f.input, f.emitted]);
    return withHeap(this.#m, [names, count, backend], ([f, fn, c, cn, b, bn]) =>
      this.#result<number>(
        this.#m._xfb_create_population(this.#e, program, capacity, f!, fn!, c!, cn!, overflow === 'clamp', b!, bn!),
      ),
    );
  }
  populationInfo(population: number): PopulationInfo {
    return this.#result(this.#m._xfb_population_info(this.#e, population));
  }
  populationStep(population: number): void {
    this.#result(this.#m._xfb_population_step(this.#e, population));
  }
  /** Blocking: the step, then its count read back (readPixels). */
  populationStepChecked(population: number): PopulationCount {
    return this.#result(this.#m._xfb_population_step_checked(this.#e, population));
  }
  /** `bytes`: every field's records, one field after the other; `sizes`: the bytes of each. */
  populationSpawn(population: number, bytes: Uint8Array, sizes: readonly number[]): void {
    withHeap(this.#m, [bytes, sizes], ([p, , z, n]) =>
      this.#result(this.#m._xfb_population_spawn(this.#e, population, p!, z!, n!)),
    );
  }
  populationCountAsync(population: number): number {
    return this.#result(this.#m._xfb_population_count_async(this.#e, population));
  }
  populationCountReady(request: number): boolean {
    return this.#result(this.#m._xfb_population_count_ready(this.#e, request));
  }
  populationCountTake(request: number): PopulationCount {
    return this.#result(this.#m._xfb_population_count_take(this.#e, request));
  }
  /** Elements [first, first + count) of a field's current state, as readAsync() (takeReadback()). */
  populationReadAsync(population: number, field: number, first: number, count: number): number {
    return this.#result(this.#m._xfb_population_read_async(this.#e, population, field, first, count));
  }
  populationGlName(population: number, field: number): number {
    return this.#result(this.#m._xfb_population_gl_name(this.#e, population, field));
  }
  populationCountTexture(population: number): number {
    return this.#result(this.#m._xfb_population_count_texture(this.#e, population));
  }
  /** As emittedDrawUniforms(), for Population::draw() on the fragment backend. */
  populationDrawUniforms(population: number, mode: string, readsTotal: boolean, program: string): EmittedDrawUniforms {
    return withHeap(this.#m, [mode, program], ([m, mn, p, pn]) =>
      this.#result<EmittedDrawUniforms>(
        this.#m._xfb_population_draw_uniforms(this.#e, population, m!, mn!, readsTotal, p!, pn!),
      ),
    );
  }
  populationDraw(population: number, mode: string): void {
    withHeap(this.#m, [mode], ([m, mn]) => this.#result(this.#m._xfb_population_draw(this.#e, population, m!, mn!)));
  }
  /** part < 0: the whole session. */
  drawSession(capture: number, part: number, mode: string, instances: number): void {
    withHeap(this.#m, [mode], ([s, sn]) =>
      this.#result(this.#m._xfb_draw_session(this.#e, capture, part, s!, sn!, instances)),
    );
  }
}

/** A method of the engine that the driver calls through Xfb.call(). */
export type EngineCall = Exclude<keyof WasmEngine, 'delete' | 'dispose' | 'contextLost' | 'liveObjects'>;

/** Each export's effect (webgl2/call_effects.ts), declared once: Xfb.call() applies it. delete,
 *  dispose, contextLost and liveObjects are the driver's own bookkeeping (dispose(), release(), a
 *  context loss, leak checks), called without a context or while it is lost; setUniform and
 *  replayed are also called directly, before another call, to give wasm what it must learn. */
export const ENGINE_CALLS = {
  capabilities: READS,
  createBuffer: MAKES_BUFFER,
  adoptBuffer: MAKES_BUFFER,
  createProgram: CHANGES,
  uniforms: READS,
  createPipeline: CREATES_PIPELINE,
  // Another backend: the recipe of a replayed step changes (the fragment backend has none).
  setBackend: CREATES_PIPELINE,
  createCapture: CHANGES,
  takeForeignErrors: READS,
  contextRestored: RESTORES,
  step: STEPS,
  stepSubsteps: CHANGES,
  pipelineInfo: READS,
  fusion: READS,
  beginChecked: CHANGES,
  pollChecked: POLLS,
  pollQueries: POLLS,
  emitted: READS,
  emittedDrawUniforms: READS,
  drawEmitted: DRAWS,
  replayRecipe: READS,
  replayed: READS,
  glName: READS,
  upload: CHANGES,
  readAsync: CHANGES,
  readbackReady: READS,
  takeReadback: CHANGES,
  programPlan: READS,
  setUniform: SETS_UNIFORM,
  captureInfo: READS,
  capture: CHANGES,
  drawCaptured: POLLS,
  captureSession: CHANGES,
  drawSession: POLLS,
  createPopulation: CHANGES,
  populationInfo: READS,
  populationStep: CHANGES,
  populationStepChecked: CHANGES,
  populationSpawn: CHANGES,
  populationCountAsync: CHANGES,
  populationCountReady: READS,
  populationCountTake: CHANGES,
  populationReadAsync: CHANGES,
  populationGlName: READS,
  populationCountTexture: READS,
  populationDrawUniforms: READS,
  populationDraw: DRAWS,
} as const satisfies Record<EngineCall, CallEffect>;
