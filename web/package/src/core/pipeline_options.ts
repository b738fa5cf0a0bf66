import { checkKeys, checkName, checkOptionalBoolean, checkOptionalCount } from './checks.js';
import { fail, invalid } from './errors.js';
import type { EmitDesc } from './types.js';

/** createPipeline() options as both engines check them. */
export interface CheckedPipelineOptions {
  /** The options both engines take, only those given (as the wasm engine reads them). */
  common: { count?: number; queries?: boolean; fuseSubsteps?: boolean };
  emits: EmitDesc[];
  overflow: 'error' | 'clamp';
}

const KEYS = ['count', 'queries', 'fuseSubsteps', 'emits', 'overflow'] as const;

/** createPipeline() options. Emitted outputs (emits, overflow) need compute shaders: XFB_UNSUPPORTED
 *  on WebGL2, before any other check, as the misuse is the engine, not the value. */
export function checkPipelineOptions(given: unknown, backend: 'webgl2' | 'webgpu'): CheckedPipelineOptions {
  const emitsGiven = (given as { emits?: unknown } | null)?.emits;
  if (backend === 'webgl2' && Array.isArray(emitsGiven) && emitsGiven.length)
    fail(
      'XFB_UNSUPPORTED',
      'createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine',
    );
  const o = checkKeys(given, backend === 'webgpu' ? KEYS : KEYS.slice(0, 3), 'createPipeline() options');
  const checked: CheckedPipelineOptions = { common: {}, emits: [], overflow: 'error' };
  const count = checkOptionalCount(o.count, 'createPipeline(): count');
  const queries = checkOptionalBoolean(o.queries, 'createPipeline(): queries');
  const fuseSubsteps = checkOptionalBoolean(o.fuseSubsteps, 'createPipeline(): fuseSubsteps');
  if (count !== undefined) checked.common.count = count;
  if (queries !== undefined) checked.common.queries = queries;
  if (fuseSubsteps !== undefined) checked.common.fuseSubsteps = fuseSubsteps;
  const emits = o.emits ?? [];
  if (!Array.isArray(emits) || emits.some((e: unknown) => !isEmitDesc(e)))
    invalid(
      'createPipeline(): emits must be an array of { varying, count } (output names), one {output} entry each after the captured ones',
    );
  checked.emits = (emits as EmitDesc[]).map((e) => ({ varying: e.varying, count: e.count }));
  checked.overflow = checkName(
    o.overflow ?? 'error',
    ['error', 'clamp'] as const,
    'createPipeline(): overflow',
    "'error' or 'clamp'",
  );
  return checked;
}

function isEmitDesc(e: unknown): e is EmitDesc {
  return !!e && typeof (e as EmitDesc).varying === 'string' && typeof (e as EmitDesc).count === 'string';
}
