// The fountain drawn by three.js: points from xfb's current position buffer (GLBufferAttribute,
// one per WebGLBuffer of the state pair) over a textured ground.
import * as THREE from '/modules/three/build/three.module.js';
import { followBuffer } from '/npm/index.js';
import { animate, checker, content, fountain } from './fountain.js';

export async function run(canvas, { frames = 0, count = 20000 } = {}) {
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true });
  const renderer = new THREE.WebGLRenderer({ canvas, context: gl });
  renderer.setSize(canvas.width, canvas.height, false);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x101820);
  const camera = new THREE.PerspectiveCamera(50, canvas.width / canvas.height, 0.1, 50);
  camera.position.set(0, 1.6, 4.5);
  camera.lookAt(0, 1, 0);
  const ground = new THREE.Mesh(new THREE.PlaneGeometry(6, 6), new THREE.MeshBasicMaterial({ map: new THREE.CanvasTexture(checker()) }));
  ground.rotation.x = -Math.PI / 2;
  scene.add(ground);
  const sim = await fountain(gl, count);
  const position = followBuffer(sim.position, (b) => new THREE.GLBufferAttribute(b, gl.FLOAT, 4, 4, count));
  const geometry = new THREE.BufferGeometry();
  geometry.boundingSphere = new THREE.Sphere(new THREE.Vector3(0, 1, 0), 4);
  scene.add(new THREE.Points(geometry, new THREE.PointsMaterial({ color: 0x66ccff, size: 2, sizeAttenuation: false })));
  await animate(frames, (dt) => {
    sim.step(dt);
    geometry.setAttribute('position', position());
    renderer.render(scene, camera);
  });
  return { gl, content: content(gl, [16, 24, 32]) };
}
