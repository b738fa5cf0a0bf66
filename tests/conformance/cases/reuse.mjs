// Buffers used again at once: captured output as the next pass's vertex input, re-uploads,
// foreign re-specification, reads between steps, the same buffer at two binding points (piglit
// immediate-reuse*.c, change-size.c, intervening-read.c; WebGL same-buffer-two-binding-points.html,
// transform_feedback_same_buffers_as_input_and_output.html).
import { CAPTURE_ONLY, NO_GL_ON_WEBGPU, doubler, range, vec4, vertexIdRecord, vertexIdSource } from '../words.mjs';

const input4 = range(16, (i) => i);
const twice = (v) => v.map((x, k) => x * 2 + Math.floor(k / 4));
const separate2 = `#version 300 es
in vec4 a;
out vec4 out_x;
out vec4 out_y;
void main() { out_x = a; out_y = a + 1.0; gl_Position = vec4(0.0); }
`;

export const reuse = [
  {
    id: 'reuse.capture-as-vertex-input',
    peers: ['piglit ext_transform_feedback/immediate-reuse.c'],
    intent: 'a captured output is read as vertex input by the next pass at once, with the captured bytes',
    na: CAPTURE_ONLY,
    buffers: { out: { format: vec4(0), count: 4 }, res: { format: vec4(0), count: 4 } },
    run: [
      { op: 'program', name: 'source', source: vertexIdSource },
      { op: 'capture', program: 'source', entries: [{ output: 'out' }], vertexCount: 4 },
      { op: 'draw', mode: 'points', count: 4, records: 4 },
      { op: 'program', source: doubler },
      { op: 'pipeline', entries: [{ input: 'out' }, { output: 'res' }] },
      { op: 'step' },
    ],
    expect: { buffers: { res: twice(range(4, vertexIdRecord).flat()) } },
  },
  {
    id: 'reuse.index-buffer',
    peers: ['piglit ext_transform_feedback/immediate-reuse-index-buffer.c'],
    intent: 'captured data used as the next draw\'s index buffer',
    na: {
      webgl2: 'WebGL2 forbids a buffer that held vertex data as an index buffer (ELEMENT_ARRAY_BUFFER binding rules)',
      gl: 'a capture takes its indices from the CPU (DrawDesc::indices / capture({ indices })): no GPU-written index buffer can be given to xfb',
      webgpu: 'a capture takes its indices from the CPU (capture({ indices })): no GPU-written index buffer can be given to xfb',
    },
  },
  {
    id: 'reuse.uniform-buffer',
    peers: ['piglit ext_transform_feedback/immediate-reuse-uniform-buffer.c'],
    intent: 'captured data read through a uniform buffer at once',
    na: {
      gl: 'xfb programs take uniforms by value (setUniform), never a uniform block; an output the application binds as UNIFORM_BUFFER is the simultaneous.uniform-buffer-* cases',
      webgpu: 'xfb programs take uniforms by value (setUniform), never a uniform block',
    },
  },
  {
    id: 'reuse.state-three-steps',
    peers: ['webgl conformance2/transform_feedback/transform_feedback_same_buffers_as_input_and_output.html'],
    intent: 'three steps of a state pair each read the previous output (never the buffer they write)',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, b: { format: vec4(0), count: 4 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a', output: 'b' }] }, { op: 'step', times: 3 }],
    expect: { buffers: { a: twice(twice(twice(input4))), b: twice(twice(input4)) } },
  },
  {
    id: 'reuse.intervening-reads',
    peers: ['piglit ext_transform_feedback/intervening-read.c'],
    intent: 'a read between steps sees the last step and does not disturb the next',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, b: { format: vec4(0), count: 4 } },
    run: [
      { op: 'program', source: doubler },
      { op: 'pipeline', entries: [{ input: 'a', output: 'b' }] },
      { op: 'step' },
      { op: 'read', buffer: 'a', expect: twice(input4) },
      { op: 'step' },
      { op: 'read', buffer: 'a', expect: twice(twice(input4)) },
    ],
    expect: { buffers: { a: twice(twice(input4)) } },
  },
  {
    id: 'reuse.re-upload',
    peers: ['piglit ext_transform_feedback/change-size.c (new contents)'],
    intent: 'an upload between steps is what the next step reads',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, b: { format: vec4(0), count: 4 } },
    run: [
      { op: 'program', source: doubler },
      { op: 'pipeline', entries: [{ input: 'a', output: 'b' }] },
      { op: 'step' },
      { op: 'upload', buffer: 'a', data: range(4, (i) => 50 + i), offset: 16 },
      { op: 'step' },
    ],
    expect: { buffers: { a: twice([...twice(input4).slice(0, 4), 50, 51, 52, 53, ...twice(input4).slice(8)]) } },
  },
  {
    id: 'reuse.foreign-respecification.step-checked',
    peers: ['piglit ext_transform_feedback/change-size.c'],
    intent: 'a checked step into an output other code re-specified smaller is refused with XFB_SHORT_WRITE on every backend, writes nothing there, and is not swapped',
    finding: 10,
    na: NO_GL_ON_WEBGPU,
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 4 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }] }, { op: 'app', respecify: 'out', bytes: 20 }, { op: 'stepChecked', error: 'XFB_SHORT_WRITE' }],
    expect: { buffers: { a: input4 } },
  },
  {
    id: 'binding.same-buffer-two-outputs',
    peers: ['webgl conformance2/transform_feedback/same-buffer-two-binding-points.html'],
    intent: 'one buffer given as two separate outputs is refused with XFB_INVALID_ARGUMENT when the pipeline is made',
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, out: { format: vec4(0), count: 4 } },
    run: [{ op: 'program', source: separate2, mode: 'separate' }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'out' }, { output: 'out' }], error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { out: range(16, () => 'S') } },
  },
  {
    id: 'binding.same-gl-buffer-adopted-twice',
    peers: ['webgl conformance2/transform_feedback/same-buffer-two-binding-points.html'],
    intent: 'one GL buffer (on WebGPU one GPUBuffer) adopted twice and given as two outputs is refused with XFB_INVALID_ARGUMENT when the pipeline is made',
    finding: 8,
    buffers: { a: { format: vec4(0), count: 4, data: input4 }, x: { format: vec4(0), count: 4, adopt: true }, y: { format: vec4(0), count: 4, adoptOf: 'x' } },
    run: [{ op: 'program', source: separate2, mode: 'separate' }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'x' }, { output: 'y' }], error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { x: range(16, () => 'S') } },
  },
  {
    id: 'binding.input-is-output',
    peers: ['webgl conformance2/transform_feedback/transform_feedback_same_buffers_as_input_and_output.html'],
    intent: 'a buffer read as input and written as output in one pass is refused with XFB_INVALID_ARGUMENT',
    buffers: { a: { format: vec4(0), count: 4, data: input4 } },
    run: [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a' }, { output: 'a' }], error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { a: input4 } },
  },
];
