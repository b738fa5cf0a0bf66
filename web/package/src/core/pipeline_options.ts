import { checkKeys, checkName, checkOptionalBoolean, checkOptionalCount } from './checks.js';
import { checkEmitOptions } from './emit_options.js';
import { oneOf, tables } from './engine_tables.js';
import { fail } from './errors.js';
import type { Backend, EmitDesc } from './types.js';

/** createPipeline() options both engines take, only those given (as the wasm engine reads them). */
export interface CommonPipelineOptions {
  count?: number;
  queries?: boolean;
  fuseSubsteps?: boolean;
  backend?: Backend;
  rasterize?: boolean;
}

const KEYS = ['count', 'queries', 'fuseSubsteps', 'emits', 'overflow', 'backend', 'rasterize'] as const;

/** A backend name (C++ XFB_BACKENDS); what the engine cannot run is its own refusal
 *  (checkBackendOn). `what` names the call. */
export function checkBackendName(value: unknown, what: string): Backend {
  return checkName(value, tables().backends, what, oneOf(tables().backends));
}

/** XFB_UNSUPPORTED for a backend the runtime lacks: WebGL2 has no compute shaders; WebGPU runs
 *  every step as a compute pass. */
export function checkBackendOn(backend: Backend, runtime: 'webgl2' | 'webgpu', what: string): void {
  if (runtime === 'webgl2' && backend === 'compute')
    fail(
      'XFB_UNSUPPORTED',
      `${what}: the compute backend needs compute shaders, which WebGL2 does not have; use 'tf', 'fragment' or 'auto', or the WebGPU engine`,
    );
  if (runtime === 'webgpu' && (backend === 'tf' || backend === 'fragment'))
    fail(
      'XFB_UNSUPPORTED',
      `${what}: WebGPU runs every step as a compute pass; '${backend}' is a WebGL2 backend (use 'compute' or 'auto')`,
    );
}

/** createPipeline() options, the same keys and checks on both engines (emitted outputs run as
 *  compute passes on WebGPU, as the fragment backend's pyramid passes on WebGL2). */
export function checkPipelineOptions(
  given: unknown,
  backend: 'webgl2' | 'webgpu',
): { common: CommonPipelineOptions; emits: EmitDesc[]; overflow: 'error' | 'clamp' } {
  const o = checkKeys(given, KEYS, 'createPipeline() options');
  const emitted = checkEmitOptions(o.emits, o.overflow);
  const common: CommonPipelineOptions = {};
  const count = checkOptionalCount(o.count, 'createPipeline(): count');
  const queries = checkOptionalBoolean(o.queries, 'createPipeline(): queries');
  const fuseSubsteps = checkOptionalBoolean(o.fuseSubsteps, 'createPipeline(): fuseSubsteps');
  const rasterize = checkOptionalBoolean(o.rasterize, 'createPipeline(): rasterize');
  if (rasterize && backend === 'webgpu')
    fail(
      'XFB_UNSUPPORTED',
      'createPipeline(): rasterize needs transform feedback, and WebGPU has none (every step is a compute pass); draw the state buffer in your own render pass, or use the WebGL2 engine',
    );
  if (o.backend !== undefined) {
    common.backend = checkBackendName(o.backend, 'createPipeline(): backend');
    checkBackendOn(common.backend, backend, 'createPipeline()');
  }
  if (count !== undefined) common.count = count;
  if (queries !== undefined) common.queries = queries;
  if (fuseSubsteps !== undefined) common.fuseSubsteps = fuseSubsteps;
  if (rasterize !== undefined) common.rasterize = rasterize;
  return { common, emits: emitted.emits, overflow: emitted.overflow };
}
