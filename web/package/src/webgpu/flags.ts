// The WebGPU specification's flag values, as numbers: the engine must not need the globals
// GPUBufferUsage, GPUShaderStage and GPUMapMode, which Node's Dawn (the npm package `webgpu`) does
// not install unless asked to. The values are fixed by the spec (https://www.w3.org/TR/webgpu/).

/** GPUBufferUsage */
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  VERTEX: 0x0020,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  INDIRECT: 0x0100,
} as const;

/** GPUShaderStage */
export const ShaderStage = { COMPUTE: 0x4 } as const;

/** GPUMapMode */
export const MapMode = { READ: 0x0001 } as const;
