import type {
  Backend,
  CaptureMode,
  ComponentType,
  DrawMode,
  ErrorCode,
  Expansion,
  ScalarKindName,
} from '#engine-tables';

/** The engine's constants that the package must agree with (C++ xfb::limits). */
export interface EngineConstants {
  /** count x stride of one buffer, at most (WebGL2's GLsizeiptr is 32-bit). */
  maxBufferBytes: number;
  /** step(k): k at most. */
  maxSubsteps: number;
  /** The built-in uniform that holds the substep index. */
  substepUniform: string;
  /** xfb::emittedDrawSnippet(): the vertex-shader code a program drawing emitted records holds. */
  emittedDrawSnippet: string;
  /** Its uniforms, which drawEmitted() sets: the pyramid's top texture unit, and (row, component,
   *  vertices per primitive, 0). */
  emittedTotalsUniform: string;
  emittedAtUniform: string;
}

/** The public enums' names (and ScalarKind's values) as the modules give them: Module.enums(), from
 *  the C++ tables (xfb/enum_tables.hpp). Nothing in the package copies a list of names or numbers. */
export interface EngineTables {
  errorCodes: readonly ErrorCode[];
  drawModes: readonly DrawMode[];
  captureModes: readonly CaptureMode[];
  componentTypes: readonly ComponentType[];
  expansions: readonly Expansion[];
  backends: readonly Backend[];
  scalarKinds: Readonly<Record<ScalarKindName, number>>;
  constants: EngineConstants;
}

let loaded: EngineTables | undefined;

/** Keeps the first module's tables (both modules give the same ones). */
export function adoptTables(fromModule: EngineTables): void {
  loaded ??= fromModule;
}

/** The tables; a module is always loaded before any call that validates. */
export function tables(): EngineTables {
  if (!loaded) throw new Error('xfb: the engine tables were read before a module was loaded');
  return loaded;
}

export function constants(): EngineConstants {
  return tables().constants;
}

/** The value of a scalar kind, by name. */
export function scalarKind(name: ScalarKindName): number {
  return tables().scalarKinds[name];
}

/** The name of a scalar kind's value (undefined for a value the table does not have). */
export function scalarKindName(kind: number): ScalarKindName | undefined {
  const kinds = tables().scalarKinds;
  return (Object.keys(kinds) as ScalarKindName[]).find((name) => kinds[name] === kind);
}

/** `'a', 'b' or 'c'`, for messages listing a table. */
export function oneOf(names: readonly string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}
