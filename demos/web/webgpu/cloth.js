// Cloth on WebGPU (demos/cloth.cpp): Verlet integration on a vertex grid. Current and previous
// positions are state, rest length and pin flag per-vertex constants; each substep relaxes the
// distance constraints to the 4 grid neighbours, read from a texture copy of the positions (the
// GLSL's sampler2D). The mesh is drawn with an index buffer, its vertex shader reading the
// positions straight from xfb's state GPUBuffer as a storage buffer (no texture for the draw).
import { BufferTexture, dataBuffer, release, renderPipeline, updateTextures } from './gpu.js';

// cloth.cpp's kMeshVertex / kMeshFragment, the positions read from the storage buffer.
const RENDER = /* wgsl */ `
struct Params { viewProjection: mat4x4<f32>, width: i32, height: i32 };
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
fn at(x: i32, y: i32) -> vec3<f32> {
  return positions[clamp(y, 0, params.height - 1) * params.width + clamp(x, 0, params.width - 1)].xyz;
}
struct Out { @builtin(position) position: vec4<f32>, @location(0) normal: vec3<f32>, @location(1) uv: vec2<f32> };
@vertex fn vs(@builtin(vertex_index) id: u32) -> Out {
  let x = i32(id) % params.width;
  let y = i32(id) / params.width;
  let normal = normalize(cross(at(x + 1, y) - at(x - 1, y), at(x, y + 1) - at(x, y - 1)));
  let uv = vec2(f32(x), f32(y)) / vec2(f32(params.width - 1), f32(params.height - 1));
  return Out(params.viewProjection * vec4(at(x, y), 1.0), normal, uv);
}
@fragment fn fs(i: Out, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
  let n = normalize(select(-i.normal, i.normal, front));
  let light = 0.2 + 0.8 * max(dot(n, normalize(vec3(0.8, 0.45, 0.35))), 0.0);  // grazing light shows the folds
  let check = (floor(i.uv.x * 12.0) + floor(i.uv.y * 8.0)) % 2.0;
  return vec4(mix(vec3(0.85, 0.2, 0.25), vec3(0.95, 0.9, 0.8), check) * light * (1.0 - 0.35 * i.uv.y), 1.0);
}
`;

export default async function create(ctx) {
  const { xfb, device } = ctx;
  const source = await ctx.glsl('cloth.vert');
  const params = device.createBuffer({ label: 'cloth params', size: 80, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const paramData = new ArrayBuffer(80);
  const s = { width: 96, height: 64, substeps: 12, wind: 6, stiffness: 0.9 };
  const objects = [];
  let program, pipeline, state, positions, initial, indices, indexCount, draw;
  const bindGroups = new Map(); // one per GPUBuffer the state's positions can be in (it swaps)

  function build() {
    release(objects);
    bindGroups.clear();
    const { width, height } = s, n = width * height, size = 2, rest = size / (width - 1);
    const pos = new Float32Array(n * 4), constants = new Float32Array(n * 2);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        pos.set([-size / 2 + x * rest, 1, -y * rest, 1], i * 4); // horizontal at first: it falls and swings
        constants[i * 2] = rest;
        constants[i * 2 + 1] = y === 0 && (x % 8 === 0 || x === width - 1) ? 1 : 0; // pinned along the top edge
      }
    initial = pos;
    program = xfb.createProgram({ source, mode: 'separate', label: 'cloth' });
    objects.push(program);
    state = [];
    const next = [];
    for (let k = 0; k < 2; k++) {
      const format = [{ semantic: `ATTR${k}`, components: 4 }];
      state.push(xfb.createBuffer({ format, count: n, data: pos, label: k ? 'previous' : 'position' }));
      next.push(xfb.createBuffer({ format, count: n, label: `${k ? 'previous' : 'position'} next` }));
    }
    const constantsBuffer = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: constants, label: 'constants' });
    objects.push(...state, ...next, constantsBuffer);
    pipeline = xfb.createPipeline(program, [{ input: state[0], output: next[0] }, { input: state[1], output: next[1] }, { input: constantsBuffer }]);
    objects.push(pipeline);
    program.setUniform('width', width);
    program.setUniform('height', height);
    positions = new BufferTexture(device, n, 'positions');
    objects.push(positions);
    pipeline.setTexture('positions', positions.texture);
    const idx = [];
    for (let y = 0; y + 1 < height; y++)
      for (let x = 0; x + 1 < width; x++) {
        const a = y * width + x, b = a + 1, c = a + width, d = c + 1;
        idx.push(a, c, b, b, c, d);
      }
    indexCount = idx.length;
    indices = dataBuffer(device, 'cloth indices', GPUBufferUsage.INDEX, new Uint32Array(idx));
    objects.push(indices);
    draw ??= renderPipeline(ctx, { label: 'cloth mesh', code: RENDER });
    const view = new DataView(paramData);
    view.setInt32(64, width, true);
    view.setInt32(68, height, true);
  }
  build();

  return {
    get program() { return program; },
    get pipeline() { return pipeline; },
    get count() { return s.width * s.height; },
    maxCount: 256 * 192,
    setCount(n) {
      s.width = Math.max(8, Math.floor(Math.sqrt((n * 4) / 3)));
      s.height = Math.max(6, Math.floor(n / s.width));
      build();
    },
    cameraDistance: 3.2,
    webgpu: 'The same as WebGL2 for the simulation (neighbours from a <code>sampler2D</code> copy, <code>copyBufferToTexture</code> ' +
      'before each substep); the draw reads the positions from xfb\'s state GPUBuffer as a storage buffer instead of a texture.',
    step(f) {
      const t = f.time;
      program.setUniform('wind', [s.wind * (0.6 + 0.4 * Math.sin(t * 1.7)), 0, s.wind * 0.8 * Math.sin(t * 0.9)]);
      program.setUniform('dt', f.dt / s.substeps);
      program.setUniform('stiffness', s.stiffness);
      for (let k = 0; k < s.substeps; k++) {
        updateTextures(device, [[positions, state[0].gpuBuffer]]);
        pipeline.step();
      }
    },
    render(pass, f) {
      new Float32Array(paramData, 0, 16).set(f.viewProjection);
      device.queue.writeBuffer(params, 0, paramData);
      const buffer = state[0].gpuBuffer; // the latest positions
      if (!bindGroups.has(buffer))
        bindGroups.set(buffer, device.createBindGroup({ layout: draw.getBindGroupLayout(0), entries: [
          { binding: 0, resource: { buffer: params } }, { binding: 1, resource: { buffer } }] }));
      pass.setPipeline(draw);
      pass.setBindGroup(0, bindGroups.get(buffer));
      pass.setIndexBuffer(indices, 'uint32');
      pass.drawIndexed(indexCount);
    },
    panel(ui) {
      ui.slider('wind', { min: 0, max: 20, step: 0.1, value: s.wind, onInput: (v) => (s.wind = v) });
      ui.slider('stiffness', { min: 0.1, max: 1, step: 0.01, value: s.stiffness, onInput: (v) => (s.stiffness = v) });
      ui.slider('substeps', { min: 1, max: 32, step: 1, value: s.substeps, onInput: (v) => (s.substeps = v) });
      ui.text(() => `grid ${s.width} x ${s.height}, ${indexCount / 3} triangles`);
      ui.button('drop it again', () => { build(); ui.rebuilt(); });
    },
    checked: () => ({ buffer: state[0], initial }),
    dispose() { release(objects); params.destroy(); },
  };
}
