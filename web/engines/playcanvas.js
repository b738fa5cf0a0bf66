// The fountain drawn by PlayCanvas: xfb writes every step's positions straight into the vertex
// buffer of a PlayCanvas points mesh (adopted as a write-only output), above a textured ground.
import * as pc from '/modules/playcanvas/build/playcanvas.mjs';
import { createdBuffers } from '/npm/index.js';
import { animate, checker, content, fountain } from './fountain.js';

export async function run(canvas, { frames = 0, count = 20000 } = {}) {
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true });
  const device = new pc.WebglGraphicsDevice(canvas, { gl, antialias: false });
  const app = new pc.Application(canvas, { graphicsDevice: device });
  app.setCanvasFillMode(pc.FILLMODE_NONE, canvas.width, canvas.height);
  app.setCanvasResolution(pc.RESOLUTION_FIXED, canvas.width, canvas.height);
  const camera = new pc.Entity('camera');
  camera.addComponent('camera', { clearColor: new pc.Color(16 / 255, 24 / 255, 32 / 255), farClip: 50 });
  camera.setPosition(0, 1.6, 4.5);
  camera.lookAt(0, 1, 0);
  app.root.addChild(camera);
  const texture = new pc.Texture(device, { width: 64, height: 64, format: pc.PIXELFORMAT_RGBA8 });
  texture.setSource(checker());
  const groundMaterial = new pc.StandardMaterial();
  groundMaterial.diffuse = new pc.Color(0, 0, 0);
  groundMaterial.emissive = new pc.Color(1, 1, 1); // multiplies the map
  groundMaterial.emissiveMap = texture;
  groundMaterial.useLighting = false;
  groundMaterial.update();
  const ground = new pc.Entity('ground');
  ground.addComponent('render', { type: 'plane', material: groundMaterial });
  ground.setLocalScale(6, 1, 6);
  app.root.addChild(ground);
  // The engine's own points mesh; xfb adopts its vertex buffer and writes every step into it.
  const mesh = new pc.Mesh(device);
  const { buffers } = createdBuffers(gl, () => { mesh.setPositions(new Float32Array(count * 3)); mesh.update(pc.PRIMITIVE_POINTS); });
  const sim = await fountain(gl, count, { drawnOutput: buffers[0] });
  const material = new pc.StandardMaterial();
  material.diffuse = new pc.Color(0, 0, 0);
  material.emissive = new pc.Color(0.4, 0.8, 1);
  material.useLighting = false;
  material.update();
  const instance = new pc.MeshInstance(mesh, material);
  instance.cull = false;
  const points = new pc.Entity('fountain');
  points.addComponent('render', { meshInstances: [instance] });
  app.root.addChild(points);
  await animate(frames, (dt) => {
    sim.step(dt);
    app.update(dt);
    app.render();
  });
  return { gl, content: content(gl, [16, 24, 32]) };
}
