// The emitted-outputs fixture both engines run (emit.js, webgpu.js): a particle keeps half its
// energy and throws off sparks (emit_count, clamped to 0..3; sparks and colours share that budget)
// and tags (a second budget, emit_tags, 0..2), with the JavaScript reference of its records.
import { pseudoRandom } from './assert.js';

export const kSplit = `#version 300 es
in vec4 a_particle;
uniform float u_threshold;
out vec4 out_particle;
out vec4 emit_spark[3];
out vec2 emit_color[3];
flat out int emit_count;
flat out uint emit_tag[2];
flat out uint emit_tags;
void main() {
    float e = a_particle.w;
    out_particle = vec4(a_particle.xyz, e * 0.5);
    emit_count = int(e / u_threshold) - 1;
    emit_tags = uint(gl_VertexID % 3);
    for (int k = 0; k < 3; ++k) {
        emit_spark[k] = vec4(a_particle.xyz + float(k), float(gl_VertexID));
        emit_color[k] = vec2(float(k), e);
    }
    for (int k = 0; k < 2; ++k) emit_tag[k] = uint(gl_VertexID * 2 + k);
}`;
export const kSplitEmits = [{ varying: 'emit_spark', count: 'emit_count' }, { varying: 'emit_color', count: 'emit_count' }, { varying: 'emit_tag', count: 'emit_tags' }];
export const vec4 = (slot) => [{ semantic: `ATTR${slot}`, components: 4 }];

export function splitParticles(n) {
  const p = pseudoRandom(n * 4, -8, 8, 11);
  for (let i = 0; i < n; i++) p[i * 4 + 3] = 0.5 * ((i * 7) % 11); // energies 0..5: counts -1..9
  return p;
}

/** The JS reference: next state, sparks, colours, tags in input order, and the requested totals
 *  (`threshold`: u_threshold, a power of two so that e / threshold is exact on both sides). */
export function splitReference(p, threshold = 0.5) {
  const f = Math.fround, n = p.length / 4, state = [], sparks = [], colors = [], tags = [];
  for (let i = 0; i < n; i++) {
    const [x, y, z, e] = p.slice(i * 4, i * 4 + 4);
    state.push(x, y, z, f(e * 0.5));
    const count = Math.min(3, Math.max(0, Math.trunc(f(e / threshold)) - 1));
    for (let k = 0; k < count; k++) sparks.push(f(x + k), f(y + k), f(z + k), i), colors.push(k, e);
    for (let k = 0; k < i % 3; k++) tags.push(i * 2 + k);
  }
  return { state: new Float32Array(state), sparks: new Float32Array(sparks), colors: new Float32Array(colors), tags: new Uint32Array(tags) };
}

/** The first `records` records of `ref` (`per` numbers each), then zeros up to `length`. */
export const prefix = (ref, per, records, length, Type) => { const out = new Type(length); out.set(ref.subarray(0, records * per)); return out; };

/** The fixture on engine `xfb` (WebGL2 or WebGPU): n particles, the budgets' buffers of `capacities`
 *  records (sparks, colours = sparks', tags = 2n), `options` added to createPipeline()'s emits. */
export function makeSplit(xfb, n, capacities, options = {}) {
  const data = splitParticles(n);
  const state = xfb.createBuffer({ format: vec4(0), count: n, data });
  const scratch = xfb.createBuffer({ format: vec4(0), count: n });
  const sparks = xfb.createBuffer({ format: vec4(0), count: capacities[0] });
  const colors = xfb.createBuffer({ format: [{ semantic: 'ATTR0', components: 2 }], count: capacities[1] ?? capacities[0] });
  const tags = xfb.createBuffer({ format: [{ semantic: 'ATTR0', type: 'uint32', components: 1 }], count: capacities[2] ?? 2 * n });
  const program = xfb.createProgram({ source: kSplit });
  program.setUniform('u_threshold', 0.5);
  const pipeline = xfb.createPipeline(program, [{ input: state, output: scratch }, { output: sparks }, { output: colors }, { output: tags }],
    { emits: kSplitEmits, ...options });
  return { data, state, scratch, sparks, colors, tags, program, pipeline, dispose: () => [pipeline, program, state, scratch, sparks, colors, tags].forEach((o) => o.dispose()) };
}
