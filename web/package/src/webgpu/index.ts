// webgpu.js: the WebGPU engine and its module (dist/xfb-webgpu.mjs), imported by createXfb() only
// for WebGPU, so WebGL2 users download neither.
import createXfbWebGpuModule from './dist/xfb-webgpu.mjs';
import { checkDevice } from '../core/checks.js';
import { invalid } from '../core/errors.js';
import { instantiate, type ModuleFactory } from '../core/module_loader.js';
import { webGpuModule, type WebGpuExports } from './wasm_module.js';
import { requestDevice } from './device.js';
import { XfbWebGpu } from './engine.js';

/** createXfb()'s `gpu`: checked here, not in index.js, so WebGL2 users download none of it. */
function checkGpu(given: unknown, device: unknown): GPU | undefined {
  const gpu = given as Partial<GPU> | null | undefined;
  if (gpu === undefined) return undefined;
  if (typeof gpu?.requestAdapter !== 'function')
    invalid(
      'createXfb(): gpu must be a GPU object with requestAdapter() (navigator.gpu, or create([]) of the npm package webgpu in Node)',
    );
  if (device !== undefined) invalid('createXfb(): give a device or a gpu to request one from, not both');
  return gpu as GPU;
}

const wasmUrl = new URL('./dist/xfb-webgpu.wasm', import.meta.url); // a static URL, so bundlers copy the file

/** The engine on `device`, or on a device requested here from `gpu` (default navigator.gpu;
 *  destroyed with the engine). */
export async function createWebGpuEngine(device: unknown, given: unknown): Promise<XfbWebGpu> {
  const gpu = checkGpu(given, device);
  const got = device === undefined ? await requestDevice(gpu) : { device: device as GPUDevice, adapter: undefined };
  checkDevice(got.device, 'createXfb()');
  const module = await instantiate(createXfbWebGpuModule as ModuleFactory<WebGpuExports>, wasmUrl, webGpuModule);
  return new XfbWebGpu(module, got.device, device === undefined, got.adapter, gpu);
}
