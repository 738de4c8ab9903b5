/**
 * GraphQL live subscriptions as clients of the one event hub, over graphql-ws and graphql-sse on loopback
 * against the local chain: a wallet transfer seen pending, confirmed, finalized (transactions, actions, account
 * state, the trace by its external hash), each payload with its finality and, once finalized, a cursor; the same
 * transactions a Streaming API v2 client sees; resuming with `after` replays exactly the finalized events missed.
 */
import { Address, toNano } from '@ton/core';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SseClient } from '../../../scripts/lib/streaming-client.js';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';

let g: Gateway;
let wallet: KeyedWallet;
let seqno: number;
let ws: Client;

beforeAll(async () => {
  // blocks are sealed by the test, so each stage is seen apart
  g = await startTestGateway({ blockInterval: 3_600_000 });
  wallet = g.chain!.keyedWallets()[0]!;
  seqno = (await g.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
  ws = createWsClient({ url: `${g.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
}, 120_000);

afterAll(async () => {
  await ws?.dispose();
  await g?.close();
});

const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));

/** Sends a transfer through v3 (its answer names the external message's normalised hash). */
async function send(): Promise<string> {
  const boc = v4Transfer(wallet, fresh(), toNano('0.01'), seqno++).toString('base64');
  const res = await fetch(`${g.url}/api/v3/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { message_hash_norm: string }).message_hash_norm;
}

/** A subscription's results as they come, read one at a time with a timeout. */
function collect(iter: AsyncIterableIterator<any>) {
  const got: any[] = [];
  return {
    got,
    async next(ms = 20_000): Promise<any> {
      let timer: NodeJS.Timeout | undefined;
      try {
        const r = await Promise.race([iter.next(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no event in time')), ms)))]);
        if (r.done) throw new Error('subscription ended');
        got.push(r.value);
        return r.value;
      } finally {
        clearTimeout(timer);
      }
    },
    stop: () => iter.return?.(),
  };
}

/** Until the hub holds `n` clients (graphql-ws answers nothing on subscribe; a completed one leaves soon after). */
const hubHolds = async (n: number) => {
  for (let i = 0; i < 200 && g.liveHub!.size !== n; i++) await new Promise((r) => setTimeout(r, 50));
  expect(g.liveHub!.size).toBe(n);
};

const TX_QUERY = `subscription ($a: [Address!]!, $after: String, $f: Finality) {
  transactionEvents(accounts: $a, minFinality: $f, after: $after) { finality cursor invalidated transactions { hash account { address } finality emulated } }
}`;

describe('live GraphQL subscriptions', () => {
  it('over graphql-ws: a transfer pending, confirmed, finalized, with the Streaming v2 client seeing the same transactions', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    const txs = collect(ws.iterate({ query: TX_QUERY, variables: { a: [walletRaw], f: 'pending' } }));
    const acts = collect(
      ws.iterate({
        query: `subscription ($a: [Address!]!) { actions(accounts: $a, types: ["ton_transfer"], minFinality: pending) { finality cursor actions { type finality } } }`,
        variables: { a: [walletRaw] },
      }),
    );
    const state = collect(ws.iterate({ query: `subscription ($a: Address!) { accountState(address: $a, minFinality: confirmed) { finality account hash balance status } }`, variables: { a: walletRaw } }));
    const direct = await SseClient.open(g.url, { types: ['transactions'], addresses: [walletRaw], min_finality: 'pending' });
    expect((await direct.next()).data.status).toBe('subscribed');
    await hubHolds(4);

    const norm = await send();
    const trace = collect(ws.iterate({ query: `subscription ($h: Hash!) { trace(externalHash: $h) { finality cursor traceExternalHashNorm transactions { hash } actions { type } } }`, variables: { h: norm } }));
    await hubHolds(5);

    const pending = (await txs.next()).data.transactionEvents;
    expect(pending).toMatchObject({ finality: 'pending', cursor: null, invalidated: false });
    expect(pending.transactions).toHaveLength(1);
    expect(pending.transactions[0]).toMatchObject({ account: { address: expect.any(String) }, emulated: true });
    expect((await acts.next()).data.actions).toMatchObject({ finality: 'pending', cursor: null, actions: [{ type: 'ton_transfer' }] });

    await g.chain!.sealBlock();
    const confirmed = (await txs.next()).data.transactionEvents;
    const finalized = (await txs.next()).data.transactionEvents;
    expect([pending.finality, confirmed.finality, finalized.finality]).toEqual(['pending', 'confirmed', 'finalized']);
    expect(confirmed.cursor).toBeNull();
    expect(finalized.cursor).toMatch(/^\d+$/);
    expect(finalized.transactions[0]).toMatchObject({ finality: 'finalized', emulated: false });
    expect(confirmed.transactions.map((t: any) => t.hash)).toEqual(finalized.transactions.map((t: any) => t.hash));
    expect((await acts.next()).data.actions.finality).toBe('confirmed');
    expect((await acts.next()).data.actions.finality).toBe('finalized');
    // the account's state, confirmed then finalized, as Streaming v2 reports it
    const s1 = (await state.next()).data.accountState;
    const s2 = (await state.next()).data.accountState;
    expect([s1.finality, s2.finality]).toEqual(['confirmed', 'finalized']);
    expect(s2).toMatchObject({ account: expect.any(String), status: 'active' });
    expect(BigInt(s2.balance)).toBeGreaterThan(0n);
    // the trace at each stage it was in after the subscription opened, named by its hash
    const stages: string[] = [];
    for (;;) {
      const t = (await trace.next()).data.trace;
      expect(t.traceExternalHashNorm).toBe(norm);
      stages.push(t.finality);
      if (t.finality === 'finalized') {
        expect(t.transactions.length).toBeGreaterThanOrEqual(2);
        expect(t.cursor).toMatch(/^\d+$/);
        break;
      }
    }
    expect(stages.slice(-2)).toEqual(['confirmed', 'finalized']);

    // the same stages and transactions a Streaming API v2 client was sent
    for (const f of ['pending', 'confirmed', 'finalized']) {
      const frame = await direct.next((x) => x.data?.type === 'transactions' && x.data.finality === f);
      const ev = [pending, confirmed, finalized].find((e) => e.finality === f);
      expect(ev.transactions.map((t: any) => t.hash)).toEqual(frame.data.transactions.map((t: any) => t.hash));
    }
    direct.close();
    for (const c of [txs, acts, state, trace]) await c.stop();
  }, 90_000);

  it('resumes with `after`: the finalized events missed, exactly once and in order, then live ones (graphql-ws and graphql-sse)', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    await hubHolds(0);
    const first = collect(ws.iterate({ query: TX_QUERY, variables: { a: [walletRaw] } }));
    await hubHolds(1);
    await send();
    await g.chain!.sealBlock();
    const mark = (await first.next()).data.transactionEvents;
    expect(mark.finality).toBe('finalized');
    await first.stop();

    // three transfers finalized while nobody listens
    const missed: string[] = [];
    for (let i = 0; i < 3; i++) {
      await send();
      await g.chain!.sealBlock();
    }
    await hubHolds(0);
    const log = collect(ws.iterate({ query: TX_QUERY, variables: { a: [walletRaw] } }));
    await hubHolds(1);
    await send();
    await g.chain!.sealBlock();
    const live = (await log.next()).data.transactionEvents;
    await log.stop();

    const resumed = collect(ws.iterate({ query: TX_QUERY, variables: { a: [walletRaw], after: mark.cursor } }));
    for (let i = 0; i < 4; i++) missed.push((await resumed.next()).data.transactionEvents.cursor);
    // each after the mark once, in order, the last being the one a live client saw
    expect(new Set(missed).size).toBe(4);
    expect(missed.map(BigInt)).toEqual([...missed.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)));
    expect(BigInt(missed[0]!)).toBeGreaterThan(BigInt(mark.cursor));
    expect(missed[3]).toBe(live.cursor);
    // then live
    await send();
    await g.chain!.sealBlock();
    const next = (await resumed.next()).data.transactionEvents;
    expect(BigInt(next.cursor)).toBeGreaterThan(BigInt(live.cursor));
    await resumed.stop();

    // graphql-sse resumes from the same cursor with the same events
    const sse = createSseClient({ url: `${g.url}/graphql`, retryAttempts: 0 });
    const overSse = collect(sse.iterate({ query: TX_QUERY, variables: { a: [walletRaw], after: mark.cursor } }));
    const viaSse: string[] = [];
    for (let i = 0; i < 4; i++) viaSse.push((await overSse.next()).data.transactionEvents.cursor);
    expect(viaSse).toEqual(missed);
    await overSse.stop();
    sse.dispose();
  }, 90_000);

  it('refuses an empty cursor with BAD_USER_INPUT', async () => {
    const it = collect(ws.iterate({ query: TX_QUERY, variables: { a: [rawUpper(wallet.contract.address)], after: '' } }));
    expect((await it.next()).errors).toMatchObject([{ message: 'after must be a cursor a previous event carried', extensions: { code: 'BAD_USER_INPUT' } }]);
  });
});
