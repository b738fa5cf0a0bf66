// Context (WebGL2, native Device::contextLost) or device (WebGPU) loss with work in flight: every
// call refuses with XFB_CONTEXT_LOST, a read in flight rejects with it (never returns bytes or a
// raw DOMException), and after the restore the objects work again (dEQP and WebGL context-loss
// intent applied to transform feedback).
import { CAPTURE_ONLY, doubler, range, vec4 } from '../words.mjs';

const input4 = range(16, (i) => i);
const twice = (v) => v.map((x, k) => x * 2 + Math.floor(k / 4));
const pair = { a: { format: vec4(0), count: 4, data: input4 }, b: { format: vec4(0), count: 4 } };
const made = [{ op: 'program', source: doubler }, { op: 'pipeline', entries: [{ input: 'a', output: 'b' }] }];

export const loss = [
  {
    id: 'loss.read-in-flight',
    peers: ['webgl conformance/context/context-lost.html (pending reads)', 'dEQP-EGL robustness (reset with work in flight)'],
    intent: 'a read started before the loss ends with XFB_CONTEXT_LOST, not with bytes or a raw DOMException',
    finding: 12,
    buffers: pair,
    run: [...made, { op: 'step' }, { op: 'readAsync', buffer: 'a', name: 'r' }, { op: 'lose' }, { op: 'take', name: 'r', error: 'XFB_CONTEXT_LOST' }],
  },
  {
    id: 'loss.step',
    peers: ['webgl conformance/context/context-lost.html'],
    intent: 'a step after the loss is refused with XFB_CONTEXT_LOST',
    buffers: pair,
    run: [...made, { op: 'lose' }, { op: 'step', error: 'XFB_CONTEXT_LOST' }],
  },
  {
    id: 'loss.step-checked',
    peers: ['webgl conformance/context/context-lost.html'],
    intent: 'a checked step after the loss is refused with XFB_CONTEXT_LOST',
    buffers: pair,
    run: [...made, { op: 'lose' }, { op: 'stepChecked', error: 'XFB_CONTEXT_LOST' }],
  },
  {
    id: 'loss.capture',
    peers: ['webgl conformance/context/context-lost.html'],
    intent: 'a capture after the loss is refused with XFB_CONTEXT_LOST',
    na: CAPTURE_ONLY,
    buffers: { out: { format: vec4(0), count: 4 } },
    run: [
      { op: 'program', source: '#version 300 es\nout vec4 out_v;\nvoid main() { out_v = vec4(1.0); gl_Position = vec4(0.0); }\n' },
      { op: 'capture', entries: [{ output: 'out' }], vertexCount: 4 },
      { op: 'lose' },
      { op: 'draw', mode: 'points', count: 4, error: 'XFB_CONTEXT_LOST' },
    ],
  },
  {
    id: 'loss.restore-and-continue',
    peers: ['webgl conformance/context/context-lost-restored.html'],
    intent: 'after the restore, an upload and a step give the same bytes as on a fresh context',
    buffers: pair,
    run: [...made, { op: 'step' }, { op: 'lose' }, { op: 'restore' }, { op: 'upload', buffer: 'a', data: input4 }, { op: 'step' }],
    expect: { buffers: { a: twice(input4) } },
  },
];
