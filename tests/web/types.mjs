// Type-checks tests/web/types/usage.ts against the npm package's index.d.ts with TypeScript
// (tsc --noEmit, strict). Usage: node types.mjs NPM_DIR WORK_DIR
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [npmDir, workDir] = process.argv.slice(2).map((p) => resolve(p));
mkdirSync(workDir, { recursive: true });
const config = join(workDir, 'tsconfig.json');
writeFileSync(config, JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'],
                     skipLibCheck: false, paths: { xfb: [join(npmDir, 'index.d.ts')] } },
  files: [join(here, 'types', 'usage.ts')],
}, null, 2));
try {
  execFileSync(join(here, 'node_modules', '.bin', 'tsc'), ['-p', config], { stdio: 'inherit' });
  // Each @ts-expect-error is a check (tsc fails if the misuse it marks type-checks), plus the file itself.
  const expected = (readFileSync(join(here, 'types', 'usage.ts'), 'utf8').match(/@ts-expect-error/g) ?? []).length;
  console.log('PASS  types: usage.ts type-checks against index.d.ts; every @ts-expect-error misuse is rejected');
  console.log(`xfb-test-run: cases=1 asserts=${expected + 1}`);
} catch {
  console.log('FAIL  types: tsc reported errors (above)');
  process.exit(1);
}
