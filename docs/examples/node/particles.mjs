// The Node + WebGPU guide's example (docs/guide/node-webgpu.md, region node-webgpu): the README's
// particle step on Dawn, the npm package webgpu. Run by tests/web/node-webgpu.test.mjs (ctest
// web.node.webgpu) against a Math.fround reference where Dawn finds an adapter, and for its
// refusal where it finds none.
// [docs:node-webgpu]
// npm install xfb webgpu; node particles.mjs
import createXfb from 'xfb';
import { create } from 'webgpu';                           // Dawn for Node; no globals installed
import { pathToFileURL } from 'node:url';

const source = `#version 300 es
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity * 0.5; }`;

export async function simulateInNode(initial, count, steps) {
  const xfb = await createXfb({ backend: 'webgpu', gpu: create([]) }); // XFB_UNSUPPORTED without an adapter
  try {
    const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
    const state = xfb.createBuffer({ format, count, data: initial });
    const scratch = xfb.createBuffer({ format, count });
    const sim = xfb.createProgram({ source });              // the GLSL, translated to WGSL
    const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
    sim.setUniform('dt', 0.5);
    for (let s = 0; s < steps; s++) pipeline.step();
    return await state.read();                            // Float32Array, 8 floats an element
  } finally {
    xfb.dispose();                                        // destroys the device it requested
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const initial = Float32Array.from({ length: 2 * 8 }, (_, i) => i); // 2 particles
  console.log(await simulateInNode(initial, 2, 3));
}
// [docs:end]
