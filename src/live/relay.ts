/**
 * Live events shared between replicas through Redis (REDIS_URL), so N replicas cost the upstream one
 * streaming connection and a client resumes on whichever replica it reconnects to.
 *
 * - One replica holds the upstream stream: it holds a lock key with an expiry, renews it every third of the
 *   expiry, and runs the upstream feed only while it does; when it dies the key expires and another replica
 *   takes the lock (and opens its own upstream feed) within about one expiry.
 * - The holder appends every event to one Redis Stream (XADD, MAXLEN ~ bound). Every replica, the holder
 *   included, reads that stream (XREAD BLOCK) and delivers from it, so all replicas deliver the same events in
 *   the same order, and a finalized event's cursor is its stream entry id: replay is XRANGE after that id.
 * - Each replica writes what its own clients watch to a hash of its own (with an expiry, refreshed); the holder
 *   subscribes upstream to the union of every live replica's, and says in its status how much more it could.
 * - Coverage (live/coverage.ts) is a hash of key -> the id of a marker entry the holder appended when the key's
 *   coverage began, so a replay on any replica is checked against it. The holder stamps the hash each tick; a
 *   replica taking over inherits what it held, and its feed fills the gap since the stamp (or reports it).
 * - A gap the holder's feed reports is an entry of the stream too, so every replica tells its own clients.
 * - A holder that stops (a restart, a rolling deploy) hands over: it frees the lock at once and goes on carrying
 *   the stream until the taker's connections carry everything it covered (or a bound passes), so events that
 *   cannot be asked again (account states, traces) are not lost in between. Only a dead holder leaves a gap.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  FINALITY_RANK,
  LiveCursorTooOld,
  type Finality,
  type LiveCapacity,
  type LiveEventType,
  type LiveFeed,
  type LiveFeedStatus,
  type LiveGap,
  type LiveInterest,
  type LiveEvent,
  type LiveWant,
} from './feed.js';
import { coverageKeys, coveredSoon, type CoverageLog, type InheritedCoverage } from './coverage.js';
import { KEY_PREFIX, type SharedStateLog } from '../shared-state/redis.js';

export interface LiveRelayOptions {
  /** REDIS_URL */
  url: string;
  /** the upstream feed, made each time this replica takes the lock, recording its coverage in Redis */
  upstream: (relay: { coverage: CoverageLog; inherited?: InheritedCoverage }) => LiveFeed;
  /** entries kept in the Redis Stream (approximately: MAXLEN ~) */
  maxLen: number;
  /** this replica's name in Redis (default: a random id) */
  replicaId?: string;
  /** expiry of the lock in ms; a dead holder is replaced within about this long */
  lockTtlMs?: number;
  /** keys under this prefix (tests use their own) */
  prefix?: string;
  log?: SharedStateLog;
}

const SILENT: SharedStateLog = { warn() {}, info() {} };

/** Entries read or replayed per Redis call. */
const PAGE = 256;
/** ms one XREAD waits for new entries before it is asked again (and stop() is noticed). */
const BLOCK_MS = 1_000;
/** A replica's interest outlives it by this many lock expiries, then the holder stops counting it. */
const INTEREST_TTL_FACTOR = 4;
/** ms a replica's interest change waits for the next before it is written. */
const INTEREST_DEBOUNCE_MS = 50;
/** Coverage keys per Redis call. */
const KEYS_PER_CALL = 1000;
/** The coverage hash's field holding when its holder was last known to receive what it lists (ms). */
const STAMP = '@at';
/** A taker skips the finalized transactions the stream holds from this long before the stamp. */
const INHERIT_MARGIN_MS = 10_000;
/** A stopping holder carries the stream for at most this many lock expiries while another replica takes it over. */
const HANDOVER_TTL_FACTOR = 2;
/** ms between a stopping holder's checks of whether the taker carries the stream yet. */
const HANDOVER_POLL_MS = 50;

/** A marker entry, then every key not covered yet set to its id: both at once, so no replay sees one without the other. */
const BEGIN = `local id = redis.call('xadd', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'c', '1')
for i = 2, #ARGV do redis.call('hsetnx', KEYS[2], ARGV[i], id) end
return id`;

/** Renews the lock only while this replica still holds it. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Frees the lock only while this replica still holds it, saying (until the expiry) that it still carries the stream. */
const HAND_OVER = `if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]); redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2]); return 1 else return 0 end`;

const ENTRY_ID = /^(\d+)-(\d+)$/;

/** Stream entry ids compared as Redis orders them (milliseconds, then sequence). */
export function compareEntryIds(a: string, b: string): number {
  const [, am, as] = ENTRY_ID.exec(a)!;
  const [, bm, bs] = ENTRY_ID.exec(b)!;
  const ms = BigInt(am!) - BigInt(bm!);
  const seq = BigInt(as!) - BigInt(bs!);
  return ms !== 0n ? (ms > 0n ? 1 : -1) : seq === 0n ? 0 : seq > 0n ? 1 : -1;
}

/** The smallest id after `id`, for an XRANGE that excludes `id` on any Redis version. */
const nextEntryId = (id: string): string => {
  const [, ms, seq] = ENTRY_ID.exec(id)!;
  return `${ms}-${BigInt(seq!) + 1n}`;
};

/** What the holder says of itself beside its feed's status. */
interface HolderReport {
  holder: string;
  /** addresses in the union */
  watched: number;
  capacity?: LiveCapacity;
}

interface Interest {
  addresses: string[];
  traces: string[];
  types: LiveEventType[];
  minFinality: Finality;
}

/** A list field of a replica's interest hash; anything else (not written by a relay) counts as empty. */
function listOf(text: string | undefined): string[] {
  try {
    const list: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const interestOf = (i: LiveInterest): Interest => ({
  addresses: [...i.addresses].sort(),
  traces: [...i.traceExternalHashNorms].sort(),
  types: [...i.types].sort(),
  minFinality: i.minFinality,
});

export class LiveRelay implements LiveFeed {
  readonly replicaId: string;
  private readonly cmd: Redis;
  /** XREAD BLOCK holds its connection: it gets one of its own */
  private readonly reader: Redis;
  private readonly keys: { events: string; lock: string; handover: string; replicas: string; status: string; coverage: string; interest: (id: string) => string };
  private readonly lockTtlMs: number;
  private readonly log: SharedStateLog;
  private deliver?: (event: LiveEvent) => void;
  private missed?: (gap: LiveGap) => void;
  private interest: Interest = { addresses: [], traces: [], types: [], minFinality: 'finalized' };
  private inner?: LiveFeed;
  private union = '';
  private stopped = false;
  private ticker?: NodeJS.Timeout;
  private interestWrite?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private reading?: Promise<void>;
  /** the id of the last entry delivered live */
  private lastId = '0-0';
  private readerError?: string;
  private holderStatus?: LiveFeedStatus & HolderReport;
  private publishFailing = false;
  private coverageFailing = false;
  /** the union's size, as the holder last counted it */
  private watched = 0;
  /** inherited keys the stopping previous holder carries until this replica's feed covers them */
  private handedOver?: Set<string>;

  constructor(private readonly opts: LiveRelayOptions) {
    this.replicaId = opts.replicaId ?? randomUUID();
    this.lockTtlMs = opts.lockTtlMs ?? 3_000;
    this.log = opts.log ?? SILENT;
    const prefix = opts.prefix ?? `${KEY_PREFIX}stream:`;
    this.keys = {
      events: `${prefix}events`,
      lock: `${prefix}lock`,
      handover: `${prefix}handover`,
      replicas: `${prefix}replicas`,
      status: `${prefix}status`,
      coverage: `${prefix}coverage`,
      interest: (id) => `${prefix}interest:${id}`,
    };
    const options = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
    };
    this.cmd = new Redis(opts.url, { ...options, commandTimeout: 2_000 });
    this.reader = new Redis(opts.url, options);
    this.cmd.on('error', () => {});
    this.reader.on('error', () => {});
  }

  /** Whether this replica holds the upstream stream now. */
  get holding(): boolean {
    return this.inner !== undefined;
  }

  start(deliver: (event: LiveEvent) => void, missed?: (gap: LiveGap) => void): void {
    this.deliver = deliver;
    this.missed = missed;
    this.ticking = this.begin();
  }

  /** The holder's capacity, less what the other replicas' clients watch (as of the holder's last count). */
  capacity(): LiveCapacity | undefined {
    const report = this.inner ? { capacity: this.inner.capacity?.(), watched: this.watched } : this.holderStatus;
    if (!report?.capacity) return undefined;
    const others = Math.max(0, report.watched - this.interest.addresses.length);
    return { addresses: Math.max(0, report.capacity.addresses - others), perClient: report.capacity.perClient };
  }

  setInterest(interest: LiveInterest): void {
    this.interest = interestOf(interest);
    // a burst of changes (clients subscribing at once) is one write; the next tick writes it anyway
    if (!this.deliver || this.interestWrite) return;
    this.interestWrite = setTimeout(() => {
      this.interestWrite = undefined;
      if (!this.stopped && this.cmd.status === 'ready') void this.writeInterest().catch(() => {});
    }, INTEREST_DEBOUNCE_MS);
    this.interestWrite.unref();
  }

  /**
   * Every finalized entry after `cursor` up to the last one delivered live, in order; XRANGE in pages. Given what
   * the client watches, refused when the cursor is older than the coverage of any of it.
   */
  async replay(cursor: string, deliver: (event: LiveEvent) => void, want?: LiveWant): Promise<void> {
    const upTo = this.lastId;
    const [oldest] = await this.cmd.xrange(this.keys.events, '-', '+', 'COUNT', 1);
    if (!ENTRY_ID.test(cursor) || !oldest || compareEntryIds(cursor, oldest[0]) < 0) throw new LiveCursorTooOld(oldest?.[0]);
    if (want) {
      const keys = coverageKeys(want);
      // a key not covered yet may be the one this client's own attach is subscribing
      const from = await coveredSoon(() => this.coveredFrom(keys));
      if (from === undefined || compareEntryIds(cursor, from) < 0) throw new LiveCursorTooOld(from, true);
    }
    let from = cursor;
    while (compareEntryIds(from, upTo) < 0) {
      const page = await this.cmd.xrange(this.keys.events, nextEntryId(from), upTo, 'COUNT', PAGE);
      if (page.length === 0) break;
      for (const [id, fields] of page) {
        const event = this.decode(id, fields);
        if (event?.cursor !== undefined) deliver(event);
      }
      from = page[page.length - 1]![0];
    }
  }

  /** The id after which every event of all these keys is in the stream, or undefined when one is not covered. */
  private async coveredFrom(keys: readonly string[]): Promise<string | undefined> {
    let newest = '0-0';
    for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
      const ids = await this.cmd.hmget(this.keys.coverage, ...keys.slice(i, i + KEYS_PER_CALL));
      for (const id of ids) {
        if (id === null || !ENTRY_ID.test(id)) return undefined;
        if (compareEntryIds(id, newest) > 0) newest = id;
      }
    }
    return newest;
  }

  head(): string | undefined {
    return this.lastId === '0-0' ? undefined : this.lastId;
  }

  status(): LiveFeedStatus {
    if (this.readerError) return { kind: 'redis', up: false, detail: `reading the shared stream failed: ${this.readerError}` };
    if (this.inner) {
      const s = this.inner.status();
      return { kind: 'redis', up: s.up, detail: `this replica holds the upstream stream (${s.kind}${s.detail ? `: ${s.detail}` : ''})` };
    }
    const h = this.holderStatus;
    if (!h) return { kind: 'redis', up: false, detail: 'no replica holds the upstream stream' };
    return { kind: 'redis', up: h.up, detail: `replica ${h.holder} holds the upstream stream (${h.kind}${h.detail ? `: ${h.detail}` : ''})` };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.ticker);
    clearTimeout(this.interestWrite);
    await this.ticking;
    await this.release();
    await this.cmd
      .multi()
      .del(this.keys.interest(this.replicaId))
      .zrem(this.keys.replicas, this.replicaId)
      .exec()
      .catch(() => {});
    // the blocked XREAD ends with the connection
    this.reader.disconnect();
    await this.reading;
    await this.cmd.quit().catch(() => this.cmd.disconnect());
  }

  private async begin(): Promise<void> {
    await Promise.all([this.cmd.connect(), this.reader.connect()]).catch((e: Error) => {
      this.log.warn({ err: { message: e.message } }, 'stream relay: redis connect failed; retrying in the background');
    });
    // live delivery starts at the stream's end when this replica starts
    this.lastId = await this.cmd
      .xrevrange(this.keys.events, '+', '-', 'COUNT', 1)
      .then(([last]) => last?.[0] ?? '0-0')
      .catch(() => '0-0');
    this.reading = this.readLoop();
    await this.tick();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.ticker = setTimeout(() => {
      this.ticking = this.tick();
    }, this.lockTtlMs / 3);
    this.ticker.unref();
  }

  /** Each third of the lock's expiry: this replica's interest refreshed, the lock taken or renewed, the union applied. */
  private async tick(): Promise<void> {
    try {
      await this.writeInterest();
      await this.holdLock();
      if (this.inner) await this.holderDuties();
      else await this.readHolderStatus();
    } catch (e) {
      this.log.warn({ err: { message: (e as Error).message } }, 'stream relay: redis failed');
      // an unrenewed lock may expire under us: the upstream feed stops rather than run beside another holder
      await this.dropUpstream();
    }
    this.schedule();
  }

  private async writeInterest(): Promise<void> {
    const ttl = this.lockTtlMs * INTEREST_TTL_FACTOR;
    const key = this.keys.interest(this.replicaId);
    const i = this.interest;
    await this.cmd
      .multi()
      .hset(key, { addresses: JSON.stringify(i.addresses), traces: JSON.stringify(i.traces), types: JSON.stringify(i.types), min_finality: i.minFinality })
      .pexpire(key, ttl)
      .zadd(this.keys.replicas, Date.now() + ttl, this.replicaId)
      .exec();
  }

  private async holdLock(): Promise<void> {
    if (this.stopped) return;
    if (this.inner) {
      const renewed = await this.cmd.eval(RENEW, 1, this.keys.lock, this.replicaId, this.lockTtlMs);
      if (renewed === 1) return;
      this.log.warn({ replica: this.replicaId }, 'stream relay: the lock was lost; this replica stops its upstream stream');
      await this.dropUpstream();
      return;
    }
    const taken = await this.cmd.set(this.keys.lock, this.replicaId, 'PX', this.lockTtlMs, 'NX');
    if (taken !== 'OK') return;
    this.log.info({ replica: this.replicaId }, 'stream relay: this replica holds the upstream stream');
    this.union = '';
    const inherited = await this.inheritance();
    this.inner = this.opts.upstream({ coverage: this.coverageLog(), ...(inherited ? { inherited } : {}) });
    this.inner.start(
      (event) => this.publish(event),
      (gap) => this.publishGap(gap),
    );
  }

  /** What the previous holder covered, when it was last known to, and the finalized transactions sent since. */
  private async inheritance(): Promise<InheritedCoverage | undefined> {
    const [held, handingMs] = await Promise.all([this.cmd.hgetall(this.keys.coverage), this.cmd.pttl(this.keys.handover)]);
    const keys = Object.keys(held).filter((k) => k !== STAMP);
    this.handedOver = handingMs > 0 ? new Set(keys) : undefined;
    this.handOverProgress();
    if (!keys.length) return undefined;
    const at = Number(held[STAMP]) || Date.now();
    const delivered: string[] = [];
    const since = await this.cmd.xrange(this.keys.events, `${Math.max(0, at - INHERIT_MARGIN_MS)}-0`, '+', 'COUNT', 4 * PAGE);
    for (const [id, fields] of since) {
      const event = this.decode(id, fields);
      if (event?.type !== 'transactions' || event.finality !== 'finalized') continue;
      for (const t of (event.transactions as { hash?: unknown }[] | undefined) ?? []) if (typeof t.hash === 'string') delivered.push(t.hash);
    }
    this.log.info({ keys: keys.length, sinceMs: Date.now() - at, handedOver: handingMs > 0 }, 'stream relay: coverage taken over from the previous holder');
    return { keys, at, delivered, ...(handingMs > 0 ? { carriedUntil: Date.now() + handingMs } : {}) };
  }

  /** Once this replica's feed covers (or dropped) every key handed over, the previous holder may stop carrying them. */
  private handOverProgress(covered: readonly string[] = []): void {
    if (!this.handedOver) return;
    for (const k of covered) this.handedOver.delete(k);
    if (this.handedOver.size) return;
    this.handedOver = undefined;
    this.cmd.del(this.keys.handover).catch(() => {});
  }

  /** Coverage in Redis, written on the connection events are published on, so in their order. */
  private coverageLog(): CoverageLog {
    const failed = (e: Error) => {
      if (!this.coverageFailing) this.log.warn({ err: { message: e.message } }, 'stream relay: recording coverage failed; resumes may be refused');
      this.coverageFailing = true;
    };
    const ok = () => (this.coverageFailing = false);
    return {
      begin: (keys) => {
        for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
          this.cmd.eval(BEGIN, 2, this.keys.events, this.keys.coverage, this.opts.maxLen, ...keys.slice(i, i + KEYS_PER_CALL)).then(ok, failed);
        }
        this.handOverProgress(keys);
      },
      end: (keys) => {
        for (let i = 0; i < keys.length; i += KEYS_PER_CALL) this.cmd.hdel(this.keys.coverage, ...keys.slice(i, i + KEYS_PER_CALL)).then(ok, failed);
        this.handOverProgress(keys);
      },
    };
  }

  /** The union of every live replica's interest to the upstream feed; this holder's status for the others. */
  private async holderDuties(): Promise<void> {
    const now = Date.now();
    await this.cmd.zremrangebyscore(this.keys.replicas, '-inf', now);
    const ids = await this.cmd.zrange(this.keys.replicas, 0, -1);
    const pipeline = this.cmd.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.interest(id));
    const answers = (await pipeline.exec()) ?? [];
    const union = { addresses: new Set<string>(), traces: new Set<string>(), types: new Set<LiveEventType>(), minFinality: 'finalized' as Finality };
    for (const [err, hash] of answers) {
      const h = hash as Record<string, string> | null;
      if (err || !h?.types) continue;
      for (const a of listOf(h.addresses)) union.addresses.add(a);
      for (const t of listOf(h.traces)) union.traces.add(t);
      for (const t of listOf(h.types)) union.types.add(t as LiveEventType);
      const f = h.min_finality as Finality;
      if (f in FINALITY_RANK && FINALITY_RANK[f] < FINALITY_RANK[union.minFinality]) union.minFinality = f;
    }
    const text = JSON.stringify([[...union.addresses].sort(), [...union.traces].sort(), [...union.types].sort(), union.minFinality]);
    if (text !== this.union && this.inner) {
      this.union = text;
      this.inner.setInterest({ addresses: union.addresses, traceExternalHashNorms: union.traces, types: union.types, minFinality: union.minFinality });
    }
    this.watched = union.addresses.size;
    const status = this.inner?.status();
    if (!status) return;
    const report: HolderReport = { holder: this.replicaId, watched: this.watched, ...(this.inner?.capacity ? { capacity: this.inner.capacity() } : {}) };
    await this.cmd
      .multi()
      .set(this.keys.status, JSON.stringify({ ...status, ...report }), 'PX', this.lockTtlMs * 2)
      .hset(this.keys.coverage, STAMP, Date.now())
      .exec();
  }

  private async readHolderStatus(): Promise<void> {
    const text = await this.cmd.get(this.keys.status);
    this.holderStatus = text ? (JSON.parse(text) as LiveFeedStatus & HolderReport) : undefined;
  }

  private async dropUpstream(): Promise<void> {
    const inner = this.inner;
    this.inner = undefined;
    await inner?.stop();
  }

  /**
   * The lock freed. With another replica alive to take it, the upstream stream is handed over: carried (and
   * published) until the taker's feed covers what this one did, no other replica is left, or two lock expiries pass.
   */
  private async release(): Promise<void> {
    if (!this.inner) return;
    const boundMs = this.lockTtlMs * HANDOVER_TTL_FACTOR;
    const handing = (await this.othersAlive()) && (await this.cmd.eval(HAND_OVER, 2, this.keys.lock, this.keys.handover, this.replicaId, boundMs).catch(() => 0)) === 1;
    if (!handing) {
      await this.dropUpstream();
      await this.cmd.eval(RELEASE, 1, this.keys.lock, this.replicaId).catch(() => {});
      return;
    }
    this.log.info({ replica: this.replicaId }, 'stream relay: handing the upstream stream over to another replica');
    const deadline = Date.now() + boundMs;
    while (Date.now() < deadline && (await this.cmd.exists(this.keys.handover).catch(() => 0)) === 1 && (await this.othersAlive())) {
      await new Promise((r) => setTimeout(r, HANDOVER_POLL_MS));
    }
    await this.dropUpstream();
    // a replica taking the lock later must not count on this one carrying the stream
    await this.cmd.eval(RELEASE, 1, this.keys.handover, this.replicaId).catch(() => {});
  }

  /** Whether a replica other than this one is alive (its interest refreshed within its expiry). */
  private async othersAlive(): Promise<boolean> {
    const alive = await this.cmd.zrangebyscore(this.keys.replicas, Date.now(), '+inf').catch(() => []);
    return alive.some((id) => id !== this.replicaId);
  }

  /** The holder's events into the shared stream, in the order they came (one connection keeps it). */
  private publish(event: LiveEvent): void {
    if (!this.inner) return;
    // the upstream feed's own cursor is this process's; the stream entry id replaces it
    const { cursor: _local, ...wire } = event;
    this.cmd.xadd(this.keys.events, 'MAXLEN', '~', this.opts.maxLen, '*', 'e', JSON.stringify(wire)).then(
      () => {
        if (this.publishFailing) this.log.info({}, 'stream relay: publishing events works again');
        this.publishFailing = false;
      },
      (e: Error) => {
        if (!this.publishFailing) this.log.warn({ err: { message: e.message } }, 'stream relay: publishing an event failed; events are lost until redis is back');
        this.publishFailing = true;
      },
    );
  }

  /** A gap the holder's feed reported, for every replica's clients. */
  private publishGap(gap: LiveGap): void {
    const wire = { addresses: [...gap.addresses], hashes: [...gap.traceExternalHashNorms], types: [...gap.types], from: gap.from, to: gap.to, reason: gap.reason };
    this.cmd.xadd(this.keys.events, 'MAXLEN', '~', this.opts.maxLen, '*', 'g', JSON.stringify(wire)).catch((e: Error) => {
      this.log.warn({ err: { message: e.message } }, 'stream relay: publishing a gap failed');
    });
  }

  private decodeGap(fields: string[]): LiveGap | undefined {
    const i = fields.indexOf('g');
    if (i < 0 || i % 2 !== 0) return undefined;
    try {
      const g = JSON.parse(fields[i + 1]!) as { addresses: string[]; hashes: string[]; types: LiveEventType[]; from: number; to: number; reason: string };
      return { addresses: new Set(g.addresses), traceExternalHashNorms: new Set(g.hashes), types: new Set(g.types), from: g.from, to: g.to, reason: g.reason };
    } catch {
      return undefined;
    }
  }

  private decode(id: string, fields: string[]): LiveEvent | undefined {
    const i = fields.indexOf('e');
    if (i < 0 || i % 2 !== 0) return undefined;
    let event: LiveEvent;
    try {
      event = JSON.parse(fields[i + 1]!) as LiveEvent;
    } catch {
      // not written by a relay: skipped
      return undefined;
    }
    return event.finality === 'finalized' ? { ...event, cursor: id } : event;
  }

  /**
   * Entries trimmed before this replica read them (it stalled for longer than the stream's bound lasts) are
   * lost to its clients: said in the log, once per stall.
   */
  private async noticeGap(): Promise<void> {
    if (this.lastId === '0-0') return;
    const [oldest] = await this.reader.xrange(this.keys.events, '-', '+', 'COUNT', 1);
    if (!oldest || compareEntryIds(oldest[0], this.lastId) <= 0) return;
    this.log.warn({ after: this.lastId, oldest: oldest[0] }, 'stream relay: this replica fell behind the shared stream by more than its bound (STREAM_RELAY_MAXLEN); events may have been lost');
  }

  private async readLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        const answer = await this.reader.xread('COUNT', PAGE, 'BLOCK', BLOCK_MS, 'STREAMS', this.keys.events, this.lastId);
        this.readerError = undefined;
        if (answer) await this.noticeGap();
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            this.lastId = id;
            const event = this.decode(id, fields);
            if (event) this.deliver?.(event);
            else {
              const gap = this.decodeGap(fields);
              if (gap) this.missed?.(gap);
            }
          }
        }
      } catch (e) {
        if (this.stopped) return;
        this.readerError = (e as Error).message;
        await new Promise((r) => setTimeout(r, 500).unref());
      }
    }
  }
}
