/**
 * Webhooks on the local chain, delivered to real receivers (HTTP servers on loopback that check each signature
 * as docs/webhooks.md tells a receiver to): every event of 1,000 transfers delivered exactly once after
 * deduplication by id, in order, each body the one a Streaming v2 client with the same subscription gets; a
 * receiver down and back loses nothing and is retried with growing delays (and after a Retry-After); a receiver
 * that always answers 500 is paused after N attempts with the event's cursor, while another webhook on the same
 * addresses goes on, and a PATCH resumes it from its cursor; a receiver that never answers is cut at the
 * timeout; a 4xx pauses at once and a redirect is not followed; a rewind replays; a webhook whose queue fills
 * under a slow receiver is fed from the event log and still gets everything once and in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from '@ton/core';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import { SseClient } from '../../../scripts/lib/streaming-client.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { Receiver, type Received } from '../../helpers/webhook-receiver.js';
import { API_KEYS, KEYS, api, fresh, transfers, webhookConfig } from '../../helpers/webhooks.js';

const KEY = KEYS[0]!;
let g: Gateway;
const receivers: Receiver[] = [];
const streams: SseClient[] = [];

beforeAll(async () => {
  // short delays, few attempts and a short timeout, so that failure takes seconds here
  g = await startTestGateway({ blockInterval: 0, apiKeys: API_KEYS, webhooks: webhookConfig({ backoffMs: 100, maxBackoffMs: 1600, maxAttempts: 8, timeoutMs: 1000 }) });
}, 60_000);

afterAll(async () => {
  for (const s of streams) s.close();
  for (const r of receivers) await r.stop();
  await g?.close();
});

async function receiver(): Promise<Receiver> {
  const r = await Receiver.start();
  receivers.push(r);
  return r;
}

/** A webhook to `rx` on `addresses`; the receiver learns its secret. */
async function webhook(rx: Receiver, addresses: Address[], extra: Record<string, unknown> = {}, gw = g): Promise<string> {
  const made = await api(gw.url, KEY, 'POST', '', { url: rx.url, types: ['transactions', 'actions', 'account_state_change'], addresses: addresses.map((a) => rawUpper(a)), ...extra });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  rx.secret = made.body.secret;
  return made.body.id;
}

/** A Streaming v2 SSE client with the same subscription: what the webhook must get, in the same order. */
async function mirror(addresses: Address[], gw = g): Promise<SseClient> {
  const s = await SseClient.open(gw.url, { types: ['transactions', 'actions', 'account_state_change'], addresses: addresses.map((a) => rawUpper(a)) });
  expect(s.status).toBe(200);
  await s.next();
  streams.push(s);
  return s;
}

const finalizedOf = (s: SseClient) => s.frames.filter((f) => f.data?.cursor !== undefined);

/** The receiver got, once each after deduplication and in the same order, exactly what the stream got. */
function sameAsStream(rx: Receiver, s: SseClient): Received[] {
  const want = finalizedOf(s);
  const got = rx.distinct().filter((r) => r.status >= 200 && r.status < 300);
  expect(got.map((r) => r.headers['x-webhook-event-id'])).toEqual(want.map((f) => f.id));
  for (const [i, r] of got.entries()) {
    expect(r.signed, `signature of ${r.headers['x-webhook-event-id']}`).toBe(true);
    expect(r.event).toEqual(want[i]!.data);
    expect(r.headers['x-webhook-cursor']).toBe(r.event.cursor);
  }
  return got;
}

const transactionsEvents = (rx: Receiver) => rx.distinct().filter((r) => r.status === 200 && r.event.type === 'transactions').length;

describe('webhooks on the local chain', () => {
  it('delivers every event of 1,000 transfers exactly once after deduplication, in order, signed', async () => {
    const wallet = g.chain!.keyedWallets()[0]!;
    const to = Array.from({ length: 10 }, fresh);
    const watched = [wallet.contract.address, ...to];
    const rx = await receiver();
    const id = await webhook(rx, watched);
    const s = await mirror(watched);
    await transfers(g, wallet, to, 1000);
    // each transfer is a trace of the wallet's transaction and its recipient's
    await waitFor(async () => (finalizedOf(s).filter((f) => f.data.type === 'transactions').length >= 1000 ? true : undefined), 60_000);
    await rx.until(() => rx.distinct().length >= finalizedOf(s).length, 60_000);
    const got = sameAsStream(rx, s);
    const cursors = got.map((r) => BigInt(r.event.cursor));
    expect(cursors.every((c, i) => i === 0 || c > cursors[i - 1]!)).toBe(true);
    const hashes = new Set(got.filter((r) => r.event.type === 'transactions').flatMap((r) => r.event.transactions.map((t: { hash: string }) => t.hash)));
    expect(hashes.size).toBe(2000);
    const state = await api(g.url, KEY, 'GET', `/${id}`);
    expect(state.body).toMatchObject({ paused: false, last_delivered: got.at(-1)!.event.cursor, failed_attempts: 0 });
  }, 120_000);
});

/** Credits `n` times to `to` through the faucet, each its own trace sealed at once. */
async function credit(to: Address, n: number, gw = g): Promise<void> {
  for (let i = 0; i < n; i++) await gw.chain!.faucet(to, 10_000_000n + BigInt(i));
}

const deliveries = async (id: string, gw = g): Promise<any[]> => (await api(gw.url, KEY, 'GET', `/${id}/deliveries`)).body.deliveries;
const stateOf = async (id: string, gw = g): Promise<any> => (await api(gw.url, KEY, 'GET', `/${id}`)).body;

/**
 * Every finalized event of `transfers` transfers has reached the stream and the receiver, and the webhook has
 * nothing queued or out, its cursor on the last of them: a rewind after this sees no late delivery of before.
 */
async function settled(rx: Receiver, s: SseClient, id: string, transfers: number): Promise<void> {
  await waitFor(async () => {
    const finalized = finalizedOf(s);
    if (finalized.filter((f) => f.data.type === 'transactions').length < transfers || rx.distinct().length < finalized.length) return undefined;
    const st = await stateOf(id);
    return st.queued === 0 && st.last_delivered === finalized.at(-1)!.id ? true : undefined;
  }, 30_000);
}

describe('a receiver that fails', () => {
  it('loses nothing while it is down, and is retried with growing delays', async () => {
    const a = fresh();
    const rx = await receiver();
    const id = await webhook(rx, [a]);
    const s = await mirror([a]);
    await rx.stop();
    await credit(a, 5);
    // four failed attempts at the first event, while the receiver is down
    const first = await waitFor(async () => {
      const retries = (await deliveries(id)).filter((d) => d.outcome === 'retry');
      return retries.length >= 4 ? retries.reverse() : undefined;
    }, 30_000);
    expect(new Set(first.map((d) => d.event_id)).size).toBe(1);
    expect(first.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
    expect(first[0].status).toBeNull();
    expect(first[0].error).toMatch(/ECONNREFUSED/);
    // the delay before attempt k+1 is at least half of 100 ms doubled k-1 times (full jitter between half and all)
    for (let k = 1; k < 4; k++) expect(first[k].at - first[k - 1].at, `delay after attempt ${k}`).toBeGreaterThanOrEqual(50 * 2 ** (k - 1) - 2);
    expect((await stateOf(id)).failed_attempts).toBeGreaterThanOrEqual(4);
    await rx.listen();
    await waitFor(async () => (finalizedOf(s).length > 0 && rx.distinct().length >= finalizedOf(s).length ? true : undefined), 30_000);
    sameAsStream(rx, s);
    expect(await stateOf(id)).toMatchObject({ paused: false, failed_attempts: 0, last_delivered: finalizedOf(s).at(-1)!.id });
  }, 60_000);

  it('waits as long as a Retry-After asks', async () => {
    const a = fresh();
    const rx = await receiver();
    let answered = 0;
    rx.behaviour = () => (answered++ === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 });
    const id = await webhook(rx, [a]);
    await credit(a, 1);
    await rx.until((got) => got.length >= 2);
    expect(rx.got[0]!.status).toBe(429);
    expect(rx.got[1]!.headers['x-webhook-event-id']).toBe(rx.got[0]!.headers['x-webhook-event-id']);
    expect(rx.got[1]!.headers['x-webhook-attempt']).toBe('2');
    expect(rx.got[1]!.at - rx.got[0]!.at).toBeGreaterThanOrEqual(990);
    expect((await deliveries(id)).at(-1)).toMatchObject({ outcome: 'retry', status: 429, attempt: 1 });
  }, 30_000);

  it('always answering 500 is paused after N attempts with its cursor; another webhook goes on; a PATCH resumes it from there', async () => {
    const b = fresh();
    const failing = await receiver();
    failing.behaviour = () => ({ status: 500 });
    const healthy = await receiver();
    const bad = await webhook(failing, [b]);
    await webhook(healthy, [b]);
    const s = await mirror([b]);
    await credit(b, 3);
    const paused = await waitFor(async () => {
      const st = await stateOf(bad);
      return st.paused ? st : undefined;
    }, 30_000);
    // the other webhook of the same addresses got everything meanwhile
    await healthy.until(() => finalizedOf(s).length > 0 && healthy.distinct().length >= finalizedOf(s).length);
    sameAsStream(healthy, s);
    const firstId = failing.got[0]!.headers['x-webhook-event-id'];
    expect(failing.got.map((r) => [r.headers['x-webhook-event-id'], r.headers['x-webhook-attempt']])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [firstId, String(n)]));
    expect(paused).toMatchObject({ paused: true, failed_attempts: 8, failed_cursor: firstId, last_error: 'receiver answered 500' });
    expect((await deliveries(bad))[0]).toMatchObject({ outcome: 'paused', status: 500, attempt: 8 });

    failing.behaviour = () => ({ status: 200 });
    failing.got.length = 0;
    const resumed = await api(g.url, KEY, 'PATCH', `/${bad}`, {});
    expect(resumed.body).toMatchObject({ paused: false, failed_attempts: 0, failed_cursor: null, last_error: null });
    await failing.until(() => failing.distinct().length >= finalizedOf(s).length);
    sameAsStream(failing, s);
  }, 60_000);

  it('never answering is cut at the timeout, and others are not held up', async () => {
    const c = fresh();
    const silent = await receiver();
    silent.behaviour = () => 'hang';
    const other = await receiver();
    const stuck = await webhook(silent, [c]);
    await webhook(other, [c]);
    const s = await mirror([c]);
    await credit(c, 2);
    await other.until(() => finalizedOf(s).length > 0 && other.distinct().length >= finalizedOf(s).length);
    sameAsStream(other, s);
    // attempt 1 ended at the 1 s timeout and attempt 2 began
    await silent.until((got) => got.some((r) => r.headers['x-webhook-attempt'] === '2'));
    const [timedOut] = (await deliveries(stuck)).reverse();
    expect(timedOut).toMatchObject({ outcome: 'retry', status: null, attempt: 1, error: 'timed out after 1000 ms' });
    expect(timedOut.latency_ms).toBeGreaterThanOrEqual(990);
    expect((await api(g.url, KEY, 'DELETE', `/${stuck}`)).status).toBe(204);
  }, 60_000);

  it('answering 4xx is paused at once, and a redirect is not followed', async () => {
    const d = fresh();
    const refusing = await receiver();
    refusing.behaviour = () => ({ status: 404 });
    const elsewhere = await receiver();
    const redirecting = await receiver();
    redirecting.behaviour = () => ({ status: 302, headers: { location: elsewhere.url } });
    const r404 = await webhook(refusing, [d]);
    const r302 = await webhook(redirecting, [d]);
    await credit(d, 1);
    const states = await waitFor(async () => {
      const both = await Promise.all([stateOf(r404), stateOf(r302)]);
      return both.every((st) => st.paused) ? both : undefined;
    });
    expect(states[0]).toMatchObject({ failed_attempts: 1, last_error: 'receiver answered 404' });
    expect(states[1]).toMatchObject({ failed_attempts: 1, last_error: `receiver answered 302 to ${elsewhere.url} (redirects are not followed)` });
    expect(refusing.got).toHaveLength(1);
    expect(redirecting.got).toHaveLength(1);
    expect(elsewhere.got).toHaveLength(0);
  }, 30_000);
});

describe('the cursor', () => {
  it('rewound by PATCH, replays what came after it', async () => {
    const e = fresh();
    const rx = await receiver();
    const id = await webhook(rx, [e]);
    const s = await mirror([e]);
    await credit(e, 3);
    await settled(rx, s, id, 3);
    const first = sameAsStream(rx, s);
    rx.got.length = 0;
    const rewound = await api(g.url, KEY, 'PATCH', `/${id}`, { cursor: first[0]!.event.cursor });
    expect(rewound.body.last_delivered).toBe(first[0]!.event.cursor);
    await rx.until((got) => got.length >= first.length - 1);
    expect(rx.got.map((r) => r.event)).toEqual(first.slice(1).map((r) => r.event));
  }, 30_000);

  it('rewound while a delivery is out, replays once that answer is in, with no new event to wake it', async () => {
    const e = fresh();
    const rx = await receiver();
    const id = await webhook(rx, [e]);
    const s = await mirror([e]);
    await credit(e, 2);
    await settled(rx, s, id, 2);
    const first = sameAsStream(rx, s);
    // the first replay's first POST is held open 1.5 s; the second rewind comes while it is out
    rx.behaviour = () => ({ status: 200, delayMs: 1500 });
    const arrived = rx.got.length;
    await api(g.url, KEY, 'PATCH', `/${id}`, { cursor: first[0]!.event.cursor });
    await rx.until((got) => got.length > arrived);
    rx.behaviour = () => ({ status: 200 });
    rx.got.length = 0;
    await api(g.url, KEY, 'PATCH', `/${id}`, { cursor: first[0]!.event.cursor });
    await rx.until((got) => got.length >= first.length - 1);
    expect(rx.got.map((r) => r.event)).toEqual(first.slice(1).map((r) => r.event));
  }, 30_000);
});

describe('a webhook whose queue fills', () => {
  it('is fed from the event log, and still gets every event once and in order', async () => {
    // a queue of 4 events per webhook, behind a receiver that takes 15 ms per event
    const small = await startTestGateway({ blockInterval: 0, apiKeys: API_KEYS, webhooks: webhookConfig({ queueEvents: 4 }) });
    try {
      const wallet = small.chain!.keyedWallets()[1]!;
      const to = Array.from({ length: 4 }, fresh);
      const watched = [wallet.contract.address, ...to];
      const rx = await receiver();
      rx.behaviour = () => ({ status: 200, delayMs: 15 });
      const id = await webhook(rx, watched, {}, small);
      const s = await mirror(watched, small);
      const reads = async () => Number(/^ton_gateway_webhook_log_reads_total (\d+)/m.exec(await (await fetch(`${small.url}/metrics`)).text())?.[1] ?? 0);
      const before = await reads();
      let most = 0;
      const sending = transfers(small, wallet, to, 100);
      const sampling = (async () => {
        for (let done = false; !done; ) {
          most = Math.max(most, (await stateOf(id, small)).queued);
          done = await Promise.race([sending.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);
        }
      })();
      await sending;
      await sampling;
      await waitFor(async () => (finalizedOf(s).filter((f) => f.data.type === 'transactions').length >= 100 ? true : undefined), 30_000);
      await rx.until(() => rx.distinct().length >= finalizedOf(s).length, 60_000);
      sameAsStream(rx, s);
      expect(most).toBeLessThanOrEqual(4);
      expect(await reads()).toBeGreaterThan(before);
    } finally {
      await small.close();
    }
  }, 90_000);
});
