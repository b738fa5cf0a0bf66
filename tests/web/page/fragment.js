// The fragment backend on WebGL2 in Chromium (SwiftShader): createPipeline(..., { backend: 'fragment' })
// and pipeline.setBackend(). The same data through transform feedback and the fragment backend,
// every buffer compared byte for byte after every step, at counts that leave partial texture rows
// and partial texels; then switching, Auto's reason, the refusals (the same on both engines where
// both have the key) and the application's WebGL state around the fragment passes.
import { assert, assertArrayEqual, countCalls, createXfb, expectError, particlesStep, pseudoRandom, shader } from './assert.js';

const canvas = document.getElementById('canvas');
const gl = canvas.getContext('webgl2');
const xfb = await createXfb({ gl });
const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const vec = (slot, components = 4, type) => ({ semantic: `ATTR${slot}`, components, ...(type ? { type } : {}) });
const PARTICLES = await shader('particles.vert');
const LAYOUT36 = await shader('layout36.vert');
const FLOCK = await shader('flock_separate.vert');
const INTEGER_STATE = await shader('integer_state.vert');

/** `specs`: [{ input?: format, output?: format, data? }]; `uniforms(program, step)`. Runs `steps` x step(k) on 'tf' and
 *  'fragment' and requires every buffer equal byte for byte after each. Returns the fragment run. */
async function fragmentEqualsTf(source, mode, specs, n, uniforms, { steps = 3, substeps = 1 } = {}) {
  const make = (backend) => {
    const program = xfb.createProgram({ source, mode });
    const buffers = [];
    const entries = specs.map((s) => {
      const e = {};
      if (s.input) buffers.push((e.input = xfb.createBuffer({ format: s.input, count: n, data: s.data })));
      if (s.output) buffers.push((e.output = xfb.createBuffer({ format: s.output, count: n })));
      return e;
    });
    const pipeline = xfb.createPipeline(program, entries, { count: n, backend });
    assert(
      pipeline.info.backend === backend && pipeline.info.backendReason === 'requested',
      `${backend}: ${JSON.stringify(pipeline.info)}`,
    );
    return { program, buffers, pipeline };
  };
  const tf = make('tf'),
    fragment = make('fragment');
  for (let s = 0; s < steps; s++) {
    for (const r of [tf, fragment]) {
      uniforms(r.program, s);
      r.pipeline.step(substeps);
    }
    for (let b = 0; b < tf.buffers.length; b++) {
      const want = bytesOf(await tf.buffers[b].read()),
        got = bytesOf(await fragment.buffers[b].read());
      assert(want.length === got.length, `buffer ${b}: ${got.length} bytes vs ${want.length}`);
      const at = want.findIndex((x, i) => x !== got[i]);
      assert(at < 0, `n=${n} step ${s} (k=${substeps}) buffer ${b}: differs at byte ${at} of ${want.length}`);
    }
  }
  assert(fragment.pipeline.info.steps === tf.pipeline.info.steps, 'steps counted alike');
  for (const o of [tf, fragment]) for (const x of [o.pipeline, o.program, ...o.buffers]) x.dispose();
}

const particleFormat = [vec(0), vec(1)];
function particleState(n, seed) {
  const s = pseudoRandom(n * 8, -1, 1, seed);
  for (let e = 0; e < n; e++) s[e * 8 + 3] = 0.0625 * (e % 40);
  return s;
}
const particleUniforms = (p, s) => {
  p.setUniform('dt', 0.015625 * (1 + (s % 2)));
  p.setUniform('gravity', [0, -9.75, 0.5 * s]);
};

test('32-byte particles: fragment == tf byte for byte (1 element, partial rows, several rows), and the JS reference', async ({
  note,
}) => {
  for (const n of [1, 3, 777, 5000])
    await fragmentEqualsTf(
      PARTICLES,
      'interleaved',
      [{ input: particleFormat, output: particleFormat, data: particleState(n, 5) }],
      n,
      particleUniforms,
    );
  const n = 777,
    ref = particleState(n, 7);
  const program = xfb.createProgram({ source: PARTICLES });
  const state = xfb.createBuffer({ format: particleFormat, count: n, data: ref });
  const pipeline = xfb.createPipeline(
    program,
    [{ input: state, output: xfb.createBuffer({ format: particleFormat, count: n }) }],
    { backend: 'fragment' },
  );
  program.setUniform('dt', 0.015625);
  program.setUniform('gravity', [0, -9.75, 0]);
  for (let s = 0; s < 20; s++) {
    pipeline.step();
    particlesStep(ref, 0.015625, [0, -9.75, 0]);
  }
  assertArrayEqual(await state.read(), ref, '20 fragment steps vs Math.fround');
  const path = pipeline.stepPath;
  assert(!path.replayed && path.reason === 'the fragment backend', `no replayed step: ${JSON.stringify(path)}`);
  note(`fused: ${pipeline.fusion().fused}`);
});

test('the state stays in its planes: no copy in a steady step; partial reads, uploads, glBuffer and tf see each step', async () => {
  const n = 1000,
    initial = particleState(n, 41);
  const make = (backend) => {
    const program = xfb.createProgram({ source: PARTICLES });
    const a = xfb.createBuffer({ format: particleFormat, count: n, data: initial }),
      b = xfb.createBuffer({ format: particleFormat, count: n });
    return { program, a, b, pipeline: xfb.createPipeline(program, [{ input: a, output: b }], { backend }) };
  };
  const tf = make('tf'),
    fr = make('fragment');
  let step = 0;
  const steps = (k) => {
    for (let i = 0; i < k; i++, step++)
      for (const r of [tf, fr]) {
        particleUniforms(r.program, step);
        r.pipeline.step();
      }
  };
  const same = async (what, options) => {
    for (const key of ['a', 'b'])
      assertArrayEqual(bytesOf(await fr[key].read(options)), bytesOf(await tf[key].read(options)), `${what} (${key})`);
  };
  steps(3);
  const calls = countCalls(gl);
  fr.pipeline.step();
  tf.pipeline.step(); // (uniforms as the last step's)
  step++;
  assert(calls.get('texSubImage2D') === 0 && calls.get('readPixels') === 0, `a steady step copies nothing: ${JSON.stringify(calls.snapshot())}`);
  steps(2);
  for (const [first, count] of [[0, 16], [377, 1], [984, 16]]) await same(`read({ first: ${first}, count: ${count} })`, { first, count });
  await same('after steps with nothing read between them');
  const fresh = pseudoRandom(80, -2, 2, 5);
  steps(2);
  for (const r of [tf, fr]) r.a.upload(fresh, { offset: 3200 });
  steps(3);
  await same('after a partial upload');
  fr.pipeline.setBackend('tf');
  steps(1);
  fr.pipeline.setBackend('fragment');
  steps(2);
  await same('after a transform-feedback step between fragment steps');
  // glBuffer: the latest step, and what the page writes into it is what the next step reads.
  steps(1);
  const behind = pseudoRandom(8, 0, 1, 9),
    got = new Uint8Array(32 * n),
    want = bytesOf(await tf.a.read());
  gl.bindBuffer(gl.COPY_READ_BUFFER, fr.a.glBuffer);
  gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, got);
  gl.bindBuffer(gl.COPY_READ_BUFFER, null);
  assertArrayEqual(got, want, 'glBuffer holds the latest step');
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, fr.a.glBuffer);
  gl.bufferSubData(gl.COPY_WRITE_BUFFER, 0, behind);
  gl.bindBuffer(gl.COPY_WRITE_BUFFER, null);
  tf.a.upload(behind);
  steps(2);
  await same("after the page's write into glBuffer");
  for (const r of [tf, fr]) for (const x of [r.pipeline, r.program, r.a, r.b]) x.dispose();
});

test('36-byte records (1-3 trailing words of a texel), in and out, and as a state pair', async () => {
  const in36 = [vec(0), vec(1, 3), vec(2, 2)];
  const out36 = [vec(0), vec(1, 3), vec(2, 2)];
  for (const n of [1, 2, 3, 4, 455])
    await fragmentEqualsTf(
      LAYOUT36,
      'interleaved',
      [{ input: in36, data: pseudoRandom(n * 9, -2, 2, 11) }, { output: out36 }],
      n,
      (p, s) => p.setUniform('scale', 1.5 + s),
      { steps: 2 },
    );
  const state36 = `#version 300 es
precision highp float;
in vec4 position;
in vec3 normal;
in vec2 uv;
uniform float scale;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() {
    out_position = vec4(position.xyz * scale + normal, position.w - 1.0);
    out_normal = normal.zxy + vec3(float(gl_VertexID));
    out_uv = uv * 0.5 + position.xy;
}`;
  for (const n of [1, 3, 1001])
    await fragmentEqualsTf(
      state36,
      'interleaved',
      [{ input: in36, output: in36, data: pseudoRandom(n * 9, -2, 2, 13) }],
      n,
      (p) => p.setUniform('scale', 0.75),
      { steps: 4 },
    );
});

test('separate mode (one pass, three colour attachments), constants, write-only outputs, fused', async () => {
  for (const n of [1, 513])
    for (const substeps of [1, 5])
      await fragmentEqualsTf(
        FLOCK,
        'separate',
        [
          { input: [vec(0)], output: [vec(0)], data: pseudoRandom(n * 4, -4, 4, 1) },
          { input: [vec(1)], output: [vec(1)], data: pseudoRandom(n * 4, -1, 1, 2) },
          { input: [vec(2, 2)], data: pseudoRandom(n * 2, 0.25, 2, 3) },
          { output: [vec(12)] },
        ],
        n,
        (p, s) => {
          p.setUniform('dt', 0.125);
          p.setUniform('target', [(s % 5) - 2, 1, -0.5 * (s % 3)]);
        },
        { steps: 3, substeps },
      );
});

test('int and uint attributes in a 12-byte record, xfb_substep, fused substeps', async () => {
  const format = [vec(1, 1, 'uint32'), vec(2, 1, 'int32'), vec(0, 1)];
  for (const n of [1, 2, 3, 100, 5462]) {
    const words = new ArrayBuffer(n * 12);
    const u32 = new Uint32Array(words),
      i32 = new Int32Array(words),
      f32 = new Float32Array(words);
    for (let e = 0; e < n; e++) {
      u32[e * 3] = Math.imul(e, 2654435761) >>> 0;
      i32[e * 3 + 1] = e - 50;
      f32[e * 3 + 2] = 0.25 * e;
    }
    for (const substeps of [1, 4])
      await fragmentEqualsTf(
        INTEGER_STATE,
        'interleaved',
        [{ input: format, output: format, data: words }],
        n,
        (p) => p.setUniform('scale', 0.5),
        { substeps },
      );
  }
});

test('uniforms of several types, a generator without inputs (24-byte records)', async () => {
  const source = `#version 300 es
precision highp float;
uniform float f;
uniform vec2 v2;
uniform ivec3 i3;
uniform uvec4 u4;
uniform mat3 m;
uniform float table[3];
flat out ivec2 out_i;
flat out uint out_u;
out vec3 out_m;
void main() {
    int k = gl_VertexID % 3;
    out_i = ivec2(i3.x + gl_VertexID, i3.y * i3.z);
    out_u = u4[k] ^ uint(gl_VertexID * 7);
    out_m = m * vec3(f, v2) + vec3(table[k], 1.0, 0.5);
}`;
  const uniforms = (p, s) => {
    p.setUniform('f', 0.5 + s);
    p.setUniform('v2', [-1.25, 2]);
    p.setUniform('i3', new Int32Array([-7, 3, s]));
    p.setUniform('u4', new Uint32Array([0xffffffff, 1, 0x80000000, 12345]));
    p.setUniform('m', [1, 2, 3, 4, 5, 6, 7, 8, 9 + s]);
    p.setUniform('table', [0.25, -8, 3.5]);
  };
  const out = [vec(0, 2, 'int32'), vec(1, 1, 'uint32'), vec(2, 3)];
  for (const n of [1, 2, 3, 1000]) await fragmentEqualsTf(source, 'interleaved', [{ output: out }], n, uniforms);
});

test("a simulation reading the application's texture with texelFetch", async () => {
  const source = `#version 300 es
precision highp float;
precision highp sampler2D;
in vec4 position;
uniform sampler2D positions;
out vec4 out_position;
void main() {
    vec4 neighbour = texelFetch(positions, ivec2((gl_VertexID + 1) % 8, gl_VertexID % 2), 0);
    out_position = position * 0.5 + neighbour;
}`;
  const texels = pseudoRandom(8 * 2 * 4, -3, 3, 17);
  const texture = gl.createTexture();
  gl.activeTexture(gl.TEXTURE2);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 8, 2);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 8, 2, gl.RGBA, gl.FLOAT, texels);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.activeTexture(gl.TEXTURE0);
  const n = 37;
  await fragmentEqualsTf(
    source,
    'interleaved',
    [{ input: [vec(0)], output: [vec(0)], data: pseudoRandom(n * 4, -1, 1, 19) }],
    n,
    (p) => p.setUniform('positions', 2),
  );
  const program = xfb.createProgram({ source });
  const state = xfb.createBuffer({ format: [vec(0)], count: n, data: new Float32Array(n * 4).fill(2) });
  const pipeline = xfb.createPipeline(
    program,
    [{ input: state, output: xfb.createBuffer({ format: [vec(0)], count: n }) }],
    { backend: 'fragment' },
  );
  program.setUniform('positions', 2);
  pipeline.step();
  const got = await state.read();
  assertArrayEqual(
    got.subarray(0, 4),
    texels.subarray(4, 8).map((t) => Math.fround(1 + t)),
    'element 0 adds texel (1, 0)',
  );
  // A sampler on a unit the backend uses for its inputs: refused before the step, named.
  const top = gl.getParameter(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS) - 1;
  program.setUniform('positions', top);
  const e = await expectError('XFB_INVALID_ARGUMENT', () => pipeline.step());
  assert(e.message.includes(`texture unit ${top}`) && e.message.includes("sampler 'positions'"), e.message);
  assert(pipeline.info.steps === 1, 'not stepped');
  gl.deleteTexture(texture);
});

test('setBackend between steps keeps the state in place; auto says why; the refusals', async ({ note }) => {
  const n = 777,
    initial = particleState(n, 23);
  const program = xfb.createProgram({ source: PARTICLES });
  const run = () => {
    const a = xfb.createBuffer({ format: particleFormat, count: n, data: initial });
    return {
      a,
      pipeline: xfb.createPipeline(program, [
        { input: a, output: xfb.createBuffer({ format: particleFormat, count: n }) },
      ]),
    };
  };
  const steady = run(),
    switching = run();
  const cycle = ['fragment', 'tf', 'auto'];
  for (let s = 0; s < 18; s++) {
    if (s % 3 === 1) switching.pipeline.setBackend(cycle[((s / 3) | 0) % cycle.length]);
    particleUniforms(program, s);
    steady.pipeline.step(s % 4 === 3 ? 3 : 1);
    switching.pipeline.step(s % 4 === 3 ? 3 : 1);
  }
  const want = bytesOf(await steady.a.read()),
    got = bytesOf(await switching.a.read());
  assert(
    want.every((x, i) => x === got[i]),
    'switching vs steady, byte for byte',
  );
  switching.pipeline.setBackend('auto');
  const info = switching.pipeline.info;
  assert(['tf', 'fragment'].includes(info.backend), info.backend);
  assert(
    /auto(, decided earlier on this context)?: (transform feedback|fragment) was fastest, transform feedback [\d.]+ ms vs fragment [\d.]+ ms per pass/.test(
      info.backendReason,
    ),
    info.backendReason,
  );
  assert(info.backendReason.includes('compute is not available'), info.backendReason);
  note(info.backendReason);
  // The refusals, coded: no compute on WebGL2, no such backend, and what the fragment backend cannot run.
  let e = await expectError('XFB_UNSUPPORTED', () => switching.pipeline.setBackend('compute'));
  assert(e.message.includes('WebGL2'), e.message);
  e = await expectError('XFB_UNSUPPORTED', () =>
    xfb.createPipeline(
      program,
      [
        {
          input: xfb.createBuffer({ format: particleFormat, count: 4 }),
          output: xfb.createBuffer({ format: particleFormat, count: 4 }),
        },
      ],
      { backend: 'compute' },
    ),
  );
  e = await expectError('XFB_INVALID_ARGUMENT', () => switching.pipeline.setBackend('vulkan'));
  assert(e.message.includes("'tf', 'compute', 'auto' or 'fragment'"), e.message);
  // texture() in a vertex shader reads the base level: the fragment passes read level 0.0, as
  // transform feedback does (here the unit's empty texture: the same value on both).
  const sampling = xfb.createProgram({
    source:
      '#version 300 es\nuniform highp sampler2D table;\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + texture(table, p.xy); }',
  });
  const sampled = {};
  for (const backend of ['tf', 'fragment']) {
    const pa = xfb.createBuffer({ format: [vec(0)], count: 4 }),
      pb = xfb.createBuffer({ format: [vec(0)], count: 4 });
    pa.upload(new Float32Array([0.5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]));
    const pipeline = xfb.createPipeline(sampling, [{ input: pa, output: pb }], { backend });
    assert(pipeline.info.backend === backend, `${pipeline.info.backend} runs texture(), asked ${backend}`);
    pipeline.step();
    sampled[backend] = bytesOf(await pb.read());
  }
  assert(
    sampled.tf.every((x, i) => x === sampled.fragment[i]) && new Float32Array(sampled.tf.slice().buffer)[1] === 1,
    `texture() on the fragment backend == tf, byte for byte: tf ${new Float32Array(sampled.tf.slice().buffer)}, fragment ${new Float32Array(sampled.fragment.slice().buffer)}`,
  );
  // A lookup without an explicit-level form is refused by the fragment backend, and leaves a
  // pipeline on transform feedback as it was.
  const shadow = xfb.createProgram({
    source:
      '#version 300 es\nuniform highp sampler2DArrayShadow table;\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p + texture(table, p); }',
  });
  const pa = xfb.createBuffer({ format: [vec(0)], count: 4 }),
    pb = xfb.createBuffer({ format: [vec(0)], count: 4 });
  e = await expectError('XFB_COMPUTE_TRANSLATION', () =>
    xfb.createPipeline(shadow, [{ input: pa, output: pb }], { backend: 'fragment' }),
  );
  assert(e.message.includes("'texture()' of a sampler2DArrayShadow"), e.message);
  const tfOnly = xfb.createPipeline(shadow, [{ input: pa, output: pb }]);
  await expectError('XFB_COMPUTE_TRANSLATION', () => tfOnly.setBackend('fragment'));
  assert(tfOnly.info.backend === 'tf', 'unchanged after the refusal');
  // WebGPU, where the browser has it: the key is the same, its runtime runs compute only.
  const gpu = navigator.gpu ? await createXfb({ backend: 'webgpu' }).catch(() => null) : null;
  if (gpu) {
    const gp = gpu.createProgram({ source: PARTICLES });
    const ga = gpu.createBuffer({ format: particleFormat, count: 4 }),
      gb = gpu.createBuffer({ format: particleFormat, count: 4 });
    e = await expectError('XFB_UNSUPPORTED', () =>
      gpu.createPipeline(gp, [{ input: ga, output: gb }], { backend: 'fragment' }),
    );
    assert(e.message.includes('compute pass'), e.message);
    const p = gpu.createPipeline(gp, [{ input: ga, output: gb }], { backend: 'auto' });
    p.setBackend('compute');
    await expectError('XFB_UNSUPPORTED', () => p.setBackend('tf'));
    await expectError('XFB_INVALID_ARGUMENT', () => p.setBackend('vulkan'));
    gpu.dispose();
  }
});

test("the application's WebGL state around fragment steps: framebuffers, viewport, pixel store (FLIP_Y and PREMULTIPLY on), textures", async () => {
  const n = 67; // 268 words: a partial row; the 36-byte state below adds partial texels
  const fb = [gl.createFramebuffer(), gl.createFramebuffer()];
  for (const f of fb) {
    const rb = gl.createRenderbuffer();
    gl.bindRenderbuffer(gl.RENDERBUFFER, rb);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, 4, 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, f);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, rb);
  }
  gl.bindRenderbuffer(gl.RENDERBUFFER, null);
  const units = gl.getParameter(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS);
  const textures = [0, 1, 2].map(() => {
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, 1, 1);
    return t;
  });
  const sampler = gl.createSampler();
  gl.samplerParameteri(sampler, gl.TEXTURE_MIN_FILTER, gl.LINEAR); // would make texelFetch of an integer texture read 0
  const pack = gl.createBuffer(),
    unpack = gl.createBuffer();
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pack);
  gl.bufferData(gl.PIXEL_PACK_BUFFER, 64, gl.STREAM_READ);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, unpack);
  gl.bufferData(gl.PIXEL_UNPACK_BUFFER, 64, gl.STREAM_DRAW);
  const apply = () => {
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, fb[0]);
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fb[1]);
    gl.viewport(3, 5, 7, 11);
    gl.enable(gl.SCISSOR_TEST);
    gl.enable(gl.CULL_FACE);
    gl.colorMask(false, true, false, true);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, true);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    gl.pixelStorei(gl.UNPACK_ROW_LENGTH, 7);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 8);
    gl.pixelStorei(gl.PACK_ROW_LENGTH, 9);
    gl.pixelStorei(gl.PACK_SKIP_PIXELS, 1);
    gl.pixelStorei(gl.PACK_ALIGNMENT, 2);
    gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pack);
    gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, unpack);
    for (let i = 0; i < 3; i++) {
      gl.activeTexture(gl.TEXTURE0 + units - 3 + i);
      gl.bindTexture(gl.TEXTURE_2D, textures[i]);
      gl.bindSampler(units - 3 + i, sampler);
    }
    gl.activeTexture(gl.TEXTURE3);
  };
  const snapshot = () => {
    const s = {};
    for (const name of [
      'DRAW_FRAMEBUFFER_BINDING',
      'READ_FRAMEBUFFER_BINDING',
      'VIEWPORT',
      'COLOR_WRITEMASK',
      'UNPACK_FLIP_Y_WEBGL',
      'UNPACK_PREMULTIPLY_ALPHA_WEBGL',
      'UNPACK_ROW_LENGTH',
      'UNPACK_ALIGNMENT',
      'PACK_ROW_LENGTH',
      'PACK_SKIP_PIXELS',
      'PACK_ALIGNMENT',
      'PIXEL_PACK_BUFFER_BINDING',
      'PIXEL_UNPACK_BUFFER_BINDING',
      'ACTIVE_TEXTURE',
      'CURRENT_PROGRAM',
      'VERTEX_ARRAY_BINDING',
      'ARRAY_BUFFER_BINDING',
      'COPY_READ_BUFFER_BINDING',
      'COPY_WRITE_BUFFER_BINDING',
    ])
      s[name] = gl.getParameter(gl[name]);
    s.SCISSOR_TEST = gl.isEnabled(gl.SCISSOR_TEST);
    s.CULL_FACE = gl.isEnabled(gl.CULL_FACE);
    s.RASTERIZER_DISCARD = gl.isEnabled(gl.RASTERIZER_DISCARD);
    const active = gl.getParameter(gl.ACTIVE_TEXTURE);
    for (let i = 0; i < 3; i++) {
      gl.activeTexture(gl.TEXTURE0 + units - 3 + i);
      s[`TEXTURE_BINDING_2D@${units - 3 + i}`] = gl.getParameter(gl.TEXTURE_BINDING_2D);
      s[`SAMPLER_BINDING@${units - 3 + i}`] = gl.getParameter(gl.SAMPLER_BINDING);
    }
    gl.activeTexture(active);
    return s;
  };
  const same = (a, b) =>
    a === b ||
    (ArrayBuffer.isView(a) && ArrayBuffer.isView(b) && a.length === b.length && a.every((x, i) => x === b[i])) ||
    (Array.isArray(a) && Array.isArray(b) && a.every((x, i) => x === b[i]));
  const around = (what, call) => {
    apply();
    const before = snapshot();
    call();
    const after = snapshot();
    for (const k of Object.keys(before))
      assert(same(before[k], after[k]), `${what}: ${k} changed from ${before[k]} to ${after[k]}`);
    assert(gl.getError() === gl.NO_ERROR, `${what}: a WebGL error`);
  };
  const in36 = [vec(0), vec(1, 3), vec(2, 2)];
  const state36 = `#version 300 es
precision highp float;
in vec4 p;
in vec3 q;
in vec2 r;
out vec4 out_p;
out vec3 out_q;
out vec2 out_r;
void main() { out_p = p * 2.0; out_q = q + vec3(1.0); out_r = r - vec2(0.5); }`;
  const data = pseudoRandom(n * 9, -1, 1, 3);
  let program, a, pipeline;
  around('createProgram', () => {
    program = xfb.createProgram({ source: state36 });
  });
  around('createBuffer', () => {
    a = xfb.createBuffer({ format: in36, count: n, data });
  });
  around('createPipeline (fragment)', () => {
    pipeline = xfb.createPipeline(program, [{ input: a, output: xfb.createBuffer({ format: in36, count: n }) }], {
      backend: 'fragment',
    });
  });
  for (let s = 0; s < 3; s++) around('step', () => pipeline.step());
  around('step(4)', () => pipeline.step(4));
  around('setBackend(tf)', () => pipeline.setBackend('tf'));
  around('step (tf)', () => pipeline.step());
  around('setBackend(fragment)', () => pipeline.setBackend('fragment'));
  around('steps([pipeline])', () => xfb.steps([pipeline]));
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  const ref = Float32Array.from(data);
  for (let s = 0; s < 9; s++)
    for (let e = 0; e < n; e++) {
      const v = ref.subarray(e * 9, e * 9 + 9);
      for (let k = 0; k < 4; k++) v[k] = Math.fround(v[k] * 2);
      for (let k = 4; k < 7; k++) v[k] = Math.fround(v[k] + 1);
      for (let k = 7; k < 9; k++) v[k] = Math.fround(v[k] - 0.5);
    }
  assertArrayEqual(await a.read(), ref, '9 steps on fragment and tf');
  // Leave the page's state as the other cases expect it.
  gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  gl.disable(gl.SCISSOR_TEST);
  gl.disable(gl.CULL_FACE);
  gl.colorMask(true, true, true, true);
  for (const [k, v] of [
    ['UNPACK_FLIP_Y_WEBGL', false],
    ['UNPACK_PREMULTIPLY_ALPHA_WEBGL', false],
    ['UNPACK_ROW_LENGTH', 0],
    ['UNPACK_ALIGNMENT', 4],
    ['PACK_ROW_LENGTH', 0],
    ['PACK_SKIP_PIXELS', 0],
    ['PACK_ALIGNMENT', 4],
  ])
    gl.pixelStorei(gl[k], v);
  for (let i = 0; i < 3; i++) gl.bindSampler(units - 3 + i, null);
  gl.activeTexture(gl.TEXTURE0);
});

test('transcendental functions (the trails demo: sin and cos of a uniform time, floor, fract, gl_VertexID % a uniform): fragment == tf byte for byte', async () => {
  const source = `#version 300 es
precision highp float;
in vec4 slot;
uniform int history;
uniform int head;
uniform float time;
out vec4 out_slot;
vec3 emitter(float phase, float t) {
    float a = 1.0 + floor(phase * 3.0), b = 2.0 + floor(fract(phase * 7.0) * 3.0);
    return vec3(sin(a * t + phase * 6.28), 0.7 * sin(b * t + phase * 3.1), cos((a + 1.0) * t * 0.5 + phase * 9.0)) * (0.8 + 0.6 * phase);
}
void main() {
    if (gl_VertexID % history == head) out_slot = vec4(emitter(slot.w, time * 0.8), slot.w);
    else out_slot = slot;
}`;
  const n = 512 * 96;
  const data = pseudoRandom(n * 4, 0, 1, 17);
  await fragmentEqualsTf(source, 'interleaved', [{ input: [vec(0)], output: [vec(0)], data }], n, (p, s) => {
    p.setUniform('history', 96);
    p.setUniform('head', s % 96);
    p.setUniform('time', 0.37 + s / 60);
  }, { steps: 4 });
});
