import { adoptTables, type EngineTables } from './engine_tables.js';
import { XfbError } from './errors.js';

const isNode = !!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;

/** What both modules give (web/src/planner_calls.cpp, through core/boundary.ts's Planner). */
export interface PlannerModule {
  enums(): EngineTables;
  inspect(source: string, options: object): unknown;
  normaliseFormat(format: object[], stride?: unknown): unknown;
}

export type ModuleFactory<M> = (options: {
  locateFile: (file: string) => string;
  XfbError: typeof XfbError;
}) => Promise<M>;

/** Instantiates a module from its factory and the static URL of its .wasm, and wraps its exports
 *  (`wrap`: the driver's typed wrapper); the WebGPU module's embind bindings answer a failure with
 *  an XfbError of this package. */
export async function instantiate<R, M extends PlannerModule>(
  factory: ModuleFactory<R>,
  wasmUrl: URL,
  wrap: (raw: R) => M,
): Promise<M> {
  const locateFile = (file: string): string => {
    if (!file.endsWith('.wasm')) return file;
    return isNode ? decodeURIComponent(wasmUrl.pathname) : wasmUrl.href;
  };
  const module = wrap(await factory({ locateFile, XfbError }));
  adoptTables(module.enums());
  return module;
}
