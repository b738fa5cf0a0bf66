// GLSL the WGSL translation lowers (issue 40): switch with fall-through, side effects inside
// expressions (r[i++], a = b = c, the comma operator, ?: whose side writes, an assignment in a
// loop condition) and inverse(). Transform feedback runs the GLSL as written, so every runtime
// must give its bytes. The values are exact in float32 (inverse of a matrix whose determinant is
// a power of two), so no rounding order can differ.
import { range } from '../words.mjs';

const COUNT = 4;
const source = `#version 300 es
precision highp float;
out vec4 out_a;
out vec4 out_b;
float bump(inout int calls) { calls++; return float(calls); }
void main() {
  int id = gl_VertexID;
  int r = 0;
  switch (id) {
    case 0:
    case 1: r += 1; break;
    case 2: r += 10;
    case 3: r += 100; break;
    default: r = -1;
  }
  float a[3];
  int i = 0;
  a[i++] = 1.0; a[i++] = 2.0; a[i++] = 4.0;
  int b, c;
  b = c = id + 1;
  int d = (b += 2, c * 2);
  int calls = 0;
  float e = id > 1 ? bump(calls) : 0.5;
  int n = 0;
  while ((n += 1) < 3) {}
  out_a = vec4(float(r), a[0] + 10.0 * a[1] + 100.0 * a[2] + 1000.0 * float(i), float(b * 100 + c * 10 + d),
               e + float(calls) * 10.0 + float(n) * 100.0);
  mat2 m = inverse(mat2(3.0, 2.0, 1.0, 2.0) * float(1 << id));
  out_b = vec4(m[0], m[1]);
  gl_Position = vec4(0.0);
}
`;

const expectedA = (id) => [[1, 1, 110, 100][id], 3421, (id + 3) * 100 + (id + 1) * 10 + 2 * id + 2, id > 1 ? 311 : 300.5];
const expectedB = (id) => [0.5, -0.5, -0.25, 0.75].map((v) => v / 2 ** id);

export const shaderLanguage = [
  {
    id: 'shader.lowered-constructs',
    peers: ['dEQP-GLES3.functional.shaders.switch.*', 'dEQP-GLES3.functional.shaders.operator.sequence.*', 'dEQP-GLES3.functional.shaders.builtin_functions.matrix.inverse.*'],
    intent: 'switch with fall-through, r[i++], a = b = c, the comma operator, ?: whose side writes, an assignment in a loop condition and inverse() give the bytes transform feedback gives',
    buffers: { out: { format: [{ semantic: 'ATTR0' }, { semantic: 'ATTR1' }], count: COUNT } },
    run: [{ op: 'program', source }, { op: 'pipeline', entries: [{ output: 'out' }], count: COUNT }, { op: 'step' }],
    expect: { buffers: { out: range(COUNT, (id) => [...expectedA(id), ...expectedB(id)]).flat() } },
  },
];
