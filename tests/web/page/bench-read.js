// Browser benchmark (not a test): what reading a few elements right after a step costs. At 1e3, 1e4,
// 1e5 and 1e6 particles (bench_particles.vert, 32-byte records), each round times one step plus
// the read of 16 elements, ended when the bytes are in JavaScript:
//   getBufferSubData  the hand-written way: a synchronous getBufferSubData of the 16 elements'
//                     512 bytes of xfb's state buffer (blocks until the step is done)
//   read16            xfb WebGL2: await state.read({ first: 0, count: 16 })
//   readAll           xfb WebGL2: await state.read() (the whole buffer)
//   webgpu16 / webgpuAll  the same two on the WebGPU engine (mapAsync)
// Medians (of an even count, the mean of the middle two) of interleaved rounds; the ratios divide by getBufferSubData of the same size.
// Run: node browser.mjs NPM_DIR bench-read
import { createXfb, pseudoRandom } from './assert.js';
import { median } from '/demos/web/bench/core.js';

const source = await (await fetch('/shaders/bench_particles.vert')).text();
const gl = document.createElement('canvas').getContext('webgl2');
const xfb = await createXfb({ gl });
const webgpu = navigator.gpu ? await createXfb({ backend: 'webgpu' }).catch(() => null) : null;
const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
const rows = [];

function simulation(engine, n) {
  const initial = pseudoRandom(n * 8, -1, 1, 3);
  const state = engine.createBuffer({ format, count: n, data: initial });
  const program = engine.createProgram({ source });
  program.setUniform('dt', 1 / 64);
  const pipeline = engine.createPipeline(program, [{ input: state, output: engine.createBuffer({ format, count: n }) }]);
  return { state, pipeline };
}

for (const n of globalThis.xfbBenchSizes ?? [1e3, 1e4, 1e5, 1e6]) {
  test(`${n} elements: a step, then 16 elements read back`, async ({ note }) => {
    const onGl = simulation(xfb, n);
    const onGpu = webgpu ? simulation(webgpu, n) : null;
    const bytes = new Uint8Array(16 * 32);
    const variants = {
      getBufferSubData: async () => {
        onGl.pipeline.step();
        gl.bindBuffer(gl.COPY_READ_BUFFER, onGl.state.glBuffer);
        gl.getBufferSubData(gl.COPY_READ_BUFFER, 0, bytes);
        gl.bindBuffer(gl.COPY_READ_BUFFER, null);
      },
      read16: async () => { onGl.pipeline.step(); await onGl.state.read({ first: 0, count: 16 }); },
      readAll: async () => { onGl.pipeline.step(); await onGl.state.read(); },
      ...(onGpu ? {
        webgpu16: async () => { onGpu.pipeline.step(); await onGpu.state.read({ first: 0, count: 16 }); },
        webgpuAll: async () => { onGpu.pipeline.step(); await onGpu.state.read(); },
      } : {}),
    };
    const names = Object.keys(variants), ms = Object.fromEntries(names.map((k) => [k, []]));
    for (const name of names) await variants[name](); // warm: compile, staging buffers
    const rounds = n >= 1e6 ? 5 : 9;
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r) % names.length];
        const t0 = performance.now();
        await variants[name]();
        ms[name].push(performance.now() - t0);
      }
    const row = { elements: n, rounds };
    for (const name of names) row[`${name}_ms`] = +median(ms[name]).toFixed(3);
    for (const name of names.filter((k) => k !== 'getBufferSubData')) row[`${name}_ratio`] = +(row[`${name}_ms`] / row.getBufferSubData_ms).toFixed(2);
    rows.push(row);
    note(JSON.stringify(row));
  });
}
test('the raw rows', async ({ note }) => {
  note(`BENCH_READ ${JSON.stringify({ date: new Date().toISOString(), userAgent: navigator.userAgent, rows })}`);
});
