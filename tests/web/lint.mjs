// Runs one of the package's source checks (web/tools: tsc --strict, ESLint, Prettier) on the
// package's sources, or on a planted fixture that must be refused with exactly the planted
// problems (ctest web.<tool> and web.<tool>-planted, tests/web/CMakeLists.txt).
// Usage: node lint.mjs tsc|eslint|prettier TSCONFIG [FIXTURE_DIR EXPECTED_PROBLEMS]
//   TSCONFIG: the build folder's tsconfig of the package (build/wasm/package-gen/tsconfig.json).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const tools = join(root, 'web', 'tools');
const [tool, tsconfigArg, fixtureArg, expectedArg] = process.argv.slice(2);
if (!['tsc', 'eslint', 'prettier'].includes(tool) || !tsconfigArg || (fixtureArg && !(Number(expectedArg) > 0))) {
  console.error('usage: node lint.mjs tsc|eslint|prettier TSCONFIG [FIXTURE_DIR EXPECTED_PROBLEMS]');
  process.exit(2);
}
const planted = fixtureArg ? resolve(fixtureArg) : null;
let tsconfig = resolve(tsconfigArg);
if (planted) {
  // The fixture is type-checked with the package's options, as one of its sources would be.
  tsconfig = join(mkdtempSync(join(tmpdir(), 'xfb-lint-')), 'tsconfig.json');
  writeFileSync(tsconfig, JSON.stringify({ extends: resolve(tsconfigArg), include: [join(planted, '*.ts')] }));
}
const target = planted ?? join(root, 'web', 'package', 'src');
const bin = (name) => join(tools, 'node_modules', '.bin', name);
const count = (pattern) => (output) => (output.match(pattern) ?? []).length;
// Per tool: the command and how many problems its output reports.
const commands = {
  tsc: [bin('tsc'), ['-p', tsconfig, '--pretty', 'false'], count(/error TS\d+/g)],
  eslint: [
    bin('eslint'),
    ['--config', join(tools, 'eslint.config.mjs'), '--max-warnings', '0', '--format', 'json', target],
    (output) => {
      const start = output.indexOf('[');
      if (start < 0) return -1; // no report: ESLint itself failed (its error is printed above)
      const results = JSON.parse(output.slice(start));
      for (const r of results) for (const m of r.messages) console.log(`${r.filePath}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
      return results.reduce((n, r) => n + r.messages.length, 0);
    },
  ],
  prettier: [bin('prettier'), ['--config', join(tools, 'prettier.config.mjs'), '--check', target], count(/^\[warn\] (?!Code style issues)\S+/gm)],
};
const [command, args, problemsIn] = commands[tool];
// From the repository root: ESLint lints only files below its working directory. No colours: the
// counts read plain lines (CI=true makes Prettier colour its output).
const env = { ...process.env, XFB_TSCONFIG: tsconfig, NO_COLOR: '1', FORCE_COLOR: '0' };
const run = spawnSync(command, args, { cwd: root, encoding: 'utf8', env });
const output = `${run.stdout}${run.stderr}`;
if (tool !== 'eslint') process.stdout.write(output);
else if (run.stderr) process.stdout.write(run.stderr);
const problems = problemsIn(run.stdout + (tool === 'eslint' ? '' : run.stderr));
const what = planted ? `${tool} on the planted fixture ${planted}` : `${tool} on web/package/src`;
let ok;
if (planted) {
  ok = run.status !== 0 && problems === Number(expectedArg);
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}: exit ${run.status}, ${problems} problems reported, ${expectedArg} planted`);
} else {
  ok = run.status === 0 && problems === 0;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}: exit ${run.status}, ${problems} problems`);
}
console.log('xfb-test-run: cases=1 asserts=2');
process.exit(ok ? 0 : 1);
