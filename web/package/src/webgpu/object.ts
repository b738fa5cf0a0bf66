import { XfbObjectBase, type ObjectKind, type ObjectRegistry } from '../core/registry.js';
import type { XfbWebGpu } from './engine.js';

/** An object of the WebGPU engine. */
export abstract class WebGpuObject extends XfbObjectBase {
  readonly #owner: XfbWebGpu;

  /** @internal */
  constructor(owner: XfbWebGpu, registry: ObjectRegistry, kind: ObjectKind) {
    super(kind, registry);
    this.#owner = owner;
  }

  /** The engine that made it. */
  get owner(): XfbWebGpu {
    return this.#owner;
  }

  /** @internal XFB_DISPOSED once it or its engine is disposed, XFB_CONTEXT_LOST once the device is
   *  lost (`what`: the public call, named by that message). */
  check(what?: string): void {
    this.checkLive();
    this.#owner.checkUsable(what);
  }
}
