/**
 * Replicas sharing one upstream stream through a real redis-server (issue 29, item 6): one replica holds the
 * lock and the only upstream connection, carrying the union of every replica's interest; every replica
 * delivers the same events with the same cursors (Redis Stream entry ids) and replays from any of them; a dead
 * holder's lock expires and another replica takes over; a cursor trimmed from the stream is refused naming the
 * oldest one kept. Issue 41: coverage is kept in Redis, so a client resuming on another replica is sent every
 * event of what it watches within the retention window and refused past it, and a replica taking over fills the
 * gap since the previous holder was last known to be receiving.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LiveCursorTooOld, type LiveEvent, type LiveGap, type LiveWant } from '../../src/live/feed.js';
import { loadConfig, type Config } from '../../src/config.js';
import { LiveRelay } from '../../src/live/relay.js';
import { sharedUpstreamFeed } from '../../src/sources/upstream/live-feed.js';
import { createUpstream } from '../../src/remote/upstream.js';
import { UpstreamLiveFeed, type UpstreamLiveOptions } from '../../src/sources/upstream/live-feed.js';
import { gapEvents } from '../../src/sources/upstream/gap-fill.js';
import { haveRedis, REDIS_SERVER, testRedis, type TestRedis } from '../helpers/redis.js';
import { waitFor } from '../helpers/wait.js';
import { ACCOUNT, TX, accountStateEvent, addressOf, interestOf, transactionsEvent } from '../sources/upstream/stream-events.js';
import { startStreamServer, type StreamServer } from '../sources/upstream/stream-server.js';

if (!haveRedis()) console.warn(`stream relay test skipped: no REDIS_TEST_URL and ${REDIS_SERVER} not found (apt-get install -y redis-server)`);

const LOCK_TTL_MS = 900;
const until = <T>(check: () => T | undefined | false, ms = 10_000) => waitFor(async () => check() || undefined, ms, 10);
const withoutCursor = ({ cursor: _c, ...e }: LiveEvent) => e;
const wantOf = (addresses: string[]): LiveWant => ({ addresses: new Set(addresses), traceExternalHashNorms: new Set(), types: new Set(['transactions']) });

describe.skipIf(!haveRedis())('stream relay between replicas', () => {
  let redis: TestRedis;
  let direct: Redis;
  let server: StreamServer;
  let prefix: string;
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    redis = await testRedis();
    direct = new Redis(redis.url);
  });
  afterAll(async () => {
    direct.disconnect();
    await redis.stop();
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function setup(): Promise<void> {
    server = await startStreamServer();
    cleanup.push(() => server.close());
    prefix = `tgw-test:${randomUUID()}:`;
  }

  function replica(id: string, maxLen = 10_000, feed: Partial<UpstreamLiveOptions> = {}) {
    const got: LiveEvent[] = [];
    const gaps: LiveGap[] = [];
    const up = createUpstream((loadConfig([], { BACKEND: 'toncenter', V2_URL: server.url, V3_URL: server.url, KEYLESS_RPS: '0' }) as Config).upstream);
    cleanup.push(() => up.close());
    const relay = new LiveRelay({
      url: redis.url,
      replicaId: id,
      prefix,
      maxLen,
      lockTtlMs: LOCK_TTL_MS,
      upstream: (shared) =>
        new UpstreamLiveFeed({
          baseUrl: server.url,
          apiKey: 'k',
          transport: 'ws',
          maxFrameBytes: 1024 * 1024,
          replayBytes: 1024 * 1024,
          debounceMs: 20,
          backoffMs: 40,
          gap: (addresses, from, to) => gapEvents(up.v3, addresses, from, to, 100),
          ...feed,
          ...shared,
        }),
    });
    cleanup.push(() => relay.stop());
    relay.start(
      (e) => got.push(e),
      (g) => gaps.push(g),
    );
    return { relay, got, gaps };
  }

  const holderOf = <R extends { relay: LiveRelay }>(...rs: R[]) => rs.filter((r) => r.relay.holding);

  it("1,000 subscribers' interest over two replicas is one upstream connection; both deliver the same events with the same cursors and replay after one", async () => {
    await setup();
    const a = replica('a');
    const b = replica('b');
    // 1,000 subscribers arriving one by one, one account each, spread over the two replicas
    const ofA = [ACCOUNT, ...Array.from({ length: 499 }, (_, i) => addressOf(i + 1))];
    const ofB = Array.from({ length: 500 }, (_, i) => addressOf(1000 + i));
    for (let i = 1; i <= 500; i++) {
      a.relay.setInterest(interestOf(ofA.slice(0, i)));
      b.relay.setInterest(interestOf(ofB.slice(0, i)));
    }
    await until(() => server.subscribes.at(-1)?.snapshot.addresses.length === 1000 && server.open() === 1);
    expect(holderOf(a, b)).toHaveLength(1);
    expect(server.accepted).toHaveLength(1);
    // debounced on the replicas and on the holder: a handful of subscriptions, not one per subscriber
    expect(server.subscribes.length).toBeLessThanOrEqual(4);

    const sent = [transactionsEvent('pending'), transactionsEvent('confirmed'), accountStateEvent('confirmed'), transactionsEvent('finalized'), accountStateEvent('finalized'), { ...accountStateEvent('finalized'), account: addressOf(1000) }];
    for (const e of sent) server.emit(e);
    await until(() => a.got.length === sent.length && b.got.length === sent.length);
    expect(a.got).toEqual(b.got);
    expect(a.got.map(withoutCursor)).toEqual(sent);
    const cursors = a.got.map((e) => e.cursor);
    expect(cursors.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    for (const c of cursors.slice(3)) expect(c).toMatch(/^\d+-\d+$/);
    // the cursor is the stream entry id
    const entries = (await direct.xrange(`${prefix}events`, '-', '+')).filter(([, fields]) => fields[0] === 'e');
    expect(entries.map(([id]) => id).slice(3)).toEqual(cursors.slice(3));

    // a client of b that saw the first finalized event resumes on a: exactly the two after it, in order
    const replayed: LiveEvent[] = [];
    await a.relay.replay(b.got[3]!.cursor!, (e) => replayed.push(e));
    expect(replayed).toEqual(b.got.slice(4));

    // the follower reports the holder's upstream status
    const [holder] = holderOf(a, b);
    const follower = holder === a ? b : a;
    expect(holder!.relay.status()).toEqual({ kind: 'redis', up: true, detail: 'this replica holds the upstream stream (upstream-ws)' });
    const expected = { kind: 'redis', up: true, detail: `replica ${holder!.relay.replicaId} holds the upstream stream (upstream-ws)` };
    await until(() => follower.relay.status().detail === expected.detail);
    expect(follower.relay.status()).toEqual(expected);
  });

  it('a dead holder is replaced within a few seconds, filling the gap from v3; a client resumes on the survivor without one', async () => {
    await setup();
    // a holder that died holding the lock: nobody releases it, it expires
    await direct.set(`${prefix}lock`, 'dead-replica', 'PX', LOCK_TTL_MS);
    const started = performance.now();
    const a = replica('a');
    const b = replica('b');
    a.relay.setInterest(interestOf([ACCOUNT]));
    b.relay.setInterest(interestOf([ACCOUNT]));
    await until(() => holderOf(a, b).length === 1 && server.subscribes.length === 1);
    const firstTakeover = performance.now() - started;
    expect(firstTakeover).toBeGreaterThan(LOCK_TTL_MS * 0.5);
    expect(firstTakeover).toBeLessThan(3_000);

    server.emit(transactionsEvent('finalized', '1'));
    await until(() => a.got.length === 1 && b.got.length === 1);
    const [holder] = holderOf(a, b);
    const survivor = holder === a ? b : a;
    const stopped = performance.now();
    // it dies: its lock lingers until it expires (held by a dead id here, so stopping frees nothing and hands nothing over)
    await direct.set(`${prefix}lock`, 'dead-replica', 'PX', LOCK_TTL_MS);
    await holder!.relay.stop();
    // finalized while nobody held the stream: the survivor asks v3 for it once it holds the stream
    const missed = { ...TX, hash: 'bWlzc2VkLXdoaWxlLW5vYm9keS1oZWxk', lt: '2', now: Math.floor(Date.now() / 1000), trace_id: 'gap-trace' };
    server.history.push(missed);
    await until(() => survivor.relay.holding && server.open() === 1 && server.subscribes.length === 2);
    expect(performance.now() - stopped).toBeLessThan(3_000);
    expect(server.accepted).toHaveLength(2);
    await until(() => survivor.got.length === 2);
    expect((survivor.got[1]!.transactions as { hash: string }[]).map((t) => t.hash)).toEqual([missed.hash]);

    for (let i = 3; i <= 5; i++) server.emit(transactionsEvent('finalized', String(i)));
    await until(() => survivor.got.length === 5);
    // a client of the stopped replica that had the first event resumes on the survivor: nothing is missing
    const replayed: LiveEvent[] = [];
    await survivor.relay.replay(holder!.got[0]!.cursor!, (e) => replayed.push(e), wantOf([ACCOUNT]));
    expect(replayed.map((e) => (e.transactions as { lt: string }[])[0]!.lt)).toEqual(['2', '3', '4', '5']);
    expect(replayed).toEqual(survivor.got.slice(1));
  });

  it('a holder that stops hands the stream over: it carries it until the taker does, so nothing is lost, account states (which v3 cannot give again) included', async () => {
    await setup();
    const a = replica('a');
    a.relay.setInterest(interestOf([ACCOUNT]));
    await until(() => a.relay.holding && server.subscribes.length === 1);
    const b = replica('b');
    b.relay.setInterest(interestOf([ACCOUNT]));
    // b reads the stream, and is known alive, once it has read a's status
    await until(() => b.relay.status().detail === 'replica a holds the upstream stream (upstream-ws)');
    server.emit(accountStateEvent('finalized'));
    await until(() => a.got.length === 1 && b.got.length === 1);

    const stopping = a.relay.stop();
    // the lock is freed at once; until b's own connection is up, a's still carries the stream
    await until(() => b.relay.holding);
    expect(server.open()).toBeGreaterThanOrEqual(1);
    server.emit({ ...accountStateEvent('finalized'), account: ACCOUNT });
    await until(() => b.got.length >= 2);
    await stopping;
    expect(server.accepted).toHaveLength(2);
    expect(server.subscribes).toHaveLength(2);
    expect(server.open()).toBe(1);
    server.emit(accountStateEvent('finalized'));
    server.emit(transactionsEvent('finalized', '2'));
    await until(() => b.got.filter((e) => e.type === 'transactions').length === 1);
    expect(b.gaps).toEqual([]);
    expect(b.got.filter((e) => e.type === 'account_state_change').length).toBeGreaterThanOrEqual(3);
  });

  it("a client, its address's only watcher, resumes on the other replica completely within the retention window, and is refused naming the oldest complete cursor past it", async () => {
    await setup();
    const a = replica('a', 10_000, { retainMs: 4 * LOCK_TTL_MS, paceMs: 0 });
    const b = replica('b', 10_000, { retainMs: 4 * LOCK_TTL_MS, paceMs: 0 });
    const want = wantOf([ACCOUNT]);
    a.relay.setInterest(interestOf([ACCOUNT]));
    b.relay.setInterest(interestOf([]));
    await until(() => holderOf(a, b).length === 1 && server.subscribes.length === 1);
    server.emit(transactionsEvent('finalized', '1'));
    await until(() => a.got.length === 1 && b.got.length === 1);
    const c1 = a.got[0]!.cursor!;
    // the only watcher leaves a: the holder keeps the address subscribed for the window
    a.relay.setInterest(interestOf([]));
    await new Promise((r) => setTimeout(r, 2 * LOCK_TTL_MS));
    expect(server.open()).toBe(1);
    server.emit(transactionsEvent('finalized', '2'));
    server.emit(transactionsEvent('finalized', '3'));
    await until(() => b.got.length === 3);
    const inside: LiveEvent[] = [];
    await b.relay.replay(c1, (e) => inside.push(e), want);
    expect(inside.map((e) => (e.transactions as { lt: string }[])[0]!.lt)).toEqual(['2', '3']);

    // past the window nothing of it is received, so a resume from before is refused on either replica
    await until(() => server.open() === 0, 10_000);
    server.emit(transactionsEvent('finalized', '4'));
    b.relay.setInterest(interestOf([ACCOUNT]));
    await until(() => server.open() === 1 && server.subscribes.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    server.emit(transactionsEvent('finalized', '5'));
    await until(() => a.got.length === 4 && b.got.length === 4);
    for (const r of [a, b]) {
      const err = await r.relay.replay(c1, () => {}, want).then(() => undefined, (e: unknown) => e as LiveCursorTooOld);
      expect(err).toBeInstanceOf(LiveCursorTooOld);
      expect(err!.message).toBe(`cursor is too old: the oldest that can be replayed for this subscription is ${err!.oldest}`);
      const from: LiveEvent[] = [];
      await r.relay.replay(err!.oldest!, (e) => from.push(e), want);
      expect(from.map((e) => (e.transactions as { lt: string }[])[0]!.lt)).toEqual(['5']);
    }
  });

  it('a cursor trimmed from the stream is LiveCursorTooOld naming the oldest entry kept', async () => {
    await setup();
    const a = replica('a', 100);
    a.relay.setInterest(interestOf([ACCOUNT]));
    await until(() => a.relay.holding && server.open() === 1 && server.subscribes.length === 1);
    await until(() => a.relay.status().detail === 'this replica holds the upstream stream (upstream-ws)');
    // in steps the readers keep up with: a reader further behind than the bound loses what was trimmed
    for (let i = 1; i <= 400; i++) {
      server.emit(transactionsEvent('finalized', String(i)));
      if (i % 50 === 0) await until(() => a.got.length === i);
    }
    const [[oldest]] = (await direct.xrange(`${prefix}events`, '-', '+', 'COUNT', 1)) as [[string, string[]]];
    expect(oldest).not.toBe(a.got[0]!.cursor);
    const err = await a.relay.replay(a.got[0]!.cursor!, () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiveCursorTooOld);
    expect((err as LiveCursorTooOld).oldest).toBe(oldest);
    expect((err as Error).message).toBe(`cursor is too old: the oldest that can be replayed is ${oldest}`);
    // from the oldest kept, everything after it, exactly once and in order
    const replayed: LiveEvent[] = [];
    await a.relay.replay(oldest, (e) => replayed.push(e));
    const from = a.got.findIndex((e) => e.cursor === oldest);
    expect(replayed).toEqual(a.got.slice(from + 1));
    await expect(a.relay.replay('not-a-cursor', () => {})).rejects.toBeInstanceOf(LiveCursorTooOld);
  });

  it('upstream mode with REDIS_URL is given the relay (under the default keys), without it the upstream stream itself', async () => {
    await setup();
    const env = { BACKEND: 'toncenter', V2_URL: server.url, V3_URL: server.url, KEYLESS_RPS: '0' };
    const up = createUpstream((loadConfig([], env) as Config).upstream);
    cleanup.push(() => up.close());
    expect(sharedUpstreamFeed(loadConfig([], env) as Config, up.v3)).toBeInstanceOf(UpstreamLiveFeed);
    const relay = sharedUpstreamFeed(loadConfig([], { ...env, REDIS_URL: redis.url, STREAM_RELAY_MAXLEN: '500' }) as Config, up.v3);
    expect(relay).toBeInstanceOf(LiveRelay);
    cleanup.push(() => relay.stop());
    relay.start(() => {});
    await until(() => (relay as LiveRelay).holding);
    expect(await direct.get('tgw:stream:lock')).toBe((relay as LiveRelay).replicaId);
  });
});
