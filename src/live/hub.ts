/**
 * The one live hub: takes the events of one LiveFeed and hands each client the part of each event its
 * subscription asks for (../shared/reference/streaming-v2.md §5, §7), whatever the client's transport.
 *
 * - Routing is by index (address → clients, trace hash → clients), so an event costs the clients it concerns; a
 *   changed subscription changes the indexes by what it added and removed, not by all it holds.
 * - What every client watches is kept as reference counts, and the union is pushed to the feed after a change:
 *   within the turn when the types, finalities or extras asked for changed, else at most every `interestPaceMs`
 *   (an upstream feed narrows its own subscription to it).
 * - `trace_invalidated` goes, once, to each client that was sent a non-finalized transactions, actions or trace
 *   event of that trace and no finalized one since (§5.6).
 * - Each client's queue is bounded in bytes (what its transport holds unread): a client found past the bound when
 *   an event comes is dropped before its part is made, and nobody waits for it.
 * - Resuming: a client attached with a cursor is first sent, from the feed's replay, every finalized event
 *   after it, while the live events meanwhile wait (at most MAX_HELD of them); then the waiting ones follow, less
 *   those the replay sent. A replay is work like any other: at most `maxReplays` run at once (past it LiveBusy),
 *   each sends no faster than its client reads (waiting at most REPLAY_WRITE_MS for it) and than its share of
 *   `replayClientBytesPerSecond` and `replayBytesPerSecond`, and it stops when its client goes.
 *   The feed is told what the client watches, so it can refuse a resume it cannot complete.
 * - A feed with a capacity (an upstream's stream) admits a subscription only within it, and within one client's
 *   share of it (admit); a gap the feed reports reaches the clients it concerns (missed).
 *
 * Actions may carry `ancestor_type` (the types of the actions enclosing them, as the local classifier knows
 * them) for the hiding rule of `supported_action_types`; it is never sent.
 */
import { createHash } from 'node:crypto';
import { RecentEvents, type RecentOptions } from './recent.js';
import {
  compareCursors,
  FINALITY_RANK,
  LiveBusy,
  LiveCursorTooOld,
  type Finality,
  type LiveEventType,
  type LiveFeed,
  type LiveGap,
  type LiveInterest,
  type LiveEvent,
  type LiveWant,
} from './feed.js';
import { Pace } from './pace.js';
import type { Subscription } from './subscription.js';


/**
 * One client's part of an event as it goes out, shared by every client shown the same part: its JSON text (a
 * finalized event's carries its cursor), and that text's bytes in each transport's form, each made once.
 */
export class Payload {
  private bytes?: Buffer;
  private sseBytes?: Buffer;
  private sseChunkBytes?: Buffer;
  private wsFrameBytes?: Buffer;
  private value?: object;

  constructor(
    readonly json: string,
    readonly cursor: string | undefined,
  ) {}

  /** The text as UTF-8 (a WebSocket text frame's payload). */
  utf8(): Buffer {
    return (this.bytes ??= Buffer.from(this.json, 'utf8'));
  }

  /** The whole SSE frame: `id:` (when there is a cursor), `event: event`, `data:`. */
  sse(): Buffer {
    return (this.sseBytes ??= Buffer.from(this.cursor === undefined ? `event: event\ndata: ${this.json}\n\n` : `id: ${this.cursor}\nevent: event\ndata: ${this.json}\n\n`, 'utf8'));
  }

  /** The SSE frame as one chunk of a chunked HTTP/1.1 body (RFC 9112 §7.1): size line, frame, CRLF. */
  sseChunk(): Buffer {
    if (this.sseChunkBytes) return this.sseChunkBytes;
    const lead = this.cursor === undefined ? 'event: event\ndata: ' : `id: ${this.cursor}\nevent: event\ndata: `;
    const size = Buffer.byteLength(lead) + this.byteLength() + 2;
    const line = `${size.toString(16)}\r\n`;
    // written in place: one buffer per part, not a copy per step
    const chunk = Buffer.allocUnsafe(line.length + size + 2);
    let at = chunk.write(line, 0, 'latin1');
    at += chunk.write(lead, at, 'utf8');
    at += this.writeText(chunk, at);
    chunk.write('\n\n\r\n', at, 'latin1');
    return (this.sseChunkBytes = chunk);
  }

  /** The text as one whole unmasked WebSocket text frame, header included (RFC 6455 §5.2): what a server sends. */
  wsFrame(): Buffer {
    if (this.wsFrameBytes) return this.wsFrameBytes;
    const n = this.byteLength();
    const headLength = n < 126 ? 2 : n < 65536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(headLength + n);
    frame[0] = 0x81; // FIN, text
    if (n < 126) frame[1] = n;
    else if (n < 65536) {
      frame[1] = 126;
      frame.writeUInt16BE(n, 2);
    } else {
      frame[1] = 127;
      frame.writeBigUInt64BE(BigInt(n), 2);
    }
    this.writeText(frame, headLength);
    return (this.wsFrameBytes = frame);
  }

  private byteLength(): number {
    return this.bytes?.length ?? Buffer.byteLength(this.json, 'utf8');
  }

  /** Writes the text as UTF-8 into `into` at `at`; answers its length. */
  private writeText(into: Buffer, at: number): number {
    return this.bytes ? this.bytes.copy(into, at) : into.write(this.json, at, 'utf8');
  }

  /** The text parsed back, read-only: for in-process clients (GraphQL subscriptions). */
  parsed(): object {
    return (this.value ??= JSON.parse(this.json) as object);
  }
}

/** One client as its transport presents it. */
export interface HubClient {
  sub: Subscription;
  /** Sends one event: its part for this client, shared with the others shown the same. */
  send(payload: Payload): void;
  /** Bytes sent to it and not yet taken by its peer. */
  queuedBytes(): number;
  /** Ends it: its queue is full. */
  drop(reason: string): void;
  /** who it counts against for a share of a limited feed (API key, else IP); absent: nobody's */
  tenant?: string;
  /** Tells it events it watches were lost (a LiveGap, in words); without it the client is dropped with them. */
  missed?(message: string): void;
  /**
   * Resolves once the client has at most `bytes` unread, rejects once it is gone: what a replay waits on before
   * sending more. Absent: the client takes whatever it is sent at once (an in-process one).
   */
  drained?(bytes: number): Promise<void>;
}

export interface HubOptions {
  /** bytes a client may leave unread before it is dropped; a replay waits for its client to read down to half */
  maxQueuedBytes: number;
  log?: { warn(obj: object, msg: string): void };
  /** the window `replay_existing` replays from (RECENT_DEFAULTS when absent) */
  recent?: RecentOptions;
  /** replays running at once over the server; past it a resume is refused with LiveBusy (absent: unbounded) */
  maxReplays?: number;
  /** bytes per second all replays together send (absent: unbounded) */
  replayBytesPerSecond?: number;
  /** bytes per second one replay sends (absent: unbounded) */
  replayClientBytesPerSecond?: number;
  /** ms between the addresses and hashes pushed to the feed, at least (absent: INTEREST_PACE_MS) */
  interestPaceMs?: number;
  /** ms of fan-out work before other work may run (absent: FAN_OUT_SLICE_MS; Infinity: each event sent out at once) */
  fanOutSliceMs?: number;
}

/** Work of sending one event out, at most, before other work of the server runs. */
const FAN_OUT_SLICE_MS = 10;
/** How often at most a change of the addresses or hashes watched is pushed to the feed, by default. */
export const INTEREST_PACE_MS = 250;
/** Live events held for one client while its replay runs; past it the client is dropped (it may resume again). */
export const MAX_HELD = 4096;
/** How long a replay waits for its client to read before it is dropped as a slow consumer. */
export const REPLAY_WRITE_MS = 15_000;
/** The Retry-After of a resume refused because the server runs all the replays it may. */
export const REPLAY_RETRY_AFTER_S = 2;

/** Thrown into a feed's replay to end it: its client is gone. */
class ReplayStopped extends Error {
  constructor() {
    super('the client of this replay is gone');
  }
}

interface Entry {
  client: HubClient;
  /** hashes of traces sent below finalized: owed a trace_invalidated if one comes */
  tracked: Set<string>;
  /** live events held while a replay runs */
  held?: LiveEvent[];
  /** the last cursor sent by the replay */
  replayed?: string;
  /** the subscription the indexes hold it under */
  indexed?: Subscription;
  /**
   * the digest of what `indexed` routes and trims by: clients with the same one are shown the same parts; made
   * when an event first needs it, so a subscription changed many times between events is digested once
   */
  shape?: string;
}

type WireAction = Record<string, unknown> & { type?: string; accounts?: string[]; ancestor_type?: string[] };
type WireTx = Record<string, unknown> & {
  account: string;
  in_msg?: { source?: string | null; message_content?: { hash?: string } | null } | null;
  out_msgs?: { destination?: string | null }[];
};

const ANCESTORS = 'ancestor_type';

/** The parts of one event worked out so far: by part key, and by subscription shape (null: shown nothing). */
interface Made {
  byKey: Map<string, Payload>;
  byShape: Map<string, Payload | null>;
}

/**
 * A digest of everything partFor reads of a subscription: two subscriptions with the same one are shown the
 * same part of every event (but a trace_invalidated, which goes by what was sent).
 */
function shapeOf(sub: Subscription): string {
  const h = createHash('sha1');
  const list = (xs: Iterable<string>) => h.update([...xs].sort().join(',')).update('|');
  list(sub.types);
  list(sub.addresses);
  list(sub.traceHashes);
  list(sub.actionTypes);
  list(sub.supported);
  h.update(`${sub.minFinality}|${sub.includeAddressBook ? 1 : 0}${sub.includeMetadata ? 1 : 0}|${sub.msgBodyHash ?? ''}`);
  return h.digest('base64');
}

/** Whether cursor `a` comes after `b` in their feed's order. */
export function cursorAfter(a: string, b: string): boolean {
  return compareCursors(a, b) > 0;
}

function addCount<K>(m: Map<K, number>, k: K, d: number): void {
  const n = (m.get(k) ?? 0) + d;
  if (n <= 0) m.delete(k);
  else m.set(k, n);
}

function addTo<K>(m: Map<K, Set<Entry>>, k: K, e: Entry): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(e);
}

function removeFrom<K>(m: Map<K, Set<Entry>>, k: K, e: Entry): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(e);
  if (s.size === 0) m.delete(k);
}

/** Calls `added` for what is in `next` only and `removed` for what is in `prev` only; whether anything was. */
function diff<T>(prev: ReadonlySet<T>, next: ReadonlySet<T>, added: (x: T) => void, removed: (x: T) => void): boolean {
  if (prev === next) return false;
  let changed = false;
  for (const x of next) {
    if (prev.has(x)) continue;
    added(x);
    changed = true;
  }
  for (const x of prev) {
    if (next.has(x)) continue;
    removed(x);
    changed = true;
  }
  return changed;
}

const sameSet = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean => a === b || (a.size === b.size && [...a].every((x) => b.has(x)));

/** `address_book` / `metadata` of an event kept to the keys given, or absent. */
function trimmed(map: unknown, keys: Iterable<string>): Record<string, unknown> | undefined {
  if (typeof map !== 'object' || map === null) return undefined;
  const src = map as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in src) out[k] = src[k];
  return out;
}

/** The hiding rule of `/api/v3/actions` and the client's `action_types`. */
function actionShown(a: WireAction, sub: Subscription): boolean {
  if (sub.actionTypes.size > 0 && !sub.actionTypes.has(a.type ?? '')) return false;
  if (!sub.supported.has(a.type ?? '')) return false;
  return !(a[ANCESTORS] ?? []).some((t) => sub.supported.has(t));
}

function withoutAncestors(a: WireAction): WireAction {
  if (!(ANCESTORS in a)) return a;
  const { [ANCESTORS]: _, ...rest } = a;
  return rest;
}

export class LiveHub {
  private readonly entries = new Map<HubClient, Entry>();
  private readonly byAddress = new Map<string, Set<Entry>>();
  private readonly byTrace = new Map<string, Set<Entry>>();
  /** clients owed a trace_invalidated, by trace hash */
  private readonly byTracked = new Map<string, Set<Entry>>();
  private readonly typeCount = new Map<LiveEventType, number>();
  private readonly finalityCount = new Map<Finality, number>();
  /** clients asking for the address book (`b`) and for metadata (`m`) */
  private readonly extrasCount = new Map<'b' | 'm', number>();
  /** per tenant, the addresses its clients watch, counted */
  private readonly tenantAddresses = new Map<string, Map<string, number>>();
  /** what `replay_existing` sends: the events of the last minute, whoever watched them */
  private readonly recent: RecentEvents;
  /** when the feed is to be told the interest next (performance.now()), while a push is scheduled */
  private interestDue?: number;
  private cancelInterest?: () => void;
  private interestAt = -Infinity;
  /** the least ms until the next push: INTEREST_PACE_MS, or more when making the union takes long */
  private interestGap = 0;
  private started = false;
  /** events being sent out, first the one in progress */
  private readonly outgoing: { e: LiveEvent; made: Made; targets?: Entry[]; next: number }[] = [];
  private fanningOut = false;
  /** replays running now */
  private replays = 0;
  private readonly replayPace?: Pace;

  constructor(
    readonly feed: LiveFeed,
    private readonly opts: HubOptions,
  ) {
    this.recent = new RecentEvents(opts.recent);
    if (opts.replayBytesPerSecond) this.replayPace = new Pace(opts.replayBytesPerSecond);
  }

  /** replays running now */
  get replaying(): number {
    return this.replays;
  }

  /** Why a resume would be refused now (LiveBusy), or undefined when a replay may start. */
  replayRefusal(): LiveBusy | undefined {
    const max = this.opts.maxReplays;
    if (max === undefined || this.replays < max) return undefined;
    return new LiveBusy(`too many replays running: at most ${max} at once over the server`, REPLAY_RETRY_AFTER_S);
  }

  get size(): number {
    return this.entries.size;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.feed.start(
      (e) => this.publish(e),
      (g) => this.missed(g),
    );
  }

  /**
   * Why the feed cannot take this subscription for this client, or undefined when it can: the addresses it adds
   * to what is watched would pass the feed's capacity, or its tenant's share of it.
   */
  admit(client: HubClient, next: Subscription): string | undefined {
    const capacity = this.feed.capacity?.();
    if (!capacity) return undefined;
    const added = [...next.addresses].filter((a) => !this.byAddress.has(a)).length;
    if (added > 0 && this.byAddress.size + added > capacity.addresses) {
      return `upstream stream full: ${this.byAddress.size} addresses watched + new ${added} > max ${capacity.addresses}`;
    }
    if (client.tenant === undefined) return undefined;
    const counts = this.tenantAddresses.get(client.tenant);
    const before = this.entries.get(client)?.indexed?.addresses ?? new Set<string>();
    // whether the tenant's other clients watch an address
    const others = (a: string) => (counts?.get(a) ?? 0) - (before.has(a) ? 1 : 0) > 0;
    let after = counts?.size ?? 0;
    for (const a of before) if (!others(a)) after--;
    for (const a of next.addresses) if (!others(a)) after++;
    if (after > capacity.perClient) return `upstream stream share exceeded: this client would watch ${after} addresses > max ${capacity.perClient}`;
    return undefined;
  }

  /** A gap the feed reports: each client watching something in it is told (or dropped, with no way to be told). */
  private missed(gap: LiveGap): void {
    const text = `events missed: ${gap.reason} (${[...gap.types].join(', ')} between ${new Date(gap.from).toISOString()} and ${new Date(gap.to).toISOString()}); a resume from before it is refused`;
    const told = new Set<Entry>();
    for (const a of gap.addresses) for (const e of this.byAddress.get(a) ?? []) told.add(e);
    for (const h of gap.traceExternalHashNorms) for (const e of this.byTrace.get(h) ?? []) told.add(e);
    for (const entry of told) {
      if (![...gap.types].some((t) => entry.client.sub.types.has(t))) continue;
      if (entry.client.missed) entry.client.missed(text);
      else {
        this.detach(entry.client);
        entry.client.drop(text);
      }
    }
  }

  /**
   * Adds a client. With `after`, every finalized event the feed still holds after that cursor is sent first;
   * rejects with LiveCursorTooOld (the client is then not attached) when the feed cannot replay from it, and
   * with LiveBusy when the server runs all the replays it may.
   */
  async attach(client: HubClient, after?: string): Promise<void> {
    const busy = after === undefined ? undefined : this.replayRefusal();
    if (busy) throw busy;
    const entry: Entry = { client, tracked: new Set() };
    this.entries.set(client, entry);
    this.index(entry);
    if (after === undefined) return;
    try {
      await this.replay(entry, after);
    } catch (e) {
      this.detach(client);
      throw e;
    }
  }

  /** Resumes an attached client from a cursor (WS `subscribe` with `after`). */
  async resume(client: HubClient, after: string): Promise<void> {
    const entry = this.entries.get(client);
    if (entry) await this.replay(entry, after);
  }

  /**
   * `replay_existing` (toncenter-newer.md §9): sends an attached client, and it alone, the snapshots of the last
   * minute it would have been sent live (a trace's latest stages, an account's latest states, a jetton wallet's
   * latest balance when the wallet itself is watched), before anything live reaches it: the pass runs in one turn.
   */
  replayExisting(client: HubClient): void {
    const entry = this.entries.get(client);
    if (!entry || entry.held) return;
    const sub = client.sub;
    for (const e of this.recent.snapshot()) {
      if (!this.entries.has(client)) return;
      // toncenter replays a jetton wallet's state by the wallet's address, never by its owner's
      if (e.type === 'jettons_change' && !sub.addresses.has((e.jetton as { address?: string } | undefined)?.address ?? '')) continue;
      if (this.candidates(e).has(entry)) this.deliver(entry, e);
    }
  }

  /** The client's subscription changed: the indexes change by what it added and removed. */
  update(client: HubClient): void {
    const entry = this.entries.get(client);
    if (!entry) return;
    const prev = entry.indexed;
    const next = client.sub;
    if (!prev) return this.index(entry);
    if (prev === next) return;
    entry.indexed = next;
    entry.shape = undefined;
    const tenant = client.tenant;
    const addresses = diff(
      prev.addresses,
      next.addresses,
      (a) => {
        addTo(this.byAddress, a, entry);
        this.countTenant(tenant, [a], 1);
      },
      (a) => {
        removeFrom(this.byAddress, a, entry);
        this.countTenant(tenant, [a], -1);
      },
    );
    const hashes = diff(
      prev.traceHashes,
      next.traceHashes,
      (h) => addTo(this.byTrace, h, entry),
      (h) => removeFrom(this.byTrace, h, entry),
    );
    const counted = !sameSet(prev.types, next.types) || prev.minFinality !== next.minFinality || prev.includeAddressBook !== next.includeAddressBook || prev.includeMetadata !== next.includeMetadata;
    if (counted) {
      this.count(prev, -1);
      this.count(next, 1);
    }
    if (counted || addresses || hashes) this.scheduleInterest(counted);
  }

  detach(client: HubClient): void {
    const entry = this.entries.get(client);
    if (!entry) return;
    this.entries.delete(client);
    this.unindex(entry);
    for (const h of entry.tracked) removeFrom(this.byTracked, h, entry);
    entry.tracked.clear();
  }

  /**
   * Sends a client every finalized event the feed holds after `after`, as fast as the client reads and the paces
   * allow, then what came live meanwhile. A feed that awaits what `deliver` returns reads no further ahead than
   * that; events of one that does not wait in order here (they are the feed's own, held by reference). Ends early,
   * quietly, when the client goes or is dropped.
   */
  private async replay(entry: Entry, after: string): Promise<void> {
    if (!this.feed.replay) throw new LiveCursorTooOld(undefined);
    if (entry.held) throw new LiveBusy('a replay is already running on this connection', REPLAY_RETRY_AFTER_S);
    const busy = this.replayRefusal();
    if (busy) throw busy;
    this.replays++;
    entry.held = [];
    entry.replayed = after;
    const client = entry.client;
    const pace = this.opts.replayClientBytesPerSecond ? new Pace(this.opts.replayClientBytesPerSecond) : undefined;
    const backlog: LiveEvent[] = [];
    let stopped = false;
    const gone = (): boolean => stopped || this.entries.get(client) !== entry;
    let pumping: Promise<void> | undefined;
    const pump = async (): Promise<void> => {
      while (backlog.length > 0 && !gone()) {
        await this.writable(entry);
        const wait = Math.max(pace?.wait() ?? 0, this.replayPace?.wait() ?? 0);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (gone()) break;
        const e = backlog.shift()!;
        // routed as a live event is: a state change of an account it does not watch is not its
        const bytes = this.candidates(e).has(entry) ? this.deliver(entry, e) : 0;
        pace?.take(bytes);
        this.replayPace?.take(bytes);
      }
    };
    const drain = (): Promise<void> =>
      (pumping ??= pump()
        .catch(() => {
          stopped = true;
        })
        .finally(() => (pumping = undefined)));
    try {
      const sub = entry.client.sub;
      const want: LiveWant = { addresses: sub.addresses, traceExternalHashNorms: sub.traceHashes, types: sub.types };
      await this.feed.replay(
        after,
        (e) => {
          if (gone()) throw new ReplayStopped();
          backlog.push(e);
          if (e.cursor !== undefined) entry.replayed = e.cursor;
          return drain();
        },
        want,
      );
      while (backlog.length > 0 && !gone()) await drain();
    } catch (e) {
      if (!(e instanceof ReplayStopped)) throw e;
    } finally {
      this.replays--;
      // what came live meanwhile follows, less what the replay sent: the seam between the log and the live feed
      const held = entry.held;
      const replayed = entry.replayed!;
      entry.held = undefined;
      for (const e of held) {
        if (gone()) break;
        if (e.cursor !== undefined && !cursorAfter(e.cursor, replayed)) continue;
        this.deliver(entry, e);
      }
    }
  }

  /**
   * Resolves once the client has read down to half its bound; a client that has not within REPLAY_WRITE_MS is
   * dropped (a slow consumer), and this rejects, as it does when the client goes.
   */
  private async writable(entry: Entry): Promise<void> {
    const client = entry.client;
    const low = this.opts.maxQueuedBytes / 2;
    if (!client.drained || client.queuedBytes() <= low) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('late')), REPLAY_WRITE_MS);
    });
    try {
      await Promise.race([client.drained(low), late]);
    } catch (e) {
      if (this.entries.get(client) === entry) {
        this.detach(client);
        client.drop(`its replay waited ${REPLAY_WRITE_MS} ms for it to read`);
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private index(entry: Entry): void {
    const sub = entry.client.sub;
    entry.indexed = sub;
    entry.shape = undefined;
    for (const a of sub.addresses) addTo(this.byAddress, a, entry);
    for (const h of sub.traceHashes) addTo(this.byTrace, h, entry);
    this.countTenant(entry.client.tenant, sub.addresses, 1);
    this.count(sub, 1);
    this.scheduleInterest(true);
  }

  private unindex(entry: Entry): void {
    const sub = entry.indexed;
    if (!sub) return;
    entry.indexed = undefined;
    for (const a of sub.addresses) removeFrom(this.byAddress, a, entry);
    for (const h of sub.traceHashes) removeFrom(this.byTrace, h, entry);
    this.countTenant(entry.client.tenant, sub.addresses, -1);
    this.count(sub, -1);
    this.scheduleInterest(false);
  }

  /** The types, finality and extras a subscription asks for, counted in (d = 1) or out (d = -1). */
  private count(sub: Subscription, d: number): void {
    for (const t of sub.types) addCount(this.typeCount, t, d);
    if (sub.types.size > 0) addCount(this.finalityCount, sub.minFinality, d);
    if (sub.includeAddressBook) addCount(this.extrasCount, 'b', d);
    if (sub.includeMetadata) addCount(this.extrasCount, 'm', d);
  }

  private countTenant(tenant: string | undefined, addresses: Iterable<string>, d: number): void {
    if (tenant === undefined) return;
    let counts = this.tenantAddresses.get(tenant);
    if (!counts) this.tenantAddresses.set(tenant, (counts = new Map()));
    for (const a of addresses) addCount(counts, a, d);
    if (counts.size === 0) this.tenantAddresses.delete(tenant);
  }

  /** The union of what every client watches. */
  interest(): LiveInterest {
    let minFinality: Finality = 'finalized';
    for (const f of this.finalityCount.keys()) if (FINALITY_RANK[f] < FINALITY_RANK[minFinality]) minFinality = f;
    return {
      addresses: new Set(this.byAddress.keys()),
      traceExternalHashNorms: new Set(this.byTrace.keys()),
      types: new Set(this.typeCount.keys()),
      minFinality,
      addressBook: this.extrasCount.has('b'),
      metadata: this.extrasCount.has('m'),
    };
  }

  /**
   * Pushes the interest to the feed: within the turn when `now` (what is asked for changed, which a feed that
   * builds its events reads at once), else no sooner than `interestPaceMs` after the last push, so a storm of
   * subscription changes costs the feed (and the union's making) a few pushes a second.
   */
  private scheduleInterest(now: boolean): void {
    const at = performance.now();
    const due = now ? at : Math.max(at, this.interestAt + Math.max(this.opts.interestPaceMs ?? INTEREST_PACE_MS, this.interestGap));
    if (this.interestDue !== undefined && this.interestDue <= due) return;
    this.cancelInterest?.();
    this.interestDue = due;
    const push = () => {
      this.cancelInterest = undefined;
      this.interestDue = undefined;
      const start = performance.now();
      this.feed.setInterest(this.interest());
      this.interestAt = performance.now();
      // the union is made whole each time: a large one is made no more than a twentieth of the time
      this.interestGap = 20 * (this.interestAt - start);
    };
    if (due <= at) {
      const t = setImmediate(push);
      this.cancelInterest = () => clearImmediate(t);
    } else {
      const t = setTimeout(push, due - at);
      this.cancelInterest = () => clearTimeout(t);
    }
  }

  /**
   * One event from the feed, to every client it concerns. Clients of the same subscription shape are shown the
   * same part, worked out once; clients shown the same part share its payload (text and bytes made once). Events
   * go out in order, in slices of FAN_OUT_SLICE_MS: a large event to many clients of different parts lets other
   * work run between slices.
   */
  publish(e: LiveEvent): void {
    this.recent.add(e);
    if (!this.anyWants(e)) return;
    this.outgoing.push({ e, made: { byKey: new Map(), byShape: new Map() }, next: 0 });
    if (!this.fanningOut) this.fanOut();
  }

  private readonly fanOut = (): void => {
    this.fanningOut = true;
    const deadline = performance.now() + (this.opts.fanOutSliceMs ?? FAN_OUT_SLICE_MS);
    let first = true;
    while (this.outgoing.length > 0) {
      const job = this.outgoing[0]!;
      const targets = (job.targets ??= [...this.candidates(job.e)]);
      while (job.next < targets.length) {
        if (!first && performance.now() > deadline) {
          setImmediate(this.fanOut);
          return;
        }
        first = false;
        const entry = targets[job.next++]!;
        // gone, or attached anew, since the event came
        if (this.entries.get(entry.client) !== entry) continue;
        if (!entry.held) this.deliver(entry, job.e, job.made);
        else if (entry.held.length < MAX_HELD) entry.held.push(job.e);
        else this.dropSlow(entry, `more than ${MAX_HELD} live events came for it while its replay ran: resume again from the last cursor received`);
      }
      this.outgoing.shift();
    }
    this.fanningOut = false;
  };

  /**
   * Whether some client may be shown the event at all: no client asks for its type, or every one asks for a later
   * finality (an event each stage makes, seen by no one), and it reaches nobody without walking the clients it
   * concerns. A trace_invalidated goes by what was sent.
   */
  private anyWants(e: LiveEvent): boolean {
    if (e.type === 'trace_invalidated') return true;
    if (!this.typeCount.has(e.type)) return false;
    const rank = FINALITY_RANK[e.finality ?? 'finalized'];
    for (const f of this.finalityCount.keys()) if (FINALITY_RANK[f] <= rank) return true;
    return false;
  }

  /** The clients an event may concern, each once. */
  private candidates(e: LiveEvent): Set<Entry> {
    const out = new Set<Entry>();
    const byAddr = (a: unknown) => {
      if (typeof a !== 'string') return;
      const s = this.byAddress.get(a);
      if (s) for (const x of s) out.add(x);
    };
    switch (e.type) {
      case 'transactions':
        for (const t of (e.transactions as WireTx[] | undefined) ?? []) byAddr(t.account);
        break;
      case 'actions':
        for (const a of (e.actions as WireAction[] | undefined) ?? []) for (const x of a.accounts ?? []) byAddr(x);
        break;
      case 'trace':
        for (const x of this.byTrace.get(e.trace_external_hash_norm ?? '') ?? []) out.add(x);
        break;
      case 'account_state_change':
        byAddr(e.account);
        break;
      case 'jettons_change': {
        const j = e.jetton as { address?: string; owner?: string } | undefined;
        byAddr(j?.address);
        byAddr(j?.owner);
        break;
      }
      case 'trace_invalidated':
        for (const x of this.byTracked.get(e.trace_external_hash_norm ?? '') ?? []) out.add(x);
        break;
    }
    return out;
  }

  /** Sends a client its part of an event, if any; answers the bytes sent. A client past its bound is dropped first. */
  private deliver(entry: Entry, e: LiveEvent, made: Made = { byKey: new Map(), byShape: new Map() }): number {
    const client = entry.client;
    const queued = client.queuedBytes();
    if (queued > this.opts.maxQueuedBytes) {
      this.dropSlow(entry, `more than ${this.opts.maxQueuedBytes} bytes queued unread`, queued);
      return 0;
    }
    const payload = this.payloadFor(entry, e, made);
    if (!payload) return 0;
    const hash = e.trace_external_hash_norm;
    if (hash !== undefined && (e.type === 'transactions' || e.type === 'actions' || e.type === 'trace')) {
      if (e.finality === 'finalized') {
        if (entry.tracked.delete(hash)) removeFrom(this.byTracked, hash, entry);
      } else if (!entry.tracked.has(hash)) {
        entry.tracked.add(hash);
        addTo(this.byTracked, hash, entry);
      }
    } else if (e.type === 'trace_invalidated' && hash !== undefined) {
      entry.tracked.delete(hash);
      removeFrom(this.byTracked, hash, entry);
    }
    client.send(payload);
    return payload.json.length;
  }

  /** Drops a client that does not keep up (its transport closes it as a slow consumer). */
  private dropSlow(entry: Entry, reason: string, queuedBytes = entry.client.queuedBytes()): void {
    this.opts.log?.warn({ queuedBytes, limit: this.opts.maxQueuedBytes, reason }, 'streaming: dropping a client that is not reading');
    this.detach(entry.client);
    entry.client.drop(reason);
  }

  /** The payload of a client's part of an event, or undefined for none; the same for clients of one shape. */
  private payloadFor(entry: Entry, e: LiveEvent, made: Made): Payload | undefined {
    // a trace_invalidated goes by what each client was sent, not by its subscription
    const shape = e.type === 'trace_invalidated' ? undefined : (entry.shape ??= shapeOf(entry.indexed ?? entry.client.sub));
    if (shape !== undefined && made.byShape.has(shape)) return made.byShape.get(shape) ?? undefined;
    const part = this.partFor(entry, e);
    let payload: Payload | undefined;
    if (part) {
      payload = made.byKey.get(part.key);
      if (!payload) made.byKey.set(part.key, (payload = new Payload(JSON.stringify(part.make()), e.cursor)));
    }
    if (shape !== undefined) made.byShape.set(shape, payload ?? null);
    return payload;
  }

  /**
   * What of an event a client is shown, or undefined for nothing: a key that names it among the parts of this
   * event (clients shown the same part share its text) and how to make it.
   */
  private partFor(entry: Entry, e: LiveEvent): { key: string; make: () => object } | undefined {
    const sub = entry.client.sub;
    if (e.type === 'trace_invalidated') return entry.tracked.has(e.trace_external_hash_norm ?? '') ? { key: '', make: () => e } : undefined;
    if (!sub.types.has(e.type)) return undefined;
    if (FINALITY_RANK[e.finality ?? 'finalized'] < FINALITY_RANK[sub.minFinality]) return undefined;
    const extras = `${sub.includeAddressBook ? 'b' : ''}${sub.includeMetadata ? 'm' : ''}`;
    const picked = (keep: boolean[]) => `${extras}|${keep.map((k) => (k ? 1 : 0)).join('')}`;
    switch (e.type) {
      case 'transactions': {
        const all = (e.transactions as WireTx[] | undefined) ?? [];
        // msg_body_hash keeps a transaction of a watched account only when its in-message body has that hash
        const keep = all.map((t) => sub.addresses.has(t.account) && (sub.msgBodyHash === undefined || t.in_msg?.message_content?.hash === sub.msgBodyHash));
        if (!keep.includes(true)) return undefined;
        return {
          key: picked(keep),
          make: () => {
            const shown = all.filter((_, i) => keep[i]);
            const keys = new Set<string>();
            for (const t of shown) {
              keys.add(t.account);
              if (t.in_msg?.source) keys.add(t.in_msg.source);
              for (const m of t.out_msgs ?? []) if (m.destination) keys.add(m.destination);
            }
            return this.withExtras(e, sub, { transactions: shown }, keys, keys);
          },
        };
      }
      case 'actions': {
        const all = (e.actions as WireAction[] | undefined) ?? [];
        const keep = all.map((a) => (a.accounts ?? []).some((x) => sub.addresses.has(x)) && actionShown(a, sub));
        if (!keep.includes(true)) return undefined;
        return {
          key: picked(keep),
          make: () => {
            const shown = all.filter((_, i) => keep[i]).map(withoutAncestors);
            const keys = new Set(shown.flatMap((a) => a.accounts ?? []));
            return this.withExtras(e, sub, { actions: shown }, keys, keys);
          },
        };
      }
      case 'trace': {
        const all = (e.actions as WireAction[] | undefined) ?? [];
        const keep = all.map((a) => actionShown(a, sub));
        return {
          key: picked(keep),
          make: () => {
            const shown = all.filter((_, i) => keep[i]).map(withoutAncestors);
            return this.withExtras(e, sub, { actions: shown.length ? shown : undefined }, undefined, undefined);
          },
        };
      }
      case 'account_state_change':
        return { key: '', make: () => e };
      case 'jettons_change': {
        const j = e.jetton as { address: string; owner: string; jetton: string };
        return { key: extras, make: () => this.withExtras(e, sub, {}, [j.address, j.owner, j.jetton], [j.owner, j.jetton]) };
      }
    }
    return undefined;
  }

  /**
   * The event with some members replaced, and its address book and metadata kept when the client asked for
   * them, to the keys given (all when undefined). Unchanged parts keep the event's identity, so its text is shared.
   */
  private withExtras(
    e: LiveEvent,
    sub: Subscription,
    replace: Record<string, unknown>,
    bookKeys: Iterable<string> | undefined,
    metaKeys: Iterable<string> | undefined,
  ): object {
    const out: Record<string, unknown> = { ...e, ...replace };
    if (replace.actions === undefined && 'actions' in replace) delete out.actions;
    if (sub.includeAddressBook && e.address_book !== undefined) out.address_book = bookKeys ? trimmed(e.address_book, bookKeys) : e.address_book;
    else delete out.address_book;
    if (sub.includeMetadata && e.metadata !== undefined) out.metadata = metaKeys ? trimmed(e.metadata, metaKeys) : e.metadata;
    else delete out.metadata;
    return out;
  }
}

/** Whether the hub's feed is an upstream stream (or its relay) that is up now. */
export function upstreamFeedUp(hub: LiveHub): boolean {
  const { kind, up } = hub.feed.status();
  return up && kind !== 'polling' && kind !== 'localnet';
}
