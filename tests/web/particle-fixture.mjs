// The README's particle step (vec4 position + vec4 velocity) as data for the Node WebGPU test and
// bench: its source, format, deterministic initial state and Math.fround reference.
export const SOURCE = `#version 300 es
in vec4 position;
in vec4 velocity;
uniform float dt;
out vec4 out_position;
out vec4 out_velocity;
void main() { out_position = position + velocity * dt; out_velocity = velocity * 0.5; }`;
export const FORMAT = [{ semantic: 'ATTR0', components: 4 }, { semantic: 'ATTR1', components: 4 }];

/** count particles (8 floats each) of varied magnitudes and signs, the same for a given count. */
export function particles(count) {
  const data = new Float32Array(count * 8);
  let x = 12345;
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    data[i] = ((x >>> 8) / 2 ** 24 - 0.5) * 2 ** ((i % 7) - 3);
  }
  return data;
}

/** The step in float32 arithmetic, `steps` times. */
export function reference(initial, steps, dt = 0.5) {
  const d = Float32Array.from(initial);
  for (let s = 0; s < steps; s++)
    for (let e = 0; e < d.length; e += 8)
      for (let c = 0; c < 4; c++) {
        d[e + c] = Math.fround(d[e + c] + Math.fround(d[e + 4 + c] * dt));
        d[e + 4 + c] = Math.fround(d[e + 4 + c] * 0.5);
      }
  return d;
}

/** The first float whose bits differ, or null. */
export function firstDifference(got, want) {
  const a = new Uint32Array(got.buffer, got.byteOffset, got.length), b = new Uint32Array(want.buffer, want.byteOffset, want.length);
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return `float ${i} (element ${i >> 3}): ${got[i]} against ${want[i]}`;
  return null;
}
