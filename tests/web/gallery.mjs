// The demo gallery (build/wasm/gallery, served as `./xfb demo` serves it) in headless Chromium.
// Usage: node gallery.mjs GALLERY_DIR SCREENSHOT_DIR [entry ...]; entries (default: the demos and
// webgpu; ctest web.chromium.gallery-pages runs the others):
//   particles flock cloth trails skinning skinning:captured fireworks
//           each demo runs 60 frames and is judged here: the page (demos/app/frame_check.cpp)
//           reports its errors, the rectangles of its ImGui windows and two frames read back 10
//           steps apart with the camera still; this test counts, on its own, the scene pixels
//           outside every UI window (covered, colours) and the ones that changed (motion). A run
//           fails on an uncaught page error, a console error, a recorded error (a step that threw,
//           a GL error), the demo's own verdict, an empty scene or a frozen one.
//   webgpu  webgpu.html runs 60 frames and checks its own state read back (finite, moved)
//   engine-three engine-babylon engine-playcanvas
//           the engine pages (engines/NAME.html?frames=40) finish without error and draw
//   bench   the benchmark page (bench.html) completes a run at 1e3 and 1e4 elements with every
//           variant present and correct, shows a full progress bar, a drawn plot per size, the
//           ratio table and the JSON; a second run with one variant's state corrupted on purpose
//           (?plant=) must show that variant wrong and the others right
//   cards   every card of index.html has a decoded, non-uniform picture, says its runtimes with a
//           link for each web one, links its source, and its live preview starts on hover, moves
//           and goes away when the pointer leaves; the same judge rejects a planted uniform and a
//           planted missing picture
//   links   every href and src of every gallery page reachable from index.html answers 200, and no
//           page loaded during this run got an answer of 400 or more; the crawler finds exactly the
//           two broken links of a planted page
//   docs-images   not a check: writes docs/images/gallery.png and bench.png (README, docs)
// Every entry that screenshots a card's page (demos, engines, bench) cuts a thumbnail from it the
// way demos/web/thumbs/*.png were cut; the committed one must exist and look like it (block
// averages within STALE of each other, and nearer to its own page's than to any other card's): a
// thumbnail that no longer shows its page fails as stale. XFB_UPDATE_THUMBS=1 writes the fresh
// thumbnails into demos/web/thumbs/ instead (then rebuild: the gallery build copies them).
// Screenshots and fresh thumbnails are kept in SCREENSHOT_DIR.
import { mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';
import { CHROMIUM_ARGS } from './chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const thumbsDir = resolve(here, '../../demos/web/thumbs');
const update = process.env.XFB_UPDATE_THUMBS === '1';
const [galleryDir, shotsDir, ...only] = process.argv.slice(2);
const DEMOS = ['particles', 'flock', 'cloth', 'trails', 'skinning', 'skinning:captured', 'fireworks', 'webgpu'];
const ENGINES = ['engine-three', 'engine-babylon', 'engine-playcanvas'];
const entries = only.length ? only : DEMOS;
// The cards of index.html, each with its thumbnail (demos/web/thumbs/ID.png).
const CARDS = ['particles', 'flock', 'cloth', 'trails', 'skinning', 'fireworks', ...ENGINES, 'bench'];
const THUMB = { width: 320, height: 200 };
// Stale: the mean absolute difference of 32 x 20 block averages (0..1) between a committed
// thumbnail and this run's. The demos and engine pages draw the same frame every run (fixed time
// step, the same seeds: 0.000 on SwiftShader); the benchmark's plot has this run's figures (0.008).
// The babylon and playcanvas fountains, the two nearest cards, are 0.026 apart.
const STALE = { default: 0.015, bench: 0.04 };
const FRAMES = 60;
// What the scene alone must show: share of its pixels not of the clear colour, distinct colours
// (4 bits per channel), share of its pixels that changed between the two frames.
const NEED = { covered: 0.005, colours: 4, motion: 0.002 };
const BENCH_VARIANTS = ['xfb', 'xfb_owned', 'xfb_tf', 'xfb_fragment', 'xfb_webgpu', 'handwritten', 'three_gpgpu', 'three_tsl'];

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

// Every reason a demo run fails (empty: it passed). The page's own lines on the console
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

// ---- Pictures, in a page of their own (decoding, cutting and comparing PNGs needs no library there).
// Runs in the page: a PNG (data URL) cut to `crop` and scaled to THUMB, as a PNG data URL.
async function cutImage({ url, crop, size }) {
  const img = new Image();
  img.src = url;
  await img.decode();
  const c = Object.assign(document.createElement('canvas'), size);
  const x = c.getContext('2d');
  x.imageSmoothingQuality = 'high';
  x.drawImage(img, crop.x, crop.y, crop.width, crop.height, 0, 0, size.width, size.height);
  return c.toDataURL('image/png');
}
// Runs in the page: where a demo's scene is in its screenshot: the 2nd to 98th percentiles of x and
// y of the pixels off the clear colour, leaving out the UI windows ([x, y, w, h] from the top left).
async function sceneBox({ url, ui, clear, tolerance }) {
  const img = new Image();
  img.src = url;
  await img.decode();
  const c = Object.assign(document.createElement('canvas'), { width: img.naturalWidth, height: img.naturalHeight });
  const x = c.getContext('2d', { willReadFrequently: true });
  x.drawImage(img, 0, 0);
  const p = x.getImageData(0, 0, c.width, c.height).data, xs = [], ys = [];
  for (let py = 0; py < c.height; py += 2)
    for (let px = 0; px < c.width; px += 2) {
      if (ui.some(([rx, ry, rw, rh]) => px >= rx && px < rx + rw && py >= ry && py < ry + rh)) continue;
      const i = (py * c.width + px) * 4;
      if (Math.abs(p[i] - clear[0]) + Math.abs(p[i + 1] - clear[1]) + Math.abs(p[i + 2] - clear[2]) > tolerance) { xs.push(px); ys.push(py); }
    }
  if (xs.length < 50) return null;
  const at = (v, q) => v.sort((a, b) => a - b)[Math.floor(q * (v.length - 1))];
  return { x0: at(xs, 0.02), x1: at(xs, 0.98), y0: at(ys, 0.02), y1: at(ys, 0.98) };
}
// Runs in the page: a picture's facts (an <img> already in the page, or a data URL): decoded,
// size, distinct colours (4 bits a channel), standard deviation of the luminance (0..255) and
// its 32 x 20 block averages.
async function pictureFacts(source) {
  let img = source;
  if (typeof source === 'string') { img = new Image(); img.src = source; }
  try { await img.decode(); } catch { return { decoded: false }; }
  if (!img.naturalWidth) return { decoded: false };
  const c = Object.assign(document.createElement('canvas'), { width: img.naturalWidth, height: img.naturalHeight });
  const x = c.getContext('2d', { willReadFrequently: true });
  x.drawImage(img, 0, 0);
  const p = x.getImageData(0, 0, c.width, c.height).data;
  const colours = new Set();
  let sum = 0, sum2 = 0;
  for (let i = 0; i < p.length; i += 4) {
    colours.add(((p[i] >> 4) << 8) | ((p[i + 1] >> 4) << 4) | (p[i + 2] >> 4));
    const l = 0.2126 * p[i] + 0.7152 * p[i + 1] + 0.0722 * p[i + 2];
    sum += l;
    sum2 += l * l;
  }
  const n = p.length / 4, spread = Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2));
  const blocks = Object.assign(document.createElement('canvas'), { width: 32, height: 20 }).getContext('2d', { willReadFrequently: true });
  blocks.imageSmoothingQuality = 'high';
  blocks.drawImage(img, 0, 0, 32, 20);
  return { decoded: true, width: c.width, height: c.height, colours: colours.size, spread, blocks: Array.from(blocks.getImageData(0, 0, 32, 20).data) };
}
// Runs in the page: the share of pixels that differ (sum of |dRGB| > 24) between two PNGs of one size.
async function pixelChange([a, b]) {
  const load = async (u) => { const i = new Image(); i.src = u; await i.decode(); const c = Object.assign(document.createElement('canvas'), { width: i.naturalWidth, height: i.naturalHeight }); const x = c.getContext('2d'); x.drawImage(i, 0, 0); return x.getImageData(0, 0, c.width, c.height).data; };
  const [p, q] = await Promise.all([load(a), load(b)]);
  if (p.length !== q.length) return 1;
  let changed = 0;
  for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 24) changed++;
  return changed / (p.length / 4);
}
const dataUrl = (png) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
const blockDistance = (a, b) => { let d = 0, n = 0; for (let i = 0; i < a.length; i++) if (i % 4 !== 3) { d += Math.abs(a[i] - b[i]); n++; } return d / n / 255; };
/** A picture is a picture: decoded, at least 160 x 100, 8 colours or more and some contrast. */
const pictureProblem = (f) => !f || !f.decoded ? 'not decoded (missing or not an image)'
  : f.width < 160 || f.height < 100 ? `${f.width} x ${f.height}: too small`
    : f.colours < 8 || f.spread < 4 ? `uniform: ${f.colours} colours, luminance spread ${f.spread.toFixed(1)}` : null;

// ---- The run.
mkdirSync(join(shotsDir, 'thumbs'), { recursive: true });
const planted = mkdtempSync(join(tmpdir(), 'xfb-gallery-planted-'));
const server = await serve({ '/': resolve(galleryDir), '/npm/': resolve(galleryDir, '../npm'), '/__planted/': planted });
writeFileSync(join(planted, 'blank.html'), '<!doctype html><meta charset="utf-8"><title>tools</title><link rel="icon" href="data:,">');
// The WebGPU page presents to a canvas, which headless Chromium's SwiftShader WebGPU does only
// with Vulkan enabled (else the device is lost at the first getCurrentTexture()): its own browser.
const browsers = new Map();
const launch = async (webgpu) => browsers.get(webgpu) ?? browsers.set(webgpu, await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: webgpu ? [...CHROMIUM_ARGS, '--enable-features=Vulkan', '--use-vulkan=swiftshader'] : CHROMIUM_ARGS })).get(webgpu);
const badAnswers = []; // every answer >= 400 and every failed request, of every page of this run
const loaded = new Set(); // the pages this run loaded (pageKey)
// A page's resources depend on its path, and for the WebGPU page on its query too (?demo=NAME loads that demo's modules).
const pageKey = (url) => url.pathname + (url.pathname.endsWith('webgpu.html') ? url.search : '');
/** A page that records its console errors, failed answers and uncaught errors. */
async function open(url, { webgpu = false, viewport = { width: 1280, height: 720 } } = {}) {
  const page = await (await launch(webgpu)).newPage({ viewport });
  const log = [], consoleErrors = [];
  page.on('console', (m) => { log.push(m.text()); if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) badAnswers.push(`${r.status()} ${r.url()} (loading ${url})`); });
  page.on('requestfailed', (r) => { if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) badAnswers.push(`failed: ${r.url()} ${r.failure()?.errorText} (loading ${url})`); });
  const crashed = new Promise((_, reject) => page.on('pageerror', (e) => reject(new Error(`uncaught in the page: ${e.message}`))));
  crashed.catch(() => {});
  // The engine pages import their engines as ES modules, Babylon.js in over a thousand files: on a
  // loaded 2-core CI machine the load event took over playwright's default 30 s once.
  await page.goto(`${server.url}/${url}`, { timeout: 180_000 });
  loaded.add(pageKey(new URL(`${server.url}/${url}`)));
  return { page, log, consoleErrors, crashed };
}
const tools = (await open('__planted/blank.html')).page;
const fresh = new Map(); // card id -> this run's thumbnail (PNG)
async function thumbnail(id, png, crop) {
  const url = await tools.evaluate(cutImage, { url: dataUrl(png), crop, size: THUMB });
  const bytes = Buffer.from(url.split(',')[1], 'base64');
  fresh.set(id, bytes);
  writeFileSync(join(shotsDir, 'thumbs', `${id}.png`), bytes);
}

let failed = 0, checks = 0, ran = 0;
/** One entry's verdict: its reasons to fail (none: it passed), a line of figures. */
function verdict(name, why, figures) {
  ran++;
  checks += Math.max(1, figures.checks ?? 1);
  console.log(`${why.length ? 'FAIL' : 'PASS'}  gallery: ${name}: ${figures.line ?? figures}`);
  for (const w of why) console.log(`      ${w}`);
  if (why.length) failed++;
}

async function runDemo(entry) {
  const [demo, variant] = entry.split(':');
  const { page, log, consoleErrors, crashed } = await open(demo === 'webgpu' ? `webgpu.html?frames=${FRAMES}` : `demo.html?demo=${demo}&frames=${FRAMES}${variant ? `&variant=${variant}` : ''}`, { webgpu: demo === 'webgpu' });
  try {
    // 'webgpu': the WebGPU page (npm package, not the C++ gallery program); it checks its own
    // state read back after FRAMES frames (finite, most values moved), judged with its console.
    await Promise.race([page.waitForFunction(() => window.__demoDone, null, { timeout: 180_000 }), crashed]);
    const shotPath = join(shotsDir, `web-${entry.replace(':', '-')}.png`);
    const png = await page.screenshot({ path: shotPath });
    if (demo === 'webgpu') {
      const done = await page.evaluate(() => window.__demoDone);
      const why = [...consoleErrors.map((e) => `console error: ${e}`), ...(done.ok ? [] : [`page check: ${JSON.stringify(done)}`])];
      verdict(entry, why, `${done.moved} values moved after ${done.steps} steps, finite ${done.finite} -> ${shotPath}`);
      return;
    }
    const done = await page.evaluate(() => ({ ...window.__demoDone, frames: undefined }));
    const stats = await page.evaluate(sceneStatistics, { clear: [5, 6, 10], tolerance: 12 }); // the demos' clear colour, as bytes
    const why = judge(done, stats, consoleErrors);
    const figures = stats && `covered ${stats.covered.toFixed(4)}, ${stats.colours} colours, motion ${stats.motion?.toFixed(4)} (frames ${stats.frames.join(', ')})`;
    verdict(entry, why, { line: `${figures}, ui ${JSON.stringify(done.ui)} -> ${shotPath}`, checks: 4 });
    if (!variant && CARDS.includes(demo)) await thumbnail(demo, png, await demoFraming(png, done.ui ?? [], page.viewportSize()));
  } catch (e) {
    verdict(entry, [e.message, ...log.slice(-5)], 'did not finish');
  } finally {
    await page.close();
  }
}

/** A demo card's framing: 16:10 around the scene (sceneBox), at least 400 pixels wide, right of
 *  the UI windows on the left (a scene wider than the rest is cut), inside the screenshot. */
async function demoFraming(png, ui, { width, height }) {
  const box = await tools.evaluate(sceneBox, { url: dataUrl(png), ui, clear: [5, 6, 10], tolerance: 12 });
  const panel = Math.max(0, ...ui.filter(([x]) => x < width / 2).map(([x, , w]) => x + w)) + 8;
  const aspect = THUMB.width / THUMB.height;
  const b = box ?? { x0: panel, x1: width, y0: 0, y1: height };
  let w = Math.max(400, (b.x1 - b.x0) * 1.15, (b.y1 - b.y0) * 1.15 * aspect);
  w = Math.min(w, Math.max(400, width - panel), height * aspect); // never over the panel but for a narrow window
  const h = w / aspect;
  let x = (b.x0 + b.x1) / 2 - w / 2, y = (b.y0 + b.y1) / 2 - h / 2;
  x = Math.max(x, Math.min(panel, width - w)); // right of the panel, as far as the width allows
  x = Math.min(Math.max(0, x), width - w);
  y = Math.min(Math.max(0, y), height - h);
  return { x: Math.round(x), y: Math.round(y), width: Math.round(w), height: Math.round(h) };
}

async function runEngine(entry) {
  const engine = entry.replace('engine-', '');
  const { page, log, consoleErrors, crashed } = await open(`engines/${engine}.html?frames=40`);
  try {
    await Promise.race([page.waitForFunction(() => window.__demoDone, null, { timeout: 120_000 }), crashed]);
    const done = await page.evaluate(() => window.__demoDone);
    const why = [...consoleErrors.map((e) => `console error: ${e}`)];
    if (!done.ok) why.push(`the page failed: ${done.error}`);
    else if (!(done.content.upper > 40 && done.content.lower > 5000)) why.push(`nothing drawn: ${JSON.stringify(done.content)}`);
    const png = await page.locator('canvas').screenshot({ path: join(shotsDir, `web-${entry}.png`) });
    verdict(entry, why, { line: `40 frames, ${JSON.stringify(done.content)}`, checks: 2 });
    await thumbnail(entry, png, { x: 0, y: 40, width: 640, height: 400 }); // the 640 x 480 canvas, 16:10
  } catch (e) {
    verdict(entry, [e.message, ...log.slice(-5)], 'did not finish');
  } finally {
    await page.close();
  }
}

async function runBench() {
  // A run of two small sizes, every variant; judged from window.__benchDone and from what the page shows.
  // An even count of rounds: the median shown must be the mean of the middle two.
  const { page, log, consoleErrors, crashed } = await open('bench.html?sizes=1e3,1e4&rounds=4&run', { viewport: { width: 1280, height: 800 } });
  try {
    const t0 = Date.now();
    await Promise.race([page.waitForFunction(() => window.__benchDone, null, { timeout: 300_000 }), crashed]);
    const done = await page.evaluate(() => window.__benchDone);
    const shown = await page.evaluate(() => ({
      panels: [...document.querySelectorAll('.size')].map((p) => {
        const c = p.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, colours = new Set();
        for (let i = 0; i < d.length; i += 4) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        return { elements: Number(p.dataset.elements), progress: p.querySelector('progress').value, colours: colours.size, checks: p.querySelectorAll('.checks .ok').length };
      }),
      tableRows: document.querySelectorAll('#ratios tr').length - 1,
      spreads: [...document.querySelectorAll('#ratios td small')].filter((e) => /^rounds [0-9.]+–[0-9.]+$/.test(e.textContent)).length,
      tableCells: document.querySelectorAll('#ratios td').length,
      json: document.getElementById('json').textContent,
      gpu: document.getElementById('gpu').textContent,
    }));
    const why = consoleErrors.map((e) => `console error: ${e}`);
    if (!done.ok) why.push(`the run failed: ${done.error}`);
    const rows = done.results?.rows ?? [];
    if (rows.map((r) => r.elements).join() !== '1000,10000') why.push(`rows for ${rows.map((r) => r.elements).join()} elements, expected 1000,10000`);
    for (const row of rows)
      for (const id of BENCH_VARIANTS) {
        const r = row.variants[id];
        if (!r) why.push(`${row.elements}: ${id} did not run (${done.results.variants.find((v) => v.id === id)?.why ?? 'no reason given'})`);
        else if (r.error || !r.correct) why.push(`${row.elements}: ${id} is wrong: ${r.error ?? r.first_difference}`);
        else if (!(r.ms > 0) || r.rounds_ms.length !== 4 || !(r.checked >= 900)) why.push(`${row.elements}: ${id}: ${JSON.stringify(r)}`);
        else {
          const s = [...r.rounds_ms].sort((a, b) => a - b), mid = (s[1] + s[2]) / 2; // rounds_ms are rounded to 1e-4
          if (!(Math.abs(r.ms - mid) <= 2e-4)) why.push(`${row.elements}: ${id}: median ${r.ms}, not the mean of the middle two of ${s.join(', ')}`);
          if (!(Math.abs(r.min_ms - s[0]) <= 1e-4 && Math.abs(r.max_ms - s[3]) <= 1e-4)) why.push(`${row.elements}: ${id}: spread ${r.min_ms}-${r.max_ms}, rounds ${s.join(', ')}`);
          if (r.backend === 'auto') why.push(`${row.elements}: ${id}: timed before 'auto' chose its backend (${r.backend_reason})`);
        }
      }
    if (shown.panels.length !== 2) why.push(`${shown.panels.length} size panels shown, expected 2`);
    for (const p of shown.panels) {
      if (p.progress !== 1) why.push(`${p.elements}: progress bar at ${p.progress}`);
      if (p.colours < 8) why.push(`${p.elements}: the plot is empty (${p.colours} colours)`);
      if (p.checks !== BENCH_VARIANTS.length) why.push(`${p.elements}: ${p.checks} variants shown correct, expected ${BENCH_VARIANTS.length}`);
    }
    if (shown.tableRows !== 2 || shown.tableCells !== 2 * (BENCH_VARIANTS.length + 1)) why.push(`ratio table: ${shown.tableRows} rows, ${shown.tableCells} cells`);
    if (shown.spreads !== 2 * BENCH_VARIANTS.length) why.push(`ratio table: ${shown.spreads} spreads (rounds min–max) shown, expected ${2 * BENCH_VARIANTS.length}`);
    let json = null;
    try { json = JSON.parse(shown.json); } catch (e) { why.push(`the JSON shown does not parse: ${e.message}`); }
    if (json && json.rows.length !== 2) why.push(`the JSON shown has ${json.rows.length} rows`);
    if (!done.results?.gpu?.webgl2?.renderer || !shown.gpu.includes(done.results.gpu.webgl2.renderer)) why.push(`the GPU's name is not shown: ${shown.gpu}`);
    if (!done.results?.gpu?.webgpu) why.push('no WebGPU adapter info');
    const figures = rows.map((row) => `${row.elements}: ${Object.entries(row.variants).map(([id, r]) => `${id} ${r.ms?.toFixed(2)} ms${r.exact ? '' : ' (not bit-identical)'}`).join(', ')}`).join('; ');
    verdict('bench', why, { line: `${((Date.now() - t0) / 1000).toFixed(1)} s; ${figures}`, checks: 5 * BENCH_VARIANTS.length + 9 });
    // The card's picture: the first size's panel (title, progress, plot).
    const box = await page.locator('.size').first().boundingBox();
    const png = await page.screenshot({ path: join(shotsDir, 'web-bench.png'), fullPage: true });
    if (box) await thumbnail('bench', png, { x: Math.round(box.x), y: Math.round(box.y), width: 640, height: 400 });
  } catch (e) {
    verdict('bench', [e.message, ...log.slice(-5)], 'did not finish');
  } finally {
    await page.close();
  }
  // The check can fail: one variant's state corrupted after the run (?plant=) must be reported wrong.
  const planted = await open('bench.html?sizes=1e3&rounds=1&only=xfb,three_gpgpu&plant=three_gpgpu&run');
  try {
    await Promise.race([planted.page.waitForFunction(() => window.__benchDone, null, { timeout: 120_000 }), planted.crashed]);
    const row = (await planted.page.evaluate(() => window.__benchDone)).results.rows[0];
    const why = [];
    if (row?.variants.xfb?.correct !== true) why.push(`xfb: ${JSON.stringify(row?.variants.xfb)}`);
    if (row?.variants.three_gpgpu?.correct !== false) why.push(`the planted difference was not found: ${JSON.stringify(row?.variants.three_gpgpu)}`);
    verdict('bench-planted', why, { line: `three_gpgpu corrupted on purpose: ${row?.variants.three_gpgpu?.first_difference}`, checks: 2 });
  } catch (e) {
    verdict('bench-planted', [e.message], 'did not finish');
  } finally {
    await planted.page.close();
  }
}

// Runs in the page: what each card of the page holds.
async function cardFacts(facts) {
  const stats = new Function(`return ${facts}`)();
  return Promise.all([...document.querySelectorAll('.card')].map(async (card) => {
    const img = card.querySelector('.shot img');
    return {
      id: card.id, runtimes: (card.dataset.runtimes ?? '').split(/\s+/).filter(Boolean), preview: card.dataset.preview ?? null,
      picture: img ? await stats(img) : null, src: img?.getAttribute('src'),
      links: [...card.querySelectorAll('.runs .rt')].map((a) => ({ text: a.textContent.trim(), href: a.getAttribute('href') })),
      source: card.querySelector('a.source')?.getAttribute('href') ?? null,
    };
  }));
}
const RUNTIME_NAMES = { webgl2: 'WebGL2', webgpu: 'WebGPU', native: 'native' };
function cardProblems(card) {
  const why = [];
  const picture = pictureProblem(card.picture);
  if (picture) why.push(`picture ${card.src}: ${picture}`);
  if (!card.runtimes.length) why.push('no runtime named (data-runtimes)');
  for (const r of card.runtimes) {
    const shown = card.links.find((l) => l.text === RUNTIME_NAMES[r]);
    if (!RUNTIME_NAMES[r]) why.push(`unknown runtime ${r}`);
    else if (!shown) why.push(`runtime ${r} is not shown`);
    else if (r !== 'native' && !shown.href) why.push(`runtime ${r} is not a link`);
  }
  if (!card.source) why.push('no link to its source');
  return why;
}

async function runCards() {
  const { page, consoleErrors, crashed } = await open('index.html');
  try {
    await page.waitForLoadState('load');
    const cards = await Promise.race([page.evaluate(cardFacts, pictureFacts.toString()), crashed]);
    const why = [];
    const ids = cards.map((c) => c.id);
    if (ids.join() !== CARDS.join()) why.push(`cards ${ids.join(', ')}; expected ${CARDS.join(', ')}`);
    for (const card of cards) why.push(...cardProblems(card).map((w) => `${card.id}: ${w}`));
    // The live preview: hovering starts the card's page in a frame over the picture, which moves; leaving removes it.
    const previews = [];
    for (const card of cards.filter((c) => c.preview)) {
      const shot = page.locator(`#${card.id} .shot`);
      await shot.hover();
      try {
        await page.waitForFunction((id) => document.querySelector(`#${id} iframe.shown`), card.id, { timeout: 60_000 });
        // The frame covers the thumbnail; its page starts (a demo: its wasm, its first steps): a
        // picture within 45 s, then 1.5 s later another, which must differ.
        let a, picture;
        const deadline = Date.now() + 45_000;
        do {
          await page.waitForTimeout(1000);
          a = await shot.screenshot({ timeout: 90_000 }); // a frame starting its page may block for seconds on a loaded machine
          picture = await tools.evaluate(pictureFacts, dataUrl(a));
        } while (pictureProblem(picture) && Date.now() < deadline);
        await page.waitForTimeout(1500);
        const b = await shot.screenshot({ timeout: 90_000 });
        const src = await page.evaluate((id) => document.querySelector(`#${id} iframe`).getAttribute('src'), card.id);
        const change = await tools.evaluate(pixelChange, [dataUrl(a), dataUrl(b)]);
        previews.push(`${card.id} ${(change * 100).toFixed(1)}%`);
        if (src !== card.preview) why.push(`${card.id}: the preview frame shows ${src}, expected ${card.preview}`);
        if (pictureProblem(picture)) why.push(`${card.id}: the live preview shows no picture: ${pictureProblem(picture)}`);
        if (!(change >= 0.002)) why.push(`${card.id}: the live preview does not move (${(change * 100).toFixed(2)}% of its pixels changed in 1.5 s)`);
      } catch (e) {
        why.push(`${card.id}: no live preview on hover: ${e.message}`);
      }
      await page.mouse.move(1, 1);
      await page.waitForTimeout(100);
      if (await page.evaluate((id) => document.querySelector(`#${id} iframe`), card.id)) why.push(`${card.id}: the preview stays after the pointer left`);
    }
    why.push(...consoleErrors.map((e) => `console error: ${e}`));
    verdict('cards', why, { line: `${cards.length} cards, pictures ${cards.map((c) => `${c.id} ${c.picture?.width}x${c.picture?.height}/${c.picture?.colours}`).join(', ')}; previews moving: ${previews.join(', ')}`, checks: cards.length * 4 + previews.length * 3 + 1 });
  } catch (e) {
    verdict('cards', [e.message], 'did not finish');
  } finally {
    await page.close();
  }
  // The judge can fail: a uniform picture and a missing one, among good cards, are exactly what it rejects.
  const uniform = await tools.evaluate(() => { const c = Object.assign(document.createElement('canvas'), { width: 320, height: 200 }); const x = c.getContext('2d'); x.fillStyle = '#203040'; x.fillRect(0, 0, 320, 200); return c.toDataURL('image/png'); });
  writeFileSync(join(planted, 'uniform.png'), Buffer.from(uniform.split(',')[1], 'base64'));
  writeFileSync(join(planted, 'particles.png'), readFileSync(join(galleryDir, 'thumbs/particles.png')));
  const card = (id, src) => `<article class="card" id="${id}" data-runtimes="webgl2"><div class="shot"><img src="${src}"></div><p class="runs"><a class="rt" href="x">WebGL2</a></p><a class="source" href="y">source</a></article>`;
  writeFileSync(join(planted, 'cards.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${card('good', 'particles.png')}${card('uniform', 'uniform.png')}${card('missing', 'missing.png')}${card('good2', 'particles.png')}`);
  const plantedPage = (await open('__planted/cards.html')).page;
  try {
    await plantedPage.waitForLoadState('load');
    const rejected = (await plantedPage.evaluate(cardFacts, pictureFacts.toString())).filter((c) => cardProblems(c).length).map((c) => c.id);
    verdict('cards-planted', rejected.join() === 'uniform,missing' ? [] : [`rejected: ${rejected.join(', ') || 'none'}; expected uniform, missing`], { line: `rejected ${rejected.join(', ')}`, checks: 4 });
  } finally {
    await plantedPage.close();
  }
  badAnswers.splice(0, badAnswers.length, ...badAnswers.filter((a) => !a.includes('/__planted/missing.png'))); // planted on purpose
}

/** Crawls from `start` (a path): every href and src of every same-origin HTML page reached, each
 *  fetched; `follow`: go on to the pages found. Resolves to { pages, links, broken }. */
async function crawl(start, follow) {
  const pages = new Set(), checked = new Map(), broken = [], queue = [start];
  while (queue.length) {
    const path = queue.shift();
    if (pages.has(path)) continue;
    pages.add(path);
    const url = new URL(path, server.url);
    const html = await (await fetch(url)).text();
    for (const m of html.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
      const raw = m[1] ?? m[2];
      if (/^(data:|javascript:|mailto:|#)/.test(raw) || raw === '') continue;
      const target = new URL(raw.replaceAll('&amp;', '&'), url);
      if (target.origin !== server.url) { broken.push(`${path}: ${raw}: outside the gallery (it is served offline; cannot be checked)`); continue; }
      target.hash = '';
      if (!checked.has(target.href)) checked.set(target.href, (await fetch(target)).status);
      if (checked.get(target.href) !== 200) broken.push(`${path}: ${raw} answers ${checked.get(target.href)}`);
      else if (follow && target.pathname.endsWith('.html')) queue.push(target.pathname + target.search);
    }
  }
  return { pages: [...pages], links: checked.size, broken };
}

async function runLinks() {
  const why = [];
  const { pages, links, broken } = await crawl('/index.html', true);
  why.push(...broken);
  // Load every page reached that this run did not load yet (its scripts, modules and images are
  // fetched then), a few seconds each; then no answer of 400 or more anywhere in this run.
  for (const path of pages) {
    if (loaded.has(pageKey(new URL(path, server.url)))) continue;
    const { page } = await open(path.slice(1), { webgpu: path.includes('webgpu') });
    await page.waitForLoadState('load').catch(() => {});
    await page.waitForTimeout(1500);
    await page.close();
  }
  why.push(...badAnswers.map((a) => `answer: ${a}`));
  verdict('links', why, { line: `${pages.length} pages, ${links} distinct links, all 200; pages: ${pages.join(' ')}`, checks: links + pages.length });
  // The crawler can fail: a planted page with one good and two broken links.
  writeFileSync(join(planted, 'links.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><a href="../../index.html">good</a> <a href="missing.html">broken</a> <img src="../../thumbs/none.png">');
  const plantedRun = await crawl('/__planted/links.html', false);
  verdict('links-planted', plantedRun.broken.length === 2 ? [] : [`found ${plantedRun.broken.length} broken links, expected 2: ${plantedRun.broken.join('; ')}`], { line: plantedRun.broken.join('; '), checks: 1 });
}

/** Each thumbnail cut in this run against the committed ones: its own must exist, be a picture,
 *  be within STALE of it and be the nearest of all the committed thumbnails. */
async function compareThumbs() {
  if (!fresh.size) return;
  if (update) mkdirSync(thumbsDir, { recursive: true });
  const committed = new Map();
  for (const id of CARDS) {
    const file = join(thumbsDir, `${id}.png`);
    if (existsSync(file)) committed.set(id, await tools.evaluate(pictureFacts, dataUrl(readFileSync(file))));
  }
  for (const [id, png] of fresh) {
    const file = join(thumbsDir, `${id}.png`);
    if (update) {
      writeFileSync(file, png);
      verdict(`thumbnail ${id}`, [], `written to ${file} (XFB_UPDATE_THUMBS=1; ${png.length} bytes)`);
      continue;
    }
    if (!committed.has(id)) { verdict(`thumbnail ${id}`, [`${file} is missing: make it with XFB_UPDATE_THUMBS=1 node tests/web/gallery.mjs GALLERY_DIR SCREENSHOT_DIR ${id}`], 'missing'); continue; }
    const problem = pictureProblem(committed.get(id));
    if (problem) { verdict(`thumbnail ${id}`, [`the committed thumbnail: ${problem}`], 'unusable'); continue; }
    const now = await tools.evaluate(pictureFacts, dataUrl(png));
    const distances = [...committed].filter(([, f]) => f.decoded).map(([other, f]) => [other, blockDistance(f.blocks, now.blocks)]);
    const own = distances.find(([other]) => other === id)[1];
    const nearest = distances.filter(([other]) => other !== id).reduce((a, b) => (b[1] < a[1] ? b : a), [null, Infinity]);
    const why = [], limit = STALE[id] ?? STALE.default;
    if (own > limit) why.push(`stale: this run's differs from it by ${own.toFixed(3)} (at most ${limit}); remake it with XFB_UPDATE_THUMBS=1`);
    if (nearest[1] <= own) why.push(`stale: this run's looks more like ${nearest[0]}.png (${nearest[1].toFixed(3)}) than like ${id}.png (${own.toFixed(3)})`);
    // The check can fail: another card's thumbnail in this one's place would be found stale.
    if (nearest[1] <= limit) why.push(`${nearest[0]}.png is within ${limit} of this run's ${id} too: the comparison cannot tell them apart`);
    verdict(`thumbnail ${id}`, why, { line: `this run's differs from ${id}.png by ${own.toFixed(4)}, from the nearest other (${nearest[0]}.png) by ${nearest[1].toFixed(4)}`, checks: 3 });
  }
}

/** docs/images/gallery.png and bench.png (README, docs/performance.md): the index and a benchmark
 *  run at 1e4 and 1e5, scaled down and their colours rounded (each well under 200 KB). Not a check:
 *  run on demand (`node tests/web/gallery.mjs GALLERY_DIR SCREENSHOT_DIR docs-images`). */
async function docsImages() {
  const shrink = async (png, width, step) => Buffer.from((await tools.evaluate(async ({ url, width, step }) => {
    const i = new Image();
    i.src = url;
    await i.decode();
    const c = Object.assign(document.createElement('canvas'), { width, height: Math.round((i.naturalHeight * width) / i.naturalWidth) });
    const x = c.getContext('2d');
    x.imageSmoothingQuality = 'high';
    x.drawImage(i, 0, 0, c.width, c.height);
    const d = x.getImageData(0, 0, c.width, c.height);
    for (let k = 0; k < d.data.length; k++) if (k % 4 !== 3) d.data[k] = Math.min(255, Math.round(d.data[k] / step) * step);
    x.putImageData(d, 0, 0);
    return c.toDataURL('image/png');
  }, { url: dataUrl(png), width, step })).split(',')[1], 'base64');
  const out = resolve(here, '../../docs/images');
  mkdirSync(out, { recursive: true });
  const index = await open('index.html', { viewport: { width: 1400, height: 900 } });
  await index.page.waitForTimeout(1500);
  writeFileSync(join(out, 'gallery.png'), await shrink(await index.page.screenshot({ clip: { x: 0, y: 0, width: 1400, height: 760 } }), 840, 16));
  await index.page.close();
  const bench = await open('bench.html?sizes=1e4,1e5&rounds=3&run', { viewport: { width: 1100, height: 900 } });
  await bench.page.waitForFunction(() => window.__benchDone, null, { timeout: 300_000 });
  const [top, bottom] = await bench.page.evaluate(() => [document.querySelector('h1').getBoundingClientRect().top + scrollY - 12, document.querySelector('#ratios').getBoundingClientRect().bottom + scrollY + 20]);
  writeFileSync(join(out, 'bench.png'), await shrink(await bench.page.screenshot({ clip: { x: 0, y: top, width: 1100, height: Math.round(bottom - top) }, fullPage: true }), 640, 32));
  await bench.page.close();
  verdict('docs-images', [], `written to ${out}: gallery.png, bench.png`);
}

try {
  for (const entry of entries) {
    if (DEMOS.includes(entry)) await runDemo(entry);
    else if (ENGINES.includes(entry)) await runEngine(entry);
    else if (entry === 'bench') await runBench();
    else if (entry === 'cards') await runCards();
    else if (entry === 'links') await runLinks();
    else if (entry === 'docs-images') await docsImages();
    else verdict(entry, [`unknown entry (${[...DEMOS, ...ENGINES, 'bench', 'cards', 'links'].join(', ')})`], 'not run');
  }
  await compareThumbs();
} finally {
  for (const b of browsers.values()) await b.close();
  server.close();
}
console.log(`${ran - failed} of ${ran} gallery checks passed`);
console.log(`xfb-test-run: cases=${ran} asserts=${checks}`);
process.exit(failed ? 1 : 0);
