// Bundles the package's TypeScript sources into OUT_DIR (the npm folder): index.js (the WebGL2
// engine and the public entry), webgpu.js (the WebGPU engine, imported by createXfb({ device })
// only) and the code both share, minified, each with a source map holding the original sources.
// The Emscripten modules (./dist/*) stay external; WGSL files are inlined as text.
// Usage: node bundle.mjs ESBUILD_PACKAGE_DIR OUT_DIR
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [esbuildDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
if (!esbuildDir || !outDir) {
  console.error('usage: node bundle.mjs ESBUILD_PACKAGE_DIR OUT_DIR');
  process.exit(2);
}
const { build } = await import(pathToFileURL(join(esbuildDir, 'lib', 'main.js')).href);
const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

// './dist/xfb.mjs' and './dist/xfb-webgpu.mjs' name the modules next to the bundle.
const distIsExternal = {
  name: 'xfb-dist-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/dist\// }, (args) => ({ path: args.path, external: true }));
  },
};

const result = await build({
  entryPoints: { index: join(src, 'index.ts'), webgpu: join(src, 'webgpu', 'index.ts') },
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  chunkNames: 'xfb-core',
  minify: true,
  keepNames: false,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  loader: { '.wgsl': 'text' },
  plugins: [distIsExternal],
  metafile: true,
  logLevel: 'warning',
});
for (const [file, output] of Object.entries(result.metafile.outputs))
  if (!file.endsWith('.map')) console.log(`  ${file.split('/').pop()}: ${(output.bytes / 1000).toFixed(1)} KB`);
