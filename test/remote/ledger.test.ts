/**
 * The per-request ledger (src/remote/ledger.ts) over a real UpstreamClient and an HTTP server on
 * loopback: a call shared by concurrent requests is reported by each of them, a request past its deadline
 * stops waiting while the call completes into the cache, and `Prefer` and the pacer's budget read as documented.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/remote/client.js';
import { Ledger, MAX_WAIT_S, preferredWait, withLedger } from '../../src/remote/ledger.js';
import { Pacer } from '../../src/remote/pacer.js';

let server: Server;
let url: string;
let hits = 0;
/** ms the server waits before answering */
let delay = 200;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ blocks: [{ seqno: 1 }] }));
    }, delay);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = () => new UpstreamClient({ v2Url: url, v3Url: url, apiKey: '', rps: 0, timeoutMs: 5_000, maxBytes: 1 << 20, cacheMb: 1, accountTtlMs: 0 });
const blocks = (seqno: number) => ({ api: 'v3' as const, method: 'GET' as const, path: '/blocks', query: [['seqno', String(seqno)]] as [string, string][], idempotent: true });
const IMMUTABLE = { kind: 'immutable' as const };

describe('Ledger', () => {
  it('counts a call shared by two concurrent requests for each of them, and a later cache hit as a hit', async () => {
    const c = client();
    try {
      const before = hits;
      const [a, b] = [new Ledger(undefined, undefined), new Ledger(undefined, undefined)];
      await Promise.all([withLedger(a, () => c.call(blocks(1), IMMUTABLE)), withLedger(b, () => c.call(blocks(1), IMMUTABLE))]);
      expect(hits - before).toBe(1);
      for (const l of [a, b]) expect(l.report()).toMatchObject({ calls: 1, cacheHits: 0, byRoute: { '/api/v3/blocks': 1 } });
      const later = new Ledger(undefined, undefined);
      await withLedger(later, () => c.call(blocks(1), IMMUTABLE));
      expect(later.report()).toEqual({ calls: 0, cacheHits: 1, waitedMs: 0, byRoute: {}, budget: { rps: 0, remaining: null } });
    } finally {
      await c.close();
    }
  });

  it('past the deadline the caller gets UPSTREAM_DEADLINE at once, and the call still fills the cache', async () => {
    const c = client();
    delay = 800;
    try {
      const ledger = new Ledger(performance.now() + 200, 1);
      const t0 = performance.now();
      const err = await withLedger(ledger, () => c.call(blocks(2), IMMUTABLE)).catch((e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(700);
      expect(err).toMatchObject({ status: 504, code: 'UPSTREAM_DEADLINE', message: expect.stringMatching(/deadline of 1 s/) });
      await new Promise((r) => setTimeout(r, 900));
      const before = hits;
      const next = new Ledger(undefined, undefined);
      await withLedger(next, () => c.call(blocks(2), IMMUTABLE));
      expect(hits).toBe(before);
      expect(next.report().cacheHits).toBe(1);
    } finally {
      delay = 200;
      await c.close();
    }
  });

  it('without a ledger nothing is counted and nothing is cut short', async () => {
    const c = client();
    try {
      await expect(c.call(blocks(3), IMMUTABLE)).resolves.toEqual({ blocks: [{ seqno: 1 }] });
    } finally {
      await c.close();
    }
  });
});

describe('Prefer: wait', () => {
  it('reads a positive whole wait among other preferences, caps it, and ignores anything else', () => {
    expect(preferredWait('wait=5')).toBe(5);
    expect(preferredWait('respond-async, wait=3')).toBe(3);
    expect(preferredWait(['return=minimal', 'WAIT = 7'])).toBe(7);
    expect(preferredWait('wait=100000')).toBe(MAX_WAIT_S);
    for (const h of [undefined, '', 'wait=0', 'wait=-2', 'wait=1.5', 'wait=soon', 'return=minimal']) expect(preferredWait(h), String(h)).toBeUndefined();
  });
});

describe('Pacer.remaining', () => {
  it('is how many starts fit in the next second after those waiting; null unpaced', async () => {
    let now = 0;
    const pacer = new Pacer({ rps: 10, maxQueue: 100, now: () => now });
    expect(pacer.remaining()).toBe(10);
    await pacer.acquire();
    expect(pacer.remaining()).toBe(9);
    now = 2_000;
    expect(pacer.remaining()).toBe(10);
    pacer.close();
    expect(new Pacer({ rps: 0, maxQueue: 1 }).remaining()).toBeNull();
  });
});
