import { checkIndex } from '../core/checks.js';
import { checkReadRange, contentsOf, recordBytes } from '../core/buffer_data.js';
import { checkDrawMode } from '../core/draws.js';
import { constants } from '../core/engine_tables.js';
import { invalid } from '../core/errors.js';
import { checkPipelineParts, type ObjectRegistry, type XfbObjectBase } from '../core/registry.js';
import type {
  BufferContents,
  BufferLayout,
  DrawMode,
  PopulationCount,
  PopulationInfo,
  ReadOptions,
} from '../core/types.js';
import type { Xfb } from './engine.js';
import { WebGl2Object } from './object.js';

/** One field of a population's current state: the buffer a draw reads and what read() returns. */
export class XfbPopulationField {
  readonly #population: XfbPopulation;
  readonly #index: number;
  readonly #layout: BufferLayout;

  /** @internal Use `population.state(field)`. */
  constructor(population: XfbPopulation, index: number, layout: BufferLayout) {
    this.#population = population;
    this.#index = index;
    this.#layout = layout;
  }

  /** How to bind it as vertex input (as XfbBuffer's layout). */
  get layout(): BufferLayout {
    return { stride: this.#layout.stride, attributes: this.#layout.attributes.map((a) => ({ ...a })) };
  }
  /** The WebGLBuffer holding the field's current state (another one after every step: take it
   *  again each frame). The fragment backend keeps the state in textures between steps: taking it
   *  writes the state back into the buffer first (one draw and readPixels into it, no wait). */
  get glBuffer(): WebGLBuffer {
    const p = this.#population;
    return p.owner.module.GL.buffers[p.owner.call('populationGlName', p.id, this.#index)] as WebGLBuffer;
  }
  /** Resolves to elements [first, first + count) of the field's current state (default: the whole
   *  capacity; the live elements are the first count().live), as XfbBuffer.read(): never blocks. */
  async read(options: ReadOptions = {}): Promise<BufferContents> {
    const p = this.#population;
    const owner = p.owner;
    const { first, count } = checkReadRange(options, p.capacity);
    const readback = owner.call('populationReadAsync', p.id, this.#index, first, count);
    let view: Uint8Array;
    try {
      await owner.waitForGpu('read()', () => owner.call('readbackReady', readback) || null);
      view = owner.call('takeReadback', readback);
    } catch (e) {
      owner.release('readback', readback);
      throw e;
    }
    return contentsOf(this.#layout, view.slice());
  }
}

/**
 * A population (C++ xfb::Population): a state with a capacity whose live count stays on the GPU.
 * Each step runs the program over the live elements; each element writes 0 (dies), 1 (lives on)
 * or k records of the next state, compacted in a stable order (element order, then record order).
 * On WebGL2 the fragment backend runs it: its passes run over the capacity, masked by the live
 * count, which stays in a texel (countTexture); nothing is read back in a step, a spawn or a draw.
 */
export class XfbPopulation extends WebGl2Object {
  readonly #parts: readonly XfbObjectBase[];
  readonly #info: PopulationInfo;
  readonly #fields: XfbPopulationField[];

  /** @internal Use `Xfb.createPopulation()`. `parts`: its program. */
  constructor(owner: Xfb, registry: ObjectRegistry, id: number, parts: readonly XfbObjectBase[]) {
    super(owner, registry, 'population', id);
    this.#parts = parts;
    this.#info = owner.call('populationInfo', id);
    this.#fields = this.#info.fields.map((f, i) => new XfbPopulationField(this, i, f.layout));
  }

  /** Backend, capacity, steps taken, the last step's WebGL calls and each field's layout. */
  get info(): PopulationInfo {
    return this.owner.call('populationInfo', this.id);
  }
  /** Elements the state holds. */
  get capacity(): number {
    return this.#info.capacity;
  }
  /** Field `field`'s current state (default 0: the first field of options.state).
   *  @throws XfbError XFB_INVALID_ARGUMENT (no such field). */
  state(field = 0): XfbPopulationField {
    this.checkLive();
    const f = this.#fields[checkIndex(field, 'state(): field')];
    if (!f) invalid(`state(${field}): the state has ${this.#fields.length} field(s), 0..${this.#fields.length - 1}`);
    return f;
  }
  /** The texel (RGBA32UI, 1 x 1) holding { live, requested, dropped, droppedUnchecked } on the GPU,
   *  for your own shaders (texelFetch); another texture after every step and spawn. */
  get countTexture(): WebGLTexture {
    return this.owner.module.GL.textures[this.owner.call('populationCountTexture', this.id)] as WebGLTexture;
  }

  /** One step over the live elements: their records become the state, their number the live
   *  count, on the GPU (no readback, no wait). Records past the capacity are dropped and counted.
   *  @throws XfbError XFB_FEEDBACK_ACTIVE, XFB_CONTEXT_LOST, XFB_DISPOSED. */
  step(): void {
    this.#checkParts('step()');
    this.owner.call('populationStep', this.id);
  }
  /** step(), then the count read back (blocking: a readPixels, for tools and tests). Under
   *  overflow 'error': XFB_CAPACITY for records dropped since the last checked step (the step not
   *  run) or for this step's (not swapped: state and live count as before). */
  stepChecked(): PopulationCount {
    this.#checkParts('stepChecked()');
    return this.owner.call('populationStepChecked', this.id);
  }
  /** Appends records after the live elements, on the GPU (no readback): one typed array (or
   *  ArrayBuffer) of whole records for a one-field state, else an array with one per field, in
   *  the order of options.state, each holding the same number of records. Records past the
   *  capacity are dropped (counted); more than the capacity is XFB_CAPACITY, nothing spawned.
   *  @throws XfbError XFB_INVALID_ARGUMENT (the data's shape), XFB_CAPACITY. */
  spawn(data: ArrayBufferView | ArrayBuffer | readonly (ArrayBufferView | ArrayBuffer)[]): void {
    this.#checkParts('spawn()');
    const given = Array.isArray(data) ? data : [data];
    const fields = this.#info.fields;
    if (given.length !== fields.length)
      invalid(
        `spawn(): ${given.length} array(s) given for a state of ${fields.length} field(s); give one array of records per field, in order`,
      );
    const parts = given.map((d, i) =>
      recordBytes(d, fields[i]!.layout, `spawn(): field #${i} ('${fields[i]!.input}')`),
    );
    const total = parts.reduce((n, b) => n + b.byteLength, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const b of parts) {
      bytes.set(b, at);
      at += b.byteLength;
    }
    this.owner.call(
      'populationSpawn',
      this.id,
      bytes,
      parts.map((b) => b.byteLength),
    );
  }
  /** Resolves to the live count and its history, read back without blocking (a readPixels into a
   *  pixel-pack buffer, its copy and a fence polled across tasks): for panels, tools and tests. */
  async count(): Promise<PopulationCount> {
    this.checkLive();
    const owner = this.owner;
    const request = owner.call('populationCountAsync', this.id);
    try {
      await owner.waitForGpu('count()', () => owner.call('populationCountReady', request) || null);
      return owner.call('populationCountTake', request);
    } catch (e) {
      owner.release('count', request);
      throw e;
    }
  }
  /** Draws the live elements with the program and vertex array you bound (point the vertex array
   *  at state(f).glBuffer): WebGL2 has no indirect draw, so drawArrays(mode, 0, capacity), and the
   *  bound program's vertex shader must hold `xfb.emittedDrawSnippet` and write
   *  `gl_Position = xfb_emittedPosition(...)`, which moves the vertices of every primitive at or
   *  past the live count outside the clip volume. Sets the snippet's two uniforms on the bound
   *  program and binds the count texel on one of xfb's texture units (its binding restored).
   *  'points' (default), 'lines' or 'triangles'. No readPixels, query or wait.
   *  @throws XfbError XFB_INVALID_ARGUMENT (an unknown mode, a bound program without the snippet),
   *  XFB_UNSUPPORTED (a strip, loop or fan), XFB_CONTEXT_LOST. */
  draw(mode: DrawMode = 'points'): void {
    this.#checkParts('draw()');
    const m = checkDrawMode(mode, 'draw()');
    const gl = this.owner.gl as WebGL2RenderingContext;
    const c = constants();
    const program = gl.getParameter(gl.CURRENT_PROGRAM) as WebGLProgram | null;
    const totals = program ? gl.getUniformLocation(program, c.emittedTotalsUniform) : null;
    const at = program ? gl.getUniformLocation(program, c.emittedAtUniform) : null;
    const name = program ? 'the bound WebGLProgram' : 'the bound program (none is bound)';
    const u = this.owner.call('populationDrawUniforms', this.id, m, !!totals && !!at, name);
    gl.uniform1i(totals, u.unit);
    gl.uniform4i(at, u.row, u.component, u.perPrimitive, 0);
    this.owner.call('populationDraw', this.id, m);
  }

  #checkParts(what: string): void {
    this.checkLive();
    checkPipelineParts(this.#parts, what, 'population');
  }
}
