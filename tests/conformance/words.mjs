// What case files write values with (no import of table.mjs, which imports the case files).
/** One 32-bit word no xfb call writes: a buffer without data is filled with it. */
export const SENTINEL = 0xdeadbeef;
/** In an expected list: one sentinel word (never written). */
export const S = 'S';
/** [f(0), ..., f(n - 1)] */
export const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
/** A format of one float vec4 attribute at ATTR<slot>. */
export const vec4 = (slot) => [{ semantic: `ATTR${slot}` }];
/** A format covering `fields` ([type, words] in record order) with attributes of at most 4
 *  components, ATTR0, ATTR1, ...: what an output buffer of that record layout can be given. */
export function recordFormat(fields) {
  const attributes = [];
  for (const [type, words] of fields)
    for (let w = 0; w < words; w += 4) attributes.push({ semantic: `ATTR${attributes.length}`, type, components: Math.min(4, words - w) });
  return attributes;
}
/** A trivial simulation: `out_a = a * 2 + i` of `in vec4 a` (exact in float32 for small integers). */
export const doubler = `#version 300 es
in vec4 a;
out vec4 out_a;
void main() { out_a = a * 2.0 + vec4(float(gl_VertexID)); gl_Position = vec4(0.0); }
`;
/** A capture source without inputs: out_v = vec4(gl_VertexID, 10 + id, 20 + id, 30 + id). */
export const vertexIdSource = `#version 300 es
out vec4 out_v;
void main() { float i = float(gl_VertexID); out_v = vec4(i, 10.0 + i, 20.0 + i, 30.0 + i); gl_Position = vec4(0.0); }
`;
/** The record vertexIdSource writes for vertex i. */
export const vertexIdRecord = (i) => [i, 10 + i, 20 + i, 30 + i];
/** Not applicable on WebGPU for a case that makes the application's own GL calls. */
export const NO_GL_ON_WEBGPU = { webgpu: 'WebGPU has no GL bind points, vertex arrays or transform feedback objects shared with the application' };
/** Not applicable where primitive capture does not run. */
export const CAPTURE_ONLY = Object.fromEntries(
  ['gl43core.compute', 'gles32.compute'].map((runtime) => [
    runtime,
    'primitive capture is its own transform-feedback object (PrimitiveCapture), not a Pipeline backend: it runs on the tf runtimes (on WebGPU it is compute passes of its own)',
  ]),
);
