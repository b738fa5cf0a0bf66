// Declared capture layouts (issue 26) on both browser runtimes, WebGL2 (transform feedback) and
// WebGPU (compute): output buffers start as a sentinel word everywhere; after the steps every field
// word equals a float32 (int32) reference computed here, every gap and padding word still holds the
// sentinel, and WebGL2 and WebGPU give the same bytes. A case a runtime cannot run yet is listed in
// KNOWN_FAILURES with what it does today and why; a listed case that passes fails the run (delete
// its entry then), as the misuse table's KNOWN_DRIFT does.
import { assert, createXfb } from './assert.js';

const SENTINEL = 0xdeadbeef;
const N = 37; // elements: not a multiple of anything the runtimes group by
const f = Math.fround;

const canvas = document.getElementById('canvas');
const webgl2 = await createXfb({ canvas });
const adapter = await navigator.gpu?.requestAdapter();
const webgpu = adapter ? await createXfb({ device: await adapter.requestDevice() }) : null;
const RUNTIMES = { webgl2, webgpu };

/** Cases a runtime fails today: { case, runtime, code (what it refuses with; 'bytes' for wrong bytes),
 *  today (what it does), why }. A listed case failing otherwise, or passing, fails. Only shrinks. */
export const KNOWN_FAILURES = [];

// The inputs every case reads: position (vec4) and normal (vec3) of element e.
const input = (e) => ({ position: [e + 0.25, -e, 2 * e + 0.5, 1 - e], normal: [0.125 * e, 3, -e - 0.75] });
const bits = new DataView(new ArrayBuffer(4));
const floatBits = (x) => (bits.setFloat32(0, x, true), bits.getUint32(0, true));
const intBits = (x) => (bits.setInt32(0, x, true), bits.getUint32(0, true));

const HEADER = '#version 300 es\nprecision highp float;\n';
/** One operation per component (no contraction can change a rounding): the reference is exact. */
const BODY = `void main() {
  out_position = position * 2.0;
  out_normal = normal + vec3(1.0);
  out_texCoord0 = position.xy + vec2(0.5);
  out_color = position.wzyx - vec4(4.0);
  out_r[0] = position; out_r[1] = position * 0.5; out_r[2] = position + vec4(8.0);
  out_id = gl_VertexID * 3;
}`;
const OUTPUTS = (qualifiers = {}) => ['vec4 out_position', 'vec3 out_normal', 'vec2 out_texCoord0', 'vec4 out_color', 'vec4 out_r[3]', 'int out_id']
  .map((d) => { const name = d.split(' ')[1].replace('[3]', ''); return `${qualifiers[name] ?? ''}${name === 'out_id' ? 'flat ' : ''}out ${d};`; }).join('\n');
const SOURCE = `${HEADER}in vec4 position;\nin vec3 normal;\n${OUTPUTS()}\n${BODY}`;
/** What the shader writes for element e: each output's components, flattened. */
function outputsOf(e) {
  const { position: p, normal: n } = input(e);
  return {
    out_position: p.map((x) => f(x * 2)), out_normal: n.map((x) => f(x + 1)), out_texCoord0: [f(p[0] + 0.5), f(p[1] + 0.5)],
    out_color: [p[3], p[2], p[1], p[0]].map((x) => f(x - 4)),
    'out_r[0]': p.map(f), 'out_r[1]': p.map((x) => f(x * 0.5)), 'out_r[2]': p.map((x) => f(x + 8)), out_id: [e * 3],
  };
}
const INPUT_FORMAT = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }];
function inputData() {
  const data = new Float32Array(N * 7);
  for (let e = 0; e < N; e++) data.set([...input(e).position, ...input(e).normal], e * 7);
  return data;
}

// A write-only case: the program's options, per output buffer its description (the fields as
// attributes at their declared offsets, the declared stride) and the words each field must hold:
// [word offset, varying, first component, count]; every other word keeps the sentinel.
const float = (semantic, components, offset) => ({ semantic, components, offset });
const CASES = [
  { name: 'partial capture: POSITION.xyz of a vec4 (12-byte records)',
    options: { declaration: [{ semantic: 'POSITION', components: [0, 3] }] },
    buffers: [{ format: [float('ATTR0', 3, 0)], fields: [[0, 'out_position', 0, 3]] }] },
  { name: 'a component range: components 2-3 of a vec4, after a whole vec3',
    options: { declaration: [{ varying: 'out_normal' }, { varying: 'out_color', components: [2, 2] }] },
    buffers: [{ format: [float('ATTR0', 3, 0), float('ATTR1', 2, 12)], fields: [[0, 'out_normal', 0, 3], [3, 'out_color', 2, 2]] }] },
  { name: 'an element of an array output: out_r[1] whole, components 1-2 of out_r[2]',
    options: { declaration: [{ varying: 'out_r[1]' }, { varying: 'out_r[2]', components: [1, 2] }] },
    buffers: [{ format: [float('ATTR0', 4, 0), float('ATTR1', 2, 16)], fields: [[0, 'out_r[1]', 0, 4], [4, 'out_r[2]', 1, 2]] }] },
  { name: 'a gap and stride 40: POSITION, { skip: 1 }, NORMAL, TEXCOORD0 from byte 32 (declaration)',
    options: { declaration: [{ semantic: 'POSITION' }, { skip: 1 }, { semantic: 'NORMAL' }, { semantic: 'TEXCOORD', semanticIndex: 0 }], strides: [40] },
    buffers: [{ format: [float('ATTR0', 4, 0), float('ATTR1', 3, 20), float('ATTR2', 2, 32)], stride: 40,
      fields: [[0, 'out_position', 0, 4], [5, 'out_normal', 0, 3], [8, 'out_texCoord0', 0, 2]] }] },
  { name: 'padding past the last field: a vec3 in a 24-byte record (strides [24])',
    options: { declaration: [{ varying: 'out_normal' }], strides: [24] },
    buffers: [{ format: [float('ATTR0', 3, 0)], stride: 24, fields: [[0, 'out_normal', 0, 3]] }] },
  { name: 'two buffers by gl_NextBuffer: out_position | out_texCoord0 + out_id (int)',
    options: { varyings: ['out_position', 'gl_NextBuffer', 'out_texCoord0', 'out_id'] },
    buffers: [{ format: [float('ATTR0', 4, 0)], fields: [[0, 'out_position', 0, 4]] },
      { format: [float('ATTR1', 2, 0), { semantic: 'ATTR2', type: 'int32', components: 1, offset: 8 }], fields: [[0, 'out_texCoord0', 0, 2], [2, 'out_id', 0, 1]] }] },
  { name: 'the padded two-buffer layout by xfb_* qualifiers (gaps, gl_SkipComponents-free source)',
    source: `${HEADER}layout(xfb_buffer = 0, xfb_stride = 40) out;\nin vec4 position;\nin vec3 normal;\n${OUTPUTS({
      out_position: 'layout(xfb_offset = 0) ', out_normal: 'layout(xfb_offset = 20) ', out_texCoord0: 'layout(xfb_buffer = 1, xfb_offset = 0) ', out_id: 'layout(xfb_buffer = 1, xfb_offset = 12) ' })}\n${BODY}`,
    options: {},
    buffers: [{ format: [float('ATTR0', 4, 0), float('ATTR1', 3, 20)], stride: 40, fields: [[0, 'out_position', 0, 4], [5, 'out_normal', 0, 3]] },
      { format: [float('ATTR2', 2, 0), { semantic: 'ATTR3', type: 'int32', components: 1, offset: 12 }], fields: [[0, 'out_texCoord0', 0, 2], [3, 'out_id', 0, 1]] }] },
];

/** The words buffer `b` of a case must hold: the reference in field words, the sentinel elsewhere. */
function expectedWords(buffer, stride) {
  const words = new Uint32Array(N * stride / 4).fill(SENTINEL);
  for (let e = 0; e < N; e++) {
    const values = outputsOf(e);
    for (const [at, varying, first, count] of buffer.fields)
      for (let k = 0; k < count; k++) {
        const v = values[varying][first + k];
        words[e * stride / 4 + at + k] = varying === 'out_id' ? intBits(v) : floatBits(v);
      }
  }
  return words;
}

const wordsOf = (contents) => new Uint32Array(contents.buffer, contents.byteOffset, contents.byteLength / 4);
const hex = (w) => `0x${w.toString(16).padStart(8, '0')}`;

/** The first word of `got` that differs from `want`, described; null when all agree. */
function firstDifference(got, want, stride, buffer) {
  if (got.length !== want.length) return `${got.length} words, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    if (got[i] === want[i]) continue;
    const e = Math.floor(i / (stride / 4)), w = i % (stride / 4);
    const field = buffer.fields.find(([at, , , count]) => w >= at && w < at + count);
    return `element ${e} word ${w} (${field ? `${field[1]} component ${field[2] + w - field[0]}` : 'a gap word'}): ${hex(got[i])}, expected ${hex(want[i])}`;
  }
  return null;
}

/** Runs one case on one runtime: the words of each output buffer, or the XfbError it refused with. */
async function run(xfb, c, plan) {
  const made = [];
  try {
    const inputs = xfb.createBuffer({ format: INPUT_FORMAT, count: N, data: inputData() });
    made.push(inputs);
    const program = xfb.createProgram({ source: c.source ?? SOURCE, ...c.options, label: c.name });
    made.push(program);
    const outputs = c.buffers.map((b, i) => {
      const out = xfb.createBuffer({ format: b.format, ...(b.stride ? { stride: b.stride } : {}), count: N,
        data: new Uint32Array(N * plan.buffers[i].stride / 4).fill(SENTINEL).buffer });
      made.push(out);
      return out;
    });
    const pipeline = xfb.createPipeline(program, [{ input: inputs }, ...outputs.map((output) => ({ output }))]);
    made.push(pipeline);
    pipeline.step();
    return { words: await Promise.all(outputs.map(async (o) => wordsOf(await o.read()))), strides: outputs.map((o) => o.layout.stride) };
  } catch (e) {
    return { error: e };
  } finally {
    for (const o of made.reverse()) o.dispose();
  }
}

/** A case's outcome on a runtime: null when right, else what is wrong (for the report and KNOWN_FAILURES). */
function judge(c, result, plan) {
  if (result.error) return `${result.error.code ?? result.error.name}: ${result.error.detail ?? result.error.message}`;
  for (const [b, buffer] of c.buffers.entries()) {
    const stride = plan.buffers[b].stride;
    if (result.strides[b] !== stride) return `buffer ${b}: layout.stride ${result.strides[b]}, the plan's ${stride}`;
    const wrong = firstDifference(result.words[b], expectedWords(buffer, stride), stride, buffer);
    if (wrong) return `buffer ${b}: ${wrong}`;
  }
  return null;
}

/** Counts, per runtime and case, what passed, what was known to fail, and what failed. */
function settle(c, runtime, wrong, note) {
  const known = KNOWN_FAILURES.find((k) => k.case === c.name && k.runtime === runtime);
  if (known) {
    assert(wrong !== null, `${runtime}: '${c.name}' passes now: delete its KNOWN_FAILURES entry (${known.why})`);
    assert(known.code === 'bytes' ? !/^[A-Z_]+:/.test(wrong) : wrong.startsWith(`${known.code}:`), `${runtime}: fails otherwise than KNOWN_FAILURES says (${known.today}): ${wrong}`);
    note(`KNOWN ${runtime}: ${wrong} (${known.why})`);
    return false;
  }
  assert(wrong === null, `${runtime}: ${wrong}`);
  return true;
}

// A simulation with a declared layout: a state pair of 40-byte records (position at 0, a gap
// word, normal at 20, padding 32..39) stepped 3 times; both buffers of the pair keep their gaps.
const STATE_SOURCE = `${HEADER}in vec4 position;
in vec3 normal;
out vec4 out_position;
out vec3 out_normal;
void main() { out_position = position + vec4(1.0, -2.0, 0.5, 4.0); out_normal = normal * 2.0; }`;
const STATE = { declaration: [{ varying: 'out_position' }, { skip: 1 }, { varying: 'out_normal' }], strides: [40] };
const STATE_FORMAT = { format: [float('ATTR0', 4, 0), float('ATTR1', 3, 20)], stride: 40 };
function stateWords(steps) {
  const words = new Uint32Array(N * 10).fill(SENTINEL);
  for (let e = 0; e < N; e++) {
    let { position: p, normal: n } = input(e);
    p = p.map(f); n = n.map(f);
    for (let s = 0; s < steps; s++) { p = p.map((x, i) => f(x + [1, -2, 0.5, 4][i])); n = n.map((x) => f(x * 2)); }
    p.forEach((x, i) => { words[e * 10 + i] = floatBits(x); });
    n.forEach((x, i) => { words[e * 10 + 5 + i] = floatBits(x); });
  }
  return words;
}
const STATE_CASE = { name: 'a simulation: a state pair of padded 40-byte records, 3 steps', buffers: [{ fields: [[0, 'out_position', 0, 4], [5, 'out_normal', 0, 3]] }] };

test('the table: every KNOWN_FAILURES entry names a case and a runtime and says why', () => {
  const all = [...CASES, STATE_CASE, ...CAPTURES];
  const names = new Set(all.map((c) => c.name));
  assert(names.size === all.length, 'case names are unique');
  for (const k of KNOWN_FAILURES)
    assert(names.has(k.case) && (k.runtime === 'webgl2' || k.runtime === 'webgpu') && k.code && k.today && k.why, `KNOWN_FAILURES entry ${JSON.stringify(k)}`);
  assert(RUNTIMES.webgpu, 'navigator.gpu.requestAdapter() gave no adapter: is --enable-unsafe-webgpu set?');
});

for (const c of CASES)
  test(c.name, async ({ note }) => {
    const plan = webgl2.inspect(c.source ?? SOURCE, c.options);
    assert(plan.declared && plan.buffers.length === c.buffers.length, `the plan: declared ${plan.declared}, ${plan.buffers.length} buffers`);
    const results = {};
    for (const [runtime, xfb] of Object.entries(RUNTIMES)) {
      const result = await run(xfb, c, plan);
      if (settle(c, runtime, judge(c, result, plan), note)) results[runtime] = result;
    }
    if (results.webgl2 && results.webgpu)
      for (const b of c.buffers.keys())
        assert(results.webgl2.words[b].every((w, i) => w === results.webgpu.words[b][i]), `buffer ${b}: WebGL2 and WebGPU bytes differ`);
    note(`strides ${plan.buffers.map((b) => b.stride).join(', ')}; ${N} elements`);
  });


test(STATE_CASE.name, async ({ note }) => {
  const results = {};
  for (const [runtime, xfb] of Object.entries(RUNTIMES)) {
    const made = [];
    let wrong = null, words = null;
    try {
      const a = xfb.createBuffer({ ...STATE_FORMAT, count: N, data: stateWords(0).buffer });
      const b = xfb.createBuffer({ ...STATE_FORMAT, count: N, data: new Uint32Array(N * 10).fill(SENTINEL).buffer });
      const program = xfb.createProgram({ source: STATE_SOURCE, ...STATE, label: 'padded state' });
      const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
      made.push(pipeline, program, a, b);
      for (let s = 0; s < 3; s++) pipeline.step();
      if (runtime === 'webgl2') note(`WebGL2 step path: ${JSON.stringify(pipeline.stepPath)}`);
      // After 3 swaps `a` names the latest state (3 steps), `b` the one before (2 steps).
      words = [wordsOf(await a.read()), wordsOf(await b.read())];
      for (const [k, steps, which] of [[0, 3, 'the latest state'], [1, 2, 'the state before']]) {
        const differs = firstDifference(words[k], stateWords(steps), 40, STATE_CASE.buffers[0]);
        wrong ??= differs && `${which} (${steps} steps): ${differs}`;
      }
    } catch (e) {
      wrong = `${e.code ?? e.name}: ${e.detail ?? e.message}`;
    } finally {
      for (const o of made) o.dispose();
    }
    if (settle(STATE_CASE, runtime, wrong, note)) results[runtime] = words;
  }
  if (results.webgl2 && results.webgpu)
    for (const k of [0, 1]) assert(results.webgl2[k].every((w, i) => w === results.webgpu[k][i]), `buffer ${k}: WebGL2 and WebGPU bytes differ`);
});

test('createBuffer({ stride }): the layout keeps it; a stride that does not fit the format is refused on both runtimes', async () => {
  for (const [runtime, xfb] of Object.entries(RUNTIMES)) {
    const b = xfb.createBuffer({ format: [float('ATTR0', 4, 0), float('ATTR1', 3, 20)], stride: 40, count: 2 });
    assert(b.layout.stride === 40 && b.byteLength === 80, `${runtime}: stride ${b.layout.stride}, ${b.byteLength} bytes`);
    assert(b.layout.attributes[1].offset === 20, `${runtime}: offsets kept`);
    b.dispose();
    for (const [stride, code, words] of [[30, 'XFB_FORMAT_INVALID', 'multiple of 4'], [28, 'XFB_FORMAT_INVALID', 'beyond the stride 28'],
      [0, 'XFB_INVALID_ARGUMENT', 'stride must be a positive integer'], ['40', 'XFB_INVALID_ARGUMENT', 'not a number']]) {
      let error = null;
      try { xfb.createBuffer({ format: [float('ATTR0', 4, 0), float('ATTR1', 3, 20)], stride, count: 2 }); } catch (e) { error = e; }
      assert(error?.code === code && error.message.includes(words), `${runtime}: stride ${stride}: ${error?.code}: ${error?.message}`);
    }
  }
});

// [docs:declared-layout]
const source = `#version 300 es
in vec4 position;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_texCoord0;
void main() { out_position = position; out_normal = position.xyz * 2.0; out_texCoord0 = position.xy; }`;
const declaration = [                                    // D3D11_SO_DECLARATION_ENTRY, stream 0:
  { semantic: 'POSITION' },                              // SemanticName; all 4 components: bytes 0..15
  { skip: 1 },                                           // a NULL SemanticName: bytes 16..19 never written
  { semantic: 'NORMAL', components: [0, 3] },            // StartComponent 0, ComponentCount 3: bytes 20..31
  { semantic: 'TEXCOORD', semanticIndex: 0, buffer: 1 }, // SemanticIndex 0, OutputSlot 1: out_texCoord0
];

function paddedRecords(xfb, positions, count, initial) {
  const program = xfb.createProgram({ source, declaration, strides: [40] }); // buffer 0: 40 bytes, 32..39 padding
  const records = xfb.createBuffer({                     // the declared offsets and stride (program.plan.buffers[0])
    format: [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3, offset: 20 }],
    stride: 40, count, data: initial });
  const uvs = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count });
  const pipeline = xfb.createPipeline(program, [{ input: positions }, { output: records }, { output: uvs }]);
  pipeline.step();                                       // writes bytes 0..15 and 20..31 of each record, nothing else
  return { program, records, uvs, pipeline };
}
// [docs:end]

test("the guide's example (docs/guide/javascript.md): a padded record and a second buffer, on both runtimes", async () => {
  for (const [runtime, xfb] of Object.entries(RUNTIMES)) {
    const count = 3;
    const positions = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count, data: Float32Array.from({ length: 12 }, (_, i) => i + 1) });
    const initial = new Uint32Array(count * 10).fill(SENTINEL).buffer; // what the gaps keep
    const { program, records, uvs, pipeline } = paddedRecords(xfb, positions, count, initial);
    const words = wordsOf(await records.read()), uv = await uvs.read();
    for (let e = 0; e < count; e++) {
      const p = [1, 2, 3, 4].map((x) => x + 4 * e);
      const want = [...p.map(floatBits), SENTINEL, ...p.slice(0, 3).map((x) => floatBits(2 * x)), SENTINEL, SENTINEL];
      assert(want.every((w, i) => words[e * 10 + i] === w), `${runtime}: record ${e}: ${[...words.subarray(e * 10, e * 10 + 10)].map(hex).join(' ')}`);
      assert(uv[2 * e] === p[0] && uv[2 * e + 1] === p[1], `${runtime}: texCoord ${e}: ${uv[2 * e]}, ${uv[2 * e + 1]}`);
    }
    assert(program.plan.declared && program.plan.buffers[0].stride === 40 && records.layout.stride === 40, `${runtime}: the plan and the layout`);
    for (const o of [pipeline, program, positions, records, uvs]) o.dispose();
  }
});

// Primitive capture on both runtimes (WebGPU: compute passes over the planned source list): the
// captured records take the declared layout, gaps keep their sentinels, and both give the same words.
const CAPTURES = [
  { name: 'primitive capture: POSITION.xyz of 6 triangle vertices (a tight declared layout)', options: CASES[0].options, buffer: CASES[0].buffers[0] },
  { name: 'primitive capture: the padded 40-byte record of 6 triangle vertices', options: CASES[3].options, buffer: CASES[3].buffers[0] },
  { name: 'primitive capture: the padded 40-byte record of a 5-vertex strip (9 records)', options: CASES[3].options, buffer: CASES[3].buffers[0], strip: true },
];
for (const c of CAPTURES)
  test(c.name, async ({ note }) => {
    const plan = webgl2.inspect(SOURCE, c.options), stride = plan.buffers[0].stride;
    // The source vertex of each record: a list's own, a strip's as the GL decomposes it.
    const sources = c.strip ? [0, 1, 2, 2, 1, 3, 2, 3, 4] : [0, 1, 2, 3, 4, 5];
    const all = expectedWords(c.buffer, stride), words = stride / 4;
    const want = new Uint32Array(sources.length * words);
    sources.forEach((v, r) => want.set(all.subarray(v * words, (v + 1) * words), r * words));
    const got = {};
    for (const [runtime, xfb] of Object.entries(RUNTIMES)) {
      const made = [];
      let wrong = null;
      try {
        const inputs = xfb.createBuffer({ format: INPUT_FORMAT, count: 6, data: inputData().subarray(0, 6 * 7) });
        const program = xfb.createProgram({ source: SOURCE, ...c.options, label: c.name });
        const out = xfb.createBuffer({ format: c.buffer.format, ...(c.buffer.stride ? { stride: c.buffer.stride } : {}), count: sources.length,
          data: new Uint32Array(sources.length * words).fill(SENTINEL).buffer });
        made.push(inputs, program, out);
        const capture = xfb.createCapture(program, [{ input: inputs }, { output: out }]);
        made.unshift(capture);
        const count = capture.capture(c.strip ? { mode: 'triangle_strip', count: 5 } : { mode: 'triangles', count: 6 });
        assert(count.records === sources.length && count.bytes[0] === sources.length * stride, `${runtime} captured ${JSON.stringify(count)}`);
        got[runtime] = wordsOf(await out.read());
        wrong = firstDifference(got[runtime], want, stride, c.buffer);
      } catch (e) {
        wrong = `${e.code ?? e.name}: ${e.detail ?? e.message}`;
      } finally {
        for (const o of made) o.dispose();
      }
      settle(c, runtime, wrong, note);
    }
    if (got.webgl2 && got.webgpu) assert(got.webgl2.every((w, i) => w === got.webgpu[i]), 'WebGL2 and WebGPU bytes differ');
  });
