// Assertions and JavaScript references for the browser suites.
import createXfb, { XfbError } from '/npm/index.js';

export { createXfb, XfbError };

/** Every check goes through here; the page counts them per case (index.html, browser.mjs). */
export function assert(cond, message) {
  globalThis.__xfbAsserts = (globalThis.__xfbAsserts ?? 0) + 1;
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/** Element by element; `tolerance` 0 means bit-exact float32. */
export function assertArrayEqual(gpu, ref, what, tolerance = 0) {
  assert(gpu.length === ref.length, `${what}: length ${gpu.length} vs ${ref.length}`);
  for (let i = 0; i < ref.length; i++) {
    const a = gpu[i], b = ref[i];
    const ok = tolerance === 0 ? Object.is(a, b) || a === b : Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));
    if (!ok) throw new Error(`${what}: element ${i} differs: GPU ${a}, reference ${b}`);
  }
}

/** Runs fn, requires an XfbError with `code`; returns it. */
export async function expectError(code, fn) {
  try {
    await fn();
  } catch (e) {
    assert(e instanceof XfbError, `expected XfbError ${code}, got ${e && e.name}: ${e && e.message}`);
    assert(e.code === code, `expected ${code}, got ${e.code}: ${e.message}`);
    return e;
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}

export function pseudoRandom(n, lo, hi, seed) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    out[i] = lo + (hi - lo) * ((seed >>> 8) / (1 << 24));
  }
  return out;
}

const f = Math.fround;

/** shaders/particles.vert, interleaved {position vec4, velocity vec4}. */
export function particlesStep(s, dt, g) {
  for (let e = 0; e < s.length; e += 8) {
    const v = [0, 1, 2].map((i) => f(s[e + 4 + i] + f(g[i] * dt)));
    let p = [0, 1, 2].map((i) => f(s[e + i] + f(v[i] * dt)));
    let life = f(s[e + 3] - dt), vel = v;
    if (life < 0) { p = [0, 0, 0]; vel = [0, 1, 2].map((i) => -s[e + 4 + i]); life = f(life + 4); }
    for (let i = 0; i < 3; i++) { s[e + i] = p[i]; s[e + 4 + i] = vel[i]; }
    s[e + 3] = life;
  }
}

/**
 * shaders/flock_separate.vert's buffers for `n` elements (descriptions with random positions,
 * velocities and per-element constants) and its entries: the position and velocity state pairs, the
 * constants, the instance output. The arrays are returned too, for a reference run with flockStep.
 */
export function flockScene(n) {
  const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];
  const pos = pseudoRandom(n * 4, -4, 4, 1), vel = pseudoRandom(n * 4, -1, 1, 2), params = pseudoRandom(n * 2, 0.25, 2, 3);
  const buffers = [{ format: vec4(0), count: n, data: pos }, { format: vec4(0), count: n }, { format: vec4(1), count: n, data: vel }, { format: vec4(1), count: n },
    { format: [{ semantic: 'ATTR2', components: 2 }], count: n, data: params }, { format: vec4(12), count: n }];
  const entries = [{ input: 0, output: 1 }, { input: 2, output: 3 }, { input: 4 }, { output: 5 }];
  return { pos, vel, params, buffers, entries };
}

/** shaders/flock_separate.vert: separate position/velocity, params constants, instance output. */
export function flockStep(pos, vel, params, inst, dt, target) {
  for (let e = 0; e < pos.length / 4; e++) {
    const maxSpeed = params[2 * e], s = f(params[2 * e + 1] * dt);
    const v = [0, 1, 2].map((i) => Math.min(Math.max(f(vel[4 * e + i] + f(f(target[i] - pos[4 * e + i]) * s)), -maxSpeed), maxSpeed));
    const p = [0, 1, 2].map((i) => f(pos[4 * e + i] + f(v[i] * dt)));
    for (let i = 0; i < 3; i++) { pos[4 * e + i] = p[i]; vel[4 * e + i] = v[i]; inst[4 * e + i] = p[i]; }
    pos[4 * e + 3] = f(pos[4 * e + 3] + 1);
    inst[4 * e + 3] = f(v[0] * v[2]);
  }
}

/**
 * Resolves when `xfb` emits `type`, once the browser event behind it has finished dispatching
 * (restoreContext() inside the webglcontextlost dispatch is ignored); rejects after `ms`.
 */
export function nextEvent(xfb, type, ms = 10_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${type}' event within ${ms} ms`)), ms);
    xfb.on(type, (detail) => { clearTimeout(timer); setTimeout(() => resolve(detail), 0); });
  });
}

/** The simulation shaders of the native demos (C++ raw strings), as the WebGL2 gallery runs them. */
export async function demoShaders() {
  const fetchGlsl = 'vec4 fetchElement(highp sampler2D s, int i) { return texelFetch(s, ivec2(i % 1024, i / 1024), 0); }\n';
  const out = {};
  for (const name of ['particles', 'flock', 'cloth', 'skinning', 'trails']) {
    const cpp = await (await fetch(`/demos/${name}.cpp`)).text();
    const m = /k(?:Simulation|Skin) = (?:std::string\()?R"\(([\s\S]*?)\)"(?:\) \+ kFetchGlsl \+ R"\(([\s\S]*?)\)")?;/.exec(cpp);
    assert(m, `demos/${name}.cpp: simulation shader not found`);
    out[name] = m[1] + (m[2] !== undefined ? fetchGlsl + m[2] : '');
  }
  return out;
}

export async function shader(name) { return (await fetch(`/shaders/${name}`)).text(); }

/**
 * Draws the vec4 records of `glBuffer` (their xy, in red) into the default framebuffer at 64 x 64
 * and counts lit pixels per quadrant, for checking which captured records a draw reads.
 * quadrants(draw) clears, binds the program and vertex array, calls draw() (drawCaptured,
 * drawSession), reads back and returns [bottom-left, bottom-right, top-left, top-right].
 */
export function redCoverage(gl, glBuffer) {
  const compile = (type, src) => { const sh = gl.createShader(type); gl.shaderSource(sh, src); gl.compileShader(sh); return sh; };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, '#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = vec4(p.xy, 0.0, 1.0); }'));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0, 0.0, 0.0, 1.0); }'));
  gl.linkProgram(program);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, glBuffer);
  gl.enableVertexAttribArray(0);
  gl.vertexAttribPointer(0, 4, gl.FLOAT, false, 16, 0);
  gl.bindBuffer(gl.ARRAY_BUFFER, null);
  return {
    quadrants(draw) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, 64, 64);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.useProgram(program);
      gl.bindVertexArray(vao);
      draw();
      const px = new Uint8Array(64 * 64 * 4);
      gl.readPixels(0, 0, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, px);
      const q = [0, 0, 0, 0];
      for (let i = 0; i < 64 * 64; i++) if (px[i * 4] > 128) q[(Math.floor(i / 64) >= 32 ? 2 : 0) + (i % 64 >= 32 ? 1 : 0)]++;
      return q;
    },
    dispose() {
      gl.bindVertexArray(null);
      gl.deleteVertexArray(vao);
      gl.deleteProgram(program);
    },
  };
}

/** Counts calls of every WebGL2 method on this context instance (Emscripten calls the instance). */
export function countCalls(gl) {
  const counts = new Map();
  const proto = Object.getPrototypeOf(gl);
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (typeof d.value !== 'function' || name === 'constructor') continue;
    gl[name] = function (...args) { counts.set(name, (counts.get(name) ?? 0) + 1); return d.value.apply(gl, args); };
  }
  return {
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    get: (name) => counts.get(name) ?? 0,
    reset: () => counts.clear(),
    snapshot: () => Object.fromEntries(counts),
  };
}

/** The WebGPU methods that make an object, for steady-state checks (no object per step or capture). */
export const GPU_CREATE = ['createBuffer', 'createBindGroup', 'createComputePipeline', 'createShaderModule', 'createTexture'];

/** Runs `fn` with the methods `names` of `target` (a GPUDevice, its queue) counted, puts them back
 *  and resolves to { name: calls }. */
export async function countMethodCalls(target, names, fn) {
  const counts = Object.fromEntries(names.map((name) => [name, 0]));
  const originals = names.map((name) => [name, target[name]]);
  for (const [name, original] of originals) target[name] = function (...args) { counts[name]++; return original.apply(this, args); };
  try {
    await fn();
  } finally {
    for (const [name, original] of originals) target[name] = original;
  }
  return counts;
}

// The GL's decomposition, written independently of the engine: the source vertex of each record.
export function expand(mode, runs) {
  const out = [];
  for (const r of runs) {
    const n = r.length;
    if (mode === 'points') out.push(...r);
    if (mode === 'lines') for (let i = 0; i + 1 < n; i += 2) out.push(r[i], r[i + 1]);
    if (mode === 'line_strip') for (let i = 0; i + 1 < n; i++) out.push(r[i], r[i + 1]);
    if (mode === 'line_loop' && n >= 2) { for (let i = 0; i + 1 < n; i++) out.push(r[i], r[i + 1]); out.push(r[n - 1], r[0]); }
    if (mode === 'triangles') for (let i = 0; i + 2 < n; i += 3) out.push(r[i], r[i + 1], r[i + 2]);
    if (mode === 'triangle_strip') for (let i = 0; i + 2 < n; i++) out.push(...(i % 2 ? [r[i + 1], r[i], r[i + 2]] : [r[i], r[i + 1], r[i + 2]]));
    if (mode === 'triangle_fan') for (let i = 0; i + 2 < n; i++) out.push(r[0], r[i + 1], r[i + 2]);
  }
  return out;
}
