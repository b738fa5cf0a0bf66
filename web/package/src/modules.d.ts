// Imports the bundler resolves (web/package/scripts/bundle.mjs): WGSL inlined as text, and the
// Emscripten modules next to the bundle (dist/, external).
declare module '*.wgsl' {
  const source: string;
  export default source;
}
// The factories are typed where they are instantiated (webgl2/wasm_module.ts, webgpu/wasm_module.ts).
declare module '*/dist/xfb.mjs' {
  const factory: (options: object) => Promise<unknown>;
  export default factory;
}
declare module '*/dist/xfb-full.mjs' {
  const factory: (options: object) => Promise<unknown>;
  export default factory;
}
declare module '*/dist/xfb-webgpu.mjs' {
  const factory: (options: object) => Promise<unknown>;
  export default factory;
}
