import { checkKeys, checkOptionalBoolean, checkOptionalCount } from './checks.js';
import { checkEmitOptions } from './emit_options.js';
import { fail } from './errors.js';
import type { EmitDesc } from './types.js';

/** createPipeline() options both engines take, only those given (as the wasm engine reads them). */
export interface CommonPipelineOptions {
  count?: number;
  queries?: boolean;
  fuseSubsteps?: boolean;
}

const KEYS = ['count', 'queries', 'fuseSubsteps', 'emits', 'overflow'] as const;

/** createPipeline() options, the same keys and checks on both engines. Emitted outputs need compute
 *  shaders: on WebGL2 well-formed emits (but []) and any overflow are then XFB_UNSUPPORTED (a
 *  malformed value is XFB_INVALID_ARGUMENT first, as on WebGPU). */
export function checkPipelineOptions(
  given: unknown,
  backend: 'webgl2' | 'webgpu',
): { common: CommonPipelineOptions; emits: EmitDesc[]; overflow: 'error' | 'clamp' } {
  const o = checkKeys(given, KEYS, 'createPipeline() options');
  const emitted = checkEmitOptions(o.emits, o.overflow);
  if (backend === 'webgl2' && (emitted.emits.length > 0 || o.overflow !== undefined))
    fail(
      'XFB_UNSUPPORTED',
      'createPipeline(): emitted outputs need compute shaders, which WebGL2 does not have; use the WebGPU engine',
    );
  const common: CommonPipelineOptions = {};
  const count = checkOptionalCount(o.count, 'createPipeline(): count');
  const queries = checkOptionalBoolean(o.queries, 'createPipeline(): queries');
  const fuseSubsteps = checkOptionalBoolean(o.fuseSubsteps, 'createPipeline(): fuseSubsteps');
  if (count !== undefined) common.count = count;
  if (queries !== undefined) common.queries = queries;
  if (fuseSubsteps !== undefined) common.fuseSubsteps = fuseSubsteps;
  return { common, emits: emitted.emits, overflow: emitted.overflow };
}
