// xfb inside the engines' WebGPU renderers, on SwiftShader's WebGPU adapter: three.js's WebGPURenderer
// (three 0.187) and Babylon.js's WebGPUEngine (@babylonjs/core 9.35), xfb created on the engine's
// own GPUDevice (createXfb({ device })). For each engine: its frames, read back from the GPU, equal
// pixel for pixel the frames it rendered before xfb existed while xfb steps and captures run between
// them; each such frame creates exactly the GPU objects a frame without xfb creates (no cache of the
// engine invalidated) and leaves its counters as they were; xfb's results equal the float32
// reference bit for bit; the device raises no uncapturederror, and an error scope the application
// opens around xfb's calls gets the application's error and none of xfb's. Then the engine draws
// xfb's state where the simulation puts it, every step: Babylon binding xfb's current GPUBuffer (a
// VertexBuffer over a DataBuffer; stepped between frames or inside one), three.js from its own
// attribute buffer filled by a copy (three 0.187's WebGPU backend cannot wrap a foreign GPUBuffer).
// Ownership: the engines' dispose() never destroys xfb's buffers; a device the engine requested
// itself is destroyed by its dispose() (xfb: contextlost); three leaves a device it was given.
// docs/guide/sharing-a-context.md, "Inside the engines' WebGPU renderers".
import * as THREE from '/modules/three/build/three.webgpu.js';
import {
  Camera, Color3, Color4, DataBuffer, FreeCamera, Matrix, Mesh, MeshBuilder, RenderTargetTexture, Scene, StandardMaterial, Texture, Vector3, VertexBuffer, WebGPUEngine,
} from '/modules/@babylonjs/core/index.js';
import { nextEvent } from './assert.js';
import { FLIPPER, SIZE, TRIANGLE_LEFT, assert, assertArrayEqual, coverage, createXfb, imageCanvas, xfbWork } from './engine-harness.js';

const f = Math.fround;

const adapters = [];
const CREATE = ['createBuffer', 'createTexture', 'createSampler', 'createBindGroup', 'createBindGroupLayout', 'createPipelineLayout', 'createShaderModule',
  'createRenderPipeline', 'createComputePipeline', 'createRenderPipelineAsync', 'createComputePipelineAsync', 'createQuerySet', 'createRenderBundleEncoder'];

/**
 * Watches the engine's device: its uncaptured errors, and the GPU objects created on it by kind
 * (own-property wrappers of the device's create* methods; createCommandEncoder not counted).
 */
function watch(device) {
  const errors = [];
  device.addEventListener('uncapturederror', (e) => errors.push(e.error.message));
  const counts = {};
  for (const name of CREATE) {
    const original = device[name];
    if (typeof original !== 'function') continue;
    counts[name] = 0;
    device[name] = function (...args) { counts[name]++; return original.apply(device, args); };
  }
  return {
    errors,
    /** Runs fn() and returns the objects created meanwhile, { kind: n } for n > 0. */
    async created(fn) {
      const before = { ...counts };
      await fn();
      return Object.fromEntries(CREATE.filter((k) => counts[k] !== before[k]).map((k) => [k, counts[k] - before[k]]));
    },
    noError(when) { assert(errors.length === 0, `uncapturederror on the engine's device ${when}: ${errors.join(' | ')}`); },
  };
}

/** Differing pixels of two RGBA8 frames, with the first one's place (x, y from the top). */
function compare(p, first, k) {
  let differing = 0, at = -1;
  for (let i = 0; i < p.length; i += 4)
    if (p[i] !== first[i] || p[i + 1] !== first[i + 1] || p[i + 2] !== first[i + 2] || p[i + 3] !== first[i + 3]) { differing++; if (at < 0) at = i / 4; }
  assert(differing === 0, `frame ${k}: ${differing} of ${SIZE * SIZE} pixels differ from the frame rendered before xfb existed ` +
    `(first at x=${at % SIZE}, y=${Math.floor(at / SIZE)}: ${[...p.subarray(at * 4, at * 4 + 4)]} vs ${[...first.subarray(at * 4, at * 4 + 4)]})`);
}

/**
 * The WebGPU analogue of engine-harness.js's unchangedByXfb: `frame()` renders and resolves with
 * the frame's RGBA8 pixels (rows from the top). Two frames before xfb exists (the second gives the
 * GPU objects a steady frame creates), then xfb is created on the device and `frames` frames follow,
 * each after xfb's work: every one must equal the first pixel for pixel and create the same
 * objects as the steady frame, and the engine's counters (`engineState()`) must stay; then xfb's
 * results must equal the reference. An error scope opened around xfb's work must come back empty,
 * and one opened around xfb's work and an application mistake must get the application's error.
 */
async function unchangedByXfb(device, frame, { frames = 3, interesting, note, engineState } = {}) {
  const watched = watch(device);
  let first;
  await watched.created(async () => { first = await frame(); });
  watched.noError('in the engine\'s first frame');
  if (interesting) interesting(first);
  let steady;
  const warm = await watched.created(async () => { steady = await frame(); });
  compare(steady, first, 0);
  const state = engineState?.();
  const work = await xfbWork(device, {}, { steps: 2 });
  for (let k = 1; k <= frames; k++) {
    device.pushErrorScope('validation');
    work.run();
    const scoped = await device.popErrorScope();
    assert(scoped === null, `xfb's step and capture raised a validation error into the application's scope: ${scoped?.message}`);
    watched.noError(`after xfb's work before frame ${k}`);
    const made = await watched.created(async () => compare(await frame(), first, k));
    assert(JSON.stringify(made) === JSON.stringify(warm), `frame ${k} after xfb's work created ${JSON.stringify(made)}, a frame without xfb ${JSON.stringify(warm)}`);
    watched.noError(`in the engine's frame ${k} after xfb's work`);
  }
  if (engineState) assert(JSON.stringify(engineState()) === JSON.stringify(state), `the engine's counters ${JSON.stringify(engineState())}, before xfb ${JSON.stringify(state)}`);
  await work.check();
  // The application's error scope around xfb's calls gets the application's error, and only it.
  device.pushErrorScope('validation');
  work.run();
  device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.STORAGE, label: 'the application\'s mistake' });
  work.run();
  const mine = await device.popErrorScope();
  assert(mine !== null && /MAP_READ|usage/i.test(mine.message), `the application's scope got its own validation error: ${mine?.message}`);
  await work.check();
  watched.noError('after reading xfb\'s results');
  note?.(`${frames} frames with xfb's work (2 steps + 1 capture) between them equal the frame before xfb, pixel for pixel; a steady frame (with the test's read-back) creates ${JSON.stringify(warm)}`);
  return work;
}

/** RGBA8 pixel at (x, y) from the top-left. */
function at(p, x, y) { const i = (y * SIZE + x) * 4; return [p[i], p[i + 1], p[i + 2], p[i + 3]]; }

/**
 * The flipper's triangle (TRIANGLE_LEFT, mirrored every step) drawn in white on black: all its lit
 * pixels in the expected half, about its area (0.8 x 1.6 of NDC's 2 x 2: 655 of 64 x 64 pixels), its
 * middle white.
 */
function triangleOn(p, side, k) {
  const lit = [0, 0];
  for (let i = 0; i < SIZE * SIZE; i++) if (p[i * 4] > 200) lit[i % SIZE < SIZE / 2 ? 0 : 1]++;
  const [here, there] = side === 'left' ? lit : [lit[1], lit[0]];
  assert(there === 0 && Math.abs(here - 655) < 40, `frame ${k}: ${lit[0]} lit pixels left, ${lit[1]} right; the state's triangle is on the ${side} (about 655 pixels)`);
  const middle = at(p, side === 'left' ? 16 : 48, 32);
  assert(middle[0] === 255 && middle[1] === 255 && middle[2] === 255, `frame ${k}: the triangle's middle (${side}) is white: ${middle}`);
}

/** Whether `buffer` was destroyed: a submit that copies from it fails validation, seen in an error scope. */
async function destroyed(device, buffer) {
  const probe = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST });
  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(buffer, 0, probe, 0, 16);
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  probe.destroy();
  return error !== null && /destroyed/i.test(error.message);
}

/** The flipper simulation on `xfb`: `state` (3 vec4 records) starts as TRIANGLE_LEFT; every step mirrors x. */
function flipper(xfb) {
  const format = [{ semantic: 'ATTR0', components: 4 }];
  const state = xfb.createBuffer({ format, count: 3, data: TRIANGLE_LEFT });
  const next = xfb.createBuffer({ format, count: 3 });
  return { state, next, pipeline: xfb.createPipeline(xfb.createProgram({ source: FLIPPER }), [{ input: state, output: next }]) };
}

// ---------------------------------------------------------------------------------------------
// three.js WebGPURenderer

async function threeRenderer(options = {}) {
  const renderer = new THREE.WebGPURenderer({ antialias: false, ...options });
  renderer.setSize(SIZE, SIZE, false);
  await renderer.init();
  assert(renderer.backend.isWebGPUBackend === true, 'three.js runs its WebGPU backend (not the WebGL2 fallback)');
  const target = new THREE.RenderTarget(SIZE, SIZE);
  return {
    renderer,
    device: renderer.backend.device,
    /** Renders into `target` and reads it back (rows from the top). */
    async frame(draw) {
      draw(target);
      return new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, SIZE, SIZE)).buffer.slice(0));
    },
  };
}

test('three.js WebGPURenderer: frames unchanged by xfb\'s steps and captures on its device (points, image texture, render target, instancing)', async ({ note }) => {
  const { renderer, device, frame } = await threeRenderer();
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 10);
  camera.position.set(0, 0, 3);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0.05, 0.05, 0.05);
  const material = new THREE.MeshBasicMaterial({ color: 0x33aa55 });
  for (let i = 0; i < 3; i++) {
    const box = new THREE.Mesh(new THREE.BoxGeometry(0.4, 0.4, 0.4), material);
    box.position.set((i - 1) * 0.7, 0.9, 0);
    box.rotation.set(0.4, 0.6 * i, 0);
    scene.add(box);
  }
  const points = new THREE.BufferGeometry();
  points.setAttribute('position', new THREE.Float32BufferAttribute([-0.8, 0.55, 0, -0.6, 0.55, 0, -0.4, 0.55, 0, -0.2, 0.55, 0], 3));
  scene.add(new THREE.Points(points, new THREE.PointsMaterial({ color: 0xffff00 })));
  const texture = new THREE.CanvasTexture(imageCanvas());
  texture.magFilter = THREE.NearestFilter;
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(0.8, 0.8), new THREE.MeshBasicMaterial({ map: texture, transparent: true }));
  plane.position.set(-0.5, -0.3, 0);
  scene.add(plane);
  const inner = new THREE.RenderTarget(32, 32);
  const sub = new THREE.Scene();
  sub.background = new THREE.Color(0.3, 0, 0.3);
  sub.add(new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshNormalMaterial()));
  const subCamera = new THREE.PerspectiveCamera(50, 1, 0.1, 10);
  subCamera.position.set(1, 1, 2);
  subCamera.lookAt(0, 0, 0);
  const screen = new THREE.Mesh(new THREE.PlaneGeometry(0.8, 0.8), new THREE.MeshBasicMaterial({ map: inner.texture }));
  screen.position.set(0.5, -0.3, 0);
  scene.add(screen);
  const instanced = new THREE.InstancedMesh(new THREE.BoxGeometry(0.1, 0.1, 0.1), new THREE.MeshBasicMaterial({ color: 0x3399ff }), 9);
  const m = new THREE.Matrix4();
  for (let i = 0; i < 9; i++) instanced.setMatrixAt(i, m.makeTranslation(0.2 + (i % 3) * 0.2, 0.25 + Math.floor(i / 3) * 0.15, 0));
  scene.add(instanced);
  const info = renderer.info;
  let drawn; // three's counts of one frame (reset here: otherwise only its animation loop resets them, once an animation frame)
  const render = (target) => {
    info.reset();
    renderer.setRenderTarget(inner);
    renderer.render(sub, subCamera);
    renderer.setRenderTarget(target);
    renderer.render(scene, camera);
    drawn = { drawCalls: info.render.drawCalls, triangles: info.render.triangles, points: info.render.points };
    renderer.setRenderTarget(null);
  };
  const work = await unchangedByXfb(device, () => frame(render), {
    note,
    interesting: (p) => assert(coverage(p, [13, 13, 13]) > 400, `the scene is drawn: ${coverage(p, [13, 13, 13])} pixels`),
    engineState: () => ({ ...drawn, geometries: info.memory.geometries, textures: info.memory.textures }),
  });
  // renderer.dispose() destroys the device it requested itself, xfb's too: xfb reports a lost device.
  const lost = nextEvent(work.xfb, 'contextlost');
  renderer.dispose();
  const detail = await lost;
  assert(detail.reason === 'destroyed', `renderer.dispose() destroyed the shared device: xfb's contextlost ${JSON.stringify(detail)}`);
  work.xfb.dispose();
});

test('three.js draws xfb\'s state through a copy into its own attribute buffer, every step; geometry.dispose() leaves xfb\'s buffers alive', async ({ note }) => {
  const renderer = new THREE.WebGPURenderer({ antialias: false });
  const count = 3;
  const geometry = new THREE.BufferGeometry();
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  scene.add(new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: 0xffffff, side: THREE.DoubleSide })));
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 10);
  camera.position.z = 1;
  // [docs:three-webgpu]
  await renderer.init();
  const device = renderer.backend.device;             // three's GPUDevice (its WebGPU backend)
  const xfb = await createXfb({ device });
  const { state, next, pipeline } = flipper(xfb);     // a simulation: state.gpuBuffer, vec4 records
  const position = new THREE.BufferAttribute(new Float32Array(count * 4), 4); // never needsUpdate
  geometry.setAttribute('position', position);
  geometry.boundingSphere = new THREE.Sphere(new THREE.Vector3(), 2); // three cannot compute it
  await renderer.compileAsync(scene, camera);         // creates the attribute's GPUBuffer
  const drawn = renderer.backend.get(position).buffer; // three's: VERTEX | COPY_SRC | COPY_DST
  // [docs:end]
  assert(renderer.backend.isWebGPUBackend === true, 'three.js runs its WebGPU backend (not the WebGL2 fallback)');
  assert(drawn instanceof GPUBuffer && drawn !== state.gpuBuffer && drawn.size === 48 && (drawn.usage & GPUBufferUsage.COPY_DST) !== 0,
    `three's attribute buffer exists after compileAsync(): size ${drawn?.size}, usage ${drawn?.usage}`);
  const watched = watch(device);
  const target = new THREE.RenderTarget(SIZE, SIZE);
  renderer.setRenderTarget(target);
  for (let k = 0; k < 5; k++) {
    // [docs:three-webgpu-frame]
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(state.gpuBuffer, 0, drawn, 0, count * 16); // xfb's latest state
    device.queue.submit([encoder.finish()]);
    renderer.render(scene, camera);
    // [docs:end]
    const p = new Uint8Array((await renderer.readRenderTargetPixelsAsync(target, 0, 0, SIZE, SIZE)).buffer.slice(0));
    triangleOn(p, k % 2 === 0 ? 'left' : 'right', k);
    pipeline.step();
  }
  // Ownership: three destroys the buffer of its attribute, never xfb's.
  geometry.dispose();
  assert(await destroyed(device, drawn), 'geometry.dispose() destroyed three\'s attribute buffer');
  for (const b of [state, next]) assert(!(await destroyed(device, b.gpuBuffer)), `xfb's GPUBuffer ${b === state ? 'state' : 'next'} survives geometry.dispose()`);
  const read = await state.read();
  assertArrayEqual(read, new Float32Array([0.9, -0.8, 0, 1, 0.1, -0.8, 0, 1, 0.5, 0.8, 0, 1].map(f)), 'xfb\'s state after 5 mirror steps, read after geometry.dispose()');
  watched.noError('while three drew xfb\'s copied state');
  note('5 frames alternate sides with the steps, each through one 48-byte copy into three\'s attribute buffer; geometry.dispose() leaves xfb\'s buffers alive');
  xfb.dispose();
  renderer.dispose();
});

test('three.js on the application\'s device (WebGPURenderer({ device })): renderer.dispose() leaves the device and xfb running', async ({ note }) => {
  // The adapter stays reachable: Chromium loses a device whose adapter was collected.
  const adapter = await navigator.gpu.requestAdapter();
  adapters.push(adapter);
  const device = await adapter.requestDevice();
  const { renderer, frame } = await threeRenderer({ device });
  assert(renderer.backend.device === device, 'three renders on the device it was given');
  const watched = watch(device);
  const xfb = await createXfb({ device });
  const { state, pipeline } = flipper(xfb);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0.2, 0.4, 0.6);
  const p = await frame((target) => { renderer.setRenderTarget(target); renderer.render(scene, new THREE.OrthographicCamera()); renderer.setRenderTarget(null); });
  assert(at(p, 5, 5)[2] > 140 && at(p, 5, 5)[2] < 170, `three's frame shows its background: ${at(p, 5, 5)}`);
  let lost = null;
  device.lost.then((info) => { lost = info.reason; });
  renderer.dispose();
  pipeline.step();
  const read = await state.read();
  assertArrayEqual(read, new Float32Array([0.9, -0.8, 0, 1, 0.1, -0.8, 0, 1, 0.5, 0.8, 0, 1].map(f)), 'xfb steps and reads after renderer.dispose()');
  assert(lost === null, `the device given to three outlives renderer.dispose(): lost ${lost}`);
  watched.noError('around renderer.dispose()');
  note('three never destroys a device it was given; one it requested itself it destroys in dispose() (the first case: xfb\'s contextlost)');
  xfb.dispose();
});

// ---------------------------------------------------------------------------------------------
// Babylon.js WebGPUEngine

/**
 * Headless Chromium here has no presentable WebGPU canvas: a render pass on the texture of a
 * canvas context's getCurrentTexture() loses the device within milliseconds (with the flags of
 * chromium.mjs, no Vulkan), and WebGPUEngine renders into it already in initAsync(). The context
 * therefore hands Babylon a plain texture of the configured size, format and usage in its place:
 * Babylon renders its main framebuffer as usual, and the test reads that texture back.
 */
function standInSwapChain(canvas) {
  const context = canvas.getContext('webgpu');
  let texture = null, owner = null;
  context.getCurrentTexture = function getCurrentTexture() {
    const { device, format, usage } = this.getConfiguration();
    if (!texture || owner !== device || texture.width !== canvas.width || texture.height !== canvas.height) {
      texture = device.createTexture({ size: [canvas.width, canvas.height], format, usage, label: 'stand-in for the canvas texture' });
      owner = device;
    }
    return texture;
  };
  return () => texture;
}

async function babylonEngine() {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = SIZE;
  document.body.appendChild(canvas);
  const swapChain = standInSwapChain(canvas);
  const engine = new WebGPUEngine(canvas, { antialias: false, adaptToDeviceRatio: false });
  await engine.initAsync();
  const scene = new Scene(engine);
  const device = engine._device; // Babylon 9.35 has no public accessor of its GPUDevice
  const staging = device.createBuffer({ size: SIZE * SIZE * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'the test\'s read-back' });
  return {
    engine,
    scene,
    device,
    /** One whole frame (beginFrame, scene.render(), endFrame) and its pixels, rows from the top. */
    async frame() {
      engine.beginFrame();
      scene.render();
      engine.endFrame();
      const texture = swapChain();
      assert(texture.format === 'rgba8unorm', `the canvas format is ${texture.format}`);
      const encoder = device.createCommandEncoder();
      encoder.copyTextureToBuffer({ texture }, { buffer: staging, bytesPerRow: SIZE * 4 }, [SIZE, SIZE]);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const p = new Uint8Array(staging.getMappedRange().slice(0));
      staging.unmap();
      return p;
    },
  };
}

function emissive(scene, name, color) {
  const m = new StandardMaterial(name, scene);
  m.emissiveColor = color;
  m.disableLighting = true;
  m.backFaceCulling = false;
  return m;
}

test('Babylon.js WebGPUEngine: frames unchanged by xfb\'s steps and captures on its device (points cloud, image texture, render target, thin instances)', async ({ note }) => {
  const { engine, scene, device, frame } = await babylonEngine();
  scene.clearColor = new Color4(0.05, 0.05, 0.05, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -3), scene);
  camera.setTarget(Vector3.Zero());
  const green = emissive(scene, 'green', new Color3(0.2, 0.67, 0.33));
  for (let i = 0; i < 3; i++) {
    const box = MeshBuilder.CreateBox(`box${i}`, { size: 0.4 }, scene);
    box.position = new Vector3((i - 1) * 0.7, 0.9, 0);
    box.rotation = new Vector3(0.4, 0.6 * i, 0);
    box.material = green;
  }
  const cloud = new Mesh('cloud', scene);
  cloud.setVerticesData(VertexBuffer.PositionKind, [-0.8, 0.55, 0, -0.6, 0.55, 0, -0.4, 0.55, 0, -0.2, 0.55, 0]);
  cloud.isUnIndexed = true;
  const pointMaterial = emissive(scene, 'points', new Color3(1, 1, 0));
  pointMaterial.pointsCloud = true;
  cloud.material = pointMaterial;
  const texture = new Texture(imageCanvas().toDataURL(), scene, true, true, Texture.NEAREST_SAMPLINGMODE);
  const plane = MeshBuilder.CreatePlane('plane', { size: 0.8 }, scene);
  plane.position = new Vector3(-0.5, -0.3, 0);
  const textured = emissive(scene, 'textured', new Color3(0, 0, 0));
  textured.emissiveTexture = texture;
  plane.material = textured;
  const inner = MeshBuilder.CreateBox('inner', { size: 1 }, scene);
  inner.material = emissive(scene, 'inner', new Color3(0.8, 0.3, 0.1));
  inner.layerMask = 0x2;
  const target = new RenderTargetTexture('target', 32, scene);
  target.renderList.push(inner);
  target.clearColor = new Color4(0.3, 0, 0.3, 1);
  scene.customRenderTargets.push(target);
  const screen = MeshBuilder.CreatePlane('screen', { size: 0.8 }, scene);
  screen.position = new Vector3(0.5, -0.3, 0);
  const shown = emissive(scene, 'shown', new Color3(0, 0, 0));
  shown.emissiveTexture = target;
  screen.material = shown;
  const small = MeshBuilder.CreateBox('small', { size: 0.1 }, scene);
  small.material = emissive(scene, 'blue', new Color3(0.2, 0.6, 1));
  const matrices = new Float32Array(16 * 9);
  for (let i = 0; i < 9; i++) Matrix.Translation(0.2 + (i % 3) * 0.2, 0.25 + Math.floor(i / 3) * 0.15, 0).copyToArray(matrices, i * 16);
  small.thinInstanceSetBuffer('matrix', matrices, 16);
  await scene.whenReadyAsync();
  await new Promise((resolve) => (texture.isReady() ? resolve() : texture.onLoadObservable.addOnce(resolve)));
  const work = await unchangedByXfb(device, frame, {
    note,
    interesting: (p) => assert(coverage(p, [13, 13, 13]) > 400, `the scene is drawn: ${coverage(p, [13, 13, 13])} pixels`),
    engineState: () => ({ activeMeshes: scene.getActiveMeshes().length, meshes: scene.meshes.length, textures: scene.textures.length, materials: scene.materials.length }),
  });
  work.xfb.dispose();
  engine.dispose();
});

test('Babylon.js draws xfb\'s current GPUBuffer through a VertexBuffer over a DataBuffer, stepped between or inside its frames, and never destroys it', async ({ note }) => {
  const { engine, scene, frame } = await babylonEngine();
  const count = 3;
  scene.clearColor = new Color4(0, 0, 0, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -1), scene);
  camera.mode = Camera.ORTHOGRAPHIC_CAMERA;
  camera.orthoLeft = -1; camera.orthoRight = 1; camera.orthoTop = 1; camera.orthoBottom = -1;
  camera.minZ = 0.1;
  camera.setTarget(Vector3.Zero());
  // [docs:babylon-webgpu]
  const device = engine._device;                      // Babylon 9.35 has no public accessor
  const xfb = await createXfb({ device });
  const { state, next, pipeline } = flipper(xfb);     // a simulation: state.gpuBuffer, vec4 records
  // Babylon binds a DataBuffer's underlyingResource at each draw: this one is xfb's current GPUBuffer.
  class XfbDataBuffer extends DataBuffer {
    #buffer;
    constructor(buffer) { super(); this.#buffer = buffer; }
    get underlyingResource() { return this.#buffer.gpuBuffer; } // after every step(), the new state
    get references() { return 1; }
    set references(_) { /* never 0: Babylon destroys the GPUBuffer at 0 */ }
  }
  const mesh = new Mesh('xfb', scene);
  mesh.isUnIndexed = true;
  mesh.alwaysSelectAsActiveMesh = true;               // no bounds: Babylon cannot compute them
  mesh.setVerticesBuffer(new VertexBuffer(engine, new XfbDataBuffer(state), VertexBuffer.PositionKind,
    { updatable: false, stride: 4, size: 3, type: VertexBuffer.FLOAT }), false, count);
  // [docs:end]
  const watched = watch(device);
  mesh.material = emissive(scene, 'white', new Color3(1, 1, 1));
  await scene.whenReadyAsync();
  // The vertex buffers Babylon's render passes bind, to see that it draws xfb's GPUBuffers themselves.
  const setVertexBuffer = GPURenderPassEncoder.prototype.setVertexBuffer;
  const bound = [];
  GPURenderPassEncoder.prototype.setVertexBuffer = function (slot, buffer, ...rest) { bound.push(buffer); return setVertexBuffer.call(this, slot, buffer, ...rest); };
  try {
    // Steps between frames, then (frames 5, 6) inside the frame, from onBeforeRenderObservable: xfb
    // submits at once, Babylon at endFrame(), so that frame draws the step's result.
    let observer = null;
    for (let k = 0; k < 7; k++) {
      if (k === 5) observer = scene.onBeforeRenderObservable.add(() => pipeline.step());
      bound.length = 0;
      let p;
      const made = await watched.created(async () => { p = await frame(); });
      // The first frame builds the mesh's pipeline; afterwards the alternating GPUBuffer creates nothing.
      if (k > 0) assert(JSON.stringify(made) === '{}', `frame ${k} created GPU objects: ${JSON.stringify(made)}`);
      const side = (k < 5 ? k : k + 1) % 2 === 0 ? 'left' : 'right';
      triangleOn(p, side, k);
      assert(bound.includes(state.gpuBuffer) && !bound.includes(next.gpuBuffer), `frame ${k}: Babylon bound xfb's current GPUBuffer (${bound.filter((b) => b === state.gpuBuffer).length} times), not the other`);
      if (k < 5) pipeline.step();
    }
    observer.remove();
  } finally {
    GPURenderPassEncoder.prototype.setVertexBuffer = setVertexBuffer;
  }
  // A control: a DataBuffer whose count is 1, as Babylon's own, over a GPUBuffer of the test's.
  class Counted extends DataBuffer {
    #buffer;
    constructor(buffer) { super(); this.#buffer = buffer; this.references = 1; }
    get underlyingResource() { return this.#buffer; }
  }
  const own = device.createBuffer({ size: 48, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_SRC, label: 'the control\'s' });
  const control = new Mesh('control', scene);
  control.isUnIndexed = true;
  control.alwaysSelectAsActiveMesh = true;
  control.material = mesh.material;
  control.setVerticesBuffer(new VertexBuffer(engine, new Counted(own), VertexBuffer.PositionKind, { updatable: false, stride: 4, size: 3, type: VertexBuffer.FLOAT }), false, count);
  await frame();
  mesh.dispose(); // disposes its vertex buffers; the DataBuffer's count never reaches 0
  control.dispose();
  const empty = await frame(); // Babylon destroys the buffers it released at the end of a frame
  assert(empty.every((v, i) => v === (i % 4 === 3 ? 255 : 0)), 'the frame after mesh.dispose() is black');
  assert(await destroyed(device, own), 'the control: Babylon destroyed the GPUBuffer of a DataBuffer whose count a release took to 0');
  for (const b of [state, next]) assert(!(await destroyed(device, b.gpuBuffer)), `xfb's GPUBuffer ${b === state ? 'state' : 'next'} survives mesh.dispose() and a frame`);
  const read = await state.read();
  assertArrayEqual(read, new Float32Array([0.9, -0.8, 0, 1, 0.1, -0.8, 0, 1, 0.5, 0.8, 0, 1].map(f)), 'xfb\'s state after 7 mirror steps, read after mesh.dispose() and a frame');
  watched.noError('while Babylon drew xfb\'s buffers');
  // engine.dispose() destroys the device (Babylon's, shared): xfb sees a lost device.
  const lost = nextEvent(xfb, 'contextlost');
  engine.dispose();
  const detail = await lost;
  assert(detail.reason === 'destroyed', `engine.dispose() destroyed the shared device: xfb's contextlost ${JSON.stringify(detail)}`);
  note('7 frames alternate sides (2 with the step inside the frame), Babylon binding the current GPUBuffer of the state pair (no copy); mesh.dispose() leaves them alive; engine.dispose() destroys the device (xfb: contextlost)');
  xfb.dispose();
});
