import { checkReadRange, checkUpload, contentsOf } from '../core/buffer_data.js';
import type { ObjectRegistry } from '../core/registry.js';
import { RestoreShadow, type RestoredFrom } from '../core/restore_shadow.js';
import type { BufferContents, BufferLayout, ReadOptions, GPUBufferType, RestoreSource } from '../core/types.js';
import type { XfbWebGpu } from './engine.js';
import { WebGpuObject } from './object.js';
import { StagingReadback } from './staging_readback.js';
import { BufferUsage } from './flags.js';

/** GPUBuffers of the application's that adoptBuffer() wrapped: xfb never destroys them, whichever
 *  of its buffers holds one after a state pair's swaps. */
const applicationBuffers = new WeakSet<GPUBuffer>();

/** A GPUBuffer of `count` elements of a vertex format; a state pair's two swap every step. */
export class XfbWebGpuBuffer extends WebGpuObject {
  /** A name for messages and labels. */
  label: string;
  #gpuBuffer: GPUBuffer;
  readonly #layout: BufferLayout;
  readonly #count: number;
  #readback: StagingReadback;
  readonly #adopted: boolean;
  /** The bytes re-uploaded after a device loss. */
  readonly #shadow: RestoreShadow;

  /** @internal Use `XfbWebGpu.createBuffer()`. */
  constructor(
    owner: XfbWebGpu,
    registry: ObjectRegistry,
    layout: BufferLayout,
    count: number,
    restore: RestoreSource,
    initial: Uint8Array<ArrayBuffer> | null,
    label: string,
    adopted: GPUBuffer | null = null,
  ) {
    super(owner, registry, 'buffer');
    this.#layout = layout;
    this.#count = count;
    this.label = label;
    this.#shadow = new RestoreShadow(restore, initial && initial.slice());
    this.#adopted = adopted !== null;
    if (adopted) {
      applicationBuffers.add(adopted);
      this.#gpuBuffer = adopted;
      this.#readback = new StagingReadback(owner.gpuDevice, `${label} readback`, this.byteLength);
    } else [this.#gpuBuffer, this.#readback] = this.#create(initial);
  }

  /** A GPUBuffer (usage STORAGE | VERTEX | COPY_SRC | COPY_DST) with `data` written, and its
   *  staging buffer, on the engine's device now. */
  #create(data: Uint8Array<ArrayBuffer> | null): [GPUBuffer, StagingReadback] {
    const device = this.owner.gpuDevice;
    const usage = BufferUsage.STORAGE | BufferUsage.VERTEX | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
    const gpuBuffer = device.createBuffer({
      label: this.label,
      size: this.byteLength,
      usage,
    });
    if (data) device.queue.writeBuffer(gpuBuffer, 0, data);
    return [gpuBuffer, new StagingReadback(device, `${this.label} readback`, this.byteLength)];
  }

  /** @internal After a device loss, on the new device: a new GPUBuffer holding the kept bytes (its
   *  restore policy, as on WebGL2); says where they came from. */
  restoreContents(): RestoredFrom {
    const { bytes, source } = this.#shadow.kept;
    [this.#gpuBuffer, this.#readback] = this.#create(bytes as Uint8Array<ArrayBuffer> | null);
    return source;
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
    return {
      stride: this.#layout.stride,
      attributes: this.#layout.attributes.map((a) => ({ ...a })),
    };
  }
  /** The number of elements. */
  get count(): number {
    return this.#count;
  }
  /** count x stride. */
  get byteLength(): number {
    return this.#count * this.#layout.stride;
  }
  /** true for a buffer made by adoptBuffer(): xfb never destroys the application's GPUBuffer. */
  get adopted(): boolean {
    return this.#adopted;
  }

  /** Writes bytes at a byte offset (queue.writeBuffer): the offset and the length whole 4-byte words
   *  within the buffer, data of the format's type (the same rule as on WebGL2). @throws XfbError XFB_INVALID_ARGUMENT. */
  upload(data: ArrayBufferView | ArrayBuffer, options: { offset?: number } = {}): void {
    this.check('upload()');
    const { bytes, offset } = checkUpload(data, options, this.#layout, this.byteLength);
    this.owner.gpuDevice.queue.writeBuffer(this.#gpuBuffer, offset, bytes);
    this.#shadow.uploaded(bytes, offset, this.byteLength);
  }

  /** Resolves to the contents of the whole buffer, or of elements [first, first + count), once
   *  the GPU is done: a copy of those elements' bytes into a staging buffer (MAP_READ, kept for the
   *  next read) and mapAsync; never blocks the frame. Only a whole read is kept for the
   *  'last-readback' restore policy.
   *  @throws XfbError XFB_INVALID_ARGUMENT (the range), XFB_CONTEXT_LOST, XFB_DISPOSED. */
  async read(options: ReadOptions = {}): Promise<BufferContents> {
    this.check('read()');
    const { first, count } = checkReadRange(options, this.#count);
    const stride = this.#layout.stride;
    const bytes = await this.#readback.read(
      this.#gpuBuffer,
      this.owner.settle,
      'read()',
      first * stride,
      count * stride,
    );
    if (count === this.#count) this.#shadow.readBack(bytes);
    return contentsOf(this.#layout, bytes);
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
    if (!applicationBuffers.has(this.#gpuBuffer)) this.#gpuBuffer.destroy();
    this.#readback.destroy();
  }
}
