// XFB_FEEDBACK_ACTIVE unless the application's transform feedback is neither active nor paused,
// asked without a GPU round trip (getParameter(TRANSFORM_FEEDBACK_ACTIVE) is a synchronous one in
// Chromium, ~0.2 ms). Active means a buffer at index 0 of the bound object (beginTransformFeedback
// needs one, and it cannot be unbound while active): none, the common case, is one query. Else
// WebGL2 refuses bindBufferBase(TRANSFORM_FEEDBACK_BUFFER) while the object is active, paused or
// not: a buffer of xfb's is bound at its last index, if that is empty, and unbound again (with the
// generic binding bindBufferBase sets); the refusal's INVALID_OPERATION is taken back (getError()
// answers a WebGL-side error without a round trip). A full last index: the query.
import { fail } from '../core/errors.js';

const TRANSFORM_FEEDBACK_BUFFER = 0x8c8e;
const TRANSFORM_FEEDBACK_BUFFER_BINDING = 0x8c8f;
const TRANSFORM_FEEDBACK_ACTIVE = 0x8e24;
const TRANSFORM_FEEDBACK_PAUSED = 0x8e23;
const MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS = 0x8c8b;

export class FeedbackProbe {
  readonly #gl: WebGL2RenderingContext;
  #probe: WebGLBuffer | null = null;
  #lastIndex = -1;

  constructor(gl: WebGL2RenderingContext) {
    this.#gl = gl;
  }

  /** pausedAllowed: a paused capture passes (asked with TRANSFORM_FEEDBACK_PAUSED, a round trip,
   *  only when one is active or paused). */
  requireIdle(what: string, pausedAllowed = false): void {
    const gl = this.#gl;
    if (!gl.getIndexedParameter(TRANSFORM_FEEDBACK_BUFFER_BINDING, 0)) return;
    if (this.#lastIndex < 0) this.#lastIndex = (gl.getParameter(MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS) as number) - 1;
    const k = this.#lastIndex;
    let active: boolean;
    if (gl.getIndexedParameter(TRANSFORM_FEEDBACK_BUFFER_BINDING, k))
      active = gl.getParameter(TRANSFORM_FEEDBACK_ACTIVE) as boolean;
    else {
      const generic = gl.getParameter(TRANSFORM_FEEDBACK_BUFFER_BINDING) as WebGLBuffer | null;
      const probe = (this.#probe ??= gl.createBuffer());
      gl.bindBufferBase(TRANSFORM_FEEDBACK_BUFFER, k, probe);
      active = gl.getIndexedParameter(TRANSFORM_FEEDBACK_BUFFER_BINDING, k) !== probe;
      if (active) gl.getError();
      else {
        gl.bindBufferBase(TRANSFORM_FEEDBACK_BUFFER, k, null);
        gl.bindBuffer(TRANSFORM_FEEDBACK_BUFFER, generic);
      }
    }
    if (active && pausedAllowed && (gl.getParameter(TRANSFORM_FEEDBACK_PAUSED) as boolean)) return;
    if (active)
      fail(
        'XFB_FEEDBACK_ACTIVE',
        `${what}: the application's transform feedback is active or paused (beginTransformFeedback() without endTransformFeedback()); xfb changed nothing: call endTransformFeedback() before calling xfb${pausedAllowed ? ' (or pause it: this call is allowed while it is paused)' : ''}`,
      );
  }

  /** The probe buffer died with a lost context. */
  contextRestored(): void {
    this.#probe = null;
  }

  dispose(): void {
    if (this.#probe) this.#gl.deleteBuffer(this.#probe);
    this.#probe = null;
  }
}
