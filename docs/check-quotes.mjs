// ctest docs.quotes: the code the documentation shows is code that runs. Every fenced block of
// README.md and docs/**/*.md (docs/conformance.md is generated and left out) must be one of:
//   - right after `<!-- quote: PATH -->`: byte-identical to the whole file PATH (from the root);
//   - right after `<!-- quote: PATH#NAME -->`: byte-identical to the region NAME of PATH, the lines
//     between `[docs:NAME]` and `[docs:end]` comment lines (`//`, `#` or `<!--`), less the marker's
//     own indentation; marker lines of other regions inside it are left out, so regions may nest;
//   - right after `<!-- fragment: WHY -->`: shown, not run (say why);
//   - a shell block (```sh): commands to type.
// Every region of a quoted file must be quoted somewhere (no dead region). Each problem is one line
// `XFB_DOCS_QUOTE: FILE:LINE: what, and the fix`; the exit status is 1 when there is any.
// Usage: node check-quotes.mjs [--expect-problems N] ROOT
//   --expect-problems N: the planted twin (docs/tests/quotes_fixture): succeed only when exactly N
//   problems are found, so the check is seen refusing drifts.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
let expected = null;
if (args[0] === '--expect-problems') expected = Number(args.splice(0, 2)[1]);
const root = args[0];
if (!root || (expected !== null && !Number.isInteger(expected))) {
  console.error('usage: node check-quotes.mjs [--expect-problems N] ROOT');
  process.exit(2);
}

const problems = [];
const problem = (file, line, text) => problems.push(`XFB_DOCS_QUOTE: ${file}:${line}: ${text}`);

/** The markdown files a reader sees: README.md and docs/, without the generated conformance page
 *  and this check's own planted fixture (docs/tests). */
function markdownFiles() {
  const found = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (path === join('docs', 'tests')) continue;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md') && path !== join('docs', 'conformance.md')) found.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return found;
}

const marker = /^(\s*)(?:\/\/|#|<!--)\s*\[docs:([\w-]+)\]/;

/** The regions of a source file: name -> text (marker indentation removed), or a problem. */
const regionCache = new Map();
function regions(path) {
  if (regionCache.has(path)) return regionCache.get(path);
  const lines = readFileSync(join(root, path), 'utf8').split('\n');
  const done = new Map(), open = [];
  lines.forEach((line, i) => {
    const m = marker.exec(line);
    if (!m) {
      for (const r of open) {
        if (line.trim() !== '' && !line.startsWith(r.indent)) problem(path, i + 1, `line is indented less than the [docs:${r.name}] marker: indent it, or end the region before it`);
        r.lines.push(line.slice(r.indent.length));
      }
      return;
    }
    if (m[2] !== 'end') return open.push({ name: m[2], indent: m[1], lines: [], line: i + 1 });
    const r = open.pop();
    if (!r) return problem(path, i + 1, '[docs:end] without an open region: remove it');
    if (done.has(r.name)) problem(path, r.line, `region ${r.name} defined twice: rename one`);
    done.set(r.name, { text: r.lines.join('\n') + '\n', line: r.line, quoted: false });
  });
  for (const r of open) problem(path, r.line, `region ${r.name} has no [docs:end]: close it`);
  regionCache.set(path, done);
  return done;
}

/** The fenced blocks of a markdown file, each with the comment line right before it (if any). */
function blocks(path) {
  const lines = readFileSync(join(root, path), 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i].slice(open[1].length));
    if (i === lines.length) problem(path, start + 1, 'code block never closed: add the closing ```');
    let before = start - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    found.push({ line: start + 1, language: open[2], text: body.join('\n') + '\n', comment: before >= 0 ? lines[before].trim() : '' });
  }
  return found;
}

let checked = 0;
const files = markdownFiles();
const quotedFiles = new Set();
for (const md of files) {
  for (const b of blocks(md)) {
    checked++;
    const quote = /^<!-- quote: ([^#\s]+)(?:#([\w-]+))? -->$/.exec(b.comment);
    if (!quote) {
      if (b.language === 'sh' || /^<!-- fragment: \S.* -->$/.test(b.comment)) continue;
      problem(md, b.line, `a ${b.language || 'plain'} block that no test runs: quote it from a tested file (<!-- quote: PATH#REGION --> before it) or mark it <!-- fragment: why -->`);
      continue;
    }
    const [, source, name] = quote;
    if (!existsSync(join(root, source))) {
      problem(md, b.line, `quotes ${source}, which does not exist: fix the path`);
      continue;
    }
    quotedFiles.add(source);
    let text;
    if (name) {
      const r = regions(source).get(name);
      if (!r) {
        problem(md, b.line, `quotes region ${name} of ${source}, which has no [docs:${name}] ... [docs:end]: add the markers or fix the name`);
        continue;
      }
      r.quoted = true;
      text = r.text;
    } else {
      text = readFileSync(join(root, source), 'utf8');
    }
    if (text !== b.text) {
      const a = b.text.split('\n'), s = text.split('\n');
      let k = 0;
      while (k < a.length && a[k] === s[k]) k++;
      problem(md, b.line + 1 + k, `differs from ${source}${name ? `#${name}` : ''}: shows ${JSON.stringify(a[k] ?? '')}, the source has ${JSON.stringify(s[k] ?? '')}; copy the source's text into the block`);
    }
  }
}
for (const source of quotedFiles)
  for (const [name, r] of regions(source))
    if (!r.quoted) problem(source, r.line, `region ${name} is quoted nowhere: quote it or remove its markers`);

for (const p of problems) console.log(p);
console.log(`docs.quotes: ${files.length} markdown files, ${checked} code blocks, ${quotedFiles.size} quoted sources, ${problems.length} problems`);
if (expected !== null) {
  const ok = problems.length === expected;
  console.log(ok ? `the planted drifts were refused (${expected} problems, as planted)` : `FAIL: expected ${expected} problems, found ${problems.length}`);
  console.log(`xfb-test-run: cases=1 asserts=${ok ? expected : 0}`);
  process.exit(ok ? 0 : 1);
}
console.log(`xfb-test-run: cases=${files.length} asserts=${checked}`);
process.exit(problems.length ? 1 : 0);
