/**
 * Issue 41, attack 9: one client's subscription never costs another its events in upstream mode. A gateway in
 * upstream mode in front of a local-chain gateway whose streaming limits are the reference's kind (1,000
 * addresses per connection): a well-behaved SSE subscriber watches one address and gets every finalized event
 * of it, exactly once, while another client subscribes to 1,000 addresses, then while two clients subscribe to
 * 520 each, and after they leave (their addresses then leave the upstream subscription, the retention window
 * scaled down to 2 s). The union is split over the upstream connections it allows; a client past its share, or a
 * subscription past the upstream stream's room, is refused (SSE 429, a WebSocket error frame) in words, and
 * nobody else notices.
 */
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { SseClient, WsClient } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { finalizedOf, startUpstreamGateway, transferSealed } from './helpers.js';

let local: Gateway;
let wallet: KeyedWallet;

beforeAll(async () => {
  local = await startTestGateway({ blockInterval: 3_600_000 });
  wallet = local.chain!.keyedWallets()[0]!;
}, 120_000);

afterAll(async () => {
  await local?.close();
});

const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));
const many = (n: number) => Array.from({ length: n }, () => rawUpper(fresh()));



const KEYS = ['victim', 'attacker', 'attacker2'];
const key = (k: string) => ({ 'x-api-key': k });
const TYPES = ['transactions'];

describe.each(['ws', 'sse'] as const)('upstream mode over %s: tenants isolated on the upstream stream', (transport) => {
  let front: Gateway;
  beforeAll(async () => {
    front = await startUpstreamGateway(local.url, {
      UPSTREAM_STREAM: transport,
      POLL_INTERVAL_MS: '600000',
      API_KEYS: KEYS.map((k) => `${k}:mainnet|testnet:0`).join(','),
      // 1,000 addresses in one SSE body
      STREAM_MAX_FRAME_BYTES: '131072',
      UPSTREAM_STREAM_RETAIN_MS: '2000',
    });
  }, 60_000);
  afterAll(async () => front?.close());

  it('a subscriber of one address gets every finalized event, exactly once, during and after 1,000- and 2 x 520-address subscriptions of others', async () => {
    const to = fresh();
    const raw = rawUpper(to);
    const victim = await SseClient.open(front.url, { types: TYPES, addresses: [raw] }, key('victim'));
    expect(victim.status).toBe(200);
    await waitFor(async () => (local.liveHub!.interest().addresses.has(raw) ? true : undefined));
    const sealed: string[] = [];
    const seal = async (n: number, pauseMs = 0) => {
      for (let i = 0; i < n; i++) {
        await transferSealed(local, wallet, to);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    };

    // one client with 1,000 addresses: admitted, and the union split over two upstream connections
    const big = many(1000);
    const attacker = await SseClient.open(front.url, { types: TYPES, addresses: big }, key('attacker'));
    expect(attacker.status).toBe(200);
    await waitFor(async () => (big.every((a) => local.liveHub!.interest().addresses.has(a)) ? true : undefined), 20_000);
    expect(local.liveHub!.size).toBe(2);
    // past its share (1,000 addresses per client), the same client is refused, in words
    const more = await SseClient.open(front.url, { types: TYPES, addresses: many(1) }, key('attacker'));
    expect(more.status).toBe(429);
    expect(more.error).toEqual({ error: 'upstream stream share exceeded: this client would watch 1001 addresses > max 1000' });
    const moreWs = await WsClient.open(front.url, key('attacker'));
    expect(await moreWs.request({ id: 'm', operation: 'subscribe', types: TYPES, addresses: many(1) })).toEqual({
      id: 'm',
      error: 'upstream stream share exceeded: this client would watch 1001 addresses > max 1000',
    });
    moreWs.close();
    // past the upstream stream's room (2 connections of what one subscription may name: the local chain's 1,000
    // addresses, which fit in its 128 KiB frames), another client is refused
    const room = front.liveHub!.feed.capacity!()!.addresses;
    expect(room).toBe(2 * Math.min(1000, Math.floor((128 * 1024 - 1024) / 71)));
    const full = await SseClient.open(front.url, { types: TYPES, addresses: many(1000) }, key('attacker2'));
    expect(full.status).toBe(429);
    expect(full.error).toEqual({ error: `upstream stream full: 1001 addresses watched + new 1000 > max ${room}` });
    await seal(8);
    attacker.close();
    // after: the 1,000 addresses leave the upstream subscription when the (scaled down) window passes
    await seal(8, 400);
    await waitFor(async () => (big.some((a) => local.liveHub!.interest().addresses.has(a)) ? undefined : true), 20_000);

    // two clients with 520 addresses each
    const a1 = await SseClient.open(front.url, { types: TYPES, addresses: many(520) }, key('attacker'));
    const a2 = await SseClient.open(front.url, { types: TYPES, addresses: many(520) }, key('attacker2'));
    expect([a1.status, a2.status]).toEqual([200, 200]);
    await waitFor(async () => (local.liveHub!.interest().addresses.size >= 1041 ? true : undefined), 20_000);
    await seal(8);
    a1.close();
    a2.close();
    await seal(8, 400);

    sealed.push(...(await local.chain!.v3.transactions({ account: [to], limit: 100, offset: 0, sort: 'asc' })).transactions.map((t) => t.hash));
    expect(sealed).toHaveLength(32);
    await waitFor(async () => (finalizedOf(victim.frames, raw).length >= 32 ? true : undefined), 30_000);
    // every one, once (events filled in after a reconnect may come after later live ones: no order across a gap)
    const got = finalizedOf(victim.frames, raw);
    expect(got).toHaveLength(32);
    expect([...got].sort()).toEqual([...sealed].sort());
    expect(victim.ended).toBe(false);
    victim.close();
  }, 180_000);
});
