// The misuse table (tests/web/misuse/table.mjs) on both browser runtimes in one page: every row on
// WebGL2 (createXfb({ canvas })) and on WebGPU (createXfb({ device })), each requiring an XfbError
// with the row's code, the same message on both, and nothing lost (setup.mjs says what each setup
// object must still hold). One case per peer, plus the table's own checks and the totals. A row
// in KNOWN_DRIFT that fails is reported as DRIFT; a case fails on any other failing row and on a
// listed row that now passes.
import * as exports from '/npm/index.js';
import { KNOWN_DRIFT, ROWS } from '/misuse/table.mjs';
import { freeSetup, makeLostObjects, makeSetup, SETUP_NAMES } from '/misuse/setup.mjs';
import { assert } from './assert.js';

const RUNTIMES = ['webgl2', 'webgpu'];
/** The package's exports, its default export as createXfb (what rows call as o.pkg). */
const pkg = { ...exports, createXfb: exports.default };
const XfbError = pkg.XfbError;

// --- The two engines, and what a row's setup may ask of the page ---------------------------------
const webgl = await pkg.createXfb({ canvas: document.getElementById('canvas') });
const adapter = await navigator.gpu?.requestAdapter();
const device = adapter ? await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } }) : null;
const webgpu = device ? await pkg.createXfb({ device }) : null;
const engines = { webgl2: webgl, webgpu };
let secondGl = null;
const lostEngines = {};
const envs = Object.fromEntries(RUNTIMES.map((runtime) => [runtime, {
  runtime, pkg, xfb: engines[runtime],
  engineOptions: runtime === 'webgl2' ? { gl: webgl.gl } : { device },
  createEngine: () => pkg.createXfb(runtime === 'webgl2' ? { gl: webgl.gl } : { device }),
  other: () => engines[runtime === 'webgl2' ? 'webgpu' : 'webgl2'] ?? fail('the other runtime has no engine'),
  lostEngine: () => (lostEngines[runtime] ??= loseAnEngine(runtime)),
  webgl: () => webgl.gl,
  device: () => device ?? fail('no GPUDevice: navigator.gpu.requestAdapter() gave no adapter (is --enable-unsafe-webgpu set?)'),
  secondWebgl: () => (secondGl ??= document.createElement('canvas').getContext('webgl2')),
}]));

/** An engine of its own, with objects, whose WebGL context is lost or whose device is destroyed. */
async function loseAnEngine(runtime) {
  const own = runtime === 'webgl2' ? { canvas: document.createElement('canvas') } : { device: await (await navigator.gpu.requestAdapter()).requestDevice() }; // an adapter gives one device
  const xfb = await pkg.createXfb(own);
  const objects = makeLostObjects(xfb);
  const lost = new Promise((resolve) => xfb.on('contextlost', resolve));
  if (runtime === 'webgl2') xfb.gl.getExtension('WEBGL_lose_context').loseContext();
  else own.device.destroy();
  await lost;
  return objects;
}

function fail(message) { throw new Error(message); }
/** Counts one evaluated check for the page's assert total (assert.js), returns it. */
function counted(ok) {
  globalThis.__xfbAsserts = (globalThis.__xfbAsserts ?? 0) + 1;
  return ok;
}
/** WebGPU's messages carry their call stack on further lines: one line per outcome. */
const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ');
function shown(e) {
  if (e === undefined) return 'no error: the call is accepted';
  return oneLine(e instanceof XfbError ? e.message : `throws ${e?.name ?? typeof e} (not an XfbError): ${e?.message ?? String(e)}`);
}

// --- One row on one runtime -------------------------------------------------------------------------
/** Runs setup, before and call; resolves to { error, stage, lost: [text] }. */
async function runRow(row, runtime) {
  const env = envs[runtime];
  const out = { runtime, error: undefined, stage: 'call', lost: [] };
  if (!env.xfb) return { ...out, error: new Error('no WebGPU engine: navigator.gpu.requestAdapter() gave no adapter (is --enable-unsafe-webgpu set?)'), stage: 'page' };
  device?.pushErrorScope('validation'); // on both runtimes: a row may touch the other's objects (setup 'foreign')
  let o;
  try {
    out.stage = 'setup';
    o = await makeSetup(env, row.setup);
    out.stage = 'before';
    row.before?.(o);
    out.stage = 'call';
    const result = await row.call(o);
    // Accepted by mistake and created something (not on() returning the page's engine): freed.
    if (typeof result?.dispose === 'function' && !RUNTIMES.some((r) => engines[r] === result)) result.dispose();
  } catch (e) {
    if (e && e.failedAt) { o = e.o; out.error = e.error; out.stage = `setup '${e.failedAt}'`; } else out.error = e;
  }
  // What before() began (o.pending) must still finish: the refused call must not break it.
  if (o.pending) await o.pending.catch((e) => out.lost.push(`what before() began failed: ${shown(e)}`));
  await checkNothingLost(o, out);
  for (const e of freeSetup(o)) out.lost.push(`freeing the setup threw ${shown(e)}`);
  const glError = webgl.gl.getError();
  if (glError) out.lost.push(`a WebGL error was left on the context: 0x${glError.toString(16)}`);
  if (device) {
    await device.queue.onSubmittedWorkDone();
    const error = await device.popErrorScope();
    if (error) out.lost.push(`a WebGPU validation error: ${oneLine(error.message)}`);
  }
  return out;
}

/** Every setup object the row did not dispose still holds its contents and still works. */
async function checkNothingLost(o, out) {
  const alive = (c) => c.uses.every((x) => !x.disposed) && !(c.pipeline ?? c.capture)?.disposed;
  const expect = async (c, buffer, want, after) => {
    const got = await buffer.read();
    const bad = want.findIndex((x, i) => !Object.is(got[i], x));
    if (!counted(got.length === want.length && bad < 0))
      out.lost.push(`${c.what}${after}: element ${bad} is ${got[bad]}, not ${want[bad]} (${Array.from(got.slice(0, 8))}...)`);
  };
  const guarded = async (c, f) => { try { await f(); } catch (e) { counted(false); out.lost.push(`${c.what} no longer works: ${shown(e)}`); } };
  const live = o.checks.filter(alive);
  await Promise.all(live.filter((c) => c.kind === 'buffer').map((c) => guarded(c, () => expect(c, c.buffer, c.expect, ' after the call'))));
  for (const c of live.filter((x) => x.kind === 'capture'))
    await guarded(c, async () => { c.capture.capture({ mode: 'points', count: 4 }); await expect(c, c.output, c.expect, ' after capturing 4 points'); });
  for (const c of live.filter((x) => x.kind === 'step'))
    await guarded(c, async () => { c.pipeline.step(); await expect(c, c.state, c.expect, ' after a step'); });
}

// --- A row's verdict over both runtimes ----------------------------------------------------------------
/** Problems of one row: [{ kind: 'code' | 'message' | 'lost', runtime (null: between the two), text }]. */
function problemsOf(row, results) {
  const problems = [];
  const add = (kind, runtime, text) => problems.push({ kind, runtime, text: runtime ? `${runtime}: ${text}` : text });
  for (const runtime of RUNTIMES) {
    const out = results[runtime], instead = row.notOn?.[runtime], code = instead?.code ?? row.code, e = out.error;
    for (const text of out.lost) add('lost', runtime, text);
    if (!counted(e instanceof XfbError && e.code === code)) add('code', runtime, `expected ${code}, got ${shown(e)}`);
    else if (!counted(instead || out.stage === 'call')) add('code', runtime, `${code} came from the ${out.stage}, not the call`);
    else if (!instead) for (const m of row.mentions ?? [])
      if (!counted(e.message.includes(m))) add('message', runtime, `the message does not name ${m}: ${shown(e)}`);
  }
  const [a, b] = RUNTIMES.map((r) => results[r].error);
  if (!row.notOn && a instanceof XfbError && b instanceof XfbError && !row.messageMayDiffer && !counted(a.message === b.message))
    add('message', null, `messages differ: webgl2 '${shown(a)}' / webgpu '${shown(b)}'`);
  return problems;
}
/** Whether `runtime` gives the expected code with nothing lost (its message aside). */
const runtimeRight = (problems, runtime) => !problems.some((p) => p.kind !== 'message' && p.runtime === runtime);

/** What each runtime does today (for a KNOWN_DRIFT entry): 'as expected', or its error and what it lost. */
function today(results, problems) {
  const clip = (text) => (text.length > 180 ? `${text.slice(0, 177)}...` : text);
  const messageDrift = problems.some((p) => p.kind === 'message');
  return RUNTIMES.map((r) => {
    if (runtimeRight(problems, r) && !messageDrift) return `${r}: as expected`;
    return `${r}: ${clip(shown(results[r].error))}${results[r].lost.length ? `; then ${clip(results[r].lost.join('; '))}` : ''}`;
  }).join(' | ');
}

// --- The cases --------------------------------------------------------------------------------------
const drift = new Set(KNOWN_DRIFT.map((d) => d.id));
const totals = { rows: 0, both: 0, drift: 0, unexpected: 0, fixed: 0, kinds: { code: 0, message: 0, lost: 0 }, runtime: { webgl2: 0, webgpu: 0 } };

test(`the table: ${ROWS.length} rows, ids unique, reasons given, KNOWN_DRIFT names rows`, () => {
  assert(ROWS.length >= 150, `issue 24 asks for at least 150 rows, the table has ${ROWS.length}`);
  const ids = new Set();
  for (const row of ROWS) {
    assert(typeof row.id === 'string' && !ids.has(row.id), `row id ${row.id} is unique`);
    ids.add(row.id);
    assert(typeof row.call === 'function' && /^XFB_[A-Z_]+$/.test(row.code) && typeof row.peer === 'string', `row ${row.id}: peer, call and code`);
    assert(row.messageMayDiffer === undefined || (typeof row.messageMayDiffer === 'string' && row.messageMayDiffer.length > 10), `row ${row.id}: messageMayDiffer gives a reason`);
    for (const [runtime, instead] of Object.entries(row.notOn ?? {}))
      assert(RUNTIMES.includes(runtime) && /^XFB_[A-Z_]+$/.test(instead.code) && instead.reason?.length > 10, `row ${row.id}: notOn.${runtime} gives a code and a reason`);
    for (const name of row.setup ?? []) assert(SETUP_NAMES.includes(name), `row ${row.id}: setup '${name}' is one of setup.mjs's`);
    assert((row.mentions ?? []).every((m) => typeof m === 'string' && m.length > 0), `row ${row.id}: mentions are strings`);
  }
  for (const d of KNOWN_DRIFT) assert(ids.has(d.id) && d.webgl2 && d.webgpu, `KNOWN_DRIFT ${d.id} names a row and says what each runtime does`);
  assert(drift.size === KNOWN_DRIFT.length, 'KNOWN_DRIFT lists each row once');
});

for (const peer of [...new Set(ROWS.map((r) => r.peer))]) {
  const rows = ROWS.filter((r) => r.peer === peer);
  test(`${peer}: ${rows.length} rows on webgl2 and webgpu`, async ({ note }) => {
    const failures = [];
    let passed = 0;
    for (const row of rows) {
      const results = { webgl2: await runRow(row, 'webgl2'), webgpu: await runRow(row, 'webgpu') };
      const problems = problemsOf(row, results);
      const kinds = [...new Set(problems.map((p) => p.kind))];
      totals.rows++;
      for (const r of RUNTIMES) if (runtimeRight(problems, r)) totals.runtime[r]++;
      for (const k of kinds) totals.kinds[k]++;
      if (!problems.length && !drift.has(row.id)) { passed++; totals.both++; continue; }
      if (!problems.length) {
        totals.fixed++;
        failures.push(row.id);
        note(`FIXED ${row.id}: passes on both runtimes now; delete its KNOWN_DRIFT entry`);
      } else if (drift.has(row.id)) {
        totals.drift++;
        note(`DRIFT [${kinds}] ${row.id}: ${problems.map((p) => p.text).join(' ; ')}`);
      } else {
        totals.unexpected++;
        failures.push(row.id);
        note(`FAIL [${kinds}] ${row.id}: ${problems.map((p) => p.text).join(' ; ')}`);
        note(`     today: ${today(results, problems)}`);
      }
    }
    note(`${passed} of ${rows.length} pass on both runtimes, ${rows.length - passed - failures.length} known drift`);
    assert(failures.length === 0, `${failures.length} rows failed or were fixed without leaving KNOWN_DRIFT: ${failures.join(', ')}`);
  });
}

test('totals per runtime', ({ note }) => {
  for (const r of RUNTIMES) note(`${r}: ${totals.runtime[r]} of ${totals.rows} rows give the expected code with nothing lost`);
  note(`both runtimes, code and message: ${totals.both} pass; known drift ${totals.drift}; unexpected failures ${totals.unexpected}; fixed drift ${totals.fixed}`);
  note(`rows with a problem, by kind: code ${totals.kinds.code}, message ${totals.kinds.message}, lost ${totals.kinds.lost}`);
  assert(totals.rows === ROWS.length, `every row ran (${totals.rows} of ${ROWS.length})`);
});
