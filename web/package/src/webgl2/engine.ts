// The WebGL2 engine: the wasm Engine (dist/xfb.mjs) driven from JavaScript. Every argument is
// checked by core/ first; this file makes the context current, keeps replayed steps' recipes
// valid, answers context loss, and turns the engine's failures into thrown XfbErrors.
import { checkKeys, checkPipelineList } from '../core/checks.js';
import { checkAdoption, checkBufferDescription } from '../core/buffer_data.js';
import { checkCaptureOptions } from '../core/draws.js';
import { fail, invalid, XfbError } from '../core/errors.js';
import { Listeners } from '../core/events.js';
import { checkPipelineOptions } from '../core/pipeline_options.js';
import { inspectWith } from '../core/inspect.js';
import { constants } from '../core/engine_tables.js';
import { pollFor } from '../core/poll.js';
import { checkProgramDescription } from '../core/program_options.js';
import {
  checkDistinctPair,
  checkOwn,
  engineDisposed,
  ObjectRegistry,
  OWN_BUFFER_MAKERS,
  XfbObjectBase,
} from '../core/registry.js';
import type { RestoredFrom } from '../core/restore_shadow.js';
import type {
  BufferDescription,
  Capabilities,
  CaptureOptions,
  Plan,
  PipelineOptions,
  PopulationOptions,
  ProgramDescription,
  ProgramOptions,
  LiveObjects,
  VertexAttribute,
} from '../core/types.js';
import { numberKindOf } from '../core/uniform_values.js';
import type { CallEffect } from './call_effects.js';
import { AdoptedNames } from './adopted_names.js';
import { FeedbackProbe } from './feedback_probe.js';
import { UniformScratch, withHeapBytes } from './heap.js';
import { XfbBuffer } from './buffer.js';
import { XfbCapture } from './capture.js';
import { XfbPipeline } from './pipeline.js';
import { XfbPopulation } from './population.js';
import { checkPopulationOptions } from '../core/population_options.js';
import { XfbProgram } from './program.js';
import { Recipe, recipeWrites, type KeptUniform, type ReplayState, type WasmSync } from './replay.js';
import { StateGuard } from './state_guard.js';
import {
  ENGINE_CALLS,
  WasmEngine,
  type EngineCall,
  type NamedBuffer,
  type ObjectKind,
  type WebGl2Module,
} from './wasm_module.js';

/** An entry of the role list: {input, output} state (swapped each step), {input} constants, {output} write-only. */
export interface Entry {
  input?: XfbBuffer;
  output?: XfbBuffer;
}

/** What a listener of 'contextrestored' gets per buffer. */
export interface RestoredBuffer {
  buffer: XfbBuffer;
  label: string;
  restoredFrom: RestoredFrom;
}

const TRANSFORM_FEEDBACK_ACTIVE = 0x8e24;
/** How long read() and stepChecked() wait for a fence or query of a live context (a GPU hang; a
 *  browser loses the context long before this). */
const kGpuWaitMs = 60_000;

type Answer<M extends EngineCall> = ReturnType<WasmEngine[M]>;

// The public call a wasm method serves, for messages (a lost context names the call the application made).
const PUBLIC_CALLS: Readonly<Partial<Record<string, string>>> = {
  readAsync: 'read()',
  readbackReady: 'read()',
  takeReadback: 'read()',
  beginChecked: 'stepChecked()',
  pollChecked: 'stepChecked()',
  stepSubsteps: 'step()',
  replayRecipe: 'step()',
  uniforms: 'createProgram()',
  glName: 'glBuffer',
  pipelineInfo: 'info',
  captureInfo: 'info',
  programPlan: 'plan',
  takeForeignErrors: 'takeForeignGlErrors()',
};
function publicCall(method: string): string {
  return PUBLIC_CALLS[method] ?? `${method}()`;
}

const GL_ERROR_NAMES: Readonly<Record<number, string>> = {
  0x500: 'INVALID_ENUM',
  0x501: 'INVALID_VALUE',
  0x502: 'INVALID_OPERATION',
  0x505: 'OUT_OF_MEMORY',
  0x506: 'INVALID_FRAMEBUFFER_OPERATION',
  0x9242: 'CONTEXT_LOST_WEBGL',
};

/**
 * A transform-feedback engine on a WebGL2 context: buffers, programs (the simulation, a GLSL
 * vertex shader), pipelines that step it, captures of drawn primitives. Created by `createXfb()`.
 */
export class Xfb {
  readonly #module: WebGl2Module;
  readonly #engine: WasmEngine | null = null;
  readonly #gl: WebGL2RenderingContext | null;
  readonly #ownsContext: boolean;
  readonly #objects = new ObjectRegistry();
  readonly #listeners = new Listeners<XfbBuffer>();
  readonly #scratch: UniformScratch;
  #handle = 0;
  #lost = false;
  #disposed = false;
  #losses = 0; // context losses so far: a wait that sees this change lost what it waited for
  #onLost: ((event: Event) => void) | undefined;
  #onRestored: (() => void) | undefined;
  #probe: FeedbackProbe | null = null;
  #guard: StateGuard | null = null;
  // A recipe is valid while #epoch is unchanged; a refusal holds until #generation moves (a
  // pipeline created or freed, a restore). #pending: what wasm must learn before its next call.
  #epoch = 0;
  #generation = 0;
  readonly #pending = new Set<WasmSync>();
  readonly #adoptedNames: AdoptedNames;

  /** @internal Use `createXfb()`. */
  constructor(module: WebGl2Module, gl: WebGL2RenderingContext | null, ownsContext: boolean) {
    this.#module = module;
    this.#gl = gl;
    this.#ownsContext = ownsContext;
    this.#scratch = new UniformScratch(module);
    this.#adoptedNames = new AdoptedNames(module.GL);
    if (!gl) return;
    if (gl.isContextLost())
      fail(
        'XFB_CONTEXT_LOST',
        "createXfb(): the WebGL context is lost; create the engine after its 'webglcontextrestored' event",
      );
    this.#handle = module.GL.registerContext(gl, {
      majorVersion: 2,
      minorVersion: 0,
      enableExtensionsByDefault: true,
    });
    module.GL.makeContextCurrent(this.#handle);
    this.#engine = new WasmEngine(module, ownsContext); // throws what kept it from starting
    this.#probe = new FeedbackProbe(gl);
    this.#guard = new StateGuard(gl, module.GL);
    const canvas = gl.canvas as HTMLCanvasElement | OffscreenCanvas | undefined;
    if (canvas && typeof canvas.addEventListener === 'function') {
      this.#onLost = (event) => {
        event.preventDefault();
        this.#contextLost();
      };
      this.#onRestored = () => this.#contextRestored();
      canvas.addEventListener('webglcontextlost', this.#onLost);
      canvas.addEventListener('webglcontextrestored', this.#onRestored);
    }
  }

  /** Always 'webgl2'. */
  get backend(): 'webgl2' {
    return 'webgl2';
  }
  /** The GLSL (ES 3.00) to paste into the vertex shader that draws emitted records with
   *  pipeline.drawEmitted() (C++ xfb::emittedDrawSnippet()): after `#version 300 es`, it declares
   *  `uniform highp usampler2D xfb_emitted_totals`, `uniform highp ivec4 xfb_emitted_at` (set by
   *  drawEmitted()) and `vec4 xfb_emittedPosition(vec4 position)`; write
   *  `gl_Position = xfb_emittedPosition(...)`, gl_VertexID being the record's index. */
  get emittedDrawSnippet(): string {
    return constants().emittedDrawSnippet;
  }
  /** The WebGL2 context the engine draws with (null for an engine made without one). */
  get gl(): WebGL2RenderingContext | null {
    return this.#gl;
  }
  /** true between a 'contextlost' and its 'contextrestored' event. */
  get isContextLost(): boolean {
    return this.#lost;
  }
  /** The context's version, renderer and transform-feedback limits. */
  get capabilities(): Capabilities {
    return this.call('capabilities');
  }

  /** What the engine would do with a shader: attributes (ATTRn), captured varyings, buffer layout.
   *  @throws XfbError with the planner's code (e.g. XFB_SEPARATE_COMPONENTS). */
  inspect(source: string, options: ProgramOptions = {}): Plan {
    return inspectWith(this.#module, source, options);
  }

  /** A buffer of `count` elements of `format` (bufferData; initial data optional).
   *  @throws XfbError XFB_BUFFER_TOO_LARGE over 2^31-1 bytes, XFB_INVALID_ARGUMENT, XFB_FORMAT_INVALID. */
  createBuffer(description: BufferDescription): XfbBuffer {
    const d = checkBufferDescription((f, stride) => this.#module.normaliseFormat(f, stride), description);
    const id = this.withHeap(d.data, (pointer, bytes) => this.call('createBuffer', d.layout, d.count, pointer, bytes));
    const initial = d.data ? d.data.slice() : null;
    return this.#objects.add(
      new XfbBuffer(this, this.#objects, id, d.layout, d.count, d.restore, initial, d.label ?? `buffer${id}`, 0),
    );
  }

  /** Adopts a WebGLBuffer another library owns (an engine's vertex buffer) as an xfb buffer of
   *  { format, count }, typically a write-only { output } the simulation writes straight into.
   *  xfb never deletes it; after a context loss its owner recreates it: adopt the new one.
   *  @throws XfbError XFB_CAPACITY when it is smaller than count x stride. */
  adoptBuffer(description: {
    glBuffer: WebGLBuffer;
    format: VertexAttribute[];
    /** Bytes per element, as createBuffer()'s (default: the packed size). */
    stride?: number;
    count: number;
    label?: string;
  }): XfbBuffer {
    const d = checkAdoption((f, stride) => this.#module.normaliseFormat(f, stride), description, 'glBuffer');
    if (typeof WebGLBuffer === 'undefined' || !(d.handle instanceof WebGLBuffer))
      invalid('adoptBuffer(): glBuffer must be a WebGLBuffer');
    const { layout, count } = d;
    const { name, result: id } = this.#adoptedNames.adopt(d.handle as NamedBuffer, (n) =>
      this.call('adoptBuffer', layout, count, n),
    );
    return this.#objects.add(
      new XfbBuffer(this, this.#objects, id, layout, count, 'none', null, d.label ?? `adopted${id}`, name),
    );
  }

  /** Compiles and links the simulation (a GLSL ES vertex shader) with its captured varyings.
   *  @throws XfbError with the planner's or the GL compiler's code (XFB_SHADER_COMPILE, ...);
   *  XFB_GEOMETRY_UNSUPPORTED for a `geometry` shader (WebGL2 has none), before any GL call. */
  createProgram(description: ProgramDescription): XfbProgram {
    const d = checkProgramDescription(description, 'webgl2');
    const id = this.call('createProgram', d.source, {
      ...d.options,
      label: d.label,
      fragment: d.fragment ?? '',
    });
    return this.#objects.add(new XfbProgram(this, this.#objects, id, this.call('uniforms', id), d.label));
  }

  /** A pipeline stepping `program` over the role list `entries` (one VAO and transform-feedback
   *  object per ping-pong side, built once). With `emits`, the fragment backend's passes over a
   *  pyramid of counts ('auto' picks it; 'tf' is XFB_UNSUPPORTED).
   *  @throws XfbError XFB_INVALID_ARGUMENT, nothing created, when a buffer is the output of two
   *  entries or the input of one and the output of another (WebGL2 forbids both). */
  createPipeline(program: XfbProgram, entries: Entry[], options: PipelineOptions = {}): XfbPipeline {
    if (this.#disposed) engineDisposed();
    this.#checkProgram(program, 'createPipeline()');
    const o = checkPipelineOptions(options, 'webgl2');
    const written: XfbBuffer[] = [];
    const id = this.call(
      'createPipeline',
      program.id,
      this.#entries(entries, 'createPipeline()', written),
      o.common,
      o.emits,
      o.overflow,
    );
    const parts = [program, ...(entries.flatMap((e) => [e.input, e.output]).filter(Boolean) as XfbBuffer[])];
    return this.#objects.add(new XfbPipeline(this, this.#objects, id, program, written, parts, o.emits.length > 0));
  }

  /** Runs a program over draws of points, lines or triangles and captures whole primitives:
   *  entries are { input } vertex buffers and { output } buffers (one per captured buffer). */
  createCapture(program: XfbProgram, entries: Entry[], options: CaptureOptions = {}): XfbCapture {
    if (this.#disposed) engineDisposed();
    this.#checkProgram(program, 'createCapture()');
    const o = checkCaptureOptions(options);
    const id = this.call('createCapture', program.id, this.#entries(entries, 'createCapture()'), o);
    const parts = [program, ...(entries.flatMap((e) => [e.input, e.output]).filter(Boolean) as XfbBuffer[])];
    return this.#objects.add(new XfbCapture(this, this.#objects, id, parts));
  }

  /** A population of `program` (C++ xfb::Population): a state of options.capacity elements whose
   *  live count stays on the GPU, made empty (spawn() adds elements). On WebGL2 it runs on the
   *  fragment backend (docs/guide/populations.md). Needs an engine made with
   *  createXfb({ gl, populations: true }) (XFB_UNSUPPORTED otherwise). @throws XfbError the planner's refusals of the
   *  description (XFB_INVALID_ARGUMENT, XFB_UNKNOWN_VARYING, XFB_SEMANTIC_MISSING,
   *  XFB_SEMANTIC_TYPE_MISMATCH, XFB_VARYING_TYPE, XFB_BUFFER_TOO_LARGE), XFB_UNSUPPORTED ('compute'
   *  or 'tf', a capacity past MAX_TEXTURE_SIZE's planes). */
  createPopulation(program: XfbProgram, options: PopulationOptions): XfbPopulation {
    if (this.#disposed) engineDisposed();
    this.#checkProgram(program, 'createPopulation()');
    const o = checkPopulationOptions(options, 'webgl2');
    if (!('_xfb_create_population' in this.#module.raw))
      fail(
        'XFB_UNSUPPORTED',
        'createPopulation(): this engine was loaded without populations (the default module leaves them out to keep the download small); create it with createXfb({ gl, populations: true })',
      );
    const id = this.call('createPopulation', program.id, o.capacity, o.state, o.count, o.overflow, o.backend);
    return this.#objects.add(new XfbPopulation(this, this.#objects, id, [program]));
  }

  /** One step() of each pipeline, in order; the replayed ones inside one save/restore of the
   *  application's WebGL state instead of one each (README "Sharing a context"). */
  steps(pipelines: XfbPipeline[]): void {
    checkPipelineList(pipelines, (p): p is XfbPipeline => XfbObjectBase.isOwn(p, 'pipeline', this.#objects));
    for (const p of pipelines) p.checkStep('steps()');
    const owns = this.#ownsContext;
    const guard = this.#guard;
    if (!owns) this.#probe?.requireIdle('steps()');
    let saved = false;
    for (const p of pipelines) {
      const recipe = p.validRecipe;
      if (recipe) {
        if (!saved && guard && !owns) {
          guard.save(pipelines, batchWrites); // asked at each save: a wasm step may have given more recipes
          saved = true;
        }
        recipe.pass(!owns && !!guard?.rasterizerDiscard, owns ? null : (guard?.transformFeedback ?? null));
      } else {
        if (saved) guard?.restore();
        saved = false;
        p.step();
      }
    }
    if (saved) guard?.restore();
  }

  /** GL errors that were already pending when an error-checking call (creation, upload, read,
   *  capture) began: raised by other code on the shared context, so never reported as xfb's own
   *  and never dropped. Returns them (oldest first, at most 16) and clears the list. */
  takeForeignGlErrors(): { code: number; name: string }[] {
    return this.call('takeForeignErrors').map((code) => ({
      code,
      name: GL_ERROR_NAMES[code] ?? `0x${code.toString(16)}`,
    }));
  }

  /** Counts of live engine objects, for leak checks. @throws XfbError XFB_DISPOSED after dispose(). */
  liveObjects(): LiveObjects {
    if (this.#disposed) fail('XFB_DISPOSED', 'liveObjects(): this engine was disposed; it holds no objects');
    return this.#requireEngine().liveObjects();
  }

  /** Listens to 'contextlost' ({}) or 'contextrestored' ({ buffers: which contents each got back}).
   *  @throws XfbError XFB_INVALID_ARGUMENT for another event name or a listener that is not a function. */
  on(type: 'contextlost', listener: (detail: { reason?: string; message?: string }) => void): this;
  on(type: 'contextrestored', listener: (detail: { buffers: RestoredBuffer[] }) => void): this;
  on(type: 'contextlost' | 'contextrestored', listener: (detail: never) => void): this {
    this.#listeners.add(type, listener);
    return this;
  }
  /** Removes a listener given to on(); the same checks. */
  off(type: 'contextlost' | 'contextrestored', listener: (detail: never) => void): this {
    this.#listeners.remove(type, listener);
    return this;
  }

  /** Frees every GPU object of this engine and its listeners on the canvas. */
  dispose(): void {
    if (this.#disposed) return;
    this.#objects.disposeAll();
    const canvas = this.#gl?.canvas as HTMLCanvasElement | undefined;
    if (this.#onLost) canvas?.removeEventListener('webglcontextlost', this.#onLost);
    if (this.#onRestored) canvas?.removeEventListener('webglcontextrestored', this.#onRestored);
    this.#engine?.delete();
    this.#probe?.dispose();
    this.#scratch.free();
    this.#disposed = true;
  }

  // Internal: what the objects call. ------------------------------------------------------------

  /** @internal */
  get module(): WebGl2Module {
    return this.#module;
  }
  /** @internal The epoch of valid recipes. */
  get epoch(): number {
    return this.#epoch;
  }
  /** @internal */
  get generation(): number {
    return this.#generation;
  }

  /** @internal An engine call: the checks before it, the context made current, what wasm must learn
   *  given first, the recipes invalidated unless its effect (ENGINE_CALLS) keeps them, a failure thrown. */
  call<M extends EngineCall>(method: M, ...args: Parameters<WasmEngine[M]>): Answer<M> {
    const engine = this.#enter(ENGINE_CALLS[method], method);
    const run = engine[method] as (...a: Parameters<WasmEngine[M]>) => Answer<M>;
    try {
      return run.apply(engine, args);
    } catch (e) {
      this.#failed(method, e);
    }
  }

  /** @internal Polls `poll` until it answers (read()'s fence, stepChecked()'s query) across tasks with a
   *  GPU-process round trip before each poll (core/poll.ts). Never waits forever: XFB_CONTEXT_LOST as
   *  soon as the context is lost, even before or without its event reaching xfb, or was lost and
   *  restored between two polls (what was waited for died with it); XFB_GL_ERROR after kGpuWaitMs. */
  waitForGpu<T>(what: string, poll: () => T | null): Promise<T> {
    const gl = this.#gl;
    const losses = this.#losses;
    return pollFor(
      poll,
      (waited) => {
        if (this.#losses !== losses || gl?.isContextLost())
          fail(
            'XFB_CONTEXT_LOST',
            `${what}: the WebGL context was lost while it waited for the GPU; call it again after 'contextrestored'`,
          );
        if (waited > kGpuWaitMs)
          fail('XFB_GL_ERROR', `${what}: no answer from the GPU in ${kGpuWaitMs / 1000} s (a hang?); call it again`);
      },
      // Any synchronous call would do; this one reads state and changes nothing (feedback_probe.ts).
      () => gl?.getParameter(TRANSFORM_FEEDBACK_ACTIVE) as unknown,
    );
  }

  /** @internal pipeline.step(): the per-frame call, without the rest-argument dispatch of call(). */
  stepInWasm(pipeline: number): void {
    const engine = this.#enter(ENGINE_CALLS.step, 'step');
    try {
      engine.step(pipeline);
    } catch (e) {
      this.#failed('step', e);
    }
  }

  /** @internal Frees an engine object now, also while the context is lost (deleting names on a lost
   *  context is a no-op, and the object is then not re-created on restore). */
  release(kind: ObjectKind, id: number): void {
    if (this.#disposed || !this.#engine) return;
    this.#makeCurrent();
    this.#syncWasm();
    this.#epoch++;
    this.#generation++;
    this.#engine.dispose(kind, id);
  }

  /** @internal An adoption disposed: its name is forgotten with the last one (the WebGLBuffer is kept). */
  unadopt(name: number): void {
    this.#adoptedNames.release(name);
  }

  /** @internal Copies bytes into the wasm heap for the duration of `use`. */
  withHeap<T>(bytes: Uint8Array | null, use: (pointer: number, length: number) => T): T {
    return withHeapBytes(this.#module, bytes, use);
  }

  /** @internal 32-bit values in the engine's scratch block; what wasm must learn is given first (its
   *  values go through this block too). `kind`: a ScalarKind value. */
  withValues<T>(values: readonly number[], kind: number, use: (pointer: number, bytes: number) => T): T {
    this.#syncWasm();
    return this.#scratch.with(values, numberKindOf(kind), use);
  }

  /** @internal A program's kept uniform values or a recipe's replays, for wasm's next call. */
  markPending(subject: WasmSync): void {
    this.#pending.add(subject);
  }

  /** @internal The replay of a pipeline after its step in wasm: its recipe, or the refusal. */
  replayState(pipeline: number, keptUniforms: Map<string, KeptUniform>, written: XfbBuffer[]): ReplayState {
    const given = this.call('replayRecipe', pipeline);
    if (given.refusal !== undefined) return { refusal: given.refusal, generation: this.#generation };
    const gl = this.#gl as WebGL2RenderingContext;
    // null (clear ARRAY_BUFFER whatever it holds) if a buffer was disposed under the pipeline.
    const glWritten = written.every((b) => !b.disposed) ? written.map((b) => b.glBuffer) : null;
    const recipe = new Recipe({
      gl,
      GL: this.#module.GL,
      pipeline,
      given,
      keptUniforms,
      numberKindOf,
      written: glWritten,
      pending: this.#pending,
      epoch: this.#epoch,
    });
    return { recipe };
  }

  /** @internal One replayed step of a recipe, inside the state guard unless the context is owned. */
  replay(recipe: Recipe): void {
    const guard = this.#guard;
    if (this.#ownsContext || !guard) return recipe.pass(false, null);
    this.#probe?.requireIdle('step()');
    guard.save(recipe, recipeWrites);
    recipe.pass(guard.rasterizerDiscard, guard.transformFeedback);
    guard.restore();
  }

  #requireEngine(): WasmEngine {
    if (!this.#engine)
      fail('XFB_UNSUPPORTED', 'this engine has no WebGL2 context: pass { canvas } or { gl } to createXfb()');
    return this.#engine;
  }

  #makeCurrent(): void {
    const GL = this.#module.GL;
    if (GL.currentContext?.handle !== this.#handle) GL.makeContextCurrent(this.#handle);
  }

  #enter(effect: CallEffect, method: string): WasmEngine {
    if (this.#disposed) engineDisposed();
    const engine = this.#requireEngine();
    if (this.#lost)
      fail(
        'XFB_CONTEXT_LOST',
        `${publicCall(method)}: the WebGL context is lost; wait for the 'contextrestored' event`,
      );
    if (effect.feedback === 'checked' || (effect.feedback === 'checked-unless-owned' && !this.#ownsContext))
      this.#probe?.requireIdle(method);
    else if (effect.feedback === 'checked-unless-paused') this.#probe?.requireIdle(method, true);
    this.#makeCurrent();
    this.#syncWasm();
    if (!effect.keepsRecipes) this.#epoch++;
    if (effect.newGeneration) this.#generation++;
    return engine;
  }

  /** A call failed (the wasm module's error, an XfbError with the engine's code: wasm_module.ts). */
  #failed(method: string, error: unknown): never {
    // Lost before the event arrived (the browser can lose a context at any call, e.g. out of GPU
    // memory): that is the cause, not whatever the failed call saw.
    if (error instanceof XfbError && this.#gl?.isContextLost())
      fail(
        'XFB_CONTEXT_LOST',
        `${publicCall(method)}: the WebGL context was lost; wait for the 'contextrestored' event`,
      );
    throw error;
  }

  #syncWasm(): void {
    if (!this.#pending.size || !this.#engine) return;
    const list = [...this.#pending];
    this.#pending.clear();
    for (const subject of list) subject.syncToWasm(this.#engine);
  }

  #checkProgram(program: unknown, what: string): asserts program is XfbProgram {
    checkOwn<XfbProgram>(program, 'program', this.#objects, `${what}: the first argument`, 'createProgram()');
  }

  // `written`, if given, receives the buffers a pass may write: outputs, and the inputs of state pairs.
  #entries(entries: unknown, what: string, written?: XfbBuffer[]): { input?: number; output?: number }[] {
    if (!Array.isArray(entries)) invalid(`${what}: entries must be an array of { input?, output? }`);
    const list = entries.map((given, i) => {
      const entry = checkKeys(given, ['input', 'output'], `entries[${i}]`);
      checkDistinctPair(i, entry);
      const ids: { input?: number; output?: number } = {};
      for (const role of ['input', 'output'] as const) {
        const buffer = entry[role];
        if (buffer === undefined) continue;
        checkOwn<XfbBuffer>(buffer, 'buffer', this.#objects, `${what}: entries[${i}].${role}`, OWN_BUFFER_MAKERS);
        ids[role] = buffer.id;
      }
      if (written && entry.output !== undefined)
        written.push(...((entry.input !== undefined ? [entry.input, entry.output] : [entry.output]) as XfbBuffer[]));
      return ids;
    });
    return list; // one buffer in two clashing roles: refused by the engine (gl/entries.cpp), in checkRoleClashes' words
  }

  #contextLost(): void {
    this.#syncWasm();
    this.#epoch++;
    this.#lost = true;
    this.#losses++;
    this.#engine?.contextLost();
    this.#listeners.emit('contextlost', {});
  }

  #contextRestored(): void {
    this.#probe?.contextRestored();
    this.#module.GL.makeContextCurrent(this.#handle);
    this.#lost = false;
    this.call('contextRestored');
    const buffers: RestoredBuffer[] = [];
    for (const o of this.#objects)
      if (o instanceof XfbBuffer)
        buffers.push({
          buffer: o,
          label: o.label,
          restoredFrom: o.restoreContents(),
        });
    this.#listeners.emit('contextrestored', { buffers });
  }
}

// Whether any pipeline of a steps() batch with a valid recipe may write `buffer`.
function batchWrites(pipelines: XfbPipeline[], buffer: WebGLBuffer): boolean {
  for (const p of pipelines) {
    const recipe = p.validRecipe;
    if (recipe !== null && recipeWrites(recipe, buffer)) return true;
  }
  return false;
}
