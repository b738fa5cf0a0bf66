// The setup vocabulary of the misuse table (table.mjs): the objects a row names in `setup`, made
// fresh for every row on the runtime's engine, with what each must still hold after the row's
// refused call ("nothing lost", checked by page/misuse.js):
//   a        buffer 'a', vec4 ATTR0 x 4, holding A = 1..16            check: reads A
//   b        buffer 'b', same format, holding B = 101..116             check: reads B
//   program  program 'sim' (SOURCE: a uniform of every type the WebGPU translator takes), k = 2
//   pipeline 'sim' over { input: a, output: b }                        check: a step makes a = 2A
//   bools    program 'bools' (bool, bvec2..4 uniforms) and its pipeline over own buffers ba, bb
//                                                                      check: a step makes ba = 2A
//   capture  capture 'pass' of { input: a }, { output: cb } (cb: vec4 x 4 holding B)
//            (WebGPU: o.encoder, a GPURenderBundleEncoder for drawCaptured/drawSession)
//                                                                      check: capturing 4 points makes cb = A
//   c8       buffer 'c8', vec4 ATTR0 x 8 (another count)               check: reads zeros
//   ints     buffer 'ints', int32 x4 ATTR0 x 4 (another component type)  check: reads 1..16
//   attr1    buffer 'attr1', vec4 ATTR1 x 4 (another semantic)         check: reads A
//   spare    a second engine of the same runtime (same context or device) with its own buffers,
//            program and pipeline: o.spare = { xfb, buffer, output, program, pipeline }
//   foreign  a buffer and a program of the OTHER runtime's engine: o.foreign = { buffer, program }
//   lost     an engine of its own whose WebGL context is lost (WEBGL_lose_context) or whose
//            GPUDevice is destroyed, with a buffer, a 'sim' program and a pipeline made before:
//            o.lost = { xfb, buffer, program, pipeline }; made once per runtime, never restored (by these rows)
//   glBuffer a WebGLBuffer of the page's WebGL2 context (64 bytes; on WebGPU too: a WebGLBuffer
//            handed to the WebGPU engine)
//   adoptable the runtime's kind of buffer to adopt, 64 bytes: a WebGLBuffer of the page's context
//            (WebGL2), a GPUBuffer with STORAGE | VERTEX usage of the engine's device (WebGPU)
//   otherGl  a WebGLBuffer of a second WebGL2 context
// Every row gets a, b, program and pipeline; `setup` adds the others, in the order listed here.

export const VEC4 = [{ semantic: 'ATTR0', components: 4 }];
export const A = Float32Array.from({ length: 16 }, (_, i) => i + 1);
const B = Float32Array.from({ length: 16 }, (_, i) => i + 101);
const TWICE_A = A.map((x) => 2 * x);

/** Reads p, writes out_p = p * k + (the sum of every component of every other uniform, all 0
 *  by default): a refused setUniform() that wrote anything shows in the next step. */
const SOURCE = `#version 300 es
in vec4 p;
uniform float k; uniform vec2 v2; uniform vec3 v3; uniform vec4 v4;
uniform int n; uniform ivec2 i2; uniform ivec3 i3; uniform ivec4 i4;
uniform uint u; uniform uvec2 u2; uniform uvec3 u3; uniform uvec4 u4;
uniform mat2 m2; uniform mat3 m3; uniform mat4 m4; uniform mat2x3 m23; uniform mat3x4 m34; uniform mat4x2 m42;
uniform vec4 va[2];
out vec4 out_p;
void main() {
  float s = dot(v2, vec2(1.0)) + dot(v3, vec3(1.0)) + dot(v4, vec4(1.0))
    + float(n + i2.x + i2.y + i3.x + i3.y + i3.z + i4.x + i4.y + i4.z + i4.w)
    + float(u + u2.x + u2.y + u3.x + u3.y + u3.z + u4.x + u4.y + u4.z + u4.w)
    + dot(m2 * vec2(1.0), vec2(1.0)) + dot(m3 * vec3(1.0), vec3(1.0)) + dot(m4 * vec4(1.0), vec4(1.0))
    + dot(m23 * vec2(1.0), vec3(1.0)) + dot(m34 * vec3(1.0), vec4(1.0)) + dot(m42 * vec4(1.0), vec2(1.0))
    + dot(va[0] + va[1], vec4(1.0));
  out_p = p * k + vec4(s, 0.0, 0.0, 0.0);
}`;

/** Bool uniforms: out_p = p * (f ? 3 : 2) + (any(b2), any(b3), any(b4) as 0 or 1). */
const BOOL_SOURCE = `#version 300 es
in vec4 p;
uniform bool f; uniform bvec2 b2; uniform bvec3 b3; uniform bvec4 b4;
out vec4 out_p;
void main() { out_p = p * (f ? 3.0 : 2.0) + vec4(any(b2) ? 1.0 : 0.0, any(b3) ? 1.0 : 0.0, any(b4) ? 1.0 : 0.0, 0.0); }`;

/** The smallest valid program: out_p = p. */
export const PASS_SOURCE = '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p; }';

/** A two-stream geometry shader (issue 27), after GEOMETRY_VERTEX: centroids to stream 0, normals to stream 1. */
export const GEOMETRY = `#version 400
layout(triangles) in;
layout(points, max_vertices = 2) out;
in vec4 v_position[];
layout(stream = 0) out vec4 out_centroid;
layout(stream = 1) out vec3 out_normal;
void main() {
    out_centroid = v_position[0] + v_position[1] + v_position[2];
    EmitStreamVertex(0);
    out_normal = cross(v_position[1].xyz - v_position[0].xyz, v_position[2].xyz - v_position[0].xyz);
    EmitStreamVertex(1);
}`;
export const GEOMETRY_VERTEX = '#version 300 es\nin vec4 p;\nout vec4 v_position;\nvoid main() { v_position = p; }';

/** A pipeline of the geometry program 'new' over a and b: WebGL2 refuses the program (createProgram(),
 *  XFB_GEOMETRY_UNSUPPORTED), WebGPU makes it and refuses the pipeline (XFB_UNSUPPORTED). */
export function geometryPipeline(o) {
  const program = o.xfb.createProgram({ source: GEOMETRY_VERTEX, geometry: GEOMETRY, label: 'new' });
  try {
    return o.xfb.createPipeline(program, [{ input: o.a, output: o.b }]);
  } finally {
    program.dispose();
  }
}

/** The makers, in the order they run. Each sets o[name] and adds its checks and its cleanup. */
const MAKERS = {
  a(o) { o.a = buffer(o, 'a', VEC4, A); },
  b(o) { o.b = buffer(o, 'b', VEC4, B); },
  program(o) { o.program = own(o, o.xfb.createProgram({ source: SOURCE, label: 'sim' })); o.program.setUniform('k', 2); },
  pipeline(o) {
    o.pipeline = own(o, o.xfb.createPipeline(o.program, [{ input: o.a, output: o.b }]));
    o.checks.push({ kind: 'step', what: "pipeline 'sim'", pipeline: o.pipeline, uses: [o.program, o.a, o.b], state: o.a, expect: TWICE_A });
  },
  bools(o) {
    const ba = buffer(o, 'ba', VEC4, A), bb = buffer(o, 'bb', VEC4, B);
    o.bools = own(o, o.xfb.createProgram({ source: BOOL_SOURCE, label: 'bools' }));
    const pipeline = own(o, o.xfb.createPipeline(o.bools, [{ input: ba, output: bb }]));
    o.checks.push({ kind: 'step', what: "pipeline 'bools'", pipeline, uses: [o.bools, ba, bb], state: ba, expect: TWICE_A });
  },
  capture(o) {
    const cb = buffer(o, 'cb', VEC4, B);
    const program = own(o, o.xfb.createProgram({ source: PASS_SOURCE, label: 'pass' }));
    o.capture = own(o, o.xfb.createCapture(program, [{ input: o.a }, { output: cb }]));
    o.captureParts = { program, output: cb };
    if (o.runtime === 'webgpu') o.encoder = o.xfb.device.createRenderBundleEncoder({ colorFormats: ['rgba8unorm'] });
    o.checks.push({ kind: 'capture', what: "capture 'pass'", capture: o.capture, uses: [program, o.a, cb], output: cb, expect: A });
  },
  c8(o) { o.c8 = buffer(o, 'c8', VEC4, new Float32Array(32)); },
  ints(o) { o.ints = buffer(o, 'ints', [{ semantic: 'ATTR0', type: 'int32', components: 4 }], Int32Array.from(A)); },
  attr1(o) { o.attr1 = buffer(o, 'attr1', [{ semantic: 'ATTR1', components: 4 }], A); },
  async spare(o) {
    const xfb = await o.env.createEngine();
    o.cleanup.push(() => xfb.dispose());
    const a = xfb.createBuffer({ format: VEC4, count: 4, data: A, label: 'spare a' }), b = xfb.createBuffer({ format: VEC4, count: 4, label: 'spare b' });
    const program = xfb.createProgram({ source: PASS_SOURCE, label: 'spare' });
    o.spare = { xfb, buffer: a, output: b, program, pipeline: xfb.createPipeline(program, [{ input: a, output: b }]) };
  },
  foreign(o) {
    const other = o.env.other();
    const buffer = other.createBuffer({ format: VEC4, count: 4, data: A, label: 'foreign' });
    const program = other.createProgram({ source: PASS_SOURCE, label: 'foreign' });
    o.cleanup.push(() => { buffer.dispose(); program.dispose(); });
    o.foreign = { buffer, program };
  },
  async lost(o) { o.lost = await o.env.lostEngine(); },
  glBuffer(o) { o.glBuffer = glBuffer(o, o.env.webgl()); },
  adoptable(o) {
    if (o.runtime === 'webgl2') o.adoptable = glBuffer(o, o.env.webgl());
    else {
      const b = o.xfb.device.createBuffer({ label: 'adoptable', size: 64, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX });
      o.cleanup.push(() => b.destroy());
      o.adoptable = b;
    }
  },
  otherGl(o) { o.otherGl = glBuffer(o, o.env.secondWebgl()); },
};
const DEFAULT = ['a', 'b', 'program', 'pipeline'];
export const SETUP_NAMES = Object.keys(MAKERS);

/** Makes a row's setup on one runtime: env = { runtime, xfb, pkg, engineOptions, createEngine(),
 *  other(), lostEngine(), webgl(), secondWebgl(), device() }. Resolves to o (the objects, o.checks, o.cleanup)
 *  or rejects with { error, o, failedAt }: the first maker that threw, and what was made before it. */
export async function makeSetup(env, names = []) {
  const o = { env, xfb: env.xfb, runtime: env.runtime, pkg: env.pkg, engineOptions: env.engineOptions, checks: [], cleanup: [] };
  const wanted = new Set([...DEFAULT, ...names]);
  for (const name of SETUP_NAMES) {
    if (!wanted.has(name)) continue;
    try {
      await MAKERS[name](o);
    } catch (error) {
      throw { error, o, failedAt: name };
    }
  }
  return o;
}

/** The objects of the 'lost' setup, made on `xfb` before its context or device goes. */
export function makeLostObjects(xfb) {
  const buffer = xfb.createBuffer({ format: VEC4, count: 4, data: A, label: 'lost a' }), out = xfb.createBuffer({ format: VEC4, count: 4, label: 'lost b' });
  const program = xfb.createProgram({ source: SOURCE, label: 'lost' });
  return { xfb, buffer, program, pipeline: xfb.createPipeline(program, [{ input: buffer, output: out }]) };
}

/** Frees what a setup made, newest first; a disposal that throws is reported, not hidden. */
export function freeSetup(o) {
  const errors = [];
  for (const f of o.cleanup.reverse()) {
    try { f(); } catch (e) { errors.push(e); }
  }
  return errors;
}

function own(o, object) { o.cleanup.push(() => object.dispose()); return object; }

// Every setup format has 4 components per element.
function buffer(o, label, format, data) {
  const b = own(o, o.xfb.createBuffer({ format, count: data.length / 4, data, label }));
  o.checks.push({ kind: 'buffer', what: `buffer '${label}'`, buffer: b, uses: [b], expect: data });
  return b;
}

function glBuffer(o, gl) {
  const b = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, b);
  gl.bufferData(gl.ARRAY_BUFFER, 64, gl.STATIC_DRAW);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  o.cleanup.push(() => gl.deleteBuffer(b));
  return b;
}
