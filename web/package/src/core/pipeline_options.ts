import { checkKeys, checkOptionalBoolean, checkOptionalCount } from './checks.js';
import { fail } from './errors.js';

/** createPipeline() options both engines take, only those given (as the wasm engine reads them). */
export interface CommonPipelineOptions {
  count?: number;
  queries?: boolean;
  fuseSubsteps?: boolean;
}

const KEYS = ['count', 'queries', 'fuseSubsteps', 'emits', 'overflow'] as const;

/** createPipeline() options, the same keys on both engines: the common ones checked, emits and
 *  overflow as given (core/emit_options.ts checks them on WebGPU). Emitted outputs need compute
 *  shaders: on WebGL2 any emits but [] and any overflow are XFB_UNSUPPORTED, before any other check,
 *  as the misuse is the engine, not the value. */
export function checkPipelineOptions(
  given: unknown,
  backend: 'webgl2' | 'webgpu',
): { common: CommonPipelineOptions; emits: unknown; overflow: unknown } {
  const o = checkKeys(given, KEYS, 'createPipeline() options');
  const noEmits = o.emits === undefined || (Array.isArray(o.emits) && o.emits.length === 0);
  if (backend === 'webgl2' && (!noEmits || o.overflow !== undefined))
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
  return { common, emits: o.emits, overflow: o.overflow };
}
