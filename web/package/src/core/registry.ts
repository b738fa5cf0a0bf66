// The objects of an engine and their disposal, alike on both engines.
import { fail } from './errors.js';

export type ObjectKind = 'buffer' | 'program' | 'pipeline' | 'capture';

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

  /** true once dispose() ran. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** XFB_DISPOSED once disposed. @internal */
  checkLive(): void {
    if (this.#disposed) fail('XFB_DISPOSED', `this ${this.#kind} was disposed; create a new one`);
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
