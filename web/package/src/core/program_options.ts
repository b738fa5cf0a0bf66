import type { CaptureMode } from '#engine-tables';
import { checkKeys, checkName, checkOptionalBoolean, typeName } from './checks.js';
import { oneOf, tables } from './engine_tables.js';
import { invalid } from './errors.js';

/** Program options as the planner takes them, every field given. */
export interface CheckedProgramOptions {
  mode: CaptureMode;
  varyings: string[];
  defines: Record<string, string | number | boolean>;
  portable: boolean;
}

const MACRO_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Program and inspect() options: mode, varyings, defines ({ NAME: string | finite number | boolean }), portable. */
export function checkProgramOptions(
  options: Partial<Record<keyof CheckedProgramOptions, unknown>>,
  what: string,
): CheckedProgramOptions {
  const modes = tables().captureModes;
  const mode = checkName(
    options.mode === undefined ? 'interleaved' : options.mode,
    modes,
    `${what}: mode`,
    oneOf(modes),
  );
  const varyings = options.varyings === undefined ? [] : options.varyings;
  if (!Array.isArray(varyings) || varyings.some((v) => typeof v !== 'string'))
    invalid(`${what}: varyings must be an array of output names`);
  const portable = checkOptionalBoolean(options.portable, `${what}: portable`) ?? true;
  const defines = options.defines === undefined ? {} : options.defines;
  if (defines === null || typeof defines !== 'object' || Array.isArray(defines))
    invalid(`${what}: defines must be an object { NAME: value }`);
  const checked: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(defines as Record<string, unknown>)) {
    if (!MACRO_NAME.test(name)) invalid(`${what}: defines: '${name}' is not a macro name`);
    if (!(
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    ))
      invalid(`${what}: defines.${name} must be a string, a finite number or a boolean, got ${typeName(value)}`);
    checked[name] = value;
  }
  return { mode, varyings: [...(varyings as string[])], defines: checked, portable };
}

const PROGRAM_KEYS = ['source', 'mode', 'varyings', 'defines', 'portable', 'label'] as const;
const INSPECT_KEYS = ['mode', 'varyings', 'defines', 'portable'] as const;

/** createProgram()'s description: the GLSL source, the options, a label. */
export function checkProgramDescription(given: unknown): {
  source: string;
  options: CheckedProgramOptions;
  label: string;
} {
  const description = checkKeys(given, PROGRAM_KEYS, 'createProgram()');
  if (typeof description.source !== 'string') invalid('createProgram(): source must be a string of GLSL');
  if (description.label !== undefined && typeof description.label !== 'string')
    invalid('createProgram(): label must be a string');
  return {
    source: description.source,
    options: checkProgramOptions(description, 'createProgram()'),
    label: description.label ?? 'program',
  };
}

/** inspect()'s source and options. */
export function checkInspectArguments(
  source: unknown,
  given: unknown,
): { source: string; options: CheckedProgramOptions } {
  if (typeof source !== 'string') invalid('inspect(): source must be a string of GLSL');
  return { source, options: checkProgramOptions(checkKeys(given, INSPECT_KEYS, 'inspect() options'), 'inspect()') };
}
