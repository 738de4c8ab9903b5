/**
 * Upstream mode serves Streaming API v2 from the upstream's own stream, over real HTTP and WebSocket on loopback:
 * a gateway in upstream mode in front of a local-chain gateway. Its SSE and WebSocket clients see a wallet
 * transfer made on the local chain at pending, confirmed and finalized with the same bodies as a client of the
 * local chain itself, and so does a GraphQL live subscription (graphql-ws) there, and the older GraphQL
 * subscriptions transactions(accounts) and traceTransactions are fed from that stream too; several clients cost the
 * upstream one streaming connection and no v3 polling; the address book, metadata and action filters are
 * applied per client; /health says how the stream is.
 */
import { Address, Cell, loadMessage, toNano } from '@ton/core';
import { createClient as createGraphQLWs } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import { normalizedHash } from '../../../src/model/message.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { SseClient, WsClient, type Frame } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';
import { freePort, startUpstreamGateway } from './helpers.js';

let local: Gateway;
let front: Gateway;
let wallet: KeyedWallet;

beforeAll(async () => {
  // blocks are sealed by the test, so the pending stage is seen before the confirmed one
  local = await startTestGateway({ blockInterval: 3_600_000 });
  // blocks would be polled every 10 minutes: what GraphQL subscriptions get within a test came from the stream
  front = await startUpstreamGateway(local.url, { UPSTREAM_STREAM: 'ws', POLL_INTERVAL_MS: '600000' });
  wallet = local.chain!.keyedWallets()[0]!;
}, 120_000);

afterAll(async () => {
  await front?.close();
  await local?.close();
});

const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));

/** A transfer from the wallet to `to`, signed now, and its external message's normalised hash (base64). */
async function transferMessage(to: Address): Promise<{ boc: Buffer; norm: string }> {
  const seqno = (await local.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
  const boc = v4Transfer(wallet, to, toNano('0.01'), seqno);
  return { boc, norm: normalizedHash(loadMessage(Cell.fromBoc(boc)[0]!.beginParse())).toString('base64') };
}

async function sendToLocal(boc: Buffer): Promise<void> {
  const res = await fetch(`${local.url}/api/v2/sendBoc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  expect(res.status).toBe(200);
}

const transfer = async (to: Address): Promise<void> => sendToLocal((await transferMessage(to)).boc);

const stages = (frames: Frame[], type: string) => frames.filter((f) => f.data?.type === type).map((f) => f.data.finality);
/** An event's body less its cursor: each gateway numbers finalized events in its own order. */
const body = (frames: Frame[], type: string, finality: string) => {
  const f = frames.find((x) => x.data?.type === type && x.data.finality === finality);
  expect(f, `${type} ${finality}`).toBeDefined();
  const { cursor: _c, ...rest } = f!.data;
  return rest;
};

describe('upstream mode in front of a local chain', () => {
  it('streams a transfer pending, confirmed, finalized to SSE and WebSocket clients as the local chain does, over one upstream connection', async () => {
    const walletRaw = rawUpper(wallet.contract.address);
    const health = await (await fetch(`${front.url}/health`)).json();
    expect(health).toMatchObject({ status: 'ok', stream: { kind: 'upstream-ws' } });

    const types = ['transactions', 'actions', 'account_state_change'];
    const sse = await SseClient.open(front.url, { types, addresses: [walletRaw], min_finality: 'pending', include_address_book: true, include_metadata: true });
    expect(sse.status).toBe(200);
    expect((await sse.next()).data.status).toBe('subscribed');
    const ws = await WsClient.open(front.url.replace(/^http/, 'ws'));
    // no address book or metadata asked for, and only jetton transfers among the actions
    expect(await ws.request({ id: 'w', operation: 'subscribe', types, addresses: [walletRaw], min_finality: 'pending', action_types: ['jetton_transfer'] })).toEqual({
      id: 'w',
      status: 'subscribed',
    });
    // the front gateway's union reached the local chain over one streaming connection
    await waitFor(async () => (local.liveHub!.size === 1 && local.liveHub!.interest().addresses.has(walletRaw) ? true : undefined));
    expect(await (await fetch(`${front.url}/health`)).json()).toEqual({ status: 'ok', stream: { kind: 'upstream-ws', up: true } });

    // a GraphQL live subscription on the front gateway is one more client of the same hub
    const gql = createGraphQLWs({ url: `${front.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const gqlIter = gql.iterate<{ transactionEvents: { finality: string; transactions: { hash: string }[] } }>({
      query: 'subscription ($a: [Address!]!) { transactionEvents(accounts: $a, minFinality: pending) { finality transactions { hash } } }',
      variables: { a: [walletRaw] },
    });
    await waitFor(async () => (front.liveHub!.size === 3 ? true : undefined));

    const direct = await SseClient.open(local.url, { types, addresses: [walletRaw], min_finality: 'pending', include_address_book: true, include_metadata: true });
    expect((await direct.next()).data.status).toBe('subscribed');
    expect(local.liveHub!.size).toBe(2);
    const sentBefore = front.upstream!.client.stats.sent;

    await transfer(fresh());
    for (const c of [direct, sse]) await c.next((f) => f.data?.type === 'actions' && f.data.finality === 'pending');
    await ws.next((f) => f.data?.type === 'transactions' && f.data.finality === 'pending');
    await local.chain!.sealBlock();
    for (const c of [direct, sse]) await c.next((f) => f.data?.type === 'account_state_change' && f.data.finality === 'finalized');
    await ws.next((f) => f.data?.type === 'account_state_change' && f.data.finality === 'finalized');

    for (const c of [direct, sse, ws]) expect(stages(c.frames, 'transactions')).toEqual(['pending', 'confirmed', 'finalized']);
    expect(stages(sse.frames, 'actions')).toEqual(['pending', 'confirmed', 'finalized']);
    for (const finality of ['pending', 'confirmed', 'finalized']) {
      for (const type of ['transactions', 'actions']) expect(body(sse.frames, type, finality)).toEqual(body(direct.frames, type, finality));
      // the WebSocket client asked for neither the address book nor metadata: the same transactions without them
      const { address_book: _b, metadata: _m, ...bare } = body(direct.frames, 'transactions', finality);
      expect(body(ws.frames, 'transactions', finality)).toEqual(bare);
    }
    // an account's state changes once its transaction is sealed
    for (const c of [direct, sse, ws]) expect(stages(c.frames, 'account_state_change')).toEqual(['confirmed', 'finalized']);
    for (const finality of ['confirmed', 'finalized']) {
      for (const c of [sse, ws]) expect(body(c.frames, 'account_state_change', finality)).toEqual(body(direct.frames, 'account_state_change', finality));
    }
    expect(body(sse.frames, 'transactions', 'finalized').address_book).toHaveProperty(walletRaw);
    // a TON transfer is no jetton transfer
    expect(stages(ws.frames, 'actions')).toEqual([]);
    // finalized events carry the front gateway's own cursor, for resuming from it
    const finalFrame = sse.frames.find((f) => f.data?.finality === 'finalized')!;
    expect(finalFrame.id).toBeTruthy();
    expect(finalFrame.data.cursor).toBe(finalFrame.id);
    const gqlStages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await gqlIter.next();
      const ev = (r.value as { data: { transactionEvents: { finality: string; transactions: { hash: string }[] } } }).data.transactionEvents;
      gqlStages.push(ev.finality);
      expect(ev.transactions.map((t) => t.hash)).toEqual(body(direct.frames, 'transactions', ev.finality).transactions.map((t: any) => t.hash));
    }
    expect(gqlStages).toEqual(['pending', 'confirmed', 'finalized']);
    await gqlIter.return?.();
    await gql.dispose();
    // the stream was up throughout: nothing was polled through v3
    expect(front.upstream!.client.stats.sent).toBe(sentBefore);
    expect(local.liveHub!.size).toBe(2);
    for (const c of [direct, sse, ws]) c.close();
  }, 90_000);

  it('feeds the GraphQL transactions(accounts) subscription from the upstream stream: nothing is polled while it is up', async () => {
    const dest = fresh();
    const destRaw = rawUpper(dest);
    const gql = createGraphQLWs({ url: `${front.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const iter = gql.iterate<{ transactions: { hash: string; lt: string } }>({
      query: 'subscription ($a: [Address!]!) { transactions(accounts: $a) { hash lt } }',
      variables: { a: [destRaw] },
    });
    const first = iter.next();
    // the subscription reached the local chain through the front gateway's one upstream stream
    await waitFor(async () => (local.liveHub!.interest().addresses.has(destRaw) ? true : undefined));
    const sentBefore = front.upstream!.client.stats.sent;

    await transfer(dest);
    await local.chain!.sealBlock();
    const got = (await first).value as { data: { transactions: { hash: string; lt: string } } };
    // the destination's one transaction, as the local chain itself reports it
    const { transactions } = await local.chain!.v3.transactions({ account: [dest], limit: 10, offset: 0, sort: 'desc' });
    expect(transactions.map((t) => [t.hash, t.lt])).toEqual([[got.data.transactions.hash, got.data.transactions.lt]]);
    // no masterchainInfo, /blocks or transactionsByMasterchainBlock call went upstream for it
    expect(front.upstream!.client.stats.sent).toBe(sentBefore);
    await iter.return?.();
    await gql.dispose();
  }, 60_000);

  it('follows a GraphQL traceTransactions subscription from the upstream stream to its completion', async () => {
    const dest = fresh();
    // the message is made before the subscription, so its normalised hash is known; it is sent after
    const { boc, norm } = await transferMessage(dest);
    const gql = createGraphQLWs({ url: `${front.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    const got: string[] = [];
    const done = (async () => {
      for await (const r of gql.iterate<{ traceTransactions: { hash: string } }>({
        query: 'subscription ($h: Hash!) { traceTransactions(externalHash: $h) { hash } }',
        variables: { h: norm },
      })) {
        got.push(r.data!.traceTransactions.hash);
      }
    })();
    await waitFor(async () => (local.liveHub!.interest().traceExternalHashNorms.has(norm) ? true : undefined));
    await sendToLocal(boc);
    await local.chain!.sealBlock();
    // the wallet's transaction, then the destination's, from the stream (the root was not sealed when the
    // subscription opened, so it also listens to polled blocks, but the next poll is minutes away): the trace
    // is complete and so is the subscription
    await done;
    const sent = (await local.chain!.v3.transactions({ account: [wallet.contract.address], limit: 1, offset: 0, sort: 'desc' })).transactions[0]!;
    const received = (await local.chain!.v3.transactions({ account: [dest], limit: 1, offset: 0, sort: 'desc' })).transactions[0]!;
    expect(got).toEqual([sent.hash, received.hash]);
    await gql.dispose();
  }, 60_000);

  it('keeps /health 200 while the upstream stream is down, and says so in the body', async () => {
    const gone = await startUpstreamGateway(`http://127.0.0.1:${await freePort()}`, { UPSTREAM_STREAM: 'ws' });
    try {
      const sse = await SseClient.open(gone.url, { types: ['transactions'], addresses: [rawUpper(wallet.contract.address)] });
      expect(sse.status).toBe(200);
      const body = await waitFor(async () => {
        const res = await fetch(`${gone.url}/health`);
        expect(res.status).toBe(200);
        const b = (await res.json()) as { stream?: { up: boolean; detail?: string } };
        return b.stream && !b.stream.up && b.stream.detail !== 'no subscription yet' ? b : undefined;
      });
      expect(body).toMatchObject({ status: 'ok', stream: { kind: 'upstream-ws', up: false, detail: expect.stringMatching(/ECONNREFUSED|connect/) } });
      sse.close();
    } finally {
      await gone.close();
    }
  }, 60_000);
});
