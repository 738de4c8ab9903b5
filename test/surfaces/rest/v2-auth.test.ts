/**
 * API keys and rate limits (service-spec.md Authentication and Limits) over real loopback HTTP, in front of
 * the v2 routes: 401 / 403 / 429 with exact texts, header and query forms, per-key rps, keyless 1 rps.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import type { V2Api } from '../../../src/api/v2.js';
import type { ApiKeySpec, Network } from '../../../src/config.js';
import { registerAuth, RateLimiter } from '../../../src/pipeline/auth.js';
import { registerV2Routes } from '../../../src/surfaces/rest/v2.js';

const INFO = { '@type': 'blocks.masterchainInfo' };
let sourceCalls = 0;
const api = new Proxy({} as V2Api, {
  get(_t, method) {
    if (typeof method !== 'string' || method === 'then') return undefined;
    return async () => {
      sourceCalls++;
      return INFO;
    };
  },
});

const KEYS: ApiKeySpec[] = [
  { key: 'test-key-fast', networks: ['testnet'], rps: 100 },
  { key: 'both-nets', networks: ['mainnet', 'testnet'], rps: 0 },
  { key: 'main-only', networks: ['mainnet'], rps: 100 },
  { key: 'test-key-slow', networks: ['testnet'], rps: 1 },
];

const servers: FastifyInstance[] = [];

async function start(opts: { keylessRps: number; network?: Network; apiKeys?: ApiKeySpec[] }): Promise<string> {
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok' }));
  registerAuth(app, { apiKeys: opts.apiKeys ?? KEYS, network: opts.network ?? 'testnet', keylessRps: opts.keylessRps, prefixes: ['/api/v2'] });
  registerV2Routes(app, { v2: api });
  servers.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

afterEach(() => {
  sourceCalls = 0;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface Reply {
  status: number;
  body: unknown;
  retryAfter: string | null;
  text: string;
}

async function call(base: string, path = '/api/v2/getMasterchainInfo', init: { key?: string; query?: string; body?: unknown } = {}): Promise<Reply> {
  const url = `${base}${path}${init.query !== undefined ? `?api_key=${encodeURIComponent(init.query)}` : ''}`;
  const headers: Record<string, string> = {};
  if (init.key !== undefined) headers['x-api-key'] = init.key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method: init.body !== undefined ? 'POST' : 'GET', headers, body: init.body !== undefined ? JSON.stringify(init.body) : undefined });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), retryAfter: res.headers.get('retry-after'), text };
}

// the surface tags the result as toncenter does (v2-extra.ts)
const OK = { ok: true, result: { ...INFO, '@extra': expect.any(String) } };
const err = (code: number, error: string) => ({ ok: false, error, code });

describe('API keys', () => {
  it('an unknown key is 401, by header or by query, and the key is not echoed', async () => {
    const base = await start({ keylessRps: 0 });
    for (const r of [await call(base, undefined, { key: 'who-am-i' }), await call(base, undefined, { query: 'who-am-i' })]) {
      expect({ status: r.status, body: r.body }).toEqual({ status: 401, body: err(401, 'API key does not exist') });
      expect(r.text).not.toContain('who-am-i');
    }
    expect(sourceCalls).toBe(0);
  });

  it('a key of another network is 403', async () => {
    const base = await start({ keylessRps: 0 });
    const r = await call(base, undefined, { key: 'main-only' });
    expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: err(403, 'Network not allowed') });
    const onMain = await start({ keylessRps: 0, network: 'mainnet' });
    expect((await call(onMain, undefined, { query: 'main-only' })).body).toEqual(OK);
    expect((await call(onMain, undefined, { key: 'test-key-fast' })).status).toBe(403);
  });

  it('a known key passes by header and by query, on REST and JSON-RPC', async () => {
    const base = await start({ keylessRps: 0 });
    expect(await call(base, undefined, { key: 'test-key-fast' })).toMatchObject({ status: 200, body: OK });
    expect(await call(base, undefined, { query: 'both-nets' })).toMatchObject({ status: 200, body: OK });
    const rpc = await call(base, '/api/v2/jsonRPC', { key: 'test-key-fast', body: { id: '1', jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} } });
    expect(rpc).toMatchObject({ status: 200, body: { ...OK, jsonrpc: '2.0', id: '1' } });
    const bad = await call(base, '/api/v2/jsonRPC', { query: 'nope', body: { id: '1', method: 'getMasterchainInfo' } });
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 401, body: err(401, 'API key does not exist') });
  });

  it("a key's rps is its own bucket: over it is 429 with Retry-After; the api_key param does not upset parsing", async () => {
    const base = await start({ keylessRps: 0 });
    const first = await call(base, undefined, { key: 'test-key-slow' });
    expect(first).toMatchObject({ status: 200, body: OK });
    const second = await call(base, undefined, { query: 'test-key-slow' });
    expect({ status: second.status, body: second.body }).toEqual({ status: 429, body: err(429, 'Ratelimit exceeded') });
    expect(Number(second.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(sourceCalls).toBe(1);
    // another key and keyless callers are not affected (keyless unlimited here)
    expect((await call(base, undefined, { key: 'test-key-fast' })).status).toBe(200);
    expect((await call(base)).status).toBe(200);
  });

  it('rps 0 on a key means unlimited', async () => {
    const base = await start({ keylessRps: 1 });
    for (let i = 0; i < 5; i++) expect((await call(base, undefined, { key: 'both-nets' })).status).toBe(200);
  });
});

describe('keyless limit', () => {
  it('1 rps per client: two immediate calls → the second is 429 with Retry-After', async () => {
    const base = await start({ keylessRps: 1 });
    const a = await call(base);
    const b = await call(base, '/api/v2/getShards?seqno=1');
    expect({ status: a.status, body: a.body }).toEqual({ status: 200, body: OK });
    expect({ status: b.status, body: b.body }).toEqual({ status: 429, body: err(429, 'Ratelimit exceeded') });
    expect(b.retryAfter).toBe('1');
    // a keyed caller is not held by the keyless bucket
    expect((await call(base, undefined, { key: 'test-key-fast' })).status).toBe(200);
  });

  it('a token comes back after a second', async () => {
    const base = await start({ keylessRps: 1 });
    expect((await call(base)).status).toBe(200);
    expect((await call(base)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 1050));
    expect((await call(base)).status).toBe(200);
  });

  it('keylessRps 0 is unlimited; paths outside the prefixes are never limited', async () => {
    const open = await start({ keylessRps: 0 });
    for (let i = 0; i < 5; i++) expect((await call(open)).status).toBe(200);
    const limited = await start({ keylessRps: 1 });
    for (let i = 0; i < 3; i++) expect((await fetch(`${limited}/health`)).status).toBe(200);
    expect((await fetch(`${limited}/health?api_key=nope`)).status).toBe(200);
  });

  it('unknown routes under the prefix count too (404 only when allowed)', async () => {
    const base = await start({ keylessRps: 1 });
    expect((await call(base, '/api/v2/nope')).status).toBe(404);
    expect((await call(base, '/api/v2/nope')).status).toBe(429);
  });
});

describe('RateLimiter', () => {
  it('bursts up to rps, then refills continuously', () => {
    let now = 0;
    const rl = new RateLimiter(100, () => now);
    expect([rl.take('a', 3), rl.take('a', 3), rl.take('a', 3)]).toEqual([0, 0, 0]);
    expect(rl.take('a', 3)).toBeCloseTo(1 / 3);
    now += 400;
    expect(rl.take('a', 3)).toBe(0);
  });

  it('keeps memory bounded and drops idle buckets', () => {
    let now = 0;
    const rl = new RateLimiter(50, () => now);
    for (let i = 0; i < 500; i++) rl.take(`ip${i}`, 1);
    expect(rl.size).toBeLessThanOrEqual(50);
    now += 5_000;
    rl.take('fresh', 1);
    expect(rl.size).toBe(1);
  });
});
