/**
 * Issue 41, attack 5: a resumed cursor never skips silently in upstream mode. A gateway in upstream mode in front
 * of a local-chain gateway (a real upstream speaking Streaming API v2): a client, its address's only watcher,
 * disconnects; 10 transfers to the address are sealed; it resumes (SSE `Last-Event-ID`, WebSocket `after`) and
 * is sent all 10, exactly once, before the next live one. The same with two replicas sharing Redis, resuming on
 * the other one. A resume past the retention window, when the address had left the upstream subscription, is
 * refused (410 / an error frame) naming the oldest cursor from which it is complete, and from that cursor it is.
 */
import { Address } from '@ton/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { SseClient, WsClient } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { haveRedis, testRedis, type TestRedis } from '../../helpers/redis.js';
import { finalizedOf, startUpstreamGateway, transferSealed } from './helpers.js';

let local: Gateway;
let wallet: KeyedWallet;
const fronts: Gateway[] = [];

beforeAll(async () => {
  // blocks are sealed by the test, one per transfer
  local = await startTestGateway({ blockInterval: 3_600_000 });
  wallet = local.chain!.keyedWallets()[0]!;
}, 120_000);

afterAll(async () => {
  for (const f of fronts) await f.close();
  await local?.close();
});

async function front(env: Record<string, string> = {}): Promise<Gateway> {
  const g = await startUpstreamGateway(local.url, { UPSTREAM_STREAM: 'ws', POLL_INTERVAL_MS: '600000', ...env });
  fronts.push(g);
  return g;
}

const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));

/** The address's transactions as the local chain stores them, oldest first. */
async function sealedOf(to: Address): Promise<string[]> {
  const { transactions } = await local.chain!.v3.transactions({ account: [to], limit: 100, offset: 0, sort: 'asc' });
  return transactions.map((t) => t.hash);
}

const TYPES = ['transactions'];

/** A client watching `raw` alone on `url` until it has one finalized event; its cursor, and it closed. */
async function firstCursor(url: string, upstreamWatches: () => boolean, to: Address, via: 'sse' | 'ws'): Promise<string> {
  const raw = rawUpper(to);
  const client = via === 'sse' ? await SseClient.open(url, { types: TYPES, addresses: [raw] }) : await WsClient.open(url);
  if (client instanceof WsClient) expect(await client.request({ id: 's', operation: 'subscribe', types: TYPES, addresses: [raw] })).toEqual({ id: 's', status: 'subscribed' });
  await waitFor(async () => (upstreamWatches() ? true : undefined));
  await transferSealed(local, wallet, to);
  const first = await client.next((f) => f.data?.type === 'transactions' && f.data.finality === 'finalized');
  client.close();
  return first.data.cursor as string;
}

/**
 * `to`'s only watcher has left `from` with `cursor`: 10 transfers are sealed, it resumes on `on`, and is sent all
 * 10, exactly once and in order, before the next transfer, which comes live.
 */
async function resumesCompletely(from: Gateway, on: Gateway, to: Address, cursor: string, via: 'sse' | 'ws'): Promise<void> {
  const raw = rawUpper(to);
  // nobody watches the address on the gateway it left any more
  await waitFor(async () => (from.liveHub!.interest().addresses.has(raw) ? undefined : true));
  for (let i = 0; i < 10; i++) await transferSealed(local, wallet, to);
  const client = via === 'sse' ? await SseClient.open(on.url, { types: TYPES, addresses: [raw] }, { 'last-event-id': cursor }) : await WsClient.open(on.url);
  if (client instanceof WsClient) expect(await client.request({ id: 'r', operation: 'subscribe', types: TYPES, addresses: [raw], after: cursor })).toEqual({ id: 'r', status: 'subscribed' });
  else expect(client.status).toBe(200);
  const sealed = await sealedOf(to);
  expect(sealed).toHaveLength(11);
  await waitFor(async () => (finalizedOf(client.frames, raw).length >= 10 ? true : undefined), 20_000);
  await transferSealed(local, wallet, to);
  await waitFor(async () => (finalizedOf(client.frames, raw).length >= 11 ? true : undefined), 20_000);
  expect(finalizedOf(client.frames, raw)).toEqual((await sealedOf(to)).slice(1));
  client.close();
}

describe('upstream mode: a resumed cursor never skips silently', () => {
  for (const via of ['sse', 'ws'] as const) {
    it(`${via}: the address's only watcher disconnects, 10 transfers are sealed, it resumes: all 10 arrive exactly once`, async () => {
      const f = await front();
      const to = fresh();
      const raw = rawUpper(to);
      const cursor = await firstCursor(f.url, () => local.liveHub!.interest().addresses.has(raw), to, via);
      await resumesCompletely(f, f, to, cursor, via);
    }, 120_000);
  }

  it('a resume past the retention window is refused, 410 and an error frame, naming the oldest complete cursor; from it the resume is complete', async () => {
    const f = await front({ UPSTREAM_STREAM_RETAIN_MS: '200', UPSTREAM_STREAM_PACE_MS: '0' });
    const to = fresh();
    const raw = rawUpper(to);
    const cursor = await firstCursor(f.url, () => local.liveHub!.interest().addresses.has(raw), to, 'sse');
    // past the window the address left the upstream subscription: what is sealed now is not received
    await waitFor(async () => (local.liveHub!.interest().addresses.has(raw) ? undefined : true));
    for (let i = 0; i < 3; i++) await transferSealed(local, wallet, to);

    const sse = await SseClient.open(f.url, { types: TYPES, addresses: [raw] }, { 'last-event-id': cursor });
    expect(sse.status).toBe(410);
    const oldest = /the oldest that can be replayed for this subscription is (\S+)$/.exec(sse.error?.error ?? '')?.[1];
    expect(sse.error).toEqual({ error: `cursor is too old: the oldest that can be replayed for this subscription is ${oldest}` });

    const ws = await WsClient.open(f.url);
    expect(await ws.request({ id: 'r', operation: 'subscribe', types: TYPES, addresses: [raw], after: cursor })).toEqual({ id: 'r', status: 'subscribed' });
    const refusal = await ws.next((fr) => fr.data?.id === 'r' && typeof fr.data.error === 'string');
    expect(refusal.data.error).toMatch(/^cursor is too old: the oldest that can be replayed for this subscription is \S+$/);
    ws.close();

    // the address is watched again: from the cursor named then, nothing is missing
    const watcher = await SseClient.open(f.url, { types: TYPES, addresses: [raw] });
    await waitFor(async () => (local.liveHub!.interest().addresses.has(raw) ? true : undefined));
    const again = await SseClient.open(f.url, { types: TYPES, addresses: [raw] }, { 'last-event-id': cursor });
    expect(again.status).toBe(410);
    const from = /is (\S+)$/.exec(again.error.error)![1]!;
    await transferSealed(local, wallet, to);
    await waitFor(async () => (finalizedOf(watcher.frames, raw).length === 1 ? true : undefined));
    const complete = await SseClient.open(f.url, { types: TYPES, addresses: [raw] }, { 'last-event-id': from });
    expect(complete.status).toBe(200);
    await waitFor(async () => (finalizedOf(complete.frames, raw).length === 1 ? true : undefined));
    expect(finalizedOf(complete.frames, raw)).toEqual(finalizedOf(watcher.frames, raw));
    for (const c of [sse, watcher, again, complete]) c.close();
  }, 120_000);
});

describe.skipIf(!haveRedis())('upstream mode with two replicas sharing Redis: a resume on the other replica', () => {
  let redis: TestRedis;
  let url: string;

  beforeAll(async () => {
    redis = await testRedis();
    // a database of its own: the relay's keys are the default ones, which another test's gateway may use
    const u = new URL(redis.url);
    u.pathname = '/11';
    url = u.toString();
    const direct = new Redis(url);
    await direct.flushdb();
    direct.disconnect();
  });
  afterAll(async () => redis?.stop());

  it("the address's only watcher leaves replica A, 10 transfers are sealed, it resumes on replica B: all 10 arrive exactly once", async () => {
    const a = await front({ REDIS_URL: url });
    const b = await front({ REDIS_URL: url });
    const to = fresh();
    const raw = rawUpper(to);
    const cursor = await firstCursor(a.url, () => local.liveHub!.interest().addresses.has(raw), to, 'sse');
    // the cursor is the shared Redis Stream's entry id, the same on either replica
    expect(cursor).toMatch(/^\d+-\d+$/);
    await resumesCompletely(a, b, to, cursor, 'sse');
  }, 120_000);
});
