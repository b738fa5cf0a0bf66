// Where the bytes of xfb.wasm go: every function's body size in the code section, named from the
// symbol map emcc writes with --emit-symbol-map (xfb.mjs.symbols, "index:mangled"), demangled
// with llvm-cxxfilt and grouped by what pulled it in. Also the data section and the other sections,
// and (with --objects) the floor: the engine's code and data alone, without bindings and embind.
// A measurement tool, not part of the package. Both modules are linked with --emit-symbol-map
// (web/CMakeLists.txt), so every build has dist/xfb.mjs.symbols and dist/xfb-webgpu.mjs.symbols
// beside the wasm that shipped: no special link is needed (the map is not in package.json "files").
// Functions of the engine and the bindings are attributed to the object file that defines them
// (llvm-nm over BUILD_DIR's .o files, LTO bitcode), the rest by name (libc++, nlohmann, embind).
// Usage: node web/tools/size-breakdown.mjs build/wasm/npm/dist/xfb.wasm [--objects build/wasm] [--top N]
//        node web/tools/size-breakdown.mjs build/wasm/npm/dist/xfb-webgpu.wasm [--objects build/wasm]
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const topN = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const objAt = args.indexOf('--objects');
const objectDir = objAt >= 0 ? args.splice(objAt, 2)[1] : null;
const [wasmPath, symbolsArg] = args;
const wasm = readFileSync(wasmPath);
const symbols = new Map(readFileSync(symbolsArg ?? wasmPath.replace(/\.wasm$/, ".mjs.symbols"), 'utf8').split('\n').filter(Boolean)
  .map((line) => { const i = line.indexOf(':'); return [Number(line.slice(0, i)), line.slice(i + 1)]; }));

let at = 8;
const leb = () => { let r = 0, s = 0, b; do { b = wasm[at++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
const sections = [];
let imports = 0, codeBodies = [], dataSection = Buffer.alloc(0);
while (at < wasm.length) {
  const id = wasm[at++], size = leb(), start = at;
  sections.push({ id, size });
  if (id === 2) { // imports: count function imports (they take the first function indices)
    const n = leb();
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 2; k++) { const len = leb(); at += len; }
      const kind = wasm[at++];
      if (kind === 0) { leb(); imports++; } else if (kind === 1) { at++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); } else if (kind === 3) { at += 2; } else if (kind === 4) { at++; leb(); }
    }
  }
  if (id === 11) dataSection = wasm.subarray(start, start + size);
  if (id === 10) {
    const n = leb();
    for (let i = 0; i < n; i++) { const len = leb(); codeBodies.push({ index: imports + i, start: at, size: len }); at += len; }
  }
  at = start + size;
}

// The symbol map holds demangled names with \XX escapes (\28 for '(').
const unescape = (n) => n.replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
const names = [...new Set(codeBodies.map((b) => symbols.get(b.index) ?? `f${b.index}`))];
const demangled = new Map();
const out = execFileSync('llvm-cxxfilt', { input: names.map(unescape).join('\n'), maxBuffer: 1 << 26 }).toString().split('\n');
names.forEach((n, i) => demangled.set(n, out[i] ?? n));

// name -> source file of the first object defining it (engine/src/..., web/src/...).
const definedIn = new Map();
if (objectDir) {
  const objects = execFileSync('find', [objectDir, '-name', '*.o', '-path', '*CMakeFiles*']).toString().split('\n').filter((o) => /\/(engine|web)\//.test(o));
  for (const o of objects) {
    // engine/src/plan/pass_plan.cpp, web/src/engine_calls.cpp: the layer, then the path in it.
    const source = o.replace(/^.*\/(engine|web)\/CMakeFiles\/[^/]*\.dir\//, '$1/').replace(/\.o$/, '');
    for (const line of execFileSync('llvm-nm', ['--defined-only', '-C', o], { maxBuffer: 1 << 26 }).toString().split('\n')) {
      const m = /^[0-9a-f-]+ [TtWw] (.*)$/.exec(line);
      if (m && !definedIn.has(m[1])) definedIn.set(m[1], source);
    }
  }
}

// First match wins: the more specific groups first.
const libraries = [
  ['JSON (nlohmann, plan_json)', /nlohmann|plan_json|xfb::toJson|json_sax|lexer<|serializer</],
  ['embind glue', /emscripten::|_embind_|EmscriptenBindingInitializer|embind/],
  ['iostreams / locale / number formatting', /basic_ostream|basic_istream|basic_streambuf|basic_ios|ios_base|locale|ctype|num_put|num_get|numpunct|codecvt|__stdinbuf|__stdoutbuf|stringbuf|stringstream|^strto|printf|scanf|__floatscan|__intscan|^fmt_|pop_arg|__shgetc|__shlim|wcrtomb|mbrtowc|^frexp|__to_chars|__from_chars|__d2s|__f2s/],
  ['exceptions / RTTI / demangling', /__cxa|__cxxabiv1|_Unwind|__gxx|typeinfo|demangle|__dynamic_cast|terminate|::bad_alloc|bad_array|std::exception|logic_error|runtime_error|out_of_range|invalid_argument|length_error|__throw/],
];
const totals = new Map();
const all = [];
for (const b of codeBodies) {
  const raw = symbols.get(b.index) ?? `f${b.index}`, name = demangled.get(raw);
  const library = libraries.find(([, re]) => re.test(name))?.[0];
  const group = library ?? definedIn.get(name) ?? (/^std::/.test(name) ? 'libc++ (templates)' : /^xfb::/.test(name) ? 'engine (inlined templates)' : 'libc / malloc / compiler-rt / other');
  if (!totals.has(group)) totals.set(group, { size: 0, n: 0, bodies: [] });
  const t = totals.get(group); t.size += b.size; t.n++; t.bodies.push(wasm.subarray(b.start, b.start + b.size));
  all.push({ name, size: b.size, group });
}
const sectionName = { 0: 'custom', 1: 'type', 2: 'import', 3: 'function', 4: 'table', 5: 'memory', 6: 'global', 7: 'export', 8: 'start', 9: 'element', 10: 'code', 11: 'data', 12: 'datacount', 13: 'tag' };
const kb = (n) => (n / 1000).toFixed(1).padStart(7); // KB = 1000 bytes, as the size test
console.log(`${wasmPath}: ${kb(wasm.length)} KB raw, ${kb(gzipSync(wasm, { level: 9 }).length)} KB gzip -9`);
console.log('sections (raw KB):', sections.map((s) => `${sectionName[s.id]} ${(s.size / 1024).toFixed(1)}`).join(', '));
const code = codeBodies.reduce((s, b) => s + b.size, 0);
console.log(`\ncode section by origin: raw KB, share, functions, gzip -9 KB of the group alone`);
for (const [g, t] of [...totals].sort((a, b) => b[1].size - a[1].size))
  console.log(`${kb(t.size)}  ${(100 * t.size / code).toFixed(1).padStart(5)}%  ${String(t.n).padStart(5)}  ${kb(gzipSync(Buffer.concat(t.bodies), { level: 9 }).length)}  ${g}`);

// The floor: the engine without the boundary. The bindings (web/src, each method's guarded() with
// the engine call inlined into it) and embind's glue removed, the rest (engine, libc++, libc,
// exceptions) and the whole data section (its few binding names included) gzipped together, in
// code order. What a module of this engine needs at the least, whatever its bindings look like;
// plus the JavaScript (the Emscripten runtime, index.js), the lowest a download could be.
// Needs --objects (without it the bindings' functions are not known by file).
if (objectDir) {
  const boundary = (g) => g === 'embind glue' || g.startsWith('web/');
  const engineBodies = [], boundaryBodies = [];
  for (const [i, b] of codeBodies.entries()) (boundary(all[i].group) ? boundaryBodies : engineBodies).push(wasm.subarray(b.start, b.start + b.size));
  const gz = (parts) => gzipSync(Buffer.concat(parts), { level: 9 }).length;
  console.log(`\nthe engine alone (no bindings, no embind glue): code ${kb(engineBodies.reduce((s, b) => s + b.length, 0))} KB raw + data ${kb(dataSection.length)} KB raw = ${kb(gz([...engineBodies, dataSection]))} KB gzip -9`);
  console.log(`the boundary (web/src bindings + embind glue), gzipped alone: code ${kb(boundaryBodies.reduce((s, b) => s + b.length, 0))} KB raw, ${kb(gz(boundaryBodies))} KB gzip -9`);
}

console.log(`\nlargest ${topN} functions (raw bytes):`);
for (const f of all.sort((a, b) => b.size - a.size).slice(0, topN)) console.log(`${String(f.size).padStart(7)}  [${f.group.split(' ')[0].replace(/^.*\//, '')}] ${f.name.slice(0, 150)}`);
