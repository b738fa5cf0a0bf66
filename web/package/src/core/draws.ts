// The options and draws of a primitive capture, checked alike for both engines.
import type { DrawMode, Expansion } from '#engine-tables';
import { checkKeys, checkName, checkOptionalCount, checkOptionalIndex, shown } from './checks.js';
import { oneOf, tables } from './engine_tables.js';
import { invalid } from './errors.js';
import type { CaptureOptions, DrawBackOptions, EmittedDrawOptions } from './types.js';

const INDEX_MAX = new Map<unknown, number>([
  [Uint8Array, 0xff],
  [Uint16Array, 0xffff],
  [Uint32Array, 0xffffffff],
]);

/** createCapture() options: { vertexCount?, expansion? }. */
export function checkCaptureOptions(given: CaptureOptions): {
  vertexCount?: number;
  expansion?: Expansion;
} {
  const o = checkKeys(given, ['vertexCount', 'expansion'], 'createCapture() options');
  const vertexCount = checkOptionalCount(o.vertexCount, 'createCapture(): vertexCount');
  const expansion =
    o.expansion === undefined
      ? undefined
      : checkName(o.expansion, tables().expansions, 'createCapture(): expansion', oneOf(tables().expansions));
  return { vertexCount, expansion };
}

export function checkDrawMode(mode: unknown, what: string): DrawMode {
  const modes = tables().drawModes;
  return checkName(mode, modes, `${what}: mode`, `one of ${modes.join(', ')}`);
}

/** A draw checked: { mode, count } or { mode, indices, restartIndex? }; indices as a Uint32Array
 *  (null for a count), restart -1 for none; `rest`: the other keys the caller allows, unchecked. */
export interface CheckedDraw {
  mode: DrawMode;
  count: number;
  indices: Uint32Array | null;
  restart: number;
  rest: Record<string, unknown>;
}

export function checkDraw(given: unknown, what: string, extraKeys: readonly string[] = []): CheckedDraw {
  const draw: Record<string, unknown> = checkKeys(
    given,
    ['mode', 'count', 'indices', 'restartIndex', ...extraKeys],
    what,
  );
  const mode = checkDrawMode(draw.mode, what);
  const { count, indices, restartIndex } = draw;
  let checkedIndices: Uint32Array | null = null;
  let restart = -1;
  if (indices !== undefined) {
    if (count !== undefined) invalid(`${what}: give either count or indices, not both`);
    const typedMax = INDEX_MAX.get(indices === null ? undefined : indices.constructor);
    const max = typedMax ?? 0xffffffff;
    if (Array.isArray(indices)) {
      indices.forEach((v: unknown, i) => {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
          invalid(`${what}: indices[${i}] is ${String(v)}, not an integer 0..${max}`);
      });
    } else if (typedMax === undefined)
      invalid(`${what}: indices must be a Uint8Array, Uint16Array, Uint32Array or an array of integers`);
    checkedIndices = Uint32Array.from(indices as ArrayLike<number>);
    const r = restartIndex === undefined ? max : restartIndex;
    if (r !== null && (typeof r !== 'number' || !Number.isInteger(r) || r < 0 || r > 0xffffffff))
      invalid(`${what}: restartIndex must be an integer 0..4294967295 or null, got ${shown(r)}`);
    restart = r ?? -1;
  } else {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      invalid(`${what}: count must be a non-negative integer, got ${String(count)}`);
    if (restartIndex !== undefined) invalid(`${what}: restartIndex needs indices`);
  }
  const rest: Record<string, unknown> = {};
  for (const key of extraKeys) rest[key] = draw[key];
  return {
    mode,
    count: typeof count === 'number' ? count : 0,
    indices: checkedIndices,
    restart,
    rest,
  };
}

/** A checked draw as the planner reads it (WebGL2's captureSession parts, WebGPU's captureDraws). */
export interface DrawFields {
  mode: string;
  count: number;
  indices?: Uint32Array;
  restartIndex?: number;
}

export function drawFields(d: CheckedDraw): DrawFields {
  const draw: DrawFields = { mode: d.mode, count: d.count };
  if (d.indices) draw.indices = d.indices;
  if (d.restart >= 0) draw.restartIndex = d.restart;
  return draw;
}

/** captureSession(parts, options): the options' firstRecord (default 0) and every part checked,
 *  each with its optional program, which `isProgram` accepts (a program of this engine). */
export function checkSession<P>(
  parts: unknown,
  options: unknown,
  isProgram: (p: unknown) => p is P,
): {
  firstRecord: number;
  parts: { draw: DrawFields; program: P | undefined }[];
} {
  const firstRecord = checkOptionalIndex(
    checkKeys(options, ['firstRecord'], 'captureSession() options').firstRecord,
    'captureSession(): firstRecord',
    0,
  );
  if (!Array.isArray(parts) || parts.length === 0)
    invalid('captureSession(): parts must be a non-empty array of draws');
  const checked = parts.map((given: unknown, i) => {
    const what = `captureSession(): parts[${i}]`;
    const d = checkDraw(given, what, ['program']);
    const program = d.rest.program;
    if (program !== undefined && !isProgram(program))
      invalid(`${what}: program must be a program of this engine (its createProgram())`);
    return { draw: drawFields(d), program };
  });
  return { firstRecord, parts: checked };
}

/** drawSession() options: drawCaptured()'s and the part to draw (absent: the whole session). */
export function checkDrawSession(given: unknown): ReturnType<typeof checkDrawBack> & { part: number | undefined } {
  const o = checkDrawBack(given, 'drawSession()', ['part']);
  const part = o.rest.part;
  if (part !== undefined && (typeof part !== 'number' || !Number.isInteger(part) || part < 0))
    invalid(`drawSession(): part must be a non-negative integer, got ${shown(part)}`);
  return { ...o, part };
}

/** drawCaptured() / drawSession() options: a mode to draw with instead, an instance count. */
export function checkDrawBack(
  given: unknown,
  what: string,
  extraKeys: readonly string[] = [],
): Required<Omit<DrawBackOptions, 'mode'>> & {
  mode: DrawMode | undefined;
  rest: Record<string, unknown>;
} {
  const options: Record<string, unknown> = checkKeys(given, ['mode', 'instances', ...extraKeys], `${what} options`);
  const mode = options.mode === undefined ? undefined : checkDrawMode(options.mode, what);
  const instances = options.instances === undefined ? 1 : options.instances;
  if (typeof instances !== 'number' || !Number.isInteger(instances) || instances < 1)
    invalid(`${what}: instances must be a positive integer, got ${shown(instances)}`);
  const rest: Record<string, unknown> = {};
  for (const key of extraKeys) rest[key] = options[key];
  return { mode, instances, rest };
}

/** drawEmitted(budget, options): the budget's name and the mode (default 'points'). */
export function checkEmittedDraw(budget: unknown, options: EmittedDrawOptions): { budget: string; mode: DrawMode } {
  if (typeof budget !== 'string' || budget === '')
    invalid(`drawEmitted(): budget must be the name of a budget's count output, got ${shown(budget)}`);
  const o = checkKeys(options, ['mode'], 'drawEmitted() options');
  return { budget, mode: o.mode === undefined ? 'points' : checkDrawMode(o.mode, 'drawEmitted()') };
}
