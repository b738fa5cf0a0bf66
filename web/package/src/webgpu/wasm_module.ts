// The WebGPU module (dist/xfb-webgpu.mjs): the planner's extern "C" functions, as in the WebGL2
// module (web/src/planner_calls.cpp, wrapped by core/boundary.ts), and the WGSL translator, no GL,
// bound by embind (web/src/wgsl_bindings.cpp: JavaScript objects in and out, an XfbError value for
// a failure).
import { Planner, type PlannerExports } from '../core/boundary.js';
import type { PlannerModule } from '../core/module_loader.js';
import type { DrawFields } from '../core/draws.js';
import type { XfbError } from '../core/errors.js';
import type {
  BufferLayout,
  CaptureCount,
  GeometryCaptureCount,
  Plan,
  SessionPlan,
  UniformLayout,
} from '../core/types.js';
import type { CheckedProgramOptions } from '../core/program_options.js';

/** A role's buffer as the translation reads it: its format, stride and count. */
export interface TranslationBuffer {
  format: BufferLayout['attributes'];
  stride: number;
  count: number;
}

/** The roles the translation is made for: per entry the buffer of each role. */
export type TranslationEntries = {
  input?: TranslationBuffer;
  output?: TranslationBuffer;
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
  /** samplerBinding: the texture's sampler (texture(), textureLod(), ...), -1 when read with texelFetch only. */
  textures: { name: string; binding: number; kind: number; samplerBinding: number }[];
  outputs: { entry: number; binding: number; stride: number }[];
  budgets: { budget: string; capacity: number }[];
  countSource: string;
  countsBinding?: number[];
  firstBinding?: number[];
  /** Primitive capture (wgslCapture) only: the source vertex list's binding. */
  sourceBinding?: number;
  /** Primitive capture only: where xfb_first_record and xfb_first_source (u32 each) lie in the uniform buffer. */
  gatherOffset?: number;
}

/** Module.wgslGeometry's `geometry`: a geometry program's count and write kernels (WGSL) and
 *  their bindings (engine/include/xfb/wgsl_translation.hpp, WgslGeometryShaders). */
export interface GeometryKernels {
  countSource: string;
  writeSource: string;
  entryPoint: string;
  workGroupSize: number;
  uniformBinding: number;
  uniformBytes: number;
  /** The geometry shader's uniforms in the kernels' uniform buffer (from byte 32, after the counts). */
  uniforms: UniformLayout['uniforms'];
  scratchBinding: number;
  sourcesBinding: number;
  scratchStride: number;
  outputBinding: number[];
  countsBinding: number[];
  firstBinding: number[];
  storageBuffers: number;
  inputVertices: number;
  primitiveVertices: number;
  input: string;
  primitive: 'points' | 'lines' | 'triangles';
  maxVertices: number;
  invocations: number;
  streamCount: number;
  streams: { stream: number; captured: boolean; buffers: number[] }[];
}

/** Module.wgslGeometry: the vertex pass's translation (its uniforms are the program's) and the kernels. */
export interface GeometryTranslation extends Translation {
  geometry: GeometryKernels;
}

/** Module.geometryDraw: a geometry capture's budget, source list and per-stream capacity in records. */
export interface GeometryDraw {
  count: GeometryCaptureCount;
  sources: Uint32Array<ArrayBuffer>;
  capacity: number[];
}

/** A capture's part program checked against the capture's own (Module.wgslCapture's `base`). */
export interface CaptureBase {
  source: string;
  options: object;
  label: string;
  captureLabel: string;
  part: number;
}

/** Module.captureDraws: a capture's count or a session's plan, and the source vertex of every record. */
export interface CaptureDraws {
  count?: CaptureCount;
  session?: SessionPlan;
  sources: Uint32Array<ArrayBuffer>;
}

/** Module.wgslSubsteps: the fused substeps' shader, when the simulation is element-local. */
export interface SubstepTranslation {
  fused: boolean;
  reason: string;
  source: string;
  uniformBytes?: number;
  substepsOffset: number;
}

/** The translator's embind functions, beside the planner's exports. */
export interface WebGpuExports extends PlannerExports {
  wgsl(source: string, options: object, entries?: TranslationEntries): Translation | XfbError;
  wgslSubsteps(source: string, options: object, entries?: TranslationEntries): SubstepTranslation | XfbError;
  wgslCapture(source: string, options: object, entries: TranslationEntries, base?: CaptureBase): Translation | XfbError;
  wgslGeometry(
    source: string,
    geometry: string,
    options: object,
    entries?: TranslationEntries,
  ): GeometryTranslation | XfbError;
  geometryDraw(
    source: string,
    geometry: string,
    options: object,
    draw: DrawFields,
    vertexCount: number,
    outputBytes: number[],
    clamp: boolean,
  ): GeometryDraw | XfbError;
  captureDraws(
    draws: DrawFields[],
    session: boolean,
    firstRecord: number,
    vertexCount: number,
    strides: number[],
    outputBytes: number[],
  ): CaptureDraws | XfbError;
}

/** The module as the WebGPU driver uses it: the planner and the translator. */
export interface WebGpuModule extends PlannerModule {
  normaliseFormat(format: object[], stride?: unknown): BufferLayout;
  wgsl(source: string, options: object, entries?: TranslationEntries): Translation | XfbError;
  wgslSubsteps(source: string, options: object, entries?: TranslationEntries): SubstepTranslation | XfbError;
  wgslCapture: WebGpuExports['wgslCapture'];
  captureDraws: WebGpuExports['captureDraws'];
  wgslGeometry: WebGpuExports['wgslGeometry'];
  geometryDraw: WebGpuExports['geometryDraw'];
}

export function webGpuModule(raw: WebGpuExports): WebGpuModule {
  const planner = new Planner(raw);
  return {
    enums: () => planner.enums(),
    inspect: (source, options) => planner.inspect(source, options as CheckedProgramOptions),
    normaliseFormat: (format, stride) => planner.normaliseFormat(format, stride),
    wgsl: (source, options, entries) => raw.wgsl(source, options, entries),
    wgslSubsteps: (source, options, entries) => raw.wgslSubsteps(source, options, entries),
    wgslCapture: (source, options, entries, base) => raw.wgslCapture(source, options, entries, base),
    captureDraws: (...args) => raw.captureDraws(...args),
    wgslGeometry: (...args) => raw.wgslGeometry(...args),
    geometryDraw: (...args) => raw.geometryDraw(...args),
  };
}
