// Small WebGPU helpers the demos share (not part of xfb): vertex layouts from an xfb buffer's
// layout, render-pipeline pieces, and the texture copy of a vec4 buffer the GLSL samples.

/** WebGPU vertex attributes for an xfb buffer's `layout` (its semantics in order), from shader location `first`. */
export function vertexAttributes(layout, first = 0) {
  const scalar = { float32: 'float32', int32: 'sint32', uint32: 'uint32' };
  return layout.attributes.map((a, i) => ({
    shaderLocation: first + i,
    offset: a.offset,
    format: `${scalar[a.type]}${a.components > 1 ? `x${a.components}` : ''}`,
  }));
}

/** The buffer format of a program's captured buffer `binding`, from its plan (C++ asVertexFormat()):
 *  one attribute per field, ATTR0, ATTR1, ... at the planned offsets and stride. */
export function capturedFormat(plan, binding = 0) {
  const b = plan.buffers[binding];
  return {
    format: b.fields.map((f, i) => ({ semantic: `ATTR${i}`, type: f.type, components: f.components, offset: f.offset })),
    stride: b.stride,
  };
}

/** Additive blending, as glBlendFunc(GL_ONE, GL_ONE). */
export const ADDITIVE = {
  color: { srcFactor: 'one', dstFactor: 'one', operation: 'add' },
  alpha: { srcFactor: 'one', dstFactor: 'one', operation: 'add' },
};

/** The depth state of a pipeline drawn into the shell's pass: tested and written, or (test: false) neither. */
export function depth(ctx, test = true) {
  return test
    ? { format: ctx.depthFormat, depthWriteEnabled: true, depthCompare: 'less' }
    : { format: ctx.depthFormat, depthWriteEnabled: false, depthCompare: 'always' };
}

/** A render pipeline of one WGSL module (entry points vs and fs) into the shell's colour target. */
export function renderPipeline(ctx, { label, code, buffers = [], topology = 'triangle-list', blend, depthTest = true }) {
  const module = ctx.device.createShaderModule({ label, code });
  return ctx.device.createRenderPipeline({
    label,
    layout: 'auto',
    vertex: { module, entryPoint: 'vs', buffers },
    fragment: { module, entryPoint: 'fs', targets: [{ format: ctx.format, ...(blend ? { blend } : {}) }] },
    primitive: { topology },
    depthStencil: depth(ctx, depthTest),
  });
}

/** A GPUBuffer of `usage` holding `data` (a typed array). */
export function dataBuffer(device, label, usage, data) {
  const buffer = device.createBuffer({ label, size: Math.max(4, Math.ceil(data.byteLength / 4) * 4), usage: usage | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/**
 * demos/app/render.hpp's BufferTexture on WebGPU: a copy of a vec4 buffer in an rgba32float
 * texture, 1024 elements a row (copyBufferToTexture, GPU to GPU), for the GLSL's
 * `fetchElement(sampler2D, i)` = texelFetch at (i % 1024, i / 1024) (WGSL textureLoad).
 */
export class BufferTexture {
  static WIDTH = 1024;
  constructor(device, count, label) {
    this.count = count;
    this.texture = device.createTexture({
      label,
      size: [BufferTexture.WIDTH, Math.max(1, Math.ceil(count / BufferTexture.WIDTH))],
      format: 'rgba32float',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
  }
  /** Records the copy of `buffer` (count vec4) into the texture. */
  update(encoder, buffer) {
    const W = BufferTexture.WIDTH, bytesPerRow = W * 16;
    const full = Math.floor(this.count / W), rest = this.count % W;
    if (full) encoder.copyBufferToTexture({ buffer, bytesPerRow }, { texture: this.texture }, [W, full]);
    if (rest) encoder.copyBufferToTexture({ buffer, offset: full * bytesPerRow, bytesPerRow }, { texture: this.texture, origin: [0, full] }, [rest, 1]);
  }
  destroy() {
    this.texture.destroy();
  }
}

/** Copies each vec4 buffer into its BufferTexture in one submit (before a step that samples them). */
export function updateTextures(device, pairs) {
  const encoder = device.createCommandEncoder();
  for (const [texture, buffer] of pairs) texture.update(encoder, buffer);
  device.queue.submit([encoder.finish()]);
}

/**
 * Bind groups of a render pipeline that reads xfb buffers as storage: a state pair's GPUBuffer
 * changes with every step, so one bind group per GPUBuffer met (two for a pair), made once.
 * entries(...buffers) gives the bind group's entries; get(...buffers) the one for those buffers,
 * keyed by the first (buffers of state pairs stepped together swap together).
 */
export class StorageBindGroups {
  #groups = new Map();
  constructor(device, pipeline, entries) {
    this.device = device, this.pipeline = pipeline, this.entries = entries;
  }
  get(...buffers) {
    let group = this.#groups.get(buffers[0]);
    if (!group) {
      group = this.device.createBindGroup({ layout: this.pipeline.getBindGroupLayout(0), entries: this.entries(...buffers) });
      this.#groups.set(buffers[0], group);
    }
    return group;
  }
}

/** Disposes every xfb object and destroys every GPU object in `list`, the last made first, then empties it. */
export function release(list) {
  for (const o of list.splice(0).reverse()) (o.dispose ?? o.destroy).call(o);
}
