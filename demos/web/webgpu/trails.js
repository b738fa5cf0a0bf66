// Trails on WebGPU (demos/trails.cpp): every emitter keeps a ring of its last positions; each step
// writes the new position at the ring's head and keeps the rest (state, one vec4 per slot).
// Ribbons: one quad per segment, reading two consecutive slots of the state GPUBuffer (bound as
// storage), facing the camera, fading with age.
import { ADDITIVE, release, renderPipeline, StorageBindGroups } from './gpu.js';

// trails.cpp's kRibbonVertex / kRibbonFragment. Segment k (vertex v: k = v / 6, corner v % 6)
// reads slots k and k + 1 of the state buffer bound as storage, where the C++ demo binds the
// buffer twice as instanced attributes 16 bytes apart: SwiftShader runs an instanced draw instance
// by instance (49k segments: 0.8 frames a second instanced, 6.8 pulled, on a busy 2-core machine).
const RENDER = /* wgsl */ `
struct Params { viewProjection: mat4x4<f32>, eye: vec3<f32>, width: f32, history: i32, head: i32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> slots: array<vec4<f32>>;
struct Out { @builtin(position) position: vec4<f32>, @location(0) fade: f32, @location(1) tint: vec3<f32> };
@vertex fn vs(@builtin(vertex_index) v: u32) -> Out {
  let a = slots[v / 6u];       // slot k
  let b = slots[v / 6u + 1u];  // slot k + 1
  let history = params.history;
  let slotA = i32(v / 6u) % history;
  // Skip the segment across the ring's break and the one joining two emitters.
  let skip = slotA == history - 1 || slotA == params.head;
  let age = f32((params.head - slotA + history) % history) / f32(history);
  let k = i32(v % 6u);  // two triangles: 0 1 2, 2 1 3
  let c = select(select(select(3, 1, k == 4), 2, k == 3), k, k < 3);
  let p = select(b.xyz, a.xyz, c < 2);
  let side = normalize(cross(b.xyz - a.xyz + vec3(1e-5), params.eye - p));
  let w = params.width * (1.0 - age);
  var position = vec4(2.0, 2.0, 2.0, 1.0);
  if (!skip) { position = params.viewProjection * vec4(p + side * w * select(1.0, -1.0, c % 2 == 0), 1.0); }
  return Out(position, 1.0 - age, 0.5 + 0.5 * cos(6.28 * (a.w + vec3(0.0, 0.33, 0.67))));
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> { return vec4(i.tint * i.fade, 1.0); }
`;

export default async function create(ctx) {
  const { xfb, device } = ctx;
  const source = await ctx.glsl('trails.vert');
  const params = device.createBuffer({ label: 'trails params', size: 96, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const paramData = new ArrayBuffer(96);
  const s = { emitters: 512, history: 96, head: 0, width: 0.012 };
  const count = () => s.emitters * s.history;
  const objects = [];
  let program, pipeline, state, initial;

  const draw = renderPipeline(ctx, { label: 'trails ribbons', code: RENDER, blend: ADDITIVE, depthTest: false });
  let bindGroups;
  function step(f) {
    s.head = (s.head + 1) % s.history;
    program.setUniform('head', s.head);
    program.setUniform('time', f.time);
    pipeline.step();
  }

  function build() {
    release(objects);
    s.head = 0;
    const slots = new Float32Array(count() * 4);
    for (let e = 0; e < s.emitters; e++)
      for (let k = 0; k < s.history; k++) slots[(e * s.history + k) * 4 + 3] = e / s.emitters;
    initial = slots;
    program = xfb.createProgram({ source, label: 'trails' });
    const format = [{ semantic: 'ATTR0', components: 4 }];
    state = xfb.createBuffer({ format, count: count(), data: slots, label: 'rings' });
    const next = xfb.createBuffer({ format, count: count(), label: 'rings next' });
    pipeline = xfb.createPipeline(program, [{ input: state, output: next }]);
    objects.push(program, state, next, pipeline);
    bindGroups = new StorageBindGroups(device, draw, (slots) => [
      { binding: 0, resource: { buffer: params } }, { binding: 1, resource: { buffer: slots } }]);
    program.setUniform('history', s.history);
    // Warm the rings up so the first frame already shows whole trails.
    for (let k = 0; k < s.history; k++) step({ dt: 1 / 60, time: (k - s.history) / 60 });
  }
  build();

  return {
    get program() { return program; },
    get pipeline() { return pipeline; },
    get count() { return count(); },
    maxCount: 4096 * 128,
    setCount(n) { s.emitters = Math.max(1, Math.floor(n / s.history)); build(); },
    cameraDistance: 4,
    webgpu: 'The same as WebGL2; both ends of a segment are read from the state GPUBuffer bound as storage (slots k and k + 1).',
    step,
    render(pass, f) {
      const floats = new Float32Array(paramData), ints = new Int32Array(paramData);
      floats.set(f.viewProjection);
      floats.set(f.eye, 16);
      floats[19] = s.width;
      ints[20] = s.history;
      ints[21] = s.head;
      device.queue.writeBuffer(params, 0, paramData);
      pass.setPipeline(draw);
      pass.setBindGroup(0, bindGroups.get(state.gpuBuffer)); // the latest rings after the swaps
      pass.draw(6 * (count() - 1));
    },
    panel(ui) {
      ui.text(() => `${s.emitters} emitters x ${s.history} slots`);
      ui.slider('ribbon width', { min: 0.002, max: 0.05, step: 0.001, value: s.width, onInput: (v) => (s.width = v) });
      ui.slider('history', { min: 8, max: 256, step: 1, value: s.history, onChange: (v) => { s.history = v; build(); ui.rebuilt(); } });
    },
    checked: () => ({ buffer: state, initial }),
    dispose() { release(objects); params.destroy(); },
  };
}
