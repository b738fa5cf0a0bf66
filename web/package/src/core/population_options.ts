// createPopulation() options, checked alike for both engines; what the planner judges (the fields'
// inputs and emitted arrays, the count output, the capacity's size) is the engine's own refusal.
import { checkCount, checkKeys, checkName, shown } from './checks.js';
import { invalid } from './errors.js';
import { checkBackendName, checkBackendOn } from './pipeline_options.js';
import type { Backend, PopulationField, PopulationOptions } from './types.js';

export interface CheckedPopulationOptions {
  capacity: number;
  state: PopulationField[];
  count: string;
  overflow: 'error' | 'clamp';
  backend: Backend;
}

const name = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value === '') invalid(`${what} must be a non-empty string, got ${shown(value)}`);
  return value;
};

export function checkPopulationOptions(
  given: PopulationOptions,
  runtime: 'webgl2' | 'webgpu',
): CheckedPopulationOptions {
  const o = checkKeys(given, ['capacity', 'state', 'count', 'overflow', 'backend'], 'createPopulation() options');
  const capacity = checkCount(o.capacity, 'createPopulation(): capacity'); // its size: the planner's (XFB_BUFFER_TOO_LARGE)
  if (!Array.isArray(o.state) || o.state.length === 0)
    invalid('createPopulation(): state must be a non-empty array of { input, emitted } fields');
  const state = o.state.map((f: unknown, i) => {
    const field = checkKeys(f, ['input', 'emitted'], `createPopulation(): state[${i}]`);
    return {
      input: name(field.input, `createPopulation(): state[${i}].input`),
      emitted: name(field.emitted, `createPopulation(): state[${i}].emitted`),
    };
  });
  const count = name(o.count, 'createPopulation(): count');
  const overflow =
    o.overflow === undefined
      ? 'error'
      : checkName(o.overflow, ['error', 'clamp'] as const, 'createPopulation(): overflow', "'error' or 'clamp'");
  const backend = o.backend === undefined ? 'auto' : checkBackendName(o.backend, 'createPopulation(): backend');
  checkBackendOn(backend, runtime, 'createPopulation()');
  return { capacity, state, count, overflow, backend };
}
