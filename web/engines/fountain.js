// The simulation every engine page draws: a fountain of particles stepped by xfb on the engine's
// own WebGL2 context (separate mode, so each state buffer is one vec4 per particle, the layout
// engines bind most easily), and the textured ground they fall on.
import createXfb from '/npm/index.js';

const SOURCE = `#version 300 es
in vec4 position;   // xyz, remaining life
in vec4 velocity;   // xyz, per-particle seed in [0, 1)
uniform float dt;
uniform vec3 gravity;
out vec4 out_position;
out vec4 out_velocity;
void main() {
    vec3 v = velocity.xyz + gravity * dt;
    vec3 p = position.xyz + v * dt;
    float life = position.w - dt;
    if (p.y < 0.0) { p.y = -p.y * 0.5; v.y = -v.y * 0.45; v.xz *= 0.8; }
    if (life < 0.0) {
        float a = velocity.w * 6.2831853, r = 0.4 + 0.6 * fract(velocity.w * 7.13);
        p = vec3(0.0, 0.1, 0.0);
        v = vec3(cos(a) * r, 3.5 + fract(velocity.w * 3.7), sin(a) * r);
        life += 2.5;
    }
    out_position = vec4(p, life);
    out_velocity = vec4(v, velocity.w);
}
`;

/** xfb on `gl` with `count` particles; `extraOutput`: a buffer the step also writes (PlayCanvas). */
export async function fountain(gl, count, { drawnOutput } = {}) {
  const xfb = await createXfb({ gl });
  const pos = new Float32Array(count * 4), vel = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    pos[i * 4 + 3] = 2.5 * i / count; // staggered births
    vel[i * 4 + 3] = (i * 0.618034) % 1;
  }
  const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
  const position = xfb.createBuffer({ format: vec4(0), count, data: pos });
  const velocity = xfb.createBuffer({ format: vec4(1), count, data: vel });
  const entries = [{ input: position, output: xfb.createBuffer({ format: vec4(0), count }) }, { input: velocity, output: xfb.createBuffer({ format: vec4(1), count }) }];
  let source = SOURCE;
  if (drawnOutput) {
    source = source.replace('out vec4 out_velocity;', 'out vec4 out_velocity;\nout vec3 out_drawn;').replace('out_velocity = vec4(v, velocity.w);', 'out_velocity = vec4(v, velocity.w);\n    out_drawn = p;');
    entries.push({ output: xfb.adoptBuffer({ glBuffer: drawnOutput, format: [{ semantic: 'ATTR2', components: 3 }], count }) });
  }
  const program = xfb.createProgram({ source, mode: 'separate' });
  program.setUniform('gravity', [0, -3.5, 0]);
  const pipeline = xfb.createPipeline(program, entries);
  return {
    xfb, position,
    step(dt) { program.setUniform('dt', dt); pipeline.step(); },
  };
}

/** A 64x64 checkerboard canvas for the ground (uploaded by each engine with its usual flags). */
export function checker() {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const x = c.getContext('2d');
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) {
    x.fillStyle = (i + j) % 2 ? '#3a4a6a' : '#c8d0e0';
    x.fillRect(i * 8, j * 8, 8, 8);
  }
  return c;
}

/** Runs `frame(dt)` for `frames` animation frames (or for ever when frames is 0); resolves after the last. */
export function animate(frames, frame) {
  return new Promise((resolve) => {
    let n = 0;
    const tick = () => {
      frame(1 / 60);
      if (frames && ++n >= frames) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Pixels of the drawing buffer that differ from `bg` in the upper half (particles) and the lower
 *  half (ground), and light pixels (the checkerboard's light squares: the texture is drawn). */
export function content(gl, bg) {
  const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight, p = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, p);
  let upper = 0, lower = 0, light = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 4;
    if (Math.abs(p[i] - bg[0]) + Math.abs(p[i + 1] - bg[1]) + Math.abs(p[i + 2] - bg[2]) > 24) { if (y >= h / 2) upper++; else lower++; }
    if (p[i] > 150 && p[i + 1] > 150 && p[i + 2] > 150) light++;
  }
  return { upper, lower, light };
}
