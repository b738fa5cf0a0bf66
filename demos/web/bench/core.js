// The browser benchmark, one implementation for two callers: the gallery's benchmark page
// (demos/web/bench.html, on the visitor's GPU) and the browser bench of `./xfb bench`
// (tests/web/page/bench.js, headless Chromium). Every variant runs the same simulation,
// shaders/bench_particles.vert (position vec4 + velocity vec4, 32 bytes read and written per
// element and step), on the same initial state:
//   xfb           the npm module with default options (WebGL2, backend 'auto': the faster of
//                 transform feedback and the fragment backend on this GPU; shared context)
//   xfb_owned     the same engine with { ownsContext: true } (no state guard)
//   xfb_tf        xfb, { backend: 'tf' }: transform feedback
//   xfb_fragment  xfb, { backend: 'fragment' }: fragment shaders over RGBA32UI textures of the
//                 buffers' words (render-to-texture, the buffers stay the truth)
//   xfb_webgpu    the npm module's WebGPU engine (the same GLSL translated to a WGSL compute pass)
//   handwritten   a hand-written WebGL2 transform-feedback loop (the 9 calls of a step, nothing else)
//   three_gpgpu   three.js GPUComputationRenderer: the same math in two fragment shaders over
//                 RGBA32F position and velocity textures (render-to-texture ping-pong)
//   three_tsl     three.js TSL compute on WebGPU (instancedArray storage, renderer.computeAsync)
// A variant the browser cannot run (no WebGPU, three.js not served, no float render targets)
// is listed with the reason and left out of the rows.
//
// Timing: all variants of a size are set up first, then timed in interleaved rounds; a round
// times a batch of steps of one variant, ended by waiting for the GPU (hand-written WebGL2 and
// three.js: a 4-byte read, getBufferSubData or readPixels, the only wait that does not yield; xfb
// on WebGL2: its own read() of one element; WebGPU: onSubmittedWorkDone); ms per step = batch
// time / batch, median of the rounds (with min and max: the spread). Before the timed rounds, untimed
// warm-up rounds of every variant (`warmup`, and until xfb's 'auto' has chosen its backend: its trial
// passes run at a first step and must not land in a timed round). The blocking waits block the page, so their batch is cut to
// what fits in BLOCK_MS once a step has been timed (the
// faster of two single steps), and every batch is followed by a yield to the event loop (a frame,
// or 50 ms when the page is hidden): the tab never freezes for longer than about one batch, and
// progress is drawn. A backend the npm module gains is one more entry in VARIANTS and in make().
// Correctness: after the rounds, each variant's state is read back and compared, on ~1000
// sampled elements, with a float32 reference (Math.fround) advanced by as many steps as that
// variant took. dt = 1/64 makes every product in the step exact, so a fused multiply-add gives
// the same bits: on any GPU a correct variant is bit-identical; `exact` says whether it was, and
// `correct` allows 1e-6 relative for drivers that compute differently.
import createXfb from '/npm/index.js';

export const FORMAT = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
export const DT = 1 / 64;
/** Where the page's modules live (both callers serve the same paths). */
export const URLS = {
  shader: '/shaders/bench_particles.vert',
  three: '/modules/three/build/three.module.js',
  threeWebgpu: '/modules/three/build/three.webgpu.js',
  threeTsl: '/modules/three/build/three.tsl.js',
  gpgpu: '/modules/three/examples/jsm/misc/GPUComputationRenderer.js',
};
const BLOCK_MS = 250; // the longest a WebGL2 batch may block the page once a step has been timed
const TOLERANCE = 1e-6;

export const VARIANTS = [
  { id: 'xfb', label: 'xfb, default options', detail: "WebGL2, backend 'auto' (the faster of transform feedback and fragment here), shared context", family: 'xfb', api: 'webgl2' },
  { id: 'xfb_owned', label: 'xfb, ownsContext', detail: "WebGL2, backend 'auto', { ownsContext: true }", family: 'xfb', api: 'webgl2' },
  { id: 'xfb_tf', label: "xfb, backend 'tf'", detail: 'WebGL2 transform feedback, shared context', family: 'xfb', api: 'webgl2' },
  { id: 'xfb_fragment', label: "xfb, backend 'fragment'", detail: 'WebGL2 fragment shaders over RGBA32UI textures of the buffers, shared context', family: 'xfb', api: 'webgl2' },
  { id: 'xfb_webgpu', label: 'xfb WebGPU', detail: 'the same GLSL as a WGSL compute pass', family: 'xfb', api: 'webgpu' },
  { id: 'handwritten', label: 'hand-written WebGL2', detail: 'a transform-feedback loop, 9 WebGL calls a step', family: 'hand', api: 'webgl2' },
  { id: 'three_gpgpu', label: 'three.js GPUComputationRenderer', detail: 'WebGL2 render-to-texture, RGBA32F position + velocity', family: 'three', api: 'webgl2' },
  { id: 'three_tsl', label: 'three.js TSL compute', detail: 'WebGPU, instancedArray + computeAsync', family: 'three', api: 'webgpu' },
];

/** The median: of an even count, the mean of the middle two (not the slower one). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Deterministic floats in [lo, hi): a linear congruential generator, the test suites' pseudoRandom. */
export function pseudoRandom(n, lo, hi, seed) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    out[i] = lo + (hi - lo) * ((seed >>> 8) / (1 << 24));
  }
  return out;
}

/** bench_particles.vert in float32 for elements 0, stride, 2 * stride, ... of an interleaved state
 *  advanced by `steps` steps: [[element, [8 floats]], ...]. */
export function benchParticlesReference(state, steps, dt = DT, stride = 1) {
  const f = Math.fround, gdt = f(f(-9.81) * dt), out = [];
  for (let e = 0; e < state.length / 8; e += stride) {
    const s = Array.from(state.subarray(e * 8, e * 8 + 8));
    for (let k = 0; k < steps; k++)
      for (let c = 0; c < 4; c++) {
        const v = c === 1 ? f(s[4 + c] + gdt) : f(s[4 + c] + f(0 * dt));
        s[c] = f(s[c] + f(v * dt));
        s[4 + c] = v;
      }
    out.push([e, s]);
  }
  return out;
}

/** The hand-written WebGL2 transform-feedback loop: two buffers, two vertex arrays, two transform
 *  feedback objects, made once; a step is 9 calls (10 when it sets dt). */
export function handwritten(gl, source, n, initial) {
  const compile = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, source));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }'));
  gl.bindAttribLocation(program, 0, 'position');
  gl.bindAttribLocation(program, 1, 'velocity');
  gl.transformFeedbackVaryings(program, ['out_position', 'out_velocity'], gl.INTERLEAVED_ATTRIBS);
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`hand-written program: ${gl.getProgramInfoLog(program)}`);
  gl.useProgram(program);
  const dt = gl.getUniformLocation(program, 'dt');
  gl.uniform1f(dt, DT);
  const buffers = [0, 1].map((i) => { const b = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, i ? initial.byteLength : initial, gl.DYNAMIC_COPY); return b; });
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  const vaos = [], tfs = [];
  for (let s = 0; s < 2; s++) {
    vaos[s] = gl.createVertexArray();
    gl.bindVertexArray(vaos[s]);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffers[s]);
    gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 32, 0);
    gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 32, 16);
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    tfs[s] = gl.createTransformFeedback();
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tfs[s]);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffers[1 - s]);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
  }
  gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
  let side = 0;
  return {
    // setDt: the hand-written setUniform (the program must be current; the first call of step).
    step(setDt) {
      gl.useProgram(program);
      if (setDt !== undefined) gl.uniform1f(dt, setDt);
      gl.bindVertexArray(vaos[side]);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tfs[side]);
      gl.enable(gl.RASTERIZER_DISCARD);
      gl.beginTransformFeedback(gl.POINTS);
      gl.drawArrays(gl.POINTS, 0, n);
      gl.endTransformFeedback();
      gl.disable(gl.RASTERIZER_DISCARD);
      gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
      side ^= 1;
    },
    current: () => buffers[side],
    program, vaos, tfs, dt,
    dispose() {
      for (const o of buffers) gl.deleteBuffer(o);
      for (const o of vaos) gl.deleteVertexArray(o);
      for (const o of tfs) gl.deleteTransformFeedback(o);
      gl.deleteProgram(program);
    },
  };
}

/** The engine's loop on one engine: a state pair and the program, dt set once. */
export function engineLoop(engine, source, n, initial, options = {}) {
  const a = engine.createBuffer({ format: FORMAT, count: n, data: initial }), b = engine.createBuffer({ format: FORMAT, count: n });
  const program = engine.createProgram({ source });
  program.setUniform('dt', DT);
  const pipeline = engine.createPipeline(program, [{ input: a, output: b }], options);
  return { a, program, pipeline, dispose() { for (const o of [pipeline, program, a, b]) o.dispose(); } };
}

/** Yields to the event loop so that the page draws: the next frame, or 50 ms when frames stop (a hidden tab). */
export const nextFrame = () => new Promise((resolve) => { const t = setTimeout(resolve, 50); requestAnimationFrame(() => { clearTimeout(t); resolve(); }); });

/** The bare specifier 'three' (GPUComputationRenderer and its FullScreenQuad import it), mapped once
 *  for a page without an import map (Chromium merges an import map added later). */
function mapThree() {
  try { import.meta.resolve('three'); return; } catch { /* not mapped yet */ }
  const map = document.createElement('script');
  map.type = 'importmap';
  map.textContent = JSON.stringify({ imports: { three: URLS.three } });
  document.head.appendChild(map);
}

/** width x height >= n texels for the render-to-texture variant: an exact factorisation near the
 *  square when there is one (1e4 = 100 x 100, 1e5 = 400 x 250, 1e6 = 1000 x 1000), else the
 *  smallest square-ish cover (the padding texels are computed too, and reported). */
export function textureShape(n, maxSize = 16384) {
  const root = Math.sqrt(n);
  for (let w = Math.ceil(root); w <= Math.min(maxSize, Math.ceil(root * 2)); w++) if (n % w === 0 && n / w <= maxSize) return [w, n / w];
  const w = Math.min(maxSize, Math.ceil(root));
  return [w, Math.ceil(n / w)];
}

/** The GPU names: WEBGL_debug_renderer_info and GPUAdapter.info (null where absent). */
export async function gpuInfo(gl) {
  const out = { webgl2: null, webgpu: null };
  if (gl) {
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    out.webgl2 = {
      vendor: gl.getParameter(ext ? ext.UNMASKED_VENDOR_WEBGL : gl.VENDOR),
      renderer: gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER),
      version: gl.getParameter(gl.VERSION),
    };
  }
  const adapter = await navigator.gpu?.requestAdapter().catch(() => null);
  if (adapter) {
    const i = adapter.info ?? {};
    out.webgpu = { vendor: i.vendor ?? '', architecture: i.architecture ?? '', device: i.device ?? '', description: i.description ?? '',
      fallback: Boolean(i.isFallbackAdapter ?? adapter.isFallbackAdapter) };
  }
  return out;
}

/** Sets up the engines every size shares. Options: source (the shader text; fetched when absent),
 *  countCalls (wraps the WebGL2 context with a call counter: calls per step are then reported),
 *  only (variant ids to run; default all). Resolves to { gl, engines, gpu, variants, runSize, dispose }. */
export async function createBench({ source, countCalls, only } = {}) {
  source ??= await (await fetch(URLS.shader)).text();
  const wanted = (id) => !only || only.includes(id);
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2');
  const calls = gl && countCalls ? countCalls(gl) : null;
  const gpu = await gpuInfo(gl);
  const why = {}; // variant id -> why it cannot run here
  const engines = { xfb: null, owned: null, webgpu: null };
  if (gl) {
    engines.xfb = await createXfb({ gl });
    engines.owned = await createXfb({ gl, ownsContext: true });
  } else for (const v of VARIANTS) if (v.api === 'webgl2') why[v.id] = 'no WebGL2 context';
  if (!navigator.gpu) why.xfb_webgpu = why.three_tsl = 'no WebGPU in this browser (navigator.gpu is missing)';
  else if (wanted('xfb_webgpu')) {
    try {
      // The largest buffers the adapter allows: the default device stops at 128 MiB (4M elements).
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) throw new Error('requestAdapter() gave no adapter');
      const { maxStorageBufferBindingSize, maxBufferSize } = adapter.limits;
      engines.webgpu = await createXfb({ device: await adapter.requestDevice({ requiredLimits: { maxStorageBufferBindingSize, maxBufferSize } }) });
    } catch (e) { why.xfb_webgpu = `WebGPU engine: ${e.message}`; }
  }
  let three = null, threeWebgpu = null;
  if (gl && wanted('three_gpgpu'))
    try {
      mapThree();
      const [THREE, { GPUComputationRenderer }] = await Promise.all([import(URLS.three), import(URLS.gpgpu)]);
      three = { THREE, GPUComputationRenderer };
    } catch (e) { why.three_gpgpu = `three.js not loaded: ${e.message}`; }
  if (navigator.gpu && wanted('three_tsl'))
    try {
      const [THREE, TSL] = await Promise.all([import(URLS.threeWebgpu), import(URLS.threeTsl)]);
      const renderer = new THREE.WebGPURenderer({ antialias: false });
      await renderer.init();
      // Without a usable adapter three.js falls back to WebGL2, where TSL compute runs as transform
      // feedback: not the variant measured here.
      if (!renderer.backend.isWebGPUBackend) { renderer.dispose(); throw new Error('three.js fell back to its WebGL2 backend'); }
      threeWebgpu = { THREE, TSL, renderer };
    } catch (e) { why.three_tsl = `three.js TSL on WebGPU: ${e.message}`; }
  const variants = VARIANTS.filter((v) => wanted(v.id)).map((v) => ({ ...v, available: !why[v.id] && (v.id !== 'xfb_webgpu' || !!engines.webgpu), why: why[v.id] ?? null }));

  /** One variant at n elements: { step(), wait() (a Promise for WebGPU), blocking, read() -> interleaved Float32Array, calls, dispose() }. */
  async function make(id, n, initial) {
    const glWait = (buffer) => { const probe = new Uint8Array(4); return () => { gl.bindBuffer(gl.COPY_READ_BUFFER, buffer()); gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe); gl.bindBuffer(gl.COPY_READ_BUFFER, null); }; };
    if (id === 'xfb' || id === 'xfb_owned' || id === 'xfb_tf' || id === 'xfb_fragment') {
      const options = { xfb_tf: { backend: 'tf' }, xfb_fragment: { backend: 'fragment' } }[id] ?? {};
      const loop = engineLoop(id === 'xfb_owned' ? engines.owned : engines.xfb, source, n, initial, options);
      // Waited for with its own read of one element, as an application reads a few (taking the
      // buffer's name would make it the application's: the fragment backend would write it back every step).
      return { step: () => loop.pipeline.step(), wait: () => loop.a.read({ count: 1 }), blocking: false, counted: true, read: () => loop.a.read(), dispose: () => loop.dispose(), backend: () => loop.pipeline.info };
    }
    if (id === 'xfb_webgpu') {
      const loop = engineLoop(engines.webgpu, source, n, initial);
      await loop.pipeline.ready;
      return { step: () => loop.pipeline.step(), wait: () => engines.webgpu.device.queue.onSubmittedWorkDone(), blocking: false, read: () => loop.a.read(), dispose: () => loop.dispose() };
    }
    if (id === 'handwritten') {
      const hand = handwritten(gl, source, n, initial);
      return {
        step: () => hand.step(), wait: glWait(hand.current), blocking: true, counted: true, dispose: () => hand.dispose(),
        read() { const out = new Float32Array(n * 8); gl.bindBuffer(gl.COPY_READ_BUFFER, hand.current()); gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, out); gl.bindBuffer(gl.COPY_READ_BUFFER, null); return out; },
      };
    }
    if (id === 'three_gpgpu') return threeGpgpu(three, n, initial);
    if (id === 'three_tsl') return threeTsl(threeWebgpu, n, initial);
    throw new Error(`unknown variant ${id}`);
  }

  const referenceCache = new Map();
  /** Times every available variant at n elements. rounds: timed rounds; onProgress({ elements,
   *  fraction, phase }); warmup: untimed rounds before them; onSample(id, ms): each round's ms per step as it comes; signal: an AbortSignal;
   *  only: a subset of the variant ids; plant: a variant id whose state read back gets one value
   *  changed before the check (tests/web/gallery.mjs shows so that the check can fail). */
  async function runSize(n, { rounds = 7, warmup = 1, onProgress = () => {}, onSample = () => {}, signal, seed = 7, only: subset, plant } = {}) {
    const run = variants.filter((v) => v.available && (!subset || subset.includes(v.id)));
    const initial = pseudoRandom(n * 8, -1, 1, seed);
    const cap = n >= 1e6 ? 3 : 10; // steps per batch at most (the bench's batches before this page)
    const total = run.length * (rounds + warmup + 3) + run.length; // set-up + warm-up + probe + warm-up rounds + rounds, then checks
    let done = 0;
    const progress = (phase) => onProgress({ elements: n, fraction: Math.min(1, done / total), phase });
    const live = {};
    const row = { elements: n, rounds, variants: {} };
    try {
      for (const v of run) {
        signal?.throwIfAborted();
        progress(`setting up ${v.label}`);
        try { live[v.id] = { ...(await make(v.id, n, initial)), steps: 0 }; } catch (e) { row.variants[v.id] = { error: `set-up failed: ${e.message}` }; }
        done++;
        await nextFrame();
      }
      const step = async (id, count) => {
        const l = live[id];
        const counting = calls && l.counted; // the variants on the shared (counted) WebGL2 context
        if (counting) calls.reset();
        const t0 = performance.now();
        for (let i = 0; i < count; i++) { const r = l.step(); if (r) await r; } // three.js's computeAsync returns a promise
        const perStep = counting ? calls.total() / count : null;
        await l.wait();
        l.steps += count;
        return { ms: (performance.now() - t0) / count, calls: perStep };
      };
      // Warm-up (compiles, first allocations), then two timed single steps to size the batch.
      for (const id of Object.keys(live)) {
        signal?.throwIfAborted();
        progress(`warming up ${id}`);
        await step(id, 2);
        done++;
        await nextFrame();
        const one = Math.min((await step(id, 1)).ms, (await step(id, 1)).ms); // the faster of two: one slice lost to another process must not shrink the batch
        live[id].batch = live[id].blocking ? Math.max(1, Math.min(cap, Math.floor(BLOCK_MS / Math.max(one, 1e-3)))) : cap;
        live[id].ms = [];
        done++;
        await nextFrame();
      }
      // Untimed rounds: every variant settled (xfb's 'auto' decided, caches warm) before any timing.
      for (let r = 0; r < warmup; r++)
        for (const id of Object.keys(live)) {
          signal?.throwIfAborted();
          progress(`warm-up round ${r + 1} of ${warmup}: ${id}`);
          await step(id, live[id].batch);
          for (let k = 0; k < 4 && live[id].backend?.().backend === 'auto'; k++) await step(id, 1);
          done++;
          await nextFrame();
        }
      for (let r = 0; r < rounds; r++)
        for (const id of Object.keys(live)) {
          signal?.throwIfAborted();
          progress(`round ${r + 1} of ${rounds}: ${id}`);
          const t = await step(id, live[id].batch);
          live[id].ms.push(t.ms);
          onSample(id, t.ms);
          if (t.calls !== null) live[id].calls = t.calls;
          done++;
          await nextFrame();
        }
      // Correctness: each state against the float32 reference advanced by as many steps.
      const stride = Math.max(1, Math.floor(n / 997));
      for (const [id, l] of Object.entries(live)) {
        signal?.throwIfAborted();
        progress(`checking ${id}`);
        const key = `${n}:${seed}:${l.steps}`;
        if (!referenceCache.has(key)) referenceCache.set(key, benchParticlesReference(initial, l.steps, DT, stride));
        const state = await l.read();
        if (id === plant) state[0] += 0.5;
        let maxError = 0, exact = true, correct = true, first = null;
        for (const [e, ref] of referenceCache.get(key))
          for (let c = 0; c < 8; c++) {
            const got = state[e * 8 + c], want = ref[c];
            if (!Object.is(got, want)) exact = false;
            const err = Math.abs(got - want);
            if (!(err <= TOLERANCE * Math.max(1, Math.abs(want)))) { correct = false; first ??= `element ${e}[${c}] is ${got}, the reference ${want}`; }
            if (Number.isFinite(err)) maxError = Math.max(maxError, err); else maxError = Infinity;
          }
        row.variants[id] = { ms: median(l.ms), min_ms: Math.min(...l.ms), max_ms: Math.max(...l.ms), rounds_ms: l.ms.map((x) => +x.toFixed(4)), batch: l.batch, steps: l.steps, correct, exact, max_error: maxError, checked: referenceCache.get(key).length,
          ...(l.calls !== undefined ? { gl_calls: l.calls } : {}), ...(first ? { first_difference: first } : {}), ...(l.texture ? { texture: l.texture } : {}),
          ...(l.backend ? { backend: l.backend().backend, backend_reason: l.backend().backendReason } : {}) };
        done++;
        await nextFrame();
      }
    } finally {
      for (const l of Object.values(live)) try { l.dispose(); } catch { /* a lost context */ }
      referenceCache.clear();
    }
    row.ratios = ratios(row);
    progress('done');
    return row;
  }

  return {
    gl, engines, gpu, variants, calls, source, runSize,
    dispose() { engines.xfb?.dispose(); engines.owned?.dispose(); engines.webgpu?.dispose(); threeWebgpu?.renderer.dispose(); },
  };
}

/** xfb with default options against every other variant (its ms / theirs: below 1, xfb is faster),
 *  against the fastest of its own other configurations, and xfb WebGPU against TSL. */
export function ratios(row) {
  const ms = (id) => row.variants[id]?.ms ?? null, out = {};
  const base = ms('xfb');
  for (const id of Object.keys(row.variants)) if (id !== 'xfb' && base !== null && ms(id)) out[`xfb/${id}`] = base / ms(id);
  const own = ['xfb_owned', 'xfb_tf', 'xfb_fragment', 'xfb_webgpu'].map(ms).filter((x) => x);
  if (base !== null && own.length) out['xfb/fastest_own'] = base / Math.min(base, ...own);
  if (ms('xfb_webgpu') && ms('three_tsl')) out['xfb_webgpu/three_tsl'] = ms('xfb_webgpu') / ms('three_tsl');
  return out;
}

/** three.js GPUComputationRenderer on a WebGL2 context of its own: velocity and position variables,
 *  both reading the previous textures (the same math as the vertex shader). */
function threeGpgpu({ THREE, GPUComputationRenderer }, n, initial) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
  const [w, h] = textureShape(n, renderer.capabilities.maxTextureSize);
  const gpgpu = new GPUComputationRenderer(w, h, renderer);
  const p0 = gpgpu.createTexture(), v0 = gpgpu.createTexture();
  for (let i = 0; i < n; i++) {
    p0.image.data.set(initial.subarray(i * 8, i * 8 + 4), i * 4);
    v0.image.data.set(initial.subarray(i * 8 + 4, i * 8 + 8), i * 4);
  }
  const velocity = gpgpu.addVariable('textureVelocity', `uniform float dt;
void main() {
  vec2 uv = gl_FragCoord.xy / resolution.xy;
  gl_FragColor = texture2D(textureVelocity, uv) + vec4(0.0, -9.81, 0.0, 0.0) * dt;
}`, v0);
  const position = gpgpu.addVariable('texturePosition', `uniform float dt;
void main() {
  vec2 uv = gl_FragCoord.xy / resolution.xy;
  vec4 v = texture2D(textureVelocity, uv) + vec4(0.0, -9.81, 0.0, 0.0) * dt;
  gl_FragColor = texture2D(texturePosition, uv) + v * dt;
}`, p0);
  gpgpu.setVariableDependencies(velocity, [velocity]);
  gpgpu.setVariableDependencies(position, [position, velocity]);
  velocity.material.uniforms.dt = { value: DT };
  position.material.uniforms.dt = { value: DT };
  const error = gpgpu.init();
  if (error) throw new Error(error);
  const probe = new Float32Array(4);
  const readAll = (variable) => { const out = new Float32Array(w * h * 4); renderer.readRenderTargetPixels(gpgpu.getCurrentRenderTarget(variable), 0, 0, w, h, out); return out; };
  return {
    texture: [w, h],
    step: () => gpgpu.compute(),
    wait: () => renderer.readRenderTargetPixels(gpgpu.getCurrentRenderTarget(position), 0, 0, 1, 1, probe),
    blocking: true,
    read() {
      const p = readAll(position), v = readAll(velocity), out = new Float32Array(n * 8);
      for (let i = 0; i < n; i++) { out.set(p.subarray(i * 4, i * 4 + 4), i * 8); out.set(v.subarray(i * 4, i * 4 + 4), i * 8 + 4); }
      return out;
    },
    dispose() { gpgpu.dispose(); p0.dispose(); v0.dispose(); renderer.dispose(); renderer.forceContextLoss(); },
  };
}

/** three.js TSL compute on WebGPU: position and velocity storage arrays updated in place by one
 *  compute node per step (three.js's own idiom; each element reads and writes only itself). */
function threeTsl({ TSL, renderer }, n, initial) {
  const { Fn, instancedArray, instanceIndex, uniform, vec4 } = TSL;
  const p0 = new Float32Array(n * 4), v0 = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    p0.set(initial.subarray(i * 8, i * 8 + 4), i * 4);
    v0.set(initial.subarray(i * 8 + 4, i * 8 + 8), i * 4);
  }
  const position = instancedArray(p0, 'vec4'), velocity = instancedArray(v0, 'vec4');
  const dt = uniform(DT);
  const update = Fn(() => {
    const v = velocity.element(instanceIndex).add(vec4(0, -9.81, 0, 0).mul(dt)).toVar();
    position.element(instanceIndex).assign(position.element(instanceIndex).add(v.mul(dt)));
    velocity.element(instanceIndex).assign(v);
  })().compute(n);
  const device = renderer.backend.device;
  return {
    async step() { await renderer.computeAsync(update); },
    wait: () => device.queue.onSubmittedWorkDone(),
    blocking: false,
    async read() {
      const [p, v] = (await Promise.all([renderer.getArrayBufferAsync(position.value), renderer.getArrayBufferAsync(velocity.value)])).map((b) => new Float32Array(b));
      const out = new Float32Array(n * 8);
      for (let i = 0; i < n; i++) { out.set(p.subarray(i * 4, i * 4 + 4), i * 8); out.set(v.subarray(i * 4, i * 4 + 4), i * 8 + 4); }
      return out;
    },
    dispose() { update.dispose?.(); position.value.dispose?.(); velocity.value.dispose?.(); },
  };
}
