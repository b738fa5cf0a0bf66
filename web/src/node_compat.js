// Node compatibility for Emscripten 3.1.6's ES module output, so the same .mjs loads in browsers
// and in Node 20: the output expects CommonJS's require/__dirname and would fetch() the .wasm by
// path. Linked with --extern-pre-js: emcc puts this file verbatim at the top of the ES module,
// outside the module factory and outside Closure Compiler's view (Closure's externs already
// declare these three names, so a `var` of them in a --pre-js fails its ADVANCED pass), and these
// module-scope `var`s shadow the globals for the factory only; nothing global is touched.
const xfbIsNode = typeof process == 'object' && !!process.versions && !!process.versions.node;
var require = xfbIsNode ? process.getBuiltinModule('module').createRequire(import.meta.url) : undefined;
var __dirname = xfbIsNode ? require('path').dirname(require('url').fileURLToPath(import.meta.url)) : undefined;
// Node: no fetch, so the module reads the .wasm from disk; browsers: the global fetch at call time.
var fetch = xfbIsNode ? undefined : (...args) => globalThis.fetch(...args);
