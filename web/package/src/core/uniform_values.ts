// setUniform()'s values, checked alike on both engines: the uniform type table of the engine
// (Module.enums().scalarKinds) decides the number type; nothing is wrapped or truncated.
import { scalarKindName } from './engine_tables.js';
import { fail, invalid } from './errors.js';

/** The number types a uniform's values are converted to. */
export type UniformNumberKind = 'float' | 'int' | 'uint';

const INTEGER_RANGES: Readonly<Record<'int' | 'uint', readonly [number, number]>> = {
  int: [-(2 ** 31), 2 ** 31 - 1],
  uint: [0, 2 ** 32 - 1],
};

/** The number kind of a declared scalar kind (a Module.enums().scalarKinds value): bool uniforms
 *  and samplers (opaque: a texture unit) take ints; an undeclared uniform (undefined) floats. */
export function numberKindOf(kind: number | undefined): UniformNumberKind {
  if (kind === undefined) return 'float';
  const name = scalarKindName(kind);
  return name === 'uint' ? 'uint' : name === 'float' ? 'float' : 'int';
}

export function checkUniformName(name: unknown): string {
  if (typeof name !== 'string') invalid('setUniform(): name must be a string');
  return name;
}

/** The values of setUniform(name, value) as numbers, each valid for the kind: XFB_INVALID_ARGUMENT
 *  for what is not a number, XFB_UNIFORM_TYPE for a non-integer or out-of-range int/uint value. */
export function checkUniformValues(name: string, value: unknown, kind: UniformNumberKind): number[] {
  const values =
    typeof value === 'number'
      ? [value]
      : Array.isArray(value) || ArrayBuffer.isView(value)
        ? Array.from(value as ArrayLike<unknown>)
        : null;
  if (!values || values.length === 0)
    invalid(`setUniform('${name}'): value must be a number, an array of numbers or a typed array`);
  values.forEach((v, i) => {
    if (typeof v !== 'number' || Number.isNaN(v))
      invalid(`setUniform('${name}'): value[${i}] is ${String(v)}, not a number`);
  });
  const numbers = values as number[];
  if (kind !== 'float') {
    const [lo, hi] = INTEGER_RANGES[kind];
    numbers.forEach((v, i) => {
      if (!Number.isInteger(v) || v < lo || v > hi)
        fail(
          'XFB_UNIFORM_TYPE',
          `setUniform('${name}'): value[${i}] is ${v}, but the uniform takes ${kind} values: integers ${lo}..${hi}`,
        );
    });
  }
  return numbers;
}
