// The draws of a capture (WebGL2 only, but checked here with every other argument).
import type { DrawMode } from '#engine-tables';
import { checkKeys, checkName, shown } from './checks.js';
import { tables } from './engine_tables.js';
import { invalid } from './errors.js';
import type { DrawBackOptions } from './types.js';

const INDEX_MAX = new Map<unknown, number>([
  [Uint8Array, 0xff],
  [Uint16Array, 0xffff],
  [Uint32Array, 0xffffffff],
]);

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
  return { mode, count: typeof count === 'number' ? count : 0, indices: checkedIndices, restart, rest };
}

/** drawCaptured() / drawSession() options: a mode to draw with instead, an instance count. */
export function checkDrawBack(
  given: unknown,
  what: string,
  extraKeys: readonly string[] = [],
): Required<Omit<DrawBackOptions, 'mode'>> & { mode: DrawMode | undefined; rest: Record<string, unknown> } {
  const options: Record<string, unknown> = checkKeys(given, ['mode', 'instances', ...extraKeys], `${what} options`);
  const mode = options.mode === undefined ? undefined : checkDrawMode(options.mode, what);
  const instances = options.instances === undefined ? 1 : options.instances;
  if (typeof instances !== 'number' || !Number.isInteger(instances) || instances < 1)
    invalid(`${what}: instances must be a positive integer, got ${shown(instances)}`);
  const rest: Record<string, unknown> = {};
  for (const key of extraKeys) rest[key] = options[key];
  return { mode, instances, rest };
}
