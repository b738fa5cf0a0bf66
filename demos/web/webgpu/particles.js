// Particles on WebGPU (demos/particles.cpp): interleaved (or separate) state, position + life and
// velocity + seed, emitted and respawned on the GPU by the same GLSL, k substeps fused into one
// compute pass; drawn straight from the state buffer(s), read as storage by the vertex shader.
import { ADDITIVE, release, renderPipeline, StorageBindGroups } from './gpu.js';
import { random } from './math.js';

// particles.cpp's kRenderVertex / kRenderFragment. WebGPU has no gl_PointSize (points are one
// pixel): each particle is a square of \`pointSize\` pixels, 6 vertices. They are pulled from the
// state buffer(s) bound as storage (element e's position at e * stride + offset, in vec4s)
// rather than instanced vertex buffers: SwiftShader runs an instanced draw instance by instance
// (200k particles: 0.6 frames a second as instances, 3.4 pulled, on a busy 2-core machine).
const render = (position, velocity) => /* wgsl */ `
struct Camera { viewProjection: mat4x4<f32>, viewport: vec2<f32>, pointSize: f32 };
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> velocities: array<vec4<f32>>;
struct Out { @builtin(position) position: vec4<f32>, @location(0) colour: vec3<f32> };
@vertex fn vs(@builtin(vertex_index) v: u32) -> Out {
  var corners = array(vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(-1.0, 1.0), vec2(1.0, -1.0), vec2(1.0, 1.0));
  let e = v / 6u;
  let position = positions[e * ${position.stride}u + ${position.offset}u];
  let velocity = velocities[e * ${velocity.stride}u + ${velocity.offset}u];
  var clip = camera.viewProjection * vec4(position.xyz, 1.0);
  clip += vec4(corners[v % 6u] * camera.pointSize / camera.viewport * clip.w, 0.0, 0.0);
  let speed = length(velocity.xyz);
  return Out(clip, mix(vec3(1.0, 0.35, 0.08), vec3(0.35, 0.7, 1.0), clamp(speed / 5.0, 0.0, 1.0)) * clamp(position.w, 0.15, 1.0));
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> { return vec4(i.colour * 0.3, 1.0); }  // additive: dense regions glow
`;

export default async function create(ctx) {
  const { xfb, device } = ctx;
  const source = await ctx.glsl('particles.vert');
  const camera = device.createBuffer({ label: 'particles camera', size: 80, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const cameraData = new Float32Array(20);
  const s = { count: 200_000, separate: false, substeps: 1, gravity: 4, spread: 1.2, pointSize: 1.5 };
  const objects = [];
  let program, state, initial, pipeline, draw, bindGroups;

  function build() {
    release(objects);
    const rng = random(1), data = new Float32Array(s.count * 8);
    for (let e = 0; e < s.count; e++) {
      data[e * 8 + 1] = -1;
      data[e * 8 + 3] = 4 * rng(); // staggered first respawns
      data[e * 8 + 7] = rng();
    }
    program = xfb.createProgram({ source, mode: s.separate ? 'separate' : 'interleaved', label: 'particles' });
    objects.push(program);
    const entries = [];
    state = [];
    if (!s.separate) {
      const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];
      state.push(xfb.createBuffer({ format, count: s.count, data, label: 'particles' }));
      initial = data;
      const scratch = xfb.createBuffer({ format, count: s.count, label: 'particles scratch' });
      objects.push(state[0], scratch);
      entries.push({ input: state[0], output: scratch });
    } else {
      for (let k = 0; k < 2; k++) {
        const part = new Float32Array(s.count * 4);
        for (let e = 0; e < s.count; e++) part.set(data.subarray(e * 8 + k * 4, e * 8 + k * 4 + 4), e * 4);
        const format = [{ semantic: `ATTR${k}`, components: 4 }];
        state.push(xfb.createBuffer({ format, count: s.count, data: part, label: k ? 'velocity' : 'position' }));
        if (k === 0) initial = part;
        const scratch = xfb.createBuffer({ format, count: s.count, label: `${k ? 'velocity' : 'position'} scratch` });
        objects.push(state[k], scratch);
        entries.push({ input: state[k], output: scratch });
      }
    }
    pipeline = xfb.createPipeline(program, entries);
    objects.push(pipeline);
    // Position and velocity: fields of one interleaved buffer or one buffer each (in vec4s).
    const field = (k) => {
      const b = state[s.separate ? k : 0], a = b.layout.attributes[s.separate ? 0 : k];
      return { stride: b.layout.stride / 16, offset: a.offset / 16 };
    };
    draw = renderPipeline(ctx, { label: 'particles draw', code: render(field(0), field(1)), blend: ADDITIVE, depthTest: false });
    bindGroups = new StorageBindGroups(device, draw, (p, v) => [
      { binding: 0, resource: { buffer: camera } }, { binding: 1, resource: { buffer: p } }, { binding: 2, resource: { buffer: v } }]);
  }
  build();

  return {
    get program() { return program; },
    get pipeline() { return pipeline; },
    get count() { return s.count; },
    maxCount: 4_000_000,
    setCount(n) { s.count = n; build(); },
    cameraDistance: 7,
    webgpu: 'WebGPU has no point size (<code>gl_PointSize</code>; points are one pixel): every particle is drawn as a ' +
      'square of <i>point size</i> pixels, 6 vertices reading the state GPUBuffer as a storage buffer.',
    step(f) {
      program.setUniform('dt', f.dt / s.substeps); // k substeps per frame, fused into one pass
      program.setUniform('time', f.time);
      program.setUniform('gravity', [0, -s.gravity, 0]);
      program.setUniform('spread', s.spread);
      pipeline.step(s.substeps);
    },
    render(pass, f) {
      cameraData.set(f.viewProjection);
      cameraData.set([f.width, f.height, s.pointSize], 16);
      device.queue.writeBuffer(camera, 0, cameraData);
      pass.setPipeline(draw);
      // The latest state after the swaps: one bind group per GPUBuffer of the pair.
      pass.setBindGroup(0, bindGroups.get(state[0].gpuBuffer, (state[1] ?? state[0]).gpuBuffer));
      pass.draw(6 * s.count);
    },
    panel(ui) {
      ui.slider('gravity', { min: 0, max: 20, step: 0.1, value: s.gravity, onInput: (v) => (s.gravity = v) });
      ui.slider('spread', { min: 0, max: 3, step: 0.01, value: s.spread, onInput: (v) => (s.spread = v) });
      ui.slider('point size', { min: 1, max: 4, step: 0.1, value: s.pointSize, onInput: (v) => (s.pointSize = v) });
      ui.slider('substeps', { min: 1, max: 16, step: 1, value: s.substeps, onInput: (v) => (s.substeps = v) });
      ui.text(() => (s.substeps > 1 ? (pipeline.fusion().fused ? 'fused: one pass per frame' : pipeline.fusion().reason) : ''));
      ui.select('mode', [['interleaved', 'interleaved (one buffer)'], ['separate', 'separate (buffer per varying)']],
        s.separate ? 'separate' : 'interleaved', (v) => { s.separate = v === 'separate'; build(); ui.rebuilt(); });
    },
    checked: () => ({ buffer: state[0], initial }),
    dispose() { release(objects); camera.destroy(); },
  };
}
