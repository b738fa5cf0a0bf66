// xfb inside a Babylon.js app (@babylonjs/core from tests/web/node_modules): the engine's picture
// is unchanged by xfb steps and captures between frames (also on Babylon's non-VAO path), xfb's
// results equal the reference, and Babylon draws xfb's current buffer through a VertexBuffer over
// a DataBuffer (README "Sharing a context").
import {
  Camera, Color3, Color4, DataBuffer, Engine, FreeCamera, Matrix, Mesh, MeshBuilder, RenderTargetTexture, Scene, StandardMaterial, Texture, Vector3, VertexBuffer,
} from '/modules/@babylonjs/core/index.js';
import {
  FLIPPER, TRIANGLE_LEFT, assert, context, coverage, createXfb, followBuffer, imageCanvas, noGlError, pixelAt, pixels, unchangedByXfb, xfbWork,
} from './engine-harness.js';

function engineOn(gl, options = {}) {
  const engine = new Engine(gl, false, { preserveDrawingBuffer: true, stencil: true, ...options });
  const scene = new Scene(engine);
  return { engine, scene };
}

function emissive(scene, name, color) {
  const m = new StandardMaterial(name, scene);
  m.emissiveColor = color;
  m.disableLighting = true;
  m.backFaceCulling = false;
  return m;
}

test('one material: the frame\'s first draw uses the program of its last draw', async ({ note }) => {
  const { gl } = context();
  const { engine, scene } = engineOn(gl);
  scene.clearColor = new Color4(0.1, 0.1, 0.2, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -3), scene);
  camera.setTarget(Vector3.Zero());
  const material = emissive(scene, 'green', new Color3(0.2, 0.67, 0.33));
  for (let i = 0; i < 3; i++) {
    const box = MeshBuilder.CreateBox(`box${i}`, { size: 0.5 }, scene);
    box.position.x = (i - 1) * 0.8;
    box.rotation = new Vector3(0.4, 0.6 * i, 0);
    box.material = material;
  }
  await scene.whenReadyAsync();
  const work = await xfbWork(gl);
  await unchangedByXfb(gl, () => scene.render(), work, { note, interesting: (p) => assert(coverage(p, [26, 26, 51]) > 200, 'the boxes are drawn') });
  work.xfb.dispose();
  engine.dispose();
});

for (const vao of [true, false]) {
  test(`points cloud, an image texture (invertY), a render target and instances${vao ? '' : ', on the non-VAO path'}`, async ({ note }) => {
    const { gl } = context();
    const { engine, scene } = engineOn(gl);
    if (!vao) {
      // Babylon reads the flag into its caps at start-up: both, so attributes are set on whatever vertex array is bound.
      engine.disableVertexArrayObjects = true;
      engine.getCaps().vertexArrayObject = false;
    }
    scene.clearColor = new Color4(0.05, 0.05, 0.05, 1);
    const camera = new FreeCamera('camera', new Vector3(0, 0, -3), scene);
    camera.setTarget(Vector3.Zero());
    // A point cloud.
    const cloud = new Mesh('cloud', scene);
    cloud.setVerticesData(VertexBuffer.PositionKind, [-0.8, 0.8, 0, -0.6, 0.8, 0, -0.4, 0.8, 0, -0.2, 0.8, 0]);
    cloud.isUnIndexed = true;
    const pointMaterial = emissive(scene, 'points', new Color3(1, 1, 0));
    pointMaterial.pointsCloud = true;
    pointMaterial.pointSize = 4;
    cloud.material = pointMaterial;
    // An image texture (uploaded with UNPACK_FLIP_Y_WEBGL, left set afterwards).
    const texture = new Texture(imageCanvas().toDataURL(), scene, true, true, Texture.NEAREST_SAMPLINGMODE);
    const plane = MeshBuilder.CreatePlane('plane', { size: 0.8 }, scene);
    plane.position = new Vector3(-0.5, -0.3, 0);
    const textured = emissive(scene, 'textured', new Color3(0, 0, 0));
    textured.emissiveTexture = texture;
    textured.diffuseTexture = texture;
    plane.material = textured;
    // A render target with a box in it, shown on a plane.
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
    // Instances: 9 thin instances of one box in one draw.
    const small = MeshBuilder.CreateBox('small', { size: 0.1 }, scene);
    small.material = emissive(scene, 'blue', new Color3(0.2, 0.6, 1));
    const matrices = new Float32Array(16 * 9);
    for (let i = 0; i < 9; i++) Matrix.Translation(0.2 + (i % 3) * 0.2, 0.4 + Math.floor(i / 3) * 0.15, 0).copyToArray(matrices, i * 16);
    small.thinInstanceSetBuffer('matrix', matrices, 16);
    await scene.whenReadyAsync();
    await new Promise((resolve) => (texture.isReady() ? resolve() : texture.onLoadObservable.addOnce(resolve)));
    const work = await xfbWork(gl);
    await unchangedByXfb(gl, () => scene.render(), work, {
      note,
      interesting: (p) => {
        assert(coverage(p, [13, 13, 13]) > 400, 'the scene is drawn');
        assert(gl.getParameter(gl.UNPACK_FLIP_Y_WEBGL) === true, 'Babylon.js left UNPACK_FLIP_Y_WEBGL set, as xfb must expect');
      },
    });
    work.xfb.dispose();
    engine.dispose();
  });
}

/** A DataBuffer over a WebGLBuffer Babylon must never delete: its reference count never reaches 0. */
class ForeignDataBuffer extends DataBuffer {
  #buffer;
  constructor(buffer) { super(); this.#buffer = buffer; }
  get underlyingResource() { return this.#buffer; }
  get references() { return 1; }
  set references(_) { /* Babylon's counting would delete the buffer at 0 */ }
}

test('Babylon.js draws xfb\'s current buffer through a VertexBuffer over a DataBuffer, every swap, and never deletes it', async ({ note }) => {
  const { gl } = context();
  const { engine, scene } = engineOn(gl);
  scene.clearColor = new Color4(0, 0, 0, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 0, -1), scene);
  camera.mode = Camera.ORTHOGRAPHIC_CAMERA;
  camera.orthoLeft = -1; camera.orthoRight = 1; camera.orthoTop = 1; camera.orthoBottom = -1;
  camera.minZ = 0.1;
  camera.setTarget(Vector3.Zero());
  const xfb = await createXfb({ gl });
  const format = [{ semantic: 'ATTR0', components: 4 }];
  const state = xfb.createBuffer({ format, count: 3, data: TRIANGLE_LEFT });
  const next = xfb.createBuffer({ format, count: 3 });
  const pipeline = xfb.createPipeline(xfb.createProgram({ source: FLIPPER }), [{ input: state, output: next }]);
  // One VertexBuffer per WebGLBuffer of the state pair; the mesh gets the current one each frame.
  const position = followBuffer(state, (glBuffer) => new VertexBuffer(engine, new ForeignDataBuffer(glBuffer), VertexBuffer.PositionKind,
    { updatable: false, stride: 4, size: 3, type: VertexBuffer.FLOAT }));
  const mesh = new Mesh('xfb', scene);
  mesh.isUnIndexed = true;
  mesh.alwaysSelectAsActiveMesh = true; // Babylon cannot compute bounds of a GPU-only buffer
  mesh.material = emissive(scene, 'white', new Color3(1, 1, 1));
  for (let frame = 0; frame < 5; frame++) {
    mesh.setVerticesBuffer(position(), false, 3);
    await scene.whenReadyAsync();
    scene.render();
    noGlError(gl, `in frame ${frame}`);
    const p = await pixels(gl);
    // Babylon's default is a left-handed view: +x is to the right with the camera at -z looking at +z.
    const left = pixelAt(p, 16, 40)[0] > 200, right = pixelAt(p, 48, 40)[0] > 200;
    assert(left === (frame % 2 === 0) && right === (frame % 2 === 1), `frame ${frame}: the triangle is drawn ${left ? 'left' : ''}${right ? 'right' : ''}, expected ${frame % 2 ? 'right' : 'left'}`);
    pipeline.step();
  }
  mesh.dispose(); // disposes its vertex buffers; the DataBuffer's count never reaches 0
  engine.dispose();
  const read = await state.read();
  assert(read[0] === Math.fround(0.9), `xfb's buffer still reads after mesh.dispose() and engine.dispose(): x ${read[0]}`);
  noGlError(gl, 'after the ownership checks');
  note('5 frames alternate sides with the swap; mesh.dispose() and engine.dispose() leave xfb\'s buffers alive');
  xfb.dispose();
});
