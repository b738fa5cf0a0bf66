// Flock on WebGPU (demos/flock.cpp): separate mode with all three roles. Position and velocity
// are state, max speed and a seed per-boid constants ({input}), and two write-only buffers
// ({output}) hold what the draw of cones needs: the render pass binds only those (as storage).
// Neighbours come from texture copies of the state (the GLSL's sampler2D, copyBufferToTexture).
import { BufferTexture, dataBuffer, release, renderPipeline, updateTextures } from './gpu.js';
import { random } from './math.js';

// flock.cpp's kConeVertex / kConeFragment. The cone's vertices and the boids' instance data are
// pulled from storage buffers (vertex v: boid v / 48, cone vertex v % 48) rather than an instanced
// draw: SwiftShader runs an instanced draw instance by instance (16k boids: 1.8 frames a second
// instanced, 2.8 pulled, on this project's busy 2-core machine).
const RENDER = /* wgsl */ `
@group(0) @binding(0) var<uniform> viewProjection: mat4x4<f32>;
@group(0) @binding(1) var<storage, read> cone: array<f32>;  // position, normal per vertex
@group(0) @binding(2) var<storage, read> instancePositions: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> instanceDirections: array<vec4<f32>>;
struct Out { @builtin(position) position: vec4<f32>, @location(0) shade: vec3<f32> };
@vertex fn vs(@builtin(vertex_index) v: u32) -> Out {
  let boid = v / CONE_VERTICES;
  let c = (v % CONE_VERTICES) * 6u;
  let vertex = vec3(cone[c], cone[c + 1u], cone[c + 2u]);
  let normal = vec3(cone[c + 3u], cone[c + 4u], cone[c + 5u]);
  let instancePosition = instancePositions[boid];
  let instanceDirection = instanceDirections[boid];
  let f = instanceDirection.xyz;
  let r = normalize(cross(select(vec3(0.0, 1.0, 0.0), vec3(1.0, 0.0, 0.0), abs(f.y) > 0.95), f));
  let u = cross(f, r);
  let basis = mat3x3<f32>(r, u, f);
  let s = 0.035 * instancePosition.w;
  let light = 0.35 + 0.65 * max(dot(basis * normal, normalize(vec3(0.4, 1.0, 0.3))), 0.0);
  let shade = mix(vec3(0.95, 0.55, 0.2), vec3(0.3, 0.75, 1.0), clamp(instanceDirection.w / 2.0, 0.0, 1.0)) * light;
  return Out(viewProjection * vec4(instancePosition.xyz + basis * (vertex * s), 1.0), shade);
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> { return vec4(i.shade, 1.0); }
`;

/** 8 sides and the base: position, normal per vertex (flock.cpp's makeCone()). */
function cone() {
  const v = [], sides = 8;
  const sub = (a, b) => a.map((x, i) => x - b[i]);
  for (let i = 0; i < sides; i++) {
    const a0 = (6.2831853 * i) / sides, a1 = (6.2831853 * (i + 1)) / sides;
    const tip = [0, 0, 2], b0 = [Math.cos(a0), Math.sin(a0), 0], b1 = [Math.cos(a1), Math.sin(a1), 0];
    const e1 = sub(b1, tip), e2 = sub(b0, tip);
    const c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const l = Math.hypot(...c), n = c.map((x) => x / l);
    for (const p of [tip, b1, b0]) v.push(...p, ...n);
    for (const p of [[0, 0, 0], b0, b1]) v.push(...p, 0, 0, -1);
  }
  return new Float32Array(v);
}

export default async function create(ctx) {
  const { xfb, device } = ctx;
  const source = await ctx.glsl('flock.vert');
  const coneData = cone(), coneVertices = coneData.length / 6;
  const coneBuffer = dataBuffer(device, 'cone', GPUBufferUsage.STORAGE, coneData);
  const camera = device.createBuffer({ label: 'flock camera', size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const s = { count: 16_384, separation: 1, alignment: 0.8, cohesion: 0.6 };
  const objects = [];
  let program, pipeline, state, instances, textures, initial, draw, bindGroup;

  function build() {
    release(objects);
    const rng = random(3), u = () => 2 * rng() - 1, n = s.count;
    const pos = new Float32Array(n * 4), vel = new Float32Array(n * 4), constants = new Float32Array(n * 2);
    for (let e = 0; e < n; e++) {
      for (let i = 0; i < 3; i++) (pos[e * 4 + i] = 1.5 * u()), (vel[e * 4 + i] = 0.3 * u());
      constants[e * 2] = 1.2 + 0.4 * u();
      constants[e * 2 + 1] = 0.5 + 0.5 * u();
    }
    initial = pos;
    program = xfb.createProgram({ source, mode: 'separate', label: 'flock' });
    objects.push(program);
    state = [], instances = [];
    const next = [];
    for (let k = 0; k < 2; k++) {
      const format = [{ semantic: `ATTR${k}`, components: 4 }];
      state.push(xfb.createBuffer({ format, count: n, data: k ? vel : pos, label: k ? 'velocity' : 'position' }));
      next.push(xfb.createBuffer({ format, count: n, label: `${k ? 'velocity' : 'position'} next` }));
      // The draw's own semantics (ATTR12, ATTR13): these buffers only ever feed it.
      instances.push(xfb.createBuffer({ format: [{ semantic: `ATTR${12 + k}`, components: 4 }], count: n, label: `instance ${k ? 'direction' : 'position'}` }));
    }
    const constantsBuffer = xfb.createBuffer({ format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: constants, label: 'constants' });
    objects.push(...state, ...next, ...instances, constantsBuffer);
    pipeline = xfb.createPipeline(program, [
      { input: state[0], output: next[0] },
      { input: state[1], output: next[1] },
      { input: constantsBuffer },
      { output: instances[0] },
      { output: instances[1] },
    ]);
    objects.push(pipeline);
    program.setUniform('count', n);
    textures = [new BufferTexture(device, n, 'positions'), new BufferTexture(device, n, 'velocities')];
    objects.push(...textures);
    pipeline.setTexture('positions', textures[0].texture); // the GLSL's sampler2D uniforms
    pipeline.setTexture('velocities', textures[1].texture);
    draw ??= renderPipeline(ctx, { label: 'flock cones', code: RENDER.replaceAll('CONE_VERTICES', `${coneVertices}u`) });
    // Write-only outputs never swap: one bind group for the buffers of this build.
    bindGroup = device.createBindGroup({ layout: draw.getBindGroupLayout(0), entries: [
      { binding: 0, resource: { buffer: camera } }, { binding: 1, resource: { buffer: coneBuffer } },
      { binding: 2, resource: { buffer: instances[0].gpuBuffer } }, { binding: 3, resource: { buffer: instances[1].gpuBuffer } }] });
  }
  build();

  return {
    get program() { return program; },
    get pipeline() { return pipeline; },
    get count() { return s.count; },
    maxCount: 262_144,
    setCount(n) { s.count = n; build(); },
    cameraDistance: 4.5,
    webgpu: 'The same as WebGL2: the GLSL samples its neighbours from <code>sampler2D</code> copies of the state ' +
      '(<code>texelFetch</code>, translated to <code>textureLoad</code>; the copies are <code>copyBufferToTexture</code>, ' +
      'given to the pipeline once with <code>pipeline.setTexture()</code>).',
    step(f) {
      updateTextures(device, [[textures[0], state[0].gpuBuffer], [textures[1], state[1].gpuBuffer]]);
      program.setUniform('dt', f.dt);
      program.setUniform('time', f.time);
      program.setUniform('separation', s.separation);
      program.setUniform('alignment', s.alignment);
      program.setUniform('cohesion', s.cohesion);
      program.setUniform('target', [Math.sin(f.time * 0.7) * 1.2, Math.sin(f.time * 1.3) * 0.5, Math.cos(f.time * 0.5) * 1.2]);
      pipeline.step();
    },
    render(pass, f) {
      device.queue.writeBuffer(camera, 0, f.viewProjection);
      pass.setPipeline(draw);
      pass.setBindGroup(0, bindGroup);
      pass.draw(coneVertices * s.count);
    },
    panel(ui) {
      ui.slider('separation', { min: 0, max: 3, step: 0.01, value: s.separation, onInput: (v) => (s.separation = v) });
      ui.slider('alignment', { min: 0, max: 3, step: 0.01, value: s.alignment, onInput: (v) => (s.alignment = v) });
      ui.slider('cohesion', { min: 0, max: 3, step: 0.01, value: s.cohesion, onInput: (v) => (s.cohesion = v) });
      ui.text('state: position, velocity; constants: max speed, seed; write-only: instance position, direction (4 separate buffers, 4 components each)');
    },
    checked: () => ({ buffer: state[0], initial }),
    dispose() { release(objects); coneBuffer.destroy(); camera.destroy(); },
  };
}
