// xfb inside a PlayCanvas app (playcanvas from tests/web/node_modules): the engine's picture is
// unchanged by xfb steps and captures between frames, xfb's results equal the reference, and a
// simulation writes straight into a PlayCanvas vertex buffer adopted as an xfb output
// (README "Sharing a context").
import * as pc from '/modules/playcanvas/build/playcanvas.mjs';
import {
  SIZE, TRIANGLE_LEFT, assert, context, coverage, createXfb, createdBuffers, imageCanvas, noGlError, pixelAt, pixels, unchangedByXfb, xfbWork,
} from './engine-harness.js';

function app(canvas, gl) {
  const device = new pc.WebglGraphicsDevice(canvas, { gl, antialias: false });
  const a = new pc.Application(canvas, { graphicsDevice: device });
  a.setCanvasFillMode(pc.FILLMODE_NONE, SIZE, SIZE);
  a.setCanvasResolution(pc.RESOLUTION_FIXED, SIZE, SIZE);
  return { app: a, device, render: () => { a.update(0); a.render(); } };
}

function emissive(color, map) {
  const m = new pc.StandardMaterial();
  m.diffuse = new pc.Color(0, 0, 0);
  m.emissive = color;
  if (map) m.emissiveMap = map;
  m.useLighting = false;
  m.useSkybox = false;
  m.cull = pc.CULLFACE_NONE;
  m.update();
  return m;
}

function camera(a, clear, z = 3, options = {}) {
  const c = new pc.Entity('camera');
  c.addComponent('camera', { clearColor: clear, nearClip: 0.1, farClip: 10, ...options });
  c.setPosition(0, 0, z);
  a.root.addChild(c);
  return c;
}

function box(a, material, position, options = {}) {
  const e = new pc.Entity();
  e.addComponent('render', { type: 'box', material, ...options });
  e.setPosition(...position);
  a.root.addChild(e);
  return e;
}

test('one material: the frame\'s first draw uses the program of its last draw', async ({ note }) => {
  const { canvas, gl } = context();
  const { app: a, render } = app(canvas, gl);
  camera(a, new pc.Color(0.1, 0.1, 0.2));
  const material = emissive(new pc.Color(0.2, 0.67, 0.33));
  for (let i = 0; i < 3; i++) {
    const e = box(a, material, [(i - 1) * 0.8, 0, 0]);
    e.setLocalScale(0.5, 0.5, 0.5);
    e.setEulerAngles(20, 35 * i, 0);
  }
  const work = await xfbWork(gl);
  await unchangedByXfb(gl, render, work, { note, interesting: (p) => assert(coverage(p, [26, 26, 51]) > 200, 'the boxes are drawn') });
  work.xfb.dispose();
  a.destroy();
});

test('points, an image texture (flipY, premultiplied alpha), a render target and instancing', async ({ note }) => {
  const { canvas, gl } = context();
  const { app: a, device, render } = app(canvas, gl);
  camera(a, new pc.Color(0.05, 0.05, 0.05));
  // Points.
  const cloud = new pc.Mesh(device);
  cloud.setPositions([-0.8, 0.8, 0, -0.6, 0.8, 0, -0.4, 0.8, 0, -0.2, 0.8, 0]);
  cloud.update(pc.PRIMITIVE_POINTS);
  const points = new pc.Entity();
  points.addComponent('render', { meshInstances: [new pc.MeshInstance(cloud, emissive(new pc.Color(1, 1, 0)))] });
  a.root.addChild(points);
  // An image texture uploaded with flipY and premultiplied alpha.
  const texture = new pc.Texture(device, { width: 16, height: 16, format: pc.PIXELFORMAT_RGBA8, flipY: true, premultiplyAlpha: true, mipmaps: false,
    minFilter: pc.FILTER_NEAREST, magFilter: pc.FILTER_NEAREST });
  texture.setSource(imageCanvas());
  const plane = box(a, emissive(new pc.Color(1, 1, 1), texture), [-0.5, -0.3, 0]);
  plane.setLocalScale(0.8, 0.8, 0.05);
  // A render target: a box on its own layer, rendered by a second camera, shown on a plane.
  const layer = new pc.Layer({ name: 'target' });
  a.scene.layers.push(layer);
  const targetTexture = new pc.Texture(device, { width: 32, height: 32, format: pc.PIXELFORMAT_RGBA8, mipmaps: false });
  const target = new pc.RenderTarget({ colorBuffer: targetTexture, depth: true });
  const inner = box(a, emissive(new pc.Color(0.8, 0.3, 0.1)), [0, 0, 0], { layers: [layer.id] });
  inner.setEulerAngles(30, 40, 0);
  camera(a, new pc.Color(0.3, 0, 0.3), 2, { layers: [layer.id], renderTarget: target, priority: -1 });
  const screen = box(a, emissive(new pc.Color(1, 1, 1), targetTexture), [0.5, -0.3, 0]);
  screen.setLocalScale(0.8, 0.8, 0.05);
  // Instancing: 9 small boxes in one draw.
  const instanced = box(a, emissive(new pc.Color(0.2, 0.6, 1)), [0, 0, 0]);
  const matrices = new Float32Array(16 * 9);
  const m = new pc.Mat4();
  for (let i = 0; i < 9; i++) {
    m.setTRS(new pc.Vec3(0.2 + (i % 3) * 0.2, 0.4 + Math.floor(i / 3) * 0.15, 0), pc.Quat.IDENTITY, new pc.Vec3(0.1, 0.1, 0.1));
    matrices.set(m.data, i * 16);
  }
  const instances = new pc.VertexBuffer(device, pc.VertexFormat.getDefaultInstancingFormat(device), 9, { data: matrices });
  instanced.render.meshInstances[0].setInstancing(instances);
  const work = await xfbWork(gl);
  await unchangedByXfb(gl, render, work, {
    note,
    interesting: (p) => {
      assert(coverage(p, [13, 13, 13]) > 400, 'the scene is drawn');
      note(`PlayCanvas left UNPACK_FLIP_Y_WEBGL ${gl.getParameter(gl.UNPACK_FLIP_Y_WEBGL)}, UNPACK_PREMULTIPLY_ALPHA_WEBGL ${gl.getParameter(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL)}`);
      const [r, g, b] = pixelAt(p, 20, 44);
      note(`textured plane pixel: ${r}, ${g}, ${b}`);
    },
  });
  work.xfb.dispose();
  a.destroy();
});

test('a simulation writes straight into a PlayCanvas vertex buffer adopted as an xfb output; its destroy() is detected', async ({ note }) => {
  const { canvas, gl } = context();
  const { app: a, device, render } = app(canvas, gl);
  camera(a, new pc.Color(0, 0, 0), 1, { projection: pc.PROJECTION_ORTHOGRAPHIC, orthoHeight: 1 });
  // The engine's own mesh: 3 vec3 positions in a vertex buffer PlayCanvas creates and owns.
  const triangle = new pc.Mesh(device);
  const xyz = Array.from({ length: 3 }, (_, v) => [...TRIANGLE_LEFT.subarray(v * 4, v * 4 + 3)]).flat();
  const { buffers } = createdBuffers(gl, () => { triangle.setPositions(xyz); triangle.update(pc.PRIMITIVE_TRIANGLES); });
  assert(buffers.length === 1, `PlayCanvas created ${buffers.length} WebGLBuffers for the mesh`);
  const instance = new pc.MeshInstance(triangle, emissive(new pc.Color(1, 1, 1)));
  instance.cull = false; // the triangle leaves the bounds PlayCanvas computed from the first positions
  const entity = new pc.Entity();
  entity.addComponent('render', { meshInstances: [instance] });
  a.root.addChild(entity);
  // xfb: the state in its own buffers, the drawn positions written into the adopted buffer.
  const xfb = await createXfb({ gl });
  const state = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 3, data: TRIANGLE_LEFT });
  const next = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count: 3 });
  const drawn = xfb.adoptBuffer({ glBuffer: buffers[0], format: [{ semantic: 'ATTR1', components: 3 }], count: 3 });
  const program = xfb.createProgram({ mode: 'separate', source: '#version 300 es\nin vec4 position;\nout vec4 out_position;\nout vec3 out_drawn;\n' +
    'void main() { out_position = vec4(-position.x, position.yzw); out_drawn = out_position.xyz; }\n' });
  const pipeline = xfb.createPipeline(program, [{ input: state, output: next }, { output: drawn }]);
  for (let frame = 0; frame < 5; frame++) {
    render();
    noGlError(gl, `in frame ${frame}`);
    const p = await pixels(gl);
    const left = pixelAt(p, 16, 40)[0] > 200, right = pixelAt(p, 48, 40)[0] > 200;
    assert(left === (frame % 2 === 0) && right === (frame % 2 === 1), `frame ${frame}: the triangle is drawn ${left ? 'left' : ''}${right ? 'right' : ''}, expected ${frame % 2 ? 'right' : 'left'}`);
    pipeline.step();
  }
  const written = await drawn.read();
  assert(written[0] === Math.fround(0.9), `the adopted buffer holds the 5th step's positions: x ${written[0]}`);
  // Ownership: xfb never deletes an adopted buffer; PlayCanvas's destroy() does, and xfb says so.
  drawn.dispose();
  assert(gl.isBuffer(buffers[0]), 'disposing the adopted xfb buffer keeps the WebGLBuffer');
  const again = xfb.adoptBuffer({ glBuffer: buffers[0], format: [{ semantic: 'ATTR1', components: 3 }], count: 3 });
  triangle.destroy();
  let code = '';
  try { await again.read(); } catch (e) { code = e.code; }
  assert(code === 'XFB_DISPOSED', `a read after PlayCanvas destroyed the buffer fails with XFB_DISPOSED, got '${code}'`);
  noGlError(gl, 'after the ownership checks');
  note('5 frames alternate sides: PlayCanvas draws what each step wrote into its own vertex buffer; destroy() is reported as XFB_DISPOSED');
  xfb.dispose();
  a.destroy();
});
