// Packs the npm package (npm pack), installs the tarball into a fresh Vite 7 project, builds it
// with `vite build`, serves the output and runs it in headless Chromium.
// Usage: node vite.mjs NPM_DIR WORK_DIR
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const [npmDir, workDir] = process.argv.slice(2).map((p) => resolve(p));
const app = join(workDir, 'vite-app');
rmSync(workDir, { recursive: true, force: true });
mkdirSync(app, { recursive: true });
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
const tarball = run('npm', ['pack', '--silent', '--pack-destination', workDir], npmDir).trim().split('\n').pop();
console.log(`packed ${tarball}`);
cpSync(join(import.meta.dirname, 'vite-app'), app, { recursive: true });
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'xfb-vite-check', private: true, type: 'module',
  dependencies: { xfb: `file:${join(workDir, tarball)}` }, devDependencies: { vite: '^7.0.0' } }, null, 2));
run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], app);
console.log(run('npx', ['vite', 'build', '--logLevel', 'warn'], app) || 'vite build done');

const server = await serve({ '/': join(app, 'dist') });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
let ok = false;
try {
  const page = await browser.newPage();
  const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
  await page.goto(`${server.url}/index.html`);
  const result = await Promise.race([page.waitForFunction(() => window.__result, null, { timeout: 60_000 }).then((h) => h.jsonValue()), crashed]);
  const expected = [4, 8, 12, 16, 20, 24, 28, 32];
  ok = JSON.stringify(result) === JSON.stringify(expected);
  console.log(`${ok ? 'PASS' : 'FAIL'}  vite: the packed module built by Vite 7 runs in Chromium: ${JSON.stringify(result)}`);
  console.log('xfb-test-run: cases=1 asserts=1');
} finally {
  await browser.close();
  server.close();
}
process.exit(ok ? 0 : 1);
