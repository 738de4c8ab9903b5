/**
 * The upstream's Streaming API v2 consumed (issue 29, item 3), against a protocol-faithful stand-in on loopback
 * (stream-server.ts): events handed on unchanged over WebSocket and SSE, interest changes debounced into
 * resubscriptions, reconnects with backoff after a drop and through 429s, the 404 fallback to polling v3 said
 * in status, oversize frames refused without memory growth, and cursors for finalized events replayable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../src/live/feed.js';
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
  feed.start((e) => got.push(e));
  return { feed, got };
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

  it('SSE: a changed interest is a new request with the new body, and the old stream is closed', async () => {
    const server = await upstream();
    const { feed } = feedOn(server, { transport: 'sse' });
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
