// Runs one page of in-browser tests in headless Chromium (Debian's, through playwright-core)
// and prints each case. Usage: node browser.mjs NPM_DIR SUITE   (SUITE: page/SUITE.js)
// Exit status 0 only if every case passed and the run checked something: at least one case, and
// every case of a test suite made at least one assert() (page/assert.js counts them). The
// measurement suites (bench, bench-cpu, bench-read, bench-fragment, bench-emit) report figures: their cases may
// assert nothing; XFB_BENCH_SIZES (e.g. 1e3,1e4) reaches their page as ?sizes= where it reads it (bench-emit).
// Prints `xfb-test-run: cases=N asserts=M` for tests/run-summary.mjs.
import { chromium } from 'playwright-core';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [npmDir, suite] = process.argv.slice(2);
const measurement = ['bench', 'bench-cpu', 'bench-read', 'bench-fragment', 'bench-emit'].includes(suite);
// Suites where xfb shares a context with an engine rendering its usual scenes: any WebGL warning Chromium
// prints (an error a call raised, "location is not from the associated program", ...) fails the run.
// Other suites provoke errors and context loss on purpose (shared-context: a pending application
// error, xfb called while the application's transform feedback is active).
const webglWarningsFail = ['three', 'babylon', 'playcanvas', 'engine-gallery'].includes(suite);
const webglWarnings = [];
if (!npmDir || !suite) { console.error('usage: node browser.mjs NPM_DIR SUITE'); process.exit(2); }

// Served paths: the package, shaders and demos the suites load, and the tables and examples that
// several suites share (the conformance and misuse tables, the documentation's examples).
const server = await serve({
  '/npm/': resolve(npmDir), '/shaders/': join(here, '../../shaders'), '/demos/': join(here, '../../demos'),
  '/conformance/': join(here, '../conformance'), '/misuse/': join(here, 'misuse'), '/docs/': join(here, '../../docs'),
  '/': join(here, 'page'),
});
const userDataDir = await mkdtemp(join(tmpdir(), 'xfb-chromium-'));
const context = await chromium.launchPersistentContext(userDataDir, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
let failed = 0;
try {
  const page = await context.newPage();
  // The measurement suites run cross-origin isolated: performance.now() then ticks in 5 us, not 100 us.
  if (measurement) await page.route('**/*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[page] ${m.text()}`);
    if (/WebGL|GL_[A-Z_]+/.test(m.text()) && (m.type() === 'warning' || m.type() === 'error')) webglWarnings.push(m.text());
  });
  page.on('response', (r) => { if (r.status() >= 400) console.log(`[page] ${r.status()} ${r.url()}`); });
  const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
  const sizes = measurement && process.env.XFB_BENCH_SIZES ? `&sizes=${encodeURIComponent(process.env.XFB_BENCH_SIZES)}` : '';
  await page.goto(`${server.url}/index.html?suite=${encodeURIComponent(suite)}${sizes}`, { timeout: 180_000 }); // a loaded CI machine
  const results = await Promise.race([page.waitForFunction(() => window.__results, null, { timeout: measurement ? 1_200_000 : 240_000 }).then((h) => h.jsonValue()), crashed]);
  for (const r of results) {
    if (r.ok && r.asserts === 0 && !measurement) Object.assign(r, { ok: false, error: 'the case made no assert(): it cannot fail' });
    console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${suite}: ${r.name} (${r.asserts} checks)${r.ok ? '' : `\n      ${r.error}`}`);
    for (const note of r.notes ?? []) console.log(`      ${note}`);
    if (!r.ok) failed++;
  }
  const asserts = results.reduce((sum, r) => sum + r.asserts, 0);
  console.log(`${results.length - failed} of ${results.length} passed`);
  console.log(`xfb-test-run: cases=${results.length} asserts=${asserts}`);
  if (webglWarningsFail && webglWarnings.length) {
    console.log(`FAIL  ${suite}: ${webglWarnings.length} WebGL warnings on the console:\n      ${webglWarnings.join('\n      ')}`);
    failed++;
  }
  if (results.length === 0 || (asserts === 0 && !measurement)) {
    console.log('FAIL  no case or no assertion ran: this run checked nothing');
    failed++;
  }
} finally {
  await context.close();
  server.close();
}
process.exit(failed ? 1 : 0);
