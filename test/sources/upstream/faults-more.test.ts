/**
 * More upstream faults than faults.test.ts: an answer cut after its headers, an upstream that vanishes with
 * answers in flight and comes back on the same port, hosts that do not resolve and ports that refuse, and a
 * burst of 1,000 GraphQL requests against a slow upstream. Each ends in a documented status (502, 504, or 503
 * with Retry-After when the paced queue is full), memory stays bounded, and the gateway recovers unaided.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import type { Gateway } from '../../../src/gateway.js';
import { buildServer } from '../../../src/server.js';
import { createUpstream } from '../../../src/remote/upstream.js';
import { startFaultServer, type Fault, type FaultServer } from './fault-server.js';
import { ADDR, BALANCE, BOC, freePort, http, startUpstreamGateway } from './helpers.js';
import { waitFor } from '../../helpers/wait.js';

const RPS = 10;
const TIMEOUT_MS = 400;
const MB = 1024 * 1024;

interface GqlError {
  message: string;
  extensions?: { code?: string; status?: number; retryAfter?: number };
}


/** One GraphQL POST; keeps the Retry-After header, which `http()` drops. */
async function gql(url: string, query: string): Promise<{ status: number; retryAfter: string | null; data?: unknown; errors?: GqlError[] }> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as { data?: unknown; errors?: GqlError[] };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ...body };
}

/**
 * The gateway's server and upstream clients with a shorter queue than the default 30 s worth, so the burst
 * drains within the file's time budget; everything else is the production wiring.
 */
async function startShortQueueGateway(upstreamUrl: string, rps: number, maxQueue: number): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadConfig([], { BACKEND: 'toncenter', V2_URL: upstreamUrl, V3_URL: upstreamUrl, KEYLESS_RPS: '0' }) as Config;
  const upstream = createUpstream({ ...config.upstream, rps, timeoutMs: TIMEOUT_MS, accountTtlMs: 0 }, { maxQueue });
  const app = await buildServer({ config: { ...config, quiet: true }, capabilities: { v2: upstream.v2, v3: upstream.v3 }, isReady: () => true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await upstream.close();
    },
  };
}

const balanceQuery = (addr: string) => `{ account(address: "${addr}") { balance } }`;

describe('upstream faults, continued', () => {
  let up: FaultServer;
  let B: Gateway;

  beforeAll(async () => {
    up = await startFaultServer();
    up.slowMs = 1_500;
    B = await startUpstreamGateway(up.url, { UPSTREAM_RPS: String(RPS), UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), ACCOUNT_TTL_MS: '0' });
  });
  afterAll(async () => {
    await B?.close();
    await up?.close();
  });
  beforeEach(() => {
    up.queue.length = 0;
    up.fallback = 'ok';
  });

  const healthy = async (gw: Gateway = B) => {
    up.fallback = 'ok';
    expect(await http(`${gw.url}${BALANCE}`)).toEqual({ status: 200, body: { ok: true, result: '1000' } });
  };

  async function seen(fn: () => Promise<void>): Promise<Fault[]> {
    const from = up.log.length;
    await fn();
    return up.log.slice(from).map((r) => r.fault);
  }

  it('answers 502 when the upstream sends headers and then loses the socket mid-body; reads retried, sends not', async () => {
    up.queue.push('cut');
    expect(await seen(() => healthy())).toEqual(['cut', 'ok']);

    up.fallback = 'cut';
    const reads = await seen(async () => {
      const r = await http(`${B.url}${BALANCE}`);
      expect(r.status).toBe(502);
      expect((r.body as { error: string }).error).toMatch(/^v2 upstream unreachable: connection closed before a complete answer/);
      const v3 = await http(`${B.url}/api/v3/addressInformation?address=${ADDR}`);
      expect(v3.status).toBe(502);
      expect((v3.body as { code: number }).code).toBe(502);
    });
    expect(reads).toEqual(Array(6).fill('cut'));
    const g = await gql(B.url, balanceQuery(ADDR));
    expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });

    // the send may have arrived: it is reported, never repeated
    const sends = await seen(async () => {
      expect((await http(`${B.url}/api/v2/sendBoc`, { body: { boc: BOC } })).status).toBe(502);
    });
    expect(sends).toEqual(['cut']);
    await healthy();
  });

  it('answers 502 while the upstream has vanished with answers in flight, and recovers when it is back on the same port', async () => {
    const gone = await startFaultServer();
    const port = Number(new URL(gone.url).port);
    gone.fallback = 'slow';
    gone.slowMs = 5_000;
    const gw = await startUpstreamGateway(gone.url, { UPSTREAM_RPS: '0', UPSTREAM_TIMEOUT_MS: '3000', ACCOUNT_TTL_MS: '0' });
    let back: FaultServer | undefined;
    try {
      const inFlight = Array.from({ length: 5 }, (_, i) => http(`${gw.url}/api/v2/getAddressBalance?address=0:${String(i).padStart(64, '0')}`));
      // all five reached the upstream, which holds them
      await waitFor(async () => (gone.log.length >= 5 ? true : undefined), 10_000, 10);
      expect(gone.log.length).toBe(5);
      await gone.close();
      for (const r of await Promise.all(inFlight)) {
        expect(r.status).toBe(502);
        // the retries of the lost read find nobody listening
        expect((r.body as { error: string }).error).toBe('v2 upstream unreachable: connection refused (ECONNREFUSED)');
      }
      expect((await http(`${gw.url}/ready`)).status).toBe(503);
      expect((await http(`${gw.url}/health`)).status).toBe(200);

      back = await startFaultServer({ port });
      await healthy(gw);
      expect((await http(`${gw.url}/ready`)).status).toBe(200);
    } finally {
      await gw.close();
      await back?.close();
    }
  });

  it('answers 502 for a refused connection, on REST and GraphQL; /health stays 200', async () => {
    const refused = `http://127.0.0.1:${await freePort()}`;
    // a host that does not resolve is not tried: its lookup would reach the system resolver, off this machine
    const cases = [{ url: refused, cause: /connection refused \(ECONNREFUSED\)$/ }];
    for (const { url, cause } of cases) {
      const gw = await startUpstreamGateway(url, { UPSTREAM_RPS: '0', UPSTREAM_TIMEOUT_MS: '2000' });
      try {
        const started = performance.now();
        const v2 = await http(`${gw.url}${BALANCE}`);
        expect(v2.status).toBe(502);
        expect((v2.body as { error: string }).error).toMatch(/^v2 upstream unreachable: /);
        expect((v2.body as { error: string }).error).toMatch(cause);
        const v3 = await http(`${gw.url}/api/v3/masterchainInfo`);
        expect(v3.status).toBe(502);
        expect((v3.body as { error: string }).error).toMatch(cause);
        const g = await gql(gw.url, balanceQuery(ADDR));
        expect(g.status).toBe(200);
        expect(g.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });
        // bounded: two retries with short backoff, not the whole timeout
        expect(performance.now() - started).toBeLessThan(6_000);
        expect((await http(`${gw.url}/health`)).status).toBe(200);
        const ready = await http(`${gw.url}/ready`);
        expect(ready.status).toBe(503);
        expect((ready.body as { error: string }).error).toMatch(cause);
      } finally {
        await gw.close();
      }
    }
  });

  it('sheds a burst of 1,000 GraphQL requests on a slow upstream with 503 + Retry-After, 504s the rest, stays bounded, recovers', async () => {
    const BURST_RPS = 20;
    const QUEUE = 100;
    const gw = await startShortQueueGateway(up.url, BURST_RPS, QUEUE);
    try {
      up.fallback = 'slow';
      const before = process.memoryUsage();
      let peakRss = before.rss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 100);
      const started = performance.now();
      const sent = up.log.length;
      let answers: Awaited<ReturnType<typeof gql>>[];
      // REST probes that slipped into a freed slot reach the upstream too
      let admittedProbes = 0;
      try {
        let shedSoFar = 0;
        const burst = Promise.all(
          Array.from({ length: 1000 }, async (_, i) => {
            const a = await gql(gw.url, balanceQuery(`0:${i.toString(16).padStart(64, '0')}`));
            if (a.errors?.[0]?.extensions?.status === 503) shedSoFar++;
            return a;
          }),
        );
        // a shed answer proves the queue is full right now, and the rest of the burst keeps it full
        await waitFor(async () => (shedSoFar > 0 ? true : undefined), 30_000, 10);
        // REST callers meet the same full queue: 503 in their own envelope, with the header. The queue drains a
        // slot every 1/BURST_RPS s, so a caller may slip into a freed slot (and time out later): several ask at once
        const probes = async (url: (i: number) => string) => {
          const all = await Promise.all(Array.from({ length: 6 }, (_, i) => fetch(url(i))));
          const refused = all.filter((r) => r.status === 503);
          admittedProbes += all.length - refused.length;
          expect(refused.length).toBeGreaterThan(0);
          for (const r of all) expect([503, 504]).toContain(r.status);
          return refused[0]!;
        };
        const [v2, v3] = await Promise.all([
          probes((i) => `${gw.url}/api/v2/getAddressBalance?address=0:${'ab'.repeat(31)}${i.toString(16).padStart(2, '0')}`),
          probes((i) => `${gw.url}/api/v3/addressInformation?address=0:${'cd'.repeat(31)}${i.toString(16).padStart(2, '0')}`),
        ]);
        expect(Number(v2.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await v2.json()).toMatchObject({ ok: false, code: 503, error: expect.stringMatching(/^upstream request queue is full/) });
        expect(Number(v3.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await v3.json()).toMatchObject({ code: 503, error: expect.stringMatching(/^upstream request queue is full/) });
        answers = await burst;
      } finally {
        clearInterval(sampler);
      }
      const took = performance.now() - started;
      const after = process.memoryUsage();

      const shed = answers.filter((a) => a.errors?.[0]?.extensions?.status === 503);
      const timedOut = answers.filter((a) => a.errors?.[0]?.extensions?.code === 'UPSTREAM_TIMEOUT');
      expect(answers.every((a) => a.status === 200 && a.errors?.length === 1)).toBe(true);
      expect(shed.length + timedOut.length).toBe(1000);
      expect(timedOut.length).toBeGreaterThan(QUEUE);
      expect(shed.length).toBeGreaterThan(500);
      for (const s of shed) {
        expect(s.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', status: 503 });
        expect(s.errors![0]!.message).toMatch(/upstream request queue is full/);
        expect(Number(s.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(s.errors![0]!.extensions!.retryAfter).toBe(Number(s.retryAfter));
      }
      // shed callers cost the upstream nothing: only admitted ones were sent, each at most once (a timeout is not
      // retried); an admitted call whose deadline passed while it still waited for its turn is never sent at all
      const reached = up.log.length - sent;
      expect(reached).toBeLessThanOrEqual(timedOut.length + admittedProbes);
      expect(reached).toBeGreaterThanOrEqual(QUEUE);

      const rssGrowth = (peakRss - before.rss) / MB;
      const heapGrowth = (after.heapUsed - before.heapUsed) / MB;
      expect(rssGrowth).toBeLessThan(200);
      expect(heapGrowth).toBeLessThan(200);
      console.info(
        `burst of 1000 GraphQL on a slow upstream (rps ${BURST_RPS}, queue ${QUEUE}, timeout ${TIMEOUT_MS} ms): ${shed.length} shed 503 + Retry-After ` +
          `${shed[0]?.retryAfter} s, ${timedOut.length} timed out 504, done in ${(took / 1000).toFixed(1)} s; ` +
          `peak RSS +${rssGrowth.toFixed(0)} MB (${(before.rss / MB).toFixed(0)} -> ${(peakRss / MB).toFixed(0)} MB), heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(0)} MB`,
      );

      // nobody restarts anything: the queue has drained and the next call is answered
      up.fallback = 'ok';
      expect(await http(`${gw.url}${BALANCE}`)).toEqual({ status: 200, body: { ok: true, result: '1000' } });
      const g = await gql(gw.url, balanceQuery(ADDR));
      expect(g).toMatchObject({ status: 200, data: { account: { balance: '0' } } });
      expect(g.errors).toBeUndefined();
    } finally {
      await gw.close();
    }
  }, 40_000);
});
