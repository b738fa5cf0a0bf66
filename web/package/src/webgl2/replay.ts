// Replayed steps (README "Performance", CPU per step): after a step(1) in wasm, Pipeline::recipe()
// names its WebGL objects; the next steps make the same calls from here, as a hand-written loop
// would (engine/src/pipeline/pipeline_state.hpp PipelineState::draw). Wasm learns the swaps and
// the values (Pipeline::stepsReplayed, Program::uniformUploaded) before its next call.
import type { UniformNumberKind } from '../core/uniform_values.js';
import type { EmscriptenGl, EmscriptenProgram, RecipeUniform, ReplayRecipe, WasmEngine } from './wasm_module.js';

/** Something wasm must learn before its next call (kept uniform values, replayed steps). */
export interface WasmSync {
  syncToWasm(engine: WasmEngine): void;
}

/** A uniform value kept in JavaScript for replayed steps, by name in its program. */
export interface KeptUniform {
  name: string;
  kind: number;
  numberKind: UniformNumberKind;
  components: number;
  /** Values it holds at most (components x array size). */
  max: number;
  /** One value, kept as a number. */
  scalar: boolean;
  /** A float scalar: setUniform's fast path. */
  fast: boolean;
  value: number | number[] | null;
  /** Changed since the last upload to WebGL. */
  uploadToGl: boolean;
  /** Changed since wasm last learnt it. */
  tellWasm: boolean;
}

/** A pipeline's replay: its recipe, or why the engine refused one (asked again in a new generation). */
export type ReplayState = { recipe: Recipe } | { refusal: string; generation: number };

const MATRIX_SUFFIX: Readonly<Record<number, string>> = {
  0x8b5a: '2',
  0x8b5b: '3',
  0x8b5c: '4',
  0x8b65: '2x3',
  0x8b66: '2x4',
  0x8b67: '3x2',
  0x8b68: '3x4',
  0x8b69: '4x2',
  0x8b6a: '4x3',
};

type Setter = (value: number | number[]) => void;
type UniformFunction = (
  this: WebGL2RenderingContext,
  location: WebGLUniformLocation | null,
  ...args: unknown[]
) => void;

// The upload of one kept value to `location`, made once per recipe with the exact arity: a scalar goes
// by value (uniform1f(l, x) is faster than uniform1fv in Chromium, and a call with surplus arguments
// or out-of-range reads is slower than either).
function uniformSetter(
  gl: WebGL2RenderingContext,
  location: WebGLUniformLocation | null,
  u: RecipeUniform,
  kept: KeptUniform,
): Setter {
  const suffix = kept.numberKind === 'float' ? 'f' : kept.numberKind === 'uint' ? 'ui' : 'i';
  if (kept.scalar) {
    if (suffix === 'f') return (x) => gl.uniform1f(location, x as number);
    return suffix === 'ui' ? (x) => gl.uniform1ui(location, x as number) : (x) => gl.uniform1i(location, x as number);
  }
  const functions = gl as unknown as Record<string, UniformFunction>;
  const matrix = MATRIX_SUFFIX[u.type];
  if (matrix) {
    const f = functions[`uniformMatrix${matrix}fv`] as UniformFunction;
    return (v) => f.call(gl, location, false, v);
  }
  const name = `uniform${u.components}${suffix}`;
  const f = functions[name] as UniformFunction;
  const fv = functions[`${name}v`] as UniformFunction;
  // Unrolled per arity: a spread call is slower on the per-step path.
  switch (u.components) {
    case 1:
      return (v) =>
        (v as number[]).length === 1 ? f.call(gl, location, (v as number[])[0]) : fv.call(gl, location, v);
    case 2:
      return (v) => {
        const a = v as number[];
        if (a.length === 2) f.call(gl, location, a[0], a[1]);
        else fv.call(gl, location, a);
      };
    case 3:
      return (v) => {
        const a = v as number[];
        if (a.length === 3) f.call(gl, location, a[0], a[1], a[2]);
        else fv.call(gl, location, a);
      };
    default:
      return (v) => {
        const a = v as number[];
        if (a.length === 4) f.call(gl, location, a[0], a[1], a[2], a[3]);
        else fv.call(gl, location, a);
      };
  }
}

// The WebGLUniformLocation of Emscripten's location id, resolved as its glGetUniformLocation does.
function uniformLocation(
  gl: WebGL2RenderingContext,
  program: EmscriptenProgram,
  id: number,
): WebGLUniformLocation | null {
  const known = program.uniformLocsById?.[id];
  if (typeof known !== 'number') return known ?? null;
  const location = gl.getUniformLocation(
    program,
    (program.uniformArrayNamesById[id] ?? '') + (known > 0 ? `[${known}]` : ''),
  );
  (program.uniformLocsById as Record<number, WebGLUniformLocation | null>)[id] = location;
  return location;
}

const RASTERIZER_DISCARD = 0x8c89;
const TRANSFORM_FEEDBACK = 0x8e22;
const POINTS = 0;
/** The WebGL calls of a pass without uniforms. */
const PASS_CALLS = 9;

export interface RecipeSource {
  gl: WebGL2RenderingContext;
  GL: EmscriptenGl;
  pipeline: number;
  given: Extract<ReplayRecipe, { program: number }>;
  keptUniforms: Map<string, KeptUniform>;
  numberKindOf: (kind: number) => UniformNumberKind;
  /** The WebGLBuffers a pass may write, or null (a buffer was disposed under the pipeline: it cannot say). */
  written: WebGLBuffer[] | null;
  /** The engine's list of what wasm must learn. */
  pending: Set<WasmSync>;
  epoch: number;
}

export class Recipe implements WasmSync {
  /** The engine's epoch it was made in: valid while that is unchanged. */
  readonly epoch: number;
  readonly written: WebGLBuffer[] | null;
  /** One replayed pass. discard: the application left RASTERIZER_DISCARD on; feedbackAfter: the
   *  transform feedback object to leave bound (the application's, which the guard does not rebind). */
  readonly pass: (discard: boolean, feedbackAfter: WebGLTransformFeedback | null) => void;
  readonly #pipeline: number;
  #replaysUntold = 0;
  #lastPassCalls = 0;

  constructor(source: RecipeSource) {
    const { gl, GL, given, keptUniforms } = source;
    this.epoch = source.epoch;
    this.written = source.written;
    this.#pipeline = source.pipeline;
    const program = GL.programs[given.program] as EmscriptenProgram;
    const uniforms: { kept: KeptUniform; set: Setter }[] = [];
    for (const u of given.uniforms) {
      let kept = keptUniforms.get(u.name);
      if (!kept) {
        const max = u.components * u.arraySize;
        const numberKind = source.numberKindOf(u.kind);
        const scalar = max === 1;
        kept = {
          name: u.name,
          kind: u.kind,
          numberKind,
          components: u.components,
          max,
          scalar,
          fast: scalar && numberKind === 'float',
          value: null,
          uploadToGl: false,
          tellWasm: false,
        };
        keptUniforms.set(u.name, kept);
      }
      uniforms.push({ kept, set: uniformSetter(gl, uniformLocation(gl, program, u.location), u, kept) });
    }
    for (const kept of keptUniforms.values()) kept.uploadToGl = false; // the wasm step just now uploaded every value
    const vertexArrays = given.vao.map((n) => GL.vaos[n] as WebGLVertexArrayObject);
    const feedbacks = given.tf.map((n) => GL.transformFeedbacks[n] as WebGLTransformFeedback);
    const count = given.count,
      pending = source.pending;
    let side = given.side;
    this.pass = (discard, feedbackAfter) => {
      gl.useProgram(program);
      let calls = PASS_CALLS;
      for (let i = 0; i < uniforms.length; i++) {
        const u = uniforms[i] as { kept: KeptUniform; set: Setter };
        if (!u.kept.uploadToGl) continue;
        u.kept.uploadToGl = false;
        calls++;
        u.set(u.kept.value as number | number[]);
      }
      gl.bindVertexArray(vertexArrays[side] as WebGLVertexArrayObject);
      gl.bindTransformFeedback(TRANSFORM_FEEDBACK, feedbacks[side] as WebGLTransformFeedback);
      if (!discard) gl.enable(RASTERIZER_DISCARD);
      gl.beginTransformFeedback(POINTS);
      gl.drawArrays(POINTS, 0, count);
      gl.endTransformFeedback();
      if (!discard) gl.disable(RASTERIZER_DISCARD);
      gl.bindTransformFeedback(TRANSFORM_FEEDBACK, feedbackAfter);
      side ^= 1;
      this.#lastPassCalls = calls;
      if (this.#replaysUntold++ === 0) pending.add(this);
    };
  }

  syncToWasm(engine: WasmEngine): void {
    if (this.#replaysUntold) engine.replayed(this.#pipeline, this.#replaysUntold, this.#lastPassCalls);
    this.#replaysUntold = 0;
  }
}

/** Whether a replayed pass of `recipe` may write the WebGLBuffer `buffer` (written null: a buffer was
 *  disposed under the pipeline, so it cannot say). Asked only when a binding holds a buffer, and
 *  without allocating (every step). */
export function recipeWrites(recipe: Recipe, buffer: WebGLBuffer): boolean {
  return recipe.written === null || recipe.written.includes(buffer);
}
