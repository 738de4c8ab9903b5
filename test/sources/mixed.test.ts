/**
 * Any v2 source with any v3 source: the local chain for one interface and an upstream (a stand-in toncenter on
 * loopback) for the other, each route answering from its own source; two upstreams with their own keys.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';

const ADDR = '0:' + '22'.repeat(32);
/** what the stand-in reports for every account: the local chain has never heard of ADDR */
const UPSTREAM_BALANCE = '123456789';

interface Seen {
  path: string;
  key: string | undefined;
}

/** A toncenter that knows one balance and the masterchain tip, and logs each request's path and key. */
async function standIn(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const last = { workchain: -1, shard: '8000000000000000', seqno: 4242 };
  const answers: Record<string, unknown> = {
    '/api/v2/getAddressBalance': { ok: true, result: UPSTREAM_BALANCE },
    '/api/v2/getMasterchainInfo': { ok: true, result: { '@type': 'blocks.masterchainInfo', last: { '@type': 'ton.blockIdExt', ...last } } },
    '/api/v3/masterchainInfo': { last, first: { ...last, seqno: 1 } },
    '/api/v3/addressInformation': { balance: UPSTREAM_BALANCE, status: 'active', code: null, data: null, last_transaction_lt: null, last_transaction_hash: null, frozen_hash: null },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    seen.push({ path, key: req.headers['x-api-key'] as string | undefined });
    const body = answers[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function start(env: NodeJS.ProcessEnv): Promise<Gateway> {
  const config = loadConfig([], { KEYLESS_RPS: '0', UPSTREAM_RPS: '0', ...env }) as Config;
  return startGateway({ ...config, port: 0, quiet: true, blockInterval: 0 });
}

const json = async (url: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('mixed sources', () => {
  let upstream: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    upstream = await standIn();
  });
  afterAll(() => upstream?.close());

  it('v2 from the local chain, v3 from an upstream', async () => {
    const gw = await start({ V2_SOURCE: 'localnet', V3_SOURCE: upstream.url });
    try {
      expect(gw.sources.v2).not.toBe(gw.sources.v3);
      expect(gw.chain).toBeDefined();
      const v2 = await json(`${gw.url}/api/v2/getAddressBalance?address=${ADDR}`);
      expect(v2.body).toMatchObject({ ok: true, result: '0' });
      const v3 = await json(`${gw.url}/api/v3/addressInformation?address=${ADDR}&use_v2=false`);
      expect(v3.body).toMatchObject({ balance: UPSTREAM_BALANCE });
      // the local chain's own routes stay, whichever interface it serves
      expect((await fetch(`${gw.url}/localnet/wallets`)).status).toBe(200);
      expect((await json(`${gw.url}/ready`)).status).toBe(200);
      expect((await json(`${gw.url}/health`)).body).toMatchObject({ status: 'ok' });
      // nothing of v2 reached the upstream, not even a readiness probe
      expect(upstream.seen.filter((s) => s.path.startsWith('/api/v2'))).toEqual([]);
    } finally {
      await gw.close();
    }
  });

  it('v2 from an upstream, v3 from the local chain', async () => {
    upstream.seen.length = 0;
    const gw = await start({ V2_SOURCE: upstream.url, V3_SOURCE: 'localnet' });
    try {
      const v2 = await json(`${gw.url}/api/v2/getAddressBalance?address=${ADDR}`);
      expect(v2.body).toMatchObject({ ok: true, result: UPSTREAM_BALANCE });
      const v3 = await json(`${gw.url}/api/v3/masterchainInfo`);
      expect((v3.body.last as { seqno: number }).seqno).toBe(gw.chain!.store.lastMc.seqno);
      expect((await json(`${gw.url}/ready`)).status).toBe(200);
      expect(upstream.seen.filter((s) => s.path.startsWith('/api/v3'))).toEqual([]);
    } finally {
      await gw.close();
    }
  });

  it('one upstream client for both interfaces when their settings agree, two with keys of their own', async () => {
    const shared = await start({ V2_SOURCE: upstream.url, V3_SOURCE: upstream.url });
    try {
      expect(shared.sources.v2).toBe(shared.sources.v3);
      expect(shared.chain).toBeUndefined();
    } finally {
      await shared.close();
    }

    upstream.seen.length = 0;
    const apart = await start({ BACKEND: 'toncenter', V2_URL: upstream.url, V3_URL: upstream.url, V2_UPSTREAM_API_KEY: 'two', V3_UPSTREAM_API_KEY: 'three' });
    try {
      expect(apart.sources.v2).not.toBe(apart.sources.v3);
      await json(`${apart.url}/api/v2/getAddressBalance?address=${ADDR}`);
      await json(`${apart.url}/api/v3/addressInformation?address=${ADDR}&use_v2=false`);
      const keys = new Set(upstream.seen.map((s) => `${s.path.slice(0, 7)} ${s.key}`));
      expect(keys).toEqual(new Set(['/api/v2 two', '/api/v3 three']));
    } finally {
      await apart.close();
    }
  });
});
