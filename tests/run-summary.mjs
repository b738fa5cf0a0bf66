// What a ctest run actually executed, read from the log ctest writes (Testing/Temporary/LastTest.log).
// Every doctest executable (tests/support/run_guard.cpp) and every Node/Chromium runner (tests/web)
// prints `xfb-test-run: cases=N asserts=M`; this sums them and fails when an entry ran nothing:
// no such line, or cases=0, or asserts=0. The demo and benchmark entries report no counts: their
// checks are the screenshot and benchmark verifications, and the consumer builds (tests/consumer)
// build and run a project outside the tree: all judged by their exit status alone.
// Usage: node tests/run-summary.mjs BUILD_DIR/Testing/Temporary/LastTest.log
import { readFileSync } from 'node:fs';

const log = process.argv[2];
if (!log) { console.error('usage: node tests/run-summary.mjs LastTest.log'); process.exit(2); }
const text = readFileSync(log, 'utf8');
const uncounted = /^(demos\.|bench\.|consumer\.|web\.chromium\.gallery$)/;

// One block per entry: from "N/M Test: NAME" to the next such line.
const entries = [];
const header = /^\d+\/\d+ Test: (.*)$/gm;
const starts = [...text.matchAll(header)];
starts.forEach((m, i) => entries.push({ name: m[1], body: text.slice(m.index, i + 1 < starts.length ? starts[i + 1].index : text.length) }));

let cases = 0, asserts = 0, fuzzInputs = 0, fuzzExecutions = 0;
const nothing = [], exitOnly = [];
for (const e of entries) {
  const runs = [...e.body.matchAll(/xfb-test-run: cases=(\d+) asserts=(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  if (runs.length === 0) {
    if (uncounted.test(e.name)) exitOnly.push(e.name);
    else nothing.push(`${e.name} (printed no xfb-test-run line)`);
    continue;
  }
  const c = runs.reduce((s, r) => s + r[0], 0), a = runs.reduce((s, r) => s + r[1], 0);
  // The fuzz entries (tests/fuzz/run_fuzzer.sh) count inputs and executions, not test cases.
  if (e.name.startsWith('fuzz.')) fuzzInputs += c, fuzzExecutions += a;
  else cases += c, asserts += a;
  if (c === 0 || a === 0) nothing.push(`${e.name} (cases=${c} asserts=${a})`);
}

console.log(`ctest entries: ${entries.length}; test cases executed: ${cases}; assertions: ${asserts}; entries that ran nothing: ${nothing.length}`);
if (fuzzInputs) console.log(`  fuzz entries: ${fuzzInputs} inputs, ${fuzzExecutions} executions`);
if (exitOnly.length) console.log(`  of which judged by their exit status alone (demos, benchmarks, consumer builds): ${exitOnly.length}`);
for (const n of nothing) console.log(`  ran nothing: ${n}`);
if (entries.length === 0) console.log('  no entry in the log: ctest ran nothing');
process.exit(nothing.length || entries.length === 0 ? 1 : 0);
