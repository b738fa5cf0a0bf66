// Property test of the WebGL2 API: random sequences of calls (create buffer/program/pipeline/capture,
// step, stepChecked, read, setUniform with good and bad values, dispose, loseContext/restoreContext)
// from a seeded generator. Whatever the sequence: every failure is an XfbError with a listed code,
// no WebGL error is left on the context, no step is counted that did not run, and after dispose()
// no WebGL object of this context is left (every create* matched by a delete*, or dead with a lost
// context). A failure names the seed and the operation, so it replays.
import { assert, createXfb, nextEvent, XfbError } from './assert.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const OPERATIONS = 300;
// Chromium stops restoring a canvas's context after a few WEBGL_lose_context losses (here the sixth
// restoreContext() gave no event), so each seed loses its context at most this often.
const MAX_LOSSES = 4;
// Codes a random sequence may provoke; anything else (XFB_INTERNAL, XFB_GL_ERROR...) is a defect.
const EXPECTED_CODES = new Set(['XFB_INVALID_ARGUMENT', 'XFB_BUFFER_TOO_LARGE', 'XFB_DISPOSED', 'XFB_CONTEXT_LOST', 'XFB_UNIFORM_TYPE',
  'XFB_UNKNOWN_UNIFORM', 'XFB_SHADER_COMPILE', 'XFB_SHADER_SYNTAX', 'XFB_OUTPUT_COUNT_MISMATCH', 'XFB_SEMANTIC_MISSING', 'XFB_SEMANTIC_UNUSED',
  'XFB_SEMANTIC_DUPLICATE', 'XFB_SEMANTIC_TYPE_MISMATCH', 'XFB_STATE_FORMAT_MISMATCH', 'XFB_OUTPUT_LAYOUT_MISMATCH', 'XFB_COUNT_MISMATCH',
  'XFB_CAPACITY', 'XFB_ROLE_EMPTY', 'XFB_FORMAT_INVALID', 'XFB_SHORT_WRITE']);

const SOURCES = [
  '#version 300 es\nin vec4 p;\nuniform float k;\nuniform int n;\nout vec4 out_p;\nvoid main() { out_p = p * k + vec4(float(n)); }',
  '#version 300 es\nin vec4 position;\nin vec4 velocity;\nuniform float dt;\nout vec4 out_position;\nout vec4 out_velocity;\n' +
    'void main() { out_velocity = velocity * dt; out_position = position + out_velocity; }',
  '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * undeclared; }', // does not compile
];
const MODES = ['interleaved', 'separate', 'interleaved'];
const FORMATS = [
  [{ semantic: 'ATTR0', components: 4 }], [{ semantic: 'ATTR1', components: 4 }], [{ semantic: 'ATTR0', components: 2 }],
  [{ semantic: 'ATTR0', type: 'toString' }], [{ semantic: 'ATTR0', components: 4, extra: 1 }],
];
// 2^28 and 2^40 elements are over 2^31-1 bytes at every stride here. (Sizes under the limit but over
// the GPU's memory, such as 1 GiB on SwiftShader, make Chromium lose the context some time later.)
const COUNTS = [1, 4, 16, 64, 16, 0, 1.5, 2 ** 28, 2 ** 40];
const UNIFORM_VALUES = [1, 0.5, -3, 2.5, 2 ** 40, NaN, 'x', [1, 2], -(2 ** 31), 2 ** 31];
const TRACKED = ['Buffer', 'VertexArray', 'TransformFeedback', 'Query', 'Program', 'Shader', 'Texture', 'Framebuffer', 'Sampler'];

/** The WebGL objects alive on `gl`: create* adds, delete* removes, a context loss kills them all. */
function trackObjects(gl) {
  const live = new Set();
  const counts = { created: 0, deleted: 0 };
  const wrap = (name, f) => { const original = gl[name].bind(gl); gl[name] = (...args) => f(original, ...args); };
  for (const kind of TRACKED) {
    wrap(`create${kind}`, (original, ...args) => { const o = original(...args); if (o) { live.add(o); counts.created++; } return o; });
    wrap(`delete${kind}`, (original, o) => { if (live.delete(o)) counts.deleted++; return original(o); });
  }
  wrap('fenceSync', (original, ...args) => { const o = original(...args); if (o) { live.add(o); counts.created++; } return o; });
  wrap('deleteSync', (original, o) => { if (live.delete(o)) counts.deleted++; return original(o); });
  gl.canvas.addEventListener('webglcontextlost', () => live.clear());
  return { live, counts };
}

function generator(seed) {
  let s = seed >>> 0;
  const next = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  return { next, int: (n) => Math.floor(next() * n), pick: (list) => list[Math.floor(next() * list.length)] };
}

async function run(seed, note) {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const tracker = trackObjects(gl);
  const ext = gl.getExtension('WEBGL_lose_context');
  const xfb = await createXfb({ gl });
  const r = generator(seed);
  const buffers = [], programs = [], pipelines = [], captures = [];
  const steps = new Map(); // pipeline -> steps that ran
  const checking = new Set(); // pipelines with a stepChecked() in flight
  const inFlight = [];
  const codes = new Map(), done = new Map(); // refusals by code, operations that returned by kind
  let op = '', defect = null;
  const record = (e, what) => {
    if (!(e instanceof XfbError)) defect ??= new Error(`seed ${seed}, ${what}: not an XfbError: ${e && e.stack ? e.stack : e}`);
    else if (!EXPECTED_CODES.has(e.code)) defect ??= new Error(`seed ${seed}, ${what}: unexpected ${e.message}`);
    else codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
  };
  const some = (list) => (list.length ? list[r.int(list.length)] : undefined);
  const entryBuffers = () => {
    const n = 1 + r.int(3), entries = [];
    for (let i = 0; i < n; i++) {
      const e = {};
      if (r.next() < 0.8) e.input = some(buffers);
      if (r.next() < 0.8) e.output = some(buffers);
      entries.push(e);
    }
    return entries;
  };
  const lost = () => xfb.isContextLost;
  let losses = 0;
  const operations = [
    [6, 'createBuffer', () => {
      const format = r.pick(FORMATS), count = r.pick(COUNTS);
      const data = r.next() < 0.5 && Number.isInteger(count) && count < 100 ? new Float32Array(count * 4).map((_, i) => i) : undefined;
      buffers.push(xfb.createBuffer({ format, count, data }));
    }],
    [3, 'createProgram', () => { const i = r.int(SOURCES.length); programs.push(xfb.createProgram({ source: SOURCES[i], mode: MODES[i] })); }],
    [5, 'createPipeline', () => { const p = xfb.createPipeline(some(programs), entryBuffers()); pipelines.push(p); steps.set(p, 0); }],
    [2, 'createCapture', () => captures.push(xfb.createCapture(some(programs), entryBuffers()))],
    // Well-formed objects too, so steps, reads and captures also run on the successful paths.
    [3, 'createPipeline (well-formed)', () => {
      const n = r.pick([1, 16, 64]);
      const made = [xfb.createBuffer({ format: FORMATS[0], count: n, data: new Float32Array(4 * n).fill(1) }), xfb.createBuffer({ format: FORMATS[0], count: n }),
        xfb.createProgram({ source: SOURCES[0] })];
      buffers.push(made[0], made[1]);
      programs.push(made[2]);
      const p = r.next() < 0.5 ? xfb.createPipeline(made[2], [{ input: made[0], output: made[1] }], { queries: r.next() < 0.5 })
        : xfb.createCapture(made[2], [{ input: made[0] }, { output: made[1] }]);
      if (p.step) { pipelines.push(p); steps.set(p, 0); } else captures.push(p);
    }],
    [10, 'step', () => { const p = some(pipelines); if (!p) return; p.step(); steps.set(p, steps.get(p) + 1); }],
    [3, 'stepChecked', async () => {
      const p = some(pipelines);
      if (!p) return;
      const done = p.stepChecked();
      checking.add(p);
      const settle = done.then(() => steps.set(p, steps.get(p) + 1)).finally(() => checking.delete(p));
      if (r.next() < 0.5) await settle;
      else inFlight.push(settle.catch((e) => record(e, 'stepChecked (in flight)')));
    }],
    [5, 'read', async () => {
      const b = some(buffers);
      if (!b) return;
      const done = b.read();
      if (r.next() < 0.5) await done;
      else inFlight.push(done.catch((e) => record(e, 'read (in flight)')));
    }],
    [5, 'setUniform', () => some(programs)?.setUniform(r.pick(['k', 'n', 'dt', 'missing', 'toString']), r.pick(UNIFORM_VALUES))],
    [3, 'capture', () => some(captures)?.capture({ mode: r.pick(['points', 'lines', 'triangles', 'triangle_strip']), count: r.int(12) })],
    [5, 'dispose', () => {
      const list = r.pick([buffers, programs, pipelines, captures]);
      if (list.length) list.splice(r.int(list.length), 1)[0].dispose();
    }],
    [1, 'loseContext', async () => {
      if (lost() || losses >= MAX_LOSSES) return;
      losses++;
      const event = nextEvent(xfb, 'contextlost');
      ext.loseContext();
      await event;
    }],
    [2, 'restoreContext', async () => {
      if (!lost()) return;
      const event = nextEvent(xfb, 'contextrestored');
      ext.restoreContext();
      await event;
    }],
  ];
  const total = operations.reduce((sum, [w]) => sum + w, 0);
  for (let i = 0; i < OPERATIONS && !defect; i++) {
    let x = r.int(total), chosen;
    for (chosen of operations) if ((x -= chosen[0]) < 0) break;
    op = `operation ${i} (${chosen[1]})`;
    try {
      await chosen[2]();
      done.set(chosen[1], (done.get(chosen[1]) ?? 0) + 1);
    } catch (e) {
      record(e, op);
    }
    if (!lost()) {
      const error = gl.getError();
      assert(error === gl.NO_ERROR, `seed ${seed}, ${op}: WebGL error 0x${error.toString(16)} left on the context`);
      for (const p of pipelines) {
        if (checking.has(p) || p.disposed) continue;
        const counted = p.info.steps;
        assert(counted === steps.get(p), `seed ${seed}, ${op}: the pipeline counts ${counted} steps, ${steps.get(p)} ran`);
      }
    }
  }
  if (lost()) { const event = nextEvent(xfb, 'contextrestored'); ext.restoreContext(); await event; }
  await Promise.all(inFlight);
  if (defect) throw defect;
  const foreign = xfb.takeForeignGlErrors();
  assert(foreign.length === 0, `seed ${seed}: GL errors raised outside xfb calls: ${JSON.stringify(foreign)}`);
  xfb.dispose();
  assert(gl.getError() === gl.NO_ERROR, `seed ${seed}: a WebGL error after dispose()`);
  assert(tracker.live.size === 0, `seed ${seed}: ${tracker.live.size} WebGL objects left after dispose(): ${[...tracker.live].map((o) => o.constructor.name).join(', ')}`);
  note(`seed ${seed}: ${OPERATIONS} operations, ${tracker.counts.created} WebGL objects created, ${tracker.counts.deleted} deleted (the rest died with a lost context); ` +
    `returned: ${JSON.stringify(Object.fromEntries(done))}; refused: ${JSON.stringify(Object.fromEntries([...codes].sort()))}`);
  const ran = [...steps.values()].reduce((a, b) => a + b, 0);
  assert(ran > 0, `seed ${seed}: no step ran`);
  return { codes, ran };
}

test(`random call sequences: ${SEEDS.length} seeds x ${OPERATIONS} operations, only XfbErrors, no WebGL error, no leak`, async ({ note }) => {
  const all = new Set();
  let ran = 0;
  for (const seed of SEEDS) {
    const result = await run(seed, note);
    for (const code of result.codes.keys()) all.add(code);
    ran += result.ran;
  }
  note(`${ran} steps ran in all`);
  // The sequences reached the interesting refusals, so the properties were tested on them.
  for (const code of ['XFB_BUFFER_TOO_LARGE', 'XFB_CONTEXT_LOST', 'XFB_UNIFORM_TYPE', 'XFB_DISPOSED', 'XFB_INVALID_ARGUMENT'])
    assert(all.has(code), `no sequence provoked ${code}`);
});
