// The npm module's download size: index.js + dist/xfb.mjs + dist/xfb.wasm, each gzipped (-9)
// as a server would send them, summed and checked against a budget in KB (1 KB = 1000 bytes).
// Also prints what a WebGPU user downloads (index.js, webgpu.js, the WebGPU module), not budgeted.
// Usage: node size.mjs NPM_DIR BUDGET_KB
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
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
const webgl = gzipped(['index.js', 'dist/xfb.mjs', 'dist/xfb.wasm']);
console.log(`  total ${kb(webgl)} KB gzip, budget ${budget} KB`);
check(webgl <= budget * 1000, `the WebGL2 module is ${kb(webgl)} KB gzipped, over the budget of ${budget} KB: see web/tools/size-breakdown.mjs for where the bytes go`);

console.log('WebGPU user (createXfb({ device }): index.js, webgpu.js and the WebGPU module):');
const webgpu = gzipped(['index.js', 'webgpu.js', 'dist/xfb-webgpu.mjs', 'dist/xfb-webgpu.wasm']);
console.log(`  total ${kb(webgpu)} KB gzip`);

console.log(`xfb-test-run: cases=${cases} asserts=${asserts}`);
for (const f of failures) console.error(`FAIL: ${f}`);
process.exit(failures.length ? 1 : 0);
