import { checkKeys, checkOptionalBoolean, checkOptionalCount } from './checks.js';
import { fail } from './errors.js';

/** createPipeline() options both engines take, only those given (as the wasm engine reads them). */
export interface CommonPipelineOptions {
  count?: number;
  queries?: boolean;
  fuseSubsteps?: boolean;
}

const COMMON_KEYS = ['count', 'queries', 'fuseSubsteps'] as const;
const EMIT_KEYS = ['emits', 'overflow'] as const;

/** createPipeline() options: the common ones checked, and the others as given (emits, overflow:
 *  core/emit_options.ts, WebGPU only). Emitted outputs need compute shaders: XFB_UNSUPPORTED on
 *  WebGL2, before any other check, as the misuse is the engine, not the value. */
export function checkPipelineOptions(
  given: unknown,
  backend: 'webgl2' | 'webgpu',
): { common: CommonPipelineOptions; emits: unknown; overflow: unknown } {
  const emitsGiven = (given as { emits?: unknown } | null)?.emits;
  if (backend === 'webgl2' && Array.isArray(emitsGiven) && emitsGiven.length)
    fail(
      'XFB_UNSUPPORTED',
      'createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine',
    );
  const o = checkKeys(
    given,
    backend === 'webgpu' ? [...COMMON_KEYS, ...EMIT_KEYS] : COMMON_KEYS,
    'createPipeline() options',
  );
  const common: CommonPipelineOptions = {};
  const count = checkOptionalCount(o.count, 'createPipeline(): count');
  const queries = checkOptionalBoolean(o.queries, 'createPipeline(): queries');
  const fuseSubsteps = checkOptionalBoolean(o.fuseSubsteps, 'createPipeline(): fuseSubsteps');
  if (count !== undefined) common.count = count;
  if (queries !== undefined) common.queries = queries;
  if (fuseSubsteps !== undefined) common.fuseSubsteps = fuseSubsteps;
  return { common, emits: (o as Record<string, unknown>).emits, overflow: (o as Record<string, unknown>).overflow };
}
