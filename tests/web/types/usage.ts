// Compiled (never run) against the package's index.d.ts by types.mjs: what a TypeScript user
// writes must type-check, and the misuses marked @ts-expect-error must be rejected (if the
// types degraded to `any`, those markers would themselves be errors).
import createXfb, { XfbError, createdBuffers, followBuffer, inspect, type CaptureCount, type ErrorCode, type PartRange, type SessionPlan, type StepReport, type Xfb, type XfbWebGpu } from 'xfb';

export async function usage(canvas: HTMLCanvasElement): Promise<number> {
  const xfb: Xfb = await createXfb({ canvas });
  const format = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 2 }] as const;
  const vertices = xfb.createBuffer({ format: [...format], count: 4, data: new Float32Array(24) });
  const captured = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 6 });
  const program = xfb.createProgram({ source: '#version 300 es\nin vec4 a;\nin vec2 b;\nout vec4 out_a;\nvoid main() { out_a = a; }', mode: 'interleaved' });
  program.setUniform('k', [1, 2, 3]);
  const capture = xfb.createCapture(program, [{ input: vertices }, { output: captured }], { expansion: 'auto' });
  const count: CaptureCount = capture.capture({ mode: 'triangle_strip', count: 4 });
  capture.capture({ mode: 'line_loop', indices: new Uint16Array([0, 1, 2, 0xffff, 3]), restartIndex: null });
  capture.drawCaptured({ mode: 'triangles', instances: 2 });
  const pipeline = xfb.createPipeline(program, [{ input: vertices }, { output: captured }], { count: 4 });
  pipeline.step();
  xfb.steps([pipeline, pipeline]);
  const path = pipeline.stepPath;
  const why: string = path.replayed ? '' : path.reason;
  const report: StepReport = await pipeline.stepChecked();
  const plan = await inspect('#version 300 es\nout vec4 out_a;\nvoid main() { out_a = vec4(0.0); }');
  try {
    capture.dispose();
  } catch (e) {
    if (e instanceof XfbError) {
      const code: ErrorCode = e.code; // the engine's table (generated from Module.enums())
      return code.length;
    }
  }
  // @ts-expect-error: not one of the engine's error codes
  const bogus: ErrorCode = 'XFB_NO_SUCH_CODE';
  // @ts-expect-error: the events are 'contextlost' and 'contextrestored'
  xfb.on('contextlots', () => {});
  // @ts-expect-error: not a draw mode
  capture.capture({ mode: 'quads', count: 4 });
  // @ts-expect-error: indices and count are different draws
  capture.capture({ mode: 'lines', count: 4, indices: [0, 1] });
  // @ts-expect-error: the expansion is 'auto' | 'engine' | 'driver'
  xfb.createCapture(program, [], { expansion: 'gpu' });
  // @ts-expect-error: the primitive of a count is points, lines or triangles
  const strip: CaptureCount['primitive'] = 'triangle_strip';
  return count.records + count.bytes[0] + report.written + plan.buffers.length + xfb.liveObjects().captures + strip.length + bogus.length;
}

// Sharing a context: the owned mode, foreign errors, adopting an engine's buffer, following a swap.
export async function shared(gl: WebGL2RenderingContext): Promise<number> {
  const xfb = await createXfb({ gl, ownsContext: false });
  const errors: { code: number; name: string }[] = xfb.takeForeignGlErrors();
  const { result, buffers } = createdBuffers(gl, () => gl.createBuffer());
  const adopted = xfb.adoptBuffer({ glBuffer: buffers[0], format: [{ semantic: 'ATTR0', components: 3 }], count: 3 });
  const current: () => { b: WebGLBuffer } = followBuffer(adopted, (b) => ({ b }));
  // A geometry shader is declared on both engines (refused at run time: XFB_GEOMETRY_UNSUPPORTED).
  const geometryDescription: Parameters<Xfb['createProgram']>[0] & Parameters<XfbWebGpu['createProgram']>[0] = { source: '', geometry: 'layout(points) in;' };
  // @ts-expect-error: geometry is GLSL source, a string
  xfb.createProgram({ source: '', geometry: 1 });
  // @ts-expect-error: ownsContext is a boolean
  await createXfb({ gl, ownsContext: 'yes' });
  return errors.length + (result ? 1 : 0) + (adopted.adopted ? 1 : 0) + (current().b ? 1 : 0) + geometryDescription.source.length;
}

// Append captures: parts (one with its own program), a record offset, drawing one part back.
export function append(xfb: Xfb, capture: ReturnType<Xfb['createCapture']>, sleeve: ReturnType<Xfb['createProgram']>): number {
  const session: SessionPlan = capture.captureSession(
    [{ mode: 'triangle_strip', count: 4 }, { mode: 'triangles', indices: [0, 1, 2], program: sleeve }], { firstRecord: 3 });
  capture.drawSession({ part: 1, instances: 2 });
  capture.drawSession();
  // @ts-expect-error: a part is a draw
  capture.captureSession([{ mode: 'lines' }]);
  const range: PartRange = session.parts[0];
  return session.endRecord + range.firstRecord + range.firstByte[0] + xfb.liveObjects().captures;
}

export async function usageWebGpu(device: object, canvas: HTMLCanvasElement, dawn: object): Promise<number> {
  const gpu: XfbWebGpu = await createXfb({ device });
  const own: XfbWebGpu = await createXfb({ backend: 'webgpu' });
  const inNode: XfbWebGpu = await createXfb({ backend: 'webgpu', gpu: dawn }); // Node: create([]) of the npm package webgpu
  // @ts-expect-error: a gpu is where a WebGPU device comes from, not an option of a WebGL2 canvas
  await createXfb({ canvas, gpu: dawn });
  inNode.dispose();
  const state = gpu.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 4 });
  gpu.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 4, restore: 'initial' }); // re-uploaded by restore()
  // @ts-expect-error: 'upload' is where a restored buffer's bytes came from, not a policy
  gpu.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 4, restore: 'upload' });
  gpu.on('contextrestored', ({ buffers }) => {
    const from: 'initial' | 'last-readback' | 'upload' | 'none' | undefined = buffers[0]?.restoredFrom;
    const layout: object | undefined = buffers[0]?.buffer.layout;
    void [from, layout];
  });
  gpu.on('contextlost', () => void gpu.restore(device).then((): void => undefined));
  // @ts-expect-error: restore() takes a GPUDevice
  void gpu.restore('device');
  const next = gpu.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 4 });
  const vertexBuffer: object = state.gpuBuffer;
  const program = gpu.createProgram({ source: '#version 300 es\nin vec4 a;\nout vec4 out_a;\nvoid main() { out_a = a; }' });
  const pipeline = gpu.createPipeline(program, [{ input: state, output: next }]);
  await pipeline.ready;
  pipeline.step();
  const report: StepReport = await pipeline.stepChecked();
  const sparks = gpu.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 8 });
  const emitting = gpu.createPipeline(program, [{ input: state, output: next }, { output: sparks }], { emits: [{ varying: 'emit_spark', count: 'emit_count' }], overflow: 'clamp' });
  const totals: number = (await emitting.emitted())[0].requested + ((await emitting.stepChecked()).emitted?.length ?? 0);
  const indirect: object | null = emitting.emitTotalsBuffer;
  // @ts-expect-error: overflow is 'error' or 'clamp'
  gpu.createPipeline(program, [{ input: state }], { emits: [], overflow: 'wrap' });
  const passes = gpu.createPipeline(program, [{ input: state, output: next }], { fuseSubsteps: false });
  passes.step(4);
  const fusion: { fused: boolean; reason: string } = pipeline.fusion();
  // @ts-expect-error: fuseSubsteps is a boolean
  gpu.createPipeline(program, [{ input: state }], { fuseSubsteps: 'yes' });
  const webgl: Xfb = await createXfb({ canvas });
  // @ts-expect-error: a WebGL2 engine has no device
  webgl.device;
  // @ts-expect-error: WebGL2 buffers do not go into a WebGPU pipeline
  gpu.createPipeline(program, [{ input: webgl.createBuffer({ format: [{ semantic: 'ATTR0' }], count: 4 }) }]);
  // @ts-expect-error: the backend is 'webgl2' or 'webgpu'
  await createXfb({ backend: 'vulkan' });
  own.dispose();
  return program.wgsl.length + pipeline.info.workGroupSize + report.written + totals + (indirect ? 1 : 0) + program.uniformLayout.bytes + (vertexBuffer ? 1 : 0) + (fusion.fused ? 1 : 0);
}
