import { XfbObjectBase, type ObjectKind, type ObjectRegistry } from '../core/registry.js';
import type { Xfb } from './engine.js';

/** An object of the WebGL2 engine: an id in the wasm engine. */
export abstract class WebGl2Object extends XfbObjectBase {
  readonly #owner: Xfb;
  readonly #id: number;

  /** @internal */
  constructor(owner: Xfb, registry: ObjectRegistry, kind: ObjectKind, id: number) {
    super(kind, registry);
    this.#owner = owner;
    this.#id = id;
  }

  /** The engine that made it. */
  get owner(): Xfb {
    return this.#owner;
  }

  /** @internal Its id in the wasm engine; XFB_DISPOSED once disposed. */
  get id(): number {
    this.checkLive();
    return this.#id;
  }

  protected release(): void {
    this.#owner.release(this.kind, this.#id);
  }
}
