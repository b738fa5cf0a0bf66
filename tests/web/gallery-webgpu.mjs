// Runs every demo of the WebGPU gallery (webgpu.html?demo=NAME, the npm package's WebGPU engine)
// for N frames in headless Chromium (SwiftShader's WebGPU) and judges each run itself, as
// gallery.mjs does for the WebGL2 gallery: the page copies the canvas texture of frames N-10 and N
// (window.__demoFrames) with the camera still; this test counts, on its own, the scene pixels not
// of the clear colour (covered), their colours and the ones that changed (motion). Also: the
// page screenshot (kept as an artifact) must show that last frame outside the HTML panel (the
// canvas was presented), the demo's state read back must be finite and moved from its initial data
// (the page's verdict), and no uncapturederror (caught by a hook on every GPUDevice the page gets,
// installed before the page's scripts), no page error and no console error may occur.
// A run that draws a geometry pass's lines (LINES) must also show enough pixels of each kind of line.
// First each check is shown able to fail: planted empty, frozen, unpresented and lineless frames, a planted
// uncapturederror, page error and console error must each be reported.
// Usage: node gallery-webgpu.mjs GALLERY_DIR SCREENSHOT_DIR [demo[:variant] ...]
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const [galleryDir, shotsDir, ...only] = process.argv.slice(2);
const demos = only.length ? only : ['particles', 'flock', 'cloth', 'trails', 'skinning', 'skinning:captured', 'skinning:normals'];
const FRAMES = 60;
// gallery.mjs's thresholds: share of the scene not of the clear colour, distinct colours (4 bits per
// channel), share that changed between the two frames; and here the share of the screenshot's scene
// (outside the panel) that may differ from the last frame.
const NEED = { covered: 0.005, colours: 4, motion: 0.002, unpresented: 0.01 };
const CLEAR = [5, 6, 10]; // the shell's clear colour (0.02, 0.025, 0.04) as bytes
// Runs that draw a geometry pass's lines (issue 27): the last frame's yellow face-normal and cyan
// fin pixels, counted here as demos/skinning.cpp's checkRun() counts them natively (its
// isNormalPixel / isFinPixel; the meshes' lit materials never reach these colours).
const LINES = { 'skinning:normals': 200 };
const TOLERANCE = 12;

// Before the page's scripts: every GPUDevice the page requests reports its uncapturederrors here.
function hookDevices() {
  window.__gpuErrors = [];
  window.__gpuDevices = [];
  const request = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function (...args) {
    const device = await request.apply(this, args);
    device.addEventListener('uncapturederror', (e) => window.__gpuErrors.push(e.error.message));
    window.__gpuDevices.push(device);
    return device;
  };
}

// In the page: the statistics of the two captured frames (RGBA, top row first). planted: 'empty'
// measures a frame of the clear colour, 'frozen' the last frame against itself.
function frameStatistics({ clear, tolerance, planted }) {
  const frames = window.__demoFrames ?? [];
  let last = frames.at(-1), first = frames.length > 1 ? frames[0] : null;
  if (!last) return null;
  if (planted === 'empty') {
    const rgba = new Uint8Array(last.rgba.length);
    for (let i = 0; i < rgba.length; i += 4) rgba.set([...clear, 255], i);
    last = { ...last, rgba };
  }
  if (planted === 'frozen') first = last;
  const diff = (a, b, i) => Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
  const colours = new Set(), p = last.rgba;
  let covered = 0, moved = 0, normalPixels = 0, finPixels = 0;
  const scene = last.width * last.height;
  for (let i = 0; i < scene * 4; i += 4) {
    if (Math.abs(p[i] - clear[0]) + Math.abs(p[i + 1] - clear[1]) + Math.abs(p[i + 2] - clear[2]) > tolerance) ++covered;
    colours.add(((p[i] >> 4) << 8) | ((p[i + 1] >> 4) << 4) | (p[i + 2] >> 4));
    if (first && diff(p, first.rgba, i) > tolerance) ++moved;
    if (p[i] > 200 && p[i + 1] > 170 && p[i + 2] < 80) ++normalPixels;
    if (p[i] < 80 && p[i + 1] > 170 && p[i + 2] > 200) ++finPixels;
  }
  return { frames: frames.map((f) => f.frame), size: [last.width, last.height], scene, covered: covered / scene, colours: colours.size, motion: first ? moved / scene : null, normalPixels, finPixels };
}

// In the page: the screenshot (PNG, base64) against the last captured frame, outside the panel's
// rectangle. planted: 'blank' compares it with a frame of the clear colour instead.
async function screenshotStatistics({ png, panel, clear, tolerance, planted }) {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height), g = canvas.getContext('2d');
  g.drawImage(bitmap, 0, 0);
  const shot = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const last = window.__demoFrames.at(-1);
  if (!last || last.width !== bitmap.width || last.height !== bitmap.height)
    return { error: `screenshot ${bitmap.width} x ${bitmap.height}, last frame ${last?.width} x ${last?.height}` };
  const [px, py, pw, ph] = panel;
  let scene = 0, differs = 0;
  for (let y = 0; y < bitmap.height; y++)
    for (let x = 0; x < bitmap.width; x++) {
      if (x >= px && x < px + pw && y >= py && y < py + ph) continue;
      const i = (y * bitmap.width + x) * 4, f = planted === 'blank' ? [...clear, 255] : last.rgba.subarray(i, i + 4);
      ++scene;
      if (Math.abs(shot[i] - f[0]) + Math.abs(shot[i + 1] - f[1]) + Math.abs(shot[i + 2] - f[2]) > tolerance) ++differs;
    }
  return { scene, unpresented: differs / scene };
}

/** Every reason a run fails (empty: it passed). */
function judge({ entry, done, stats, shot, gpuErrors, consoleErrors }) {
  const why = [...gpuErrors.map((e) => `uncapturederror: ${e}`), ...consoleErrors.map((e) => `console error: ${e}`),
    ...(done.errors ?? []).map((e) => `error recorded by the page: ${e}`)];
  if (!done.ok) why.push(...(done.failures?.length ? done.failures.map((f) => `page check: ${f}`) : ['page check: failed']));
  if (!stats) return [...why, 'no frame captured'];
  if (stats.frames.join() !== `${FRAMES - 10},${FRAMES}`) why.push(`captured frames ${stats.frames.join(', ')}, expected ${FRAMES - 10} and ${FRAMES}`);
  if (stats.covered < NEED.covered || stats.colours < NEED.colours)
    why.push(`empty scene (measured here): ${stats.covered.toFixed(4)} of ${stats.scene} pixels covered, ${stats.colours} colours; needs ${NEED.covered} and ${NEED.colours}`);
  if (done.animates !== false && !(stats.motion >= NEED.motion))
    why.push(`frozen scene (measured here): ${stats.motion?.toFixed(4)} of the pixels changed between frames ${stats.frames.join(' and ')}; needs ${NEED.motion}`);
  const lines = LINES[entry];
  if (lines && !(stats.normalPixels >= lines && stats.finPixels >= lines))
    why.push(`no geometry-pass lines (measured here): ${stats.normalPixels} face-normal (yellow) and ${stats.finPixels} fin (cyan) pixels in the last frame; needs ${lines} of each`);
  if (!shot || shot.error || !(shot.unpresented <= NEED.unpresented))
    why.push(`not presented: ${shot?.error ?? `${shot?.unpresented?.toFixed(4)} of the screenshot's scene pixels differ from the last frame; at most ${NEED.unpresented}`}`);
  return why;
}

mkdirSync(shotsDir, { recursive: true });
const server = await serve({ '/': resolve(galleryDir), '/npm/': resolve(galleryDir, '../npm') });
// A WebGPU canvas is presented in headless Chromium only with Vulkan enabled (gallery.mjs).
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, '--enable-features=Vulkan', '--use-vulkan=swiftshader'] });
let failed = 0, planted = false, asserts = 0;
const CHECKS_PER_RUN = 8; // uncapturederror, page error, console error, page verdict, frames, covered + colours, motion, presented
const PLANTED_CHECKS = 8;
const started = Date.now();
try {
  for (const entry of demos) {
    const [demo, variant] = entry.split(':');
    const t0 = Date.now();
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(hookDevices);
    const log = [], consoleErrors = [], pageErrors = [];
    page.on('console', (m) => {
      log.push(m.text());
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
    crashed.catch(() => {}); // judged from pageErrors once the run ended
    try {
      await page.goto(`${server.url}/webgpu.html?demo=${demo}&frames=${FRAMES}${variant ? `&variant=${variant}` : ''}`, { timeout: 180_000 }); // a loaded CI machine
      await Promise.race([page.waitForFunction(() => window.__demoDone, null, { timeout: 180_000, polling: 250 }), crashed]);
      const png = join(shotsDir, `webgpu-${entry.replace(':', '-')}.png`);
      const image = await page.screenshot({ path: png });
      const done = await page.evaluate(() => window.__demoDone);
      const args = { clear: CLEAR, tolerance: TOLERANCE };
      const stats = await page.evaluate(frameStatistics, args);
      const shotArgs = { ...args, png: image.toString('base64'), panel: done.panel ?? [0, 0, 0, 0] };
      const shot = stats && (await page.evaluate(screenshotStatistics, shotArgs));
      // Every device's queue drained first: an error of the last frames is dispatched by then.
      const gpuErrors = await page.evaluate(async () => {
        for (const d of window.__gpuDevices) await d.queue.onSubmittedWorkDone();
        return window.__gpuErrors;
      });
      const why = [...pageErrors.map((e) => `uncaught in the page: ${e}`), ...judge({ entry, done, stats, shot, gpuErrors, consoleErrors })];
      const figures = stats && `covered ${stats.covered.toFixed(4)}, ${stats.colours} colours, motion ${stats.motion?.toFixed(4)} (frames ${stats.frames.join(', ')}), ` +
        `unpresented ${shot?.unpresented?.toFixed(4)}; ${LINES[entry] ? `${stats.normalPixels} face-normal and ${stats.finPixels} fin pixels; ` : ''}${done.count} elements, ${done.moved} of ${done.values} state values moved, ${((Date.now() - t0) / 1000).toFixed(1)} s`;
      console.log(`${why.length ? 'FAIL' : 'PASS'}  gallery-webgpu: ${entry}: ${figures} -> ${png}`);
      for (const w of why) console.log(`      ${w}`);
      if (why.length) failed++;
      asserts += CHECKS_PER_RUN;

      // Once, on a run that passed: each check must be able to fail.
      if (!why.length && !planted) {
        planted = true;
        const misses = [];
        const expect = (what, reasons, pattern) => reasons.some((r) => pattern.test(r)) || misses.push(`${what} was not reported (got: ${reasons.join('; ') || 'nothing'})`);
        const base = { done, stats, shot, gpuErrors: [], consoleErrors: [] };
        const empty = await page.evaluate(frameStatistics, { ...args, planted: 'empty' });
        expect('a planted empty frame', judge({ ...base, stats: empty }), /^empty scene/);
        expect('a planted frame without lines', judge({ ...base, entry: Object.keys(LINES)[0], stats: empty }), /^no geometry-pass lines/);
        expect('a planted frozen frame', judge({ ...base, stats: await page.evaluate(frameStatistics, { ...args, planted: 'frozen' }) }), /^frozen scene/);
        expect('a planted unpresented canvas', judge({ ...base, shot: await page.evaluate(screenshotStatistics, { ...shotArgs, planted: 'blank' }) }), /^not presented/);
        expect('a planted page verdict', judge({ ...base, done: { ...done, ok: false, failures: ['planted'] } }), /^page check: planted/);
        // The hooks on the live page: an invalid buffer (MAP_READ with MAP_WRITE), a throw, a console error.
        await page.evaluate(async () => {
          const device = window.__gpuDevices[0];
          device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.MAP_WRITE });
          await device.queue.onSubmittedWorkDone(); // the device ticks: its errors are dispatched
          setTimeout(() => { throw new Error('planted page error'); });
          console.error('planted console error');
        });
        await page.waitForTimeout(500);
        const hooked = judge({ ...base, gpuErrors: await page.evaluate(() => window.__gpuErrors), consoleErrors });
        expect('a planted uncapturederror', hooked, /^uncapturederror: /);
        expect('a planted console error', hooked, /^console error: planted/);
        if (!pageErrors.includes('planted page error')) misses.push('a planted page error was not caught');
        console.log(`${misses.length ? 'FAIL' : 'PASS'}  gallery-webgpu: the checks fail on planted defects (empty, frozen, unpresented, no lines, page verdict, uncapturederror, console error, page error)`);
        for (const m of misses) console.log(`      ${m}`);
        if (misses.length) failed++;
        asserts += PLANTED_CHECKS;
      }
    } catch (e) {
      console.log(`FAIL  gallery-webgpu: ${entry}: ${e.message}\n${[...pageErrors, ...log.slice(-5)].join('\n')}`);
      failed++;
    }
    await page.close();
  }
  if (!planted) {
    console.log('FAIL  gallery-webgpu: no run passed, so the planted defects were not tried');
    failed++;
  }
} finally {
  await browser.close();
  server.close();
}
const total = demos.length + 1;
console.log(`${total - failed} of ${total} WebGPU gallery checks passed (${demos.length} demos + the planted defects) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`xfb-test-run: cases=${total} asserts=${asserts}`); // tests/run-summary.mjs
process.exit(failed ? 1 : 0);
