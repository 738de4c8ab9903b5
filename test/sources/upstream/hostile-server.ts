/**
 * A hostile stand-in toncenter for hostile-upstream.test.ts, run in a process of its own (so its work is not
 * counted against the gateway's memory or event loop): every route but /api/v3/masterchainInfo answers in the
 * current mode. 200 MB answers are made on the fly from one 1 MiB buffer, so they cost this process nothing.
 *
 * Control, on the same port: `PUT /control/mode?to=<mode>`, `GET /control/count?path=<path>` (requests seen
 * for a path, without query). It prints `listening <port>` on stdout once it listens, and exits when its stdin
 * closes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const MODES = ['huge-declared', 'huge-chunked', 'drip', 'stall', 'deep', 'redirect', 'large-ok'] as const;
type Mode = (typeof MODES)[number];

const HUGE = 200 * 1024 * 1024;
const DEPTH = 100_000;

const FILL = Buffer.alloc(1024 * 1024, 'a');

/** Writes `size` bytes of one JSON string answer, respecting backpressure, until done or the client goes away. */
function stream(res: ServerResponse, size: number, declared: boolean): void {
  const head = Buffer.from('{"ok":true,"result":"');
  const tail = Buffer.from('"}');
  res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(size) } : {}) });
  let left = size - head.length - tail.length;
  res.write(head);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, FILL.length);
      left -= n;
      if (!res.write(n === FILL.length ? FILL : FILL.subarray(0, n))) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(tail);
  };
  pump();
}

function listen(): Promise<number> {
  const counts = new Map<string, number>();
  let mode: Mode = 'deep';
  const deep = `{"ok":true,"result":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    req.resume();
    if (path === '/control/mode') {
      mode = url.searchParams.get('to') as Mode;
      return res.end(MODES.includes(mode) ? 'ok' : 'unknown mode');
    }
    if (path === '/control/count') return res.end(String(counts.get(url.searchParams.get('path') ?? '') ?? 0));
    counts.set(path, (counts.get(path) ?? 0) + 1);
    // the other client's route is always answered properly
    if (path === '/api/v3/masterchainInfo') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ last: { workchain: -1, seqno: 7 }, first: { workchain: -1, seqno: 1 } }));
    }
    switch (mode) {
      case 'huge-declared':
        return stream(res, HUGE, true);
      case 'huge-chunked':
        return stream(res, HUGE, false);
      case 'deep':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(deep);
      case 'redirect':
        // a JSON body too, so nothing but the status says this is not the answer
        res.writeHead(307, { 'content-type': 'application/json', location: `http://127.0.0.1:1${req.url}` });
        return res.end('{}');
      case 'large-ok': {
        // a proper answer of 5 MiB and a little, sent in 64 KiB pieces without a declared length
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":true,"result":"');
        const piece = '1'.repeat(64 * 1024);
        for (let i = 0; i < 80; i++) res.write(piece);
        return res.end('"}');
      }
      case 'stall':
        // 700 KiB at once, then nothing until the client gives up
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.write(`{"ok":true,"result":"${'a'.repeat(700 * 1024)}`);
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":true,"result":"');
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('a')), 100);
        return;
      }
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

process.stdout.write(`listening ${await listen()}\n`);
// gone with the test that started it, however that ends
process.stdin.on('end', () => process.exit(0)).resume();
