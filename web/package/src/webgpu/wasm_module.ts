// The WebGPU module (dist/xfb-webgpu.mjs, web/src/wgsl_bindings.cpp): the planner and the WGSL
// translator, no GL.
import type { PlannerModule } from '../core/module_loader.js';
import type { XfbError } from '../core/errors.js';
import type { BufferLayout, Plan, UniformLayout } from '../core/types.js';

/** The roles the translation is made for: per entry the format and count of each role. */
export type TranslationEntries = {
  input?: { format: BufferLayout['attributes']; count: number };
  output?: { format: BufferLayout['attributes']; count: number };
}[];

export interface Translation {
  source: string;
  entryPoint: string;
  plan: Plan;
  uniforms: UniformLayout['uniforms'];
  uniformBytes: number;
  uniformBinding: number;
  countOffset: number;
  count: number;
  workGroupSize: number;
  readBinding: number[];
  writeBinding: number[];
  textures: { name: string; binding: number; kind: number }[];
  outputs: { entry: number; binding: number; stride: number }[];
  budgets: { budget: string; capacity: number }[];
  countSource: string;
  countsBinding?: number[];
  firstBinding?: number[];
}

/** Module.wgslSubsteps: the fused substeps' shader, when the simulation is element-local. */
export interface SubstepTranslation {
  fused: boolean;
  reason: string;
  source: string;
  uniformBytes?: number;
  substepsOffset: number;
}

export interface WebGpuModule extends PlannerModule {
  normaliseFormat(format: object[]): BufferLayout | XfbError;
  wgsl(source: string, options: object, entries?: TranslationEntries): Translation | XfbError;
  wgslSubsteps(source: string, options: object, entries?: TranslationEntries): SubstepTranslation | XfbError;
}
