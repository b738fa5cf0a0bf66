import { checkDraw, checkDrawBack, checkDrawSession, checkSession } from '../core/draws.js';
import { checkPipelineParts, type ObjectRegistry, XfbObjectBase } from '../core/registry.js';
import type { CaptureCount, CaptureDraw, DrawBackOptions, SessionPlan } from '../core/types.js';
import type { Xfb } from './engine.js';
import { WebGl2Object } from './object.js';
import type { XfbProgram } from './program.js';

/** One part of an append session: a draw, optionally with another program writing the same record layout. */
export type SessionPart = CaptureDraw & { program?: XfbProgram };

/** Primitive capture: a program run over draws of points, lines or triangles, whole primitives
 *  written to the outputs (the driver's expansion, or the engine's record gather on WebGL2). */
export class XfbCapture extends WebGl2Object {
  /** The program and buffers it was created with: it captures only while they live. */
  readonly #parts: readonly XfbObjectBase[];

  /** @internal Use `Xfb.createCapture()`. */
  constructor(owner: Xfb, registry: ObjectRegistry, id: number, parts: readonly XfbObjectBase[]) {
    super(owner, registry, 'capture', id);
    this.#parts = parts;
  }

  /** How primitives are expanded and the vertex count of the last capture. */
  get info(): { expansion: 'driver' | 'engine'; vertexCount: number } {
    return this.owner.call('captureInfo', this.id);
  }

  /** Captures a draw: { mode, count } or { mode, indices, restartIndex? }. indices: a Uint8/16/32Array
   *  or an array of integers; restartIndex defaults to the index type's maximum, as WebGL2's
   *  fixed-index primitive restart does (null: no restart).
   *  @throws XfbError XFB_CAPACITY (nothing written) when an output cannot hold the primitives. */
  capture(draw: CaptureDraw): CaptureCount {
    const d = checkDraw(draw, 'capture()');
    checkPipelineParts(this.#parts, 'capture()', 'capture');
    const bytes = d.indices ? new Uint8Array(d.indices.buffer) : null;
    const indexCount = d.indices ? d.indices.length : -1;
    return this.owner.withHeap(bytes, (pointer) =>
      this.owner.call('capture', this.id, d.mode, d.count, pointer, indexCount, d.restart),
    );
  }

  /** Draws the last capture's vertices with the program and vertex array bound on the context
   *  (drawArrays(Instanced) with the planned count: no readback, no query). */
  drawCaptured(options: DrawBackOptions = {}): void {
    const o = checkDrawBack(options, 'drawCaptured()');
    this.owner.call('drawCaptured', this.id, o.mode ?? '', o.instances);
  }

  /** Captures several draws one after another into the outputs, from record `firstRecord`
   *  (default 0; the records before it are untouched), each part with an optional program writing
   *  the same record layout (README "Append captures").
   *  @throws XfbError XFB_CAPACITY, XFB_OUTPUT_LAYOUT_MISMATCH: the whole session is checked first, nothing written. */
  captureSession(parts: SessionPart[], options: { firstRecord?: number } = {}): SessionPlan {
    const isProgram = (p: unknown): p is XfbProgram => XfbObjectBase.isOwn(p, 'program', this);
    const session = checkSession(parts, options, isProgram);
    checkPipelineParts(this.#parts, 'captureSession()', 'capture');
    const list = session.parts.map((p) => ({
      ...p.draw,
      ...(p.program ? { program: p.program.id } : {}),
    }));
    return this.owner.call('captureSession', this.id, list, session.firstRecord);
  }

  /** Draws the last session's records, of one part ({ part }) or all of them, with the program and
   *  vertex array bound on the context: drawArraysInstanced(mode, firstRecord, records, instances)
   *  with the planned range (no readback, no query). */
  drawSession(options: DrawBackOptions & { part?: number } = {}): void {
    const o = checkDrawSession(options);
    this.owner.call('drawSession', this.id, o.part ?? -1, o.mode ?? '', o.instances);
  }
}
