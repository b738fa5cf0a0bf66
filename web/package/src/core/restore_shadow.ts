// What a buffer gets back after a lost WebGL context or WebGPU device: one rule for both engines.
import type { RestoreSource } from './types.js';

/** Where a buffer's restored contents came from ('contextrestored' reports it per buffer). */
export type RestoredFrom = 'initial' | 'last-readback' | 'upload' | 'none';

/** The bytes kept for a restore by the buffer's `restore` policy: the initial data (none kept for
 *  'none'), replaced by an upload of the whole buffer and, for 'last-readback', by every read(). */
export class RestoreShadow {
  readonly #restore: RestoreSource;
  #bytes: Uint8Array | null;
  #source: RestoredFrom;

  /** `initial`: a copy of the initial data, or null. */
  constructor(restore: RestoreSource, initial: Uint8Array | null) {
    this.#restore = restore;
    this.#bytes = restore === 'none' ? null : initial;
    this.#source = initial ? 'initial' : 'none';
  }

  /** After upload(bytes, { offset }) of a buffer of `byteLength` bytes. */
  uploaded(bytes: Uint8Array, offset: number, byteLength: number): void {
    if (this.#bytes && offset === 0 && bytes.byteLength === byteLength) {
      this.#bytes = bytes.slice();
      this.#source = 'upload';
    }
  }

  /** After a read() that gave `bytes` (kept, not copied). */
  readBack(bytes: Uint8Array): void {
    if (this.#restore !== 'last-readback') return;
    this.#bytes = bytes;
    this.#source = 'last-readback';
  }

  /** The bytes to re-upload (null: none) and where they came from. */
  get kept(): { bytes: Uint8Array | null; source: RestoredFrom } {
    return { bytes: this.#bytes, source: this.#bytes ? this.#source : 'none' };
  }
}
