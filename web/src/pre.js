// Node compatibility for Emscripten 3.1.6's ES module output, so the same xfb.mjs loads in
// browsers and in Node 20: the output expects CommonJS's require/__dirname and would fetch() the
// .wasm by path. These `var`s are hoisted over the whole module factory, so each is set for
// both environments. (`import.meta` must not appear here: 3.1.6's minifier fails on it; _scriptDir
// holds it.)
var xfbIsNode = typeof process === 'object' && !!process.versions && !!process.versions.node;
var require = xfbIsNode ? process.getBuiltinModule('module').createRequire(_scriptDir) : undefined;
var __dirname = xfbIsNode ? require('path').dirname(require('url').fileURLToPath(_scriptDir)) : undefined;
var fetch = xfbIsNode ? undefined : globalThis.fetch.bind(globalThis); // Node: read the .wasm from disk
if (xfbIsNode && !Module['locateFile']) Module['locateFile'] = function (file) { return require('path').join(__dirname, file); };
// The bindings answer a failure with `new Module.XfbError(code, message)` (web/src/js_values.hpp);
// index.js passes its XfbError class. Loaded without it, the module still answers with an Error
// carrying the same code and message.
if (!Module['XfbError']) Module['XfbError'] = function (code, message) { var e = new Error(code + ': ' + message); e.name = 'XfbError'; e.code = code; e.detail = message; return e; };
