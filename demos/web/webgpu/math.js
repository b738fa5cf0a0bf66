// Column-major 4x4 matrices (Float32Array(16)) for the WebGPU demos: the glm calls of the C++
// demos (lookAt, perspective, translate, rotate, multiply), with WebGPU's clip depth 0..1.

export const identity = () => new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** a x b. */
export function multiply(a, b) {
  const m = new Float32Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      m[c * 4 + r] = s;
    }
  return m;
}

/** glm::perspective(fovy, aspect, near, far), depth mapped to 0..1 (WebGPU) instead of -1..1. */
export function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2), m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = far / (near - far);
  m[11] = -1;
  m[14] = (near * far) / (near - far);
  return m;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const normalize = (a) => { const l = Math.hypot(...a); return a.map((c) => c / l); };

/** glm::lookAt(eye, center, up). */
export function lookAt(eye, center, up) {
  const f = normalize(sub(center, eye)), s = normalize(cross(f, up)), u = cross(s, f);
  return new Float32Array([s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0,
    -dot(s, eye), -dot(u, eye), dot(f, eye), 1]);
}

/** glm::translate(identity, v). */
export function translation(x, y, z) {
  const m = identity();
  m[12] = x, m[13] = y, m[14] = z;
  return m;
}

/** glm::rotate(identity, angle, (0, 0, 1)). */
export function rotationZ(angle) {
  const m = identity(), c = Math.cos(angle), s = Math.sin(angle);
  m[0] = c, m[1] = s, m[4] = -s, m[5] = c;
  return m;
}

/** A seeded generator of uniform floats in [0, 1) (mulberry32): the demos' initial data, the same every run. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
