// xfb inside a three.js app (three from tests/web/node_modules): the renderer's picture is
// unchanged by xfb steps and captures between frames, xfb's results equal the reference, and
// three.js draws xfb's current buffer through GLBufferAttribute (README "Sharing a context").
import * as THREE from '/modules/three/build/three.module.js';
import {
  FLIPPER, SIZE, TRIANGLE_LEFT, assert, context, coverage, createXfb, followBuffer, imageCanvas, noGlError, pixelAt, pixels, unchangedByXfb, xfbWork,
} from './engine-harness.js';

function renderer(canvas, gl) {
  const r = new THREE.WebGLRenderer({ canvas, context: gl, antialias: false });
  r.setSize(SIZE, SIZE, false);
  return r;
}

test('one material: the frame\'s first draw uses the program of its last draw', async ({ note }) => {
  const { canvas, gl } = context();
  const r = renderer(canvas, gl);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0.1, 0.1, 0.2);
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 10);
  camera.position.set(0, 0, 3);
  const material = new THREE.MeshBasicMaterial({ color: 0x33aa55 });
  for (let i = 0; i < 3; i++) {
    const box = new THREE.Mesh(new THREE.BoxGeometry(0.5, 0.5, 0.5), material);
    box.position.x = (i - 1) * 0.8;
    box.rotation.set(0.4, 0.6 * i, 0);
    scene.add(box);
  }
  const work = await xfbWork(gl);
  await unchangedByXfb(gl, () => r.render(scene, camera), work, { note, interesting: (p) => assert(coverage(p, [26, 26, 51]) > 200, 'the boxes are drawn') });
  work.xfb.dispose();
  r.dispose();
});

test('points, an image texture (flipY, premultiplied alpha), a render target and instancing', async ({ note }) => {
  const { canvas, gl } = context();
  const r = renderer(canvas, gl);
  const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 10);
  camera.position.set(0, 0, 3);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0.05, 0.05, 0.05);
  // Points (three.js draws them from their own vertex array; no index).
  const points = new THREE.BufferGeometry();
  points.setAttribute('position', new THREE.Float32BufferAttribute([-0.8, 0.8, 0, -0.6, 0.8, 0, -0.4, 0.8, 0, -0.2, 0.8, 0], 3));
  scene.add(new THREE.Points(points, new THREE.PointsMaterial({ color: 0xffff00, size: 4, sizeAttenuation: false })));
  // An image texture uploaded with UNPACK_FLIP_Y_WEBGL and UNPACK_PREMULTIPLY_ALPHA_WEBGL (left set afterwards).
  const texture = new THREE.CanvasTexture(imageCanvas());
  texture.premultiplyAlpha = true;
  texture.magFilter = THREE.NearestFilter;
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(0.8, 0.8), new THREE.MeshBasicMaterial({ map: texture, transparent: true }));
  plane.position.set(-0.5, -0.3, 0);
  scene.add(plane);
  // A render target: a box rendered into it, shown on a plane.
  const target = new THREE.WebGLRenderTarget(32, 32);
  const sub = new THREE.Scene();
  sub.background = new THREE.Color(0.3, 0, 0.3);
  sub.add(new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshNormalMaterial()));
  const subCamera = new THREE.PerspectiveCamera(50, 1, 0.1, 10);
  subCamera.position.set(1, 1, 2);
  subCamera.lookAt(0, 0, 0);
  const screen = new THREE.Mesh(new THREE.PlaneGeometry(0.8, 0.8), new THREE.MeshBasicMaterial({ map: target.texture }));
  screen.position.set(0.5, -0.3, 0);
  scene.add(screen);
  // Instancing: 9 small boxes in one draw.
  const instanced = new THREE.InstancedMesh(new THREE.BoxGeometry(0.1, 0.1, 0.1), new THREE.MeshBasicMaterial({ color: 0x3399ff }), 9);
  const m = new THREE.Matrix4();
  for (let i = 0; i < 9; i++) instanced.setMatrixAt(i, m.makeTranslation(0.2 + (i % 3) * 0.2, 0.4 + Math.floor(i / 3) * 0.15, 0));
  scene.add(instanced);
  const render = () => {
    r.setRenderTarget(target);
    r.render(sub, subCamera);
    r.setRenderTarget(null);
    r.render(scene, camera);
  };
  const work = await xfbWork(gl);
  await unchangedByXfb(gl, render, work, {
    note,
    interesting: (p) => {
      assert(coverage(p, [13, 13, 13]) > 400, 'the scene is drawn');
      assert(gl.getParameter(gl.UNPACK_FLIP_Y_WEBGL) === true, 'three.js left UNPACK_FLIP_Y_WEBGL set, as xfb must expect');
    },
  });
  work.xfb.dispose();
  r.dispose();
});

test('three.js draws xfb\'s current buffer through GLBufferAttribute, every swap, and its dispose() is detected', async ({ note }) => {
  const { canvas, gl } = context();
  const r = renderer(canvas, gl);
  const xfb = await createXfb({ gl });
  const format = [{ semantic: 'ATTR0', components: 4 }];
  const state = xfb.createBuffer({ format, count: 3, data: TRIANGLE_LEFT });
  const next = xfb.createBuffer({ format, count: 3 });
  const pipeline = xfb.createPipeline(xfb.createProgram({ source: FLIPPER }), [{ input: state, output: next }]);
  // One GLBufferAttribute per WebGLBuffer of the state pair; the geometry gets the current one.
  const position = followBuffer(state, (glBuffer) => new THREE.GLBufferAttribute(glBuffer, gl.FLOAT, 4, 4, 3));
  const geometry = new THREE.BufferGeometry();
  const mesh = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: 0xffffff, side: THREE.DoubleSide }));
  geometry.boundingSphere = new THREE.Sphere(new THREE.Vector3(), 2); // three.js cannot compute bounds of a GPU-only attribute
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0, 0, 0);
  scene.add(mesh);
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 10);
  camera.position.z = 1;
  for (let frame = 0; frame < 5; frame++) {
    geometry.setAttribute('position', position());
    r.render(scene, camera);
    noGlError(gl, `in frame ${frame}`);
    const p = await pixels(gl);
    const left = pixelAt(p, 16, 40)[0] > 200, right = pixelAt(p, 48, 40)[0] > 200;
    assert(left === (frame % 2 === 0) && right === (frame % 2 === 1), `frame ${frame}: the triangle is drawn ${left ? 'left' : ''}${right ? 'right' : ''}, expected ${frame % 2 ? 'right' : 'left'}`);
    pipeline.step();
  }
  // Ownership: three.js deletes the WebGLBuffer of every attribute of a disposed geometry. The
  // recipe detaches xfb's attribute first; xfb's buffers stay alive.
  geometry.deleteAttribute('position');
  geometry.dispose();
  const read = await state.read();
  assert(read[0] === Math.fround(0.9), `xfb's buffer still reads after 5 mirror steps: x ${read[0]}`);
  // Without the recipe three.js deletes xfb's buffer: xfb says so with a code at its next checked call.
  const g2 = new THREE.BufferGeometry();
  g2.setAttribute('position', position());
  g2.boundingSphere = geometry.boundingSphere;
  mesh.geometry = g2;
  r.render(scene, camera);
  g2.dispose();
  let code = '';
  try { await state.read(); } catch (e) { code = e.code; }
  assert(code === 'XFB_DISPOSED', `a read after three.js deleted xfb's buffer fails with XFB_DISPOSED, got '${code}'`);
  noGlError(gl, 'after the ownership checks');
  note('5 frames alternate sides with the swap; geometry.dispose() after deleteAttribute keeps xfb\'s buffer; without it xfb reports XFB_DISPOSED');
  xfb.dispose();
  r.dispose();
});
