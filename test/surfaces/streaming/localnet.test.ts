/**
 * Streaming API v2 on the local chain, over real HTTP and WebSocket on loopback: a wallet transfer seen pending,
 * then confirmed, then finalized, each shape equal to the v3 route's answer for the same thing; account states
 * and the trace event; resuming after a dropped client (SSE Last-Event-ID, WS `after`) with every missed
 * finalized event exactly once and in order, with the address book and metadata the resuming client asks for;
 * a cursor older than the log's retention.
 */
import { join } from 'node:path';
import { Address, internal, toNano } from '@ton/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { jettonTransfer } from '../../helpers/emulate.js';
import { SseClient, WsClient, type Frame } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';

let g: Gateway;
let wallet: KeyedWallet;
let seqno: number;

beforeAll(async () => {
  // blocks are sealed by the test (sealBlock), so the pending stage can be looked at through the v3 routes
  g = await startTestGateway({ blockInterval: 3_600_000 });
  wallet = g.chain!.keyedWallets()[0]!;
  seqno = (await g.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
}, 120_000);

afterAll(async () => {
  await g?.close();
});

const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));

async function send(to: Address, value = toNano('0.01')): Promise<void> {
  const res = await fetch(`${g.url}/api/v2/sendBoc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ boc: v4Transfer(wallet, to, value, seqno++).toString('base64') }),
  });
  expect(res.status).toBe(200);
}

const v3 = async (path: string): Promise<any> => {
  const res = await fetch(`${g.url}/api/v3/${path}`);
  expect(res.status).toBe(200);
  return res.json();
};

const isEvent = (type: string, finality?: string) => (f: Frame) => f.data?.type === type && (finality === undefined || f.data.finality === finality);

describe('a wallet transfer on the local chain', () => {
  it('is streamed pending, confirmed, then finalized, each as the v3 routes print it', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    const sse = await SseClient.open(g.url, {
      id: 'w',
      types: ['transactions', 'actions', 'account_state_change'],
      addresses: [walletRaw],
      min_finality: 'pending',
      include_address_book: true,
    });
    expect(sse.status).toBe(200);
    expect(sse.headers!.get('content-type')).toBe('text/event-stream');
    expect(sse.headers!.get('cache-control')).toBe('no-cache');
    expect((await sse.next()).data).toEqual({ id: 'w', status: 'subscribed' });

    const to = fresh();
    await send(to);
    const pending = await sse.next(isEvent('transactions', 'pending'));
    expect(pending.id).toBeUndefined();
    const ptx = pending.data.transactions as any[];
    // only the subscribed account's transactions
    expect(ptx.map((t) => t.account)).toEqual([walletRaw]);
    expect(ptx[0].emulated).toBe(true);
    const routePending = await v3(`pendingTransactions?account=${walletRaw}`);
    expect(ptx).toEqual(routePending.transactions.filter((t: any) => t.account === walletRaw));
    // address book trimmed to what the client is shown: the wallet, and who it sent to
    expect(Object.keys(pending.data.address_book).sort()).toEqual([walletRaw, rawUpper(to)].sort());
    const pendingActions = await sse.next(isEvent('actions', 'pending'));
    const routeActions = await v3(`pendingActions?account=${walletRaw}`);
    const strip = (a: any) => {
      const { accounts: _a, ...rest } = a;
      return rest;
    };
    expect(pendingActions.data.actions.map(strip)).toEqual(routeActions.actions);
    expect(pendingActions.data.actions[0].accounts).toContain(walletRaw);
    // the trace event goes only to clients that named the trace
    expect(sse.frames.some((f) => f.data?.type === 'trace')).toBe(false);

    await g.chain!.sealBlock();
    const confirmed = await sse.next(isEvent('transactions', 'confirmed'));
    expect(confirmed.id).toBeUndefined();
    const accConfirmed = await sse.next(isEvent('account_state_change', 'confirmed'));
    const finalized = await sse.next(isEvent('transactions', 'finalized'));
    expect(finalized.id).toMatch(/^\d+$/);
    expect(finalized.data.cursor).toBe(finalized.id);
    const hash = finalized.data.transactions[0].hash as string;
    const route = await v3(`transactions?hash=${encodeURIComponent(hash)}`);
    expect(finalized.data.transactions).toEqual(route.transactions);
    expect(confirmed.data.transactions).toEqual(route.transactions.map((t: any) => ({ ...t, finality: 'confirmed' })));
    const finalActions = await sse.next(isEvent('actions', 'finalized'));
    const routeFinalActions = await v3(`actions?tx_hash=${encodeURIComponent(hash)}`);
    expect(finalActions.data.actions.map(strip)).toEqual(routeFinalActions.actions);
    // the account's state after its last transaction, as /api/v3/transactions prints it, without BoCs
    const accFinal = await sse.next(isEvent('account_state_change', 'finalized'));
    expect(accConfirmed.data.state).toEqual(route.transactions[0].account_state_after);
    expect(accFinal.data).toMatchObject({ account: walletRaw, state: route.transactions[0].account_state_after });
    expect(Object.keys(accFinal.data.state)).toEqual(['hash', 'balance', 'extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash']);
    // the order of stages on the wire
    const order = sse.frames.filter((f) => f.data?.type === 'transactions').map((f) => f.data.finality);
    expect(order).toEqual(['pending', 'confirmed', 'finalized']);
    sse.close();
  }, 60_000);

  it('sends the trace event to a client that names its external hash, with the trace tree', async () => {
    const ws = await WsClient.open(g.url);
    const to = fresh();
    // the external message's normalised hash: what the chain's send answers with
    const boc = v4Transfer(wallet, to, toNano('0.01'), seqno).toString('base64');
    const res = await fetch(`${g.url}/api/v3/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
    seqno++;
    const { message_hash_norm: norm } = (await res.json()) as { message_hash_norm: string };
    expect(await ws.request({ id: 's', operation: 'subscribe', types: ['trace'], trace_external_hash_norms: [norm], min_finality: 'confirmed' })).toEqual({ id: 's', status: 'subscribed' });
    await g.chain!.sealBlock();
    const confirmed = await ws.next(isEvent('trace', 'confirmed'));
    const finalized = await ws.next(isEvent('trace', 'finalized'));
    expect(confirmed.data.trace_external_hash_norm).toBe(norm);
    const root = confirmed.data.trace;
    expect(Object.keys(root)).toEqual(['tx_hash', 'in_msg_hash', 'children']);
    expect(root.children).toHaveLength(1);
    expect(root.children[0].children).toEqual([]);
    expect(Object.keys(finalized.data.transactions)).toEqual(expect.arrayContaining([root.tx_hash, root.children[0].tx_hash]));
    expect(finalized.data.cursor).toMatch(/^\d+$/);
    // pending was below this client's min_finality
    expect(ws.frames.some((f) => f.data?.finality === 'pending')).toBe(false);
    ws.close();
  }, 60_000);
});

describe('pending and confirmed actions of one trace', () => {
  it("a jetton transfer that deploys the receiver's wallet is a jetton_transfer while pending as once confirmed", async () => {
    const wallets = g.chain!.keyedWallets();
    const carol = wallets[2]!;
    const dave = wallets[3]!;
    const carolRaw = rawUpper(carol.contract.address);
    // dave holds no jetton wallet yet: the transfer deploys it
    expect((await v3(`jetton/wallets?owner_address=${rawUpper(dave.contract.address)}`)).jetton_wallets).toEqual([]);
    const ws = await WsClient.open(g.url);
    await ws.request({ id: 'j', operation: 'subscribe', types: ['actions'], addresses: [carolRaw], min_finality: 'pending', action_types: ['jetton_transfer'] });
    const { message } = jettonTransfer(g.chain!, carol, dave, 5n * 10n ** 9n, 'to dave');
    const n = (await g.chain!.v2.getWalletInformation({ address: carol.contract.address })).seqno!;
    const boc = signedTransfer(carol, n, [internal(message)], Math.floor(Date.now() / 1000) + 600).toBoc().toString('base64');
    const res = await fetch(`${g.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
    expect(res.status).toBe(200);
    const pending = await ws.next(isEvent('actions', 'pending'));
    await g.chain!.sealBlock();
    const confirmed = await ws.next(isEvent('actions', 'confirmed'));
    const types = (f: Frame) => (f.data.actions as { type: string; action_id: string }[]).map((a) => `${a.type} ${a.action_id}`);
    expect(types(pending)).toEqual(types(confirmed));
    expect(types(pending)[0]).toMatch(/^jetton_transfer /);
    ws.close();
  }, 60_000);
});

describe('resuming with a cursor', () => {
  /** 100 sealed transactions of the wallet, one per block. */
  async function seal100(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await send(fresh());
      await g.chain!.sealBlock();
    }
  }

  const finalizedTxHashes = (frames: Frame[]) =>
    frames.filter(isEvent('transactions', 'finalized')).flatMap((f) => (f.data.transactions as any[]).filter((t) => t.account === rawUpper(wallet.contract.address)).map((t) => t.hash as string));

  it('replays every finalized event missed, exactly once and in order, over SSE (Last-Event-ID) and WS (after)', async () => {
    const body = { types: ['transactions'], addresses: [rawUpper(wallet.contract.address)] };
    const sse = await SseClient.open(g.url, body);
    const ws = await WsClient.open(g.url);
    await ws.request({ id: '1', operation: 'subscribe', ...body });
    // one event each, then both clients die
    await send(fresh());
    await g.chain!.sealBlock();
    const lastSse = await sse.next(isEvent('transactions', 'finalized'));
    const lastWs = await ws.next(isEvent('transactions', 'finalized'));
    expect(lastWs.data.cursor).toBe(lastSse.id);
    sse.close();
    ws.close();

    const before = g.chain!.store.accountTransactions(wallet.contract.address).length;
    await seal100();
    const sealed = g.chain!.store
      .accountTransactions(wallet.contract.address)
      .slice(before)
      .map((r) => Buffer.from(r.hash, 'hex').toString('base64'));
    expect(sealed).toHaveLength(100);

    const sse2 = await SseClient.open(g.url, body, { 'last-event-id': lastSse.id! });
    const ws2 = await WsClient.open(g.url);
    expect(await ws2.request({ id: '2', operation: 'subscribe', ...body, after: lastWs.data.cursor })).toEqual({ id: '2', status: 'subscribed' });
    // one more, live, after the replay: no gap and no duplicate at the seam
    await send(fresh());
    await g.chain!.sealBlock();
    const live = g.chain!.store.accountTransactions(wallet.contract.address).at(-1)!;
    const liveHash = Buffer.from(live.hash, 'hex').toString('base64');
    for (const c of [sse2, ws2]) {
      await c.next((f) => isEvent('transactions', 'finalized')(f) && f.data.transactions.some((t: any) => t.hash === liveHash), 20_000);
      expect(finalizedTxHashes(c.frames)).toEqual([...sealed, liveHash]);
      const cursors = c.frames.filter(isEvent('transactions')).map((f) => Number(f.data.cursor));
      expect([...cursors].sort((a, b) => a - b)).toEqual(cursors);
      expect(new Set(cursors).size).toBe(cursors.length);
    }
    sse2.close();
    ws2.close();
  }, 180_000);

  it('gives a replayed event the address book and metadata the resuming client asks for, though nobody asked when it was made', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    const body = { types: ['transactions'], addresses: [walletRaw] };
    const plain = await SseClient.open(g.url, body);
    await send(fresh());
    await g.chain!.sealBlock();
    const first = await plain.next(isEvent('transactions', 'finalized'));
    // made while the only client asks for neither
    await send(fresh());
    await g.chain!.sealBlock();
    const second = await plain.next(isEvent('transactions', 'finalized'));
    expect(second.data).not.toHaveProperty('address_book');
    plain.close();

    const resumed = await SseClient.open(g.url, { ...body, include_address_book: true, include_metadata: true }, { 'last-event-id': first.id! });
    const replayed = await resumed.next(isEvent('transactions', 'finalized'));
    expect(replayed.id).toBe(second.id);
    expect(replayed.data.transactions).toEqual(second.data.transactions);
    expect(replayed.data.address_book[walletRaw]).toMatchObject({ user_friendly: expect.any(String) });
    expect(replayed.data.metadata).toEqual(expect.any(Object));
    resumed.close();
  }, 60_000);

  it('replays an event as it was sent live, though the log keeps only what identifies it', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    const to = fresh();
    const body = {
      types: ['transactions', 'actions', 'account_state_change'],
      addresses: [walletRaw, rawUpper(to)],
      include_address_book: true,
      include_metadata: true,
    };
    const live = await SseClient.open(g.url, body);
    await send(fresh());
    await g.chain!.sealBlock();
    // the last event of that seal: the wallet's state
    const mark = await live.next(isEvent('account_state_change', 'finalized'));
    await send(to);
    await g.chain!.sealBlock();
    // the seal's finalized events: the trace's transactions and actions, then both accounts' states
    const sent: Frame[] = [];
    while (sent.filter(isEvent('account_state_change', 'finalized')).length < 2) sent.push(await live.next((f) => f.data?.finality === 'finalized'));
    live.close();
    expect(sent.map((f) => f.data.type)).toEqual(['transactions', 'actions', 'account_state_change', 'account_state_change']);

    const resumed = await SseClient.open(g.url, body, { 'last-event-id': mark.id! });
    for (const f of sent) {
      const again = await resumed.next((r) => r.id === f.id);
      expect({ id: again.id, event: again.event, data: again.data }).toEqual({ id: f.id, event: f.event, data: f.data });
    }
    resumed.close();
    // kept by reference: no JSON of these events in the log
    const db = new Database(join(g.chain!.store.db.dir, 'stream-events.db'), { readonly: true });
    try {
      const rows = sent.map((f) => db.prepare('SELECT json, kind FROM events WHERE pos = ?').get(Number(f.id)) as { json: string | null; kind: number | null });
      expect(rows.every((r) => r.json === null && r.kind !== null)).toBe(true);
    } finally {
      db.close();
    }
  }, 60_000);

  it('answers a cursor older than the retention with the oldest it can replay', async () => {
    // a chain that keeps only its 16 newest finalized events, sealing a block per message
    const small = await startTestGateway({ streamRetention: 16 });
    try {
      const w = small.chain!.keyedWallets()[0]!;
      let n = (await small.chain!.v2.getWalletInformation({ address: w.contract.address })).seqno!;
      const body = { types: ['transactions'], addresses: [rawUpper(w.contract.address)] };
      const watcher = await SseClient.open(small.url, body);
      for (let i = 0; i < 6; i++) {
        const boc = v4Transfer(w, fresh(), toNano('0.01'), n++).toString('base64');
        const res = await fetch(`${small.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
        expect(res.status).toBe(200);
      }
      // every block's events are in the log once the last has been sent live
      for (let i = 0; i < 6; i++) await watcher.next(isEvent('transactions', 'finalized'));
      watcher.close();
      const sse = await SseClient.open(small.url, body, { 'last-event-id': '1' });
      expect(sse.status).toBe(410);
      expect(sse.error.error).toMatch(/^cursor is too old: the oldest that can be replayed is \d+$/);
      const ws = await WsClient.open(small.url);
      await ws.request({ id: '1', operation: 'subscribe', ...body, after: '1' });
      const err = await ws.next((f) => f.data?.error !== undefined);
      expect(err.data).toEqual({ id: '1', error: sse.error.error });
      ws.close();
    } finally {
      await small.close();
    }
  }, 120_000);
});

describe('resuming while live events come', () => {
  let slow: Gateway;
  let w: KeyedWallet;
  let n: number;

  beforeAll(async () => {
    const base = loadConfig([], {}) as Config;
    // a replay paced to a few events a second, so live events are sealed while it is still being sent
    slow = await startTestGateway({ blockInterval: 3_600_000, streaming: { ...base.streaming, replayClientBytesPerSecond: 4 * 1024 } });
    w = slow.chain!.keyedWallets()[1]!;
    n = (await slow.chain!.v2.getWalletInformation({ address: w.contract.address })).seqno!;
  }, 120_000);

  afterAll(async () => {
    await slow?.close();
  });

  async function sealOne(): Promise<void> {
    const res = await fetch(`${slow.url}/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boc: v4Transfer(w, fresh(), toNano('0.01'), n++).toString('base64') }),
    });
    expect(res.status).toBe(200);
    await slow.chain!.sealBlock();
  }

  const hashes = (frames: Frame[]) =>
    frames.filter(isEvent('transactions', 'finalized')).flatMap((f) => (f.data.transactions as any[]).filter((t) => t.account === rawUpper(w.contract.address)).map((t) => t.hash as string));
  const sealedSince = (before: number) => slow.chain!.store.accountTransactions(w.contract.address).slice(before).map((r) => Buffer.from(r.hash, 'hex').toString('base64'));

  it('sends every event exactly once and in order, the replay and the live ones sealed during it, over SSE and WS', async () => {
    const body = { types: ['transactions'], addresses: [rawUpper(w.contract.address)] };
    const sse = await SseClient.open(slow.url, body);
    await sealOne();
    const last = await sse.next(isEvent('transactions', 'finalized'));
    sse.close();
    const before = slow.chain!.store.accountTransactions(w.contract.address).length;
    for (let i = 0; i < 30; i++) await sealOne();

    const sse2 = await SseClient.open(slow.url, body, { 'last-event-id': last.id! });
    const ws2 = await WsClient.open(slow.url);
    expect(await ws2.request({ id: '2', operation: 'subscribe', ...body, after: last.data.cursor })).toEqual({ id: '2', status: 'subscribed' });
    await sse2.next(isEvent('transactions', 'finalized'), 20_000);
    // live while the replays run: neither has sent all 30 yet
    expect(hashes(sse2.frames).length).toBeLessThan(30);
    for (let i = 0; i < 5; i++) await sealOne();
    const all = sealedSince(before);
    expect(all).toHaveLength(35);
    for (const c of [sse2, ws2]) {
      await c.next((f) => isEvent('transactions', 'finalized')(f) && f.data.transactions.some((t: any) => t.hash === all.at(-1)), 60_000);
      expect(hashes(c.frames)).toEqual(all);
      const cursors = c.frames.filter(isEvent('transactions', 'finalized')).map((f) => Number(f.data.cursor));
      expect([...cursors].sort((a, b) => a - b)).toEqual(cursors);
      expect(new Set(cursors).size).toBe(cursors.length);
    }
    sse2.close();
    ws2.close();
  }, 180_000);
});

describe('an address subscribed within the interest pace', () => {
  it('gets the event of a block sealed right after its subscribe, though the feed is told of the address up to 250 ms later', async () => {
    const ws = await WsClient.open(g.url);
    const first = fresh();
    expect(await ws.request({ id: '1', operation: 'subscribe', types: ['transactions'], addresses: [rawUpper(first)] })).toEqual({ id: '1', status: 'subscribed' });
    // a second change at once: its push to the feed waits for the pace
    const to = fresh();
    expect(await ws.request({ id: '2', operation: 'subscribe', types: ['transactions'], addresses: [rawUpper(to)] })).toEqual({ id: '2', status: 'subscribed' });
    await send(to);
    await g.chain!.sealBlock();
    const got = await ws.next((f) => isEvent('transactions', 'finalized')(f) && f.data.transactions.some((t: any) => t.account === rawUpper(to)), 20_000);
    expect(got.data.cursor).toEqual(expect.any(String));
    ws.close();
  }, 60_000);
});
