// Writes the conformance table as the plain JSON the native runner reads (runner.cpp), or, with
// --markdown, as docs/conformance.md (every case, its peers, and where it does not apply and why).
// Usage: node export.mjs OUT.json | node export.mjs --markdown OUT.md
import { writeFileSync } from 'node:fs';
import { NOT_PORTED, RUNTIMES, cases, materialize } from './table.mjs';

const [first, second] = process.argv.slice(2);
if (!first) { console.error('usage: node export.mjs OUT.json | --markdown OUT.md'); process.exit(2); }
const ids = new Set();
for (const c of cases) {
  if (ids.has(c.id)) throw new Error(`case id ${c.id} appears twice`);
  ids.add(c.id);
}
if (first !== '--markdown') {
  writeFileSync(first, JSON.stringify({ runtimes: RUNTIMES, cases: cases.map(materialize) }));
} else {
  const lines = ['# Conformance cases', '', 'Generated from `tests/conformance/table.mjs` by `node tests/conformance/export.mjs --markdown docs/conformance.md`', '(ctest `conformance.docs` fails when this file is stale). Each case runs on every runtime of', '`RUNTIMES` unless a row below says why not.', ''];
  // The peer tests covered, each with the number of cases carrying its intent.
  const peers = new Map();
  for (const c of cases) for (const p of c.peers) peers.set(p, (peers.get(p) ?? 0) + 1);
  lines.push('## Peer tests covered', '', '| peer test | cases |', '|---|---|');
  for (const [p, n] of [...peers].sort()) lines.push(`| ${p.replaceAll('|', '\\|')} | ${n} |`);
  lines.push('', '## Peer tests not ported, and why', '', '| peer test | why |', '|---|---|');
  for (const [p, why] of Object.entries(NOT_PORTED)) lines.push(`| ${p} | ${why} |`);
  lines.push('', '## Runtimes', '', '| runtime | tags (the keys a case\'s `na` may name) |', '|---|---|');
  for (const [r, tags] of Object.entries(RUNTIMES)) lines.push(`| \`${r}\` | ${tags.join(', ')} |`);
  lines.push('', `## The ${cases.length} cases`, '');
  lines.push('| case | intent | peers | not applicable |', '|---|---|---|---|');
  const cell = (s) => String(s).replaceAll('|', '\\|');
  for (const c of cases) {
    const na = [...Object.entries(c.na ?? {}).map(([k, r]) => `${k}: ${r}`), ...Object.entries(c.limits ?? {}).map(([k, r]) => `where ${k} is not ${r}`)];
    lines.push(`| \`${c.id}\`${c.finding ? ` (finding ${c.finding})` : ''} | ${cell(c.intent)} | ${cell(c.peers.join('; '))} | ${cell(na.join('; ') || '-')} |`);
  }
  writeFileSync(second, `${lines.join('\n')}\n`);
}
