// The fountain drawn by Babylon.js: a points-cloud mesh over xfb's current position buffer (a
// VertexBuffer over a DataBuffer Babylon never deletes) above a textured ground.
import { Color3, Color4, DataBuffer, Engine, FreeCamera, Mesh, MeshBuilder, Scene, StandardMaterial, Texture, Vector3, VertexBuffer } from '/modules/@babylonjs/core/index.js';
import { followBuffer } from '/npm/index.js';
import { animate, checker, content, fountain } from './fountain.js';

/** A DataBuffer over a WebGLBuffer Babylon must never delete: its reference count never reaches 0. */
class ForeignDataBuffer extends DataBuffer {
  #buffer;
  constructor(buffer) { super(); this.#buffer = buffer; }
  get underlyingResource() { return this.#buffer; }
  get references() { return 1; }
  set references(_) { /* Babylon deletes a buffer whose count reaches 0 */ }
}

export async function run(canvas, { frames = 0, count = 20000 } = {}) {
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true });
  const engine = new Engine(gl, true, { preserveDrawingBuffer: true });
  const scene = new Scene(engine);
  scene.clearColor = new Color4(16 / 255, 24 / 255, 32 / 255, 1);
  const camera = new FreeCamera('camera', new Vector3(0, 1.6, -4.5), scene);
  camera.setTarget(new Vector3(0, 1, 0));
  const ground = MeshBuilder.CreateGround('ground', { width: 6, height: 6 }, scene);
  const groundMaterial = new StandardMaterial('ground', scene);
  groundMaterial.emissiveTexture = new Texture(checker().toDataURL(), scene);
  groundMaterial.disableLighting = true;
  ground.material = groundMaterial;
  const sim = await fountain(gl, count);
  const position = followBuffer(sim.position, (b) => new VertexBuffer(engine, new ForeignDataBuffer(b), VertexBuffer.PositionKind,
    { updatable: false, stride: 4, size: 3, type: VertexBuffer.FLOAT }));
  const points = new Mesh('fountain', scene);
  points.isUnIndexed = true;
  points.alwaysSelectAsActiveMesh = true;
  const material = new StandardMaterial('points', scene);
  material.emissiveColor = new Color3(0.4, 0.8, 1);
  material.disableLighting = true;
  material.pointsCloud = true;
  material.pointSize = 2;
  points.material = material;
  points.setVerticesBuffer(position(), false, count);
  await scene.whenReadyAsync();
  await animate(frames, (dt) => {
    sim.step(dt);
    points.setVerticesBuffer(position(), false, count);
    scene.render();
  });
  return { gl, content: content(gl, [16, 24, 32]) };
}
