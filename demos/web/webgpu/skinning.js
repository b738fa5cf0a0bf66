// Skinning on WebGPU (demos/skinning.cpp). Variant "cache": the mesh's vertices are skinned once
// per frame (1:1 with the vertex buffer) into a write-only buffer, then drawn six times (three
// instances and their shadows) with the original index buffer. Variant "captured": primitive
// capture of the indexed triangles (one record per index) as three submeshes appended into one
// buffer (captureSession: base, sleeve, tip; the sleeve skinned by a second program with the same
// record layout), each part drawn with its own material (drawSession(pass, { part })).
// Variant "normals" (issue 27): the cached mesh and, on top, the geometry pass of skinning.cpp's
// "normals" variant over its indexed triangles (createProgram({ source, geometry }): per triangle
// a face normal from its centroid and a fin along the skinned vertex normal, captured as lines by
// the engine's compute passes), drawn with drawCapturedStream() (drawIndirect: no count read back).
// Every step checks the capture's statistics: 2 lines (4 records) a triangle, none dropped.
import { capturedFormat, dataBuffer, release, renderPipeline, vertexAttributes } from './gpu.js';
import { identity, multiply, rotationZ, translation } from './math.js';

// skinning.cpp's kDrawVertex / kDrawFragment.
const RENDER = /* wgsl */ `
struct Draw { viewProjection: mat4x4<f32>, material: vec3<f32>, shadow: f32 };
@group(0) @binding(0) var<uniform> draw: Draw;
struct Out { @builtin(position) position: vec4<f32>, @location(0) n: vec3<f32>, @location(1) isShadow: f32 };
@vertex fn vs(@builtin(instance_index) instance: u32, @location(0) position: vec4<f32>, @location(1) normal: vec4<f32>) -> Out {
  var p = position.xyz + vec3(f32(i32(instance) - 1) * 1.4, 0.0, 0.0);
  if (draw.shadow > 0.5) { p = vec3(p.x + 0.4 * (p.y + 1.0), -1.0, p.z - 0.3 * (p.y + 1.0)); }  // flattened onto the floor
  return Out(draw.viewProjection * vec4(p, 1.0), normal.xyz, draw.shadow);
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> {
  let light = 0.3 + 0.7 * max(dot(normalize(i.n), normalize(vec3(0.4, 0.9, 0.5))), 0.0);
  if (i.isShadow > 0.5) { return vec4(0.06, 0.07, 0.09, 1.0); }
  return vec4(draw.material * light, 1.0);
}
`;
// skinning.cpp's kLineVertex / kLineFragment: the captured lines beside each instance.
const LINES = /* wgsl */ `
struct Draw { viewProjection: mat4x4<f32> };
@group(0) @binding(0) var<uniform> draw: Draw;
struct Out { @builtin(position) position: vec4<f32>, @location(0) colour: vec4<f32> };
@vertex fn vs(@builtin(instance_index) instance: u32, @location(0) position: vec4<f32>, @location(1) colour: vec4<f32>) -> Out {
  return Out(draw.viewProjection * vec4(position.xyz + vec3(f32(i32(instance) - 1) * 1.4, 0.0, 0.0), 1.0), colour);
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> { return i.colour; }
`;
const MATERIALS = [[0.45, 0.8, 0.55], [0.9, 0.55, 0.25], [0.4, 0.55, 0.95]];
const SLOT = 256; // bytes per draw's uniforms (minUniformBufferOffsetAlignment)

export default async function create(ctx) {
  const { xfb, device } = ctx;
  const [skin, sleeve, skinForGeometry, normalsGeometry] = await Promise.all(
    ['skinning.vert', 'skinning-sleeve.vert', 'skinning-for-geometry.vert', 'skinning-normals.geom'].map((f) => ctx.glsl(f)));
  // Uniforms of the 6 draws (shadow, then each part's material), each its own bind group.
  const uniforms = device.createBuffer({ label: 'skinning draws', size: SLOT * 6, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const uniformData = new Float32Array((SLOT * 6) / 4);
  const s = { rings: 64, sides: 24, captured: ctx.variant === 'captured', normals: ctx.variant === 'normals' };
  const objects = [];
  let program, sleeveProgram, pipeline, capture, skinned, records, indices, indexCount, submeshes, session, draw, bindGroups;
  let normalsProgram, normalsCapture, normalsDraw, lines, linesDraw, linesBindGroup, lastLines;

  function build() {
    release(objects);
    const { rings, sides } = s, pos = [], nrm = [], wts = [], idx = [];
    for (let r = 0; r < rings; r++) {
      const y = -1 + (2 * r) / (rings - 1), radius = 0.22 * (1 - (0.6 * r) / rings);
      const bone = (y + 1) / 0.5; // 0..4 along the tube
      const w = [0, 0, 0, 0], b0 = Math.min(Math.floor(bone), 3), b1 = Math.min(b0 + 1, 3);
      const t = Math.min(Math.max(bone - b0, 0), 1);
      w[b0] += 1 - t;
      w[b1] += t;
      for (let k = 0; k < sides; k++) {
        const a = (6.2831853 * k) / sides;
        pos.push(radius * Math.cos(a), y, radius * Math.sin(a), 1);
        nrm.push(Math.cos(a), 0, Math.sin(a), 0);
        wts.push(...w);
        if (r + 1 < rings) {
          const i = r * sides + k, j = r * sides + ((k + 1) % sides);
          idx.push(i, i + sides, j, j, i + sides, j + sides);
        }
      }
    }
    indexCount = idx.length;
    const n = rings * sides;
    program = xfb.createProgram({ source: skin, label: 'skinning' });
    sleeveProgram = xfb.createProgram({ source: sleeve, label: 'skinning sleeve' });
    objects.push(program, sleeveProgram);
    const mesh = [pos, nrm, wts].map((data, k) =>
      xfb.createBuffer({ format: [{ semantic: `ATTR${k}`, components: 4 }], count: n, data: new Float32Array(data), label: ['position', 'normal', 'weights'][k] }));
    const recordFormat = capturedFormat(program.plan); // out_position, out_normal: 32 bytes a record
    skinned = xfb.createBuffer({ ...recordFormat, count: n, label: 'skinned' });
    objects.push(...mesh, skinned);
    pipeline = xfb.createPipeline(program, [{ input: mesh[0] }, { input: mesh[1] }, { input: mesh[2] }, { output: skinned }]);
    objects.push(pipeline);
    // Three submeshes by ring: base, sleeve (its own program), tip.
    const perRing = sides * 6, ringCount = idx.length / perRing;
    const cut = [0, Math.floor(ringCount / 3) * perRing, Math.floor((2 * ringCount) / 3) * perRing, idx.length];
    submeshes = [0, 1, 2].map((part) => ({
      mode: 'triangles',
      indices: new Uint32Array(idx.slice(cut[part], cut[part + 1])),
      restartIndex: null,
      ...(part === 1 ? { program: sleeveProgram } : {}),
    }));
    records = xfb.createBuffer({ ...recordFormat, count: idx.length, label: 'triangle records' });
    objects.push(records);
    capture = xfb.createCapture(program, [{ input: mesh[0] }, { input: mesh[1] }, { input: mesh[2] }, { output: records }]);
    objects.push(capture);
    session = null;
    indices = dataBuffer(device, 'skinning indices', GPUBufferUsage.INDEX, new Uint32Array(idx));
    objects.push(indices);
    // Position and normal, the first two fields of the captured record layout.
    draw ??= renderPipeline(ctx, {
      label: 'skinning draw',
      code: RENDER,
      buffers: [{ arrayStride: skinned.layout.stride, attributes: vertexAttributes(skinned.layout) }],
    });
    bindGroups ??= [0, 1, 2, 3, 4, 5].map((k) => device.createBindGroup({
      layout: draw.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: uniforms, offset: k * SLOT, size: 80 } }],
    }));
    // The geometry pass over the mesh's triangles: max_vertices 4 as lines budgets 3 lines (6 records) a triangle.
    normalsProgram = xfb.createProgram({ source: skinForGeometry, geometry: normalsGeometry, label: 'skinning normals' });
    lines = xfb.createBuffer({ ...capturedFormat(normalsProgram.plan), count: (idx.length / 3) * 6, label: 'normals and fins' });
    normalsCapture = xfb.createCapture(normalsProgram, [{ input: mesh[0] }, { input: mesh[1] }, { input: mesh[2] }, { output: lines }]);
    normalsDraw = { mode: 'triangles', indices: new Uint32Array(idx), restartIndex: null };
    objects.push(normalsProgram, lines, normalsCapture);
    linesDraw ??= renderPipeline(ctx, {
      label: 'skinning normals draw',
      code: LINES,
      topology: 'line-list',
      buffers: [{ arrayStride: lines.layout.stride, attributes: vertexAttributes(lines.layout) }],
    });
    linesBindGroup ??= device.createBindGroup({
      layout: linesDraw.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: uniforms, offset: 0, size: 64 } }],
    });
  }
  build();

  // The geometry pass of a step, then its statistics: every triangle wrote its two lines.
  async function stepNormals(bones) {
    normalsProgram.setUniform('bones', bones);
    const budget = normalsCapture.capture(normalsDraw);
    const triangles = indexCount / 3, run = normalsCapture;
    const [st] = await run.statistics(); // a read-back of the passes' totals: small here
    if (run !== normalsCapture) return; // rebuilt meanwhile (setCount)
    lastLines = st;
    if (budget.records !== triangles * 6 || st.primitivesGenerated !== 2 * triangles || st.primitivesWritten !== 2 * triangles || st.recordsWritten !== 4 * triangles)
      ctx.fail(`the geometry pass wrote ${st.recordsWritten} records (${st.primitivesWritten} of ${st.primitivesGenerated} lines generated) for ${triangles} triangles, budget ${budget.records}: expected 2 lines, 4 records a triangle, budget 6`);
  }

  return {
    get program() { return program; },
    get pipeline() { return pipeline; },
    get count() { return s.rings * s.sides; },
    maxCount: 2048 * 64,
    setCount(n) { s.rings = Math.max(4, Math.floor(n / s.sides)); build(); },
    cameraDistance: 5,
    variants: ['cache', 'captured', 'normals'],
    get variant() { return s.captured ? 'captured' : s.normals ? 'normals' : 'cache'; },
    get webgpu() {
      return 'WebGPU has no transform feedback, so no driver expansion: the capture is the engine\'s expansion ' +
        '(the planner lists every record\'s source vertex, one compute dispatch per run of parts writes the records), ' +
        'as in the WebGL2 build. <code>drawSession(pass, { part, instances: 3 })</code> records <code>pass.draw()</code> ' +
        'with the planned range; the render pipeline\'s topology is the mode.';
    },
    step(f) {
      // Four bones along the tube, each bending a little more: a swaying tentacle.
      const bones = new Float32Array(64);
      let parent = identity();
      for (let b = 0; b < 4; b++) {
        const angle = 0.45 * Math.sin(f.time * 1.6 + b * 0.7);
        parent = multiply(parent, multiply(translation(0, b === 0 ? -1 : 0.5, 0), rotationZ(angle)));
        // Skinning matrix = pose * inverse(bind pose); the bind pose is a translation to the bone's base.
        bones.set(multiply(parent, translation(0, 1 - 0.5 * b, 0)), b * 16);
      }
      program.setUniform('bones', bones);
      sleeveProgram.setUniform('bones', bones);
      if (s.captured) session = capture.captureSession(submeshes);
      else pipeline.step();
      if (s.normals) stepNormals(bones).catch((e) => ctx.fail(`the geometry pass: ${e.code ?? ''} ${e.message}`));
    },
    render(pass, f) {
      if (s.captured && !session) return; // switched to captured while paused: nothing captured yet
      for (let k = 0; k < 6; k++) {
        const at = (k * SLOT) / 4;
        uniformData.set(f.viewProjection, at);
        uniformData.set(MATERIALS[k % 3], at + 16);
        uniformData[at + 19] = k < 3 ? 1 : 0; // shadows first
      }
      device.queue.writeBuffer(uniforms, 0, uniformData);
      pass.setPipeline(draw);
      pass.setVertexBuffer(0, s.captured ? records.gpuBuffer : skinned.gpuBuffer);
      if (!s.captured) pass.setIndexBuffer(indices, 'uint32');
      for (const shadow of [1, 0]) { // the same skinned vertices, drawn six times
        if (!s.captured) {
          pass.setBindGroup(0, bindGroups[shadow ? 0 : 3]);
          pass.drawIndexed(indexCount, 3);
          continue;
        }
        for (let part = 0; part < submeshes.length; part++) { // each submesh with its material
          pass.setBindGroup(0, bindGroups[(shadow ? 0 : 3) + part]);
          capture.drawSession(pass, { part, instances: 3 });
        }
      }
      if (s.normals) { // the geometry pass's lines beside each instance, depth-tested against the mesh
        pass.setPipeline(linesDraw);
        pass.setBindGroup(0, linesBindGroup);
        pass.setVertexBuffer(0, lines.gpuBuffer);
        normalsCapture.drawCapturedStream(pass, 0, { instances: 3 }); // the GPU's count: nothing read back
      }
    },
    panel(ui) {
      ui.radio('variant', [['cache', 'cache vertices (one pass 1:1 with them) + index buffer'], ['captured', 'capture 3 submeshes into one buffer + drawSession'],
        ['normals', 'cache + face normals and fins, geometry pass (compute)']],
      s.captured ? 'captured' : s.normals ? 'normals' : 'cache', (v) => { s.captured = v === 'captured'; s.normals = v === 'normals'; session = null; lastLines = null; ui.rebuilt(); });
      ui.text(() => (s.normals && lastLines ? `geometry pass: ${lastLines.primitivesWritten} lines (${lastLines.recordsWritten} records) for ${indexCount / 3} triangles` : ''));
      ui.text(() => `skinned per frame, one pass 1:1 with the vertex buffer: ${s.rings * s.sides} vertices`);
      ui.text(() => `captured triangles: ${indexCount} records (${(indexCount / (s.rings * s.sides)).toFixed(1)}x), ${capture.info.expansion} expansion`);
      ui.text(() => (session ? session.parts.map((p) => `  part at record ${p.firstRecord}: ${p.records} records`).join('\n') : ''));
      ui.text('draws of the skinned result: 6 (3 instances + shadows)');
    },
    checked: () => ({ buffer: s.captured ? records : skinned, initial: null }),
    dispose() { release(objects); uniforms.destroy(); },
  };
}
