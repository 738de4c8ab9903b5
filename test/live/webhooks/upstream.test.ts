/**
 * Webhooks in upstream mode, in front of a local-chain gateway, with the same guarantees as on the local chain:
 * every event of the upstream's stream delivered exactly once after deduplication and in order, each body the
 * one a Streaming v2 client of the front gateway gets, all webhooks on the front's one upstream connection; a
 * receiver down and back loses nothing; a receiver answering 500 is paused after N attempts while another goes
 * on, and resumes from its cursor. Without Redis the front's cursors do not outlive it: after a restart the
 * webhook is paused saying so, never skipping silently. With Redis, two replicas share the webhooks and one
 * delivers each under a lease; when it stops, the other goes on from the cursor, and nothing is lost.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import { startGateway, type Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import { SseClient } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { REDIS_SERVER, spawnRedis, type TestRedis } from '../../helpers/redis.js';
import { Receiver } from '../../helpers/webhook-receiver.js';
import { api, fresh, transfers } from '../../helpers/webhooks.js';

const KEY = 'upstream-webhooks';
const TYPES = ['transactions', 'account_state_change'];
let local: Gateway;
let front: Gateway;
const receivers: Receiver[] = [];
const streams: SseClient[] = [];
const dirs: string[] = [];

/** A gateway in upstream mode in front of the local one, with short retry delays and loopback receivers allowed. */
async function frontGateway(env: NodeJS.ProcessEnv = {}, leaseTtlMs?: number): Promise<Gateway> {
  const config = loadConfig([], {
    BACKEND: 'toncenter',
    V2_URL: local.url,
    V3_URL: local.url,
    KEYLESS_RPS: '0',
    UPSTREAM_STREAM: 'ws',
    POLL_INTERVAL_MS: '600000',
    API_KEYS: `${KEY}:testnet:0`,
    WEBHOOKS_PRIVATE_TARGETS: 'allow',
    WEBHOOKS_BACKOFF_MS: '100',
    WEBHOOKS_MAX_BACKOFF_MS: '1600',
    WEBHOOKS_MAX_ATTEMPTS: '8',
    ...env,
  }) as Config;
  return startGateway({ ...config, port: 0, quiet: true }, leaseTtlMs ? { webhooks: { leaseTtlMs } } : {});
}

beforeAll(async () => {
  local = await startTestGateway({ blockInterval: 0 });
  front = await frontGateway();
}, 60_000);

afterAll(async () => {
  for (const s of streams) s.close();
  for (const r of receivers) await r.stop();
  await front?.close();
  await local?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function receiver(): Promise<Receiver> {
  const r = await Receiver.start();
  receivers.push(r);
  return r;
}

async function webhook(gw: Gateway, rx: Receiver, addresses: Address[]): Promise<string> {
  const made = await api(gw.url, KEY, 'POST', '', { url: rx.url, types: TYPES, addresses: addresses.map((a) => rawUpper(a)) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  rx.secret = made.body.secret;
  return made.body.id;
}

async function mirror(gw: Gateway, addresses: Address[]): Promise<SseClient> {
  const s = await SseClient.open(gw.url, { types: TYPES, addresses: addresses.map((a) => rawUpper(a)) });
  expect(s.status).toBe(200);
  await s.next();
  streams.push(s);
  return s;
}

/** Resolves once the local gateway's hub routes these addresses: the front's upstream subscription carries them. */
const watchedUpstream = (addresses: Address[]) =>
  waitFor(async () => (addresses.every((a) => local.liveHub!.interest().addresses.has(rawUpper(a))) ? true : undefined));

const finalizedOf = (s: SseClient) => s.frames.filter((f) => f.data?.cursor !== undefined);
const credit = async (to: Address, n: number) => {
  for (let i = 0; i < n; i++) await local.chain!.faucet(to, 10_000_000n + BigInt(i));
};

function sameAsStream(rx: Receiver, s: SseClient): void {
  const want = finalizedOf(s);
  const got = rx.distinct().filter((r) => r.status === 200);
  expect(got.map((r) => r.headers['x-webhook-event-id'])).toEqual(want.map((f) => f.id));
  for (const [i, r] of got.entries()) {
    expect(r.signed).toBe(true);
    expect(r.event).toEqual(want[i]!.data);
  }
}

describe('webhooks in upstream mode', () => {
  it('deliver every event of 200 transfers exactly once and in order, all webhooks on one upstream connection', async () => {
    const wallet = local.chain!.keyedWallets()[0]!;
    const to = Array.from({ length: 5 }, fresh);
    const watched = [wallet.contract.address, ...to];
    const rx = await receiver();
    const other = await receiver();
    await webhook(front, rx, watched);
    await webhook(front, other, to.slice(0, 1));
    const s = await mirror(front, watched);
    await watchedUpstream(watched);
    // the front gateway is one client of the local one, whatever it serves
    expect(local.liveHub!.size).toBe(1);
    await transfers(local, wallet, to, 200);
    await waitFor(async () => (finalizedOf(s).filter((f) => f.data.type === 'transactions').length >= 200 ? true : undefined), 60_000);
    await rx.until(() => rx.distinct().length >= finalizedOf(s).length, 60_000);
    sameAsStream(rx, s);
    await other.until((got) => got.filter((r) => r.event.type === 'transactions').length >= 40);
  }, 90_000);

  it('lose nothing while a receiver is down', async () => {
    const a = fresh();
    const down = await receiver();
    const id = await webhook(front, down, [a]);
    const s = await mirror(front, [a]);
    await watchedUpstream([a]);
    await down.stop();
    await credit(a, 4);
    await waitFor(async () => ((await api(front.url, KEY, 'GET', `/${id}`)).body.failed_attempts >= 2 ? true : undefined));
    await down.listen();
    await down.until(() => finalizedOf(s).length > 0 && down.distinct().length >= finalizedOf(s).length, 30_000);
    sameAsStream(down, s);
  }, 60_000);

  it('pause a webhook answered 500 after N attempts while another goes on, and resume it from its cursor', async () => {
    const a = fresh();
    const healthy = await receiver();
    const failing = await receiver();
    failing.behaviour = () => ({ status: 500 });
    await webhook(front, healthy, [a]);
    const bad = await webhook(front, failing, [a]);
    const s = await mirror(front, [a]);
    await watchedUpstream([a]);
    await credit(a, 4);
    const paused = await waitFor(async () => {
      const st = (await api(front.url, KEY, 'GET', `/${bad}`)).body;
      return st.paused ? st : undefined;
    }, 30_000);
    expect(paused).toMatchObject({ failed_attempts: 8, last_error: 'receiver answered 500', failed_cursor: failing.got[0]!.headers['x-webhook-event-id'] });
    await healthy.until(() => finalizedOf(s).length > 0 && healthy.distinct().length >= finalizedOf(s).length, 30_000);
    sameAsStream(healthy, s);
    failing.behaviour = () => ({ status: 200 });
    failing.got.length = 0;
    expect((await api(front.url, KEY, 'PATCH', `/${bad}`, {})).body.paused).toBe(false);
    await failing.until(() => failing.distinct().length >= finalizedOf(s).length);
    sameAsStream(failing, s);
  }, 60_000);

  it('without Redis, after a restart, pause a webhook whose cursor died with the process, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-upstream-'));
    dirs.push(dir);
    const a = fresh();
    const rx = await receiver();
    let gw = await frontGateway({ DATA_DIR: dir });
    let id: string;
    try {
      id = await webhook(gw, rx, [a]);
      await watchedUpstream([a]);
      await credit(a, 1);
      await rx.until((got) => got.length >= 2);
    } finally {
      await gw.close();
    }
    gw = await frontGateway({ DATA_DIR: dir });
    try {
      const st = await waitFor(async () => {
        const body = (await api(gw.url, KEY, 'GET', `/${id}`)).body;
        return body.paused ? body : undefined;
      });
      expect(st.last_error).toMatch(/^cannot resume after cursor [0-9a-z]+-\d+: cursor is too old/);
      // going on from now is the owner's choice
      const resumed = await api(gw.url, KEY, 'PATCH', `/${id}`, { cursor: null });
      expect(resumed.body).toMatchObject({ paused: false, last_error: null });
      await watchedUpstream([a]);
      rx.got.length = 0;
      await credit(a, 1);
      await rx.until((got) => got.some((r) => r.event.type === 'transactions'));
    } finally {
      await gw.close();
    }
  }, 60_000);
});

const redisAvailable = existsSync(REDIS_SERVER);
if (!redisAvailable) console.warn(`webhook replicas test skipped: ${REDIS_SERVER} not found (apt-get install -y redis-server)`);

describe.skipIf(!redisAvailable)('webhooks on replicas sharing Redis', () => {
  let redis: TestRedis;
  let replicas: Gateway[] = [];

  beforeAll(async () => {
    redis = await spawnRedis();
    replicas = await Promise.all([0, 1].map(() => frontGateway({ REDIS_URL: redis.url }, 1500)));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await redis?.stop();
  });

  it('one replica delivers each webhook; when it stops the other goes on from the cursor, and nothing is lost', async () => {
    const a = fresh();
    const rx = await receiver();
    const [first] = replicas as [Gateway, Gateway];
    const id = await webhook(first, rx, [a]);
    // every replica knows it; exactly one delivers it
    const holder = await waitFor(async () => {
      const known = await Promise.all(replicas.map((r) => api(r.url, KEY, 'GET', `/${id}`)));
      const delivering = replicas.filter((r) => r.webhooks!.deliversHere(id));
      return known.every((k) => k.status === 200) && delivering.length === 1 ? delivering[0] : undefined;
    }, 30_000);
    const other = replicas.find((r) => r !== holder)!;
    // a client of the other replica gets what reached the shared stream, under the stream's own cursors
    const shared = await mirror(other, [a]);
    await watchedUpstream([a]);
    const transactions = () => finalizedOf(shared).filter((f) => f.data.type === 'transactions').length;
    await credit(a, 3);
    await rx.until(() => transactions() >= 3 && rx.distinct().length >= finalizedOf(shared).length, 30_000);
    sameAsStream(rx, shared);
    const before = rx.distinct().length;

    // the holder goes away while its receiver is down, with events it has not delivered
    await rx.stop();
    await credit(a, 3);
    await waitFor(async () => (transactions() >= 6 ? true : undefined));
    await holder.close();
    replicas = [other];
    await waitFor(async () => (other.webhooks!.deliversHere(id) ? true : undefined), 30_000);
    await rx.listen();
    // credited until the other replica's own upstream stream carries them (a holder's handover is the relay's)
    const takeover = Date.now() + 30_000;
    for (let n = transactions(); transactions() < n + 3; ) {
      if (Date.now() > takeover) throw new Error('the other replica never carried the upstream stream after the holder stopped');
      await credit(a, 1);
      await new Promise((r) => setTimeout(r, 200));
    }
    await rx.until(() => rx.distinct().length >= finalizedOf(shared).length, 30_000);
    sameAsStream(rx, shared);
    expect(rx.distinct().length).toBeGreaterThan(before);
    expect((await api(other.url, KEY, 'GET', `/${id}`)).body).toMatchObject({ paused: false, last_delivered: finalizedOf(shared).at(-1)!.id });
  }, 90_000);
});
