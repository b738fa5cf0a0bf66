// Basic capture, too-small buffers and exact fits, unwritten outputs.
import { S, doubler, range, vec4 } from '../words.mjs';

const input4 = range(16, (i) => i);
const doubled = range(16, (i) => i * 2 + Math.floor(i / 4));

export const basic = [
  {
    id: 'basic.state-pair',
    peers: ['webgl conformance2/transform_feedback/transform_feedback.html', 'dEQP-GLES3.functional.transform_feedback.basic_types.*'],
    intent: 'a state pair is read, written and swapped: the buffer named as input holds the new state',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, b: { format: vec4(0), count: 4 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a', output: 'b' }] }, { op: 'step' }],
    expect: { buffers: { a: doubled, b: input4 } },
  },
  {
    id: 'basic.zeros-without-data',
    peers: ['WebGL 2.0 spec 5.14.5 (bufferData without data: zero-initialised)', 'WebGPU createBuffer (zero-initialised)'],
    intent: 'a buffer made without data reads zeros before any step, and the tail a step never writes stays zeros (native GL leaves such a buffer undefined)',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 6, withoutData: true } },
    run: [
      { op: 'read', buffer: 'out', expect: range(24, () => 0) },
      { op: 'program', source: doubler },
      { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }], count: 4 },
      { op: 'step' },
    ],
    expect: { buffers: { out: [...doubled, ...range(8, () => 0)] } },
  },
  {
    id: 'overflow.interleaved.one-short',
    peers: ['webgl conformance2/transform_feedback/too-small-buffers.html', 'piglit ext_transform_feedback/overflow-edge-cases.c'],
    intent: 'an output one record too small is refused when the pipeline is made, and nothing is written',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 3 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }], error: 'XFB_CAPACITY' }],
    expect: { buffers: { a: input4, out: range(12, () => S) } },
  },
  {
    id: 'overflow.interleaved.exact',
    peers: ['piglit ext_transform_feedback/overflow-edge-cases.c', 'webgl conformance2/transform_feedback/too-small-buffers.html'],
    intent: 'an output of exactly count x stride bytes is filled to its last word',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 4 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'step' }],
    expect: { buffers: { out: doubled } },
  },
  {
    id: 'overflow.interleaved.one-more',
    peers: ['piglit ext_transform_feedback/overflow-edge-cases.c'],
    intent: 'an output one record larger than needed keeps its last record untouched',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 5 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'step' }],
    expect: { buffers: { out: [...doubled, S, S, S, S] } },
  },
  {
    id: 'unwritten.captured-output-is-zero',
    peers: ['webgl conformance2/transform_feedback/unwritten-output-defaults-to-zero.html', 'dEQP-GLES3.functional.transform_feedback.random.*'],
    intent: 'a captured output the shader writes on no path taken reads 0 on every backend',
    finding: 1,
    buffers: { out: { format: [{ semantic: 'ATTR0' }, { semantic: 'ATTR1' }], count: 4 } },
    run: [
      {
        op: 'program',
        source: `#version 300 es
out vec4 out_a;
out vec4 out_b;
void main() {
  out_a = vec4(float(gl_VertexID), 1.0, 2.0, 3.0);
  if (gl_VertexID > 100) out_b = vec4(9.0);
  gl_Position = vec4(0.0);
}
`,
      },
      { op: 'pipeline', entries: [{ output: 'out' }], count: 4 },
      { op: 'step' },
    ],
    expect: { buffers: { out: range(4, (i) => [i, 1, 2, 3, 0, 0, 0, 0]).flat() } },
  },
  {
    id: 'basic.uniforms',
    peers: ['webgl conformance2/transform_feedback/transform_feedback.html', 'dEQP-GLES3.functional.transform_feedback.basic_types.*'],
    intent: 'float, int and uint uniforms set before a step are what the step reads, and a second value set between steps is the next step\'s',
    buffers: { out: { format: [{ semantic: 'ATTR0' }, { semantic: 'ATTR1', type: 'int32' }, { semantic: 'ATTR2', type: 'uint32' }], count: 2 } },
    run: [
      {
        op: 'program',
        source: `#version 300 es
uniform float k;
uniform ivec2 o;
uniform uint u;
out vec4 out_f;
flat out ivec4 out_i;
flat out uvec4 out_u;
void main() {
  out_f = vec4(k * float(gl_VertexID + 1));
  out_i = ivec4(o, o.x + gl_VertexID, -o.y);
  out_u = uvec4(u, u + 1u, u + uint(gl_VertexID), 7u);
  gl_Position = vec4(0.0);
}
`,
      },
      { op: 'pipeline', entries: [{ output: 'out' }], count: 2 },
      { op: 'uniform', name: 'k', value: 0.5 },
      { op: 'uniform', name: 'o', value: [3, -4] },
      { op: 'uniform', name: 'u', value: 4000000000 },
      { op: 'step' },
      { op: 'read', buffer: 'out', expect: [0.5, 0.5, 0.5, 0.5, 3, -4, 3, 4, 4000000000, 4000000001, 4000000000, 7, 1, 1, 1, 1, 3, -4, 4, 4, 4000000000, 4000000001, 4000000001, 7] },
      { op: 'uniform', name: 'k', value: 2 },
      { op: 'step' },
    ],
    expect: { buffers: { out: [2, 2, 2, 2, 3, -4, 3, 4, 4000000000, 4000000001, 4000000000, 7, 4, 4, 4, 4, 3, -4, 4, 4, 4000000000, 4000000001, 4000000001, 7] } },
  },
];
