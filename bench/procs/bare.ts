/** The baseline: a bare node:http server answering fixed bodies (by path), keep-alive, no framework. */
import { createServer } from 'node:http';
import { serveRpc } from '../lib/child.js';

const bodies = new Map<string, Buffer>();
const server = createServer((req, res) => {
  // drain the request like any server must before answering
  req.resume();
  req.on('end', () => {
    const body = bodies.get((req.url ?? '/').split('?')[0]!) ?? Buffer.from('{}');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const addr = server.address();
const port = typeof addr === 'object' && addr ? addr.port : 0;

serveRpc(
  {
    setBody: (a: { path: string; body: string }) => {
      bodies.set(a.path, Buffer.from(a.body));
      return bodies.get(a.path)!.length;
    },
  },
  () => new Promise<void>((r) => server.close(() => r())),
);
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}`, pid: process.pid });
