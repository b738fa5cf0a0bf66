// Planted for ctest web.tsc-planted and web.eslint-planted (tests/web/lint.mjs), which want exactly
// these refused. tsc --strict: an implicit any, an unchecked index (noUncheckedIndexedAccess): 2.
// ESLint: the any returned (no-unsafe-return, type-aware), == (eqeqeq): 2.
export function implicitAny(value) {
  return value;
}

export function unchecked(list: number[]): number {
  const first: number = list[0];
  return first;
}

export function loose(a: unknown, b: unknown): boolean {
  return a == b;
}
