// Helpers that write rows of the misuse table (table.mjs) as families.

/** One row per named value: id `${prefix}.${name}`, the rest from make(value, name). */
export function family(prefix, values, make) {
  return Object.entries(values).map(([name, value]) => ({ id: `${prefix}.${name}`, ...make(value, name) }));
}

/** The rows of one peer (the API call they exercise, the runner's group), each given `peer`. */
export function peer(name, rows) {
  return rows.flat().map((row) => ({ peer: name, ...row }));
}

/** The same object without `key` (a description with a required key left out). */
export function without(object, key) {
  const { [key]: _, ...rest } = object;
  return rest;
}
