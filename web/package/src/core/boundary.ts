// The extern "C" boundary of both modules (web/src/call.hpp): every xfb_* export answers 0, or an
// error code's index + 1 when it failed; xfb_result() then holds the result as JSON text ('' for
// none) or the failure's message. Numbers and ids cross as numbers; a string as (pointer, bytes)
// of its UTF-8 in the heap, a list of strings as one text of '\0'-ended items, a list of numbers as
// (pointer, count) of doubles, a typed array as (pointer, length). The planner's exports
// (web/src/planner_calls.cpp) are in both modules; their typed wrapper is Planner, below.
import { tables, type EngineTables } from './engine_tables.js';
import { fail, XfbError } from './errors.js';
import type { BufferLayout, Plan } from './types.js';
import type { CheckedProgramOptions } from './program_options.js';
import type { ErrorCode } from '#engine-tables';

/** What the boundary needs of an Emscripten module: its heap and allocator. */
export interface HeapModule {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

/** The planner's exports (web/src/planner_calls.cpp), in both modules. */
export interface PlannerExports extends HeapModule {
  _xfb_result(): number;
  _xfb_enums(): number;
  _xfb_inspect(
    source: number,
    sourceBytes: number,
    mode: number,
    modeBytes: number,
    varyings: number,
    varyingBytes: number,
    portable: boolean,
    defines: number,
    defineBytes: number,
    declaration: number,
    declarationBytes: number,
    layout: number,
    layoutCount: number,
  ): number;
  _xfb_normalise_format(texts: number, textBytes: number, values: number, count: number): number;
}

/** An argument copied into the heap: a string, a list of strings, a list of numbers (as doubles),
 *  indices or bytes. */
export type HeapArg = string | readonly string[] | readonly number[] | Uint32Array | Uint8Array;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Copies `args` into one heap block for the duration of `use(slots)`: per argument its pointer
 *  and length (bytes of a string, items of a list). */
export function withHeap<T>(module: HeapModule, args: readonly HeapArg[], use: (slots: number[]) => T): T {
  const views: Uint8Array[] = [];
  const lengths: number[] = [];
  for (const a of args) {
    if (typeof a === 'string' || (Array.isArray(a) && typeof a[0] === 'string')) {
      const text = typeof a === 'string' ? a : (a as readonly string[]).map((s) => `${s}\0`).join('');
      const bytes = encoder.encode(text);
      views.push(bytes);
      lengths.push(bytes.length);
    } else if (a instanceof Uint8Array || a instanceof Uint32Array) {
      views.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      lengths.push(a.length);
    } else {
      const numbers = Float64Array.from(a as readonly number[]);
      views.push(new Uint8Array(numbers.buffer));
      lengths.push(numbers.length);
    }
  }
  let total = 0;
  const offsets = views.map((v) => {
    const at = total;
    total += (v.byteLength + 7) & ~7; // doubles stay 8-byte aligned
    return at;
  });
  if (total === 0) return use(lengths.flatMap((n) => [0, n]));
  const block = module._malloc(total);
  if (!block) fail('XFB_OUT_OF_MEMORY', `the WebAssembly heap has no room for ${total} bytes; use smaller buffers`);
  try {
    const heap = module.HEAPU8;
    views.forEach((v, i) => heap.set(v, block + (offsets[i] as number)));
    return use(lengths.flatMap((n, i) => [block + (offsets[i] as number), n]));
  } finally {
    module._free(block);
  }
}

/** The answer of an export: its result text, or the failure thrown as an XfbError with the engine's code. */
export function resultText(module: PlannerExports, status: number): string {
  const heap = module.HEAPU8;
  const at = module._xfb_result();
  const text = decoder.decode(heap.subarray(at, heap.indexOf(0, at)));
  if (status === 0) return text;
  const code: ErrorCode = tables().errorCodes[status - 1] ?? 'XFB_INTERNAL';
  throw new XfbError(code, text);
}

/** The answer of an export as the value its JSON holds (undefined for none). */
export function result<T>(module: PlannerExports, status: number): T {
  const text = resultText(module, status);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A format's attributes as web/src/inputs.hpp's parseFormat() reads them: per attribute two texts
 *  (semantic, type) and three numbers (the fields given, as bits; components; offset; NaN: not a
 *  number), then two for the stride (given: 1 or 0; the stride or NaN). The values are judged in
 *  C++, not here. */
export function formatArgs(attributes: readonly object[], stride?: unknown): [string[], number[]] {
  const texts: string[] = [];
  const numbers: number[] = [];
  for (const given of attributes) {
    const { semantic, type, components, offset } = given as Record<string, unknown>;
    // String(): the C++ validator names the type given, whatever it is (as String(v) in C++ did).
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    texts.push(typeof semantic === 'string' ? semantic : '', type === undefined ? '' : String(type));
    numbers.push(
      (typeof semantic === 'string' ? 1 : 0) |
        (type !== undefined ? 2 : 0) |
        (components !== undefined ? 4 : 0) |
        (offset !== undefined ? 8 : 0),
      typeof components === 'number' ? components : NaN,
      typeof offset === 'number' ? offset : NaN,
    );
  }
  numbers.push(stride !== undefined ? 1 : 0, typeof stride === 'number' ? stride : NaN);
  return [texts, numbers];
}

/** Program and inspect() options (checked by core/program_options.ts) as the heap arguments
 *  mode, varyings, defines (name, value, ...), the declaration's texts (varying, semantic per
 *  entry) and the layout's numbers (semanticIndex, firstComponent, components, buffer per entry,
 *  then the strides): web/src/inputs.hpp's parseCapture(); the flag portable apart. */
export function programArgs(o: CheckedProgramOptions): { args: HeapArg[]; portable: boolean } {
  const defines = Object.entries(o.defines).flatMap(([name, value]) => [name, String(value)]);
  const names = o.declaration.flatMap((e) => [e.varying, e.semantic]);
  const layout = [
    ...o.declaration.flatMap((e) => [e.semanticIndex, e.firstComponent, e.components, e.buffer]),
    ...o.strides,
  ];
  return { args: [o.mode, o.varyings, defines, names, layout], portable: o.portable };
}

/** The planner of a module, over its exports: inspect, normaliseFormat, enums. */
export class Planner<M extends PlannerExports = PlannerExports> {
  readonly raw: M;

  constructor(raw: M) {
    this.raw = raw;
  }

  /** The engine's tables (errorCodes, drawModes, ..., constants). */
  enums(): EngineTables {
    return result(this.raw, this.raw._xfb_enums());
  }

  /** What the planner does with a shader under the portable limits. @throws XfbError */
  inspect(source: string, options: CheckedProgramOptions): Plan {
    const m = this.raw;
    const { args, portable } = programArgs(options);
    return withHeap(m, [source, ...args], ([s, sn, mo, mn, v, vn, d, dn, e, en, l, ln]) =>
      result<Plan>(m, m._xfb_inspect(s!, sn!, mo!, mn!, v!, vn!, portable, d!, dn!, e!, en!, l!, ln!)),
    );
  }

  /** A format (and a stride, default packed) checked and packed by the engine's validator. @throws XfbError */
  normaliseFormat(format: object[], stride?: unknown): BufferLayout {
    const m = this.raw;
    return withHeap(m, formatArgs(format, stride), ([t, tn, n, nn]) =>
      result<BufferLayout>(m, m._xfb_normalise_format(t!, tn!, n!, nn!)),
    );
  }
}
