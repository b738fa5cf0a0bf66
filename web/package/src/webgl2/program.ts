import { scalarKind } from '../core/engine_tables.js';
import type { ObjectRegistry } from '../core/registry.js';
import type { Plan, UniformValue } from '../core/types.js';
import { checkUniformName, checkUniformValues, numberKindOf } from '../core/uniform_values.js';
import type { Xfb } from './engine.js';
import { WebGl2Object } from './object.js';
import type { KeptUniform } from './replay.js';
import type { DeclaredUniform, WasmEngine } from './wasm_module.js';

const NO_NAME = Symbol('no uniform');

/** A linked simulation program (glCreateProgram, transformFeedbackVaryings, linkProgram). */
export class XfbProgram extends WebGl2Object {
  readonly #declared: Record<string, DeclaredUniform>;
  // By name: the values kept for replayed steps (Recipe). #lastFast: the float scalar entry
  // setUniform found last, and the name it was given (a symbol: none; no caller passes it).
  readonly #kept = new Map<string, KeptUniform>();
  #lastFast: KeptUniform | undefined = undefined;
  #lastFastName: unknown = NO_NAME;
  readonly #label: string;

  /** @internal Use `Xfb.createProgram()`. */
  constructor(
    owner: Xfb,
    registry: ObjectRegistry,
    id: number,
    declared: Record<string, DeclaredUniform>,
    label: string,
  ) {
    super(owner, registry, 'program', id);
    this.#declared = declared;
    this.#label = label;
  }

  /** @internal */
  protected override nameForMessages(): string {
    return this.#label;
  }

  /** Attributes (ATTRn), captured varyings and the output buffer layout. */
  get plan(): Plan {
    return this.owner.call('programPlan', this.id);
  }

  /** Sets a uniform (glUniform*, before the next step): a number, an array of numbers or a typed
   *  array, converted to the uniform's declared type. int/uint/bool/sampler uniforms take integers
   *  in their range: anything else is XFB_UNIFORM_TYPE, never wrapped or truncated.
   *  @throws XfbError XFB_UNKNOWN_UNIFORM, XFB_UNIFORM_TYPE, XFB_INVALID_ARGUMENT. */
  setUniform(name: string, value: UniformValue): void {
    // Kept in JavaScript for replayed steps; wasm learns it before its next call. The per-frame case
    // first: a float scalar, found without a lookup (nor the disposal check: dispose() forgets it)
    // when it is the name set last.
    let kept = this.#lastFast;
    if (name !== this.#lastFastName) {
      this.checkLive();
      kept = this.#kept.get(name);
      if (kept?.fast) {
        this.#lastFast = kept;
        this.#lastFastName = name;
      }
    }
    const owner = this.owner;
    if (kept !== undefined && kept.fast && typeof value === 'number' && value === value && !owner.isContextLost) {
      kept.value = value;
      kept.uploadToGl = true;
      this.#tellWasm(kept);
      return;
    }
    checkUniformName(name);
    const declared = Object.hasOwn(this.#declared, name) ? this.#declared[name] : undefined;
    const numberKind = numberKindOf(declared?.kind);
    const values = checkUniformValues(name, value, numberKind);
    const kind = scalarKind(numberKind);
    if (
      kept?.kind === kind &&
      values.length % kept.components === 0 &&
      values.length <= kept.max &&
      !owner.isContextLost
    ) {
      kept.value = kept.scalar ? (values[0] as number) : values;
      kept.uploadToGl = true;
      this.#tellWasm(kept);
      return;
    }
    // A refusal (the engine's message), or a program no step replays yet.
    owner.withValues(values, kind, (pointer, n) => owner.call('setUniform', this.id, name, kind, pointer, n, false));
  }

  /** @internal The values replayed steps keep, by name. */
  get keptUniforms(): Map<string, KeptUniform> {
    return this.#kept;
  }

  /** @internal Gives wasm the values set since its last call. */
  syncToWasm(engine: WasmEngine): void {
    for (const [name, kept] of this.#kept) {
      if (!kept.tellWasm) continue;
      kept.tellWasm = false;
      const values = kept.scalar ? [kept.value as number] : (kept.value as number[]);
      this.owner.withValues(values, kept.kind, (pointer, n) =>
        engine.setUniform(this.id, name, kept.kind, pointer, n, !kept.uploadToGl),
      );
    }
  }

  protected override release(): void {
    this.#lastFast = undefined;
    this.#lastFastName = NO_NAME;
    super.release();
  }

  #tellWasm(kept: KeptUniform): void {
    if (kept.tellWasm) return;
    kept.tellWasm = true;
    this.owner.markPending(this);
  }
}
