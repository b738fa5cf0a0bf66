// The argument checks every public call makes, shared by both engines: one rule, one message.
import { constants } from './engine_tables.js';
import { fail, invalid } from './errors.js';

/** `typeof`, with null named as such, for messages. */
export function typeName(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/** A value as a message shows it: as template literals do (an object as '[object Object]'). */
export function shown(value: unknown): string {
  return String(value);
}

/** Checks an options object's keys and returns a copy of its own properties without a prototype:
 *  validation never reads an inherited property (Object.prototype.count, a class getter). */
export function checkKeys<K extends string>(
  object: unknown,
  allowed: readonly K[],
  what: string,
): Partial<Record<K, unknown>> {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) invalid(`${what} must be an object`);
  const own = Object.create(null) as Partial<Record<K, unknown>>;
  for (const key of Object.keys(object)) {
    if (!(allowed as readonly string[]).includes(key))
      invalid(`${what}: unknown key '${key}' (allowed: ${allowed.join(', ')})`);
    own[key as K] = (object as Record<string, unknown>)[key];
  }
  return own;
}

export function checkCount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    invalid(`${what} must be a positive integer, got ${String(value)}`);
  return value;
}

export function checkOptionalCount(value: unknown, what: string): number | undefined {
  return value === undefined ? undefined : checkCount(value, what);
}

export function checkOptionalBoolean(value: unknown, what: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') invalid(`${what} must be a boolean`);
  return value;
}

/** A value of a closed list of names (a table of the engine or of the package). */
export function checkName<T extends string>(value: unknown, names: readonly T[], what: string, list: string): T {
  if (!(names as readonly unknown[]).includes(value)) invalid(`${what} must be ${list}, got '${String(value)}'`);
  return value as T;
}

/** count x stride within the per-buffer limit (WebGL2's), checked before anything is allocated. */
export function checkByteLength(count: number, stride: number, what: string): void {
  const bytes = count * stride;
  const max = constants().maxBufferBytes;
  if (bytes > max)
    fail(
      'XFB_BUFFER_TOO_LARGE',
      `${what}: ${count} elements x ${stride} bytes = ${bytes} bytes, over WebGL2's limit of 2^31-1 bytes per buffer; use fewer elements or split them over several buffers`,
    );
}

/** step(k): k an integer 1..maxSubsteps. */
export function checkSubsteps(substeps: unknown): number {
  const max = constants().maxSubsteps;
  if (typeof substeps !== 'number' || !Number.isInteger(substeps) || substeps < 1 || substeps > max)
    invalid(
      `step(${String(substeps)}): the number of substeps must be an integer 1..${max} (limits::maxSubsteps); call step() more often for more`,
    );
  return substeps;
}

/** A non-negative integer option (a part index, a first record). */
export function checkIndex(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    invalid(`${what} must be an integer 0..2^53-1, got ${String(value)}`);
  return value;
}

/** A non-negative integer the engine takes as a C++ int (a declared layout's numbers): 0..2^31-1. */
export function checkInt(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1)
    invalid(`${what} must be an integer 0..2^31-1, got ${typeof value === 'number' ? shown(value) : typeName(value)}`);
  return value;
}

/** An optional non-negative integer option: undefined is `absent`; null and every other value are checked. */
export function checkOptionalIndex(value: unknown, what: string, absent: number): number {
  return value === undefined ? absent : checkIndex(value, what);
}

/** step(), stepChecked() or steps() while a stepChecked() of the pipeline is pending: refused on both
 *  engines (WebGL2 reads the step's query across frames; WebGPU would record on the same side). */
export function checkNoCheckedStepPending(pending: boolean, what: string): void {
  if (pending)
    invalid(
      `${what}: a stepChecked() of this pipeline is pending; await its promise before stepping the pipeline again`,
    );
}

/** steps(pipelines): an array of pipelines, each `own` (of this engine). */
export function checkPipelineList<P>(pipelines: unknown, own: (p: unknown) => p is P): P[] {
  if (!Array.isArray(pipelines) || !pipelines.every((p) => own(p)))
    invalid("steps(): pipelines must be an array of this engine's pipelines");
  return pipelines;
}

/** A GPUDevice given to createXfb({ device }) or restore(device) (recognised by its shape: a
 *  device of another realm or a wrapper is one too). */
export function checkDevice(value: unknown, what: string): asserts value is GPUDevice {
  const d = value as Partial<GPUDevice> | null;
  if (typeof d?.createComputePipeline !== 'function' || !d.queue)
    invalid(`${what}: device must be a GPUDevice, got ${typeName(value)}`);
}
