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

// The 4x4 RGBA8 texture of a sampler uniform: float ones filtered linearly with repeat (the
// WebGPU sampler likewise, when the translation samples it), integer ones nearest.
const FORMATS = {
  sampler2D: { gl: 'RGBA8', glFormat: 'RGBA', glType: 'UNSIGNED_BYTE', gpu: 'rgba8unorm', array: Uint8Array },
  isampler2D: { gl: 'RGBA8I', glFormat: 'RGBA_INTEGER', glType: 'BYTE', gpu: 'rgba8sint', array: Int8Array },
  usampler2D: { gl: 'RGBA8UI', glFormat: 'RGBA_INTEGER', glType: 'UNSIGNED_BYTE', gpu: 'rgba8uint', array: Uint8Array },
};
function glTextures(job) {
  const gl = canvas.getContext('webgl2');
  const made = job.textures.map((t, k) => {
    const f = FORMATS[t.type], texture = gl.createTexture(), filter = t.type === 'sampler2D' ? gl.LINEAR : gl.NEAREST;
    gl.activeTexture(gl.TEXTURE1 + k);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl[f.gl], 4, 4);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 4, 4, gl[f.glFormat], gl[f.glType], new f.array(new Uint8Array(t.texels).buffer));
    for (const p of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, p, filter);
    for (const p of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T]) gl.texParameteri(gl.TEXTURE_2D, p, gl.REPEAT);
    return texture;
  });
  gl.activeTexture(gl.TEXTURE0);
  return { units: job.textures.map((_, k) => 1 + k), dispose: () => made.forEach((t) => gl.deleteTexture(t)) };
}
function gpuTextures(device, pipeline, program, job) {
  const made = job.textures.map((t) => {
    const texture = device.createTexture({ size: [4, 4], format: FORMATS[t.type].gpu, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    device.queue.writeTexture({ texture }, new Uint8Array(t.texels), { bytesPerRow: 16 }, [4, 4]);
    const sampled = program.wgsl.includes(`var xfb_sampler_${t.name}: sampler;`);
    const linear = { addressModeU: 'repeat', addressModeV: 'repeat', magFilter: 'linear', minFilter: 'linear' };
    pipeline.setTexture(t.name, texture, sampled ? device.createSampler(linear) : undefined);
    return texture;
  });
  return { dispose: () => made.forEach((t) => t.destroy()) };
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
    const textures = xfb.device ? gpuTextures(xfb.device, pipeline, program, job) : glTextures(job);
    if (!xfb.device) textures.units.forEach((unit, k) => program.setUniform(job.textures[k].name, unit));
    made.push(textures);
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
