// Which varyings are captured: names that do not exist, duplicates, unreferenced outputs,
// builtins, and every count up to each limit and the first one past it (piglit max-varyings.c,
// dEQP, WebGL states-and-errors.html).
import { range, recordFormat } from '../words.mjs';

const COUNT = 2;
// n vec4 outputs out_v0..; out_vj of element i = (i, j, 2j, 3j) + 1000.
const manyVec4 = (n) =>
  `#version 300 es\n${range(n, (j) => `out vec4 out_v${j};`).join('\n')}\nvoid main() {\n  float i = float(gl_VertexID);\n${range(n, (j) => `  out_v${j} = vec4(i, ${j}.0, ${2 * j}.0, ${3 * j}.0) + 1000.0;`).join('\n')}\n  gl_Position = vec4(0.0);\n}\n`;
const record = (i, j) => [i + 1000, j + 1000, 2 * j + 1000, 3 * j + 1000];

function interleavedCount(n, limits, error) {
  return {
    id: `max-varyings.interleaved.${n}-vec4${error ? '.refused' : ''}`,
    peers: ['piglit ext_transform_feedback/max-varyings.c', 'dEQP-GLES3.functional.transform_feedback (interleaved limits)'],
    intent: error ? `${n} vec4 outputs interleaved are refused with ${error} before any GL call fails` : `${n} vec4 outputs interleaved are all captured in order`,
    ...(n === 32 ? { finding: 9 } : {}),
    limits,
    buffers: { out: { format: recordFormat([['float32', 4 * n]]), count: COUNT } },
    run: error
      ? [{ op: 'program', source: manyVec4(n), error }]
      : [{ op: 'program', source: manyVec4(n) }, { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT }, { op: 'step' }],
    expect: error ? {} : { buffers: { out: range(COUNT, (i) => range(n, (j) => record(i, j)).flat()).flat() } },
  };
}

function separateCount(n, limits, error) {
  const buffers = Object.fromEntries(range(n, (j) => [`out${j}`, { format: recordFormat([['float32', 4]]), count: COUNT }]));
  return {
    id: `max-varyings.separate.${n}-vec4${error ? '.refused' : ''}`,
    peers: ['piglit ext_transform_feedback/max-varyings.c', 'piglit ext_transform_feedback/separate.c'],
    intent: error ? `${n} separate varyings are refused with ${error}` : `${n} separate varyings each fill their own buffer`,
    limits,
    buffers,
    run: error
      ? [{ op: 'program', source: manyVec4(n), mode: 'separate', error }]
      : [{ op: 'program', source: manyVec4(n), mode: 'separate' }, { op: 'pipeline', entries: range(n, (j) => ({ output: `out${j}` })), count: COUNT }, { op: 'step' }],
    expect: error ? {} : { buffers: Object.fromEntries(range(n, (j) => [`out${j}`, range(COUNT, (i) => record(i, j)).flat()])) },
  };
}

const two = `#version 300 es
out vec4 out_a;
out vec4 out_b;
void main() { out_a = vec4(float(gl_VertexID)); out_b = vec4(7.0); gl_Position = vec4(float(gl_VertexID), 1.0, 2.0, 3.0); }
`;
const vec4Out = { format: recordFormat([['float32', 4]]), count: COUNT };

export const varyings = [
  ...range(15, (k) => interleavedCount(k + 1, {}, null)),
  // 16 vec4 fit the portable 64 interleaved components but not the ES 3.0 minimum of 15 varying
  // vectors. WebGPU has no varying rows (a compute pass): it runs them (issue 39: it refused them).
  interleavedCount(16, { maxVaryingVectors: '>=16' }, null),
  interleavedCount(16, { maxVaryingVectors: '<16' }, 'XFB_VARYING_VECTORS'),
  interleavedCount(17, { maxInterleavedComponents: '<68' }, 'XFB_INTERLEAVED_COMPONENTS'),
  interleavedCount(17, { maxInterleavedComponents: '>=68' }, null),
  interleavedCount(31, { maxInterleavedComponents: '>=124', maxVaryingVectors: '>=31' }, null),
  interleavedCount(32, { maxInterleavedComponents: '>=128', maxVaryingVectors: '>=32' }, null),
  interleavedCount(32, { maxInterleavedComponents: '>=128', maxVaryingVectors: '<32' }, 'XFB_VARYING_VECTORS'),
  ...range(4, (k) => separateCount(k + 1, {}, null)),
  separateCount(5, { maxSeparateAttribs: '<5' }, 'XFB_SEPARATE_ATTRIBS'),
  {
    id: 'varyings.unknown-name',
    peers: ['webgl conformance2/transform_feedback/states-and-errors.html', 'piglit ext_transform_feedback/api-errors.c'],
    intent: 'a captured name the shader does not declare is refused with XFB_UNKNOWN_VARYING when the program is made',
    run: [{ op: 'program', source: two, varyings: ['out_a', 'out_missing'], error: 'XFB_UNKNOWN_VARYING' }],
  },
  {
    id: 'varyings.duplicate-name',
    peers: ['webgl conformance2/transform_feedback/states-and-errors.html', 'dEQP-GLES3.functional.negative_api.shader (transform_feedback_varyings)'],
    intent: 'a name given twice is refused with XFB_DUPLICATE_VARYING',
    run: [{ op: 'program', source: two, varyings: ['out_a', 'out_a'], error: 'XFB_DUPLICATE_VARYING' }],
  },
  {
    id: 'varyings.explicit-order',
    peers: ['piglit ext_transform_feedback/interleaved.c', 'piglit ext_transform_feedback/order.c'],
    intent: 'an explicit list captures in its own order, not declaration order',
    buffers: { out: { format: recordFormat([['float32', 8]]), count: COUNT } },
    run: [{ op: 'program', source: two, varyings: ['out_b', 'out_a'] }, { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT }, { op: 'step' }],
    expect: { buffers: { out: range(COUNT, (i) => [7, 7, 7, 7, i, i, i, i]).flat() } },
  },
  {
    id: 'varyings.builtin-position',
    peers: ['piglit ext_transform_feedback/builtin-varyings.c', 'piglit ext_transform_feedback/position.c'],
    intent: 'gl_Position named explicitly is captured',
    buffers: { out: vec4Out },
    run: [{ op: 'program', source: two, varyings: ['gl_Position'] }, { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT }, { op: 'step' }],
    expect: { buffers: { out: range(COUNT, (i) => [i, 1, 2, 3]).flat() } },
  },
  {
    id: 'varyings.declared-never-assigned',
    peers: ['webgl conformance2/transform_feedback/unwritten-output-defaults-to-zero.html', 'piglit ext_transform_feedback/max-varyings.c (unreferenced varyings)'],
    intent: 'a captured output main() never mentions is captured as 0, never as leftovers, and never optimised away',
    finding: 1,
    buffers: { out: { format: recordFormat([['float32', 8]]), count: COUNT } },
    run: [
      { op: 'program', source: '#version 300 es\nout vec4 out_a;\nout vec4 out_b;\nvoid main() { out_a = vec4(float(gl_VertexID) + 5.0); gl_Position = vec4(0.0); }\n' },
      { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT },
      { op: 'step' },
    ],
    expect: { buffers: { out: range(COUNT, (i) => [i + 5, i + 5, i + 5, i + 5, 0, 0, 0, 0]).flat() } },
  },
];
