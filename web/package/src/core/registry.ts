// The objects of an engine and their disposal, alike on both engines.
import { fail, invalid } from './errors.js';

export type ObjectKind = 'buffer' | 'program' | 'pipeline' | 'capture' | 'population';

// An object's kind under a registered symbol: webgpu.js bundles its own copy of this class, so
// index.js's functions (followBuffer) recognise its objects by this brand, not by instanceof.
const KIND: unique symbol = Symbol.for('xfb.objectKind');

/** The kind of an xfb object of either engine, or undefined for any other value. */
export function objectKindOf(value: unknown): ObjectKind | undefined {
  return typeof value === 'object' && value !== null ? (value as { [KIND]?: ObjectKind })[KIND] : undefined;
}

/** The live objects of one engine; dispose() of the engine disposes them all. */
export class ObjectRegistry {
  readonly #objects = new Set<XfbObjectBase>();
  add<T extends XfbObjectBase>(object: T): T {
    this.#objects.add(object);
    return object;
  }
  delete(object: XfbObjectBase): void {
    this.#objects.delete(object);
  }
  disposeAll(): void {
    for (const object of [...this.#objects]) object.dispose();
  }
  /** How many live objects of each kind. */
  count(kind: ObjectKind): number {
    let n = 0;
    for (const object of this.#objects) if (object.kind === kind) n++;
    return n;
  }
  *[Symbol.iterator](): IterableIterator<XfbObjectBase> {
    yield* this.#objects;
  }
}

/** An object of an engine: disposed once, refused afterwards with XFB_DISPOSED. */
export abstract class XfbObjectBase {
  readonly #kind: ObjectKind;
  readonly #registry: ObjectRegistry;
  #disposed = false;

  /** @internal */
  constructor(kind: ObjectKind, registry: ObjectRegistry) {
    this.#kind = kind;
    this.#registry = registry;
  }

  /** @internal */
  get kind(): ObjectKind {
    return this.#kind;
  }
  /** @internal Undefined on a forged object (Object.create(XfbBuffer.prototype)): it has no brand. */
  get [KIND](): ObjectKind | undefined {
    return #kind in this ? this.#kind : undefined;
  }

  /** Whether `value` is a `kind` object made by the engine that made `of` (its registry, or one of
   *  its objects): a brand check (`#kind in value`), so a forged object, a plain object or one of
   *  another engine or bundle is refused without reading a private field it lacks. @internal */
  static isOwn(value: unknown, kind: ObjectKind, of: ObjectRegistry | XfbObjectBase): boolean {
    const registry = of instanceof XfbObjectBase ? of.#registry : of;
    return (
      typeof value === 'object' &&
      value !== null &&
      #kind in value &&
      value.#kind === kind &&
      value.#registry === registry
    );
  }

  /** true once dispose() ran. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** XFB_DISPOSED once disposed, naming the object by its label. @internal */
  checkLive(): void {
    if (this.#disposed) fail('XFB_DISPOSED', `${this.described} was disposed; create a new one`);
  }

  /** The object as messages name it: "buffer 'a'", "this pipeline" (an object without a label). @internal */
  get described(): string {
    const name = this.nameForMessages();
    return name === undefined ? `this ${this.#kind}` : `${this.#kind} '${name}'`;
  }

  /** The label messages name the object by (buffers and programs have one). @internal */
  protected nameForMessages(): string | undefined {
    return undefined;
  }

  /** Frees the object's GPU resources now; later calls on it throw XFB_DISPOSED. A second dispose() does nothing. */
  dispose(): void {
    if (this.#disposed) return;
    this.release();
    this.#disposed = true;
    this.#registry.delete(this);
  }

  /** Frees what the object holds (called once, by dispose()). */
  protected abstract release(): void;
}

/** What makes a buffer, as refusals name it. */
export const OWN_BUFFER_MAKERS = 'createBuffer() or adoptBuffer()';

/** The one check of an xfb object given to a public call (both engines): XFB_INVALID_ARGUMENT unless
 *  `value` is a `kind` made by the engine of `of`; `what` names the argument, `make` the call that
 *  makes one. A disposed one passes here and is refused by its own checkLive() (XFB_DISPOSED). */
export function checkOwn<T extends XfbObjectBase>(
  value: unknown,
  kind: ObjectKind,
  of: ObjectRegistry | XfbObjectBase,
  what: string,
  make: string,
): asserts value is T {
  if (!XfbObjectBase.isOwn(value, kind, of)) invalid(`${what} must be a ${kind} of this engine (made by its ${make})`);
}

/** XFB_DISPOSED for a step of a pipeline (or a capture) whose buffer or program was disposed: it
 *  runs only while everything it was created with lives (both engines, before anything is recorded). */
export function checkPipelineParts(
  parts: readonly XfbObjectBase[],
  what: string,
  kind: 'pipeline' | 'capture' | 'population' = 'pipeline',
): void {
  for (const part of parts)
    if (part.disposed)
      fail(
        'XFB_DISPOSED',
        `${what}: ${part.described} of this ${kind} was disposed; dispose the ${kind} too, or create a new one with live objects`,
      );
}

/** XFB_DISPOSED for a call on a disposed engine. */
export function engineDisposed(): never {
  fail('XFB_DISPOSED', 'this engine was disposed');
}

/** entries[i] = { input: b, output: b }: a state pair of one buffer, refused alike on both engines. */
export function checkDistinctPair(i: number, entry: { input?: unknown; output?: unknown }): void {
  if (entry.input !== undefined && entry.input === entry.output && entry.input instanceof XfbObjectBase)
    invalid(
      `entries[${i}]: ${entry.input.described} is both the input and the output; a state pair needs two buffers of the same format and size`,
    );
}

/** One buffer in two roles of a role list where a pass would write it twice, or read it while it
 *  writes it (a state pair writes its input too, after each swap): WebGPU's check, in the words of
 *  the C++ engine's resolveEntries (engine/src/gl/entries.cpp), which checks it for WebGL2 (the
 *  misuse rows createPipeline.roles.* compare both runtimes' messages). `same`: whether two
 *  buffers are one (WebGPU: two adoptions of one GPUBuffer are). */
export function checkRoleClashes(
  entries: readonly { input?: unknown; output?: unknown }[],
  same: (a: unknown, b: unknown) => boolean = (a, b) => a === b,
): void {
  entries.forEach((e, i) => {
    for (let j = 0; j < i; j++) {
      const other = entries[j] as { input?: unknown; output?: unknown };
      const pair =
        (e.input !== undefined && e.output !== undefined) || (other.input !== undefined && other.output !== undefined);
      const clash = (a: unknown, roleA: string, b: unknown, roleB: string): void => {
        if (a === undefined || b === undefined || !same(a, b)) return;
        const outputs = roleA === 'output' && roleB === 'output';
        invalid(
          `entry #${j} ${roleB} and entry #${i} ${roleA} are the same buffer; a pass cannot ` +
            (outputs
              ? 'bind one buffer twice for its outputs'
              : 'read a buffer while it writes it (a state pair writes its input too, after each swap)') +
            ': give each role its own buffer',
        );
      };
      clash(e.output, 'output', other.output, 'output');
      clash(e.output, 'output', other.input, 'input');
      clash(e.input, 'input', other.output, 'output');
      if (pair) clash(e.input, 'input', other.input, 'input');
    }
  });
}
