/**
 * The upstream's own Streaming API v2 as a LiveFeed (`../shared/reference/streaming-v2.md`): the union of what
 * the gateway's clients watch, split over connections within the upstream's limits (connections per key,
 * addresses per connection: configured, and learnt lower from the upstream's refusal texts), every event handed
 * on as it came.
 *
 * - An address stays on its connection while it is watched; a new one never displaces one watched already. Past
 *   the limits it is left out and said so in status(); the hub admits no more than capacity() (live/hub.ts).
 * - Changes are batched (debounceMs) and paced per connection (paceMs). On a WebSocket a change is a new
 *   `subscribe` on the same socket, without a gap; on SSE it is a new request, so new addresses go to a
 *   connection that changes anyway or is not open yet before one that carries others.
 * - An address, trace hash or event type nobody watches any more stays subscribed for retainMs, so a client
 *   reconnecting within it resumes without a gap; when room is short the lingering ones leave first.
 * - Coverage (live/coverage.ts) records from where every event of each type and address is held; a resume from
 *   before that is refused naming the oldest cursor that would be complete.
 * - A connection lost and back: the finalized transactions of its addresses meanwhile are asked of v3 and sent,
 *   once (what the stream sent is skipped, and what a fill sent is taken out of later stream events); what cannot
 *   be asked again (the other types, or a gap past its bound) is told to the hub as a LiveGap, and its coverage
 *   starts again. A dropped connection is reopened with exponential backoff and jitter (toncenter may answer 429
 *   while the dropped slot lingers).
 * - An upstream without a streaming endpoint (404 on both) is polled instead through v3, finalized transactions
 *   only, said once in the log and in status().
 *
 * The upstream gives its events no cursors: finalized ones get this process's own (live/replay-ring.ts). With
 * REDIS_URL, replicas share one upstream stream through the relay (live/relay.ts): sharedUpstreamFeed below.
 */
import { BlockFeed, pollTip, type ChainEvents, type EventLog, type McBlockEvent } from '../../live/blocks.js';
import type { Finality, LiveCapacity, LiveEventType, LiveFeed, LiveFeedStatus, LiveGap, LiveInterest, LiveEvent, LiveWant } from '../../live/feed.js';
import { LiveCursorTooOld } from '../../live/feed.js';
import { coverageKey, coverageKeys, coveredSoon, RingCoverage, type CoverageLog, type InheritedCoverage } from '../../live/coverage.js';
import type { V3Api } from '../../api/v3/index.js';
import { LiveRelay } from '../../live/relay.js';
import { ReplayRing } from '../../live/replay-ring.js';
import { UPSTREAM_STREAM_DEFAULTS, type UpstreamOptions } from './options.js';
import { openConnection, type Ended, type StreamSubscription, type UpstreamConnection } from './stream-connection.js';
import { gapEvents, transactionEvents } from './gap-fill.js';

export { STREAM_PATHS } from './stream-connection.js';

export type UpstreamTransport = 'auto' | 'ws' | 'sse';

export interface UpstreamLiveOptions {
  /** the v3 upstream's base address; /api/streaming/v2/... is appended */
  baseUrl: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  /** `auto` tries WebSocket first, then SSE */
  transport: UpstreamTransport;
  /** largest event frame (WS message, SSE line or data) accepted; a larger one closes the connection */
  maxFrameBytes: number;
  /** bytes of finalized events kept for replay */
  replayBytes: number;
  /** new finalized blocks by polling v3, used only when the upstream has no streaming endpoint */
  poll?: () => ChainEvents;
  /** the finalized transactions of addresses over a window of seconds, as events; undefined past its bound */
  gap?: (addresses: readonly string[], fromUtime: number, toUtime: number) => Promise<LiveEvent[] | undefined>;
  log?: LiveLog;
  /** ms an interest change waits for the next before it is sent */
  debounceMs?: number;
  /** first reconnect delay in ms; doubled per failure up to maxBackoffMs, with jitter */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** ms between pings (WS) and the silence after which a connection counts as dead is three of them */
  keepaliveMs?: number;
  /** connections held at once, and addresses each carries (UPSTREAM_STREAM_DEFAULTS) */
  maxConnections?: number;
  maxAddresses?: number;
  /** one client's share, reported by capacity() */
  clientAddresses?: number;
  /** ms what nobody watches any more stays subscribed */
  retainMs?: number;
  /** ms between two changes of one connection's subscription */
  paceMs?: number;
  /** where coverage is recorded (the relay's, in Redis); by default in memory, against this feed's replay ring */
  coverage?: CoverageLog;
  /** coverage a previous holder of the stream had (the relay's takeover) */
  inherited?: InheritedCoverage;
}

export interface LiveLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const SILENT: LiveLog = { warn() {}, info() {} };

const EVENT_TYPES = new Set(['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change', 'trace_invalidated']);

/** A gap is asked of v3 from this long before the connection was lost: a transaction is finalized after its time. */
const GAP_MARGIN_MS = 10_000;
/** Transaction hashes remembered to send each finalized transaction once across the stream and gap fills. */
const REMEMBERED = 8192;
/** A raw address in a subscription body (`"0:` 64 hex digits `",`), and room for every other field of it. */
const ADDRESS_BYTES = 71;
const BODY_BYTES = 1024;

/** Full jitter between half and all of the exponential delay, so replicas dropped together do not return together. */
export const reconnectDelayMs = (baseMs: number, maxMs: number, failures: number): number =>
  Math.min(maxMs, baseMs * 2 ** Math.min(failures, 20)) * (0.5 + Math.random() / 2);

/** The coverage keys a subscription carries. */
function keysOf(sub: StreamSubscription): Set<string> {
  return new Set(coverageKeys({ addresses: new Set(sub.addresses), traceExternalHashNorms: new Set(sub.hashes), types: new Set(sub.types) }));
}

/** One upstream connection and what it carries. */
interface Shard {
  readonly index: number;
  /** the addresses placed on it, in the order they came */
  readonly addresses: Set<string>;
  conn?: UpstreamConnection;
  /** the subscription last sent on it */
  sent?: string;
  /** a subscription the upstream refused: not sent again until it changes */
  refused?: string;
  /** up: the upstream took its latest subscription (or, after a refusal, still holds the one before) */
  up: boolean;
  /** keys the upstream confirmed it carries, whose coverage runs */
  readonly covered: Set<string>;
  failures: number;
  retry?: NodeJS.Timeout;
  /** when its subscription last changed (ms), for pacing */
  changedAt: number;
  /** why it is not up */
  problem?: string;
}

/** A bounded set remembering the latest members added. */
class Recent {
  private readonly set = new Set<string>();
  constructor(private readonly max: number) {}
  has(k: string): boolean {
    return this.set.has(k);
  }
  add(k: string): void {
    this.set.delete(k);
    this.set.add(k);
    if (this.set.size > this.max) this.set.delete(this.set.values().next().value!);
  }
}

/** A map's members not in `live` marked to leave at `until`; those in it kept for as long as they are watched. */
function mark<K>(watched: Map<K, number>, live: ReadonlySet<K>, until: number): void {
  for (const k of live) if (watched.get(k) !== Infinity) watched.set(k, Infinity);
  for (const [k, leaves] of watched) if (leaves === Infinity && !live.has(k)) watched.set(k, until);
}

const hashesOf = (event: LiveEvent): string[] =>
  ((event.transactions as { hash?: unknown }[] | undefined) ?? []).map((t) => t.hash).filter((h): h is string => typeof h === 'string');

export class UpstreamLiveFeed implements LiveFeed {
  private deliver?: (event: LiveEvent) => void;
  private missed?: (gap: LiveGap) => void;
  private interest?: LiveInterest;
  /** what is subscribed, with when it leaves (Infinity while someone watches it), in the order it came */
  private readonly addresses = new Map<string, number>();
  private readonly hashes = new Map<string, number>();
  private readonly types = new Map<LiveEventType, number>();
  private readonly shards: Shard[] = [];
  private readonly where = new Map<string, Shard>();
  /** keys whose connection was lost, and since when (ms): a gap to fill once they are carried again */
  private readonly lostAt = new Map<string, number>();
  /** inherited keys the previous holder carries until handedOverUntil (ms): covered before then, without a gap */
  private readonly handedOver = new Set<string>();
  private readonly handedOverUntil: number;
  /** watched addresses no connection has room for */
  private left = 0;
  /** limits a refusal stated, below the configured ones */
  private learnt: { connections?: number; addresses?: number } = {};
  private transport: 'ws' | 'sse' | 'poll';
  private planTimer?: NodeJS.Timeout;
  private planAt = Infinity;
  private stopped = false;
  private started = false;
  private state: LiveFeedStatus;
  private readonly ring: ReplayRing;
  /** coverage in the ring's positions, unless a relay keeps it */
  private readonly own?: RingCoverage;
  private readonly coverage: CoverageLog;
  private readonly log: LiveLog;
  private polling?: { stop: () => void };
  /** in polling mode: the keys its blocks cover */
  private polled = new Set<string>();
  /** finalized transactions the stream sent, and those a gap fill sent */
  private readonly streamed = new Recent(REMEMBERED);
  private readonly filled = new Recent(REMEMBERED);
  /** subscriptions sent upstream (WS subscribe frames and SSE requests), for tests and metrics */
  subscribes = 0;

  constructor(private readonly opts: UpstreamLiveOptions) {
    this.transport = opts.transport === 'sse' ? 'sse' : 'ws';
    this.ring = new ReplayRing(opts.replayBytes);
    if (!opts.coverage) this.own = new RingCoverage(() => this.ring.mark());
    this.coverage = opts.coverage ?? this.own!;
    this.log = opts.log ?? SILENT;
    this.state = { kind: `upstream-${this.transport}`, up: false, detail: 'no subscription yet' };
    for (const k of opts.inherited?.keys ?? []) this.lostAt.set(k, opts.inherited!.at);
    this.handedOverUntil = opts.inherited?.carriedUntil ?? 0;
    if (this.handedOverUntil) for (const k of opts.inherited!.keys) this.handedOver.add(k);
    for (const h of opts.inherited?.delivered ?? []) this.streamed.add(h);
  }

  private get connectionLimit(): number {
    return Math.min(this.opts.maxConnections ?? UPSTREAM_STREAM_DEFAULTS.maxConnections, this.learnt.connections ?? Infinity);
  }

  private get addressLimit(): number {
    return Math.min(this.opts.maxAddresses ?? UPSTREAM_STREAM_DEFAULTS.maxAddresses, this.learnt.addresses ?? Infinity);
  }

  private get paceMs(): number {
    return this.opts.paceMs ?? UPSTREAM_STREAM_DEFAULTS.paceMs;
  }

  start(deliver: (event: LiveEvent) => void, missed?: (gap: LiveGap) => void): void {
    this.deliver = deliver;
    this.missed = missed;
    this.started = true;
    this.plan();
  }

  setInterest(interest: LiveInterest): void {
    this.interest = interest;
    const until = Date.now() + (this.opts.retainMs ?? UPSTREAM_STREAM_DEFAULTS.retainMs);
    mark(this.addresses, interest.addresses, until);
    mark(this.hashes, interest.traceExternalHashNorms, until);
    mark(this.types, interest.types, until);
    if (this.started) this.schedule(this.opts.debounceMs ?? 100);
  }

  capacity(): LiveCapacity {
    return { addresses: this.connectionLimit * this.addressLimit, perClient: this.opts.clientAddresses ?? UPSTREAM_STREAM_DEFAULTS.clientAddresses };
  }

  async replay(cursor: string, deliver: (event: LiveEvent) => void, want?: LiveWant): Promise<void> {
    const at = this.ring.positionOf(cursor);
    if (want && this.own && at !== undefined) {
      const keys = coverageKeys(want);
      const own = this.own;
      // a key not covered yet may be the one this client's own attach is subscribing
      const from = await coveredSoon(() => own.from(keys));
      if (from === undefined || at < from) throw new LiveCursorTooOld(from === undefined ? undefined : this.ring.cursorAt(Math.max(from, this.ring.floor)), true);
    }
    for (const event of this.ring.after(cursor)) deliver(event);
  }

  head(): string {
    return this.ring.newest;
  }

  status(): LiveFeedStatus {
    return this.state;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.planTimer);
    for (const shard of this.shards) {
      clearTimeout(shard.retry);
      shard.conn?.close();
      shard.conn = undefined;
    }
    this.polling?.stop();
    this.polling = undefined;
  }

  /** Plans again in `ms`, unless a plan is due sooner. */
  private schedule(ms: number): void {
    const at = Date.now() + ms;
    if (this.planTimer && this.planAt <= at) return;
    clearTimeout(this.planTimer);
    this.planAt = at;
    this.planTimer = setTimeout(() => {
      this.planTimer = undefined;
      this.planAt = Infinity;
      this.plan();
    }, ms);
    this.planTimer.unref();
  }

  /** Brings the connections in line with what is watched: placement, then each connection's subscription. */
  private plan(): void {
    if (this.stopped || !this.deliver) return;
    const now = Date.now();
    let next = Infinity;
    for (const watched of [this.addresses, this.hashes, this.types] as Map<string, number>[]) {
      for (const [k, leaves] of watched) {
        if (leaves <= now) watched.delete(k);
        else if (leaves < next) next = leaves;
      }
    }
    if (this.transport === 'poll') return this.planPolling(next - now);
    this.place();
    const types = [...this.types.keys()];
    const addressTypes = types.filter((t) => t !== 'trace').sort();
    const hashes = types.includes('trace') ? [...this.hashes.keys()].sort() : [];
    const minFinality: Finality = this.interest?.minFinality ?? 'finalized';
    const carried = new Set<string>();
    for (const shard of this.shards) {
      const addresses = addressTypes.length ? [...shard.addresses].sort() : [];
      const own = shard.index === 0 ? hashes : [];
      const subTypes = [...(addresses.length ? addressTypes : []), ...(own.length ? (['trace'] as const) : [])].sort();
      const sub = subTypes.length ? { types: subTypes, addresses, hashes: own, minFinality } : undefined;
      if (sub) for (const k of keysOf(sub)) carried.add(k);
      const due = this.bring(shard, sub, now);
      if (due < next) next = due;
    }
    // a lost key no connection will carry again is no longer covered (once what is watched is known: a taker's inherited keys wait for it)
    const dropped = this.interest ? [...this.lostAt.keys()].filter((k) => !carried.has(k)) : [];
    for (const k of dropped) {
      this.lostAt.delete(k);
      this.handedOver.delete(k);
    }
    this.coverage.end(dropped);
    if (next < Infinity) this.schedule(Math.max(0, next - now));
    this.updateStatus();
  }

  /** Addresses to connections: within the limits, the ones placed kept, new ones in the order they came. */
  private place(): void {
    const perConnection = this.addressLimit;
    while (this.shards.length < this.connectionLimit) {
      this.shards.push({ index: this.shards.length, addresses: new Set(), up: false, covered: new Set(), failures: 0, changedAt: 0 });
    }
    // connections past a limit learnt lower close; what they carried is placed again
    for (const shard of this.shards.splice(this.connectionLimit)) {
      this.lose(shard, Date.now());
      clearTimeout(shard.retry);
      for (const a of shard.addresses) this.where.delete(a);
    }
    const changing = new Set<Shard>();
    for (const shard of this.shards) {
      for (const a of shard.addresses) if (!this.addresses.has(a)) this.unplace(shard, a, changing);
      // the newest placed leave a connection over a limit learnt lower
      const over = [...shard.addresses].slice(perConnection);
      for (const a of over) this.unplace(shard, a, changing);
    }
    this.left = 0;
    for (const [a, leaves] of this.addresses) {
      if (this.where.has(a)) continue;
      // lingering without a connection: nothing of it is being kept
      if (leaves !== Infinity) {
        this.addresses.delete(a);
        continue;
      }
      const shard = this.roomFor(changing, perConnection) ?? this.evictLingering(changing);
      if (!shard) {
        this.left++;
        continue;
      }
      shard.addresses.add(a);
      this.where.set(a, shard);
      changing.add(shard);
    }
  }

  private unplace(shard: Shard, address: string, changing: Set<Shard>): void {
    shard.addresses.delete(address);
    this.where.delete(address);
    changing.add(shard);
  }

  /**
   * A connection with room. On a WebSocket the first (changes cost nothing, fewer connections are open); on SSE,
   * where a change reopens the connection, one that changes anyway, else one not open yet, else the emptiest.
   */
  private roomFor(changing: Set<Shard>, perConnection: number): Shard | undefined {
    const open = this.shards.filter((s) => s.addresses.size < perConnection);
    if (this.transport !== 'sse') return open[0];
    return open.find((s) => changing.has(s)) ?? open.find((s) => s.addresses.size === 0 && !s.conn) ?? open.sort((a, b) => a.addresses.size - b.addresses.size)[0];
  }

  /** Room made by unsubscribing the lingering address that would leave soonest; undefined when none lingers. */
  private evictLingering(changing: Set<Shard>): Shard | undefined {
    let victim: string | undefined;
    let soonest = Infinity;
    for (const [a, leaves] of this.addresses) {
      if (leaves < soonest && this.where.has(a)) {
        soonest = leaves;
        victim = a;
      }
    }
    if (victim === undefined) return undefined;
    const shard = this.where.get(victim)!;
    this.unplace(shard, victim, changing);
    this.addresses.delete(victim);
    return shard;
  }

  /** Sends a connection its subscription when it changed; returns when to try again if pacing holds it back. */
  private bring(shard: Shard, sub: StreamSubscription | undefined, now: number): number {
    if (!sub) {
      if (shard.conn || shard.retry || shard.covered.size) this.idle(shard);
      return Infinity;
    }
    const text = JSON.stringify(sub);
    // a reconnect already scheduled will carry the latest
    if (text === shard.sent || text === shard.refused || shard.retry) return Infinity;
    if (shard.conn && now - shard.changedAt < this.paceMs) return shard.changedAt + this.paceMs;
    // what it stops carrying is no longer covered, from the moment it is asked
    const keys = keysOf(sub);
    const stopping = [...shard.covered].filter((k) => !keys.has(k));
    for (const k of stopping) shard.covered.delete(k);
    this.coverage.end(stopping);
    shard.changedAt = now;
    shard.sent = text;
    shard.refused = undefined;
    this.subscribes++;
    if (shard.conn?.change(sub)) return Infinity;
    // SSE: the new request replaces the old; what the old one carried is a gap until the new one is up
    this.lose(shard, now);
    this.open(shard, sub);
    return Infinity;
  }

  /** A connection with nothing to carry is closed, and its coverage ends. */
  private idle(shard: Shard): void {
    clearTimeout(shard.retry);
    shard.retry = undefined;
    shard.conn?.close();
    shard.conn = undefined;
    shard.sent = undefined;
    shard.refused = undefined;
    shard.up = false;
    shard.problem = undefined;
    this.coverage.end([...shard.covered]);
    shard.covered.clear();
  }

  /** The connection is gone: what it carried is a gap from `at` until it is carried again. */
  private lose(shard: Shard, at: number): void {
    shard.conn?.close();
    shard.conn = undefined;
    shard.up = false;
    for (const k of shard.covered) this.lostAt.set(k, Math.min(this.lostAt.get(k) ?? at, at));
    shard.covered.clear();
  }

  private open(shard: Shard, sub: StreamSubscription): void {
    const conn: UpstreamConnection = openConnection(
      this.transport as 'ws' | 'sse',
      { baseUrl: this.opts.baseUrl, apiKey: this.opts.apiKey, maxFrameBytes: this.opts.maxFrameBytes, keepaliveMs: this.opts.keepaliveMs ?? 15_000, warn: (o, m) => this.log.warn(o, m) },
      sub,
      {
        subscribed: (s) => shard.conn === conn && this.subscribed(shard, s),
        refused: (s, error) => shard.conn === conn && this.refused(shard, s, error),
        event: (frame, bytes) => shard.conn === conn && this.onEvent(frame, bytes),
        ended: (e) => shard.conn === conn && this.ended(shard, e),
      },
    );
    shard.conn = conn;
  }

  /** The upstream holds the connection's latest subscription: coverage begins, or continues once its gap is filled. */
  private subscribed(shard: Shard, sub: StreamSubscription): void {
    // an answer to a subscription sent before the latest: the latest's answer follows
    if (JSON.stringify(sub) !== shard.sent) return;
    shard.failures = 0;
    shard.up = true;
    shard.problem = undefined;
    const fresh: string[] = [];
    const resumed: string[] = [];
    let lostAt = Infinity;
    for (const k of keysOf(sub)) {
      if (shard.covered.has(k)) continue;
      shard.covered.add(k);
      const at = this.lostAt.get(k);
      this.lostAt.delete(k);
      const continued = this.handedOver.delete(k) && Date.now() < this.handedOverUntil;
      if (at === undefined || continued) fresh.push(k);
      else {
        resumed.push(k);
        lostAt = Math.min(lostAt, at);
      }
    }
    this.coverage.begin(fresh);
    if (resumed.length) this.fill(resumed, lostAt, Date.now());
    this.updateStatus();
  }

  /** Of keys carried again after a gap, the finalized transactions are asked of v3; the rest is a gap to report. */
  private fill(keys: string[], from: number, to: number): void {
    const fillable = this.opts.gap ? keys.filter((k) => k.startsWith('transactions ')) : [];
    const rest = keys.filter((k) => !fillable.includes(k));
    if (rest.length) this.gapIn(rest, from, to, 'the upstream stream was interrupted; events of this type cannot be asked again');
    if (!fillable.length) return;
    const addresses = fillable.map((k) => k.slice('transactions '.length));
    this.opts.gap!(addresses, Math.floor((from - GAP_MARGIN_MS) / 1000), Math.ceil(to / 1000)).then(
      (events) => {
        if (this.stopped) return;
        if (!events) return this.gapIn(fillable, from, to, 'the upstream stream was interrupted for longer than its gap can be filled');
        let sent = 0;
        for (const event of events) {
          const txs = (event.transactions as { hash: string }[]).filter((t) => !this.streamed.has(t.hash) && !this.filled.has(t.hash));
          if (!txs.length) continue;
          for (const t of txs) this.filled.add(t.hash);
          this.emit({ ...event, transactions: txs });
          sent++;
        }
        this.log.info({ addresses: addresses.length, events: sent, lostMs: to - from }, 'upstream stream: a gap was filled from v3');
      },
      (e: Error) => !this.stopped && this.gapIn(fillable, from, to, `the upstream stream was interrupted and asking v3 for the gap failed: ${e.message}`),
    );
  }

  /** Whether a connection carries a key now (trace hashes go on the first). */
  private carries(key: string): boolean {
    const target = key.slice(key.indexOf(' ') + 1);
    return (key.startsWith('trace ') ? this.shards[0] : this.where.get(target))?.covered.has(key) ?? false;
  }

  /** Events of these keys were lost: their coverage starts again from now, and the hub tells the clients concerned. */
  private gapIn(keys: string[], from: number, to: number, reason: string): void {
    this.coverage.end(keys);
    this.coverage.begin(keys.filter((k) => this.carries(k)));
    const addresses = new Set<string>();
    const hashes = new Set<string>();
    const types = new Set<LiveEventType>();
    for (const k of keys) {
      const [type, target] = k.split(' ') as [LiveEventType, string];
      types.add(type);
      (type === 'trace' ? hashes : addresses).add(target);
    }
    this.log.warn({ keys: keys.length, from, to }, `upstream stream: events lost: ${reason}`);
    this.missed?.({ addresses, traceExternalHashNorms: hashes, types, from, to, reason });
  }

  private refused(shard: Shard, sub: StreamSubscription, error: string): void {
    const text = JSON.stringify(sub);
    if (text !== shard.sent) return;
    shard.refused = text;
    shard.problem = `the upstream refused the subscription: ${error}`;
    this.log.warn({ connection: shard.index + 1, error }, 'upstream stream: the upstream refused a subscription');
    // a limit it states lower than assumed is kept, and what is watched placed again within it
    if (this.learn(error)) this.schedule(0);
    this.updateStatus();
  }

  /**
   * A limit stated in a refusal (streaming-v2.md §3-§4; a request or frame size, as addresses that fit in it),
   * kept when lower than the one assumed.
   */
  private learn(error: string): boolean {
    const addresses = /> max (\d+)/.exec(error);
    const bytes = /(?:at most|larger than) (\d+) bytes/.exec(error);
    const n = addresses ? Number(addresses[1]) : bytes ? Math.floor((Number(bytes[1]) - BODY_BYTES) / ADDRESS_BYTES) : 0;
    if (n > 0 && n < this.addressLimit) {
      this.learnt.addresses = n;
      this.log.warn({ addresses: n }, 'upstream stream: the upstream carries fewer addresses per connection than configured');
      return true;
    }
    const connections = /connection limit reached: (\d+) active/.exec(error);
    const c = connections ? Math.max(1, Number(connections[1])) : 0;
    if (c > 0 && c < this.connectionLimit) {
      this.learnt.connections = c;
      this.log.warn({ connections: c }, 'upstream stream: the upstream allows fewer connections than configured');
      return true;
    }
    return false;
  }

  private ended(shard: Shard, e: Ended): void {
    if (this.stopped) return;
    this.lose(shard, Date.now());
    // the reconnect asks again: a stated limit learnt below changes what it asks
    shard.sent = undefined;
    shard.refused = undefined;
    if (e.notFound) return this.notFound();
    if (e.refusal !== undefined && this.learn(e.refusal)) this.schedule(0);
    shard.problem = e.reason;
    const delay = reconnectDelayMs(this.opts.backoffMs ?? 500, this.opts.maxBackoffMs ?? 30_000, shard.failures++);
    this.log.warn({ connection: shard.index + 1, reason: e.reason, retryInMs: Math.round(delay), failures: shard.failures }, 'upstream stream: connection lost, reconnecting');
    shard.retry = setTimeout(() => {
      shard.retry = undefined;
      this.plan();
    }, delay);
    shard.retry.unref();
    this.updateStatus();
  }

  /** No such endpoint: WebSocket falls back to SSE (transport auto), SSE to polling v3. */
  private notFound(): void {
    for (const shard of this.shards) {
      clearTimeout(shard.retry);
      shard.retry = undefined;
      this.lose(shard, Date.now());
      shard.sent = undefined;
    }
    if (this.transport === 'ws' && this.opts.transport === 'auto') {
      this.transport = 'sse';
      this.state = { kind: 'upstream-sse', up: false, detail: 'the upstream has no WebSocket streaming endpoint (404): trying SSE' };
      return this.plan();
    }
    this.fallBackToPolling();
  }

  private updateStatus(): void {
    if (this.transport === 'poll') return;
    const kind = `upstream-${this.transport}`;
    const active = this.shards.filter((s) => s.sent !== undefined || s.conn || s.retry);
    if (!active.length) {
      this.state = { kind, up: true, detail: this.left ? this.leftOut() : 'idle: no client watches anything' };
      return;
    }
    const named = active.length > 1;
    const problems = active
      .filter((s) => !s.up || s.refused)
      .map((s) => `${named ? `connection ${s.index + 1}: ` : ''}${s.problem ?? 'no subscription yet'}`);
    if (this.left) problems.push(this.leftOut());
    const up = active.every((s) => s.up);
    this.state = problems.length ? { kind, up, detail: problems.join('; ') } : { kind, up };
  }

  private leftOut(): string {
    return `${this.left} watched addresses are beyond the upstream's limits (${this.connectionLimit} connections of ${this.addressLimit} addresses) and not subscribed`;
  }

  /** An event goes on to the hub unchanged (a finalized one with a cursor); one of no known type is dropped. */
  private onEvent(frame: Record<string, unknown>, bytes: number): void {
    if (!EVENT_TYPES.has(frame.type as string)) return this.log.warn({ type: frame.type }, 'upstream stream: an event of no known type was dropped');
    let event = frame as LiveEvent;
    if (event.type === 'transactions' && event.finality === 'finalized') {
      const hashes = hashesOf(event);
      for (const h of hashes) this.streamed.add(h);
      // a transaction a gap fill sent already is not sent again
      if (hashes.some((h) => this.filled.has(h))) {
        const rest = (event.transactions as { hash?: string }[]).filter((t) => typeof t.hash !== 'string' || !this.filled.has(t.hash));
        if (!rest.length) return;
        event = { ...event, transactions: rest };
      }
    }
    this.emit(event, bytes);
  }

  /** `bytes`: its size on the wire, for the replay ring's bound. */
  private emit(event: LiveEvent, bytes = JSON.stringify(event).length): void {
    this.deliver?.(event.finality === 'finalized' ? this.ring.add(event, bytes) : event);
  }

  /** No streaming endpoint on this upstream: finalized transactions from polling v3, said once. */
  private fallBackToPolling(): void {
    this.transport = 'poll';
    const detail = 'the upstream has no streaming endpoint (404): polling v3 for finalized transactions instead';
    this.log.warn({ baseUrl: this.opts.baseUrl }, `upstream stream: ${detail}`);
    for (const shard of this.shards) this.idle(shard);
    this.coverage.end([...this.lostAt.keys()]);
    this.lostAt.clear();
    if (!this.opts.poll) {
      this.state = { kind: 'polling', up: false, detail: 'the upstream has no streaming endpoint (404) and no v3 to poll' };
      return;
    }
    this.state = { kind: 'polling', up: true, detail };
    const events = this.opts.poll();
    const stopping = events.subscribe((block) => {
      for (const event of blockEvents(block, this.types.has('transactions') ? new Set(this.addresses.keys()) : new Set())) this.emit(event);
    });
    this.polling = {
      stop: () => {
        void stopping.then((unsubscribe) => unsubscribe(), () => {});
        events.close();
      },
    };
    stopping.catch((e: Error) => {
      this.state = { kind: 'polling', up: false, detail: `${detail}; polling failed: ${e.message}` };
    });
    this.planPolling(Infinity);
  }

  /** Polling covers the finalized transactions of every address watched, from when it is. */
  private planPolling(nextMs: number): void {
    const keys = new Set(this.types.has('transactions') ? [...this.addresses.keys()].map((a) => coverageKey('transactions', a)) : []);
    this.coverage.end([...this.polled].filter((k) => !keys.has(k)));
    this.coverage.begin([...keys].filter((k) => !this.polled.has(k)));
    this.polled = keys;
    if (nextMs < Infinity) this.schedule(Math.max(0, nextMs));
  }
}

/**
 * A polled masterchain block as Streaming API v2 `transactions` events at `finalized`: one per trace, the
 * watched accounts' transactions by lt descending; the trace's normalized external hash when its root is here.
 */
export function blockEvents(block: McBlockEvent, watched: ReadonlySet<string>): LiveEvent[] {
  return transactionEvents(block.transactions, watched);
}

/** What the factory needs from upstream mode's options. */
export type UpstreamLiveSettings = Pick<UpstreamOptions, 'upstream' | 'upstreamApis' | 'upstreamStream'> & { subscriptions: { pollMs: number } };

/**
 * The upstream feed for upstream mode's options: the v3 source's base address and key (the streaming service is
 * toncenter's, beside its v3), asking that same `v3` (the gateway's own client, so its pace is shared) for the
 * gaps of its stream, and polling it only when the upstream has no streaming endpoint.
 */
export function createUpstreamLiveFeed(
  settings: UpstreamLiveSettings,
  v3: V3Api,
  log?: LiveLog & EventLog,
  relay?: { coverage: CoverageLog; inherited?: InheritedCoverage },
): UpstreamLiveFeed {
  const { upstreamStream: streaming } = settings;
  return new UpstreamLiveFeed({
    baseUrl: settings.upstream.v3Url,
    apiKey: settings.upstreamApis.v3.apiKey,
    transport: streaming.transport,
    maxFrameBytes: streaming.maxFrameBytes,
    replayBytes: streaming.replayMb * 1024 * 1024,
    maxConnections: streaming.maxConnections,
    maxAddresses: streaming.maxAddresses,
    clientAddresses: streaming.clientAddresses,
    retainMs: streaming.retainMs,
    paceMs: streaming.paceMs,
    poll: () => new BlockFeed(pollTip(v3, settings.subscriptions.pollMs, log), v3, log),
    gap: (addresses, fromUtime, toUtime) => gapEvents(v3, addresses, fromUtime, toUtime, streaming.gapTransactions),
    log,
    ...relay,
  });
}

/** What upstream mode's live feed is made from: the upstream's options and REDIS_URL. */
export type LiveFeedSettings = UpstreamLiveSettings & { redisUrl?: string };

/** Upstream mode's feed: through the Redis relay when replicas share REDIS_URL, else the upstream stream itself. */
export function sharedUpstreamFeed(config: LiveFeedSettings, v3: V3Api, log?: LiveLog & EventLog): LiveFeed {
  if (!config.redisUrl) return createUpstreamLiveFeed(config, v3, log);
  return new LiveRelay({
    url: config.redisUrl,
    upstream: (relay) => createUpstreamLiveFeed(config, v3, log, relay),
    maxLen: config.upstreamStream.relayMaxLen,
    log,
  });
}
