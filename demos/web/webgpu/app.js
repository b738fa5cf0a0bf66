// The WebGPU gallery shell (webgpu.html?demo=NAME): the C++ demos' app shell (demos/app/app.cpp)
// over the npm package's WebGPU engine. It owns the device, the canvas, the orbit camera (drag to
// orbit, scroll to zoom), the HTML panel and the frame loop; a demo module (./NAME.js) owns its xfb
// objects, steps its simulation and draws into the shell's render pass.
//   ?demo=particles|flock|cloth|trails|skinning  &variant=captured  &count=N  &frames=N
// With ?frames=N (the gallery test, tests/web/gallery-webgpu.mjs) it runs N frames with the camera
// held still, copies the canvas texture of frames N-10 and N to window.__demoFrames (RGBA, top row
// first), reads the demo's state back (finite, moved) and sets window.__demoDone.
import createXfb from '/npm/index.js';
import { lookAt, multiply, perspective } from './math.js';
import { Panel } from './panel.js';

/** Every demo, in gallery order, with the C++ registry's titles (demos/demos.cpp). */
export const TITLES = {
  particles: 'Particles (interleaved)',
  flock: 'Flock (separate, all three roles)',
  cloth: 'Cloth (Verlet on a grid)',
  trails: 'Trails (ribbons from rings)',
  skinning: 'Skinning cache (POINTS pass)',
};
const CLEAR = [0.02, 0.025, 0.04]; // app.cpp's kClear
const MOTION_GAP = 10; // frame_check.hpp: motion is measured between frames N-10 and N

const info = document.getElementById('info');
const params = new URLSearchParams(location.search);
const name = params.get('demo') ?? 'particles';
const variant = params.get('variant') ?? '';
const frames = Number(params.get('frames') ?? 0);
const errors = []; // recorded, shown in the panel, reported in __demoDone
const report = (done) => {
  console.log(JSON.stringify({ demo: `webgpu-${name}`, ...done }));
  window.__demoDone = done;
};
const recordError = (what) => {
  if (errors.length < 8 && !errors.includes(what)) {
    errors.push(what);
    console.error(`xfb-webgpu: ${what}`);
  }
};

/** A device with the adapter's storage limits (as createXfb({ backend: 'webgpu' }) requests) and,
 *  where the adapter has it, timestamp-query for the step time plot. */
async function requestDevice() {
  if (!navigator.gpu) return { why: '<code>navigator.gpu</code> is missing' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) return { why: '<code>requestAdapter()</code> gave no adapter' };
  const l = adapter.limits;
  const requiredLimits = { maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize, maxBufferSize: l.maxBufferSize };
  const requiredFeatures = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  return { adapter, device };
}

/** Counts the WebGPU calls made inside during(fn) (the analogue of the C++ panel's "GL calls in the
 *  last pass"), by wrapping the methods of the WebGPU classes once; outside during() they only pass through. */
function callCounter() {
  const counts = new Map();
  let on = false;
  const wrap = (cls, names) => {
    for (const n of names) {
      const f = cls?.prototype[n];
      if (typeof f !== 'function') continue;
      cls.prototype[n] = function (...args) {
        if (on) counts.set(n, (counts.get(n) ?? 0) + 1);
        return f.apply(this, args);
      };
    }
  };
  const created = ['createBuffer', 'createTexture', 'createBindGroup', 'createBindGroupLayout', 'createComputePipeline',
    'createRenderPipeline', 'createShaderModule', 'createQuerySet'];
  wrap(globalThis.GPUDevice, ['createCommandEncoder', ...created]);
  wrap(globalThis.GPUQueue, ['submit', 'writeBuffer', 'writeTexture']);
  wrap(globalThis.GPUCommandEncoder, ['beginComputePass', 'copyBufferToBuffer', 'copyBufferToTexture', 'finish']);
  wrap(globalThis.GPUComputePassEncoder, ['setPipeline', 'setBindGroup', 'dispatchWorkgroups', 'dispatchWorkgroupsIndirect', 'end']);
  return {
    during(fn) {
      counts.clear();
      on = true;
      try {
        fn();
      } finally {
        on = false;
      }
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const objects = created.reduce((a, n) => a + (counts.get(n) ?? 0), 0);
      const get = (n) => counts.get(n) ?? 0;
      return `${total} WebGPU calls in the last step: ${get('submit')} submit, ${get('beginComputePass')} compute pass, ` +
        `${get('dispatchWorkgroups')} dispatch, ${get('writeBuffer')} writeBuffer, ${get('copyBufferToTexture')} texture copy; ` +
        `${objects} GPU object${objects === 1 ? '' : 's'} created`;
    },
  };
}

/** GPU time of the step: timestamps written by two empty compute passes submitted around it. */
function stepTimer(device) {
  if (!device.features.has('timestamp-query')) {
    let t0 = 0; // as the C++ demos in the browser, where nothing waits for the GPU
    return { unit: 'ms (CPU submit)', begin: () => (t0 = performance.now()), end: (done) => done(performance.now() - t0) };
  }
  const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
  const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  let pending = false, measuring = false;
  const mark = (timestampWrites, more) => {
    const encoder = device.createCommandEncoder();
    encoder.beginComputePass({ timestampWrites }).end();
    more?.(encoder);
    device.queue.submit([encoder.finish()]);
  };
  return {
    unit: 'ms (GPU timestamps)',
    begin() {
      measuring = !pending; // one measurement in flight at a time
      if (measuring) mark({ querySet, beginningOfPassWriteIndex: 0 });
    },
    end(done) {
      if (!measuring) return;
      pending = true;
      mark({ querySet, endOfPassWriteIndex: 1 }, (e) => {
        e.resolveQuerySet(querySet, 0, 2, resolve, 0);
        e.copyBufferToBuffer(resolve, 0, readback, 0, 16);
      });
      readback.mapAsync(GPUMapMode.READ).then(() => {
        const [a, b] = new BigUint64Array(readback.getMappedRange());
        readback.unmap();
        pending = false;
        done(Number(b - a) / 1e6);
      }, () => {});
    },
  };
}

/** Copies the canvas texture into a buffer in `encoder`; resolves to { width, height, rgba } after the submit. */
function captureFrame(device, encoder, texture, format) {
  const { width, height } = texture, bytesPerRow = Math.ceil((width * 4) / 256) * 256;
  const buffer = device.createBuffer({ size: bytesPerRow * height, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, [width, height]);
  return async () => {
    await buffer.mapAsync(GPUMapMode.READ);
    const padded = new Uint8Array(buffer.getMappedRange()), rgba = new Uint8Array(width * height * 4);
    const bgra = format.startsWith('bgra');
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * bytesPerRow + x * 4, o = (y * width + x) * 4;
        rgba[o] = padded[i + (bgra ? 2 : 0)], rgba[o + 1] = padded[i + 1], rgba[o + 2] = padded[i + (bgra ? 0 : 2)], rgba[o + 3] = padded[i + 3];
      }
    buffer.destroy();
    return { width, height, rgba };
  };
}

async function main() {
  if (!(name in TITLES)) {
    info.textContent = `No demo named '${name}'. Demos: ${Object.keys(TITLES).join(', ')}.`;
    report({ ok: false, errors: [`no demo named '${name}'`] });
    return;
  }
  document.title = `xfb on WebGPU: ${name}`;
  const { device, adapter, why } = await requestDevice();
  if (!device) {
    info.innerHTML = `This browser has no usable WebGPU (${why}). Use a WebGPU browser (Chrome / Edge 113+, Safari 26, ` +
      'Firefox 141 on Windows; Chromium on Linux needs <code>--enable-unsafe-webgpu</code>), or open the ' +
      `<a href="demo.html?demo=${name}">WebGL2 version</a>, which runs the same simulation with transform feedback.`;
    report({ ok: false, reason: 'no WebGPU', errors: [`no WebGPU: ${why}`] });
    return;
  }
  window.__adapter = adapter; // Chromium loses a device whose adapter was collected
  device.addEventListener('uncapturederror', (e) => recordError(`WebGPU: ${e.error.message}`));
  device.lost.then((i) => i.reason !== 'destroyed' && recordError(`WebGPU device lost: ${i.message}`));
  const xfb = await createXfb({ device });

  const canvas = document.getElementById('canvas');
  const context = canvas.getContext('webgpu');
  const format = navigator.gpu.getPreferredCanvasFormat();
  context.configure({ device, format, alphaMode: 'opaque', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const glslCache = new Map();
  const ctx = {
    xfb, device, format, depthFormat: 'depth24plus', variant,
    /** A demo's own check failed (shown in the panel, reported in __demoDone.errors). */
    fail: recordError,
    /** The simulation GLSL of a C++ demo, as the build extracted it (extract-glsl.mjs). */
    glsl: async (file) => {
      if (!glslCache.has(file)) {
        const response = await fetch(new URL(`glsl/${file}`, import.meta.url));
        if (!response.ok) throw new Error(`glsl/${file}: ${response.status} (build the wasm gallery)`);
        glslCache.set(file, await response.text());
      }
      return glslCache.get(file);
    },
  };
  const demo = await (await import(`./${name}.js`)).default(ctx);
  if (params.has('count')) demo.setCount(Math.min(Number(params.get('count')), demo.maxCount));
  if (variant && !(demo.variants ?? []).includes(variant)) {
    recordError(`demo '${name}' has no variant '${variant}' (variants: ${(demo.variants ?? []).join(', ') || 'none'})`);
  }
  await demo.pipeline.ready.catch((e) => recordError(`${e.code}: ${e.message}`));

  const counter = callCounter();
  const timer = stepTimer(device);
  const s = { paused: false, stepOnce: false, yaw: 0.6, pitch: 0.35, distance: demo.cameraDistance, time: 0, dt: 1 / 60,
    frame: 0, history: new Array(120).fill(0), cpu: 0, calls: '' };
  const panel = new Panel(document.getElementById('panel'), {
    name, titles: TITLES, variant,
    onCount: (n) => { try { demo.setCount(n); } catch (e) { recordError(`count ${n}: ${e.message}`); } panel.setDemo(demo); },
    onPause: (p) => (s.paused = p),
    onStep: () => (s.stepOnce = true),
  });
  panel.setDemo(demo);
  info.hidden = true;

  // The orbit camera: drag to orbit, scroll to zoom (held still in a check run).
  let dragging = false;
  canvas.addEventListener('pointerdown', (e) => { dragging = e.button === 0; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => (dragging = false));
  canvas.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    s.yaw -= e.movementX * 0.005;
    s.pitch = Math.min(1.4, Math.max(-1.4, s.pitch + e.movementY * 0.005));
  });
  canvas.addEventListener('wheel', (e) => { e.preventDefault(); s.distance *= 0.9 ** (-Math.sign(e.deltaY)); }, { passive: false });

  let depthTexture = null;
  const captures = [], first = Math.max(1, frames - MOTION_GAP);
  async function tick() {
    const width = Math.max(1, Math.round(canvas.clientWidth * devicePixelRatio)), height = Math.max(1, Math.round(canvas.clientHeight * devicePixelRatio));
    if (canvas.width !== width || canvas.height !== height || !depthTexture) {
      canvas.width = width, canvas.height = height;
      depthTexture?.destroy();
      depthTexture = device.createTexture({ size: [width, height], format: ctx.depthFormat, usage: GPUTextureUsage.RENDER_ATTACHMENT });
    }
    if (!s.paused && !frames && !dragging) s.yaw += 0.002;
    const eye = [Math.cos(s.pitch) * Math.sin(s.yaw), Math.sin(s.pitch), Math.cos(s.pitch) * Math.cos(s.yaw)].map((c) => c * s.distance);
    const view = lookAt(eye, [0, 0, 0], [0, 1, 0]), projection = perspective(0.8, width / height, 0.01, 100);
    const f = { dt: s.dt, time: s.time, view, projection, viewProjection: multiply(projection, view), eye, width, height };

    if (!s.paused || s.stepOnce) {
      const t0 = performance.now();
      timer.begin();
      try {
        s.calls = counter.during(() => demo.step(f));
      } catch (e) {
        recordError(`step at frame ${s.frame + 1} threw: ${e.message}`);
        s.paused = true;
        panel.pause.checked = true;
      }
      timer.end((ms) => { s.history.shift(); s.history.push(ms); });
      s.cpu = performance.now() - t0;
      s.time += s.dt;
      s.stepOnce = false;
    }

    const encoder = device.createCommandEncoder();
    const texture = context.getCurrentTexture();
    const pass = encoder.beginRenderPass({
      colorAttachments: [{ view: texture.createView(), loadOp: 'clear', storeOp: 'store', clearValue: { r: CLEAR[0], g: CLEAR[1], b: CLEAR[2], a: 1 } }],
      depthStencilAttachment: { view: depthTexture.createView(), depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'discard' },
    });
    try {
      demo.render(pass, f);
    } catch (e) {
      recordError(`render at frame ${s.frame + 1} threw: ${e.message}`);
    }
    pass.end();
    ++s.frame;
    const check = frames && (s.frame === first || s.frame === frames);
    const read = check && captureFrame(device, encoder, texture, format);
    device.queue.submit([encoder.finish()]);
    if (read) captures.push({ frame: s.frame, read });

    panel.update({
      history: s.history,
      unit: timer.unit,
      step: `step: ${s.history.at(-1).toFixed(3)} ${timer.unit}, ${s.cpu.toFixed(3)} ms to record and submit`,
      calls: s.calls,
      error: errors.join('\n'),
    });
    if (frames && s.frame === frames) return finish();
    requestAnimationFrame(tick);
  }

  // A check run's end: the two frames, the state read back, the verdict.
  async function finish() {
    window.__demoFrames = [];
    for (const c of captures) window.__demoFrames.push({ frame: c.frame, ...(await c.read()) });
    const { buffer, initial } = demo.checked();
    const values = await buffer.read();
    let finite = true, moved = 0;
    for (let i = 0; i < values.length; i++) {
      finite &&= Number.isFinite(values[i]);
      if (values[i] !== (initial ? initial[i] : 0)) moved++;
    }
    const failures = [];
    if (!finite) failures.push(`state '${buffer.label}' holds values that are not finite`);
    if (moved < values.length / 4) failures.push(`state '${buffer.label}': only ${moved} of ${values.length} values changed from the initial data`);
    const r = panel.root.getBoundingClientRect();
    report({
      ok: errors.length === 0 && failures.length === 0,
      demo: name, variant: demo.variant ?? '', backend: demo.pipeline.info.backend, frames, steps: demo.pipeline.info.steps,
      count: demo.count, animates: demo.animates ?? true, finite, moved, values: values.length,
      motionFrames: [first, frames], panel: [r.x, r.y, r.width, r.height].map(Math.round), errors, failures,
    });
  }
  requestAnimationFrame(tick);
}

main().catch((e) => {
  recordError(`start-up failed: ${e.message}`);
  info.hidden = false;
  info.textContent = `The demo did not start: ${e.message}`;
  report({ ok: false, errors });
});
