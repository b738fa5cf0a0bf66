// Runs every demo of the web gallery for N frames in headless Chromium. The demo itself checks
// its last frame for content (glReadPixels: not blank, not one colour, in the scene region) and
// reports through window.__demoDone; the page screenshot is kept as an artifact.
// Usage: node gallery.mjs GALLERY_DIR SCREENSHOT_DIR [demo[:variant] ...]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const [galleryDir, shotsDir, ...only] = process.argv.slice(2);
const demos = only.length ? only : ['particles', 'flock', 'cloth', 'trails', 'skinning', 'skinning:captured'];
mkdirSync(shotsDir, { recursive: true });
const server = await serve({ '/': resolve(galleryDir) });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
let failed = 0;
try {
  for (const entry of demos) {
    const [demo, variant] = entry.split(':');
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const log = [];
    page.on('console', (m) => log.push(m.text()));
    const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
    try {
      await page.goto(`${server.url}/demo.html?demo=${demo}&frames=60${variant ? `&variant=${variant}` : ''}`);
      const done = await Promise.race([page.waitForFunction(() => window.__demoDone, null, { timeout: 180_000 }).then((h) => h.jsonValue()), crashed]);
      const png = join(shotsDir, `web-${entry.replace(':', '-')}.png`);
      await page.screenshot({ path: png });
      const report = log.find((l) => l.startsWith('{"demo"')) ?? '';
      console.log(`${done.ok ? 'PASS' : 'FAIL'}  gallery: ${entry} ${report} -> ${png}`);
      if (!done.ok) failed++;
    } catch (e) {
      console.log(`FAIL  gallery: ${entry}: ${e.message}\n${log.slice(-5).join('\n')}`);
      failed++;
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
