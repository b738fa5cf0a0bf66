// The corpus's figures from its per-shader results (run.mjs), and their Markdown table for
// docs/guide/shader-coverage.md. Translation counts are of the shaders glslang accepts: the
// issue's goal is 100% of those, and the refusals are counted among them, grouped by reason.
const PRINTERS = ['wgsl', 'compute', 'fragment'];

// A refusal's reason without its line number, so that one cause over many shaders is one group.
const reason = (r) => `${r.code}: ${r.message.replace(/^(WGSL: )?line \d+: /, '').replace(/\s+/g, ' ')}`;

function count(list) {
  const accepted = list.filter((s) => s.glslang === 'accept');
  return {
    shaders: list.length,
    accepted: accepted.length,
    translated: Object.fromEntries(PRINTERS.map((p) => [p, accepted.filter((s) => s[p] === 'translated').length])),
    wgsl_compiled: accepted.filter((s) => s.wgsl_compiled).length,
    compute_compiled: accepted.filter((s) => s.compute_compiled).length,
    fragment_compiled: accepted.filter((s) => s.fragment_compiled).length,
    runnable: accepted.filter((s) => s.run).length,
    equal: accepted.filter((s) => s.run?.equal).length,
    native_runnable: accepted.filter((s) => s.native_run).length,
    native_equal: accepted.filter((s) => s.native_run?.equal).length,
  };
}

export function summarize(results) {
  const source = (s) => s.name.split('/')[0];
  const bySource = {};
  for (const name of [...new Set(results.map(source))]) bySource[name] = count(results.filter((s) => source(s) === name));
  const refusals = {};
  for (const p of PRINTERS) {
    refusals[p] = {};
    for (const s of results) if (s.glslang === 'accept' && s[p] !== 'translated') (refusals[p][reason(s[p])] ??= []).push(s.name);
  }
  // Translations the GL would not compile: engine bugs, listed with glslang's first error.
  const uncompiled = results.filter((s) => s.glslang === 'accept').flatMap((s) => ['compute', 'fragment'].filter((p) => s[`${p}_errors`]).map((p) => `${p}: ${s.name}: ${s[`${p}_errors`][0]}`));
  const precisionDependent = results.flatMap((s) => ['run', 'native_run'].filter((r) => s[r]?.precision_dependent).map((r) => `${r === 'run' ? 'Chromium' : 'native'}: ${s.name}: ${s[r].differ_from_tf.join(', ')} differs from ${s[r].runtimes[0]}`));
  return { ...count(results), by_source: bySource, refusals, uncompiled, precision_dependent: precisionDependent };
}

const cell = (n, of) => (of ? `${n} (${Math.round((100 * n) / of)}%)` : `${n}`);
const row = (label, c) => `| ${label} | ${c.shaders} | ${c.accepted} | ${PRINTERS.map((p) => cell(c.translated[p], c.accepted)).join(' | ')} | ${c.wgsl_compiled} | ${c.compute_compiled} / ${c.fragment_compiled} | ${c.runnable} | ${c.equal} | ${c.native_runnable} | ${c.native_equal} |`;

export function renderTable(summary) {
  const lines = [
    '| source | shaders | accepted by glslang | WGSL | GL compute | fragment | WGSL compiled in Chromium | GL compute / fragment compiled (glslang) | runnable in Chromium (ES 3.00; 2-D samplers get a texture) | equal bytes (WebGL2 TF, fragment, WebGPU) | runnable natively | equal bytes (GL TF, GL compute) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(summary.by_source).map(([name, c]) => row(name, c)),
    row('**all**', summary),
    '',
    'Refusals among the shaders glslang accepts, by printer and reason:',
    '',
    '| printer | refusal | shaders |',
    '|---|---|---|',
  ];
  for (const p of PRINTERS)
    for (const [why, names] of Object.entries(summary.refusals[p]).sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])))
      lines.push(`| ${p} | ${why.replace(/\|/g, '\\|')} | ${names.length}: ${names.join(', ')} |`);
  for (const p of PRINTERS) if (!Object.keys(summary.refusals[p]).length) lines.push(`| ${p} | none | 0 |`);
  if (summary.uncompiled.length) lines.push('', 'Translated, but glslang refuses the output (engine bugs):', '', ...summary.uncompiled.map((u) => `- ${u}`));
  if (summary.precision_dependent.length) lines.push('', 'Different bytes from a shader with lowp / mediump values (allowed: GLSL ES 3.00 section 4.5.2) or inverse() / determinant() (their algorithm is the implementation\'s: section 8.6); not counted as equal:', '', ...summary.precision_dependent.map((u) => `- ${u}`));
  return lines.join('\n') + '\n';
}
