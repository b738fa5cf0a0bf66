// A pipeline's or a capture's bindings (the translation's binding numbers,
// web/src/wgsl_bindings.cpp): the one bind group layout, and the bind groups of both ping-pong
// sides (a capture: one), built at creation or when the last texture is given, never per step.
import { scalarKindName } from '../core/engine_tables.js';
import type { WebGpuEntry } from './engine.js';
import type { PrefixSums } from './prefix_sum.js';
import type { Translation } from './wasm_module.js';
import { ShaderStage } from './flags.js';

// A texture's sample type by the scalar kind of its sampler (Module.enums().scalarKinds).
const SAMPLE_TYPES: Readonly<Partial<Record<string, GPUTextureSampleType>>> = {
  float: 'unfilterable-float',
  int: 'sint',
  uint: 'uint',
};

/** A state pair of a role list: side 0 reads `first` and writes `second`, side 1 the other way. */
export interface StatePair {
  entry: Required<WebGpuEntry>;
  first: GPUBuffer;
  second: GPUBuffer;
}

export function createBindGroupLayout(device: GPUDevice, t: Translation, label: string): GPUBindGroupLayout {
  const visibility = ShaderStage.COMPUTE;
  const entries: GPUBindGroupLayoutEntry[] = [{ binding: t.uniformBinding, visibility, buffer: { type: 'uniform' } }];
  const buffer = (binding: number, type: GPUBufferBindingType): void => {
    if (binding >= 0) entries.push({ binding, visibility, buffer: { type } });
  };
  for (const b of t.readBinding) buffer(b, 'read-only-storage');
  for (const b of t.writeBinding) buffer(b, 'storage');
  for (const b of t.countsBinding ?? []) buffer(b, 'storage');
  for (const b of t.firstBinding ?? []) buffer(b, 'read-only-storage');
  buffer(t.sourceBinding ?? -1, 'read-only-storage');
  for (const x of t.textures) {
    // A sampled texture (texture(), textureLod(), ...) is a filterable float one, with its sampler.
    const sampled = x.samplerBinding >= 0;
    entries.push({
      binding: x.binding,
      visibility,
      texture: { sampleType: sampled ? 'float' : SAMPLE_TYPES[scalarKindName(x.kind) ?? ''] },
    });
    if (sampled) entries.push({ binding: x.samplerBinding, visibility, sampler: { type: 'filtering' } });
  }
  return device.createBindGroupLayout({ label: `${label} bindings`, entries });
}

/** What the bind groups of a pipeline bind. */
export interface Bound {
  translation: Translation;
  entries: WebGpuEntry[];
  pairs: StatePair[];
  uniformBuffer: GPUBuffer;
  prefixSums: PrefixSums | null;
  textures: Map<string, GPUTextureView>;
  /** The sampler of each sampled texture (Translation.textures' samplerBinding >= 0). */
  samplers?: Map<string, GPUSampler>;
  /** A capture's source vertex list (Translation.sourceBinding). */
  source?: GPUBuffer;
}

/** The bind group of ping-pong side `side`: side 0 reads each pair's `first`, side 1 its `second`. */
export function createBindGroup(
  device: GPUDevice,
  layout: GPUBindGroupLayout,
  bound: Bound,
  side: number,
  label: string,
): GPUBindGroup {
  const t = bound.translation;
  const entries: GPUBindGroupEntry[] = [{ binding: t.uniformBinding, resource: { buffer: bound.uniformBuffer } }];
  bound.entries.forEach((e, i) => {
    const pair = e.input && e.output ? bound.pairs.find((p) => p.entry === e) : undefined;
    const input = pair ? (side ? pair.second : pair.first) : e.input?.current;
    const output = pair ? (side ? pair.first : pair.second) : e.output?.current;
    const read = t.readBinding[i] ?? -1;
    const write = t.writeBinding[i] ?? -1;
    if (read >= 0 && input) entries.push({ binding: read, resource: { buffer: input } });
    if (write >= 0 && output) entries.push({ binding: write, resource: { buffer: output } });
  });
  bound.prefixSums?.countBuffers.forEach((c, k) => {
    entries.push({
      binding: t.countsBinding?.[k] as number,
      resource: { buffer: c.counts },
    });
    entries.push({
      binding: t.firstBinding?.[k] as number,
      resource: { buffer: c.firsts },
    });
  });
  for (const x of t.textures) {
    entries.push({
      binding: x.binding,
      resource: bound.textures.get(x.name) as GPUTextureView,
    });
    if (x.samplerBinding >= 0)
      entries.push({ binding: x.samplerBinding, resource: bound.samplers?.get(x.name) as GPUSampler });
  }
  if (bound.source && t.sourceBinding !== undefined)
    entries.push({
      binding: t.sourceBinding,
      resource: { buffer: bound.source },
    });
  return device.createBindGroup({ label, layout, entries });
}

/** The bind groups of ping-pong sides 0 and 1. */
export function createSideBindGroups(
  device: GPUDevice,
  layout: GPUBindGroupLayout,
  bound: Bound,
  label: string,
): [GPUBindGroup, GPUBindGroup] {
  return [0, 1].map((side) => createBindGroup(device, layout, bound, side, `${label} side ${side}`)) as [
    GPUBindGroup,
    GPUBindGroup,
  ];
}
