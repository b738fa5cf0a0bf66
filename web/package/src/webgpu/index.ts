// webgpu.js: the WebGPU engine and its module (dist/xfb-webgpu.mjs), imported by createXfb() only
// for WebGPU, so WebGL2 users download neither.
import createXfbWebGpuModule from './dist/xfb-webgpu.mjs';
import { checkDevice } from '../core/checks.js';
import { instantiate, type ModuleFactory } from '../core/module_loader.js';
import { webGpuModule, type WebGpuExports } from './wasm_module.js';
import { requestDevice } from './device.js';
import { XfbWebGpu } from './engine.js';

const wasmUrl = new URL('./dist/xfb-webgpu.wasm', import.meta.url); // a static URL, so bundlers copy the file

/** The engine on `device`, or on a device requested here (destroyed with the engine). */
export async function createWebGpuEngine(device: unknown): Promise<XfbWebGpu> {
  const given = device === undefined ? await requestDevice() : { device: device as GPUDevice, adapter: undefined };
  checkDevice(given.device, 'createXfb()');
  const module = await instantiate(createXfbWebGpuModule as ModuleFactory<WebGpuExports>, wasmUrl, webGpuModule);
  return new XfbWebGpu(module, given.device, device === undefined, given.adapter);
}
