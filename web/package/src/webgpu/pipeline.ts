// Per step: one command encoder, one compute pass, one submit; the bind group of the current
// ping-pong side was built at createPipeline() (or setTexture()), and the uniform buffer is
// written only when a uniform changed. No GPU object is created in a steady step.
//
// step(k) of an element-local simulation (fusion()): one dispatch of a second pipeline whose WGSL
// loops the body k times per element (wasm: Module.wgslSubsteps). k is a u32 in the uniform
// buffer, not a constant of the WGSL: one module for every k, compiled the first time step(k > 1)
// runs, so no k costs a compile in the middle of a simulation and nothing needs a cache bound.
// Otherwise k ordinary dispatches in one pass (one submit per substep when the shader declares
// the built-in substep uniform, `uniform int xfb_substep`, whose value changes between them).
import { checkNoCheckedStepPending, checkSubsteps } from '../core/checks.js';
import { constants } from '../core/engine_tables.js';
import { fail, invalid } from '../core/errors.js';
import { checkBackendName, checkBackendOn } from '../core/pipeline_options.js';
import { checkPipelineParts, type ObjectRegistry, type XfbObjectBase } from '../core/registry.js';
import type {
  Backend,
  EmitReport,
  Fusion,
  GPUBufferType,
  GPUSamplerType,
  GPUTextureType,
  GPUTextureViewType,
  PipelineInfo,
  StepReport,
} from '../core/types.js';
import type { WebGpuEntry, XfbWebGpu } from './engine.js';
import { createBindGroupLayout, createSideBindGroups, type StatePair } from './bind_groups.js';
import { compileComputePipeline, workGroupsFor, type Compiled } from './compile.js';
import { WebGpuObject } from './object.js';
import { buildPrefixSums, type PrefixSums } from './prefix_sum.js';
import type { XfbWebGpuProgram } from './program.js';
import { StagingReadback } from './staging_readback.js';
import type { SubstepTranslation, Translation } from './wasm_module.js';
import { BufferUsage } from './flags.js';

/** Bytes of one budget's totals in the totals buffer. */
const TOTALS_BYTES = 32;

/** A program stepped over a role list: one compute pass per step, state pairs swapped. */
export class XfbWebGpuPipeline extends WebGpuObject {
  readonly #program: XfbWebGpuProgram;
  readonly #entries: WebGpuEntry[];
  readonly #translation: Translation;
  readonly #substepTranslation: SubstepTranslation;
  readonly #overflow: 'error' | 'clamp';
  readonly #uniformImage: Uint8Array<ArrayBuffer>;
  readonly #substepOffset: number;
  // The GPU objects, made by #build() on the engine's device (again after a device loss).
  #pipeline!: GPUComputePipeline;
  #bindGroupLayout!: GPUBindGroupLayout;
  #pipelineLayout!: GPUPipelineLayout;
  #uniformBuffer!: GPUBuffer;
  #pairs: StatePair[] = [];
  #workGroups!: [number, number];
  #textures = new Map<string, GPUTextureView>();
  #samplers = new Map<string, GPUSampler>();
  #countPipeline: GPUComputePipeline | null = null;
  #prefixSums: PrefixSums | null = null;
  #totalsReadback: StagingReadback | null = null;
  #compiled!: Promise<unknown>;
  #bindGroups: [GPUBindGroup, GPUBindGroup] | null = null;
  #fusedPipeline: GPUComputePipeline | null = null;
  // What the uniform buffer holds: the program's version, the substep index, the fused count.
  #writtenVersion = -1;
  #writtenSubstep = 0;
  #writtenSubsteps = 0;
  #steps = 0;
  #checkedPending = false;
  #partList: XfbObjectBase[] | null = null;

  /** @internal Use `XfbWebGpu.createPipeline()`. */
  constructor(
    owner: XfbWebGpu,
    registry: ObjectRegistry,
    program: XfbWebGpuProgram,
    entries: WebGpuEntry[],
    translation: Translation,
    substeps: SubstepTranslation,
    overflow: 'error' | 'clamp',
  ) {
    super(owner, registry, 'pipeline');
    this.#program = program;
    this.#entries = entries;
    this.#translation = translation;
    this.#substepTranslation = substeps;
    this.#overflow = overflow;
    const t = translation;
    // The fused shader's uniforms are the ordinary ones plus the substep count k after them.
    this.#uniformImage = new Uint8Array(Math.max(t.uniformBytes, substeps.uniformBytes ?? 0));
    this.#substepOffset = t.uniforms.find((u) => u.name === constants().substepUniform)?.offset ?? -1;
    this.#build();
  }

  /** @internal After a device loss, on the engine's new device: every GPU object again (the fused
   *  substeps' too, when a step compiled them); the uniforms rewritten by the next step. Textures
   *  belonged to the lost device: the pipeline steps once setTexture() gave them again. */
  restoreObjects(): void {
    // One of its parts disposed: it never steps again (XFB_DISPOSED), and its bind groups would
    // name a GPUBuffer of the lost device.
    if (this.#parts().some((part) => part.disposed)) return;
    const fused = this.#fusedPipeline !== null;
    this.#fusedPipeline = null;
    this.#bindGroups = null;
    this.#textures = new Map();
    this.#samplers = new Map();
    this.#writtenVersion = -1;
    this.#build();
    if (fused) this.#fused();
  }

  #build(): void {
    const t = this.#translation;
    const program = this.#program;
    const owner = this.owner;
    const device = owner.gpuDevice;
    this.#bindGroupLayout = createBindGroupLayout(device, t, program.label);
    this.#pipelineLayout = device.createPipelineLayout({
      bindGroupLayouts: [this.#bindGroupLayout],
    });
    const main = this.#compile(t.source, program.label);
    this.#pipeline = main.pipeline;
    this.#compiled = main.compiled;
    if (t.budgets.length) {
      const counting = this.#compile(t.countSource, `${program.label} count pass`);
      this.#countPipeline = counting.pipeline;
      this.#compiled = Promise.all([main.compiled, counting.compiled]);
      this.#prefixSums = buildPrefixSums(
        device,
        owner.prefixSumModule,
        program.label,
        t.count,
        t.budgets,
        t.workGroupSize,
      );
      this.#totalsReadback = new StagingReadback(
        device,
        `${program.label} totals readback`,
        t.budgets.length * TOTALS_BYTES,
      );
    }
    this.#compiled.catch(() => {}); // reported by ready / stepChecked()
    this.#uniformBuffer = device.createBuffer({
      label: `${program.label} uniforms`,
      size: this.#uniformImage.byteLength,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    new Uint32Array(this.#uniformImage.buffer)[t.countOffset / 4] = t.count;
    this.#pairs = [];
    for (const e of this.#entries)
      if (e.input && e.output)
        this.#pairs.push({
          entry: e as Required<WebGpuEntry>,
          first: e.input.current,
          second: e.output.current,
        });
    this.#workGroups = workGroupsFor(device, t.count, t.workGroupSize);
    if (!t.textures.length) this.#buildBindGroups();
  }

  /** Elements, steps taken, backend, work-group size and output buffers. */
  get info(): PipelineInfo & { workGroupSize: number } {
    this.check();
    const t = this.#translation;
    return {
      count: t.count,
      steps: this.#steps,
      backend: 'webgpu',
      backendReason: 'WebGPU runs every step as a compute pass',
      workGroupSize: t.workGroupSize,
      outputs: t.outputs.map((o) => ({ ...o })),
    };
  }
  /** The number of elements a step runs. */
  get count(): number {
    return this.#translation.count;
  }
  /** The WGSL this pipeline runs. */
  get wgsl(): string {
    return this.#translation.source;
  }
  /** Resolves once the shader module compiled.
   *  @throws XfbError XFB_SHADER_COMPILE, XFB_CONTEXT_LOST (XFB_DISPOSED) when the device was lost (the pipeline disposed) meanwhile. */
  get ready(): Promise<void> {
    return this.owner.settle(this.#compiled, 'ready').then(() => this.check());
  }

  /** The engines' common switch (C++ Pipeline::setBackend): 'compute' and 'auto' keep the one
   *  WebGPU backend; 'tf' and 'fragment' are WebGL2 backends.
   *  @throws XfbError XFB_INVALID_ARGUMENT (no such backend), XFB_UNSUPPORTED ('tf', 'fragment'). */
  setBackend(backend: Backend): void {
    this.check();
    checkBackendOn(checkBackendName(backend, 'setBackend()'), 'webgpu', 'setBackend()');
  }

  /** The texture a sampler uniform reads: a GPUTexture or GPUTextureView. A uniform the shader
   *  samples (texture(), textureLod(), ...) reads it through `sampler`, by default GL's default
   *  sampler state (repeat, linear magnification, nearest-mipmap-linear minification), so give
   *  the GPUSampler that matches the WebGL texture's parameters; its texture must be of a
   *  filterable format. A uniform read with texelFetch() only takes no sampler. Rebuilds the two
   *  bind groups (not per step). */
  setTexture(name: string, texture: GPUTextureType | GPUTextureViewType, sampler?: GPUSamplerType): void {
    this.check();
    const samplers = this.#translation.textures;
    const x = samplers.find((s) => s.name === name);
    if (!x)
      invalid(
        `setTexture(): the shader has no sampler '${name}'; samplers: ${samplers.map((s) => s.name).join(', ') || 'none'}`,
      );
    const given = texture as unknown as {
      createView?: unknown;
      label?: unknown;
    } | null;
    if (!given || (typeof given.createView !== 'function' && typeof given.label !== 'string'))
      invalid('setTexture(): texture must be a GPUTexture or a GPUTextureView');
    if (sampler !== undefined && x.samplerBinding < 0)
      invalid(`setTexture(): '${name}' is read with texelFetch() only: give no sampler`);
    this.#textures.set(
      name,
      typeof given.createView === 'function'
        ? (given as unknown as GPUTexture).createView()
        : (given as unknown as GPUTextureView),
    );
    if (x.samplerBinding >= 0)
      this.#samplers.set(
        name,
        sampler ??
          this.owner.gpuDevice.createSampler({
            addressModeU: 'repeat',
            addressModeV: 'repeat',
            addressModeW: 'repeat',
            magFilter: 'linear',
            minFilter: 'nearest',
            mipmapFilter: 'linear',
          }),
      );
    if (samplers.every((s) => this.#textures.has(s.name))) this.#buildBindGroups();
  }

  /** One compute pass over every element; every { input, output } pair swaps its buffers. With
   *  emitted outputs: the count pass, the prefix sums and totals, then the main pass.
   *  step(k): k substeps (1..256), one dispatch that loops them when fusion().fused, else k
   *  dispatches; `buffer.gpuBuffer` names the latest state.
   *  @throws XfbError XFB_INVALID_ARGUMENT for k outside 1..256 (nothing runs). */
  step(substeps = 1): void {
    this.checkStep('step()');
    checkSubsteps(substeps);
    const fused = substeps > 1 && this.#substepTranslation.fused;
    this.#run('step()', substeps, fused);
    this.#swap(fused ? 1 : substeps, substeps);
  }

  /** Whether step(k > 1) runs its substeps in one pass, and why not (the planner's answer, the same as on WebGL2). */
  fusion(): Fusion {
    this.check();
    return {
      fused: this.#substepTranslation.fused,
      reason: this.#substepTranslation.reason,
    };
  }

  /** Emitted outputs: the GPUBuffer of the totals, 32 bytes per budget in `emits` order (usage
   *  STORAGE | INDIRECT | COPY_SRC): {written, 1, 0, 0} at 32 b for drawIndirect, {ceil(written /
   *  workGroupSize), 1, 1} at 32 b + 16 for dispatchWorkgroupsIndirect, the requested total at
   *  32 b + 28. Written by every step on the GPU; null without emitted outputs. */
  get emitTotalsBuffer(): GPUBufferType | null {
    this.check();
    return this.#prefixSums?.totals ?? null;
  }

  /** Emitted outputs: per budget the last step's { budget, requested, written, capacity }, read
   *  from the totals buffer (mapAsync, not blocking the frame).
   *  @throws XfbError XFB_INVALID_ARGUMENT without emitted outputs. */
  async emitted(): Promise<EmitReport[]> {
    this.check();
    if (!this.#prefixSums || !this.#totalsReadback)
      invalid('emitted(): this pipeline has no emitted outputs (createPipeline() option emits)');
    const bytes = await this.#totalsReadback.read(this.#prefixSums.totals, this.owner.settle, 'emitted()');
    const words = new Uint32Array(bytes.buffer);
    return this.#translation.budgets.map((b, i) => ({
      budget: b.budget,
      requested: words[i * 8 + 7] as number,
      written: words[i * 8] as number,
      capacity: b.capacity,
    }));
  }

  /** A step that resolves once the GPU finished it, with { step, written, expected }: a compute
   *  pass writes every element, so written === expected.
   *  @throws XfbError XFB_SHADER_COMPILE when the module did not compile; XFB_INVALID_ARGUMENT when
   *  WebGPU's validation refused the step (a texture of the wrong kind, a buffer destroyed outside
   *  xfb); XFB_CAPACITY (not swapped) when an emitted budget overflowed with overflow 'error'. */
  async stepChecked(): Promise<StepReport> {
    this.checkStep('stepChecked()');
    this.#checkedPending = true;
    try {
      return await this.#stepChecked();
    } finally {
      this.#checkedPending = false;
    }
  }

  /** @internal Before a step (step(), stepChecked(), steps()): XFB_DISPOSED for the pipeline or one
   *  of its parts disposed, XFB_INVALID_ARGUMENT while a stepChecked() is pending (as on WebGL2). */
  checkStep(what: string): void {
    this.checkLive();
    checkPipelineParts(this.#parts(), what);
    checkNoCheckedStepPending(this.#checkedPending, what);
  }

  async #stepChecked(): Promise<StepReport> {
    const owner = this.owner;
    const device = owner.gpuDevice;
    await owner.settle(this.#compiled, 'stepChecked()');
    device.pushErrorScope('validation');
    let error: GPUError | null;
    try {
      this.#run('stepChecked()');
    } finally {
      error = await owner.settle(device.popErrorScope(), 'stepChecked()');
    }
    this.check(); // a lost device's error scope resolves with null
    if (error)
      invalid(
        `stepChecked(): WebGPU's validation refused step ${this.#steps + 1} of '${this.#program.label}' (${error.message}); check the textures given to setTexture() and that no buffer of the pipeline was destroyed outside xfb`,
      );
    const count = this.#translation.count;
    if (!this.#prefixSums) {
      await owner.settle(device.queue.onSubmittedWorkDone(), 'stepChecked()');
      this.check();
      this.#swap();
      return { step: this.#steps, written: count, expected: count };
    }
    // Emitted outputs: the totals decide, as on GL compute (over capacity: not swapped).
    const emitted = await this.emitted();
    const over = emitted.find((e) => e.requested > e.capacity);
    if (over && this.#overflow === 'error')
      fail(
        'XFB_CAPACITY',
        `budget '${over.budget}' requested ${over.requested} records but its buffers hold ${over.capacity}; ` +
          "give larger {output} buffers or createPipeline() option overflow: 'clamp' (the state was not swapped)",
      );
    this.#swap();
    return { step: this.#steps, written: count, expected: count, emitted };
  }

  /** WebGPU has no primitive queries: always empty. */
  pollQueries(): StepReport[] {
    this.check();
    return [];
  }

  protected release(): void {
    this.#uniformBuffer.destroy();
    for (const b of this.#prefixSums?.buffers ?? []) b.destroy();
    this.#totalsReadback?.destroy();
  }

  #compile(code: string, label: string): Compiled {
    return compileComputePipeline(
      this.owner.gpuDevice,
      this.#pipelineLayout,
      code,
      this.#translation.entryPoint,
      label,
    );
  }

  /** The uniform buffer: the program's values, the count, the substep index and the fused substep
   *  count k; written only when one of them changed. */
  #writeUniforms(substep: number, substeps = this.#writtenSubsteps): void {
    const program = this.#program;
    const t = this.#translation;
    if (
      this.#writtenVersion === program.version &&
      this.#writtenSubstep === substep &&
      this.#writtenSubsteps === substeps
    )
      return;
    const image = this.#uniformImage;
    if (this.#writtenVersion !== program.version) {
      image.set(new Uint8Array(program.uniformBytes));
      new Uint32Array(image.buffer)[t.countOffset / 4] = t.count;
    }
    if (this.#substepOffset >= 0) new Int32Array(image.buffer)[this.#substepOffset / 4] = substep;
    if (this.#substepTranslation.fused)
      new Uint32Array(image.buffer)[this.#substepTranslation.substepsOffset / 4] = substeps;
    this.owner.gpuDevice.queue.writeBuffer(this.#uniformBuffer, 0, image);
    this.#writtenVersion = program.version;
    this.#writtenSubstep = substep;
    this.#writtenSubsteps = substeps;
  }

  /** The fused pipeline, compiled the first time step(k > 1) needs it; `ready` and stepChecked()
   *  report its compile errors too. */
  #fused(): GPUComputePipeline {
    if (!this.#fusedPipeline) {
      const fused = this.#compile(this.#substepTranslation.source, `${this.#program.label} (fused substeps)`);
      this.#fusedPipeline = fused.pipeline;
      this.#compiled = Promise.all([this.#compiled, fused.compiled]);
      this.#compiled.catch(() => {});
    }
    return this.#fusedPipeline;
  }

  /** Records and submits `substeps` substeps: fused, one dispatch of the fused pipeline; else one
   *  pass per substep, alternating ping-pong sides. Swaps nothing (the caller does). */
  #run(what: string, substeps = 1, fused = false): void {
    this.check(what);
    checkPipelineParts(this.#parts(), what);
    const bindGroups = this.#bindGroups;
    if (!bindGroups) {
      const missing = this.#translation.textures
        .filter((x) => !this.#textures.has(x.name))
        .map((x) => `setTexture('${x.name}', ...)`);
      invalid(`step(): set the textures first: ${missing.join(', ')}`);
    }
    const device = this.owner.gpuDevice;
    const firstPair = this.#pairs[0];
    const side = firstPair && firstPair.entry.input.current !== firstPair.first ? 1 : 0;
    if (fused) {
      const pipeline = this.#fused();
      this.#writeUniforms(0, substeps);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroups[side]);
      pass.dispatchWorkgroups(this.#workGroups[0], this.#workGroups[1]);
      pass.end();
      device.queue.submit([encoder.finish()]);
      return;
    }
    let encoder: GPUCommandEncoder | null = null;
    let pass: GPUComputePassEncoder | null = null;
    for (let i = 0; i < substeps; i++) {
      // WebGPU orders a queue write before the submits that follow it, not between the
      // dispatches of one submit: a changing substep index needs a submit per substep.
      if (!encoder || !pass || this.#substepOffset >= 0) {
        if (encoder && pass) {
          pass.end();
          device.queue.submit([encoder.finish()]);
        }
        this.#writeUniforms(i);
        encoder = device.createCommandEncoder();
        pass = encoder.beginComputePass();
      }
      this.#record(pass, bindGroups, this.#pairs.length ? side ^ (i & 1) : 0);
    }
    pass?.end();
    if (encoder) device.queue.submit([encoder.finish()]);
  }

  /** One substep's dispatches on ping-pong side `side`. */
  #record(pass: GPUComputePassEncoder, bindGroups: [GPUBindGroup, GPUBindGroup], side: number): void {
    const [x, y] = this.#workGroups;
    if (this.#countPipeline && this.#prefixSums) {
      // Count pass, then per budget the prefix sum and the totals; each dispatch sees the
      // previous one's writes (WebGPU orders storage accesses between dispatches).
      pass.setPipeline(this.#countPipeline);
      pass.setBindGroup(0, bindGroups[side]);
      pass.dispatchWorkgroups(x, y);
      for (const scan of this.#prefixSums.dispatches)
        for (const [pipeline, group, groups] of scan) {
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, group);
          pass.dispatchWorkgroups(groups);
        }
    }
    pass.setPipeline(this.#pipeline);
    pass.setBindGroup(0, bindGroups[side]);
    pass.dispatchWorkgroups(x, y);
  }

  /** Its program and every buffer of its role list. */
  #parts(): XfbObjectBase[] {
    if (this.#partList) return this.#partList;
    const parts: XfbObjectBase[] = (this.#partList = [this.#program]);
    for (const e of this.#entries) {
      if (e.input) parts.push(e.input);
      if (e.output) parts.push(e.output);
    }
    return parts;
  }

  #swap(swaps = 1, steps = swaps): void {
    if (swaps % 2) for (const p of this.#pairs) p.entry.input.swapWith(p.entry.output);
    this.#steps += steps;
  }

  #buildBindGroups(): void {
    const bound = {
      translation: this.#translation,
      entries: this.#entries,
      pairs: this.#pairs,
      uniformBuffer: this.#uniformBuffer,
      prefixSums: this.#prefixSums,
      textures: this.#textures,
      samplers: this.#samplers,
    };
    this.#bindGroups = createSideBindGroups(this.owner.gpuDevice, this.#bindGroupLayout, bound, this.#program.label);
  }
}
