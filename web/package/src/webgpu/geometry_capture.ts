// A geometry program's capture on WebGPU: the passes of the GL compute capture
// (engine/src/capture/geometry_compute.cpp) from the same plan and WGSL of the same kernels
// (Module.wgslGeometry, engine/src/plan/wgsl_geometry.cpp): the vertex shader over the input
// vertices into scratch records, the count kernel per item (input primitive x invocation), an
// exclusive prefix sum per stream (prefix_sum.wgsl, whose totals give the statistics and the
// indirect draws), the write kernel storing each stream's records in the GL's order. One command
// encoder, one submit; nothing is written before the planner's checks passed (Module.geometryDraw).
import { XfbError } from '../core/errors.js';
import type { DrawFields } from '../core/draws.js';
import type { GeometryCaptureCount, StreamStatistics } from '../core/types.js';
import { compileComputePipeline, workGroupsFor } from './compile.js';
import type { WebGpuEntry, XfbWebGpu } from './engine.js';
import { buildPrefixSums, type PrefixSums } from './prefix_sum.js';
import type { XfbWebGpuProgram } from './program.js';
import { StagingReadback } from './staging_readback.js';
import type { GeometryTranslation } from './wasm_module.js';
import { BufferUsage, ShaderStage } from './flags.js';

const TOTALS_BYTES = 32; // per stream: written, 1, 0, 0 (drawIndirect), groups, 1, 1, requested

interface Kernel {
  layout: GPUBindGroupLayout;
  pipeline: GPUComputePipeline;
  compiled: Promise<unknown>;
}

export class GeometryCaptureRun {
  readonly #owner: XfbWebGpu;
  readonly #program: XfbWebGpuProgram;
  readonly #entries: WebGpuEntry[];
  readonly #t: GeometryTranslation;
  #vertex: Kernel | null = null;
  #count!: Kernel;
  #write!: Kernel;
  #vertexUniforms!: GPUBuffer;
  #geometryUniforms!: GPUBuffer;
  #scratch: GPUBuffer | null = null;
  #sources: GPUBuffer | null = null;
  #scans: PrefixSums | null = null;
  #scanKey = '';
  #totals: StagingReadback | null = null;
  #last: GeometryCaptureCount | null = null;
  /** Per kernel, its last bind group and the buffers it binds. */
  readonly #groups = new Map<Kernel, { buffers: GPUBuffer[]; group: GPUBindGroup }>();

  constructor(owner: XfbWebGpu, program: XfbWebGpuProgram, entries: WebGpuEntry[], translation: GeometryTranslation) {
    this.#owner = owner;
    this.#program = program;
    this.#entries = entries;
    this.#t = translation;
    this.build();
  }

  /** The kernels and uniform buffers on the engine's (new) device. */
  build(): void {
    this.#groups.clear();
    const device = this.#owner.gpuDevice;
    const t = this.#t;
    const g = t.geometry;
    const label = `${this.#program.label} geometry capture`;
    const visibility = ShaderStage.COMPUTE;
    const kernel = (code: string, entryPoint: string, name: string, bindings: [number, GPUBufferBindingType][]) => {
      const layout = device.createBindGroupLayout({
        label: `${label} ${name} bindings`,
        entries: bindings.filter(([b]) => b >= 0).map(([binding, type]) => ({ binding, visibility, buffer: { type } })),
      });
      const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
      return { layout, ...compileComputePipeline(device, pipelineLayout, code, entryPoint, `${label} ${name}`) };
    };
    if (g.scratchStride)
      this.#vertex = kernel(t.source, t.entryPoint, 'vertex pass', [
        [t.uniformBinding, 'uniform'],
        ...t.readBinding.map((b): [number, GPUBufferBindingType] => [b, 'read-only-storage']),
        ...t.writeBinding.map((b): [number, GPUBufferBindingType] => [b, 'storage']),
      ]);
    const shared: [number, GPUBufferBindingType][] = [
      [g.uniformBinding, 'uniform'],
      [g.scratchStride ? g.scratchBinding : -1, 'read-only-storage'],
      [g.sourcesBinding, 'read-only-storage'],
    ];
    this.#count = kernel(g.countSource, g.entryPoint, 'count pass', [
      ...shared,
      ...g.countsBinding.map((b): [number, GPUBufferBindingType] => [b, 'storage']),
    ]);
    this.#write = kernel(g.writeSource, g.entryPoint, 'write pass', [
      ...shared,
      ...g.outputBinding.map((b): [number, GPUBufferBindingType] => [b, 'storage']),
      ...g.firstBinding.map((b): [number, GPUBufferBindingType] => [b, 'read-only-storage']),
    ]);
    const uniform = (size: number, name: string): GPUBuffer =>
      device.createBuffer({ label: `${label} ${name}`, size, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
    this.#vertexUniforms = uniform(t.uniformBytes, 'vertex uniforms');
    this.#geometryUniforms = uniform(g.uniformBytes, 'geometry uniforms');
    this.#scratch = this.#sources = this.#scans = null;
    this.#scanKey = '';
    this.#totals = null;
  }

  /** Resolves when the three kernels compiled (XFB_SHADER_COMPILE otherwise). */
  get compiled(): Promise<unknown> {
    return Promise.all([this.#vertex?.compiled, this.#count.compiled, this.#write.compiled]);
  }

  get last(): GeometryCaptureCount | null {
    return this.#last;
  }

  /** Checks the draw (Module.geometryDraw), then records and submits the passes. */
  capture(draw: DrawFields, vertexCount: number, clamp: boolean): GeometryCaptureCount {
    const t = this.#t;
    const g = t.geometry;
    const outputs = t.outputs.map((o) => this.#entries[o.entry]?.output?.byteLength ?? 0);
    const p = this.#program;
    const planned = this.#owner.module.geometryDraw(
      p.source,
      p.geometry as string,
      p.options,
      draw,
      vertexCount,
      outputs,
      clamp,
    );
    if (planned instanceof XfbError) throw planned;
    const device = this.#owner.gpuDevice;
    const primitives = planned.sources.length / g.inputVertices;
    const live = primitives * g.invocations;
    let items = 64;
    while (items < live) items *= 2;
    const key = `${items} ${planned.capacity.join(' ')}`;
    if (key !== this.#scanKey) {
      for (const b of this.#scans?.buffers ?? []) b.destroy();
      const budgets = planned.capacity.map((capacity, s) => ({ budget: `stream ${s}`, capacity }));
      this.#scans = buildPrefixSums(
        device,
        this.#owner.prefixSumModule,
        `${p.label} geometry`,
        items,
        budgets,
        g.workGroupSize,
      );
      this.#scanKey = key;
    }
    const scans = this.#scans as PrefixSums;
    this.#sources = this.#grow(this.#sources, Math.max(4, planned.sources.byteLength), 'sources');
    if (planned.sources.length) device.queue.writeBuffer(this.#sources, 0, planned.sources);
    if (g.scratchStride)
      this.#scratch = this.#grow(this.#scratch, Math.max(4, vertexCount * g.scratchStride), 'scratch');
    // Each uniform buffer: the program's image of its uniforms, then the counts. The vertex pass's:
    // the vertex shader's values and its count; the kernels': the geometry shader's values (from
    // byte 32), items, live, capacities.
    const upload = (buffer: GPUBuffer, bytes: number, values: ArrayBuffer, counts: [number, number][]): void => {
      const words = new Uint32Array(bytes / 4);
      new Uint8Array(words.buffer).set(new Uint8Array(values));
      for (const [at, n] of counts) words[at / 4] = n;
      device.queue.writeBuffer(buffer, 0, words);
    };
    upload(this.#vertexUniforms, t.uniformBytes, p.uniformBytes, [[t.countOffset, vertexCount]]);
    upload(this.#geometryUniforms, g.uniformBytes, p.geometryUniformBytes, [
      [0, items],
      [4, live],
      ...planned.capacity.map((c, s): [number, number] => [16 + 4 * s, c]),
    ]);

    const encoder = device.createCommandEncoder({ label: `${p.label} geometry capture` });
    const pass = encoder.beginComputePass();
    const dispatch = (k: Kernel, bound: [number, GPUBuffer][], count: number, groupSize: number): void => {
      const entries = bound.filter(([b]) => b >= 0);
      // A steady capture (the same buffers every frame) makes no GPU object: the bind group is kept
      // until a buffer changes (a state pair's swap, a grown scratch or scan).
      const kept = this.#groups.get(k);
      const same = kept?.buffers.length === entries.length && kept.buffers.every((x, i) => x === entries[i]?.[1]);
      const group =
        kept && same
          ? kept.group
          : device.createBindGroup({
              layout: k.layout,
              entries: entries.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
            });
      if (!same) this.#groups.set(k, { buffers: entries.map(([, buffer]) => buffer), group });
      pass.setPipeline(k.pipeline);
      pass.setBindGroup(0, group);
      const [x, y] = workGroupsFor(device, count, groupSize);
      pass.dispatchWorkgroups(x, y);
    };
    if (this.#vertex && vertexCount > 0) {
      const bound: [number, GPUBuffer][] = [[t.uniformBinding, this.#vertexUniforms]];
      this.#entries.forEach((e, i) => {
        if (e.input) bound.push([t.readBinding[i] ?? -1, e.input.current]);
      });
      bound.push([t.writeBinding[this.#entries.length] ?? -1, this.#scratch as GPUBuffer]);
      dispatch(this.#vertex, bound, vertexCount, t.workGroupSize);
    }
    const shared: [number, GPUBuffer][] = [
      [g.uniformBinding, this.#geometryUniforms],
      [g.sourcesBinding, this.#sources],
    ];
    if (g.scratchStride) shared.push([g.scratchBinding, this.#scratch as GPUBuffer]);
    dispatch(
      this.#count,
      [...shared, ...scans.countBuffers.map((c, s): [number, GPUBuffer] => [g.countsBinding[s] as number, c.counts])],
      items,
      g.workGroupSize,
    );
    for (const list of scans.dispatches)
      for (const [pipeline, group, groups] of list) {
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(groups);
      }
    if (live > 0) {
      const outputs: [number, GPUBuffer][] = t.outputs.map((o, b) => [
        g.outputBinding[b] as number,
        this.#entries[o.entry]?.output?.current as GPUBuffer,
      ]);
      const firsts = scans.countBuffers.map((c, s): [number, GPUBuffer] => [g.firstBinding[s] as number, c.firsts]);
      dispatch(this.#write, [...shared, ...outputs, ...firsts], live, g.workGroupSize);
    }
    pass.end();
    device.queue.submit([encoder.finish()]);
    this.#last = planned.count;
    return planned.count;
  }

  /** Per stream, from the prefix sums' totals: records requested and written (a read-back). */
  async statistics(): Promise<StreamStatistics[]> {
    const g = this.#t.geometry;
    const scans = this.#scans as PrefixSums;
    this.#totals ??= new StagingReadback(
      this.#owner.gpuDevice,
      `${this.#program.label} statistics`,
      TOTALS_BYTES * g.streamCount,
    );
    const bytes = await this.#totals.read(scans.totals, this.#owner.settle, 'statistics()');
    const words = new Uint32Array(bytes.buffer);
    const v = g.primitiveVertices;
    return g.streams.map((s) => {
      const written = words[s.stream * 8] as number;
      const requested = words[s.stream * 8 + 7] as number;
      const generated = requested / v;
      const primitivesWritten = written / v;
      return {
        stream: s.stream,
        captured: s.captured,
        primitivesGenerated: generated,
        primitivesWritten,
        recordsWritten: written,
        overflow: s.captured && generated > primitivesWritten,
      };
    });
  }

  /** The totals buffer (drawIndirect arguments at stream x 32 bytes), after a capture. */
  get totals(): GPUBuffer {
    return (this.#scans as PrefixSums).totals;
  }

  get translation(): GeometryTranslation {
    return this.#t;
  }

  destroy(): void {
    for (const b of [this.#vertexUniforms, this.#geometryUniforms, this.#scratch, this.#sources]) b?.destroy();
    for (const b of this.#scans?.buffers ?? []) b.destroy();
    this.#totals?.destroy();
  }

  #grow(buffer: GPUBuffer | null, bytes: number, name: string): GPUBuffer {
    if (buffer && buffer.size >= bytes) return buffer;
    buffer?.destroy();
    return this.#owner.gpuDevice.createBuffer({
      label: `${this.#program.label} geometry ${name}`,
      size: Math.max(bytes, 1024),
      usage: BufferUsage.STORAGE | BufferUsage.COPY_DST,
    });
  }
}
