// A compute pipeline from generated WGSL, and the promise that reports its compile errors (both
// the simulation's pipelines and primitive capture's gathers): WebGPU compiles asynchronously, so
// an error is an XfbError when `ready` (or a checked call) awaits the promise, never a throw here.
import { fail } from '../core/errors.js';

export interface Compiled {
  pipeline: GPUComputePipeline;
  /** Rejects with XFB_SHADER_COMPILE naming `label` and every error's line and column. */
  compiled: Promise<unknown>;
}

export function compileComputePipeline(
  device: GPUDevice,
  layout: GPUPipelineLayout,
  code: string,
  entryPoint: string,
  label: string,
): Compiled {
  const module = device.createShaderModule({ label, code });
  const compiled = module.getCompilationInfo().then((info) => {
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length)
      fail(
        'XFB_SHADER_COMPILE',
        `the WGSL of '${label}' does not compile: ` +
          errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; '),
      );
    return info;
  });
  compiled.catch(() => {}); // reported where it is awaited
  const pipeline = device.createComputePipeline({
    label,
    layout,
    compute: { module, entryPoint },
  });
  return { compiled, pipeline };
}

/** Work groups of `groupSize` for `count` invocations: [x, y] within the device's per-dimension
 *  limit (the translation's index is x + y * groups.x * groupSize). */
export function workGroupsFor(device: GPUDevice, count: number, groupSize: number): [number, number] {
  const groups = Math.ceil(count / groupSize);
  const perDimension = device.limits.maxComputeWorkgroupsPerDimension;
  return [Math.min(groups, perDimension), Math.ceil(groups / perDimension)];
}
