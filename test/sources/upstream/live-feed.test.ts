/**
 * The upstream's Streaming API v2 consumed (issue 29, item 3), against a protocol-faithful stand-in on loopback
 * (stream-server.ts): events handed on unchanged over WebSocket and SSE, interest changes debounced into
 * resubscriptions, reconnects with backoff after a drop and through 429s, the 404 fallback to polling v3 said
 * in status, oversize frames refused without memory growth, and cursors for finalized events replayable.
 * Issue 41: the union split over connections within the upstream's limits (and lower ones learnt from its
 * refusals) without displacing what is watched; what nobody watches kept subscribed for the retention window so a
 * resume inside it is complete and one outside it refused naming the oldest complete cursor; a connection's gap
 * filled from v3 for finalized transactions, exactly once, and reported for what cannot be asked again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent, LiveGap, LiveWant } from '../../../src/live/feed.js';
import { LiveCursorTooOld } from '../../../src/live/feed.js';
import { createUpstream } from '../../../src/remote/upstream.js';
import { UpstreamLiveFeed, createUpstreamLiveFeed, type UpstreamLiveOptions } from '../../../src/sources/upstream/live-feed.js';
import { loadConfig, type Config } from '../../../src/config.js';
import { liveHealth } from '../../../src/live/feed.js';
import { waitFor } from '../../helpers/wait.js';
import { ACCOUNT, TX, accountStateEvent, addressOf, interestOf, invalidatedEvent, transactionsEvent } from './stream-events.js';
import { startStreamServer, type StreamServer } from './stream-server.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function upstream(keepaliveMs?: number): Promise<StreamServer> {
  const server = await startStreamServer({ keepaliveMs });
  cleanup.push(() => server.close());
  return server;
}

function recordingLog() {
  const warns: string[] = [];
  return { warns, warn: (_o: object, m: string) => void warns.push(m), info() {} };
}

function feedOn(server: StreamServer, opts: Partial<UpstreamLiveOptions> = {}) {
  const got: LiveEvent[] = [];
  const gaps: LiveGap[] = [];
  const feed = new UpstreamLiveFeed({
    baseUrl: server.url,
    apiKey: 'k',
    transport: 'auto',
    maxFrameBytes: 1024 * 1024,
    replayBytes: 1024 * 1024,
    debounceMs: 50,
    backoffMs: 40,
    maxBackoffMs: 2_000,
    ...opts,
  });
  cleanup.push(() => feed.stop());
  feed.start(
    (e) => got.push(e),
    (g) => gaps.push(g),
  );
  return { feed, got, gaps };
}

const until = <T>(check: () => T | undefined | false, ms = 10_000) => waitFor(async () => check() || undefined, ms, 10);
/** Up on its first subscription (before it, with no interest yet, the feed is idle, which is up too). */
const subscribed = (feed: UpstreamLiveFeed) => until(() => feed.status().up && feed.status().detail === undefined);
const withoutCursor = ({ cursor: _c, ...e }: LiveEvent) => e;

describe.each(['ws', 'sse'] as const)('upstream stream over %s', (transport) => {
  it('subscribes to the interest and hands every event on unchanged; finalized ones get increasing cursors', async () => {
    const server = await upstream(30);
    const { feed, got } = feedOn(server, { transport });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    expect(feed.status()).toEqual({ kind: `upstream-${transport}`, up: true });
    expect(server.subscribes[0]).toEqual({ transport, snapshot: { types: ['account_state_change', 'transactions'], addresses: [ACCOUNT], traces: [], minFinality: 'pending' } });

    const sent = [transactionsEvent('pending'), transactionsEvent('confirmed'), accountStateEvent('confirmed'), invalidatedEvent, transactionsEvent('finalized'), accountStateEvent('finalized')];
    for (const e of sent) server.emit(e);
    // another account's event is not subscribed to, so it never arrives
    server.emit({ ...accountStateEvent('finalized'), account: addressOf(7) });
    await until(() => got.length === sent.length);
    expect(got.map(withoutCursor)).toEqual(sent);
    expect(got.filter((e) => e.cursor !== undefined).map((e) => e.finality)).toEqual(['finalized', 'finalized']);
    expect(got[4]!.cursor! < got[5]!.cursor! || got[4]!.cursor!.length < got[5]!.cursor!.length).toBe(true);
    // replay after the first finalized event gives exactly the second
    const replayed: LiveEvent[] = [];
    await feed.replay(got[4]!.cursor!, (e) => replayed.push(e));
    expect(replayed).toEqual([got[5]]);
    expect(server.accepted).toHaveLength(1);
  });

  it('reconnects with exponential backoff after the upstream drops, through 429s, and carries on', async () => {
    const server = await upstream();
    const { feed, got } = feedOn(server, { transport });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    server.refuse.push(429, 429, 429);
    server.drop();
    await until(() => !feed.status().up);
    expect(feed.status().detail).toMatch(/closed|ended|HTTP 429/);
    await until(() => server.accepted.length === 2 && feed.status().up);
    const tries = server.attempts.slice(1).map((a) => a.t);
    expect(tries).toHaveLength(4);
    // each wait at least half of base * 2^n (the jitter's floor), so the delays grow
    for (let n = 1; n < tries.length; n++) expect(tries[n]! - tries[n - 1]!).toBeGreaterThanOrEqual(40 * 2 ** n * 0.5 - 5);
    server.emit(transactionsEvent('confirmed'));
    await until(() => got.length === 1);
    expect(got[0]).toEqual(transactionsEvent('confirmed'));
  });
});

describe('upstream stream: interest', () => {
  it('WebSocket: a burst of interest changes is one new subscribe on the same socket, replacing the snapshot', async () => {
    const server = await upstream();
    const { feed } = feedOn(server, { transport: 'ws' });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    const many = Array.from({ length: 200 }, (_, i) => addressOf(i + 1));
    for (let i = 1; i <= many.length; i++) feed.setInterest(interestOf([ACCOUNT, ...many.slice(0, i)]));
    await until(() => server.subscribes.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(server.subscribes).toHaveLength(2);
    expect(server.subscribes[1]!.snapshot.addresses).toHaveLength(201);
    expect(server.accepted).toHaveLength(1);
    expect(feed.subscribes).toBe(2);
  });

  it('changes spread over time are paced: at most one subscription per connection per pace period', async () => {
    const server = await upstream();
    const { feed } = feedOn(server, { transport: 'ws', debounceMs: 20, paceMs: 400 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    const started = performance.now();
    // a client subscribing a new address every 40 ms for about a second and a half
    for (let i = 1; i <= 40; i++) {
      feed.setInterest(interestOf([ACCOUNT, ...Array.from({ length: i }, (_, n) => addressOf(n + 1))]));
      await new Promise((r) => setTimeout(r, 40));
    }
    await until(() => server.held()[0]?.addresses.length === 41);
    const periods = Math.ceil((performance.now() - started) / 400);
    // the first subscription, then at most one per period begun (and the one that carries the last change)
    expect(server.subscribes.length).toBeLessThanOrEqual(1 + periods + 1);
    expect(server.accepted).toHaveLength(1);
  });

  it('SSE: a changed interest is a new request with the new body, and the old stream is closed', async () => {
    const server = await upstream();
    // one connection, and nothing kept for resumes: the new body is exactly the new interest
    const { feed } = feedOn(server, { transport: 'sse', maxConnections: 1, retainMs: 0 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    feed.setInterest(interestOf([ACCOUNT, addressOf(1)]));
    feed.setInterest(interestOf([ACCOUNT, addressOf(1), addressOf(2)], new Set(['transactions']), 'finalized'));
    await until(() => server.subscribes.length === 2 && server.open() === 1);
    expect(server.subscribes[1]!.snapshot).toEqual({ types: ['transactions'], addresses: [ACCOUNT, addressOf(1), addressOf(2)].sort(), traces: [], minFinality: 'finalized' });
    expect(server.errors).toEqual([]);
  });

  it('no client watching anything holds no upstream connection; a trace interest subscribes by hash', async () => {
    const server = await upstream();
    const { feed, got } = feedOn(server, { transport: 'ws' });
    feed.setInterest(interestOf([]));
    await new Promise((r) => setTimeout(r, 150));
    expect(server.attempts).toHaveLength(0);
    expect(feed.status()).toMatchObject({ up: true, detail: expect.stringContaining('idle') });
    feed.setInterest({ addresses: new Set(), traceExternalHashNorms: new Set([TX.in_msg.hash]), types: new Set(['trace', 'transactions']), minFinality: 'finalized' });
    await until(() => feed.status().up && server.subscribes.length === 1);
    expect(server.subscribes[0]!.snapshot).toMatchObject({ types: ['trace'], traces: [TX.in_msg.hash] });
    const trace = { type: 'trace', finality: 'finalized', trace_external_hash_norm: TX.in_msg.hash, trace: { tx_hash: TX.hash, in_msg_hash: TX.in_msg.hash, children: [] }, transactions: { [TX.hash]: TX } };
    server.emit(trace);
    await until(() => got.length === 1);
    expect(withoutCursor(got[0]!)).toEqual(trace);
  });
});

describe('upstream stream: bounds', () => {
  it('WebSocket: a frame over the bound closes the connection (ws refuses it before buffering it), then reconnects', async () => {
    const server = await upstream();
    const { feed, got } = feedOn(server, { transport: 'ws', maxFrameBytes: 64 * 1024 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    server.sendRaw(JSON.stringify({ ...transactionsEvent('confirmed'), pad: 'x'.repeat(256 * 1024) }));
    await until(() => !feed.status().up);
    expect(feed.status().detail).toBe('an upstream frame was larger than 65536 bytes');
    await until(() => server.accepted.length === 2 && feed.status().up);
    expect(got).toEqual([]);
  });

  it('SSE: a line that never ends is cut at the bound; memory does not grow with what the upstream sends', async () => {
    const server = await upstream();
    const { feed } = feedOn(server, { transport: 'sse', maxFrameBytes: 256 * 1024 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    const before = process.memoryUsage();
    const written = await server.endlessLine(256 * 1024 * 1024);
    const after = process.memoryUsage();
    // the gateway hung up after about the bound (plus what sat in socket buffers), not after 256 MiB
    expect(written).toBeLessThan(16 * 1024 * 1024);
    expect(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers).toBeLessThan(32 * 1024 * 1024);
    await until(() => !feed.status().up || server.accepted.length === 2);
    await until(() => server.accepted.length === 2);
    expect(server.attempts.length).toBeGreaterThanOrEqual(2);
  });

  it('a cursor older than what is kept, or of another run, is LiveCursorTooOld naming the oldest', async () => {
    const server = await upstream();
    // room for about five of the twenty events, whatever transaction fills them (recorded, or the reference's example)
    const frameBytes = Buffer.byteLength(JSON.stringify(transactionsEvent('finalized', '1000')));
    const { feed, got } = feedOn(server, { transport: 'ws', replayBytes: 5 * frameBytes });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    for (let i = 0; i < 20; i++) server.emit(transactionsEvent('finalized', String(1000 + i)));
    await until(() => got.length === 20);
    const err = await feed.replay(got[0]!.cursor!, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiveCursorTooOld);
    const oldest = (err as LiveCursorTooOld).oldest!;
    expect((err as Error).message).toContain(oldest);
    const kept = got.findIndex((e) => e.cursor === oldest);
    expect(kept).toBeGreaterThan(0);
    // resuming from the one just before the oldest kept loses nothing
    const replayed: LiveEvent[] = [];
    await feed.replay(got[kept - 1]!.cursor!, (e) => replayed.push(e));
    expect(replayed).toEqual(got.slice(kept));
    await expect(feed.replay('zzz-1', () => {})).rejects.toBeInstanceOf(LiveCursorTooOld);
  });
});

describe('upstream stream: no streaming endpoint', () => {
  it('404 on WebSocket and SSE: polls v3 for finalized transactions, says so once in status and the log', async () => {
    const server = await upstream();
    server.endpoints.ws = false;
    server.endpoints.sse = false;
    const log = recordingLog();
    const config = loadConfig([], { BACKEND: 'toncenter', V2_URL: server.url, V3_URL: server.url, KEYLESS_RPS: '0', POLL_INTERVAL_MS: '100' }) as Config;
    const up = createUpstream(config.upstream);
    cleanup.push(() => up.close());
    const feed = createUpstreamLiveFeed(config, up.v3, { ...log, warn: log.warn, info: log.info });
    cleanup.push(() => feed.stop());
    const got: LiveEvent[] = [];
    feed.start((e) => got.push(e));
    feed.setInterest(interestOf([ACCOUNT]));
    await until(() => feed.status().kind === 'polling');
    expect(feed.status()).toEqual({ kind: 'polling', up: true, detail: 'the upstream has no streaming endpoint (404): polling v3 for finalized transactions instead' });
    expect(liveHealth(feed)).toEqual({ stream: feed.status() });
    expect(server.attempts.map((a) => [a.transport, a.status])).toEqual([
      ['ws', 404],
      ['sse', 404],
    ]);
    await until(() => server.v3Calls.includes('/api/v3/masterchainInfo'));
    server.seal([TX, { ...TX, account: addressOf(9), hash: 'b3RoZXI=' }]);
    await until(() => got.length === 1);
    expect(withoutCursor(got[0]!)).toEqual({
      type: 'transactions',
      finality: 'finalized',
      trace_external_hash_norm: TX.in_msg.hash,
      transactions: [{ ...TX, finality: 'finalized' }],
    });
    expect(got[0]!.cursor).toBeDefined();
    feed.setInterest(interestOf([ACCOUNT, addressOf(1)]));
    await new Promise((r) => setTimeout(r, 300));
    expect(log.warns.filter((m) => m.includes('no streaming endpoint'))).toHaveLength(1);
    expect(server.attempts).toHaveLength(2);
  });
});

const wantOf = (addresses: string[], types: LiveWant['types'] = new Set(['transactions'])): LiveWant => ({ addresses: new Set(addresses), traceExternalHashNorms: new Set(), types });
const tooOld = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as LiveCursorTooOld);

describe('upstream stream: limits', () => {
  it('splits the union over connections within the limits; a new address never displaces one watched; past them it is left out and said', async () => {
    const server = await upstream();
    server.limits = { addresses: 3, connections: 2 };
    const { feed, got } = feedOn(server, { transport: 'ws', maxAddresses: 3, maxConnections: 2, paceMs: 0 });
    expect(feed.capacity()).toEqual({ addresses: 6, perClient: 1000 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    const others = Array.from({ length: 6 }, (_, i) => addressOf(i + 1));
    feed.setInterest(interestOf([ACCOUNT, ...others]));
    // the first connection kept the first address and took two more; the last address came too late
    const held = () => server.held().map((s) => s.addresses);
    await until(() => held().flat().length === 6 && feed.status().detail?.includes('1 watched addresses are beyond'));
    expect(held().flat().sort()).toEqual([ACCOUNT, ...others.slice(0, 5)].sort());
    expect(held().map((a) => a.length)).toEqual([3, 3]);
    expect(feed.status()).toEqual({ kind: 'upstream-ws', up: true, detail: "1 watched addresses are beyond the upstream's limits (2 connections of 3 addresses) and not subscribed" });
    expect(server.errors).toEqual([]);
    server.emit(transactionsEvent('finalized'));
    await until(() => got.length === 1);
  });

  it('WebSocket: a refused subscription leaves the one held before; the limit it states is learnt and the addresses split', async () => {
    const server = await upstream();
    server.limits = { addresses: 3, connections: 0 };
    const { feed, got } = feedOn(server, { transport: 'ws', maxAddresses: 10, maxConnections: 2, paceMs: 0 });
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    const others = Array.from({ length: 4 }, (_, i) => addressOf(i + 1));
    feed.setInterest(interestOf([ACCOUNT, ...others]));
    await until(() => server.errors.length === 1);
    expect(server.errors[0]).toBe('address limit exceeded: current 1 + new 4 > max 3');
    // events of the address watched before the refusal kept coming throughout
    server.emit(transactionsEvent('finalized', '1'));
    await until(() => server.open() === 2 && feed.status().up && feed.status().detail === undefined);
    server.emit(transactionsEvent('finalized', '2'));
    await until(() => got.length === 2);
    expect(got.map((e) => (e.transactions as { lt: string }[])[0]!.lt)).toEqual(['1', '2']);
    expect(feed.capacity().addresses).toBe(6);
    expect(server.held().flatMap((s) => s.addresses).sort()).toEqual([ACCOUNT, ...others].sort());
  });

  it('a connection limit the upstream states is learnt: what fits stays on the connections it allows', async () => {
    const server = await upstream();
    server.limits = { addresses: 0, connections: 1 };
    const { feed, got } = feedOn(server, { transport: 'ws', maxAddresses: 2, maxConnections: 3, paceMs: 0 });
    feed.setInterest(interestOf([ACCOUNT, addressOf(1), addressOf(2), addressOf(3)]));
    await until(() => server.errors.includes('connection limit reached: 1 active connections') && feed.capacity().addresses === 2);
    await until(() => feed.status().up);
    expect(server.open()).toBe(1);
    expect(feed.status().detail).toMatch(/2 watched addresses are beyond the upstream's limits \(1 connections of 2 addresses\)/);
    server.emit(transactionsEvent('finalized'));
    await until(() => got.length === 1);
  });
});

describe('upstream stream: resumes', () => {
  it('what nobody watches stays subscribed for the retention window: a resume inside it is complete, one from before it came back is refused naming the oldest complete cursor', async () => {
    const server = await upstream();
    const { feed, got } = feedOn(server, { transport: 'ws', retainMs: 400 });
    const want = wantOf([ACCOUNT]);
    feed.setInterest(interestOf([ACCOUNT]));
    await subscribed(feed);
    server.emit(transactionsEvent('finalized', '1'));
    await until(() => got.length === 1);
    const c1 = got[0]!.cursor!;
    // its only watcher left: still subscribed, so what comes meanwhile is kept
    feed.setInterest(interestOf([]));
    await new Promise((r) => setTimeout(r, 150));
    expect(server.open()).toBe(1);
    server.emit(transactionsEvent('finalized', '2'));
    server.emit(transactionsEvent('finalized', '3'));
    await until(() => got.length === 3);
    const inside: LiveEvent[] = [];
    await feed.replay(c1, (e) => inside.push(e), want);
    expect(inside).toEqual(got.slice(1));
    // an address that was never subscribed cannot be resumed at all
    expect((await tooOld(feed.replay(c1, () => {}, wantOf([addressOf(5)]))))?.message).toBe('cursor is too old: nothing can be replayed for this subscription yet');

    // the window passes: unsubscribed, and what comes meanwhile is not received
    await until(() => server.open() === 0, 5_000);
    server.emit(transactionsEvent('finalized', '4'));
    feed.setInterest(interestOf([ACCOUNT]));
    await until(() => server.open() === 1 && feed.status().up && feed.status().detail === undefined);
    server.emit(transactionsEvent('finalized', '5'));
    await until(() => got.length === 4);
    const refused = await tooOld(feed.replay(c1, () => {}, want));
    expect(refused).toBeInstanceOf(LiveCursorTooOld);
    expect(refused!.message).toBe(`cursor is too old: the oldest that can be replayed for this subscription is ${refused!.oldest}`);
    // from the named cursor on, the resume is complete: the one event since the address came back
    const after: LiveEvent[] = [];
    await feed.replay(refused!.oldest!, (e) => after.push(e), want);
    expect(after.map((e) => (e.transactions as { lt: string }[])[0]!.lt)).toEqual(['5']);
    // without saying what it watches, the ring's own bound is all that is checked
    await feed.replay(c1, () => {});
  });
});

describe('upstream stream: gaps', () => {
  async function gapFeed(server: StreamServer, env: Record<string, string> = {}) {
    const config = loadConfig([], { BACKEND: 'toncenter', V2_URL: server.url, V3_URL: server.url, KEYLESS_RPS: '0', ...env }) as Config;
    const up = createUpstream(config.upstream);
    cleanup.push(() => up.close());
    const feed = createUpstreamLiveFeed(config, up.v3);
    cleanup.push(() => feed.stop());
    const got: LiveEvent[] = [];
    const gaps: LiveGap[] = [];
    feed.start(
      (e) => got.push(e),
      (g) => gaps.push(g),
    );
    return { feed, got, gaps };
  }
  const row = (lt: string, now = Math.floor(Date.now() / 1000)) => ({ ...TX, hash: Buffer.from(`tx-${lt}`).toString('base64'), lt, now, trace_id: `trace-${lt}` });

  it('a connection lost and back: the finalized transactions meanwhile are asked of v3 and sent once; other types are reported as a gap', async () => {
    const server = await upstream();
    const { feed, got, gaps } = await gapFeed(server, { UPSTREAM_STREAM: 'ws' });
    feed.setInterest(interestOf([ACCOUNT], new Set(['transactions', 'account_state_change'])));
    await subscribed(feed);
    const t1 = row('1');
    server.history.push(t1);
    server.emit({ ...transactionsEvent('finalized'), transactions: [{ ...t1, finality: 'finalized' }] });
    await until(() => got.length === 1);
    const c1 = got[0]!.cursor!;

    server.refuse.push(503);
    server.drop();
    await until(() => !feed.status().up);
    // sealed while the gateway was not connected
    const t2 = row('2');
    const t3 = row('3');
    server.history.push(t2, t3);
    await until(() => got.length === 3 && gaps.length === 1);
    expect(got.slice(1).map((e) => [e.type, e.finality, (e.transactions as { hash: string }[]).map((t) => t.hash)])).toEqual([
      ['transactions', 'finalized', [t2.hash]],
      ['transactions', 'finalized', [t3.hash]],
    ]);
    expect(server.v3Calls.filter((p) => p === '/api/v3/transactions').length).toBe(1);
    // the state changes meanwhile cannot be asked again: said, for the address and type concerned
    expect(gaps[0]).toMatchObject({ addresses: new Set([ACCOUNT]), types: new Set(['account_state_change']), reason: expect.stringContaining('interrupted') });
    // the stream sends the last one again: not sent twice
    server.emit({ ...transactionsEvent('finalized'), transactions: [{ ...t3, finality: 'finalized' }] });
    server.emit(accountStateEvent('finalized'));
    await until(() => got.length === 4);
    expect(got[3]!.type).toBe('account_state_change');

    // transactions resume complete across the gap; state changes only from after it
    const replayed: LiveEvent[] = [];
    await feed.replay(c1, (e) => replayed.push(e), wantOf([ACCOUNT]));
    expect(replayed.filter((e) => e.type === 'transactions').flatMap((e) => (e.transactions as { hash: string }[]).map((t) => t.hash))).toEqual([t2.hash, t3.hash]);
    const refused = await tooOld(feed.replay(c1, () => {}, wantOf([ACCOUNT], new Set(['account_state_change']))));
    expect(refused).toBeInstanceOf(LiveCursorTooOld);
    const states: LiveEvent[] = [];
    await feed.replay(refused!.oldest!, (e) => states.push(e), wantOf([ACCOUNT], new Set(['account_state_change'])));
    expect(states.map((e) => e.type)).toContain('account_state_change');
  });

  it('a gap past its bound is reported, not filled, and its coverage starts again', async () => {
    const server = await upstream();
    const { feed, got, gaps } = await gapFeed(server, { UPSTREAM_STREAM: 'ws', UPSTREAM_STREAM_GAP_TRANSACTIONS: '2' });
    feed.setInterest(interestOf([ACCOUNT], new Set(['transactions'])));
    await subscribed(feed);
    server.emit(transactionsEvent('finalized', '1'));
    await until(() => got.length === 1);
    server.refuse.push(503);
    server.drop();
    await until(() => !feed.status().up);
    server.history.push(row('2'), row('3'), row('4'));
    await until(() => gaps.length === 1);
    expect(gaps[0]).toMatchObject({ types: new Set(['transactions']), reason: expect.stringContaining('longer than its gap can be filled') });
    expect(got).toHaveLength(1);
    expect(await tooOld(feed.replay(got[0]!.cursor!, () => {}, wantOf([ACCOUNT])))).toBeInstanceOf(LiveCursorTooOld);
  });
});
