// Runs every demo of the web gallery for N frames in headless Chromium and judges each run itself:
// the page (demos/app/frame_check.cpp) reports its errors, the rectangles of its ImGui windows and
// two frames read back 10 steps apart with the camera still; this test counts, on its own, the
// scene pixels outside every UI window (covered, colours) and the ones that changed (motion).
// A run fails on: an uncaught page error, a console error, a recorded error (a step that threw,
// a GL error), the demo's own verdict, an empty scene or a frozen one. The page screenshot is
// kept as an artifact.
// Usage: node gallery.mjs GALLERY_DIR SCREENSHOT_DIR [demo[:variant] ...]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const [galleryDir, shotsDir, ...only] = process.argv.slice(2);
const demos = only.length ? only : ['particles', 'flock', 'cloth', 'trails', 'skinning', 'skinning:captured', 'webgpu'];
const FRAMES = 60;
// What the scene alone must show: share of its pixels not of the clear colour, distinct colours
// (4 bits per channel), share of its pixels that changed between the two frames.
const NEED = { covered: 0.005, colours: 4, motion: 0.002 };

// Runs in the page: the scene statistics of the two captured frames (RGBA, bottom row first),
// leaving out every pixel under a UI window (rectangles [x, y, w, h] from the top left).
function sceneStatistics({ clear, tolerance }) {
  const done = window.__demoDone;
  const last = done.frames.at(-1), first = done.frames.length > 1 ? done.frames[0] : null;
  if (!last) return null;
  const { width, height } = last;
  const ui = done.ui ?? [];
  const diff = (a, i, b, j) => Math.abs(a[i] - b[j]) + Math.abs(a[i + 1] - b[j + 1]) + Math.abs(a[i + 2] - b[j + 2]);
  const colours = new Set();
  let scene = 0, covered = 0, moved = 0;
  for (let row = 0; row < height; ++row) {
    const y = height - 1 - row;
    for (let x = 0; x < width; ++x) {
      if (ui.some(([rx, ry, rw, rh]) => x >= rx && x < rx + rw && y >= ry && y < ry + rh)) continue;
      const i = (row * width + x) * 4, p = last.rgba;
      ++scene;
      if (diff(p, i, clear, 0) > tolerance) ++covered;
      colours.add(((p[i] >> 4) << 8) | ((p[i + 1] >> 4) << 4) | (p[i + 2] >> 4));
      if (first && diff(p, i, first.rgba, i) > tolerance) ++moved;
    }
  }
  return { frames: done.frames.map((f) => f.frame), scene, covered: covered / scene, colours: colours.size, motion: first ? moved / scene : null };
}

// Every reason the run fails (empty: it passed). The page's own lines on the console
// ("xfb-demos: ...") come back through done.errors and done.failures.
function judge(done, stats, consoleErrors) {
  const why = [...(done.errors ?? []).map((e) => `error recorded by the page: ${e}`),
    ...consoleErrors.filter((e) => !e.startsWith('xfb-demos:')).map((e) => `console error: ${e}`)];
  if (!done.ok) {
    const own = (done.failures ?? []).filter((f) => !f.startsWith('error recorded'));
    why.push(...(own.length ? own.map((f) => `page check: ${f}`) : ['page check: failed (errors above)']));
  }
  if (!stats) return [...why, 'no frame captured'];
  if (stats.frames.at(-1) !== FRAMES) why.push(`last captured frame ${stats.frames.at(-1)}, expected ${FRAMES}`);
  if (stats.covered < NEED.covered || stats.colours < NEED.colours)
    why.push(`empty scene (measured here): ${stats.covered.toFixed(4)} of ${stats.scene} scene pixels covered, ${stats.colours} colours; needs ${NEED.covered} and ${NEED.colours}`);
  if (done.animates !== false && !(stats.motion >= NEED.motion))
    why.push(`frozen scene (measured here): ${stats.motion?.toFixed(4)} of the scene pixels changed between frames ${stats.frames.join(' and ')}; needs ${NEED.motion}`);
  return why;
}

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
    const log = [], consoleErrors = [];
    page.on('console', (m) => {
      log.push(m.text());
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
    try {
      // 'webgpu': the WebGPU page (npm package, not the C++ gallery program); it checks its own
      // state read back after FRAMES frames (finite, most values moved), judged with its console.
      await page.goto(demo === 'webgpu' ? `${server.url}/webgpu.html?frames=${FRAMES}` : `${server.url}/demo.html?demo=${demo}&frames=${FRAMES}${variant ? `&variant=${variant}` : ''}`);
      await Promise.race([page.waitForFunction(() => window.__demoDone, null, { timeout: 180_000 }), crashed]);
      const png = join(shotsDir, `web-${entry.replace(':', '-')}.png`);
      await page.screenshot({ path: png });
      if (demo === 'webgpu') {
        const done = await page.evaluate(() => window.__demoDone);
        const why = [...consoleErrors.map((e) => `console error: ${e}`), ...(done.ok ? [] : [`page check: ${JSON.stringify(done)}`])];
        console.log(`${why.length ? 'FAIL' : 'PASS'}  gallery: webgpu: ${done.moved} values moved after ${done.steps} steps, finite ${done.finite} -> ${png}`);
        for (const w of why) console.log(`      ${w}`);
        if (why.length) failed++;
      } else {
        const done = await page.evaluate(() => ({ ...window.__demoDone, frames: undefined }));
        const stats = await page.evaluate(sceneStatistics, { clear: [5, 6, 10], tolerance: 12 }); // the demos' clear colour, as bytes
        const why = judge(done, stats, consoleErrors);
        const figures = stats && `covered ${stats.covered.toFixed(4)}, ${stats.colours} colours, motion ${stats.motion?.toFixed(4)} (frames ${stats.frames.join(', ')})`;
        console.log(`${why.length ? 'FAIL' : 'PASS'}  gallery: ${entry}: ${figures}, ui ${JSON.stringify(done.ui)} -> ${png}`);
        for (const w of why) console.log(`      ${w}`);
        if (why.length) failed++;
      }
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
console.log(`${demos.length - failed} of ${demos.length} gallery demos passed`);
process.exit(failed ? 1 : 0);
