// Runs first inside the module factory, and goes through Closure Compiler's ADVANCED pass with the
// rest of the module (emcc --closure 1): every property read or written by name outside the module
// is quoted, as Closure renames the others. require and __dirname come from node_compat.js.
// Node: the .wasm next to this file, read from disk (node_compat.js hides fetch).
if (typeof process == 'object' && process.versions && process.versions.node && !Module['locateFile'])
  Module['locateFile'] = function (file) { return require('path').join(__dirname, file); };
// The WebGPU module's embind bindings answer a failure with `new Module.XfbError(code, message)`
// (web/src/js_values.hpp; the extern "C" functions answer a code instead: call.hpp);
// index.js passes its XfbError class. Loaded without it, the module still answers with an Error
// carrying the same code and message.
if (!Module['XfbError']) Module['XfbError'] = function (code, message) { var e = new Error(code + ': ' + message); e['name'] = 'XfbError'; e['code'] = code; e['detail'] = message; return e; };
