import { checkUpload, contentsOf } from '../core/buffer_data.js';
import type { ObjectRegistry } from '../core/registry.js';
import type { BufferContents, BufferLayout, GPUBufferType } from '../core/types.js';
import type { XfbWebGpu } from './engine.js';
import { WebGpuObject } from './object.js';
import { StagingReadback } from './staging_readback.js';

/** A GPUBuffer of `count` elements of a vertex format; a state pair's two swap every step. */
export class XfbWebGpuBuffer extends WebGpuObject {
  /** A name for messages and labels. */
  label: string;
  #gpuBuffer: GPUBuffer;
  readonly #layout: BufferLayout;
  readonly #count: number;
  readonly #readback: StagingReadback;

  /** @internal Use `XfbWebGpu.createBuffer()`. */
  constructor(
    owner: XfbWebGpu,
    registry: ObjectRegistry,
    gpuBuffer: GPUBuffer,
    layout: BufferLayout,
    count: number,
    label: string,
  ) {
    super(owner, registry, 'buffer');
    this.#gpuBuffer = gpuBuffer;
    this.#layout = layout;
    this.#count = count;
    this.label = label;
    this.#readback = new StagingReadback(owner.gpuDevice, `${label} readback`, count * layout.stride);
  }

  /** @internal */
  protected override nameForMessages(): string {
    return this.label;
  }

  /** The GPUBuffer holding the latest data (after a step of a state pair, the other one of the pair).
   *  Usage STORAGE | VERTEX | COPY_SRC | COPY_DST: bind it as a vertex buffer with `layout`. */
  get gpuBuffer(): GPUBufferType {
    this.check();
    return this.#gpuBuffer;
  }
  /** Always null: a WebGPU buffer is no WebGLBuffer. */
  get glBuffer(): null {
    return null;
  }
  /** How to bind it as vertex input: stride and, per attribute, semantic, type, components, offset. */
  get layout(): BufferLayout {
    this.check();
    return { stride: this.#layout.stride, attributes: this.#layout.attributes.map((a) => ({ ...a })) };
  }
  /** The number of elements. */
  get count(): number {
    return this.#count;
  }
  /** count x stride. */
  get byteLength(): number {
    return this.#count * this.#layout.stride;
  }
  /** Always false: WebGPU buffers are not adopted. */
  get adopted(): false {
    return false;
  }

  /** Writes bytes at a byte offset (queue.writeBuffer): the offset and the length whole 4-byte words
   *  within the buffer, data of the format's type (the same rule as on WebGL2). @throws XfbError XFB_INVALID_ARGUMENT. */
  upload(data: ArrayBufferView | ArrayBuffer, options: { offset?: number } = {}): void {
    this.check('upload()');
    const { bytes, offset } = checkUpload(data, options, this.#layout, this.byteLength);
    this.owner.gpuDevice.queue.writeBuffer(this.#gpuBuffer, offset, bytes);
  }

  /** Resolves to the contents once the GPU is done: a copy into a staging buffer (MAP_READ, kept for
   *  the next read) and mapAsync; never blocks the frame. @throws XfbError XFB_CONTEXT_LOST, XFB_DISPOSED. */
  async read(): Promise<BufferContents> {
    this.check('read()');
    return contentsOf(this.#layout, await this.#readback.read(this.#gpuBuffer, this.owner.settle, 'read()'));
  }

  /** @internal The GPUBuffer now, without the checks (a pipeline's bind groups). */
  get current(): GPUBuffer {
    return this.#gpuBuffer;
  }
  /** @internal A state pair's step: the two exchange their GPUBuffers. */
  swapWith(other: XfbWebGpuBuffer): void {
    [this.#gpuBuffer, other.#gpuBuffer] = [other.#gpuBuffer, this.#gpuBuffer];
  }

  protected release(): void {
    this.#gpuBuffer.destroy();
    this.#readback.destroy();
  }
}
