// Geometry programs in the browser (issue 27): createProgram({ source, geometry }) on both engines.
// WebGL2 has no geometry shaders and no compute shaders; the WebGPU engine has no WGSL translation
// of the geometry compute capture yet (docs/guide/geometry.md, "Runtimes"). So every geometry
// shader of tests/gl/geometry_test.cpp (amplification as points and as lines, invocations, two
// streams, the overflow one) is refused on both with XFB_GEOMETRY_UNSUPPORTED, the message naming
// the program, the runtime and where geometry programs run; nothing is created, the engine keeps
// working (the same vertex shader without its geometry shader captures, compared with a JS
// reference), malformed `geometry` values are XFB_INVALID_ARGUMENT with one message on both.
import { assert, assertArrayEqual, createXfb, expectError, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const gl2 = await createXfb({ canvas });
const adapter = await navigator.gpu?.requestAdapter();
const gpu = adapter ? await createXfb({ device: await adapter.requestDevice() }) : null;
const requireGpu = () => assert(gpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
const runtimes = () => (requireGpu(), [['webgl2', gl2], ['webgpu', gpu]]);

// tests/gl/geometry_test.cpp's kPassVertex in GLSL ES 3.00: positions and the vertex's index.
const VERTEX = `#version 300 es
in vec4 a_position;
out vec4 v_position;
flat out int v_id;
void main() { v_position = a_position; v_id = gl_VertexID; gl_Position = a_position; }
`;
const GS = '#version 320 es\nprecision highp float;\nprecision highp int;\n';

// The geometry shaders of tests/gl/geometry_test.cpp (its ES 3.2 header).
const GEOMETRY = {
  // Amplification: every triangle in, its centroid and face normal out as two points.
  'face-points': `${GS}layout(triangles) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_point;
flat out ivec4 out_tag;
void main() {
    vec3 a = v_position[0].xyz, b = v_position[1].xyz, c = v_position[2].xyz;
    int order = v_id[0] * 256 + v_id[1] * 16 + v_id[2];
    out_point = vec4(a + b + c, 0.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 0, order, 7);
    EmitVertex();
    vec3 u = b - a, v = c - a;
    out_point = vec4(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x, 1.0);
    out_tag = ivec4(gl_PrimitiveIDIn, 1, order, 7);
    EmitVertex();
}
`,
  // Amplification as lines: a fin per vertex of each triangle.
  fins: `${GS}layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
in vec4 v_position[];
out vec4 out_position;
void main() {
    for (int i = 0; i < 3; ++i) {
        vec4 p = v_position[i];
        out_position = p;
        EmitVertex();
        out_position = p + vec4(0.0, 0.0, v_position[(i + 1) % 3].x - p.x, 0.0);
        EmitVertex();
        EndPrimitive();
    }
}
`,
  invocations: `${GS}layout(triangles, invocations = 3) in;
layout(points, max_vertices = 1) out;
in vec4 v_position[];
flat in int v_id[];
out vec4 out_point;
flat out ivec4 out_tag;
void main() {
    out_point = v_position[gl_InvocationID];
    out_tag = ivec4(gl_PrimitiveIDIn, gl_InvocationID, v_id[gl_InvocationID], 0);
    EmitVertex();
}
`,
  // Two streams (desktop GLSL 4.00: ES 3.2 has stream 0 only): centroids, odd faces' normals.
  'two-streams': `#version 400 core\n${await shader('geometry_two_streams.geom')}`,
  // The overflow case: point i emits 1 + i % 3 points, a budget of 3 a point.
  overflow: `${GS}layout(points) in;
layout(points, max_vertices = 3) out;
flat in int v_id[];
out vec4 out_value;
void main() {
    for (int c = 0; c <= v_id[0] % 3; ++c) { out_value = vec4(float(v_id[0]), float(c), 0.0, 1.0); EmitVertex(); }
}
`,
};

const WHAT_EACH_LACKS = {
  webgl2: 'WebGL2 has no geometry shaders (it ends at the vertex shader) and no compute shaders',
  webgpu: 'the WebGPU engine does not translate geometry shaders to WGSL yet',
};

/** The refusal of a geometry program: code, message, and nothing created. */
async function refused(runtime, xfb, description) {
  const before = JSON.stringify(xfb.liveObjects());
  // [docs:geometry-web-refusal]
  const e = await expectError('XFB_GEOMETRY_UNSUPPORTED', () => xfb.createProgram(description)); // { source, geometry, label }
  // WebGL2 and WebGPU alike, before any GL or GPU call; e.message names the program, what the runtime lacks,
  // and where geometry programs run (native GL through the C++ API; in the browser, emits on WebGPU)
  // [docs:end]
  const label = description.label ?? 'program';
  for (const part of [`program '${label}' has a geometry shader`, WHAT_EACH_LACKS[runtime], 'desktop OpenGL 4.0+', 'OpenGL ES 3.2 (stream 0)', 'compute on OpenGL 4.3+ / ES 3.1+', 'createPipeline() emits'])
    assert(e.message.includes(part), `${runtime}: the message names "${part}": ${e.message}`);
  assert(JSON.stringify(xfb.liveObjects()) === before, `${runtime}: nothing created: ${before} -> ${JSON.stringify(xfb.liveObjects())}`);
  return e;
}

for (const [name, geometry] of Object.entries(GEOMETRY))
  test(`${name}: the geometry program of geometry_test.cpp is XFB_GEOMETRY_UNSUPPORTED on WebGL2 and on WebGPU, naming the runtime and where it runs`, async () => {
    const messages = {};
    for (const [runtime, xfb] of runtimes()) {
      messages[runtime] = (await refused(runtime, xfb, { source: VERTEX, geometry, label: name })).message;
      // The same in separate mode and with a list: the options are checked, then the refusal.
      await refused(runtime, xfb, { source: VERTEX, geometry, mode: 'separate', varyings: ['out_x'], label: `${name}-separate` });
    }
    // One message but for the runtime's reason.
    assert(messages.webgl2.replace(WHAT_EACH_LACKS.webgl2, '') !== messages.webgl2, 'the WebGL2 reason is in its message');
    const rest = (runtime) => messages[runtime].slice(messages[runtime].indexOf('. Geometry programs run'));
    assert(rest('webgl2') === rest('webgpu'), `the same alternatives on both: "${rest('webgl2')}" / "${rest('webgpu')}"`);
  });

test('the refusal comes after the shape checks and before the planner: a malformed option is XFB_INVALID_ARGUMENT first, an unreadable vertex shader is still XFB_GEOMETRY_UNSUPPORTED', async () => {
  for (const [runtime, xfb] of runtimes()) {
    const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source: VERTEX, geometry: GEOMETRY.overflow, mode: 'sideways' }));
    assert(e.message.includes('createProgram(): mode'), `${runtime}: ${e.message}`);
    await refused(runtime, xfb, { source: 'not glsl at all', geometry: GEOMETRY.overflow });
  }
});

test("malformed geometry values are XFB_INVALID_ARGUMENT with one message on both engines; geometry: '' is no vertex program", async () => {
  for (const geometry of [5, null, {}, ['layout(points) in;'], true, '']) {
    const messages = [];
    for (const [runtime, xfb] of runtimes()) {
      const before = JSON.stringify(xfb.liveObjects());
      const e = await expectError('XFB_INVALID_ARGUMENT', () => xfb.createProgram({ source: VERTEX, varyings: ['v_position'], geometry }));
      assert(e.message.includes('createProgram(): geometry must be a non-empty string of GLSL'), `${runtime}: ${e.message}`);
      assert(JSON.stringify(xfb.liveObjects()) === before, `${runtime}: nothing created`);
      messages.push(e.message);
    }
    assert(messages[0] === messages[1], `one message: ${messages.join(' / ')}`);
  }
  // geometry: undefined is a vertex program, as leaving it out.
  for (const [, xfb] of runtimes()) xfb.createProgram({ source: VERTEX, varyings: ['v_position'], geometry: undefined }).dispose();
});

test('after the refusals both engines capture the vertex shader alone: 4 triangles of a strip, the same bytes as a JS reference', async () => {
  const positions = pseudoRandom(6 * 4, -1, 1, 11);
  for (let v = 0; v < 6; v++) positions[v * 4 + 3] = 1;
  // A triangle strip of 6 vertices: triangles k = 0..3 as k, k+1, k+2 (odd ones k+1, k, k+2).
  const order = [0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5];
  const reference = new Float32Array(order.flatMap((v) => [...positions.subarray(v * 4, v * 4 + 4)]));
  const format = [{ semantic: 'ATTR0', components: 4 }];
  for (const [runtime, xfb] of runtimes()) {
    await refused(runtime, xfb, { source: VERTEX, geometry: GEOMETRY['face-points'], label: 'face-points' });
    const program = xfb.createProgram({ source: VERTEX, varyings: ['v_position'], label: 'vertex-only' });
    const input = xfb.createBuffer({ format, count: 6, data: positions });
    const out = xfb.createBuffer({ format, count: 12 });
    const capture = xfb.createCapture(program, [{ input }, { output: out }]);
    const c = capture.capture({ mode: 'triangle_strip', count: 6 });
    assert(c.records === 12, `${runtime}: ${JSON.stringify(c)}`);
    assertArrayEqual(await out.read(), reference, `${runtime}: the strip's records`);
    for (const o of [capture, out, input, program]) o.dispose();
  }
});
