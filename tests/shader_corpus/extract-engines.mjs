// The engines' vertex shaders for the corpus, taken at test time from the npm packages the browser
// tests install (tests/web/node_modules: three, @babylonjs/core, playcanvas); nothing is copied into
// the repository. extractEngineShaders(nodeModules) -> [{ name, origin, assembly, text }].
//
// What each engine has (checked against three 0.187, Babylon.js 9.35, PlayCanvas 2.23):
// - Babylon.js: the GPU particle system's update shader (Shaders/gpuUpdateParticles.vertex.js), run
//   with WebGL2 transform feedback by Particles/webgl2ParticleSystem. Babylon prepends `#define`s
//   after `#version` (GPUParticleSystem._recreateUpdateEffect); we take the emitter variants a user
//   gets from the public emitters, and one with the optional features (noise, sheet, gradients).
// - PlayCanvas: its particle update is a fragment pass (chunks/particle/frag/particle-simulation), so
//   the transform-feedback vertex shader is the one TransformFeedback documents (the example in
//   platform/graphics/transform-feedback.d.ts), assembled as the WebGL2 device does: `#version 300
//   es`, the device's vertex preamble (shader-chunks/vert/gles3.js, read from the package) and highp.
// - three.js: no transform-feedback shader in WebGL (GPUComputationRenderer is fragment-based; TSL's
//   forceWebGL compute is generated at run time); its plain GLSL ES 3.00 vertex shaders are ShaderLib's,
//   assembled as WebGLProgram does for a material without options: `#version 300 es`, the
//   attribute/varying defines, highp, the built-in uniforms and attributes, #include <chunk> resolved.
//   Outputs are the varyings each one writes (vUv, vViewPosition, ...), captured like out_ ones.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// A JavaScript module holding one shader string (`const shader = \`...\`` or `var x = \`...\``):
// its first template literal. The engines' sources contain no ${} inside these literals.
function templateLiteral(file) {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('`');
  const end = text.indexOf('`', start + 1);
  if (start < 0 || end < 0) throw new Error(`${file}: no template literal`);
  return text.slice(start + 1, end);
}

function babylon(modules) {
  const file = '@babylonjs/core/Shaders/gpuUpdateParticles.vertex.js';
  const source = templateLiteral(join(modules, file));
  // Babylon inserts its defines right after the #version line.
  const variants = {
    box: ['BOXEMITTER', 'BILLBOARD'],
    point: ['POINTEMITTER', 'BILLBOARD'],
    sphere: ['SPHEREEMITTER', 'BILLBOARD'],
    'sphere-directed': ['SPHEREEMITTER', 'DIRECTEDSPHEREEMITTER'],
    hemispheric: ['HEMISPHERICEMITTER', 'BILLBOARD'],
    cylinder: ['CYLINDEREMITTER', 'BILLBOARD'],
    cone: ['CONEEMITTER', 'BILLBOARD'],
    'box-features': ['BOXEMITTER', 'NOISE', 'ANIMATESHEET', 'ANIMATESHEETRANDOMSTART', 'COLORGRADIENTS', 'SIZEGRADIENTS', 'LOCAL'],
  };
  return Object.entries(variants).map(([variant, defines]) => ({
    name: `babylon/gpuUpdateParticles-${variant}.vert`,
    origin: `${file} (@babylonjs/core)`,
    assembly: `#define ${defines.join(', ')} after #version, as GPUParticleSystem does`,
    text: source.replace(/^(#version[^\n]*\n)/, (v) => v + defines.map((d) => `#define ${d}\n`).join('')),
  }));
}

function playcanvas(modules) {
  const docFile = 'playcanvas/build/playcanvas/src/platform/graphics/transform-feedback.d.ts';
  const doc = readFileSync(join(modules, docFile), 'utf8');
  // The first ```javascript block of the class comment is the shader asset; strip the " * " margins.
  const block = doc.match(/```javascript\n([\s\S]*?)```/)[1];
  const example = block.split('\n').map((l) => l.replace(/^\s*\* ?/, '')).filter((l) => !l.startsWith('// ***')).join('\n');
  const preambleFile = 'playcanvas/build/playcanvas/src/platform/graphics/shader-chunks/vert/gles3.js';
  // The multi-draw extension line is only valid where the browser has it; glslang does not know it.
  const preamble = templateLiteral(join(modules, preambleFile)).replace(/^#extension GL_ANGLE_multi_draw.*$/m, '');
  return [{
    name: 'playcanvas/transform-feedback-example.vert',
    origin: `${docFile} (playcanvas), preamble ${preambleFile}`,
    assembly: '#version 300 es + the WebGL2 device\'s vertex preamble (minus GL_ANGLE_multi_draw) + precision highp float',
    text: `#version 300 es\n${preamble}\nprecision highp float;\n${example}`,
  }];
}

async function three(modules) {
  const entry = join(modules, 'three/build/three.module.js');
  const { ShaderLib, ShaderChunk } = await import(pathToFileURL(entry).href);
  // WebGLProgram's include rule, applied until no include is left (chunks include chunks).
  const resolve = (s) => s.replace(/^[ \t]*#include +<([\w\d./]+)>/gm, (_, name) => {
    if (ShaderChunk[name] === undefined) throw new Error(`three: no chunk <${name}>`);
    return resolve(ShaderChunk[name]);
  });
  // WebGLProgram's prefix for a material without options (WebGL2, highp): only the lines that
  // apply when no USE_* define is set.
  const prefix = ['#version 300 es', '#define attribute in', '#define varying out', '#define texture2D texture',
    'precision highp float;', 'precision highp int;', 'precision highp sampler2D;', '#define HIGH_PRECISION',
    'uniform mat4 modelMatrix;', 'uniform mat4 modelViewMatrix;', 'uniform mat4 projectionMatrix;', 'uniform mat4 viewMatrix;',
    'uniform mat3 normalMatrix;', 'uniform vec3 cameraPosition;', 'uniform bool isOrthographic;',
    'attribute vec3 position;', 'attribute vec3 normal;', 'attribute vec2 uv;',
    // glslang 12 takes `average` for a built-in (it refuses three's common chunk: "function name is
    // redeclaration of existing name"); ES 3.00 reserves no such name and browsers accept it. The
    // one change we make to three's text, so that the oracle judges the rest.
    '#define average three_average', ''].join('\n');
  return Object.keys(ShaderLib).sort().map((name) => ({
    name: `three/${name}.vert`,
    origin: `three/build/three.module.js ShaderLib.${name}.vertexShader (three)`,
    assembly: 'WebGLProgram\'s WebGL2 prefix without USE_* defines; #include <chunk> resolved from ShaderChunk; NUM_* counts 0 (no lights, no clipping); average renamed (glslang)',
    // replaceLightNums / replaceClippingPlaneNums with no lights and no clipping planes.
    text: prefix + resolve(ShaderLib[name].vertexShader).replace(/\b(NUM_[A-Z_]+|UNION_CLIPPING_PLANES)\b/g, '0'),
  }));
}

export async function extractEngineShaders(modules) {
  return [...babylon(modules), ...playcanvas(modules), ...(await three(modules))];
}
