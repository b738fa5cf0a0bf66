// ctest docs.links: a reader can navigate the documentation. Every relative link of README.md and
// docs/**/*.md names a file that exists and, with #anchor, a heading of that page (GitHub's
// anchors: lower case, punctuation dropped, spaces as hyphens); every page of docs/ is reachable
// from README.md by links. Links into build/ (generated references) are not checked. The
// planted fixture of docs/tests is left out, as in check-quotes.mjs.
// Each problem is one line `XFB_DOCS_LINK: FILE: what, and the fix`; exit status 1 when any.
// Usage: node check-links.mjs [--expect-problems N] ROOT   (N: the planted twin, docs.links-planted)
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const args = process.argv.slice(2);
let expected = null;
if (args[0] === '--expect-problems') expected = Number(args.splice(0, 2)[1]);
const root = args[0];
if (!root || (expected !== null && !Number.isInteger(expected))) {
  console.error('usage: node check-links.mjs [--expect-problems N] ROOT');
  process.exit(2);
}

const pages = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
const walk = (dir) => {
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (path === join('docs', 'tests')) continue;
    if (statSync(join(root, path)).isDirectory()) walk(path);
    else if (name.endsWith('.md')) pages.push(path);
  }
};
if (existsSync(join(root, 'docs'))) walk('docs');

const text = new Map(pages.map((p) => [p, readFileSync(join(root, p), 'utf8')]));
/** The page's text without its code blocks, where `#` lines and brackets are not markdown. */
const prose = (p) => text.get(p).replace(/^```[\s\S]*?^```/gm, '');
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
const anchors = (p) => new Set([...prose(p).matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1].replace(/\s*\{#[\w-]+\}$/, ''))));

const problems = [];
const linksFrom = new Map();
let links = 0;
for (const page of pages) {
  const targets = [];
  for (const [, href] of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(href)) continue; // http:, mailto:
    links++;
    const [path, anchor] = href.split('#');
    const target = path ? normalize(join(dirname(page), path)) : page;
    if (target.startsWith('build/')) continue;
    if (!existsSync(join(root, target))) {
      problems.push(`XFB_DOCS_LINK: ${page}: links to ${href}, and ${target} does not exist: fix the path`);
      continue;
    }
    if (anchor && text.has(target) && !anchors(target).has(anchor))
      problems.push(`XFB_DOCS_LINK: ${page}: links to ${href}, and ${target} has no heading with anchor #${anchor}: link one of its headings`);
    if (text.has(target)) targets.push(target);
  }
  linksFrom.set(page, targets);
}
// Pages reachable from the front door.
const reached = new Set(pages.includes('README.md') ? ['README.md'] : []);
for (const queue = [...reached]; queue.length;)
  for (const t of linksFrom.get(queue.pop()) ?? []) if (!reached.has(t)) reached.add(t), queue.push(t);
for (const page of pages)
  if (!reached.has(page)) problems.push(`XFB_DOCS_LINK: ${page}: no chain of links leads here from README.md: link it from the README or a page it links`);

for (const p of problems) console.log(p);
console.log(`docs.links: ${pages.length} pages, ${links} relative links, ${reached.size} pages reachable from README.md, ${problems.length} problems`);
if (expected !== null) {
  const ok = problems.length === expected;
  console.log(ok ? `the planted broken links were found (${expected}, as planted)` : `FAIL: expected ${expected} problems, found ${problems.length}`);
  console.log(`xfb-test-run: cases=1 asserts=${ok ? expected : 0}`);
  process.exit(ok ? 0 : 1);
}
console.log(`xfb-test-run: cases=${pages.length} asserts=${links + pages.length}`);
process.exit(problems.length ? 1 : 0);
