/**
 * Streaming v2 as toncenter's newer code has it (../shared/reference/toncenter-newer.md §9), over real HTTP and
 * WebSocket on loopback with a feed the test drives: `msg_body_hash` (its checks in their order and texts, and a
 * filter of `transactions` events only), trace hashes taken in any form and compared in standard base64,
 * `replay_existing` (the recent snapshots, to that client alone, before live events), the 5 s SSE keepalive.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import { buildServer } from '../../../src/server.js';
import type { LiveEvent, LiveFeed } from '../../../src/live/feed.js';
import type { V2Api } from '../../../src/api/v2.js';
import type { V3Api } from '../../../src/api/v3/index.js';
import { LiveHub } from '../../../src/live/hub.js';
import { SseClient, WsClient, type Frame } from '../../../scripts/lib/streaming-client.js';

class DrivenFeed implements LiveFeed {
  private deliver?: (e: LiveEvent) => void;
  start(deliver: (e: LiveEvent) => void): void {
    this.deliver = deliver;
  }
  setInterest(): void {}
  emit(e: LiveEvent): void {
    this.deliver!(e);
  }
  status() {
    return { kind: 'driven', up: true };
  }
  async stop(): Promise<void> {}
}

const A = `0:${'A'.repeat(64)}`;
const B = `0:${'B'.repeat(64)}`;
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
const BODY = digest('a deposit comment');
const OTHER_BODY = digest('something else');
const TRACE = digest('trace one');

const tx = (account: string, body: Buffer, lt: string) => ({
  account,
  hash: `tx-${lt}`,
  lt,
  in_msg: { source: B, destination: account, message_content: { hash: body.toString('base64'), body: 'te6', decoded: null } },
  out_msgs: [],
});

/** A gateway over a feed of its own (a hub's recent events are its own). */
async function serve(): Promise<{ app: FastifyInstance; url: string; feed: DrivenFeed }> {
  const config = loadConfig([], {}) as Config;
  const feed = new DrivenFeed();
  const hub = new LiveHub(feed, { maxQueuedBytes: config.streaming.maxQueuedBytes });
  hub.start();
  const app = await buildServer({ config, capabilities: { v2: {} as V2Api, v3: {} as V3Api, live: () => hub }, isReady: () => true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, feed };
}

let app: FastifyInstance;
let url: string;
let feed: DrivenFeed;
beforeAll(async () => {
  ({ app, url, feed } = await serve());
});
afterAll(async () => {
  await app?.close();
});

const events = (c: { frames: Frame[] }) => c.frames.filter((f) => f.data?.type !== undefined).map((f) => f.data);
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 150));

describe('msg_body_hash', () => {
  it.each([
    ['without transactions among the types', { types: ['actions'], addresses: [A], msg_body_hash: BODY.toString('hex') }, 'msg_body_hash requires addresses and type "transactions"'],
    ['without addresses', { types: ['trace'], trace_external_hash_norms: [TRACE.toString('base64')], msg_body_hash: BODY.toString('hex') }, 'msg_body_hash requires addresses and type "transactions"'],
    ['unparsable', { types: ['transactions'], addresses: [A], msg_body_hash: 'not-a-hash' }, 'invalid msg_body_hash'],
    ['the wrong JSON type', { types: ['transactions'], addresses: [A], msg_body_hash: 5 }, 'invalid subscription request: msg_body_hash must be a string'],
  ])('is refused %s, over SSE and WebSocket in the same words', async (_, body, error) => {
    const sse = await SseClient.open(url, { id: 'x', ...body });
    expect([sse.status, sse.error]).toEqual([400, { ...(error.startsWith('invalid subscription') ? {} : { id: 'x' }), error }]);
    const ws = await WsClient.open(url);
    const wsError = error.replace('invalid subscription request', 'invalid subscribe request');
    expect(await ws.request({ id: 'x', operation: 'subscribe', ...body })).toEqual({ id: 'x', error: wsError });
    ws.close();
  });

  it('keeps the transactions of watched accounts whose in-message body has the hash, in any of its forms; other event types pass', async () => {
    for (const form of [BODY.toString('hex'), BODY.toString('base64'), BODY.toString('base64url')]) {
      const c = await SseClient.open(url, { types: ['transactions', 'actions'], addresses: [A], min_finality: 'pending', msg_body_hash: form });
      expect(c.status).toBe(200);
      await c.next((f) => f.event === 'connected');
      feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: 't1', transactions: [tx(A, OTHER_BODY, '1'), tx(A, BODY, '2'), tx(B, BODY, '3')] });
      // no transaction kept: the event is not sent at all
      feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: 't2', transactions: [tx(A, OTHER_BODY, '4')] });
      feed.emit({ type: 'actions', finality: 'pending', trace_external_hash_norm: 't2', actions: [{ type: 'call_contract', accounts: [A] }] });
      await c.next((f) => f.data?.type === 'actions');
      const got = events(c);
      expect(got.map((e) => [e.type, e.trace_external_hash_norm])).toEqual([['transactions', 't1'], ['actions', 't2']]);
      expect(got[0].transactions.map((t: { lt: string }) => t.lt)).toEqual(['2']);
      c.close();
    }
  });

  it('is set or cleared by every WebSocket subscribe', async () => {
    const ws = await WsClient.open(url);
    const sub = { types: ['transactions'], addresses: [A], min_finality: 'pending' };
    expect(await ws.request({ id: '1', operation: 'subscribe', ...sub, msg_body_hash: BODY.toString('hex') })).toEqual({ id: '1', status: 'subscribed' });
    feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: 'w1', transactions: [tx(A, OTHER_BODY, '5')] });
    expect(await ws.request({ id: '2', operation: 'subscribe', ...sub })).toEqual({ id: '2', status: 'subscribed' });
    feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: 'w2', transactions: [tx(A, OTHER_BODY, '6')] });
    await ws.next((f) => f.data?.type === 'transactions');
    await settle();
    expect(events(ws).map((e) => e.trace_external_hash_norm)).toEqual(['w2']);
    ws.close();
  });
});

describe('trace_external_hash_norms', () => {
  it('takes hex, base64 and base64url and matches the standard base64 of events', async () => {
    const ws = await WsClient.open(url);
    const sub = { types: ['trace'], trace_external_hash_norms: [TRACE.toString('hex'), TRACE.toString('base64url')], min_finality: 'pending' };
    expect(await ws.request({ id: 's', operation: 'subscribe', ...sub })).toEqual({ id: 's', status: 'subscribed' });
    feed.emit({ type: 'trace', finality: 'pending', trace_external_hash_norm: TRACE.toString('base64'), actions: [] });
    expect((await ws.next((f) => f.data?.type === 'trace')).data.trace_external_hash_norm).toBe(TRACE.toString('base64'));
    expect(await ws.request({ id: 'u', operation: 'unsubscribe', trace_external_hash_norms: [TRACE.toString('hex')] })).toEqual({ id: 'u', status: 'unsubscribed' });
    expect(await ws.request({ id: 'b', operation: 'unsubscribe', trace_external_hash_norms: ['zz'] })).toEqual({ id: 'b', error: 'trace_external_hash_norms contains empty value' });
    ws.close();
  });

  it('words an unparsable one as empty', async () => {
    const sse = await SseClient.open(url, { types: ['trace'], trace_external_hash_norms: ['abc'] });
    expect([sse.status, sse.error]).toEqual([400, { error: 'trace_external_hash_norms contains empty value' }]);
  });
});

describe('replay_existing', () => {
  const R1 = digest('replayed trace').toString('base64');
  const R2 = digest('invalidated trace').toString('base64');
  const state = (finality: string, balance: string): LiveEvent => ({
    type: 'account_state_change',
    finality: finality as 'confirmed',
    account: A,
    state: { hash: 'h', balance, account_status: 'active' },
  });

  let app: FastifyInstance;
  let url: string;
  let feed: DrivenFeed;
  afterAll(async () => {
    await app?.close();
  });

  beforeAll(async () => {
    ({ app, url, feed } = await serve());
    // before anyone subscribes: a trace of A through its stages, an invalidated one, B's, A's states, a jetton wallet of A's
    for (const finality of ['pending', 'confirmed', 'finalized'] as const) {
      feed.emit({ type: 'transactions', finality, trace_external_hash_norm: R1, transactions: [tx(A, BODY, '10')] });
    }
    feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: R2, transactions: [tx(A, BODY, '11')] });
    feed.emit({ type: 'trace_invalidated', trace_external_hash_norm: R2 });
    feed.emit({ type: 'transactions', finality: 'finalized', trace_external_hash_norm: 'b', transactions: [tx(B, BODY, '12')] });
    feed.emit(state('finalized', '100'));
    feed.emit(state('confirmed', '90'));
    feed.emit({ type: 'jettons_change', finality: 'finalized', jetton: { address: B, owner: A, jetton: B, balance: '1' } });
  });

  const replayed = [
    ['transactions', 'finalized', R1],
    ['account_state_change', 'finalized', undefined],
    ['account_state_change', 'confirmed', undefined],
  ];
  const picked = (c: { frames: Frame[] }) => events(c).map((e) => [e.type, e.finality, e.trace_external_hash_norm]);

  it('sends an SSE client, at connect, the latest snapshot of each trace and account it watches, none invalidated, then live events', async () => {
    const sub = { types: ['transactions', 'account_state_change', 'jettons_change'], addresses: [A], min_finality: 'pending' };
    const c = await SseClient.open(url, { ...sub, replay_existing: true });
    const plain = await SseClient.open(url, sub);
    await c.next((f) => f.data?.type === 'account_state_change' && f.data.finality === 'confirmed');
    feed.emit({ type: 'transactions', finality: 'pending', trace_external_hash_norm: 'live', transactions: [tx(A, BODY, '13')] });
    await c.next((f) => f.data?.trace_external_hash_norm === 'live');
    await plain.next((f) => f.data?.trace_external_hash_norm === 'live');
    expect(picked(c)).toEqual([...replayed, ['transactions', 'pending', 'live']]);
    // the replay went to that client alone
    expect(picked(plain)).toEqual([['transactions', 'pending', 'live']]);
    c.close();
    plain.close();
  });

  it('follows the subscription: min_finality, and a jetton wallet only by its own address', async () => {
    const c = await SseClient.open(url, { types: ['transactions', 'account_state_change', 'jettons_change'], addresses: [A, B], replay_existing: true });
    await c.next((f) => f.data?.type === 'jettons_change');
    await settle();
    expect(picked(c)).toEqual([
      ['transactions', 'finalized', R1],
      ['transactions', 'finalized', 'b'],
      ['account_state_change', 'finalized', undefined],
      ['jettons_change', 'finalized', undefined],
    ]);
    c.close();
  });

  it('passes again on every WebSocket subscribe that asks for it', async () => {
    const ws = await WsClient.open(url);
    const sub = { types: ['transactions', 'account_state_change'], addresses: [A], min_finality: 'pending' };
    expect(await ws.request({ id: '1', operation: 'subscribe', ...sub })).toEqual({ id: '1', status: 'subscribed' });
    await settle();
    expect(events(ws)).toEqual([]);
    expect(await ws.request({ id: '2', operation: 'subscribe', ...sub, replay_existing: true })).toEqual({ id: '2', status: 'subscribed' });
    await ws.next((f) => f.data?.trace_external_hash_norm === 'live');
    expect(await ws.request({ id: '3', operation: 'subscribe', ...sub, replay_existing: true })).toEqual({ id: '3', status: 'subscribed' });
    await settle();
    // the live event of the first test is among the snapshots now
    const pass = [...replayed, ['transactions', 'pending', 'live']];
    expect(picked(ws)).toEqual([...pass, ...pass]);
    ws.close();
  });
});

describe('SSE keepalive', () => {
  it('is every 5 s by default, as toncenter sends it', () => {
    expect((loadConfig([], {}) as Config).streaming.keepAliveMs).toBe(5_000);
  });
});
