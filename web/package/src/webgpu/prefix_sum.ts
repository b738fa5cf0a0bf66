// The prefix sums of emitted outputs (prefix_sum.wgsl): per budget the count and first buffers,
// the scan levels' buffers, and the dispatches of every scan, add and totals kernel, built once.

import { BufferUsage } from './flags.js';

/** Elements one work group of the scan kernel handles. */
export const PREFIX_SUM_GROUP = 256;

/** One dispatch: a kernel, its bind group, its work-group count. */
export type Dispatch = readonly [GPUComputePipeline, GPUBindGroup, number];

export interface PrefixSums {
  /** The totals, 32 bytes per budget (STORAGE | INDIRECT | COPY_SRC | COPY_DST). */
  totals: GPUBuffer;
  /** Per budget: its counts and firsts buffers, bound to the count pass and the main pass. */
  countBuffers: { counts: GPUBuffer; firsts: GPUBuffer }[];
  /** Per budget, its dispatches in order. */
  dispatches: Dispatch[][];
  /** Every buffer made here, destroyed with the pipeline. */
  buffers: GPUBuffer[];
}

export function buildPrefixSums(
  device: GPUDevice,
  module: GPUShaderModule,
  label: string,
  elements: number,
  budgets: readonly { budget: string; capacity: number }[],
  workGroupSize: number,
): PrefixSums {
  const buffers: GPUBuffer[] = [];
  const storage = (words: number, name: string, extraUsage = 0): GPUBuffer => {
    const buffer = device.createBuffer({
      label: `${label} ${name}`,
      size: 4 * Math.max(1, words),
      usage: BufferUsage.STORAGE | extraUsage,
    });
    buffers.push(buffer);
    return buffer;
  };
  const kernel = (entryPoint: string, constants?: Record<string, number>): GPUComputePipeline =>
    device.createComputePipeline({
      label: `${label} ${entryPoint}`,
      layout: 'auto',
      compute: { module, entryPoint, ...(constants ? { constants } : {}) },
    });
  const bindGroup = (pipeline: GPUComputePipeline, bound: Record<number, GPUBuffer>): GPUBindGroup =>
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: Object.entries(bound).map(([binding, buffer]) => ({ binding: Number(binding), resource: { buffer } })),
    });
  const groupsOf = (k: number): number => Math.ceil(k / PREFIX_SUM_GROUP);
  const scanKernel = kernel('scan');
  const addKernel = kernel('add');
  const totals = storage(
    8 * budgets.length,
    'emit totals',
    BufferUsage.INDIRECT | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
  );
  const countBuffers: PrefixSums['countBuffers'] = [];
  const dispatches = budgets.map((b, slot): Dispatch[] => {
    const counts = storage(elements, `${b.budget} counts`);
    const firsts = storage(elements, `${b.budget} firsts`);
    countBuffers.push({ counts, firsts });
    const sizes = [elements];
    while ((sizes.at(-1) as number) > PREFIX_SUM_GROUP) sizes.push(groupsOf(sizes.at(-1) as number));
    const top = sizes.length - 1;
    const topSum = storage(1, `${b.budget} top sum`);
    const sums = sizes.map((k, j) => (j ? storage(k, `${b.budget} sums ${j}`) : counts));
    const scanned = sizes.map((k, j) => (j ? storage(k, `${b.budget} scanned ${j}`) : firsts));
    const list: Dispatch[] = [];
    for (let j = 0; j <= top; j++)
      list.push([
        scanKernel,
        bindGroup(scanKernel, {
          0: sums[j] as GPUBuffer,
          1: scanned[j] as GPUBuffer,
          2: j === top ? topSum : (sums[j + 1] as GPUBuffer),
        }),
        groupsOf(sizes[j] as number),
      ]);
    for (let j = top; j >= 1; j--)
      list.push([
        addKernel,
        bindGroup(addKernel, { 0: scanned[j] as GPUBuffer, 2: scanned[j - 1] as GPUBuffer }),
        groupsOf(sizes[j - 1] as number),
      ]);
    const totalKernel = kernel('total', { capacity: b.capacity, slot, groupSize: workGroupSize });
    list.push([totalKernel, bindGroup(totalKernel, { 0: counts, 1: firsts, 2: totals }), 1]);
    return list;
  });
  return { totals, countBuffers, dispatches, buffers };
}
