// The one read-back of a GPUBuffer's bytes: a copy into a MAP_READ staging buffer and mapAsync,
// never blocking the frame. The staging buffer is kept for the next read; a read while one is in
// flight uses a temporary one.

import { BufferUsage, MapMode } from './flags.js';

export type Settle = <T>(promise: Promise<T>, what: string) => Promise<T>;

export class StagingReadback {
  readonly #device: GPUDevice;
  readonly #label: string;
  readonly #size: number;
  #kept: GPUBuffer | null = null;
  #busy = false;

  constructor(device: GPUDevice, label: string, size: number) {
    this.#device = device;
    this.#label = label;
    this.#size = size;
  }

  /** `size` bytes of `source` from byte `offset` (multiples of 4; default: the staging size from
   *  0), copied out. `settle` turns a rejection into an XfbError. */
  async read(
    source: GPUBuffer,
    settle: Settle,
    what: string,
    offset = 0,
    size = this.#size,
  ): Promise<Uint8Array<ArrayBuffer>> {
    if (size === 0) return new Uint8Array(0); // WebGPU maps no empty range; nothing to wait for
    const temporary = this.#busy;
    const staging = temporary ? this.#create() : (this.#kept ??= this.#create());
    if (!temporary) this.#busy = true;
    try {
      const encoder = this.#device.createCommandEncoder();
      encoder.copyBufferToBuffer(source, offset, staging, 0, size);
      this.#device.queue.submit([encoder.finish()]);
      await settle(staging.mapAsync(MapMode.READ, 0, size), what);
      const bytes = new Uint8Array(staging.getMappedRange(0, size).slice(0));
      staging.unmap();
      return bytes;
    } finally {
      if (temporary) staging.destroy();
      else this.#busy = false;
    }
  }

  /** Destroys the kept staging buffer (a read in flight destroys nothing: it ends unmapped). */
  destroy(): void {
    if (this.#kept && !this.#busy) this.#kept.destroy();
  }

  #create(): GPUBuffer {
    return this.#device.createBuffer({
      label: this.#label,
      size: this.#size,
      usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
    });
  }
}
