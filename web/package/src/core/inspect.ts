import { unwrap, type XfbError } from './errors.js';
import { checkInspectArguments } from './program_options.js';
import type { Plan } from './types.js';

/** inspect(source, options) on a module's planner: the same checks and answer on both engines. */
export function inspectWith(
  module: { inspect(source: string, options: object): unknown },
  source: unknown,
  options: unknown,
): Plan {
  const checked = checkInspectArguments(source, options);
  return unwrap(module.inspect(checked.source, checked.options) as Plan | XfbError);
}
