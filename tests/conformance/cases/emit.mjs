// Emitted (variable-count) outputs: records in input order, two budgets, the reports, overflow
// clamped. Every runtime runs them with the same bytes: compute (GL compute, WebGPU) or, where a
// runtime steps by transform feedback (which cannot write a variable count), the fragment
// backend's pyramid passes (GL 4.3 core and ES 3.0 `.tf`, WebGL2). No peer suite has them.
import { S, range } from '../words.mjs';

// Element i: a = (count, 10 i + 0.5, 0, 0). Budget emit_n (clamped to 0..3): record k of element
// i is (10 i + 0.5, k, i, 7); budget emit_m (i % 3 records): record k is 10 i + k.
const emitting = `#version 300 es
in vec4 a;
out vec4 out_a;
out vec4 emit_r[3];
flat out int emit_n;
flat out uint emit_t[2];
flat out uint emit_m;
void main() {
    out_a = a + vec4(1.0);
    emit_n = int(a.x);
    for (int k = 0; k < 3; ++k) emit_r[k] = vec4(a.y, float(k), float(gl_VertexID), 7.0);
    emit_m = uint(gl_VertexID % 3);
    for (int k = 0; k < 2; ++k) emit_t[k] = uint(gl_VertexID * 10 + k);
    gl_Position = vec4(0.0);
}
`;
const counts = [2, 0, 5, 1, -1, 3]; // clamped: 2 0 3 1 0 3 (9 records)
const input = counts.flatMap((n, i) => [n, 10 * i + 0.5, 0, 0]);
const records = counts.flatMap((n, i) => range(Math.min(3, Math.max(0, n)), (k) => [10 * i + 0.5, k, i, 7]).flat());
const tags = range(6, (i) => range(i % 3, (k) => 10 * i + k)).flat(); // 6 records
const uint1 = [{ semantic: 'ATTR0', type: 'uint32', components: 1 }];
const emits = [{ varying: 'emit_r', count: 'emit_n' }, { varying: 'emit_t', count: 'emit_m' }];
const buffersOf = (r, t) => ({
  a: { format: [{ semantic: 'ATTR0' }], count: 6, data: input },
  b: { format: [{ semantic: 'ATTR0' }], count: 6 },
  r: { format: [{ semantic: 'ATTR0' }], count: r },
  t: { format: uint1, count: t },
});
const run = (overflow, emitted) => [
  { op: 'program', source: emitting },
  { op: 'pipeline', entries: [{ input: 'a', output: 'b' }, { output: 'r' }, { output: 't' }], emits, ...(overflow ? { overflow } : {}) },
  { op: 'stepChecked', written: 6, emitted },
];

export const emit = [
  {
    id: 'emit.input-order-two-budgets',
    peers: [],
    intent: 'emitted records land in input order (element i\'s before element i + 1\'s), each budget counted on the GPU, nothing written past its total, and the step reports requested and written totals',
    buffers: buffersOf(12, 8),
    run: run(undefined, [{ budget: 'emit_n', requested: 9, written: 9, capacity: 12 }, { budget: 'emit_m', requested: 6, written: 6, capacity: 8 }]),
    expect: { buffers: { a: input.map((x) => x + 1), r: [...records, ...Array(12).fill(S)], t: [...tags, S, S] } },
  },
  {
    id: 'emit.overflow-clamp',
    peers: [],
    intent: "with overflow 'clamp' a budget past its capacity keeps its first records in input order, writes nothing past the capacity, swaps, and reports both totals",
    buffers: buffersOf(5, 4),
    run: run('clamp', [{ budget: 'emit_n', requested: 9, written: 5, capacity: 5 }, { budget: 'emit_m', requested: 6, written: 4, capacity: 4 }]),
    expect: { buffers: { a: input.map((x) => x + 1), r: records.slice(0, 20), t: tags.slice(0, 4) } },
  },
  {
    id: 'emit.overflow-error',
    peers: [],
    intent: "with overflow 'error' (the default) a checked step whose budget passes its capacity is refused with XFB_CAPACITY and not swapped (the state keeps the step before it); an unchecked step swaps and keeps each budget's first records in input order, nothing past its capacity",
    buffers: buffersOf(5, 4),
    run: [
      { op: 'program', source: emitting },
      { op: 'pipeline', entries: [{ input: 'a', output: 'b' }, { output: 'r' }, { output: 't' }], emits, overflow: 'error' },
      // The pass ran before the refusal: the state's output and the records were written, not swapped in.
      { op: 'stepChecked', error: 'XFB_CAPACITY', writes: ['b', 'r', 't'] },
      { op: 'step' },
    ],
    // One swap: `a` names the state after one step, `b` the one before it (the input).
    expect: { buffers: { a: input.map((x) => x + 1), b: input, r: records.slice(0, 20), t: tags.slice(0, 4) } },
  },
];
