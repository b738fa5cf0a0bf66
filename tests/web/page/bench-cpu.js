// The browser benchmark's CPU cases alone (page/bench.js without the GPU-bound ones), for
// measuring the cost of a step quickly: node browser.mjs NPM_DIR bench-cpu
globalThis.xfbBenchCpuOnly = true;
await import('./bench.js');
