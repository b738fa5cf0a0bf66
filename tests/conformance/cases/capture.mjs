// Primitive capture: too-small outputs, several draws, indexed order, incomplete primitives, the
// draw-mode enumeration, foreign re-specification, append offsets (piglit overflow-edge-cases.c,
// order.c, negative-prims.c, alignment.c, change-size.c; WebGL too-small-buffers.html).
import { CAPTURE_ONLY, NO_GL_ON_WEBGPU, S, range, vec4, vertexIdRecord, vertexIdSource } from '../words.mjs';

const records = (list) => list.flatMap(vertexIdRecord);
const program = { op: 'program', source: vertexIdSource };
const capture = (vertexCount) => ({ op: 'capture', entries: [{ output: 'out' }], vertexCount });
const out = (count) => ({ out: { format: vec4(0), count } });
const sentinels = (n) => range(4 * n, () => S);

export const captureCases = [
  {
    id: 'capture.overflow.one-short',
    peers: ['webgl conformance2/transform_feedback/too-small-buffers.html', 'piglit ext_transform_feedback/overflow-edge-cases.c'],
    intent: 'a triangle capture one record too large for the output is refused with XFB_CAPACITY and writes nothing',
    na: CAPTURE_ONLY,
    buffers: out(5),
    run: [program, capture(6), { op: 'draw', mode: 'triangles', count: 6, error: 'XFB_CAPACITY' }],
    expect: { buffers: { out: sentinels(5) } },
  },
  {
    id: 'capture.overflow.exact',
    peers: ['piglit ext_transform_feedback/overflow-edge-cases.c'],
    intent: 'a capture of exactly the output size fills it',
    na: CAPTURE_ONLY,
    buffers: out(6),
    run: [program, capture(6), { op: 'draw', mode: 'triangles', count: 6, records: 6, primitives: 2 }],
    expect: { buffers: { out: records([0, 1, 2, 3, 4, 5]) } },
  },
  {
    id: 'capture.overflow.count-overflow',
    peers: ['piglit ext_transform_feedback/overflow-edge-cases.c (huge counts)'],
    intent: 'a vertex count past the inputs is refused with XFB_INVALID_ARGUMENT before anything is drawn',
    na: CAPTURE_ONLY,
    buffers: out(6),
    run: [program, capture(6), { op: 'draw', mode: 'points', count: 2147483647, error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { out: sentinels(6) } },
  },
  {
    id: 'capture.several-draws',
    peers: ['webgl conformance2/transform_feedback/too-small-buffers.html (several draws)', 'piglit ext_transform_feedback/intervening-read.c'],
    intent: 'each capture writes from the start of the outputs: a second, larger draw replaces the first',
    na: CAPTURE_ONLY,
    buffers: out(6),
    run: [program, capture(6), { op: 'draw', mode: 'points', count: 2, records: 2 }, { op: 'read', buffer: 'out', expect: [...records([0, 1]), ...sentinels(4)] }, { op: 'draw', mode: 'lines', count: 6, records: 6 }],
    expect: { buffers: { out: records([0, 1, 2, 3, 4, 5]) } },
  },
  {
    id: 'capture.order.scrambled-indices',
    peers: ['piglit ext_transform_feedback/order.c', 'dEQP-GLES3.functional.transform_feedback (indexed draws)'],
    intent: 'an indexed draw records its vertices in index order, not vertex order',
    na: CAPTURE_ONLY,
    buffers: out(6),
    run: [program, capture(6), { op: 'draw', mode: 'triangles', indices: [5, 0, 3, 2, 4, 1], records: 6 }],
    expect: { buffers: { out: records([5, 0, 3, 2, 4, 1]) } },
  },
  {
    id: 'capture.incomplete-primitive',
    peers: ['piglit ext_transform_feedback/negative-prims.c', 'webgl conformance2/transform_feedback/transform_feedback.html (primitive modes)'],
    intent: 'the incomplete last primitive of a draw is not recorded: 3 vertices as lines give one line',
    na: CAPTURE_ONLY,
    buffers: out(4),
    run: [program, capture(4), { op: 'draw', mode: 'lines', count: 3, records: 2, primitives: 1 }],
    expect: { buffers: { out: [...records([0, 1]), ...sentinels(2)] } },
  },
  {
    id: 'capture.mode-outside-enumeration',
    peers: ['piglit ext_transform_feedback/api-errors.c (bad primitive modes)', 'webgl conformance2/transform_feedback/states-and-errors.html'],
    intent: 'a draw mode that is none of the seven is refused with XFB_INVALID_ARGUMENT, nothing written',
    finding: 11,
    na: CAPTURE_ONLY,
    buffers: out(4),
    run: [program, capture(4), { op: 'draw', mode: 'invalid', rawMode: 42, count: 3, error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { out: sentinels(4) } },
  },
  {
    id: 'capture.session.mode-outside-enumeration',
    peers: ['piglit ext_transform_feedback/api-errors.c (bad primitive modes)'],
    intent: 'a session with a part of no valid mode is refused whole with XFB_INVALID_ARGUMENT, nothing written',
    finding: 11,
    na: CAPTURE_ONLY,
    buffers: out(4),
    run: [program, capture(4), { op: 'session', parts: [{ mode: 'points', count: 2 }, { mode: 'invalid', rawMode: 42, count: 2 }], error: 'XFB_INVALID_ARGUMENT' }],
    expect: { buffers: { out: sentinels(4) } },
  },
  {
    id: 'capture.foreign-respecification',
    peers: ['piglit ext_transform_feedback/change-size.c', 'webgl conformance2/transform_feedback/too-small-buffers.html'],
    intent: 'an output that other code re-specified smaller (glBufferData, 20 bytes) is refused with XFB_CAPACITY naming its GL size, not reported as written',
    finding: 10,
    na: { ...NO_GL_ON_WEBGPU, ...CAPTURE_ONLY },
    buffers: out(6),
    run: [program, capture(6), { op: 'app', respecify: 'out', bytes: 20 }, { op: 'draw', mode: 'triangles', count: 6, error: 'XFB_CAPACITY' }],
  },
  {
    id: 'capture.append.offset',
    peers: ['piglit ext_transform_feedback/alignment.c', 'dEQP-GLES3.functional.transform_feedback (buffer offsets)'],
    intent: 'a session from record 1 writes there and leaves record 0 untouched',
    na: CAPTURE_ONLY,
    buffers: out(5),
    run: [program, capture(4), { op: 'session', parts: [{ mode: 'points', count: 2 }, { mode: 'lines', count: 2 }], firstRecord: 1, endRecord: 5 }],
    expect: { buffers: { out: [...sentinels(1), ...records([0, 1, 0, 1])] } },
  },
  {
    id: 'capture.append.one-short',
    peers: ['piglit ext_transform_feedback/overflow-edge-cases.c', 'piglit ext_transform_feedback/alignment.c'],
    intent: 'a session one record past the outputs is refused whole with XFB_CAPACITY, nothing written',
    na: CAPTURE_ONLY,
    buffers: out(4),
    run: [program, capture(4), { op: 'session', parts: [{ mode: 'points', count: 2 }, { mode: 'lines', count: 2 }], firstRecord: 1, error: 'XFB_CAPACITY' }],
    expect: { buffers: { out: sentinels(4) } },
  },
];
