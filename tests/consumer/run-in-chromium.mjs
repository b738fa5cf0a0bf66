// Runs the Emscripten consumer application (app.js + app.wasm built against the installed wasm
// package) in headless Chromium on SwiftShader and passes if it prints "consumer: PASS".
// Usage: node run-in-chromium.mjs APP_BUILD_DIR
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from '../web/chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { chromium } = createRequire(join(here, '../web/package.json'))('playwright-core'); // tests/web's node_modules
const [appDir] = process.argv.slice(2);
if (!appDir) { console.error('usage: node run-in-chromium.mjs APP_BUILD_DIR'); process.exit(2); }

const server = await serve({ '/app/': resolve(appDir), '/': join(here, 'web') });
const userDataDir = await mkdtemp(join(tmpdir(), 'xfb-consumer-'));
const context = await chromium.launchPersistentContext(userDataDir, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
let verdict = 'FAIL (no verdict printed within 120 s)';
try {
  const page = await context.newPage();
  const done = new Promise((resolveDone) => {
    page.on('console', (m) => {
      console.log(`[page] ${m.text()}`);
      const match = /^consumer: (PASS|FAIL)/.exec(m.text());
      if (match) resolveDone(match[1]);
    });
    page.on('pageerror', (e) => { console.log(`[page] uncaught: ${e.message}`); resolveDone('FAIL (uncaught error)'); });
    page.on('response', (r) => { if (r.status() >= 400) console.log(`[page] ${r.status()} ${r.url()}`); });
  });
  await page.goto(`${server.url}/index.html`);
  verdict = await Promise.race([done, new Promise((r) => setTimeout(() => r(verdict), 120_000))]);
} finally {
  await context.close();
  server.close();
}
console.log(`consumer in Chromium: ${verdict}`);
process.exit(verdict === 'PASS' ? 0 : 1);
