// The application's WebGL state a replayed step changes, saved and restored as the engine's
// StateGuard does (engine/src/gl/state_guard.cpp, kStepState). A transform-feedback draw fails
// while a buffer it writes is bound elsewhere: ARRAY_BUFFER and the other bindings
// (GL.xfbUnbindWritten) are cleared (and restored) when `writes(subject, buffer)` says a pass of
// `subject` may write their buffer; another buffer stays bound, untouched.
import type { EmscriptenGl, EmscriptenProgram } from './wasm_module.js';

const CURRENT_PROGRAM = 0x8b8d;
const DELETE_STATUS = 0x8b80;
const VERTEX_ARRAY_BINDING = 0x85b5;
const ARRAY_BUFFER = 0x8892;
const ARRAY_BUFFER_BINDING = 0x8894;
const TRANSFORM_FEEDBACK_BINDING = 0x8e25;
const RASTERIZER_DISCARD = 0x8c89;

export type WritesBuffer<S> = (subject: S, buffer: WebGLBuffer) => boolean;

export class StateGuard {
  readonly #gl: WebGL2RenderingContext;
  readonly #GL: EmscriptenGl;
  #program: EmscriptenProgram | null = null;
  #programDeleted = false;
  #vertexArray: WebGLVertexArrayObject | null = null;
  #arrayBuffer: WebGLBuffer | null = null;
  #otherBindings: unknown = null;
  /** The application's transform feedback object, left bound after a replayed pass. */
  transformFeedback: WebGLTransformFeedback | null = null;
  /** The application left RASTERIZER_DISCARD enabled: the pass neither enables nor disables it. */
  rasterizerDiscard = false;

  constructor(gl: WebGL2RenderingContext, GL: EmscriptenGl) {
    this.#gl = gl;
    this.#GL = GL;
  }

  save<S>(subject: S, writes: WritesBuffer<S>): void {
    const gl = this.#gl;
    this.#program = gl.getParameter(CURRENT_PROGRAM) as EmscriptenProgram | null;
    if (this.#program) this.#programDeleted = gl.getProgramParameter(this.#program, DELETE_STATUS) as boolean;
    this.#vertexArray = gl.getParameter(VERTEX_ARRAY_BINDING) as WebGLVertexArrayObject | null;
    const buffer = gl.getParameter(ARRAY_BUFFER_BINDING) as WebGLBuffer | null;
    this.#arrayBuffer = buffer !== null && writes(subject, buffer) ? buffer : null;
    if (this.#arrayBuffer) gl.bindBuffer(ARRAY_BUFFER, null);
    this.#otherBindings = this.#GL.xfbUnbindWritten(gl, writes, subject);
    this.transformFeedback = gl.getParameter(TRANSFORM_FEEDBACK_BINDING) as WebGLTransformFeedback | null;
    this.rasterizerDiscard = gl.isEnabled(RASTERIZER_DISCARD);
  }

  restore(): void {
    const gl = this.#gl;
    const program = this.#program;
    // name 0: a program xfb deleted (Emscripten's mark).
    gl.useProgram(program && !this.#programDeleted && program.name !== 0 ? program : null);
    gl.bindVertexArray(this.#vertexArray);
    if (this.#arrayBuffer) gl.bindBuffer(ARRAY_BUFFER, this.#arrayBuffer);
    if (this.#otherBindings) this.#GL.xfbRebind(gl, this.#otherBindings);
  }
}
