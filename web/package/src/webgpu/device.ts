// The device createXfb({ backend: 'webgpu' }) requests when it is given none: from `gpu` (the
// application's GPU object, e.g. Dawn's in Node) or navigator.gpu. Each refusal says which step
// failed and what to do, as the place to fix differs (browser settings, a Vulkan driver in Node).
import { fail } from '../core/errors.js';

/** True in Node, where advice about browsers does not help. */
const inNode = (): boolean =>
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

const NODE_DRIVERS =
  "in Node, Dawn (the npm package webgpu) needs a Vulkan driver it accepts, a GPU's (NVIDIA's works); Mesa's software lavapipe is refused (Dawn requires shaderUniform*ArrayDynamicIndexing)";

/** The adapter's own description, for messages. */
function describeAdapter(adapter: GPUAdapter): string {
  const info = adapter.info as Partial<GPUAdapterInfo> | undefined;
  const words = [info?.vendor, info?.architecture, info?.device, info?.description].filter((w) => !!w);
  return words.length ? words.join(' ') : 'no adapter info';
}

/** A device (and its adapter) for createXfb({ backend: 'webgpu' }): with the adapter's storage
 *  limits, so large and separate-mode pipelines fit. `gpu`: where to request the adapter
 *  (default navigator.gpu). */
export async function requestDevice(gpu?: GPU): Promise<{ device: GPUDevice; adapter: GPUAdapter }> {
  const from = gpu ?? (typeof navigator === 'undefined' ? undefined : navigator.gpu);
  if (!from)
    fail(
      'XFB_UNSUPPORTED',
      inNode()
        ? "Node has no navigator.gpu: give createXfb({ backend: 'webgpu', gpu }) a GPU object, e.g. create([]) of the npm package webgpu (Dawn)"
        : 'this browser has no WebGPU (navigator.gpu is missing); use the WebGL2 engine',
    );
  const source = gpu ? 'gpu.requestAdapter()' : 'navigator.gpu.requestAdapter()';
  const adapter = await from.requestAdapter();
  if (!adapter)
    fail(
      'XFB_UNSUPPORTED',
      inNode()
        ? `${source} gave no adapter: ${NODE_DRIVERS}`
        : `${source} gave no adapter (WebGPU disabled or no usable GPU); use the WebGL2 engine`,
    );
  const l = adapter.limits;
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({
      requiredLimits: {
        maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
        maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxBufferSize: l.maxBufferSize,
      },
    });
  } catch (e) {
    const { name, message } = (e ?? {}) as { name?: string; message?: string }; // a DOMException, or Dawn's Error
    const cause = message === undefined ? String(e) : `${name}: ${message}`;
    fail(
      'XFB_UNSUPPORTED',
      `the adapter (${describeAdapter(adapter)}) refused a device (${cause}); ${
        inNode() ? NODE_DRIVERS : 'update the GPU driver or browser, or use the WebGL2 engine'
      }, or pass createXfb({ device }) a device of your own`,
    );
  }
  return { device, adapter };
}
