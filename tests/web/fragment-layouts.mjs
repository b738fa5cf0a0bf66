// Measurement (not a test): the fragment pass layouts the fragment backend could use, as
// hand-written WebGL2 on SwiftShader, the pass alone (no buffer copies), ms per step at N elements
// of a 32-byte record (position vec4 + velocity vec4, shaders/bench_particles.vert's math):
//   A        one fragment per texel, 2 texels per element, one interleaved texture in and out
//            (what the backend renders: the simulation runs twice per element)
//   AT       A with texture() at texel centres instead of texelFetch
//   Gsimple  two passes of one output each over planar textures (GPUComputationRenderer's shape)
//   Tsimple  Gsimple with texture()
//   C        one fragment per element, both texels to two colour attachments, planar textures
//            (no buffer layout: interleaving them back into a buffer costs a pass over 2N texels)
//   CT       C with texture()
// each with RGBA32UI (raw words, what the backend needs) and RGBA32F textures, 4096 wide.
// Usage: node tests/web/fragment-layouts.mjs [N]   (docs/performance.md, "The fragment backend")
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.mjs';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
const page = await browser.newPage();
page.on('console', m => { if (!/GPU stall/.test(m.text())) console.log('[page]', m.text()); });
await page.setContent('<canvas id=c></canvas>');
const N = +(process.argv[2] ?? 1e6);
const out = await page.evaluate(async (N) => {
  const gl = document.getElementById('c').getContext('webgl2');
  gl.getExtension('EXT_color_buffer_float');
  const vs = `#version 300 es
void main(){ gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1), 0.0, 1.0); }`;
  const prog = (fs) => { const p = gl.createProgram(); for (const [ty, s] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) { const sh = gl.createShader(ty); gl.shaderSource(sh, s); gl.compileShader(sh); if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(sh)); gl.attachShader(p, sh); } gl.linkProgram(p); if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p)); return p; };
  const res = {};
  // config: width, float?, texelsPerElement (1 = planar one output per pass like GCR, 2 = interleaved A)
  const run = (label, W, isFloat, mode) => {
    const log2 = Math.log2(W);
    const ifmt = isFloat ? gl.RGBA32F : gl.RGBA32UI, sampler = isFloat ? 'sampler2D' : 'usampler2D', ot = isFloat ? 'vec4' : 'uvec4';
    const texels = (mode === 'A' || mode === 'AT') ? 2 * N : N, rows = Math.ceil(texels / W);
    const mk = () => { const t = gl.createTexture(); gl.bindTexture(gl.TEXTURE_2D, t); gl.texStorage2D(gl.TEXTURE_2D, 1, ifmt, W, rows); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST); return t; };
    const fbOf = (...ts) => { const f = gl.createFramebuffer(); gl.bindFramebuffer(gl.FRAMEBUFFER, f); ts.forEach((t, j) => gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + j, gl.TEXTURE_2D, t, 0)); gl.drawBuffers(ts.map((_, j) => gl.COLOR_ATTACHMENT0 + j)); if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) throw new Error('fb'); return f; };
    const head = `#version 300 es
precision highp float; precision highp int; precision highp usampler2D; precision highp sampler2D;
uniform float dt; const uint xfb_count = ${N}u;
${ot} q4(highp ${sampler} t, uint q) { return texelFetch(t, ivec2(q & ${W - 1}u, q >> ${log2}), 0); }
`;
    const cv = isFloat ? (x) => x : (x) => `uintBitsToFloat(${x})`, co = isFloat ? (x) => x : (x) => `floatBitsToUint(${x})`;
    const sim = `vec4 v = velocity + vec4(0.0, -9.81, 0.0, 0.0) * dt; vec4 np = position + v * dt; vec4 nv = v;`;
    let fs, passes;
    if (mode === 'A') fs = [head + `uniform highp ${sampler} xin; layout(location=0) out highp ${ot} o0;
void main(){ uint k = (uint(gl_FragCoord.y) << ${log2}) | uint(gl_FragCoord.x); uint e = min(k >> 1, xfb_count - 1u); uint q = k & 1u;
 vec4 position = ${cv('q4(xin, e * 2u)')}; vec4 velocity = ${cv('q4(xin, e * 2u + 1u)')}; ${sim}
 o0 = q == 0u ? ${co('np')} : ${co('nv')}; }`];
    else if (mode === 'G') fs = [0, 1].map(j => head + `uniform highp ${sampler} p0; uniform highp ${sampler} p1; layout(location=0) out highp ${ot} o0;
void main(){ uint e = min((uint(gl_FragCoord.y) << ${log2}) | uint(gl_FragCoord.x), xfb_count - 1u);
 vec4 position = ${cv('q4(p0, e)')}; vec4 velocity = ${cv('q4(p1, e)')}; ${sim}
 o0 = ${co(j ? 'nv' : 'np')}; }`);
    else if (mode === 'Gsimple') fs = [0, 1].map(j => head + `uniform highp ${sampler} p0; uniform highp ${sampler} p1; layout(location=0) out highp ${ot} o0;
void main(){ ivec2 c = ivec2(gl_FragCoord.xy);
 vec4 position = ${cv('texelFetch(p0, c, 0)')}; vec4 velocity = ${cv('texelFetch(p1, c, 0)')}; ${sim}
 o0 = ${co(j ? 'nv' : 'np')}; }`);
    else if (mode === 'Tsimple') fs = [0, 1].map(j => head + `uniform highp ${sampler} p0; uniform highp ${sampler} p1; layout(location=0) out highp ${ot} o0;
void main(){ vec2 uv = gl_FragCoord.xy * vec2(${1 / W}, ${1 / rows});
 vec4 position = ${cv('texture(p0, uv)')}; vec4 velocity = ${cv('texture(p1, uv)')}; ${sim}
 o0 = ${co(j ? 'nv' : 'np')}; }`);
    else if (mode === 'AT') fs = [head + `uniform highp ${sampler} xin; layout(location=0) out highp ${ot} o0;
${ot} t4(highp ${sampler} t, uint q) { return texture(t, (vec2(uvec2(q & ${W - 1}u, q >> ${log2})) + 0.5) * vec2(${1 / W}, ${1 / rows})); }
void main(){ uint k = (uint(gl_FragCoord.y) << ${log2}) | uint(gl_FragCoord.x); uint e = min(k >> 1, xfb_count - 1u); uint q = k & 1u;
 vec4 position = ${cv('t4(xin, e * 2u)')}; vec4 velocity = ${cv('t4(xin, e * 2u + 1u)')}; ${sim}
 o0 = q == 0u ? ${co('np')} : ${co('nv')}; }`];
    else if (mode === 'CT') fs = [head + `uniform highp ${sampler} p0; uniform highp ${sampler} p1; layout(location=0) out highp ${ot} o0; layout(location=1) out highp ${ot} o1;
void main(){ vec2 uv = gl_FragCoord.xy * vec2(${1 / W}, ${1 / rows});
 vec4 position = ${cv('texture(p0, uv)')}; vec4 velocity = ${cv('texture(p1, uv)')}; ${sim}
 o0 = ${co('np')}; o1 = ${co('nv')}; }`];
    else fs = [head + `uniform highp ${sampler} p0; uniform highp ${sampler} p1; layout(location=0) out highp ${ot} o0; layout(location=1) out highp ${ot} o1;
void main(){ uint e = min((uint(gl_FragCoord.y) << ${log2}) | uint(gl_FragCoord.x), xfb_count - 1u);
 vec4 position = ${cv('q4(p0, e)')}; vec4 velocity = ${cv('q4(p1, e)')}; ${sim}
 o0 = ${co('np')}; o1 = ${co('nv')}; }`];
    const progs = fs.map(prog);
    for (const p of progs) { gl.useProgram(p); gl.uniform1f(gl.getUniformLocation(p, 'dt'), 1 / 64); for (const [n, u] of [['xin', 0], ['p0', 0], ['p1', 1]]) { const l = gl.getUniformLocation(p, n); if (l) gl.uniform1i(l, u); } }
    const sets = (mode === 'A' || mode === 'AT') ? [[mk()], [mk()]] : [[mk(), mk()], [mk(), mk()]];
    const fbs = (mode === 'A' || mode === 'AT') ? sets.map(s => [fbOf(s[0])]) : (mode === 'C' || mode === 'CT') ? sets.map(s => [fbOf(s[0], s[1])]) : sets.map(s => [fbOf(s[0]), fbOf(s[1])]);
    const vao = gl.createVertexArray(); gl.bindVertexArray(vao);
    let s = 0; const px = isFloat ? new Float32Array(4) : new Uint32Array(4);
    const waitAll = () => { gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fbs[s & 1][0]); gl.readPixels(0, 0, 1, 1, isFloat ? gl.RGBA : gl.RGBA_INTEGER, isFloat ? gl.FLOAT : gl.UNSIGNED_INT, px); };
    const step = () => { const i = s & 1, o = i ^ 1; sets[i].forEach((t, u) => { gl.activeTexture(gl.TEXTURE0 + u); gl.bindTexture(gl.TEXTURE_2D, t); });
      progs.forEach((p, j) => { gl.useProgram(p); gl.bindFramebuffer(gl.FRAMEBUFFER, fbs[o][j]); gl.viewport(0, 0, W, rows); gl.drawArrays(gl.TRIANGLES, 0, 3); }); s++; };
    const steps = N >= 1e6 ? 10 : 40; const ts = [];
    for (let r = 0; r < 5; r++) { waitAll(); const t0 = performance.now(); for (let k = 0; k < steps; k++) step(); waitAll(); ts.push((performance.now() - t0) / steps); }
    ts.sort((a, b) => a - b); res[label] = ts[2].toFixed(2);
  };
  for (const W of [4096]) for (const f of [false, true]) for (const m of ['A', 'AT', 'Gsimple', 'Tsimple', 'C', 'CT']) run(`${m}_${f ? 'f32' : 'u32'}_w${W}`, W, f, m);
  res.err = gl.getError(); return res;
}, N);
console.log(N, out);
await browser.close();
