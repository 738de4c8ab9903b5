/**
 * An HTTP client in a process of its own, for benchmarks that time a gateway route as a remote caller sees it
 * (scripts/bench-emulate.ts): the caller's work (building the request, reading the answer) does not run on the
 * gateway's main thread, as it would with `fetch` in the benchmark's own process. `post` sends a JSON body on one
 * kept-alive undici connection, reads the whole answer, and answers `{ ms, status, bytes }`, `ms` measured here
 * from the request's start to the answer's last byte.
 */
import { Agent, request } from 'undici';
import { serveRpc } from '../lib/child.js';

const dispatcher = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 60_000 });

serveRpc(
  {
    post: async (a: { url: string; body: string }) => {
      const t = performance.now();
      const res = await request(a.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: a.body, dispatcher });
      const bytes = (await res.body.arrayBuffer()).byteLength;
      return { ms: performance.now() - t, status: res.statusCode, bytes };
    },
  },
  () => dispatcher.close(),
);
process.send!({ type: 'ready', pid: process.pid });
