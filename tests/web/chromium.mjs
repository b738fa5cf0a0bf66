// Headless Chromium (Debian's) with WebGL2 on SwiftShader and no background network traffic (TOOLCHAIN.md).
export const CHROMIUM_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--ignore-gpu-blocklist', '--enable-unsafe-webgpu'];
