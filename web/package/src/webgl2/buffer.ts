import { checkReadRange, checkUpload, contentsOf } from '../core/buffer_data.js';
import type { ObjectRegistry } from '../core/registry.js';
import { RestoreShadow, type RestoredFrom } from '../core/restore_shadow.js';
import type { BufferContents, BufferLayout, ReadOptions, RestoreSource } from '../core/types.js';
import type { Xfb } from './engine.js';
import { WebGl2Object } from './object.js';

/** A WebGL2 buffer of `count` elements of a vertex format; a state pair's two swap every step. */
export class XfbBuffer extends WebGl2Object {
  /** A name for messages and labels. */
  label: string;
  readonly #layout: BufferLayout;
  readonly #count: number;
  readonly #adoptedName: number;
  /** The bytes re-uploaded after a context loss. */
  readonly #shadow: RestoreShadow;

  /** @internal Use `Xfb.createBuffer()` or `Xfb.adoptBuffer()`. */
  constructor(
    owner: Xfb,
    registry: ObjectRegistry,
    id: number,
    layout: BufferLayout,
    count: number,
    restore: RestoreSource,
    initial: Uint8Array | null,
    label: string,
    adoptedName: number,
  ) {
    super(owner, registry, 'buffer', id);
    this.#layout = layout;
    this.#count = count;
    this.label = label;
    this.#adoptedName = adoptedName;
    this.#shadow = new RestoreShadow(restore, initial);
  }

  /** @internal */
  protected override nameForMessages(): string {
    return this.label;
  }

  /** The WebGLBuffer holding the latest data (it changes after every step of a state pair), for
   *  your own draws, reads and writes. Under the fragment backend the state lives in textures
   *  between steps: taking the buffer writes it back first, and from then on the backend copies it
   *  in before a step reads it (your writes count) and, unless it is a state pair's (whose latest
   *  buffer you take again after each step), writes each step into it at once. To read a few
   *  elements without that, use `read({ first, count })`. */
  get glBuffer(): WebGLBuffer {
    return this.owner.module.GL.buffers[this.owner.call('glName', this.id)] as WebGLBuffer;
  }
  /** How to bind it as vertex input: stride and, per attribute, semantic, type, components, offset. */
  get layout(): BufferLayout {
    this.checkLive();
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
  /** true for a buffer adopted with adoptBuffer(): xfb never deletes it. */
  get adopted(): boolean {
    return this.#adoptedName !== 0;
  }

  /** Writes bytes at a byte offset (bufferSubData): the offset and the length whole 4-byte words
   *  within the buffer, data of the format's type. @throws XfbError XFB_INVALID_ARGUMENT. */
  upload(data: ArrayBufferView | ArrayBuffer, options: { offset?: number } = {}): void {
    const { bytes, offset } = checkUpload(data, options, this.#layout, this.byteLength);
    this.owner.withHeap(bytes, (pointer, n) => this.owner.call('upload', this.id, pointer, n, offset));
    this.#shadow.uploaded(bytes, offset, this.byteLength);
  }

  /** Resolves to the contents (a typed array of the format's type) of the whole buffer, or of
   *  elements [first, first + count), once the GPU is done: a copy of those elements' bytes into a
   *  staging buffer and a fence polled across tasks (core/poll.ts); never blocks, never waits forever
   *  (XFB_CONTEXT_LOST once the context is lost, XFB_GL_ERROR if the GPU never answers). Only a whole read
   *  is kept for the 'last-readback' restore policy.
   *  @throws XfbError XFB_INVALID_ARGUMENT (the range), XFB_CONTEXT_LOST, XFB_DISPOSED, XFB_GL_ERROR. */
  async read(options: ReadOptions = {}): Promise<BufferContents> {
    const owner = this.owner;
    const { first, count } = checkReadRange(options, this.#count);
    const readback = owner.call('readAsync', this.id, first, count);
    let view: Uint8Array;
    try {
      await owner.waitForGpu('read()', () => owner.call('readbackReady', readback) || null);
      view = owner.call('takeReadback', readback);
    } catch (e) {
      owner.release('readback', readback); // the staging buffer and its fence, also after a context loss
      throw e;
    }
    const bytes = view.slice(); // copied out of the wasm heap
    if (count === this.#count) this.#shadow.readBack(bytes);
    return contentsOf(this.#layout, bytes);
  }

  /** @internal After a context restore: uploads the kept bytes; says where they came from. */
  restoreContents(): RestoredFrom {
    const { bytes, source } = this.#shadow.kept;
    if (bytes) this.owner.withHeap(bytes, (pointer, n) => this.owner.call('upload', this.id, pointer, n, 0));
    return source;
  }

  protected override release(): void {
    super.release();
    if (this.#adoptedName) this.owner.unadopt(this.#adoptedName); // the name forgotten, the object kept
  }
}
