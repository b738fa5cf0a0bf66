// The application's WebGL state a replayed step changes, saved and restored by the engine's own
// JavaScript guard (Module.GL.xfbStateGuard, engine/src/gl/state_guard_library.js: the one guard,
// also the wasm engine's) with the bits of the replayed pass: its program and vertex array, and every
// binding of a buffer `writes(subject, buffer)` says the pass may write (a transform-feedback draw
// fails while a buffer it writes is bound elsewhere); another buffer stays bound, untouched. The
// transform feedback binding and RASTERIZER_DISCARD are only read: the pass leaves them as found.
import type { EmscriptenGl, GuardToken } from './wasm_module.js';

const TRANSFORM_FEEDBACK_BINDING = 0x8e25;
const RASTERIZER_DISCARD = 0x8c89;

export type WritesBuffer<S> = (subject: S, buffer: WebGLBuffer) => boolean;

export class StateGuard {
  readonly #gl: WebGL2RenderingContext;
  readonly #GL: EmscriptenGl;
  readonly #stepBits: number;
  #token: GuardToken | null = null;
  /** The application's transform feedback object, left bound after a replayed pass. */
  transformFeedback: WebGLTransformFeedback | null = null;
  /** The application left RASTERIZER_DISCARD enabled: the pass neither enables nor disables it. */
  rasterizerDiscard = false;

  constructor(gl: WebGL2RenderingContext, GL: EmscriptenGl) {
    this.#gl = gl;
    this.#GL = GL;
    const bits = GL.xfbStateGuard.bits; // the engine's StateBit values, never retyped here
    this.#stepBits = bits.program | bits.vertexArray | bits.writtenBindings;
  }

  save<S>(subject: S, writes: WritesBuffer<S>): void {
    const gl = this.#gl;
    this.#token = this.#GL.xfbStateGuard.save(gl, this.#stepBits, writes, subject);
    this.transformFeedback = gl.getParameter(TRANSFORM_FEEDBACK_BINDING) as WebGLTransformFeedback | null;
    this.rasterizerDiscard = gl.isEnabled(RASTERIZER_DISCARD);
  }

  restore(): void {
    if (this.#token !== null) this.#GL.xfbStateGuard.restore(this.#gl, this.#token);
    this.#token = null;
  }
}
