/**
 * The loadtest's wrk driver against a real node:http server on loopback: every request of the mix arrives
 * byte-exact (methods, headers and bodies with Lua's long-bracket closers in them), statuses and GraphQL errors
 * are counted, and latency comes back in ms.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWrk, wrkAvailable } from '../../bench/lib/wrk.js';

const awkward = JSON.stringify({ query: '{ a(x: "]]") { b } }', note: ']=] ]==] [[ " \\ \n' });
let server: Server;
let url = '';
const seen = { ok: 0, bad: 0 };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      let status = 200;
      let answer = '{"data":{"b":1}}';
      if (req.method === 'GET' && req.url === '/plain?x=1') answer = '{"ok":true}';
      else if (req.method === 'POST' && req.url === '/graphql' && req.headers['x-probe'] === 'a]]b' && body === awkward) {
        answer = '{"errors":[{"message":"nope"}]}';
      } else status = 400;
      if (status === 200) seen.ok++;
      else seen.bad++;
      res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe.skipIf(!wrkAvailable())('wrk driver', () => {
  it('sends the mix exactly and counts statuses, GraphQL errors and latency', async () => {
    const r = await runWrk(url, 4, 1, [
      { method: 'GET', path: '/plain?x=1' },
      { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', 'x-probe': 'a]]b' }, body: awkward },
    ]);
    expect(seen.bad).toBe(0);
    expect(r.requests).toBeGreaterThan(100);
    expect(r.statuses).toEqual([[200, r.requests]]);
    // the two requests alternate on each connection's turn: half the answers carry errors, within one per connection
    expect(Math.abs(r.graphqlErrors - r.requests / 2)).toBeLessThanOrEqual(4);
    expect(r.socketErrors + r.timeouts).toBe(0);
    expect(r.latency.p50).toBeGreaterThan(0);
    expect(r.latency.p50).toBeLessThanOrEqual(r.latency.p99_9);
    expect(r.latency.p99_9).toBeLessThanOrEqual(r.latency.max);
    expect(r.durationS).toBeGreaterThan(0.9);
  });
});
