import { fail } from '../core/errors.js';

/** A device (and its adapter) for createXfb({ backend: 'webgpu' }): with the adapter's storage
 *  limits, so large and separate-mode pipelines fit. */
export async function requestDevice(): Promise<{ device: GPUDevice; adapter: GPUAdapter }> {
  if (typeof navigator === 'undefined' || !navigator.gpu)
    fail('XFB_UNSUPPORTED', 'this browser has no WebGPU (navigator.gpu is missing); use the WebGL2 engine');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter)
    fail(
      'XFB_UNSUPPORTED',
      'navigator.gpu.requestAdapter() gave no adapter (WebGPU disabled or no usable GPU); use the WebGL2 engine',
    );
  const l = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
    },
  });
  return { device, adapter };
}
