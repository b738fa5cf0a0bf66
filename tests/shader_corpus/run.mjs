// The shader corpus of issue 40 (README.md beside this file). For each vertex shader, ours (own/) and
// the engines' (extract-engines.mjs): glslang's verdict, the engine's WGSL, GL compute and fragment
// translations (xfb-corpus-translate), the WGSL compiled in headless Chromium, and where runnable
// one step on WebGL2 transform feedback, the WebGL2 fragment backend and WebGPU, bytes compared.
//   node run.mjs --npm DIR --translate EXE --glslang EXE --work DIR [--update]
// Fails when: glslang's verdict on one of our shaders is not its `// expect:` line; a translated
// WGSL does not compile; a runnable shader's bytes differ between runtimes (or a runtime refuses
// it); a figure drops below docs/figures/shader-corpus.json (translated per printer, compiled,
// equal); the table in docs/guide/shader-coverage.md is not the committed JSON's. --update rewrites
// the JSON and the table from this run (when the translators improve, the figures go up).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from '../web/chromium.mjs';
import { extractEngineShaders } from './extract-engines.mjs';
import { renderTable, summarize } from './figures.mjs';

const started = Date.now();
const here = dirname(fileURLToPath(import.meta.url));
// playwright-core is installed with the browser tests (tests/web/package.json).
const { chromium } = createRequire(join(here, '../web/package.json'))('playwright-core');
const root = resolve(here, '../..');
const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((a) => a.trim().split(/\s+/)).map(([k, v]) => [k, v ?? true]));
for (const need of ['npm', 'translate', 'glslang', 'work']) // --run XFB_RUN: optional (the native comparison)
  if (!args[need]) { console.error(`run.mjs: --${need} missing`); process.exit(2); }
const FIGURES = join(root, 'docs/figures/shader-corpus.json');
const DOC = join(root, 'docs/guide/shader-coverage.md');
const failures = [];
const fail = (s) => { failures.push(s); console.log(`FAIL  ${s}`); };

// 1. The shaders: ours with their expected verdict, the engines' written into the work folder.
mkdirSync(join(args.work, 'engines'), { recursive: true });
const shaders = readdirSync(join(here, 'own')).filter((f) => f.endsWith('.vert')).sort().map((f) => {
  const text = readFileSync(join(here, 'own', f), 'utf8');
  return { name: `own/${f}`, origin: 'tests/shader_corpus/own (ours)', file: join(here, 'own', f), expect: text.match(/^\/\/ expect: (accept|reject)$/m)?.[1] };
});
for (const s of await extractEngineShaders(join(root, 'tests/web/node_modules'))) {
  const file = join(args.work, 'engines', s.name.replace('/', '_'));
  writeFileSync(file, s.text);
  shaders.push({ name: s.name, origin: s.origin, assembly: s.assembly, file });
}

// 2. glslang's verdict (a vertex shader, its own #version).
for (const s of shaders) {
  const r = spawnSync(args.glslang, ['-S', 'vert', s.file], { encoding: 'utf8' });
  s.glslang = r.status === 0 ? 'accept' : 'reject';
  if (r.status !== 0) s.glslangError = (r.stdout + r.stderr).split('\n').find((l) => l.startsWith('ERROR')) ?? `exit ${r.status}`;
  if (s.expect && s.expect !== s.glslang) fail(`${s.name}: glslang says ${s.glslang}, the file expects ${s.expect}${s.glslangError ? ` (${s.glslangError})` : ''}`);
}

// 3. The three translations, one process for all shaders.
const tr = spawnSync(args.translate, shaders.map((s) => s.file), { encoding: 'utf8', maxBuffer: 256 << 20 });
if (tr.status !== 0) { console.error(tr.stderr); process.exit(1); }
JSON.parse(tr.stdout).forEach((t, i) => Object.assign(shaders[i], { translation: t }));
for (const s of shaders) for (const p of ['wgsl', 'compute', 'fragment']) if (s.translation[p].code === 'CRASH') fail(`${s.name}: the ${p} translator crashed: ${s.translation[p].message}`);

// 3b. The GL printers' output judged by glslang as the GL would compile it: the compute shader
// (#version 430) and each fragment pass (#version 300 es). A failure is an engine bug: counted and
// listed, not fatal here (the gate keeps the count from dropping).
mkdirSync(join(args.work, 'translated'), { recursive: true });
function glslangErrors(text, stage, file) {
  writeFileSync(file, text);
  const r = spawnSync(args.glslang, ['-S', stage, file], { encoding: 'utf8' });
  return r.status === 0 ? [] : (r.stdout + r.stderr).split('\n').filter((l) => l.startsWith('ERROR')).slice(0, 2);
}
for (const [i, s] of shaders.entries()) {
  const t = s.translation, base = join(args.work, 'translated', `${i}`);
  if (t.compute.ok) t.compute.errors = glslangErrors(t.compute.source, 'comp', `${base}.comp`);
  if (t.fragment.ok) t.fragment.errors = t.fragment.source.split('//--xfb-pass--\n').filter((p) => p.trim())
    .flatMap((pass, k) => glslangErrors(pass, 'frag', `${base}.${k}.frag`));
}

// 4. What a run needs: attribute inputs, plain uniforms or 2-D samplers (the page gives each a 4x4
// RGBA8 texture: float ones filtered linearly with repeat, integer ones nearest; in the browser
// only), outputs of at most four components. Inputs get deterministic values inside every
// function's domain.
const feedable = (d, kinds) => d.array_size === 0 && kinds.includes(d.kind);
const TEXTURES = ['sampler2D', 'isampler2D', 'usampler2D'];
const isTexture = (d) => d.array_size === 0 && TEXTURES.includes(d.type);
function runJob(s) {
  const t = s.translation;
  // WebGL2 compiles GLSL ES 3.00 only. Transform feedback runs the shader's own text; the fragment backend and WebGPU run where their
  // printer translated it (GL compute is native only: tests/gl cover it, not this browser run).
  const runtimes = ['tf', ...(t.fragment.ok && !t.fragment.errors.length ? ['fragment'] : []), ...(t.wgsl.ok ? ['webgpu'] : [])];
  // Natively (xfb-run on Mesa, GL 4.3 core: any of the corpus's versions), TF against GL compute.
  const textures = (t.uniforms ?? []).filter(isTexture);
  const native = Boolean(args.run && t.compute.ok && !t.compute.errors.length && !textures.length);
  const browser = runtimes.length >= 2 && /^\s*#version 300 es/.test(readFileSync(s.file, 'utf8'));
  if (s.glslang !== 'accept' || !t.outputs || !(browser || native)) return null;
  if (!t.inputs.every((d) => feedable(d, ['float', 'int', 'uint']) && d.components <= 4)) return null;
  if (!t.uniforms.every((d) => isTexture(d) || feedable(d, ['float', 'int', 'uint', 'bool']))) return null;
  if (!t.outputs.every((d) => feedable(d, ['float', 'int', 'uint']) && d.components <= 4)) return null;
  const count = 64;
  const type = { float: 'float32', int: 'int32', uint: 'uint32' };
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
  const word = (kind) => kind === 'float' ? ((f32[0] = 0.125 + 1.75 * (next() / 2 ** 32)), u32[0]) : kind === 'int' ? next() % 16 : next();
  const inputWords = [];
  for (let e = 0; e < count; e++) for (const d of t.inputs) for (let c = 0; c < d.components; c++) inputWords.push(word(d.kind));
  const value = (d) => {
    const one = { float: 0.5, int: 3, uint: 3, bool: 1 }[d.kind];
    return d.components === 1 ? one : Array.from({ length: d.components }, (_, i) => (d.kind === 'float' ? one + 0.125 * i : one + i));
  };
  return {
    name: s.name, file: s.file, runtimes, browser, native, source: readFileSync(s.file, 'utf8'), count, inputWords, varyings: t.outputs.map((d) => d.name),
    inputFormat: t.inputs.map((d) => ({ semantic: d.semantic, components: d.components, type: type[d.kind] })),
    outputFormat: t.outputs.map((d, i) => ({ semantic: `ATTR${i}`, components: d.components, type: type[d.kind] })),
    uniforms: t.uniforms.filter((d) => !isTexture(d)).map((d) => [d.name, value(d)]),
    textures: textures.map((d, k) => ({ name: d.name, type: d.type, texels: Array.from({ length: 64 }, (_, i) => (i * 37 + 11 * k + 5) % 256) })),
  };
}
const jobs = shaders.map(runJob).filter(Boolean);

// 5. Chromium: compile every translated WGSL, run the runnable shaders on the three runtimes.
const server = await serve({ '/npm/': resolve(args.npm), '/': join(here, 'page') });
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'xfb-corpus-')), { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
let browser;
try {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[page] ${e.message}`));
  await page.goto(`${server.url}/index.html`);
  await page.waitForFunction(() => window.corpusReady, null, { timeout: 60_000 });
  const compile = shaders.filter((s) => s.translation.wgsl.ok).map((s) => ({ name: s.name, wgsl: s.translation.wgsl.source }));
  browser = await page.evaluate((input) => window.corpus(input), { compile, run: jobs.filter((j) => j.browser) });
} finally {
  await context.close();
  server.close();
}
if (browser.fatal) { console.log(`FAIL  ${browser.fatal}`); process.exit(1); }

// 5b. Native GL (xfb-run, headless Mesa): one step with the transform-feedback backend and one with
// GL compute, the output buffer's bytes compared. Same inputs and uniforms as the browser run.
const native = {};
for (const job of jobs.filter((j) => j.native)) {
  const dir = join(args.work, 'native', job.name.replace('/', '_'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'input.bin'), new Uint8Array(new Uint32Array(job.inputWords).buffer));
  const buffers = [...(job.inputFormat.length ? [{ name: 'input', role: ['input'], format: job.inputFormat, data_file: 'input.bin' }] : []),
    { name: 'output', role: ['output'], format: job.outputFormat }];
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ shader: resolve(job.file), count: job.count, varyings: job.varyings,
    uniforms: Object.fromEntries(job.uniforms), buffers }));
  native[job.name] = {};
  for (const backend of ['tf', 'compute']) {
    mkdirSync(join(dir, backend), { recursive: true });
    const r = spawnSync(args.run, [join(dir, 'scenario.json'), '--backend', backend, '--binary', join(dir, backend), '--brief'], { encoding: 'utf8' });
    native[job.name][`gl-${backend}`] = r.status === 0 ? { bytes: [...readFileSync(join(dir, backend, 'output.bin'))] } : { error: (r.stderr || String(r.error)).trim().split('\n')[0] };
  }
}

// 6. Per shader: the verdicts, and the checks that make the test fail.
const refusal = (r) => (r.ok ? 'translated' : { code: r.code, message: r.message });
const results = shaders.map((s) => {
  const t = s.translation;
  const out = { name: s.name, origin: s.origin, ...(s.assembly ? { assembly: s.assembly } : {}), glslang: s.glslang, ...(s.glslangError ? { glslang_error: s.glslangError } : {}) };
  for (const p of ['wgsl', 'compute', 'fragment']) out[p] = refusal(t[p]);
  for (const p of ['compute', 'fragment']) if (t[p].ok) {
    out[`${p}_compiled`] = t[p].errors.length === 0;
    if (t[p].errors.length) out[`${p}_errors`] = t[p].errors;
  }
  if (t.wgsl.ok) {
    const errors = browser.compiled[s.name];
    out.wgsl_compiled = errors.length === 0;
    if (errors.length) fail(`${s.name}: the translated WGSL does not compile in Chromium: ${errors.slice(0, 3).join('; ')}`);
  }
  for (const [run, label] of [[browser.runs[s.name], 'run'], [native[s.name], 'native_run']]) {
    if (!run) continue;
    const ran = Object.keys(run);
    const errors = ran.filter((k) => run[k].error).map((k) => `${k}: ${run[k].error}`);
    const first = run[ran[0]];
    const differ = first.bytes ? ran.filter((k) => k !== ran[0] && run[k].bytes?.some((b, j) => b !== first.bytes[j])) : [];
    // All-zero output would be equal everywhere and prove nothing: a run must write something.
    const written = first.bytes ? first.bytes.filter((b) => b !== 0).length : 0;
    if (first.bytes && written === 0) errors.push(`${ran[0]}: every output byte is 0: the run checks nothing`);
    out[label] = { runtimes: ran, bytes: first.bytes?.length ?? 0, nonzero_bytes: written, equal: errors.length === 0 && differ.length === 0, ...(errors.length ? { errors } : {}), ...(differ.length ? { differ_from_tf: differ } : {}) };
    // GLSL ES 3.00 section 4.5.2: lowp / mediump give at least their precision, so a driver that
    // honours them (Mesa's ES compiler) and one that runs highp (a desktop #version 430 kernel) may
    // differ. So may inverse() and determinant(), whose algorithm (and so rounding) GLSL leaves to
    // the implementation (section 8.6 gives no precision): the WGSL printer's helper is not the
    // driver's. Recorded and listed, not a failure; other highp shaders must be bit for bit equal.
    const reduced = /\b(lowp|mediump)\b|\b(inverse|determinant)\s*\(/.test(readFileSync(s.file, 'utf8'));
    if (reduced && differ.length && !errors.length) { out[label].precision_dependent = true; continue; }
    if (!out[label].equal) fail(`${s.name}: runnable (${label}), but ${[...errors, ...differ.map((k) => `${k} differs from ${ran[0]}`)].join('; ')}`);
  }
  return out;
});

// 7. The figures against the committed ones, and the docs' table against the committed JSON.
const figures = { summary: summarize(results), shaders: results };
mkdirSync(args.work, { recursive: true });
writeFileSync(join(args.work, 'shader-corpus.json'), JSON.stringify(figures, null, 1) + '\n');
const committed = JSON.parse(readFileSync(FIGURES, 'utf8'));
const now = figures.summary, was = committed.summary;
for (const key of ['wgsl', 'compute', 'fragment']) if (now.translated[key] < was.translated[key]) fail(`${key}: ${now.translated[key]} shaders translate, the committed figures say ${was.translated[key]}`);
for (const key of ['accepted', 'wgsl_compiled', 'compute_compiled', 'fragment_compiled', 'equal', 'native_equal']) if (now[key] < was[key]) fail(`${key}: ${now[key]}, the committed figures say ${was[key]}`);
const table = renderTable(args.update ? now : was);
const doc = readFileSync(DOC, 'utf8');
const section = /(<!-- corpus-table:begin -->\n)[\s\S]*?(<!-- corpus-table:end -->)/;
if (args.update) {
  writeFileSync(FIGURES, JSON.stringify(figures, null, 1) + '\n');
  writeFileSync(DOC, doc.replace(section, `$1${table}$2`));
  console.log(`updated ${FIGURES} and the table of ${DOC}`);
} else if (doc.match(section)?.[0] !== `<!-- corpus-table:begin -->\n${table}<!-- corpus-table:end -->`) {
  fail(`${DOC}: its table is not the one of ${FIGURES} (run with --update and commit both)`);
}
console.log(table);
const checks = shaders.length * 4 + jobs.length;
console.log(`${results.length} shaders, ${jobs.filter((j) => j.browser).length} run in Chromium, ${Object.keys(native).length} natively, ${failures.length} failures, ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`xfb-test-run: cases=${results.length} asserts=${checks}`);
process.exit(failures.length ? 1 : 0);
