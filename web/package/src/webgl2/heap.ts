// Bytes and values handed to wasm through its heap (core/boundary.ts copies the arguments of the
// exports: strings, lists, indices).
import { withHeap } from '../core/boundary.js';
import { fail } from '../core/errors.js';
import type { UniformNumberKind } from '../core/uniform_values.js';
import type { WebGl2Module } from './wasm_module.js';

/** Copies bytes into the wasm heap for the duration of `use(pointer, length)`. */
export function withHeapBytes<T>(
  module: WebGl2Module,
  bytes: Uint8Array | null,
  use: (pointer: number, length: number) => T,
): T {
  if (!bytes || bytes.byteLength === 0) return use(0, 0);
  return withHeap(module.raw, [bytes], ([pointer, length]) => use(pointer as number, length as number));
}

/** A heap block kept for the engine's life, for 32-bit uniform values: a uniform set per step
 *  allocates no typed array and mallocs nothing. */
export class UniformScratch {
  readonly #module: WebGl2Module;
  #pointer = 0;
  #bytes = 0;

  constructor(module: WebGl2Module) {
    this.#module = module;
  }

  /** Writes `values` as `kind` numbers and calls use(pointer, bytes). */
  with<T>(values: readonly number[], kind: UniformNumberKind, use: (pointer: number, bytes: number) => T): T {
    const module = this.#module.raw;
    const bytes = values.length * 4;
    if (bytes > this.#bytes) {
      if (this.#pointer) module._free(this.#pointer);
      this.#pointer = module._malloc(bytes);
      this.#bytes = this.#pointer ? bytes : 0;
      if (!this.#pointer) fail('XFB_OUT_OF_MEMORY', `the WebAssembly heap has no room for ${bytes} bytes`);
    }
    const heap = kind === 'float' ? module.HEAPF32 : kind === 'uint' ? module.HEAPU32 : module.HEAP32;
    for (let i = 0, at = this.#pointer >> 2; i < values.length; i++) heap[at + i] = values[i] as number;
    return use(this.#pointer, bytes);
  }

  free(): void {
    if (this.#pointer) this.#module.raw._free(this.#pointer);
    this.#pointer = 0;
    this.#bytes = 0;
  }
}
