// The README's WebGPU example (region webgpu-readme), run by the browser suite docs-examples
// (tests/web/page/docs-examples.js) on SwiftShader's WebGPU adapter against a JavaScript reference.
// [docs:webgpu-readme]
import createXfb from 'xfb';
import { source } from './webgl2.js';                     // the GLSL of the WebGL2 example

export async function simulateOnGpu(initial, count, steps) {
  const xfb = await createXfb({ backend: 'webgpu' });       // or { device }: your GPUDevice
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = xfb.createBuffer({ format, count, data: initial });
  const scratch = xfb.createBuffer({ format, count });
  const sim = xfb.createProgram({ source });                // the same GLSL as on WebGL2
  const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
  sim.setUniform('dt', 0.5);
  for (let s = 0; s < steps; s++) pipeline.step();          // one compute pass each; state.gpuBuffer is the new data
  // draw it: pass.setVertexBuffer(0, state.gpuBuffer) in your render pass (usage STORAGE | VERTEX)
  const values = await state.read();                        // a copy to a staging buffer + mapAsync
  xfb.dispose();
  return values;
}
// [docs:end]
