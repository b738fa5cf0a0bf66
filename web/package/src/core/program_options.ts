import type { CaptureMode } from '#engine-tables';
import { checkInt, checkKeys, checkName, checkOptionalBoolean, typeName } from './checks.js';
import { oneOf, tables } from './engine_tables.js';
import { fail, invalid } from './errors.js';

/** A declaration entry as the planner takes it (C++ xfb::DeclaredEntry): a gap has neither
 *  varying nor semantic, and `components` words. */
export interface CheckedDeclarationEntry {
  varying: string;
  semantic: string;
  semanticIndex: number;
  firstComponent: number;
  /** 0: up to the varying's end; a gap: the words skipped. */
  components: number;
  buffer: number;
}

/** Program options as the planner takes them, every field given. */
export interface CheckedProgramOptions {
  mode: CaptureMode;
  varyings: string[];
  defines: Record<string, string | number | boolean>;
  portable: boolean;
  declaration: CheckedDeclarationEntry[];
  strides: number[];
}

const ENTRY_KEYS = ['varying', 'semantic', 'semanticIndex', 'components', 'skip', 'buffer'] as const;

/** declaration: [{ varying | semantic (+ semanticIndex) | skip, components?: [start, count], buffer? }].
 *  Shapes and types only; the layout's rules (offsets, overlaps, buffers, components) are the
 *  planner's, with their codes. */
function checkDeclaration(given: unknown, what: string): CheckedDeclarationEntry[] {
  if (given === undefined) return [];
  if (!Array.isArray(given))
    invalid(`${what}: declaration must be an array of { varying | semantic | skip, components?, buffer? }`);
  return given.map((entry: unknown, i) => {
    const at = `${what}: declaration[${i}]`;
    const e = checkKeys(entry, ENTRY_KEYS, at);
    for (const key of ['varying', 'semantic'] as const)
      if (e[key] !== undefined && typeof e[key] !== 'string')
        invalid(`${at}.${key} must be a string, got ${typeName(e[key])}`);
    const buffer = e.buffer === undefined ? 0 : checkInt(e.buffer, `${at}.buffer`);
    if (e.skip !== undefined) {
      const skip = checkInt(e.skip, `${at}.skip`);
      const extra = (['varying', 'semantic', 'semanticIndex', 'components'] as const).find((k) => e[k] !== undefined);
      if (extra)
        invalid(
          `${at}: a { skip } entry is a gap of words and takes no ${extra}; give the gap and the varying as two entries`,
        );
      return { varying: '', semantic: '', semanticIndex: 0, firstComponent: 0, components: skip, buffer };
    }
    if (e.varying === undefined && e.semantic === undefined)
      invalid(`${at} must name a varying or a semantic, or be a gap { skip: words }`);
    if (e.semanticIndex !== undefined && e.semantic === undefined)
      invalid(`${at}.semanticIndex is a semantic's index (TEXCOORD 2): give semantic with it, or drop it`);
    const semanticIndex = e.semanticIndex === undefined ? 0 : checkInt(e.semanticIndex, `${at}.semanticIndex`);
    let range: unknown[] = [0, 0];
    if (e.components !== undefined) {
      if (!Array.isArray(e.components) || e.components.length !== 2)
        invalid(
          `${at}.components must be [start, count] (count 0: to the varying's end), got ${Array.isArray(e.components) ? `${e.components.length} items` : typeName(e.components)}`,
        );
      range = e.components as unknown[];
    }
    return {
      varying: (e.varying as string | undefined) ?? '',
      semantic: (e.semantic as string | undefined) ?? '',
      semanticIndex,
      firstComponent: checkInt(range[0], `${at}.components[0]`),
      components: checkInt(range[1], `${at}.components[1]`),
      buffer,
    };
  });
}

/** strides: bytes per buffer, integers (0: the buffer's extent); their rules are the planner's. */
function checkStrides(given: unknown, what: string): number[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) invalid(`${what}: strides must be an array of bytes per buffer, got ${typeName(given)}`);
  return given.map((s: unknown, i) => checkInt(s, `${what}: strides[${i}]`));
}

const MACRO_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Program and inspect() options: mode, varyings, defines ({ NAME: string | finite number | boolean }),
 *  portable, declaration, strides. */
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
  return {
    mode,
    varyings: [...(varyings as string[])],
    defines: checked,
    portable,
    declaration: checkDeclaration(options.declaration, what),
    strides: checkStrides(options.strides, what),
  };
}

const INSPECT_KEYS = ['mode', 'varyings', 'defines', 'portable', 'declaration', 'strides'] as const;
const PROGRAM_KEYS = ['source', 'geometry', 'fragment', ...INSPECT_KEYS, 'label'] as const;

/** createProgram()'s description: the GLSL source, the options, a label, a geometry shader;
 *  shapes and types first (XFB_INVALID_ARGUMENT), then a geometry shader is
 *  XFB_GEOMETRY_UNSUPPORTED on WebGL2 (no geometry shaders, no compute), naming where geometry
 *  programs run (the WebGPU engine, native OpenGL). Nothing is created before. */
export function checkProgramDescription(
  given: unknown,
  runtime: 'webgl2' | 'webgpu',
): {
  source: string;
  options: CheckedProgramOptions;
  label: string;
  geometry?: string;
  fragment?: string;
} {
  const description = checkKeys(given, PROGRAM_KEYS, 'createProgram()');
  if (typeof description.source !== 'string') invalid('createProgram(): source must be a string of GLSL');
  for (const stage of ['geometry', 'fragment'] as const) {
    const shader = description[stage];
    if (shader !== undefined && (typeof shader !== 'string' || shader === ''))
      invalid(
        `createProgram(): ${stage} must be a non-empty string of GLSL, got ${shader === '' ? "''" : typeName(shader)}`,
      );
  }
  const fragment = description.fragment === undefined ? {} : { fragment: description.fragment as string };
  if (description.label !== undefined && typeof description.label !== 'string')
    invalid('createProgram(): label must be a string');
  const label = description.label ?? 'program';
  const options = checkProgramOptions(description, 'createProgram()');
  if (description.geometry === undefined) return { source: description.source, options, label, ...fragment };
  if (runtime === 'webgl2')
    fail(
      'XFB_GEOMETRY_UNSUPPORTED',
      `createProgram(): program '${label}' has a geometry shader, but WebGL2 has no geometry shaders (it ends at the vertex shader) and no compute shaders. Geometry programs run in the browser on the WebGPU engine (createXfb({ device }): its compute passes write the bytes of the GL's capture), and on native OpenGL through xfb's C++ API: desktop OpenGL 4.0+, OpenGL ES 3.2 (stream 0), or compute on OpenGL 4.3+ / ES 3.1+`,
    );
  return { source: description.source, options, label, geometry: description.geometry as string, ...fragment };
}

/** inspect()'s source and options. */
export function checkInspectArguments(
  source: unknown,
  given: unknown,
): { source: string; options: CheckedProgramOptions } {
  if (typeof source !== 'string') invalid('inspect(): source must be a string of GLSL');
  return { source, options: checkProgramOptions(checkKeys(given, INSPECT_KEYS, 'inspect() options'), 'inspect()') };
}
