// Browser benchmark (not a test): the same simulation (shaders/bench_particles.vert) on the WebGL2
// engine (transform feedback) and on the WebGPU engine (the WGSL translation, a compute pass), same
// page load, at 1e4, 1e5, 1e6 elements. Each round times a batch of steps, ended by waiting for
// the GPU (WebGL2: a 4-byte getBufferSubData; WebGPU: onSubmittedWorkDone); medians of the rounds.
// Run: node tests/web/browser.mjs build/wasm/npm webgpu_bench
import { createXfb, pseudoRandom } from './assert.js';

const source = await (await fetch('/shaders/bench_particles.vert')).text();
const canvas = document.createElement('canvas');
const gl = canvas.getContext('webgl2');
const webgl = await createXfb({ gl });
const webgpu = await createXfb({ backend: 'webgpu' });
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];

function variant(xfb, n, initial) {
  const a = xfb.createBuffer({ format, count: n, data: initial }), b = xfb.createBuffer({ format, count: n });
  const program = xfb.createProgram({ source });
  program.setUniform('dt', 1 / 64);
  const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
  const probe = new Uint8Array(4);
  const wait = xfb.backend === 'webgpu' ? () => xfb.device.queue.onSubmittedWorkDone() : () => {
    gl.bindBuffer(gl.COPY_READ_BUFFER, a.glBuffer);
    gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, probe);
    gl.bindBuffer(gl.COPY_READ_BUFFER, null);
  };
  return { step: () => pipeline.step(), wait, dispose: () => { for (const o of [pipeline, program, a, b]) o.dispose(); } };
}

const results = [];
for (const n of [1e4, 1e5, 1e6]) {
  test(`${n} elements`, async ({ note }) => {
    const initial = pseudoRandom(n * 8, -1, 1, 7);
    const variants = { webgl2: variant(webgl, n, initial), webgpu: variant(webgpu, n, initial) };
    const batch = n >= 1e6 ? 3 : 10, rounds = 7;
    const ms = { webgl2: [], webgpu: [] };
    for (const v of Object.values(variants)) { v.step(); v.step(); await v.wait(); }
    for (let r = 0; r < rounds; r++)
      for (const [name, v] of Object.entries(variants)) {
        const t0 = performance.now();
        for (let i = 0; i < batch; i++) v.step();
        await v.wait();
        ms[name].push((performance.now() - t0) / batch);
      }
    const row = { elements: n, webgl2_ms: median(ms.webgl2), webgpu_ms: median(ms.webgpu) };
    row.ratio = row.webgpu_ms / row.webgl2_ms;
    results.push(row);
    note(JSON.stringify(row));
    for (const v of Object.values(variants)) v.dispose();
  });
}
test('summary', async ({ note }) => { note(`BENCH ${JSON.stringify(results)}`); });
