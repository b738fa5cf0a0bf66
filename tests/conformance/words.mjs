// What case files write values with (no import of table.mjs, which imports the case files).
/** One 32-bit word no xfb call writes: a buffer without data is filled with it. */
export const SENTINEL = 0xdeadbeef;
/** In an expected list: one sentinel word (never written). */
export const S = 'S';
/** [f(0), ..., f(n - 1)] */
export const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
/** A format of one float vec4 attribute at ATTR<slot>. */
export const vec4 = (slot) => [{ semantic: `ATTR${slot}` }];
