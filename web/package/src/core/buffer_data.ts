// Vertex formats and the bytes that fill buffers: one rule for both engines.
import type { ComponentType } from '#engine-tables';
import { checkByteLength, checkCount, checkKeys, checkName, checkOptionalIndex, shown, typeName } from './checks.js';
import { unwrap, invalid, type XfbError } from './errors.js';
import type { BufferContents, BufferDescription, BufferLayout, RestoreSource } from './types.js';

/** Bytes over an ArrayBuffer (what WebGPU's writeBuffer and the typed arrays take). */
export type Bytes = Uint8Array<ArrayBuffer>;
type ArrayType = Float32ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor;

const COMPONENT_ARRAYS: Readonly<Record<ComponentType, ArrayType>> = {
  float32: Float32Array,
  int32: Int32Array,
  uint32: Uint32Array,
};
const FORMAT_KEYS = ['semantic', 'type', 'components', 'offset'] as const;
const RESTORE_SOURCES: readonly RestoreSource[] = ['last-readback', 'initial', 'none'];

/** The module's one format validator (shared with the C++ API and xfb-run). */
export type FormatNormaliser = (format: object[], stride?: unknown) => BufferLayout | XfbError;

/** A format description (and a stride, default the packed size) as { attributes, stride }, offsets
 *  packed. Here only its shape (an array of plain objects with known keys); the values, the
 *  stride's too, are checked by the engine's normaliseFormat. */
export function normaliseFormat(normalise: FormatNormaliser, format: unknown, stride?: unknown): BufferLayout {
  if (!Array.isArray(format) || format.length === 0)
    invalid('format must be a non-empty array of { semantic, type?, components?, offset? }');
  return unwrap(
    normalise(
      format.map((entry, i) => checkKeys(entry, FORMAT_KEYS, `format[${i}]`)),
      stride,
    ),
  );
}

/** The typed array a format reads and writes: one type for homogeneous formats, bytes otherwise. */
export function arrayTypeOf(layout: BufferLayout): ArrayType {
  const types = new Set(layout.attributes.map((a) => a.type));
  const [only] = types;
  return types.size === 1 && only !== undefined ? COMPONENT_ARRAYS[only] : Uint8Array;
}

/** The contents as the format's typed array, over a copy of `bytes`. */
export function contentsOf(layout: BufferLayout, bytes: Bytes): BufferContents {
  const Type = arrayTypeOf(layout);
  return new Type(bytes.buffer, bytes.byteOffset, bytes.byteLength / Type.BYTES_PER_ELEMENT);
}

/** The bytes of `data`: an ArrayBuffer, or a typed array of the format's type (any for a mixed format). */
function bytesOf(data: unknown, layout: BufferLayout, what: string): Bytes {
  const Expected = arrayTypeOf(layout);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (!ArrayBuffer.isView(data)) invalid(`${what} must be a typed array or an ArrayBuffer, got ${typeName(data)}`);
  if (Expected !== Uint8Array && !(data instanceof Expected))
    invalid(`${what} must be a ${Expected.name} for this format (or an ArrayBuffer), got ${data.constructor.name}`);
  return new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/** Whole records of `layout` (a typed array of its type, or an ArrayBuffer), as bytes: a spawn's. */
export function recordBytes(data: unknown, layout: BufferLayout, what: string): Bytes {
  const view = bytesOf(data, layout, what);
  if (view.byteLength % layout.stride)
    invalid(`${what} holds ${view.byteLength} bytes, not a whole number of ${layout.stride}-byte records`);
  return view;
}

/** A buffer's initial data: exactly count x stride bytes. */
function initialBytes(data: unknown, layout: BufferLayout, count: number): Bytes {
  const view = bytesOf(data, layout, 'createBuffer(): data');
  const bytes = count * layout.stride;
  const Expected = arrayTypeOf(layout);
  if (view.byteLength !== bytes)
    invalid(
      `createBuffer(): data holds ${view.byteLength} bytes but ${count} elements of ${layout.stride} bytes need ${bytes}` +
        (Expected !== Uint8Array ? ` (${bytes / Expected.BYTES_PER_ELEMENT} ${Expected.name} values)` : ''),
    );
  return view;
}

export interface CheckedBufferDescription {
  layout: BufferLayout;
  count: number;
  /** The initial data (a view of the caller's), or null. */
  data: Bytes | null;
  restore: RestoreSource;
  label: string | undefined;
}

/** createBuffer()'s description, on both engines. */
export function checkBufferDescription(
  normalise: FormatNormaliser,
  given: BufferDescription,
): CheckedBufferDescription {
  const description = checkKeys(given, ['format', 'stride', 'count', 'data', 'restore', 'label'], 'createBuffer()');
  const layout = normaliseFormat(normalise, description.format, description.stride);
  const count = checkCount(description.count, 'createBuffer(): count');
  checkByteLength(count, layout.stride, 'createBuffer()');
  const list = RESTORE_SOURCES.map((r) => `'${r}'`).join(', ');
  const restoreGiven = description.restore === undefined ? RESTORE_SOURCES[0] : description.restore;
  const restore = checkName(restoreGiven, RESTORE_SOURCES, 'createBuffer(): restore', list);
  if (description.label !== undefined && typeof description.label !== 'string')
    invalid('createBuffer(): label must be a string');
  const data = description.data === undefined ? null : initialBytes(description.data, layout, count);
  return { layout, count, data, restore, label: description.label };
}

/** adoptBuffer({ glBuffer | gpuBuffer, format, stride?, count, label? }): one check for both
 *  engines, `handle` naming the engine's kind of buffer (the other kind is refused naming it).
 *  Returns the handle unchecked, for the engine to check. */
export function checkAdoption(
  normalise: FormatNormaliser,
  given: unknown,
  handle: 'glBuffer' | 'gpuBuffer',
): { handle: unknown; layout: BufferLayout; count: number; label: string | undefined } {
  const other = handle === 'glBuffer' ? 'gpuBuffer' : 'glBuffer';
  const keys = ['glBuffer', 'gpuBuffer', 'format', 'stride', 'count', 'label']; // one order: one message on both
  const d: Record<string, unknown> = checkKeys(given, keys, 'adoptBuffer()');
  if (d[other] !== undefined)
    invalid(
      `adoptBuffer(): ${other} is the ${other === 'glBuffer' ? 'WebGL2' : 'WebGPU'} engine's; this engine adopts { ${handle} }`,
    );
  const layout = normaliseFormat(normalise, d.format, d.stride);
  const count = checkCount(d.count, 'adoptBuffer(): count');
  checkByteLength(count, layout.stride, 'adoptBuffer()');
  if (d.label !== undefined && typeof d.label !== 'string') invalid('adoptBuffer(): label must be a string');
  return { handle: d[handle], layout, count, label: d.label };
}

/** upload(data, { offset }): on both engines the offset and the length are whole 4-byte words (every
 *  component is 4 bytes) and the data fits the buffer. Returns the bytes and the offset. */
export function checkUpload(
  data: unknown,
  options: unknown,
  layout: BufferLayout,
  byteLength: number,
): { bytes: Bytes; offset: number } {
  const given = checkKeys(options, ['offset'], 'upload() options').offset;
  const offset = given === undefined ? 0 : given;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset % 4 !== 0)
    invalid(`upload(): offset must be a non-negative multiple of 4 bytes, got ${shown(offset)}`);
  const bytes = bytesOf(data, layout, 'upload(): data');
  if (bytes.byteLength % 4 !== 0 || offset + bytes.byteLength > byteLength)
    invalid(
      `upload(): ${bytes.byteLength} bytes at offset ${offset} do not fit the buffer's ${byteLength} bytes in whole 4-byte words`,
    );
  return { bytes, offset };
}

/** read({ first, count }): the range checked alike on both engines (C++: Buffer::read(first, count)). */
export function checkReadRange(options: unknown, elements: number): { first: number; count: number } {
  const o = checkKeys(options, ['first', 'count'], 'read() options');
  const first = checkOptionalIndex(o.first, 'read(): first', 0);
  const count = checkOptionalIndex(o.count, 'read(): count', Math.max(0, elements - first));
  if (first + count > elements)
    invalid(
      `read(): first ${first}, count ${count} does not fit the buffer's ${elements} elements; give first + count <= ${elements}`,
    );
  return { first, count };
}
