import { checkNoCheckedStepPending, checkSubsteps } from '../core/checks.js';
import { checkEmittedDraw } from '../core/draws.js';
import { constants } from '../core/engine_tables.js';
import { checkBackendName, checkBackendOn } from '../core/pipeline_options.js';
import { checkPipelineParts, type ObjectRegistry, type XfbObjectBase } from '../core/registry.js';
import type {
  Backend,
  EmitReport,
  EmittedDrawOptions,
  Fusion,
  PipelineInfo,
  StepPath,
  StepReport,
} from '../core/types.js';
import type { XfbBuffer } from './buffer.js';
import type { Xfb } from './engine.js';
import { WebGl2Object } from './object.js';
import type { XfbProgram } from './program.js';
import type { KeptUniform, Recipe, ReplayState } from './replay.js';

/** A program stepped over a role list: one transform-feedback pass per step, state pairs swapped. */
export class XfbPipeline extends WebGl2Object {
  readonly #keptUniforms: Map<string, KeptUniform>;
  readonly #written: XfbBuffer[];
  readonly #parts: readonly XfbObjectBase[];
  readonly #emits: boolean;
  #replay: ReplayState | null = null;
  #checkedPending = false;

  /** @internal Use `Xfb.createPipeline()`. `parts`: its program and every buffer of its role list. */
  constructor(
    owner: Xfb,
    registry: ObjectRegistry,
    id: number,
    program: XfbProgram,
    written: XfbBuffer[],
    parts: readonly XfbObjectBase[],
    emits: boolean,
  ) {
    super(owner, registry, 'pipeline', id);
    this.#keptUniforms = program.keptUniforms;
    this.#written = written;
    this.#parts = parts;
    this.#emits = emits;
  }

  /** Elements, steps taken, backend and output buffers. */
  get info(): PipelineInfo {
    return this.owner.call('pipelineInfo', this.id);
  }
  /** The number of elements a step runs. */
  get count(): number {
    return this.info.count;
  }

  /** One transform-feedback pass (useProgram, bindVertexArray, bindTransformFeedback,
   *  beginTransformFeedback, drawArrays(POINTS), endTransformFeedback: 9 WebGL calls when replayed);
   *  every { input, output } pair swaps its buffers. step(k): k substeps 1..256, fused into one
   *  pass when the simulation is element-local (see fusion()).
   *  @throws XfbError XFB_INVALID_ARGUMENT for k outside 1..256, XFB_FEEDBACK_ACTIVE, XFB_CONTEXT_LOST. */
  step(substeps = 1): void {
    this.checkStep('step()');
    if (substeps !== 1) {
      this.owner.call('stepSubsteps', this.id, checkSubsteps(substeps));
      return;
    }
    const replay = this.#replay;
    const owner = this.owner;
    if (replay !== null && 'recipe' in replay && replay.recipe.epoch === owner.epoch)
      return owner.replay(replay.recipe);
    owner.stepInWasm(this.id);
    if (replay === null || !('generation' in replay) || replay.generation !== owner.generation)
      this.#replay = owner.replayState(this.id, this.#keptUniforms, this.#written);
  }

  /** @internal The recipe the next step(1) replays, or null (it goes through wasm). */
  get validRecipe(): Recipe | null {
    const replay = this.#replay;
    return replay !== null && 'recipe' in replay && replay.recipe.epoch === this.owner.epoch && !this.disposed
      ? replay.recipe
      : null;
  }

  /** How the next step() runs: replayed from JavaScript (the steady step's WebGL calls, named by
   *  the engine after a step ran in wasm), or through the engine, with the reason (queries, a
   *  buffer another pipeline uses, the first step or a call since that may change the step). */
  get stepPath(): StepPath {
    if (this.validRecipe) return { replayed: true };
    const replay = this.#replay;
    return {
      replayed: false,
      reason: replay && 'refusal' in replay ? replay.refusal : 'the first step, or a call since that may change it',
    };
  }

  /** Switches backend before the next step (C++ Pipeline::setBackend); the state stays in its
   *  buffers, nothing is uploaded. 'tf', 'fragment' or 'auto' (which measures, or reuses this
   *  context's decision for the same shader and count); info.backend and info.backendReason say
   *  which and why. A fragment pipeline's steps run through the engine (no replayed step).
   *  @throws XfbError XFB_INVALID_ARGUMENT (no such backend, a stepChecked() pending),
   *  XFB_UNSUPPORTED ('compute'; a shader the fragment backend cannot run, named), XFB_COMPUTE_TRANSLATION. */
  setBackend(backend: Backend): void {
    this.checkStep('setBackend()');
    checkBackendOn(checkBackendName(backend, 'setBackend()'), 'webgl2', 'setBackend()');
    this.owner.call('setBackend', this.id, backend);
  }

  /** Whether step(k > 1) runs its substeps in one pass, and why not. */
  fusion(): Fusion {
    return this.owner.call('fusion', this.id);
  }

  /** A step that resolves once its PRIMITIVES_WRITTEN query is read (polled across tasks, core/poll.ts):
   *  swapped and resolved with { step, written, expected }, and with emitted outputs `emitted`
   *  (the totals, as emitted() gives them).
   *  @throws XfbError XFB_SHORT_WRITE (not swapped) when fewer records were written; XFB_CAPACITY
   *  (not swapped) when an emitted budget overflowed with overflow 'error'. */
  async stepChecked(): Promise<StepReport> {
    this.checkStep('stepChecked()');
    this.#checkedPending = true;
    try {
      this.owner.call('beginChecked', this.id);
      const report = await this.owner.waitForGpu('stepChecked()', () => this.owner.call('pollChecked', this.id)); // null while pending
      return this.#emits ? { ...report, emitted: this.owner.call('emitted', this.id) } : report;
    } finally {
      this.#checkedPending = false;
    }
  }

  /** Emitted outputs: per budget the last step's { budget, requested, written, capacity }, read
   *  from the top texel of the fragment backend's pyramid of counts (one readPixels per 4 budgets;
   *  a step itself reads nothing back). Resolved at once: WebGL2 reads pixels synchronously.
   *  @throws XfbError XFB_INVALID_ARGUMENT without emitted outputs. */
  emitted(): Promise<EmitReport[]> {
    return new Promise((resolve) => {
      this.checkLive(); // a refusal rejects, as on WebGPU
      resolve(this.owner.call('emitted', this.id));
    });
  }

  /** Draws the records of budget `budget` (named by its count output) that the last step wrote,
   *  with the program and vertex array bound on the context, the total never read back (C++
   *  Pipeline::drawEmitted()). WebGL2 has no indirect draw: this draws the budget's capacity,
   *  drawArrays(mode, 0, capacity), and the bound program's vertex shader must hold
   *  `xfb.emittedDrawSnippet` and write `gl_Position = xfb_emittedPosition(...)`, which moves
   *  every vertex of a primitive ending at or past the GPU total (the top texel of the fragment
   *  backend's pyramid of counts) outside the clip volume. drawEmitted() sets the snippet's two
   *  uniforms on the bound program and binds the pyramid's top on one of xfb's texture units,
   *  whose binding it restores. 'points' (default), 'lines' or 'triangles'. Its vertex cost is
   *  the capacity, whatever the total: keep capacities near what the elements emit. No
   *  readPixels, query or wait.
   *  @throws XfbError XFB_INVALID_ARGUMENT (no emitted outputs, no such budget, an unknown mode, a
   *  bound program without the snippet), XFB_UNSUPPORTED (a strip, loop or fan: part of a
   *  primitive could lie past the total), XFB_CONTEXT_LOST. */
  drawEmitted(budget: string, options: EmittedDrawOptions = {}): void {
    this.checkLive();
    checkPipelineParts(this.#parts, 'drawEmitted()');
    const d = checkEmittedDraw(budget, options);
    const gl = this.owner.gl as WebGL2RenderingContext; // a pipeline's engine has a context
    const c = constants();
    const program = gl.getParameter(gl.CURRENT_PROGRAM) as WebGLProgram | null;
    const totals = program ? gl.getUniformLocation(program, c.emittedTotalsUniform) : null;
    const at = program ? gl.getUniformLocation(program, c.emittedAtUniform) : null;
    const name = program ? 'the bound WebGLProgram' : 'the bound program (none is bound)';
    const u = this.owner.call('emittedDrawUniforms', this.id, d.budget, d.mode, !!totals && !!at, name);
    gl.uniform1i(totals, u.unit);
    gl.uniform4i(at, u.row, u.component, u.perPrimitive, 0);
    this.owner.call('drawEmitted', this.id, d.budget, d.mode);
  }

  /** @internal Before a step (step(), stepChecked(), steps()): XFB_DISPOSED for the pipeline or one
   *  of its parts disposed, XFB_INVALID_ARGUMENT while a stepChecked() is pending. */
  checkStep(what: string): void {
    this.checkLive();
    checkPipelineParts(this.#parts, what);
    checkNoCheckedStepPending(this.#checkedPending, what);
  }

  /** With { queries: true }: the reports of earlier steps whose queries are available. */
  pollQueries(): StepReport[] {
    return this.owner.call('pollQueries', this.id);
  }
}
