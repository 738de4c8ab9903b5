/**
 * The upstream cache: finalised objects are served without a call, identical concurrent calls share one,
 * account state is reused only for ACCOUNT_TTL_MS, and the LRU stays within its byte bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { ResponseCache } from '../../src/remote/cache.js';
import { startFaultServer, type FaultServer } from '../sources/upstream/fault-server.js';
import { http, startUpstreamGateway } from '../sources/upstream/helpers.js';

const TTL_MS = 300;
const ADDR = '0:' + '22'.repeat(32);
const hash = (n: number) => encodeURIComponent(Buffer.alloc(32, n).toString('base64'));

describe('upstream cache', () => {
  let up: FaultServer;
  let B: Gateway;

  beforeAll(async () => {
    up = await startFaultServer();
    B = await startUpstreamGateway(up.url, { UPSTREAM_RPS: '0', ACCOUNT_TTL_MS: String(TTL_MS), UPSTREAM_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await B?.close();
    await up?.close();
  });

  it('answers a second identical transaction lookup without an upstream call', async () => {
    const v2 = `/api/v2/getTransactions?address=${ADDR}&lt=100&hash=${hash(1)}&limit=1`;
    const first = await http(`${B.url}${v2}`);
    expect(first.status).toBe(200);
    expect(await http(`${B.url}${v2}`)).toEqual(first);
    expect(up.count('/api/v2/getTransactions')).toBe(1);

    const v3 = `/api/v3/transactions?hash=${hash(1)}`;
    const a = await http(`${B.url}${v3}`);
    expect(a.status).toBe(200);
    expect(await http(`${B.url}${v3}`)).toEqual(a);
    expect(up.count('/api/v3/transactions')).toBe(1);
  });

  it('does not cache what can still change: the latest transactions of an account', async () => {
    const before = up.count('/api/v2/getTransactions');
    await http(`${B.url}/api/v2/getTransactions?address=${ADDR}&limit=1`);
    await http(`${B.url}/api/v2/getTransactions?address=${ADDR}&limit=1`);
    expect(up.count('/api/v2/getTransactions') - before).toBe(2);
  });

  it('shares one upstream call among identical concurrent requests', async () => {
    up.slowMs = 300;
    up.queue.push('slow');
    const before = up.count('/api/v3/transactions');
    const answers = await Promise.all(Array.from({ length: 5 }, () => http(`${B.url}/api/v3/transactions?hash=${hash(2)}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(up.count('/api/v3/transactions') - before).toBe(1);
  });

  it('reuses an account balance only for ACCOUNT_TTL_MS', async () => {
    up.balance = 1_000n;
    const url = `${B.url}/api/v2/getAddressBalance?address=${ADDR}`;
    expect((await http(url)).body).toEqual({ ok: true, result: '1000' });
    up.balance = 2_000n;
    expect((await http(url)).body).toEqual({ ok: true, result: '1000' });
    await new Promise((r) => setTimeout(r, TTL_MS + 50));
    expect((await http(url)).body).toEqual({ ok: true, result: '2000' });
    expect(up.count('/api/v2/getAddressBalance')).toBe(2);

    const v3 = `${B.url}/api/v3/addressInformation?address=${ADDR}`;
    expect(((await http(v3)).body as { balance: string }).balance).toBe('2000');
    up.balance = 3_000n;
    await new Promise((r) => setTimeout(r, TTL_MS + 50));
    expect(((await http(v3)).body as { balance: string }).balance).toBe('3000');
  });

  it('keeps the LRU within its byte bound, dropping the least recently used', () => {
    const cache = new ResponseCache(1_000);
    cache.set('a', 'x'.repeat(100));
    cache.set('b', 'y'.repeat(100));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', 'z'.repeat(300));
    expect(cache.size).toBeLessThanOrEqual(1_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    cache.set('huge', 'h'.repeat(10_000));
    expect(cache.get('huge')).toBeUndefined();
  });
});
