// The guide's engine recipes (docs/guide/sharing-a-context.md: regions three, babylon, playcanvas),
// run by the browser suite docs-examples with the engines of tests/web/node_modules: each engine
// draws xfb's state for a few frames, and the suite checks that the engine's object names xfb's
// current buffer and that xfb's buffers outlive the engine's dispose. (The engines' own suites,
// tests/web/page/three.js, babylon.js and playcanvas.js, check the pictures.)
import createXfb, { followBuffer, createdBuffers } from 'xfb';

const count = 3;
const triangle = new Float32Array([-0.9, -0.8, 0, 1, -0.1, -0.8, 0, 1, -0.5, 0.8, 0, 1]);
const mirror = '#version 300 es\nin vec4 position;\nout vec4 out_position;\n' +
  'void main() { out_position = vec4(-position.x, position.yzw); }\n';

/** A state pair stepped by a mirror simulation, on the engine's context. */
async function mirrored(gl) {
  const xfb = await createXfb({ gl });                       // the engine's WebGL2 context
  const format = [{ semantic: 'ATTR0', components: 4 }];
  const state = xfb.createBuffer({ format, count, data: triangle });
  const next = xfb.createBuffer({ format, count });
  const pipeline = xfb.createPipeline(xfb.createProgram({ source: mirror }), [{ input: state, output: next }]);
  return { xfb, state, pipeline };
}

export async function three(THREE, canvas) {
  const renderer = new THREE.WebGLRenderer({ canvas });
  const gl = renderer.getContext();
  const { xfb, state, pipeline } = await mirrored(gl);
  const geometry = new THREE.BufferGeometry();
  const scene = new THREE.Scene().add(new THREE.Mesh(geometry, new THREE.MeshBasicMaterial()));
  const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 10);
  camera.position.z = 1;
  const center = new THREE.Vector3(), radius = 2;
  // [docs:three]
  // three.js: GLBufferAttribute, one per WebGLBuffer of the state pair; give the geometry the current one.
  const position = followBuffer(state, (b) => new THREE.GLBufferAttribute(b, gl.FLOAT, 4, 4, count));
  geometry.boundingSphere = new THREE.Sphere(center, radius);     // three.js cannot compute it
  for (let frame = 0; frame < 3; frame++) {
    geometry.setAttribute('position', position());                // every frame, after step()
    renderer.render(scene, camera);
    pipeline.step();
  }
  // three.js deletes the WebGLBuffer of every attribute of a disposed geometry: detach first.
  geometry.deleteAttribute('position'); geometry.dispose();
  // [docs:end]
  const result = { follows: position().buffer === state.glBuffer, glError: gl.getError(), values: await state.read() };
  xfb.dispose();
  renderer.dispose();
  return result;
}

export async function babylon({ DataBuffer, Engine, Mesh, Scene, VertexBuffer }, canvas) {
  const gl = canvas.getContext('webgl2');
  const engine = new Engine(gl, false);
  const scene = new Scene(engine);
  const mesh = new Mesh('xfb', scene);
  const { xfb, state, pipeline } = await mirrored(gl);
  // [docs:babylon]
  // Babylon.js: a VertexBuffer over a DataBuffer whose reference count never reaches 0 (Babylon
  // deletes a buffer when it does).
  class ForeignDataBuffer extends DataBuffer {
    #b; constructor(b) { super(); this.#b = b; }
    get underlyingResource() { return this.#b; }
    get references() { return 1; } set references(_) {}
  }
  const vb = followBuffer(state, (b) => new VertexBuffer(engine, new ForeignDataBuffer(b), VertexBuffer.PositionKind,
    { updatable: false, stride: 4, size: 3, type: VertexBuffer.FLOAT }));
  for (let frame = 0; frame < 3; frame++) {
    mesh.setVerticesBuffer(vb(), false, count);                   // every frame, after step()
    pipeline.step();
  }
  // [docs:end]
  const follows = vb().getBuffer().underlyingResource === state.glBuffer;
  mesh.dispose();
  const result = { follows, glError: gl.getError(), values: await state.read() };
  xfb.dispose();
  engine.dispose();
  return result;
}

export async function playcanvas(pc, canvas) {
  const gl = canvas.getContext('webgl2');
  const device = new pc.WebglGraphicsDevice(canvas, { gl });
  const mesh = new pc.Mesh(device);
  mesh.setPositions(Array.from({ length: count }, (_, v) => [...triangle.subarray(v * 4, v * 4 + 3)]).flat());
  const { xfb, state } = await mirrored(gl);
  const next = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 4 }], count });
  const program = xfb.createProgram({ mode: 'separate', source: '#version 300 es\nin vec4 position;\nout vec4 out_position;\nout vec3 out_drawn;\n' +
    'void main() { out_position = vec4(-position.x, position.yzw); out_drawn = out_position.xyz; }\n' });
  // [docs:playcanvas]
  // PlayCanvas (no public way to wrap a WebGLBuffer): the simulation writes into the engine's own
  // vertex buffer, adopted as a write-only { output } of a separate-mode program; nothing to swap.
  const { buffers } = createdBuffers(gl, () => mesh.update(pc.PRIMITIVE_TRIANGLES));
  const drawn = xfb.adoptBuffer({ glBuffer: buffers[0], format: [{ semantic: 'ATTR1', components: 3 }], count });
  xfb.createPipeline(program, [{ input: state, output: next }, { output: drawn }]).step();
  // xfb never deletes an adopted buffer; PlayCanvas's destroy() does, and xfb reports XFB_DISPOSED.
  // [docs:end]
  const result = { follows: buffers.length === 1, glError: gl.getError(), values: await drawn.read() };
  xfb.dispose();
  mesh.destroy();
  device.destroy();
  return result;
}
