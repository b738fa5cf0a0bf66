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
const demos = only.length ? only : ['particles', 'flock', 'cloth', 'trails', 'skinning', 'skinning:captured', 'webgpu'];
mkdirSync(shotsDir, { recursive: true });
const server = await serve({ '/': resolve(galleryDir), '/npm/': resolve(galleryDir, '../npm') });
// The WebGPU page presents to a canvas, which headless Chromium's SwiftShader WebGPU does only
// with Vulkan enabled (else the device is lost at the first getCurrentTexture()): its own browser.
const browsers = new Map();
const launch = async (webgpu) => browsers.get(webgpu) ?? browsers.set(webgpu, await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: webgpu ? [...CHROMIUM_ARGS, '--enable-features=Vulkan', '--use-vulkan=swiftshader'] : CHROMIUM_ARGS })).get(webgpu);
let failed = 0;
try {
  for (const entry of demos) {
    const [demo, variant] = entry.split(':');
    const page = await (await launch(demo === 'webgpu')).newPage({ viewport: { width: 1280, height: 720 } });
    const log = [];
    page.on('console', (m) => log.push(m.text()));
    const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
    try {
      // 'webgpu': the WebGPU page (npm package, not the C++ gallery program).
      await page.goto(demo === 'webgpu' ? `${server.url}/webgpu.html?frames=60` : `${server.url}/demo.html?demo=${demo}&frames=60${variant ? `&variant=${variant}` : ''}`);
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
  for (const b of browsers.values()) await b.close();
  server.close();
}
process.exit(failed ? 1 : 0);
