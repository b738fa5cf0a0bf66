// A static file server on 127.0.0.1 for the demo gallery (./xfb demo) and the browser tests: maps URL prefixes
// to folders, serves .mjs/.wasm with the MIME types browsers require.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TEXT = 'text/plain; charset=utf-8'; // shaders and the C++ sources the gallery's cards link: shown, not downloaded
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.json': 'application/json', '.css': 'text/css', '.png': 'image/png', '.glsl': TEXT, '.vert': TEXT, '.cpp': TEXT, '.hpp': TEXT, '.md': TEXT };

/** routes: { '/npm/': '/abs/folder', '/': '/abs/other' }; resolves to { url, close() }. */
export function serve(routes, port = 0) {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request'); // a URL such as '//' or a malformed %-escape
      return;
    }
    const prefix = prefixes.find((p) => path.startsWith(p));
    let file = prefix && join(routes[prefix], normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, ''));
    try {
      if (file && (await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node serve.mjs PORT PREFIX=FOLDER ...
  const [port, ...pairs] = process.argv.slice(2);
  const routes = Object.fromEntries(pairs.map((p) => p.split('=')));
  const { url } = await serve(routes, Number(port));
  console.log(`serving on ${url}/`);
}
