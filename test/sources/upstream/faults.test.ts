/**
 * Instance B in upstream mode in front of a misbehaving upstream (fault-server.ts): every fault maps to its
 * documented status, sends are never repeated blindly, B recovers on the next request once the upstream is
 * healthy, and the upstream never sees more than UPSTREAM_RPS requests in any second.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { Gateway } from '../../../src/gateway.js';
import { UpstreamClient } from '../../../src/remote/client.js';
import { maxInWindow, startFaultServer, type Fault, type FaultServer } from './fault-server.js';
import { ADDR, BALANCE, BOC, freePort, http, startUpstreamGateway } from './helpers.js';

const RPS = 10;
const TIMEOUT_MS = 400;


const gqlCode = async (url: string): Promise<string | undefined> => {
  const r = await http(`${url}/graphql`, { body: { query: '{ masterchainInfo { last { seqno } } }' } });
  return (r.body as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code;
};

describe('upstream faults', () => {
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

  /** Asserts a plain read succeeds; faults already queued for it still apply. */
  const healthy = async () => {
    up.fallback = 'ok';
    expect(await http(`${B.url}${BALANCE}`)).toEqual({ status: 200, body: { ok: true, result: '1000' } });
  };

  /** Requests the upstream saw while `fn` ran. */
  async function seen(fn: () => Promise<void>): Promise<{ path: string; fault: Fault; t: number }[]> {
    const from = up.log.length;
    await fn();
    return up.log.slice(from);
  }

  it('passes a healthy answer through, unknown fields included, and reports ready', async () => {
    await healthy();
    const mc = await http(`${B.url}/api/v2/getMasterchainInfo`);
    expect(mc.status).toBe(200);
    expect((mc.body as { result: { future_field: number } }).result.future_field).toBe(42);
    expect(await http(`${B.url}/ready`)).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('maps a slow upstream to 504 (v2 LITE_SERVER_NETWORK timeout, v3 {code,error}, GraphQL UPSTREAM_TIMEOUT)', async () => {
    up.fallback = 'slow';
    const started = performance.now();
    expect(await http(`${B.url}${BALANCE}`)).toEqual({ status: 504, body: { ok: false, error: 'LITE_SERVER_NETWORK timeout', code: 504 } });
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 500);
    const v3 = await http(`${B.url}/api/v3/addressInformation?address=${ADDR}`);
    expect(v3.status).toBe(504);
    expect(v3.body).toEqual({ code: 504, error: `upstream timeout: no answer within ${TIMEOUT_MS} ms` });
    expect(await gqlCode(B.url)).toBe('UPSTREAM_TIMEOUT');
    await healthy();
  });

  it('retries a read over a reset connection, and answers 502 when resets persist', async () => {
    up.queue.push('reset');
    const once = await seen(() => healthy());
    expect(once.map((r) => r.fault)).toEqual(['reset', 'ok']);

    up.fallback = 'reset';
    const all = await seen(async () => {
      const r = await http(`${B.url}${BALANCE}`);
      expect(r.status).toBe(502);
      expect((r.body as { error: string }).error).toMatch(/^v2 upstream unreachable: connection closed/);
    });
    expect(all).toHaveLength(3);
    expect((await http(`${B.url}/ready`)).status).toBe(503);
    expect((await http(`${B.url}/health`)).status).toBe(200);
    await healthy();
    expect((await http(`${B.url}/ready`)).status).toBe(200);
  });

  it('never repeats a send after a lost connection', async () => {
    up.queue.push('reset');
    const v2 = await seen(async () => {
      const r = await http(`${B.url}/api/v2/sendBoc`, { body: { boc: BOC } });
      expect(r.status).toBe(502);
    });
    expect(v2.map((r) => r.path)).toEqual(['/api/v2/sendBoc']);

    up.queue.push('500');
    const v3 = await seen(async () => {
      const r = await http(`${B.url}/api/v3/message`, { body: { boc: BOC } });
      expect(r.status).toBe(502);
    });
    expect(v3.map((r) => r.path)).toEqual(['/api/v3/message']);
    expect(await http(`${B.url}/api/v2/sendBoc`, { body: { boc: BOC } })).toEqual({ status: 200, body: { ok: true, result: { '@type': 'ok', '@extra': 'tag' } } });
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    up.queue.push('429-retry-after');
    const reqs = await seen(() => healthy());
    expect(reqs.map((r) => r.fault)).toEqual(['429-retry-after', 'ok']);
    expect(reqs[1]!.t - reqs[0]!.t).toBeGreaterThanOrEqual(990);
  });

  it('backs off on 429 without Retry-After, a bounded number of times, then answers 429', async () => {
    up.fallback = '429';
    const reqs = await seen(async () => {
      expect(await http(`${B.url}${BALANCE}`)).toEqual({ status: 429, body: { ok: false, error: 'Ratelimit exceeded', code: 429 } });
    });
    expect(reqs).toHaveLength(4);
    const v3 = await http(`${B.url}/api/v3/addressInformation?address=${ADDR}`);
    expect(v3).toEqual({ status: 429, body: { code: 429, error: 'Ratelimit exceeded' } });
    expect(await gqlCode(B.url)).toBe('UPSTREAM_RATE_LIMITED');
    await healthy();
  });

  it('maps 500 pages to 502 after retries, passes API 500s and 4xx through', async () => {
    up.fallback = '500';
    const reqs = await seen(async () => {
      const r = await http(`${B.url}${BALANCE}`);
      expect(r.status).toBe(502);
      expect((r.body as { error: string }).error).toBe('v2 upstream answered HTTP 500: <html><body>Internal Server Error</body></html>');
    });
    expect(reqs).toHaveLength(3);
    expect(await gqlCode(B.url)).toBe('UPSTREAM_ERROR');

    up.fallback = '500-api';
    const api = await seen(async () => {
      expect(await http(`${B.url}${BALANCE}`)).toEqual({ status: 500, body: { ok: false, error: 'LITE_SERVER_UNKNOWN: boom', code: 500 } });
    });
    expect(api).toHaveLength(1);
    expect(await http(`${B.url}/api/v3/addressInformation?address=${ADDR}`)).toEqual({
      status: 500,
      body: { code: 500, error: 'timeout: context deadline exceeded' },
    });

    up.fallback = '403';
    expect(await http(`${B.url}${BALANCE}`)).toEqual({ status: 403, body: { ok: false, error: 'Network not allowed', code: 403 } });
    expect(await http(`${B.url}/api/v3/addressInformation?address=${ADDR}`)).toEqual({ status: 403, body: { code: 403, error: 'Network not allowed' } });
    await healthy();
  });

  it('maps truncated and non-JSON bodies to 502', async () => {
    up.fallback = 'truncated';
    let r = await http(`${B.url}${BALANCE}`);
    expect(r.status).toBe(502);
    expect((r.body as { error: string }).error).toMatch(/^v2 upstream unreachable: /);

    up.fallback = 'not-json';
    r = await http(`${B.url}${BALANCE}`);
    expect(r).toEqual({ status: 502, body: { ok: false, error: 'v2 upstream answered HTTP 200 with a body that is not JSON', code: 502 } });
    r = await http(`${B.url}/api/v3/masterchainInfo`);
    expect(r).toEqual({ status: 502, body: { code: 502, error: 'v3 upstream answered HTTP 200 with a body that is not JSON' } });
    await healthy();
  });

  it(`never sends more than ${RPS} requests in any second, also under a burst`, async () => {
    const from = up.log.length;
    const answers = await Promise.all(
      Array.from({ length: 3 * RPS }, (_, i) => http(`${B.url}/api/v2/getAddressBalance?address=0:${i.toString(16).padStart(64, '0')}`)),
    );
    // the upstream attempt timeout here is 400 ms, so on a loaded machine an answer may be a 504; anything else is a fault
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 504)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2 * RPS);
    const burst = up.log.slice(from).map((r) => r.t);
    const gaps = burst.slice(1).map((t, i) => t - burst[i]!);
    const minGap = Math.min(...gaps);
    // gaps are read where the requests arrive, so a loaded machine can delay one and shorten the next gap; a
    // pacer that let a burst through would show gaps near 0
    expect(minGap).toBeGreaterThanOrEqual(1000 / RPS / 2);
    // every request B sent during this file, retries and probes included
    expect(maxInWindow(up.log.map((r) => r.t), 1000)).toBeLessThanOrEqual(RPS);
    console.info(`pacing at UPSTREAM_RPS=${RPS}: ${burst.length} requests, min gap ${minGap.toFixed(1)} ms, busiest second ${maxInWindow(up.log.map((r) => r.t), 1000)}`);
  });

  it('answers 502 connection refused while the upstream is down; /ready 503, /health 200', async () => {
    const port = await freePort();
    const down = await startUpstreamGateway(`http://127.0.0.1:${port}`, { UPSTREAM_TIMEOUT_MS: '1000', UPSTREAM_RPS: '0' });
    try {
      const r = await http(`${down.url}${BALANCE}`);
      expect(r).toEqual({ status: 502, body: { ok: false, error: 'v2 upstream unreachable: connection refused (ECONNREFUSED)', code: 502 } });
      const v3 = await http(`${down.url}/api/v3/masterchainInfo`);
      expect(v3).toEqual({ status: 502, body: { code: 502, error: 'v3 upstream unreachable: connection refused (ECONNREFUSED)' } });
      expect((await http(`${down.url}/health`)).status).toBe(200);
      const ready = await http(`${down.url}/ready`);
      expect(ready.status).toBe(503);
      expect((ready.body as { error: string }).error).toContain('connection refused');
    } finally {
      await down.close();
    }
  });

  it('sheds callers past the bounded queue with a 503', async () => {
    const client = new UpstreamClient({ v2Url: up.url, v3Url: up.url, apiKey: '', rps: 5, timeoutMs: 1000, maxBytes: 1024 * 1024, cacheMb: 0, accountTtlMs: 0, maxQueue: 2 });
    try {
      const calls = Array.from({ length: 5 }, (_, i) =>
        client.call({ api: 'v2', method: 'GET', path: '/getAddressBalance', query: [['address', `0:${String(i).padStart(64, '0')}`]], idempotent: true }),
      );
      const settled = await Promise.allSettled(calls);
      const shed = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason as ApiError);
      expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
      expect(shed).toHaveLength(2);
      expect(shed[0]!.status).toBe(503);
      expect(shed[0]!.message).toMatch(/^upstream request queue is full \(2 waiting\); retry after about \d+ s$/);
    } finally {
      await client.close();
    }
  });
});
