// Bundles the package's TypeScript sources into OUT_DIR (the npm folder), minified (esbuild, then
// terser's compress and mangle: 0.3 KB gzip less on index.js), each file with a source map holding
// the original sources:
//   index.js   the public entry, core/ and the WebGL2 engine: all a WebGL2 user downloads;
//   webgpu.js  the WebGPU engine and its own copy of core/, imported by createXfb({ device }) only.
//              It imports the XfbError class from index.js, so both engines throw one class.
// The Emscripten modules (./dist/*) stay external; WGSL files are inlined as text.
// Usage: node bundle.mjs NODE_MODULES_DIR OUT_DIR  (NODE_MODULES_DIR: web/tools/node_modules)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [nodeModules, outDir] = process.argv.slice(2).map((p) => resolve(p));
if (!nodeModules || !outDir) {
  console.error('usage: node bundle.mjs NODE_MODULES_DIR OUT_DIR');
  process.exit(2);
}
const { build } = await import(pathToFileURL(join(nodeModules, 'esbuild', 'lib', 'main.js')).href);
const { minify } = await import(pathToFileURL(join(nodeModules, 'terser', 'main.js')).href);
const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Imports whose path matches `filter` become an import of `path` next to the bundle. */
const external = (filter, path) => ({
  name: `external ${path}`,
  setup(b) {
    b.onResolve({ filter }, (args) => ({ path: path ?? args.path, external: true }));
  },
});

const common = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  loader: { '.wgsl': 'text' },
  metafile: true,
  logLevel: 'warning',
};
const builds = [
  { entryPoints: { index: join(src, 'index.ts') }, plugins: [external(/^\.\/dist\//), external(/^\.\/webgpu\/index\.js$/, './webgpu.js')] },
  { entryPoints: { webgpu: join(src, 'webgpu', 'index.ts') }, plugins: [external(/^\.\/dist\//), external(/^\.\/xfb_error\.js$/, './index.js')] },
];
for (const options of builds) {
  const result = await build({ ...common, ...options, outdir: outDir });
  for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
    const name = file.split('/').pop();
    const path = join(outDir, name);
    const map = readFileSync(`${path}.map`, 'utf8');
    const min = await minify(readFileSync(path, 'utf8'), {
      module: true,
      compress: { passes: 2 },
      mangle: true,
      sourceMap: { content: map, includeSources: true, url: `${name}.map` },
    });
    writeFileSync(path, min.code);
    writeFileSync(`${path}.map`, min.map);
    console.log(`  ${name}: ${(min.code.length / 1000).toFixed(1)} KB`);
  }
}
