// The npm module's download size: index.js + dist/xfb.mjs + dist/xfb.wasm, each gzipped (-9) as a
// server would send them, summed and checked against a budget in KB (1 KB = 1000 bytes). Also
// prints what a WebGPU user downloads (index.js, webgpu.js, the WebGPU module), not budgeted, and
// checks that index.js holds no WebGPU code and webgpu.js no WebGL2 code, the source maps of both
// (web/package/scripts/bundle.mjs), and that what the package reads of the module survived
// Closure's renaming.
// Usage: node size.mjs NPM_DIR BUDGET_KB
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const [dir, budgetArg] = process.argv.slice(2);
const budget = Number(budgetArg);
if (!dir || !(budget > 0)) { console.error('usage: node size.mjs NPM_DIR BUDGET_KB'); process.exit(2); }

let cases = 0, asserts = 0;
const failures = [];
const check = (ok, message) => { asserts++; if (!ok) failures.push(message); };
const kb = (bytes) => (bytes / 1000).toFixed(1);

function gzipped(files) {
  cases++;
  let total = 0;
  for (const f of files) {
    const path = join(dir, f);
    check(existsSync(path), `${path} is missing: build the wasm target first`);
    if (!existsSync(path)) continue;
    const raw = readFileSync(path), gz = gzipSync(raw, { level: 9 }).length;
    console.log(`  ${f.padEnd(22)} ${kb(raw.length).padStart(7)} KB raw  ${kb(gz).padStart(6)} KB gzip`);
    total += gz;
  }
  return total;
}

console.log('WebGL2 user (budgeted):');
const WEBGL2_FILES = ['index.js'];
const webgl = gzipped([...WEBGL2_FILES, 'dist/xfb.mjs', 'dist/xfb.wasm']);
console.log(`  total ${kb(webgl)} KB gzip, budget ${budget} KB`);
check(webgl <= budget * 1000, `the WebGL2 module is ${kb(webgl)} KB gzipped, over the budget of ${budget} KB: see web/tools/size-breakdown.mjs for where the bytes go`);

console.log('WebGL2 user with populations (createXfb({ gl, populations: true }): the full module instead):');
const full = gzipped([...WEBGL2_FILES, 'dist/xfb-full.mjs', 'dist/xfb-full.wasm']);
console.log(`  total ${kb(full)} KB gzip (+${kb(full - webgl)} KB)`);

console.log('WebGPU user (createXfb({ device }): index.js, webgpu.js and the WebGPU module):');
const webgpu = gzipped([...WEBGL2_FILES, 'webgpu.js', 'dist/xfb-webgpu.mjs', 'dist/xfb-webgpu.wasm']);
console.log(`  total ${kb(webgpu)} KB gzip`);

// The bundles ship minified (web/CMakeLists.txt, esbuild) with a source map holding the original
// TypeScript sources, named by the file and listed in package.json's "files" (npm pack keeps only those).
console.log('source maps of the minified JavaScript:');
const packageFiles = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).files;
const sourcesOf = {};
for (const f of ['index.js', 'webgpu.js']) {
  cases++;
  const js = readFileSync(join(dir, f), 'utf8'), mapPath = join(dir, `${f}.map`);
  check(js.trimEnd().endsWith(`//# sourceMappingURL=${f}.map`), `${f} does not name its source map ${f}.map on its last line`);
  check(existsSync(mapPath), `${mapPath} is missing`);
  const map = existsSync(mapPath) ? JSON.parse(readFileSync(mapPath, 'utf8')) : {};
  const sources = map.sources ?? [];
  const content = map.sourcesContent ?? [];
  sourcesOf[f] = sources;
  const original = content.join('\n');
  check(sources.length > 1 && sources.every((s) => /\.(ts|wgsl)$/.test(s)) && content.length === sources.length && original.length > js.length,
    `${f}.map does not hold the original TypeScript sources (sourcesContent): stack traces would point into minified code`);
  check(packageFiles.includes(f) && packageFiles.includes(`${f}.map`), `package.json "files" does not list ${f} and ${f}.map, so npm pack leaves them out`);
  console.log(`  ${f}: ${kb(js.length)} KB minified, the map holds ${sources.length} sources (${kb(original.length)} KB)`);
}
// What a WebGL2 user downloads holds no WebGPU driver code (webgpu.js alone has it), and webgpu.js
// none of the WebGL2 driver; both hold core/, the one validator.
cases++;
const holding = (f, folder) => sourcesOf[f].filter((s) => s.includes(`/src/${folder}/`));
check(holding('index.js', 'webgpu').length === 0 && holding('index.js', 'webgl2').length > 0 && holding('index.js', 'core').length > 0,
  `index.js must bundle core/ and webgl2/ and no webgpu/: it holds ${sourcesOf['index.js'].join(', ')}`);
check(holding('webgpu.js', 'webgl2').length === 0 && holding('webgpu.js', 'webgpu').length > 0 && holding('webgpu.js', 'core').length > 0,
  `webgpu.js must bundle core/ and webgpu/ and no webgl2/: it holds ${sourcesOf['webgpu.js'].join(', ')}`);

// Closure Compiler's ADVANCED pass renames every property it is not told to keep: what the WebGL2
// code reads of the module (its extern "C" exports _xfb_*, the heap views, _malloc/_free, Module.GL) and of
// Emscripten's GL object (kept by web/src/closure_externs.js) must be there under the same names. The
// names come from the sources' own text (the source maps), so a new use is checked without a list kept here.
// (Members of GL's per-context and per-program records need a WebGL context: the Chromium suites.)
{
  cases++;
  const source = WEBGL2_FILES.map((f) => JSON.parse(readFileSync(join(dir, `${f}.map`), 'utf8')).sourcesContent.join('\n')).join('\n');
  const names = (re) => [...new Set([...source.matchAll(re)].map((m) => m[1]))];
  // The module is read through its typed wrappers (core/boundary.ts, webgl2/wasm_module.ts): the
  // exports by their names, wherever they are read.
  const moduleNames = names(/\.(_xfb_\w+|_malloc|_free|HEAP[A-Z0-9]+|GL)\b/g);
  const glNames = names(/\bGL\.([A-Za-z_$][\w$]*)/g);
  // The full module (dist/xfb-full.*) has every export the package reads; the default one the same
  // but the populations', which it must leave out (what makes it smaller).
  const load = async (name) => (await import(pathToFileURL(join(dir, `dist/${name}.mjs`)).href)).default({ locateFile: (file) => join(dir, 'dist', file) });
  const module = await load('xfb-full');
  const plain = await load('xfb');
  for (const n of moduleNames) check(n in module, `the module has no '${n}', which the package reads: Closure renamed it (keep it in web/src/closure_externs.js or read it quoted)`);
  for (const n of moduleNames)
    check(n.includes('population') ? !(n in plain) : n in plain, `dist/xfb.mjs ${n in plain ? 'has' : 'lacks'} '${n}' (the default module has every export but the populations')`);
  // currentContext exists only once a context is current: then the name must at least be in the code.
  const code = readFileSync(join(dir, 'dist/xfb-full.mjs'), 'utf8');
  for (const n of glNames)
    check(module.GL && (n in module.GL || new RegExp(`\\.${n}\\b`).test(code)), `Module.GL has no '${n}', which the package reads: Closure renamed it (add it to web/src/closure_externs.js)`);
  console.log(`what the package reads survives Closure: module.{${moduleNames.join(', ')}}, GL.{${glNames.join(', ')}}`);
  check(moduleNames.length >= 5 && glNames.length >= 5, `the package's uses of the module were not found (${moduleNames.length} module, ${glNames.length} GL names): the check above read the wrong text`);
}

console.log(`xfb-test-run: cases=${cases} asserts=${asserts}`);
for (const f of failures) console.error(`FAIL: ${f}`);
process.exit(failures.length ? 1 : 0);
