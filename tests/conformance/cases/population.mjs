// Populations (issue 42): a state whose live count stays on the GPU; each element writes 0 (dies),
// 1 (lives on) or k records of the next state, compacted in element order, then record order.
// GL compute runs them on compute, the GL `.tf` runtimes and WebGL2 on the fragment backend's
// pyramid passes (a transform feedback writes one record per element), all with the same bytes.
// The WebGPU engine has no populations yet (a coded refusal, tests/web/page/population.js). No peer
// suite has them: D3D12 work-graph node outputs are the nearest (docs/guide/populations.md).
import { range } from '../words.mjs';

// Element i: a_p = (x, y, fuel, parent), a_tag. It dies without fuel, bursts into u_max records
// (clamped to 0..3) when its tag is a multiple of 5, else lives on; record k is
// (x + k, y + 1, fuel - 1, i) with tag 3 tag + k + 1. Also the program of the Chromium suite
// (tests/web/page/population.js), with populationStep() its reference.
export const populationSource = `#version 300 es
in vec4 a_p;
in uint a_tag;
uniform int u_max;
out vec4 emit_p[3];
flat out uint emit_tag[3];
flat out int emit_n;
void main() {
    emit_n = a_p.z <= 0.0 ? 0 : (a_tag % 5u == 0u ? u_max : 1);
    for (int k = 0; k < 3; ++k) {
        emit_p[k] = vec4(a_p.x + float(k), a_p.y + 1.0, a_p.z - 1.0, float(gl_VertexID));
        emit_tag[k] = a_tag * 3u + uint(k) + 1u;
    }
    gl_Position = vec4(0.0);
}
`;
const P = [{ semantic: 'ATTR0' }];
const TAG = [{ semantic: 'ATTR1', type: 'uint32', components: 1 }];
const state = [{ input: 'a_p', emitted: 'emit_p', format: P }, { input: 'a_tag', emitted: 'emit_tag', format: TAG }];
const NOT_ON_WEBGPU = { webgpu: 'populations are not on the WebGPU engine yet (createPopulation() refuses with XFB_UNSUPPORTED)' };

/** n elements from `first`: x = first + i, y = 0, fuel = fuel(i), parent -1; tag first + i + 1. */
const seed = (n, fuel, first = 0) => ({
  p: range(n, (i) => [first + i, 0, fuel(i), -1]).flat(),
  tags: range(n, (i) => first + i + 1),
});
/** One step of the program over { p, tags } (u_max 3), the first `capacity` records kept. */
export function populationStep({ p, tags }, capacity = Infinity) {
  const f = Math.fround, out = { p: [], tags: [], requested: 0 };
  tags.forEach((tag, i) => {
    const [x, y, z] = p.slice(4 * i, 4 * i + 3);
    const n = z <= 0 ? 0 : tag % 5 === 0 ? 3 : 1;
    out.requested += n;
    for (let k = 0; k < n; k++)
      if (out.tags.length < capacity) out.p.push(f(x + k), f(y + 1), f(z - 1), i), out.tags.push((tag * 3 + k + 1) >>> 0);
  });
  return out;
}
const program = [{ op: 'program', source: populationSource, varyings: ['gl_Position'] }, { op: 'uniform', name: 'u_max', value: 3 }];
const read = (s) => [{ op: 'populationRead', field: 0, expect: s.p }, { op: 'populationRead', field: 1, expect: s.tags }];

const six = seed(6, (i) => [2, 0, 1, 3, 2, 1][i]); // element 4 (tag 5) bursts, element 1 dies
const once = populationStep(six), twice = populationStep(once);
const full = seed(4, () => 2, 4); // tags 5..8: the first bursts into 3, 6 records asked for
const clamped = populationStep(full, 4);

export const population = [
  {
    id: 'population.births-deaths-stable-order',
    peers: [],
    intent: 'a population stepped twice: elements without fuel die, one bursts into three, the others live on; the next state is compacted in element order then record order, the live count and the requested records stay on the GPU and read back right',
    na: NOT_ON_WEBGPU,
    run: [
      ...program,
      { op: 'population', capacity: 16, state, count: 'emit_n' },
      { op: 'spawn', fields: [six.p, six.tags] },
      { op: 'populationStep' },
      ...read(once),
      { op: 'populationStepChecked', count: { live: twice.tags.length, requested: twice.requested, dropped: 0 } },
      ...read(twice),
      { op: 'populationCount', expect: { live: twice.tags.length, capacity: 16, requested: twice.requested, dropped: 0, droppedUnchecked: 0 } },
    ],
  },
  {
    id: 'population.empty-and-spawn-after',
    peers: [],
    intent: 'an empty population steps to an empty one (live 0, nothing requested); a spawn afterwards starts at slot 0',
    na: NOT_ON_WEBGPU,
    run: [
      ...program,
      { op: 'population', capacity: 8, state, count: 'emit_n' },
      { op: 'populationStep' },
      { op: 'populationStepChecked', count: { live: 0, requested: 0, dropped: 0 } },
      { op: 'spawn', fields: [six.p.slice(0, 8), six.tags.slice(0, 2)] },
      ...read({ p: six.p.slice(0, 8), tags: six.tags.slice(0, 2) }),
      { op: 'populationCount', expect: { live: 2, capacity: 8, requested: 2, dropped: 0, droppedUnchecked: 0 } },
    ],
  },
  {
    id: 'population.spawn-into-full',
    peers: [],
    intent: "a spawn past the capacity keeps the first records and counts the others as dropped; under overflow 'error' the next checked step refuses with XFB_CAPACITY without running, once",
    na: NOT_ON_WEBGPU,
    run: [
      ...program,
      { op: 'population', capacity: 4, state, count: 'emit_n' },
      { op: 'spawn', fields: [full.p.slice(0, 12), full.tags.slice(0, 3)] },
      { op: 'spawn', fields: [full.p.slice(0, 12), full.tags.slice(0, 3)] },
      { op: 'populationCount', expect: { live: 4, capacity: 4, requested: 6, dropped: 2, droppedUnchecked: 2 } },
      { op: 'populationStepChecked', error: 'XFB_CAPACITY' },
      ...read({ p: [...full.p.slice(0, 12), ...full.p.slice(0, 4)], tags: [...full.tags.slice(0, 3), full.tags[0]] }),
      { op: 'populationCount', expect: { live: 4, capacity: 4, requested: 6, dropped: 2, droppedUnchecked: 0 } },
    ],
  },
  {
    id: 'population.overflow-clamp',
    peers: [],
    intent: "with overflow 'clamp' a step whose records pass the capacity keeps the first ones in the stable order, counts the rest as dropped and swaps",
    na: NOT_ON_WEBGPU,
    run: [
      ...program,
      { op: 'population', capacity: 4, state, count: 'emit_n', overflow: 'clamp' },
      { op: 'spawn', fields: [full.p, full.tags] },
      { op: 'populationStepChecked', count: { live: 4, requested: clamped.requested, dropped: clamped.requested - 4 } },
      ...read(clamped),
    ],
  },
];
