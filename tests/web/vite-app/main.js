// A user's app: imports the packed npm module by name, steps a simulation, reads it back.
import createXfb from 'xfb';

const xfb = await createXfb({ canvas: document.getElementById('c') });
const format = [{ semantic: 'ATTR0', components: 4 }];
const data = new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]);
const a = xfb.createBuffer({ format, count: 2, data });
const b = xfb.createBuffer({ format, count: 2 });
const program = xfb.createProgram({ source: '#version 300 es\nin vec4 p;\nout vec4 out_p;\nvoid main() { out_p = p * 2.0; }' });
const pipeline = xfb.createPipeline(program, [{ input: a, output: b }]);
pipeline.step();
pipeline.step();
window.__result = Array.from(await a.read());
