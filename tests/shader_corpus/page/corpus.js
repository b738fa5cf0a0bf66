// In headless Chromium: compiles each translated WGSL (getCompilationInfo) and runs each runnable
// shader through the npm package on WebGL2 transform feedback, the WebGL2 fragment backend and
// WebGPU (job.runtimes: those whose translation exists), one step over the same input bytes; returns per shader the errors and whether the
// output bytes are equal. Inputs and uniforms come from run.mjs (deterministic values).
import createXfb from '/npm/index.js';

const canvas = document.getElementById('canvas');

async function compileErrors(device, code) {
  const info = await device.createShaderModule({ code }).getCompilationInfo();
  return info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
}

// One step of `job` on one engine; the output buffer's bytes, or the error's code and message.
async function runOn(xfb, backend, job) {
  const made = [];
  try {
    const program = xfb.createProgram({ source: job.source, varyings: job.varyings });
    made.push(program);
    const input = job.inputFormat.length ? xfb.createBuffer({ format: job.inputFormat, count: job.count, data: new Uint32Array(job.inputWords).buffer }) : null;
    const output = xfb.createBuffer({ format: job.outputFormat, count: job.count });
    made.push(...[input, output].filter(Boolean));
    const roles = [...(input ? [{ input }] : []), { output }];
    const pipeline = xfb.createPipeline(program, roles, { count: job.count, ...(backend ? { backend } : {}) });
    made.push(pipeline);
    for (const [name, value] of job.uniforms) program.setUniform(name, value);
    pipeline.step();
    const values = await output.read();
    return { bytes: Array.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)) };
  } catch (e) {
    return { error: `${e.code ?? 'EXCEPTION'}: ${e.message}` };
  } finally {
    for (const o of made.reverse()) o.dispose();
  }
}

export async function runCorpus({ compile, run }) {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) return { fatal: 'navigator.gpu.requestAdapter() gave no adapter (--enable-unsafe-webgpu?)' };
  const device = await adapter.requestDevice({ requiredLimits: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage } });
  const gl2 = await createXfb({ canvas });
  const gpu = await createXfb({ device });
  const compiled = {};
  for (const { name, wgsl } of compile) compiled[name] = await compileErrors(device, wgsl);
  const runs = {};
  for (const job of run) {
    const engines = { tf: [gl2, 'tf'], fragment: [gl2, 'fragment'], webgpu: [gpu, null] };
    runs[job.name] = {};
    for (const r of job.runtimes) runs[job.name][r] = await runOn(...engines[r], job);
  }
  return { compiled, runs };
}
