// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- dts-bundle-generator compiles from this entry alone: the reference is how it sees the bundler's module declarations
/// <reference path="./modules.d.ts" />
// xfb: transform feedback for WebGL2 (and the same API on WebGPU), as an ES module. The engine is
// C++ compiled to WebAssembly (dist/xfb.mjs + dist/xfb.wasm); this package checks every argument
// in core/ (one validator for both engines), drives WebGL2 from webgl2/ and WebGPU from webgpu/
// (a separate file, webgpu.js, loaded only by createXfb({ device })).
import createXfbModule from './dist/xfb.mjs';
import { checkKeys, checkName, checkOptionalBoolean } from './core/checks.js';
import { fail, invalid } from './core/errors.js';
import { inspectWith } from './core/inspect.js';
import { objectKindOf } from './core/registry.js';
import { instantiate, type ModuleFactory } from './core/module_loader.js';
import type { GPUDeviceType, GPUType, Plan, ProgramOptions } from './core/types.js';
import { XfbBuffer } from './webgl2/buffer.js';
import { Xfb } from './webgl2/engine.js';
import { WebGl2Module, type WebGl2Exports } from './webgl2/wasm_module.js';
import type { XfbWebGpuBuffer } from './webgpu/buffer.js';
import type { XfbWebGpu } from './webgpu/engine.js';
import type { XfbWebGpuPipeline } from './webgpu/pipeline.js';
import type { XfbWebGpuProgram } from './webgpu/program.js';

export { XfbError } from './core/errors.js';
export type * from './core/types.js';
export { Xfb, type Entry, type RestoredBuffer } from './webgl2/engine.js';
export { XfbBuffer } from './webgl2/buffer.js';
export { XfbProgram } from './webgl2/program.js';
export { XfbPipeline } from './webgl2/pipeline.js';
export { XfbCapture, type SessionPart } from './webgl2/capture.js';
export { XfbPopulation, XfbPopulationField } from './webgl2/population.js';
export type { XfbWebGpu, WebGpuEntry, RestoredWebGpuBuffer } from './webgpu/engine.js';
export type { XfbWebGpuCapture, WebGpuSessionPart, DrawEncoder, WebGpuDrawBackOptions } from './webgpu/capture.js';
export type { XfbWebGpuBuffer, XfbWebGpuProgram, XfbWebGpuPipeline };
export type { EventName } from './core/events.js';
export type { RestoredFrom } from './core/restore_shadow.js';

/** @deprecated The hand-written types' name of {@link XfbWebGpuBuffer}. */
export type WebGpuBuffer = XfbWebGpuBuffer;
/** @deprecated The hand-written types' name of {@link XfbWebGpuProgram}. */
export type WebGpuProgram = XfbWebGpuProgram;
/** @deprecated The hand-written types' name of {@link XfbWebGpuPipeline}. */
export type WebGpuPipeline = XfbWebGpuPipeline;

const wasmUrl = new URL('./dist/xfb.wasm', import.meta.url); // a static URL, so bundlers copy the file
const fullWasmUrl = new URL('./dist/xfb-full.wasm', import.meta.url);

/** The WebGL2 module, or with `full` the one with populations (dist/xfb-full.*, imported only then). */
const loadModule = async (full = false): Promise<WebGl2Module> => {
  const factory = full ? (await import('./dist/xfb-full.mjs')).default : createXfbModule;
  return instantiate(
    factory as ModuleFactory<WebGl2Exports>,
    full ? fullWasmUrl : wasmUrl,
    (raw) => new WebGl2Module(raw),
  );
};

/** createXfb() options on WebGL2. */
export interface WebGl2Options {
  canvas?: HTMLCanvasElement | OffscreenCanvas;
  gl?: WebGL2RenderingContext;
  contextAttributes?: WebGLContextAttributes;
  /** false (default) leaves the state engines cache as found after every call (README "Sharing a
   *  context"); true, for an application that owns the context alone, keeps the minimal 9-call step
   *  and leaves xfb's program and vertex array bound. */
  ownsContext?: boolean;
  /** true loads the engine with populations (createPopulation(): dist/xfb-full.wasm, 13.4 KB gzip
   *  more) instead of the default module, which refuses them with XFB_UNSUPPORTED. */
  populations?: boolean;
  backend?: 'webgl2';
}

/** createXfb() options on WebGPU: your GPUDevice, or none (one is requested from `gpu`, default
 *  navigator.gpu, and destroyed with the engine). In Node: `gpu: create([])` of the npm package
 *  webgpu (Dawn; docs/guide/node-webgpu.md). */
export type WebGpuOptions =
  | { device: GPUDeviceType; backend?: 'webgpu' }
  | { backend: 'webgpu'; gpu?: GPUType }
  | { gpu: GPUType; backend?: 'webgpu' };

const OPTION_KEYS = [
  'canvas',
  'gl',
  'contextAttributes',
  'ownsContext',
  'populations',
  'device',
  'gpu',
  'backend',
] as const;

/**
 * Creates an engine on a canvas ({ canvas, contextAttributes? }) or an existing WebGL2 context
 * ({ gl }, to share it with your renderer); on WebGPU with a GPUDevice ({ device }) or a new one
 * ({ backend: 'webgpu' }, from navigator.gpu; { backend: 'webgpu', gpu } from your GPU object, e.g.
 * Dawn's in Node). Loads the WebAssembly module (and, for WebGPU only, webgpu.js and the
 * WGSL translator).
 * @throws XfbError XFB_INVALID_ARGUMENT for unknown options or a `gpu` without requestAdapter(),
 * XFB_UNSUPPORTED without WebGL2 (WebGPU: without an adapter, or when the adapter refuses a device).
 */
export default async function createXfb(options?: WebGl2Options): Promise<Xfb>;
export default async function createXfb(options: WebGpuOptions): Promise<XfbWebGpu>;
export default async function createXfb(given: WebGl2Options | WebGpuOptions = {}): Promise<Xfb | XfbWebGpu> {
  const options = checkKeys(given, OPTION_KEYS, 'createXfb()');
  const backend = checkName(
    options.backend === undefined ? (options.device || options.gpu ? 'webgpu' : 'webgl2') : options.backend,
    ['webgl2', 'webgpu'] as const,
    'createXfb(): backend',
    "'webgl2' or 'webgpu'",
  );
  if (backend === 'webgpu') {
    if (options.gl || options.canvas) invalid("createXfb(): { backend: 'webgpu' } takes a device, not a canvas or gl");
    if (options.ownsContext !== undefined)
      invalid('createXfb(): ownsContext is for WebGL2 contexts; a WebGPU engine changes no shared state');
    if (options.contextAttributes !== undefined)
      invalid('createXfb(): contextAttributes are for WebGL2 canvases; a WebGPU engine takes a device');
    if (options.populations !== undefined)
      invalid('createXfb(): populations are for WebGL2 engines; the WebGPU engine does not run them yet');
    const gpu = await import('./webgpu/index.js'); // loaded only by WebGPU users
    return gpu.createWebGpuEngine(options.device, options.gpu);
  }
  if (options.device) invalid("createXfb(): a device needs backend 'webgpu'");
  if (options.gpu !== undefined) invalid("createXfb(): a gpu needs backend 'webgpu'");
  const ownsContext = checkOptionalBoolean(options.ownsContext, 'createXfb(): ownsContext') ?? false;
  const populations = checkOptionalBoolean(options.populations, 'createXfb(): populations') ?? false;
  let gl = options.gl as WebGL2RenderingContext | undefined | null;
  if (gl !== undefined && !(typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext))
    invalid('createXfb(): gl must be a WebGL2RenderingContext');
  const canvas = options.canvas as HTMLCanvasElement | undefined;
  if (!gl && canvas) {
    if (typeof canvas.getContext !== 'function')
      invalid('createXfb(): canvas must be an HTMLCanvasElement or OffscreenCanvas');
    gl = canvas.getContext('webgl2', (options.contextAttributes as WebGLContextAttributes | undefined) ?? {});
    if (!gl) fail('XFB_UNSUPPORTED', 'this browser or canvas gives no WebGL2 context');
  }
  return new Xfb(await loadModule(populations), gl ?? null, ownsContext);
}

let planner: Promise<WebGl2Module> | undefined;

/** The planner alone (no WebGL; works in Node): attributes, captured varyings, buffer layout.
 *  @throws XfbError with the planner's code. */
export async function inspect(source: string, options: ProgramOptions = {}): Promise<Plan> {
  return inspectWith(await (planner ??= loadModule()), source, options);
}

/** For engines that wrap a WebGLBuffer in an object of their own (three.js GLBufferAttribute, a
 *  Babylon.js VertexBuffer): calls `make(glBuffer)` once per WebGLBuffer `buffer` names (two for
 *  a state pair, which swaps every step) and returns a function that gives the wrapper of the
 *  current one. Hand its result to the engine every frame, so the engine draws the latest state. */
export function followBuffer<T>(buffer: XfbBuffer, make: (glBuffer: WebGLBuffer) => T): () => T {
  if (objectKindOf(buffer) !== 'buffer') invalid('followBuffer(): buffer must be an xfb buffer');
  if (typeof make !== 'function') invalid('followBuffer(): make must be a function (glBuffer) => wrapper');
  if (!(buffer instanceof XfbBuffer))
    fail(
      'XFB_UNSUPPORTED',
      "followBuffer(): a WebGPU engine's buffer has no WebGLBuffer to follow; bind its gpuBuffer",
    );
  const wrappers = new Map<WebGLBuffer, T>();
  return () => {
    const glBuffer = buffer.glBuffer;
    let wrapper = wrappers.get(glBuffer);
    if (wrapper === undefined) wrappers.set(glBuffer, (wrapper = make(glBuffer)));
    return wrapper;
  };
}

/** Runs `fn()` and returns { result, buffers }: the WebGLBuffers created on `gl` meanwhile. The way to
 *  find the WebGLBuffer behind an engine's vertex buffer (to adoptBuffer() it) without reading
 *  the engine's private fields. */
export function createdBuffers<T>(gl: WebGL2RenderingContext, fn: () => T): { result: T; buffers: WebGLBuffer[] } {
  const isContext =
    (typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext) ||
    (typeof WebGLRenderingContext !== 'undefined' && gl instanceof WebGLRenderingContext);
  if (!isContext) invalid('createdBuffers(): gl must be a WebGL2RenderingContext (or a WebGLRenderingContext)');
  if (typeof fn !== 'function') invalid('createdBuffers(): fn must be a function, run while buffers are recorded');
  const own = Object.prototype.hasOwnProperty.call(gl, 'createBuffer');
  const original = gl.createBuffer; // eslint-disable-line @typescript-eslint/unbound-method -- called with gl below
  const buffers: WebGLBuffer[] = [];
  gl.createBuffer = function createBuffer() {
    const b = original.call(gl);
    buffers.push(b);
    return b;
  };
  try {
    return { result: fn(), buffers };
  } finally {
    if (own) gl.createBuffer = original;
    else delete (gl as Partial<WebGL2RenderingContext>).createBuffer;
  }
}
