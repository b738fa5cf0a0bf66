// The gallery's benchmark page (bench.html): the controls, a progress bar and a plot per size, the
// ratio table and the JSON, around the shared implementation in core.js (which tests/web/page/bench.js
// runs too). Query string: ?sizes=1e4,1e5&rounds=3&only=xfb,handwritten&run starts a run at once;
// the page then publishes window.__benchDone = { ok, error, results } (tests/web/gallery.mjs, which
// also plants a wrong value in one variant's state with &plant=ID to see the check fail).
import { VARIANTS, createBench, median } from './core.js';

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const SIZES = [1e4, 1e5, 1e6, 4e6];
const COLOURS = { xfb: '#4d8fdc', hand: '#9aa6b2', three: '#56c28a' };
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const elements = (n) => n.toLocaleString('en-US');
const parseSizes = (s) => s.split(',').map((x) => Math.round(Number(x.trim()))).filter((n) => Number.isFinite(n) && n >= 1 && n <= 16e6);

const picked = query.has('sizes') ? parseSizes(query.get('sizes')) : [1e4, 1e5];
if (query.has('rounds')) $('rounds').value = query.get('rounds');
const sizesField = $('sizes-field');
for (const n of SIZES) sizesField.insertAdjacentHTML('beforeend', `<label><input type="checkbox" name="size" value="${n}" ${picked.includes(n) ? 'checked' : ''}> ${elements(n)}</label>`);
const custom = picked.filter((n) => !SIZES.includes(n));
sizesField.insertAdjacentHTML('beforeend', `<label>other: <input id="custom" type="text" size="14" placeholder="e.g. 2e5, 3e6" value="${custom.join(', ')}"></label>`);

const results = { page: 'xfb gallery benchmark', date: new Date().toISOString(), userAgent: navigator.userAgent, gpu: null, variants: [], rows: [] };
const publish = () => { $('json').textContent = JSON.stringify(results, null, 2); };
let bench = null, controller = null;

try {
  bench = await createBench({ only: query.has('only') ? query.get('only').split(',') : undefined });
  results.gpu = bench.gpu;
  results.variants = bench.variants.map(({ id, label, detail, api, available, why }) => ({ id, label, detail, api, available, why }));
  showGpu(bench.gpu);
  const field = $('variants-field');
  for (const v of bench.variants)
    field.insertAdjacentHTML('beforeend', `<label class="${v.available ? '' : 'unavailable'}" title="${v.why ?? v.detail}">` +
      `<input type="checkbox" name="variant" value="${v.id}" ${v.available ? 'checked' : 'disabled'}> ${v.label}${v.available ? '' : ' (not here)'}</label>`);
  publish();
  $('run').disabled = false;
  $('status').textContent = bench.variants.filter((v) => !v.available).map((v) => `${v.label}: ${v.why}`).join('; ');
} catch (e) {
  $('gpu').textContent = `The benchmark could not start: ${e.message}`;
  window.__benchDone = { ok: false, error: `set-up: ${e.message}`, results };
}

function showGpu(gpu) {
  const rows = [];
  if (gpu.webgl2) rows.push(['WebGL2', `${gpu.webgl2.renderer} (${gpu.webgl2.vendor})`]);
  else rows.push(['WebGL2', 'not available']);
  if (gpu.webgpu) rows.push(['WebGPU', [gpu.webgpu.description || gpu.webgpu.device, gpu.webgpu.vendor, gpu.webgpu.architecture].filter(Boolean).join(', ') + (gpu.webgpu.fallback ? ' (fallback adapter: software)' : '')]);
  else rows.push(['WebGPU', navigator.gpu ? 'no adapter' : 'not in this browser']);
  rows.push(['Browser', navigator.userAgent]);
  const gpuBox = $('gpu');
  gpuBox.textContent = '';
  const dl = document.createElement('dl');
  for (const [k, v] of rows) dl.append(Object.assign(document.createElement('dt'), { textContent: k }), Object.assign(document.createElement('dd'), { textContent: v }));
  gpuBox.append(dl);
}

/** One size's panel: title, progress bar, phase, plot, checks. */
function panel(n, variants) {
  const box = document.createElement('section');
  box.className = 'size box';
  box.dataset.elements = n;
  box.innerHTML = `<h3>${elements(n)} elements</h3><progress max="1" value="0"></progress><div class="phase"></div><canvas></canvas><div class="checks"></div>`;
  $('runs').append(box);
  const canvas = box.querySelector('canvas'), samples = Object.fromEntries(variants.map((v) => [v.id, []]));
  const rowH = 22, left = 230, width = Math.max(480, Math.min(900, box.clientWidth - 40)), height = variants.length * rowH + 26, dpr = Math.min(2, devicePixelRatio || 1);
  canvas.width = width * dpr;
  canvas.height = height * dpr;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const draw = (medians = {}) => {
    const c = canvas.getContext('2d');
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.fillStyle = '#0b1018';
    c.fillRect(0, 0, width, height);
    const all = Object.values(samples).flat(), max = Math.max(1e-3, ...all) * 1.02, scale = (ms) => left + (ms / max) * (width - left - 80);
    c.font = '12px system-ui, sans-serif';
    c.textBaseline = 'middle';
    // Axis: 0 and max, ms per step.
    c.fillStyle = '#6c7682';
    c.fillText('0', left - 3, height - 10);
    c.fillText(`${fmt(max)} ms per step`, width - 130, height - 10);
    variants.forEach((v, i) => {
      const y = 8 + i * rowH, xs = samples[v.id], m = medians[v.id] ?? (xs.length ? median(xs) : null);
      c.fillStyle = '#c9d6e6';
      c.fillText(v.label, 6, y + 7);
      if (m !== null) {
        c.fillStyle = COLOURS[v.family];
        c.globalAlpha = 0.75;
        c.fillRect(left, y, scale(m) - left, 14);
        c.globalAlpha = 1;
        c.fillStyle = '#fff';
        if (xs.length > 1) c.fillRect(scale(Math.min(...xs)), y + 6, scale(Math.max(...xs)) - scale(Math.min(...xs)), 2); // the spread, min to max
        for (const x of xs) c.fillRect(scale(x) - 1, y + 2, 2, 10);
        c.fillStyle = '#dde3ea';
        c.fillText(`${fmt(m)} ms`, scale(Math.max(m, ...xs)) + 6, y + 7); // right of the bar and of every round's tick
      }
    });
  };
  draw();
  return {
    box,
    progress({ fraction, phase }) { box.querySelector('progress').value = fraction; box.querySelector('.phase').textContent = phase; },
    sample(id, ms) { samples[id]?.push(ms); draw(); },
    finish(row) {
      draw(Object.fromEntries(Object.entries(row.variants).map(([id, r]) => [id, r.ms])));
      box.querySelector('progress').value = 1;
      box.querySelector('.phase').textContent = 'done';
      box.querySelector('.checks').innerHTML = Object.entries(row.variants).map(([id, r]) => {
        const v = VARIANTS.find((x) => x.id === id);
        if (r.error) return `<span class="bad">✗ ${v.label}: ${r.error}</span>`;
        return r.correct ? `<span class="ok">${r.exact ? '✓' : '≈'}</span> ${v.label} (${r.steps} steps, ${r.checked} elements checked${r.exact ? ', bit-identical' : `, max error ${r.max_error.toExponential(1)}`})`
          : `<span class="bad">✗ ${v.label}: ${r.first_difference}</span>`;
      }).join('<br>');
    },
  };
}

function table() {
  const ids = VARIANTS.map((v) => v.id).filter((id) => results.rows.some((r) => r.variants[id]));
  const head = `<tr><th>elements</th>${ids.map((id) => `<th>${VARIANTS.find((v) => v.id === id).label}</th>`).join('')}</tr>`;
  const body = results.rows.map((row) => `<tr><td>${elements(row.elements)}</td>${ids.map((id) => {
    const r = row.variants[id];
    if (!r) return '<td>–</td>';
    if (r.error) return '<td class="bad">✗ failed</td>';
    const mark = r.correct ? (r.exact ? '<span class="ok">✓</span>' : '<span class="ok">≈</span>') : '<span class="bad">✗</span>';
    const ratio = row.ratios[`xfb/${id}`];
    const spread = r.min_ms !== undefined ? `<small>rounds ${fmt(r.min_ms)}–${fmt(r.max_ms)}</small>` : '';
    return `<td>${fmt(r.ms)} ms ${mark}${spread}${ratio !== undefined ? `<small>xfb / this: ${ratio.toFixed(2)}</small>` : id === 'xfb' ? '<small>baseline</small>' : ''}</td>`;
  }).join('')}</tr>`).join('');
  $('ratios').innerHTML = head + body;
}

async function run(sizes, rounds, only) {
  controller = new AbortController();
  $('run').disabled = true;
  $('stop').disabled = false;
  $('runs').textContent = '';
  results.rows = [];
  results.date = new Date().toISOString();
  results.rounds = rounds;
  const variants = bench.variants.filter((v) => v.available && only.includes(v.id));
  try {
    const panels = sizes.map((n) => panel(n, variants));
    for (const [i, n] of sizes.entries()) {
      $('status').textContent = `running ${elements(n)} elements (${i + 1} of ${sizes.length})`;
      const p = panels[i];
      const row = await bench.runSize(n, { rounds, only, plant: query.get('plant') ?? undefined, signal: controller.signal, onProgress: (e) => p.progress(e), onSample: (id, ms) => p.sample(id, ms) });
      p.finish(row);
      results.rows.push(row);
      table();
      publish();
    }
    $('status').textContent = `done: ${sizes.length} sizes`;
    return { ok: true };
  } catch (e) {
    $('status').textContent = e.name === 'AbortError' ? 'stopped' : `failed: ${e.message}`;
    return { ok: false, error: e.message };
  } finally {
    $('run').disabled = false;
    $('stop').disabled = true;
    $('copy').disabled = false;
  }
}

function chosen() {
  const sizes = [...document.querySelectorAll('input[name=size]:checked')].map((i) => Number(i.value)).concat(parseSizes($('custom').value));
  const only = [...document.querySelectorAll('input[name=variant]:checked')].map((i) => i.value);
  return { sizes: [...new Set(sizes)].sort((a, b) => a - b), rounds: Math.max(1, Math.min(50, Number($('rounds').value) || 5)), only };
}

$('controls').addEventListener('submit', async (event) => {
  event.preventDefault();
  const { sizes, rounds, only } = chosen();
  if (!sizes.length || !only.length) { $('status').textContent = 'pick at least one size and one variant'; return; }
  await run(sizes, rounds, only);
});
$('stop').addEventListener('click', () => controller?.abort());
$('copy').addEventListener('click', async () => {
  const text = JSON.stringify(results, null, 2);
  try {
    await navigator.clipboard.writeText(text);
    $('copied').textContent = 'copied';
  } catch {
    getSelection().selectAllChildren($('json')); // no clipboard permission: select it for Ctrl-C
    $('copied').textContent = 'selected: press Ctrl-C';
  }
});

if (bench && query.has('run')) {
  const { sizes, rounds, only } = chosen();
  const outcome = await run(sizes, rounds, only);
  window.__benchDone = { ...outcome, results };
}
