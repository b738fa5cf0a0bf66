// The README's WebGL2 example (region webgl2-readme) and the guide's JavaScript examples
// (docs/guide/javascript.md, docs/guide/capture.md), run by the browser suite docs-examples
// (tests/web/page/docs-examples.js), which compares every result with a JavaScript reference.
import { XfbError, inspect } from 'xfb';

// [docs:webgl2-readme]
import createXfb from 'xfb';

export const source = `#version 300 es
in vec4 position;                     // ATTR0: inputs take ATTR0, ATTR1, ... in declaration order
in vec4 velocity;                     // ATTR1
uniform float dt;
out vec4 out_position;                // captured: every out_ output, in declaration order
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity * 0.5; }`;

export async function simulate(canvas, initial, count, steps) {
  const xfb = await createXfb({ canvas });                  // or { gl }: share your WebGL2 context
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = xfb.createBuffer({ format, count, data: initial }); // Float32Array, count x 32 bytes
  const scratch = xfb.createBuffer({ format, count });
  const sim = xfb.createProgram({ source });                // mode 'interleaved' (default) or 'separate'
  const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
  sim.setUniform('dt', 0.5);
  for (let s = 0; s < steps; s++) pipeline.step();          // state.glBuffer now names the new data
  const values = await state.read();                        // a fence polled across tasks
  xfb.dispose();
  return values;
}
// [docs:end]

/** The guide's tour of a pipeline: checked steps, the layout, context events, the planner alone. */
export async function tour(canvas, initial, count) {
  const xfb = await createXfb({ canvas });
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
  const state = xfb.createBuffer({ format, count, data: initial });
  const scratch = xfb.createBuffer({ format, count });
  const sim = xfb.createProgram({ source });
  const pipeline = xfb.createPipeline(sim, [{ input: state, output: scratch }]);
  sim.setUniform('dt', 0.5);
  let restored = null;
  // [docs:webgl2-tour]
  const report = await pipeline.stepChecked();  // query polled across tasks; XFB_SHORT_WRITE: not swapped
  const { stride, attributes } = state.layout;  // to bind state.glBuffer in your own vertex array
  xfb.on('contextrestored', ({ buffers }) => { restored = buffers; }); // from the last read() or initial data
  const plan = await inspect(source, { mode: 'separate' });   // the planner alone, also in Node
  // [docs:end]
  let refused = null;
  // [docs:webgl2-error]
  try {
    xfb.createProgram({ source, mode: 'separate', varyings: ['out_speed'] });
  } catch (e) {
    if (!(e instanceof XfbError)) throw e;
    refused = e.code;                           // a stable code, here 'XFB_UNKNOWN_VARYING'
  }
  // [docs:end]
  const values = await state.read();
  xfb.dispose();
  return { report, stride, attributes, restored, plan, refused, values };
}

/** The guide's capture in JavaScript: a strip of 4 vertices captured as 2 triangles. */
export async function captureQuad(canvas) {
  const xfb = await createXfb({ canvas });
  const meshProgram = xfb.createProgram({ source: `#version 300 es
in vec4 position;
out vec4 out_position;
out vec3 out_normal;
out vec2 out_uv;
void main() { out_position = position; out_normal = vec3(0.0, 0.0, 1.0); out_uv = position.xy; }` });
  const vertices = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 4,
    data: new Float32Array([0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1]) });
  const recordFormat = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 3 }, { semantic: 'ATTR2', components: 2 }];
  const captured = xfb.createBuffer({ format: recordFormat, count: 6 }); // 36-byte records: offsets 0, 16, 28
  const idx = [0, 1, 2, 0xFFFF, 1, 2, 3];
  // [docs:webgl2-capture]
  const cap = xfb.createCapture(meshProgram, [{ input: vertices }, { output: captured }]);
  const counts = cap.capture({ mode: 'triangle_strip', count: 4 });    // { primitive, primitives: 2, records: 6, bytes: [216] }
  cap.capture({ mode: 'triangle_strip', indices: new Uint16Array(idx) }); // 0xFFFF restarts, as in WebGL2
  cap.drawCaptured({ instances: 1 });                                  // with your program and vertex array bound
  // [docs:end]
  const records = await captured.read();
  xfb.dispose();
  return { counts, records };
}
