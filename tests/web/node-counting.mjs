// node:test with counting, for the Node test files: `test` and `assert` as node:test and
// node:assert/strict give them, but every case and assertion counted. At the end the counts are
// printed for tests/run-summary.mjs, and the file fails (exit status 1, which `node --test`
// reports) when either is zero: a run that checked nothing.
import strictAssert from 'node:assert/strict';
import { after, test as nodeTest } from 'node:test';

let cases = 0, asserts = 0;
const counted = (fn) => (...args) => { asserts++; return fn(...args); };
export const assert = Object.assign(counted(strictAssert), Object.fromEntries(
  Object.entries(strictAssert).map(([name, fn]) => [name, typeof fn === 'function' && /^[a-z]/.test(name) ? counted(fn) : fn])));
export const test = (name, ...rest) => { const fn = rest.pop(); return nodeTest(name, rest[0] ?? {}, (t) => { cases++; return fn(t); }); };
after(() => {
  console.log(`xfb-test-run: cases=${cases} asserts=${asserts}`);
  if (cases === 0 || asserts === 0) { console.error('xfb-test-run: no test case or no assertion ran: this run checked nothing'); process.exitCode = 1; }
});
