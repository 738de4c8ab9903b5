/**
 * Replicas sharing state through a real redis-server (REDIS_TEST_URL, else a child process): two upstream-mode
 * gateways with the same REDIS_URL and API_KEYS enforce one limit per key and per keyless IP, with the same
 * 429 answers as the in-process limiter, and a transaction one of them fetched is a cache hit on the other.
 * With Redis stopped they keep serving, limiting each in process, and share again once it is back.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ApiKeySpec, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import { startTestGateway, waitFor } from '../helpers/gateway.js';
import { haveRedis, REDIS_SERVER, spawnRedis, testRedis, type TestRedis } from '../helpers/redis.js';
import { freePort, http } from '../sources/upstream/helpers.js';
import { countingProxy, type CountingProxy } from '../../scripts/lib/counting-proxy.js';

if (!haveRedis()) console.warn(`Redis test skipped: no REDIS_TEST_URL and ${REDIS_SERVER} not found (apt-get install -y redis-server)`);

// a fresh suffix per run: a Redis shared between runs (REDIS_TEST_URL) holds nothing these tests look for
const RUN = Math.random().toString(36).slice(2, 10);
const key = (name: string, rps = 2): ApiKeySpec => ({ key: `${name}-${RUN}`, networks: ['testnet', 'mainnet'], rps });
const KEYS = {
  v2: key('v2'),
  v3: key('v3'),
  shared: key('shared'),
  graphql: key('graphql'),
  down: key('down'),
  back: key('back'),
  // 1/s: the probe's bucket then lives about a second in Redis, long enough to be seen there
  probe: key('probe', 1),
  cache: key('cache', 0),
};
const API_KEYS = Object.values(KEYS);

/** The Redis key of a key's bucket, as src/pipeline/auth.ts names it. */
const bucketKey = (k: ApiKeySpec) => `tgw:rl:key:${createHash('sha256').update(k.key).digest().subarray(0, 16).toString('hex')}`;

/** An upstream-mode replica in front of `upstreamUrl`, with the test's keys and a keyless limit of 2/s on v2. */
async function replica(upstreamUrl: string, redisUrl: string | undefined, logs?: string[]): Promise<Gateway> {
  const base = loadConfig([], { BACKEND: 'toncenter', V2_URL: upstreamUrl, V3_URL: upstreamUrl, UPSTREAM_RPS: '0' }) as Config;
  const log = logs ? { level: 'info' as const, stream: { write: (line: string) => void logs.push(line) } } : undefined;
  return startGateway({ ...base, port: 0, quiet: true, apiKeys: API_KEYS, keylessRps: 2, redisUrl }, { log });
}

/** The gateway's own lines about Redis (not the per-request ones). */
const redisLines = (logs: string[]): { level: number; msg: string }[] =>
  logs.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => /^redis /.test(l.msg));

interface Hit {
  status: number;
  body: unknown;
  retryAfter: string | null;
  type: string | null;
}

async function hit(url: string, k?: ApiKeySpec, init: RequestInit = {}): Promise<Hit> {
  const res = await fetch(url, { ...init, headers: { ...(k ? { 'x-api-key': k.key } : {}), ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), retryAfter: res.headers.get('retry-after'), type: res.headers.get('content-type') };
}

/**
 * `n` requests spread over the bases in turn, sent at once (a bucket of 2/s refills a token only after
 * 500 ms, so they all meet the same bucket), the refused ones last.
 */
async function alternate(bases: string[], n: number, path: string, k?: ApiKeySpec, init?: RequestInit): Promise<Hit[]> {
  const hits = await Promise.all(Array.from({ length: n }, (_, i) => hit(`${bases[i % bases.length]}${path}`, k, init)));
  return hits.sort((a, b) => a.status - b.status);
}

const GRAPHQL: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: '{ __typename }' }),
};

describe.skipIf(!haveRedis())('replicas sharing Redis', () => {
  let redis: TestRedis;
  let client: Redis;
  let L: Gateway;
  let proxy: CountingProxy;
  let A: Gateway;
  let B: Gateway;
  let A0: Gateway;
  let B0: Gateway;

  beforeAll(async () => {
    redis = await testRedis();
    client = new Redis(redis.url);
    L = await startTestGateway({ seed: `redis-test-${RUN}` });
    proxy = await countingProxy(L.url);
    [A, B, A0, B0] = await Promise.all([
      replica(proxy.url, redis.url),
      replica(proxy.url, redis.url),
      replica(proxy.url, undefined),
      replica(proxy.url, undefined),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([A, B, A0, B0].map((g) => g?.close()));
    await proxy?.close();
    await L?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('enforces one key limit across both replicas, where each alone would have let every request through', async () => {
    const shared = await alternate([A.url, B.url], 4, '/api/v3/openapi.json', KEYS.shared);
    expect(shared.map((h) => h.status)).toEqual([200, 200, 429, 429]);
    expect(shared[2]!.body).toEqual({ code: 429, error: 'Ratelimit exceeded' });
    expect(shared[2]!.retryAfter).toBe('1');

    // the same sequence against two replicas without Redis: each sees 2 requests, within its burst of 2
    const apart = await alternate([A0.url, B0.url], 4, '/api/v3/openapi.json', KEYS.shared);
    expect(apart.map((h) => h.status)).toEqual([200, 200, 200, 200]);
    expect(await client.exists(bucketKey(KEYS.shared))).toBe(1);
  });

  it('answers 429 exactly as the in-process limiter does, on v2, v3 and GraphQL', async () => {
    const cases: [string, ApiKeySpec, RequestInit | undefined, unknown][] = [
      ['/api/v2/openapi.json', KEYS.v2, undefined, { ok: false, error: 'Ratelimit exceeded', code: 429 }],
      ['/api/v3/openapi.json', KEYS.v3, undefined, { code: 429, error: 'Ratelimit exceeded' }],
      ['/graphql', KEYS.graphql, GRAPHQL, { errors: [{ message: 'Ratelimit exceeded', extensions: { code: 'RATE_LIMITED' } }] }],
    ];
    for (const [path, k, init, body] of cases) {
      // A0 alone: one of three requests at once is over its burst of 2, refused in process
      const local = (await alternate([A0.url], 3, path, k, init))[2]!;
      const shared = (await alternate([A.url, B.url], 3, path, k, init))[2]!;
      expect(local).toMatchObject({ status: 429, body, retryAfter: '1' });
      expect(shared).toEqual(local);
    }
  });

  it('limits keyless v2 clients per IP across both replicas, and leaves keyless v3 alone', async () => {
    const v2 = await alternate([A.url, B.url], 4, '/api/v2/openapi.json');
    expect(v2.map((h) => h.status)).toEqual([200, 200, 429, 429]);
    expect(v2[3]!.body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429 });
    const v3 = await alternate([A.url, B.url], 4, '/api/v3/openapi.json');
    expect(v3.map((h) => h.status)).toEqual([200, 200, 200, 200]);
  });

  it('serves a transaction fetched through one replica from the cache on the other', async () => {
    const latest = (await http(`${L.url}/api/v3/transactions?limit=1&sort=desc`)).body as { transactions: { hash: string; lt: string; account: string }[] };
    const tx = latest.transactions[0]!;
    const v3 = `/api/v3/transactions?hash=${encodeURIComponent(tx.hash)}`;
    const v2 = `/api/v2/getTransactions?address=${encodeURIComponent(tx.account)}&lt=${tx.lt}&hash=${encodeURIComponent(tx.hash)}&limit=1`;
    const sharedBefore = B.upstream!.client.stats.sharedCacheHits;
    // with a key: the keyless v2 limit has been spent by the test above
    const withKey = { headers: { 'x-api-key': KEYS.cache.key } };

    const a3 = await http(`${A.url}${v3}`, withKey);
    expect(a3.status).toBe(200);
    expect((a3.body as { transactions: { hash: string }[] }).transactions[0]!.hash).toBe(tx.hash);
    const a2 = await http(`${A.url}${v2}`, withKey);
    expect(a2.status).toBe(200);
    expect(proxy.count('/api/v3/transactions')).toBe(1);
    expect(proxy.count('/api/v2/getTransactions')).toBe(1);

    const sentBefore = B.upstream!.client.stats.sent;
    expect(await http(`${B.url}${v3}`, withKey)).toEqual(a3);
    expect(await http(`${B.url}${v2}`, withKey)).toEqual(a2);
    expect(proxy.count('/api/v3/transactions')).toBe(1);
    expect(proxy.count('/api/v2/getTransactions')).toBe(1);
    expect(B.upstream!.client.stats.sent).toBe(sentBefore);
    expect(B.upstream!.client.stats.sharedCacheHits - sharedBefore).toBe(2);

    // every cached answer expires (a day for immutable ones), so Redis cannot grow without bound
    const keys = await client.keys('tgw:cache:*');
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const k of keys) {
      const ttl = await client.pttl(k);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
    }
  });

  describe('when Redis goes away', () => {
    let own: Awaited<ReturnType<typeof spawnRedis>>;
    let ownPort: number;
    let D1: Gateway;
    let D2: Gateway;
    let E: Gateway;
    const logsD1: string[] = [];
    const logsE: string[] = [];

    beforeAll(async () => {
      own = await spawnRedis();
      ownPort = Number(new URL(own.url).port);
      // E's Redis was never there: a port nothing listens on
      [D1, D2, E] = await Promise.all([
        replica(proxy.url, own.url, logsD1),
        replica(proxy.url, own.url),
        replica(proxy.url, `redis://127.0.0.1:${await freePort()}`, logsE),
      ]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([D1, D2, E].map((g) => g?.close()));
      await own?.stop();
    });

    it('keeps serving, limiting each replica in process, with no 5xx', async () => {
      await own.stop();
      const statuses = (await alternate([D1.url, D2.url], 4, '/api/v3/openapi.json', KEYS.down)).map((h) => h.status);
      // no shared bucket: each replica allows its own burst of 2
      expect(statuses).toEqual([200, 200, 200, 200]);
      const third = await hit(`${D1.url}/api/v3/openapi.json`, KEYS.down);
      expect(third).toMatchObject({ status: 429, body: { code: 429, error: 'Ratelimit exceeded' }, retryAfter: '1' });

      // the cache falls back to the upstream
      const before = proxy.count('/api/v3/masterchainBlockShards');
      const blocks = await http(`${D1.url}/api/v3/masterchainBlockShards?seqno=1`);
      expect(blocks.status).toBe(200);
      expect(proxy.count('/api/v3/masterchainBlockShards')).toBe(before + 1);

      for (const g of [D1, D2, E]) {
        expect((await http(`${g.url}/api/v3/masterchainInfo`)).status).toBe(200);
        expect((await http(`${g.url}/api/v2/getMasterchainInfo`)).status).toBe(200);
        expect((await http(`${g.url}/health`)).status).toBe(200);
      }
      // one warning per outage, however many requests and reconnection attempts it lasts
      for (const logs of [logsD1, logsE]) {
        // ioredis reports the lost connection on its own schedule, after the fallback has already served
        await waitFor(async () => (redisLines(logs).length > 0 ? true : undefined), 10_000);
        const lines = redisLines(logs);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/using in-process rate limits and cache/) });
      }
    });

    it('shares again once Redis is back on the same address', async () => {
      own = await spawnRedis(ownPort);
      const probe = new Redis(own.url);
      try {
        // each replica has reconnected once its request leaves the probe key's bucket in Redis
        for (const g of [D1, D2]) {
          await waitFor(async () => {
            await probe.del(bucketKey(KEYS.probe));
            await hit(`${g.url}/api/v3/openapi.json`, KEYS.probe);
            return (await probe.exists(bucketKey(KEYS.probe))) === 1 ? true : undefined;
          }, 20_000);
        }
      } finally {
        probe.disconnect();
      }
      const statuses = (await alternate([D1.url, D2.url], 4, '/api/v3/openapi.json', KEYS.back)).map((h) => h.status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      await waitFor(async () => (redisLines(logsD1).length >= 2 ? true : undefined), 10_000);
      expect(redisLines(logsD1).map((l) => l.level)).toEqual([40, 30]);
    });
  });
});
