// Writes the simulation GLSL of the C++ demos (demos/*.cpp) into files the WebGPU gallery pages
// fetch, so both galleries run the very same shaders: a constant such as
//   const std::string kSimulation = std::string(R"(...)") + kFetchGlsl + R"(...)";
// is read as its concatenated string literals (raw R"(...)" and ordinary "..."), an identifier
// standing for a string constant of demos/app/render.hpp (kFetchGlsl) or of the same file.
// Usage: node extract-glsl.mjs OUT_DIR DEMOS_DIR   (the build runs it; see gallery.cmake)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [outDir, demosDir] = process.argv.slice(2);
// file -> { constant in the .cpp: output name }
const WANTED = {
  'particles.cpp': { kSimulation: 'particles.vert' },
  'flock.cpp': { kSimulation: 'flock.vert' },
  'cloth.cpp': { kSimulation: 'cloth.vert' },
  'trails.cpp': { kSimulation: 'trails.vert' },
  'skinning.cpp': { kSkin: 'skinning.vert', kSkinSleeve: 'skinning-sleeve.vert', kSkinForGeometry: 'skinning-for-geometry.vert', kNormalsGeometry: 'skinning-normals.geom' },
};

/** The value of constant `name` in C++ `text`: its string literals concatenated; identifiers from `known`. */
function constant(text, name, known, file) {
  const start = text.search(new RegExp(`\\b${name}\\s*=`));
  if (start < 0) throw new Error(`${file}: no constant ${name}`);
  let i = text.indexOf('=', start) + 1, value = '';
  for (;;) {
    const rest = text.slice(i);
    let m;
    if ((m = /^\s+/.exec(rest)) || (m = /^(std::string\s*\(|\)|\+)/.exec(rest))) {
      i += m[0].length;
    } else if ((m = /^R"([^(]*)\(/.exec(rest))) {
      const close = `)${m[1]}"`, end = text.indexOf(close, i + m[0].length);
      value += text.slice(i + m[0].length, end);
      i = end + close.length;
    } else if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) {
      value += JSON.parse(`"${m[1]}"`);
      i += m[0].length;
    } else if ((m = /^[A-Za-z_]\w*/.exec(rest)) && m[0] in known) {
      value += known[m[0]];
      i += m[0].length;
    } else if (rest[0] === ';') {
      return value;
    } else {
      throw new Error(`${file}: cannot read constant ${name} at '${rest.slice(0, 40)}'`);
    }
  }
}

const render = readFileSync(join(demosDir, 'app/render.hpp'), 'utf8');
const known = { kFetchGlsl: constant(render, 'kFetchGlsl', {}, 'app/render.hpp') };
mkdirSync(outDir, { recursive: true });
for (const [file, constants] of Object.entries(WANTED)) {
  const text = readFileSync(join(demosDir, file), 'utf8');
  for (const [name, out] of Object.entries(constants)) {
    const glsl = constant(text, name, known, file);
    if (!glsl.startsWith('#version')) throw new Error(`${file}: ${name} is no GLSL shader`);
    writeFileSync(join(outDir, out), `${glsl}\n`);
  }
}
