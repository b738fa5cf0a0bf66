// Output types: every scalar, vector, matrix and array type the planner accepts, in both modes
// (dEQP basic_types / array, piglit output-type.c). Component k of element i is 100 i + k
// (float), k - 100 i (int), 3000000000 + 100 i + k (uint: the top bit set), so a swapped, shifted or
// truncated component shows.
import { range, recordFormat } from '../words.mjs';

const COUNT = 3;
const scalar = { float: 'float32', int: 'int32', uint: 'uint32' };
const types = [
  ['float', 'float', 1], ['vec2', 'float', 2], ['vec3', 'float', 3], ['vec4', 'float', 4],
  ['int', 'int', 1], ['ivec2', 'int', 2], ['ivec3', 'int', 3], ['ivec4', 'int', 4],
  ['uint', 'uint', 1], ['uvec2', 'uint', 2], ['uvec3', 'uint', 3], ['uvec4', 'uint', 4],
  ['mat2', 'float', 4], ['mat2x3', 'float', 6], ['mat2x4', 'float', 8], ['mat3x2', 'float', 6], ['mat3', 'float', 9],
  ['mat3x4', 'float', 12], ['mat4x2', 'float', 8], ['mat4x3', 'float', 12], ['mat4', 'float', 16],
];
const arrays = [['float', 3], ['vec2', 2], ['vec3', 2], ['vec4', 2], ['ivec2', 2], ['uint', 4], ['mat2', 2], ['mat3', 2], ['mat2', 5]];

const glslValue = (kind, k) =>
  kind === 'float' ? `float(100 * gl_VertexID + ${k})` : kind === 'int' ? `(${k} - 100 * gl_VertexID)` : `(3000000000u + uint(100 * gl_VertexID + ${k}))`;
const value = (kind, i, k) => (kind === 'float' ? 100 * i + k : kind === 'int' ? k - 100 * i : 3000000000 + 100 * i + k);
const constructor = (type, kind, first, components) => `${type}(${range(components, (k) => glslValue(kind, first + k)).join(', ')})`;

function typeCase(type, kind, components, arraySize, mode) {
  const total = components * (arraySize || 1);
  const decl = `${kind === 'float' ? '' : 'flat '}out highp ${type} out_v${arraySize ? `[${arraySize}]` : ''};`;
  const body = arraySize
    ? range(arraySize, (j) => `  out_v[${j}] = ${constructor(type, kind, j * components, components)};`).join('\n')
    : `  out_v = ${constructor(type, kind, 0, components)};`;
  const source = `#version 300 es\n${decl}\nvoid main() {\n${body}\n  gl_Position = vec4(0.0);\n}\n`;
  const name = `${type}${arraySize ? `[${arraySize}]` : ''}`;
  const refused = mode === 'separate' && total > 4;
  const isArray = arraySize > 0;
  return {
    id: `types.${mode}.${name}`,
    peers: [isArray ? 'dEQP-GLES3.functional.transform_feedback.array.*' : 'dEQP-GLES3.functional.transform_feedback.basic_types.*', 'piglit ext_transform_feedback/output-type.c'],
    intent: refused
      ? `separate mode refuses ${name} (${total} components over the portable 4) when the program is made`
      : `${name} is captured ${mode} with every component in place`,
    ...(isArray && !refused ? { finding: total > 16 ? 6 : 5 } : {}),
    buffers: { out: { format: recordFormat([[scalar[kind], total]]), count: COUNT } },
    run: refused
      ? [{ op: 'program', source, mode, error: 'XFB_SEPARATE_COMPONENTS' }]
      : [{ op: 'program', source, mode }, { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT }, { op: 'step' }],
    expect: refused ? {} : { buffers: { out: range(COUNT, (i) => range(total, (k) => value(kind, i, k))).flat() } },
  };
}

export const outputTypes = ['interleaved', 'separate'].flatMap((mode) => [
  ...types.map(([type, kind, components]) => typeCase(type, kind, components, 0, mode)),
  ...arrays.map(([type, size]) => {
    const [, kind, components] = types.find((t) => t[0] === type);
    return typeCase(type, kind, components, size, mode);
  }),
]);

// Elements captured alone (`out_v[1]`), in an explicit list, both modes.
const elementCase = (type, size, element, mode) => {
  const [, kind, components] = types.find((t) => t[0] === type);
  const c = typeCase(type, kind, components, size, mode);
  return {
    ...c,
    id: `types.${mode}.${type}[${size}].element-${element}`,
    peers: ['dEQP-GLES3.functional.transform_feedback.array_element.*'],
    intent: `element ${element} of ${type}[${size}] captured alone (${mode}) holds that element's components`,
    finding: 5,
    buffers: { out: { format: recordFormat([[scalar[kind], components]]), count: COUNT } },
    run: [
      { op: 'program', source: c.run[0].source, mode, varyings: [`out_v[${element}]`] },
      { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT },
      { op: 'step' },
    ],
    expect: { buffers: { out: range(COUNT, (i) => range(components, (k) => value(kind, i, element * components + k))).flat() } },
  };
};
outputTypes.push(...['interleaved', 'separate'].flatMap((mode) => [elementCase('vec2', 2, 1, mode), elementCase('ivec4', 3, 2, mode), elementCase('mat2', 2, 0, mode)]));
