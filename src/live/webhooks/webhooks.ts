/**
 * Webhooks: a transport over the one live hub, as SSE and WebSocket are. Each webhook is a hub client with its
 * Streaming v2 subscription; what the hub sends it waits in the webhook's queue and is POSTed, one event at a
 * time and in order, signed (signature.ts), until the receiver answers 2xx (delivery.ts). At least once:
 *
 * - `last_delivered` (the cursor of the last finalized event acknowledged) is written as it moves, and is the
 *   only thing a restart, a failover to another replica or a rewind needs: delivery goes on from there, read
 *   from the event log the live feed keeps (LiveFeed.replay: the local chain's log, upstream mode's ring or the
 *   replicas' Redis Stream).
 * - A queue is bounded (events per webhook, bytes over all of them): a webhook whose queue is full stops taking
 *   live events and falls behind; it is then fed from the log, by passes that read the log once for every
 *   webhook behind at the time, each taking what fits its queue. Once a pass reaches the log's end the webhook is
 *   live again; the live events that came meanwhile were held and follow, less those the pass sent. Below
 *   finalized (pending, confirmed), events have no cursor and are not in the log: a webhook behind misses them
 *   and gets the finalized ones.
 * - A failed attempt (timeout, network error, 408, 429, 5xx) is retried after an exponential backoff with jitter,
 *   or the answer's Retry-After; a delivery to the same origin ends the other backoffs there (a receiver back up
 *   drains at once, not when each webhook's own backoff runs out); any other answer, or `maxAttempts` failures at one event, pauses the webhook
 *   with the event's cursor and the reason, until its owner changes it (PATCH).
 * - POSTs run on a bounded pool (at most `concurrency` in flight, `perOrigin` per receiving origin, a quarter of
 *   them for retries), so a slow or dead receiver holds at most its own share, and nobody waits for a webhook.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { compareCursors, LiveCursorTooOld, type LiveEvent, type LiveFeed } from '../feed.js';
import { LiveHub, type HubClient, type Payload } from '../hub.js';
import type { Subscription } from '../subscription.js';
import { deliveryAgent, postEvent, type Attempt } from './delivery.js';
import { ATTEMPT_HEADER, CURSOR_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader, WEBHOOK_ID_HEADER } from './signature.js';
import {
  KEYLESS,
  readChange,
  readCreate,
  subscriptionOf,
  webhookJson,
  WebhookInputError,
  type DeliveryEntry,
  type WebhookLimits,
  type WebhookProgress,
  type WebhookRecord,
} from './spec.js';
import type { Fence, WebhookStore } from './store.js';
import { observeWebhookLag, trackWebhooks, webhookLogReads, type WebhookSeries } from '../../observe/metrics.js';

export interface WebhookLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Which webhooks this process delivers, when replicas share them (lease.ts); absent: all of them. */
export interface Delivering {
  /** whether this replica delivers the webhook now */
  holds(id: string): boolean;
  /** the lease a write of its delivery state must still be under */
  fence(id: string): Fence | undefined;
  /** called with the webhooks' ids whose delivery this replica took or lost */
  onChange(listener: (gained: (id: string) => boolean, lost: (id: string) => boolean) => void): void;
  close(): Promise<void>;
}

/** Other replicas' changes to shared webhooks (store-redis.ts). */
export interface ChangeFeed {
  /** tells the others a webhook changed */
  publish(id: string): Promise<void>;
  /** called with each id another replica changed, and for all of them after a lost connection */
  onChange(listener: (id: string | undefined) => void): void;
  close(): Promise<void>;
}

export interface WebhooksOptions {
  hub: LiveHub;
  store: WebhookStore;
  limits: WebhookLimits;
  /** targets in loopback and private ranges allowed */
  allowPrivate: boolean;
  /** clients without an API key may manage webhooks (one owner for all of them) */
  keyless: boolean;
  log: WebhookLog;
  delivering?: Delivering;
  changes?: ChangeFeed;
  /** the connection pool POSTs go through (default: one of deliveryAgent's) */
  dispatcher?: Dispatcher;
}

/** The webhook is not the caller's, or does not exist: both answer the same. */
export class WebhookNotFound extends Error {
  constructor() {
    super('webhook not found');
  }
}

/** The caller may not manage webhooks (no key, and keyless clients may not). */
export class WebhookForbidden extends Error {}

/** The store cannot be read or written now (Redis down): the operation changed nothing. */
export class WebhookUnavailable extends Error {
  constructor(cause: unknown) {
    super(`webhooks cannot be read or changed now: their store failed (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}

/** A store call whose failure is the store's, told as such. */
const stored = <T>(call: Promise<T>): Promise<T> =>
  call.catch((e: unknown) => {
    throw new WebhookUnavailable(e);
  });

/** ms between attempts to load the webhooks while the store cannot be read. */
const LOAD_RETRY_MS = 2_000;

interface Item {
  payload: Payload;
  /** performance.now() when it was taken */
  at: number;
  bytes: number;
}

/** An event being sent to a webhook's pass: its place in the log. */
interface PassPosition {
  prev: string;
  cur: string;
}

/** Ends a pass once no webhook in it can take more. */
const PASS_FULL = Symbol('every webhook of the pass is full');

/** ms between writes of delivery state and delivery logs. */
const FLUSH_MS = 50;
/** The longest a Retry-After is honoured. */
const MAX_RETRY_AFTER_MS = 3_600_000;
/** A failed pass (the feed or Redis down) is tried again after this long, doubled up to PASS_RETRY_MAX_MS. */
const PASS_RETRY_MS = 500;
const PASS_RETRY_MAX_MS = 30_000;

/** What a pass's hub is fed by: nothing, it is published to by hand. */
const PASS_FEED: LiveFeed = {
  start() {},
  setInterest() {},
  status: () => ({ kind: 'webhook-pass', up: true }),
  stop: async () => {},
};

/** The event's id, the same in every attempt and replay: its cursor, else a digest of its text. */
function eventIdOf(p: Payload): string {
  return p.cursor ?? `h_${createHash('sha256').update(p.json).digest('base64url').slice(0, 32)}`;
}

/** `type` and `finality` of an event's text, read from its start (both are among its first members). */
function kindOf(p: Payload): Pick<DeliveryEntry, 'type' | 'finality'> {
  const head = p.json.slice(0, 200);
  const type = /"type":"([a-z_]+)"/.exec(head)?.[1] ?? 'unknown';
  const finality = /"finality":"(pending|confirmed|finalized)"/.exec(head)?.[1] as DeliveryEntry['finality'] | undefined;
  return { type, finality: finality ?? null };
}

/** The delay before retry `attempt` (1-based): exponential, full jitter between half and all of it. */
export function backoffMs(limits: Pick<WebhookLimits, 'backoffMs' | 'maxBackoffMs'>, attempt: number): number {
  return Math.min(limits.maxBackoffMs, limits.backoffMs * 2 ** Math.min(attempt - 1, 30)) * (0.5 + Math.random() / 2);
}

/** One webhook at work: a hub client whose events wait in its queue. */
class Hook implements HubClient {
  sub: Subscription;
  origin: string;
  queue: Item[] = [];
  /** `off`: paused, or another replica delivers it; `live`: takes the hub's events; `behind`: reads the log */
  state: 'off' | 'live' | 'behind' = 'off';
  /** behind: the cursor of the last event in its queue or delivered, where the next pass starts for it */
  filled: string | null = null;
  /** during a pass: the live events that came meanwhile */
  held?: Item[];
  /** during a pass: a live event was lost to a full `held`, so the pass's end does not make it live */
  heldLost = false;
  inReady = false;
  inFlight = false;
  timer?: NodeJS.Timeout;
  /** failed attempts at queue[0] */
  attempts = 0;
  /** waiting out a backoff that a delivery to its origin may cut short: the origin did not answer, nor ask for a wait */
  wakeable = false;
  /** this attempt was started early by such a delivery: if it fails too, its next backoff is waited out whole */
  woken = false;
  /** bumped whenever what it is doing is thrown away (a change, a pause, a lost lease): late results are ignored */
  gen = 0;
  delivered = 0;
  failed = 0;
  lagSeconds?: number;

  constructor(
    public rec: WebhookRecord,
    private readonly owner: Webhooks,
  ) {
    this.sub = subscriptionOf(rec.filter);
    this.origin = new URL(rec.url).origin;
  }

  send(payload: Payload): void {
    this.owner.offer(this, payload);
  }

  /** Never dropped by the hub: its queue has bounds of its own and a full one falls back to the log. */
  queuedBytes(): number {
    return 0;
  }

  drop(): void {}

  /** The feed lost events it watches (a gap of the upstream stream): kept on it, in words, where its owner reads it. */
  missed(message: string): void {
    this.owner.lost(this, message);
  }
}

export class Webhooks {
  private readonly hooks = new Map<string, Hook>();
  private readonly ready: Hook[] = [];
  private readonly inFlightByOrigin = new Map<string, number>();
  /** webhooks waiting out a backoff, by origin: one delivery there says the origin is back for all of them */
  private readonly backingOff = new Map<string, Set<Hook>>();
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher?: Dispatcher & { close(): Promise<void> };
  private inFlight = 0;
  private retrying = 0;
  private queuedBytes = 0;
  private pumpScheduled = false;
  private passing = false;
  private passAgain = false;
  private passTimer?: NodeJS.Timeout;
  private passFailures = 0;
  private dirty = new Set<Hook>();
  private logged: { id: string; entry: DeliveryEntry }[] = [];
  private flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly untrack: () => void;

  private constructor(private readonly opts: WebhooksOptions) {
    if (opts.dispatcher) this.dispatcher = opts.dispatcher;
    else {
      const agent = deliveryAgent({ allowPrivate: opts.allowPrivate, perOrigin: opts.limits.perOrigin, timeoutMs: opts.limits.timeoutMs });
      this.dispatcher = this.ownDispatcher = agent;
    }
    this.untrack = trackWebhooks(
      () => this.series(),
      () => ({ queuedBytes: this.queuedBytes, inFlight: this.inFlight }),
    );
  }

  /** Loads the stored webhooks, attaches each to the hub and resumes delivery from each one's cursor. */
  static async start(opts: WebhooksOptions): Promise<Webhooks> {
    const w = new Webhooks(opts);
    await w.load();
    opts.delivering?.onChange((gained, lost) => w.leasesChanged(gained, lost));
    opts.changes?.onChange((id) => void w.changedElsewhere(id));
    opts.log.info({ store: opts.store.description, webhooks: w.hooks.size }, `webhooks: kept in ${opts.store.description}${opts.store.description === 'memory' ? ' (lost on restart: start with --data-dir or REDIS_URL to keep them)' : ''}`);
    return w;
  }

  /** Every stored webhook attached and resumed; a store that cannot be read yet (Redis down) is asked again. */
  private async load(): Promise<void> {
    try {
      for (const rec of await this.opts.store.all()) this.reconcile(rec);
    } catch (e) {
      this.opts.log.warn({ err: { message: (e as Error).message } }, 'webhooks: their store cannot be read; trying again');
      setTimeout(() => void this.load(), LOAD_RETRY_MS).unref();
    }
  }

  get size(): number {
    return this.hooks.size;
  }

  /** Whether this process delivers the webhook now (with replicas, the one holding its lease does). */
  deliversHere(id: string): boolean {
    const h = this.hooks.get(id);
    return h !== undefined && h.state !== 'off';
  }

  /** Who a request acts as: its API key's digest, the keyless owner, or refused. */
  ownerOf(key: string | undefined): string {
    if (key !== undefined) return `key:${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}`;
    if (this.opts.keyless) return KEYLESS;
    throw new WebhookForbidden('webhooks are managed with an API key (X-API-Key); keyless clients may not unless the server runs with --webhooks-keyless');
  }

  // ---- the owner's operations ----

  async create(owner: string, body: unknown): Promise<Record<string, unknown>> {
    const limits = this.opts.limits;
    const rec = readCreate(body, { owner, allowPrivate: this.opts.allowPrivate, maxAddresses: limits.maxAddresses, cursor: null, now: Date.now() });
    const count = [...this.hooks.values()].filter((h) => h.rec.owner === owner).length;
    if (count >= limits.maxPerKey) throw new WebhookInputError(`too many webhooks: at most ${limits.maxPerKey} per API key`);
    // attached and given the feed's head in one step: every later event reaches it live, every earlier one is before it
    const h = this.add(rec);
    rec.cursor = this.head();
    if (this.delivers(h)) h.state = 'live';
    try {
      await stored(this.opts.store.put(rec));
    } catch (e) {
      this.drop(h);
      throw e;
    }
    await this.told(rec.id);
    return webhookJson(rec, { secret: true });
  }

  async list(owner: string): Promise<Record<string, unknown>[]> {
    const mine = [...this.hooks.values()].filter((h) => h.rec.owner === owner);
    const records = await Promise.all(mine.map((h) => this.fresh(h)));
    return records.map((r, i) => webhookJson(r, { addresses: false, queued: mine[i]!.queue.length }));
  }

  async get(owner: string, id: string): Promise<Record<string, unknown>> {
    const h = this.mine(owner, id);
    return webhookJson(await this.fresh(h), { queued: h.queue.length });
  }

  async change(owner: string, id: string, body: unknown): Promise<Record<string, unknown>> {
    const h = this.mine(owner, id);
    const next = readChange(await this.fresh(h), body, {
      allowPrivate: this.opts.allowPrivate,
      maxAddresses: this.opts.limits.maxAddresses,
      now: Date.now(),
      head: () => this.head(),
    });
    await stored(this.opts.store.put(next));
    this.apply(h, next);
    await this.told(id);
    return webhookJson(next, { queued: h.queue.length });
  }

  async remove(owner: string, id: string): Promise<void> {
    const h = this.mine(owner, id);
    await stored(this.opts.store.remove(id));
    this.drop(h);
    await this.told(id);
  }

  async deliveries(owner: string, id: string, limit: number): Promise<DeliveryEntry[]> {
    this.mine(owner, id);
    await this.flushing;
    const pending = this.logged.filter((l) => l.id === id).map((l) => l.entry).reverse();
    const kept = await stored(this.opts.store.deliveries(id, limit));
    return [...pending, ...kept].slice(0, limit);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.untrack();
    clearTimeout(this.passTimer);
    for (const h of this.hooks.values()) {
      this.stop(h);
      this.opts.hub.detach(h);
    }
    clearTimeout(this.flushTimer);
    await this.flush();
    await this.ownDispatcher?.close().catch(() => {});
    await this.opts.delivering?.close();
    await this.opts.changes?.close();
    await this.opts.store.close();
  }

  // ---- bookkeeping ----

  private mine(owner: string, id: string): Hook {
    const h = this.hooks.get(id);
    if (!h || h.rec.owner !== owner) throw new WebhookNotFound();
    return h;
  }

  /** The record as it stands: this process's own unless other replicas write it too. */
  private async fresh(h: Hook): Promise<WebhookRecord> {
    if (!this.opts.store.shared || this.delivers(h)) return h.rec;
    return (await stored(this.opts.store.get(h.rec.id))) ?? h.rec;
  }

  /** Tells the other replicas of a change already stored; one that misses it reads it at its next full re-read. */
  private async told(id: string): Promise<void> {
    await this.opts.changes?.publish(id).catch((e: Error) => this.opts.log.warn({ webhook: id, err: { message: e.message } }, 'webhooks: telling the other replicas of a change failed'));
  }

  /** The cursor a consumer made now resumes from. */
  private head(): string | null {
    return this.opts.hub.feed.head?.() ?? null;
  }

  private delivers(h: Hook): boolean {
    return this.opts.delivering?.holds(h.rec.id) ?? true;
  }

  private add(rec: WebhookRecord): Hook {
    const h = new Hook(rec, this);
    this.hooks.set(rec.id, h);
    // attached whether or not this replica delivers it: every webhook's addresses stay in the upstream interest
    void this.opts.hub.attach(h);
    return h;
  }

  /** Starts delivering from its cursor, when it is not paused and this replica delivers it. */
  private activate(h: Hook): void {
    if (h.rec.paused || !this.delivers(h) || this.closed) return;
    h.attempts = h.rec.failedAttempts;
    if (h.rec.cursor === null) {
      h.state = 'live';
      return;
    }
    h.state = 'behind';
    h.filled = h.rec.cursor;
    this.schedulePass(0);
  }

  /** Throws away what it was doing: its queue, its retry, its place in a pass. */
  private stop(h: Hook): void {
    h.gen++;
    h.state = 'off';
    for (const item of h.queue) this.queuedBytes -= item.bytes;
    h.queue = [];
    this.releaseHeld(h);
    this.unwait(h);
    h.attempts = 0;
    h.filled = null;
  }

  /** Ends its backoff, if it is in one. */
  private unwait(h: Hook): void {
    clearTimeout(h.timer);
    h.timer = undefined;
    const waiting = this.backingOff.get(h.origin);
    waiting?.delete(h);
    if (waiting?.size === 0) this.backingOff.delete(h.origin);
  }

  /** A delivery to an origin succeeded: the webhooks there waiting out a backoff for a timeout or error go now. */
  private originBack(origin: string): void {
    for (const h of this.backingOff.get(origin) ?? []) {
      if (!h.wakeable) continue;
      this.unwait(h);
      h.woken = true;
      this.makeReady(h);
    }
  }

  /** A record in force (its owner changed it, or another replica's state is taken over): delivery starts again from its cursor. */
  private apply(h: Hook, next: WebhookRecord): void {
    this.stop(h);
    h.rec = next;
    h.sub = subscriptionOf(next.filter);
    h.origin = new URL(next.url).origin;
    this.opts.hub.update(h);
    this.activate(h);
  }

  private drop(h: Hook): void {
    this.stop(h);
    this.opts.hub.detach(h);
    this.hooks.delete(h.rec.id);
    this.dirty.delete(h);
  }

  /** Another replica changed a webhook (or, with no id, any may have changed): read it again. */
  private async changedElsewhere(id: string | undefined): Promise<void> {
    if (this.closed) return;
    if (id === undefined) {
      const all = await this.opts.store.all().catch(() => undefined);
      if (!all) return;
      const seen = new Set(all.map((r) => r.id));
      for (const h of [...this.hooks.values()]) if (!seen.has(h.rec.id)) this.drop(h);
      for (const r of all) this.reconcile(r);
      return;
    }
    const rec = await this.opts.store.get(id).catch(() => null);
    if (rec === null || this.closed) return;
    if (rec === undefined) {
      const h = this.hooks.get(id);
      if (h) this.drop(h);
      return;
    }
    this.reconcile(rec);
  }

  private reconcile(rec: WebhookRecord): void {
    const h = this.hooks.get(rec.id);
    if (!h) this.activate(this.add(rec));
    else if (h.rec.rev !== rec.rev) this.apply(h, rec);
  }

  private leasesChanged(gained: (id: string) => boolean, lost: (id: string) => boolean): void {
    for (const h of this.hooks.values()) {
      if (lost(h.rec.id)) {
        this.stop(h);
        this.dirty.delete(h);
      } else if (gained(h.rec.id)) {
        // the previous holder's last writes are the state to go on from
        const id = h.rec.id;
        void this.opts.store.get(id).then(
          (rec) => {
            const now = this.hooks.get(id);
            if (rec && now === h && this.delivers(h)) this.apply(h, rec);
          },
          (e: Error) => this.opts.log.warn({ webhook: id, err: { message: e.message } }, 'webhooks: reading a webhook taken over failed'),
        );
      }
    }
  }

  // ---- taking events ----

  private room(bytes: number, queued: number): boolean {
    return queued < this.opts.limits.queueEvents && this.queuedBytes + bytes <= this.opts.limits.queueBytes;
  }

  private enqueue(h: Hook, item: Item): void {
    h.queue.push(item);
    this.queuedBytes += item.bytes;
    this.makeReady(h);
  }

  /** An event the hub sends a webhook. */
  offer(h: Hook, payload: Payload): void {
    if (h.state === 'off') return;
    const item: Item = { payload, at: performance.now(), bytes: payload.json.length };
    if (h.state === 'live') {
      if (this.room(item.bytes, h.queue.length)) return this.enqueue(h, item);
      return this.fallBehind(h);
    }
    // behind: a finalized event is read from the log later; one below finalized is not in it, and is lost to it
    if (payload.cursor === undefined || !h.held) return;
    if (this.room(item.bytes, h.held.length)) {
      h.held.push(item);
      this.queuedBytes += item.bytes;
    } else {
      this.releaseHeld(h);
      h.heldLost = true;
    }
  }

  /** Its queue is full: what follows its last finalized event is read from the log once it has room. */
  private fallBehind(h: Hook): void {
    let last = h.rec.cursor;
    for (const i of h.queue) if (i.payload.cursor !== undefined) last = i.payload.cursor;
    if (last === null || !this.opts.hub.feed.replay) {
      h.rec.lastError = 'an event was dropped: the queue was full and the live feed cannot replay';
      this.markDirty(h);
      return;
    }
    h.state = 'behind';
    h.filled = last;
    this.opts.log.warn({ webhook: h.rec.id, queued: h.queue.length, after: last }, 'webhooks: a webhook fell behind; it is fed from the event log');
  }

  private releaseHeld(h: Hook): void {
    for (const item of h.held ?? []) this.queuedBytes -= item.bytes;
    h.held = undefined;
  }

  // ---- passes over the log ----

  private schedulePass(delayMs: number): void {
    if (this.closed) return;
    if (this.passing) {
      this.passAgain = true;
      return;
    }
    if (this.passTimer) return;
    this.passTimer = setTimeout(() => {
      this.passTimer = undefined;
      void this.pass();
    }, delayMs);
    this.passTimer.unref();
  }

  /**
   * One read of the log for every webhook behind with room: from the oldest place any of them is at, each
   * taking the events after its own that the hub's routing gives it, until its queue is full (it stays behind)
   * or the log ends (it is live again).
   */
  private async pass(): Promise<void> {
    const feed = this.opts.hub.feed;
    const lowWater = Math.max(1, this.opts.limits.queueEvents >> 1);
    const joining = [...this.hooks.values()].filter((h) => h.state === 'behind' && h.filled !== null && h.queue.length < lowWater && !h.held);
    if (joining.length === 0 || !feed.replay) return;
    this.passing = true;
    this.passAgain = false;
    webhookLogReads.inc();
    const start = joining.map((h) => h.filled!).reduce((a, b) => (compareCursors(a, b) <= 0 ? a : b));
    // each event sent out within its publish: the pass's position is read as it is delivered
    const hub = new LiveHub(PASS_FEED, { maxQueuedBytes: Number.POSITIVE_INFINITY, fanOutSliceMs: Number.POSITIVE_INFINITY });
    const at: PassPosition = { prev: start, cur: start };
    const clients = new Map<Hook, HubClient>();
    const gens = new Map<Hook, number>();
    const leave = (h: Hook): void => {
      const c = clients.get(h);
      if (!c) return;
      hub.detach(c);
      clients.delete(h);
    };
    for (const h of joining) {
      h.held = [];
      h.heldLost = false;
      gens.set(h, h.gen);
      const client: HubClient = { sub: h.sub, send: (p) => this.take(h, p, at, gens.get(h)!, leave), queuedBytes: () => 0, drop() {} };
      clients.set(h, client);
      void hub.attach(client);
    }
    try {
      await feed.replay(start, (e: LiveEvent) => {
        if (clients.size === 0) throw PASS_FULL;
        if (e.cursor === undefined) return;
        at.prev = at.cur;
        at.cur = e.cursor;
        hub.publish(e);
      });
      this.passFailures = 0;
      for (const h of [...clients.keys()]) this.finish(h, at.cur, gens.get(h)!);
    } catch (e) {
      if (e === PASS_FULL) this.passFailures = 0;
      else if (e instanceof LiveCursorTooOld) {
        // whoever was at the pass's start cannot be fed: paused with why, the others go on in the next pass
        for (const h of joining) {
          if (h.gen === gens.get(h) && h.filled === start) this.pause(h, `cannot resume after cursor ${start}: ${e.message}`, h.rec.cursor, 0);
        }
        this.passAgain = true;
      } else {
        this.passFailures++;
        this.opts.log.warn({ err: { message: (e as Error).message } }, 'webhooks: reading the event log failed; trying again');
      }
    } finally {
      for (const h of clients.keys()) {
        if (h.gen === gens.get(h)) this.releaseHeld(h);
      }
      this.passing = false;
    }
    const retryIn = this.passFailures ? Math.min(PASS_RETRY_MAX_MS, PASS_RETRY_MS * 2 ** (this.passFailures - 1)) : 0;
    if (this.passAgain || this.passFailures) this.schedulePass(retryIn);
  }

  /** A webhook's part of an event the pass read. */
  private take(h: Hook, p: Payload, at: PassPosition, gen: number, leave: (h: Hook) => void): void {
    if (h.gen !== gen || h.state !== 'behind') return leave(h);
    if (compareCursors(p.cursor!, h.filled!) <= 0) return;
    const item: Item = { payload: p, at: performance.now(), bytes: p.json.length };
    if (!this.room(item.bytes, h.queue.length)) {
      // it has every event before this one: the next pass starts here for it
      if (compareCursors(at.prev, h.filled!) > 0) h.filled = at.prev;
      this.releaseHeld(h);
      leave(h);
      return;
    }
    h.filled = p.cursor!;
    this.enqueue(h, item);
  }

  /** The pass reached the log's end: the live events held meanwhile follow, and the webhook is live again. */
  private finish(h: Hook, end: string, gen: number): void {
    if (h.gen !== gen || h.state !== 'behind') return;
    if (compareCursors(end, h.filled!) > 0) h.filled = end;
    const held = h.held ?? [];
    h.held = undefined;
    let full = h.heldLost;
    for (const item of held) {
      if (full || compareCursors(item.payload.cursor!, h.filled!) <= 0) {
        this.queuedBytes -= item.bytes;
        continue;
      }
      if (h.queue.length >= this.opts.limits.queueEvents) {
        full = true;
        this.queuedBytes -= item.bytes;
        continue;
      }
      h.queue.push(item);
      h.filled = item.payload.cursor!;
    }
    if (!full) h.state = 'live';
    else this.passAgain = true;
    this.makeReady(h);
  }

  // ---- delivering ----

  private makeReady(h: Hook): void {
    if (h.inReady || h.inFlight || h.timer || h.queue.length === 0 || h.state === 'off') return;
    h.inReady = true;
    this.ready.push(h);
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.closed) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Starts POSTs while the pool has room, the oldest-waiting webhook first; one whose origin or lane is full waits its turn. */
  private pump(): void {
    const { concurrency, perOrigin } = this.opts.limits;
    const retryLane = Math.max(1, concurrency >> 2);
    for (let n = this.ready.length; n > 0 && this.inFlight < concurrency; n--) {
      const h = this.ready.shift()!;
      h.inReady = false;
      if (h.inFlight || h.timer || h.queue.length === 0 || h.state === 'off') continue;
      if ((this.inFlightByOrigin.get(h.origin) ?? 0) >= perOrigin || (h.attempts > 0 && this.retrying >= retryLane)) {
        h.inReady = true;
        this.ready.push(h);
        continue;
      }
      void this.attempt(h);
    }
  }

  private async attempt(h: Hook): Promise<void> {
    const item = h.queue[0]!;
    const gen = h.gen;
    const origin = h.origin;
    const retry = h.attempts > 0;
    const attempt = h.attempts + 1;
    const rec = h.rec;
    h.inFlight = true;
    this.inFlight++;
    if (retry) this.retrying++;
    this.inFlightByOrigin.set(origin, (this.inFlightByOrigin.get(origin) ?? 0) + 1);
    const cursor = item.payload.cursor;
    const headers: Record<string, string> = {
      [WEBHOOK_ID_HEADER]: rec.id,
      [EVENT_ID_HEADER]: eventIdOf(item.payload),
      [ATTEMPT_HEADER]: String(attempt),
      [SIGNATURE_HEADER]: signatureHeader(rec.secret, Math.floor(Date.now() / 1000), item.payload.json),
      ...(cursor !== undefined ? { [CURSOR_HEADER]: cursor } : {}),
    };
    let result: Attempt;
    try {
      result = await postEvent(this.dispatcher, rec.url, item.payload.json, headers, { timeoutMs: this.opts.limits.timeoutMs, allowPrivate: this.opts.allowPrivate });
    } finally {
      h.inFlight = false;
      this.inFlight--;
      if (retry) this.retrying--;
      const left = (this.inFlightByOrigin.get(origin) ?? 1) - 1;
      if (left <= 0) this.inFlightByOrigin.delete(origin);
      else this.inFlightByOrigin.set(origin, left);
      this.schedulePump();
    }
    // changed, paused, deleted or taken over meanwhile: this attempt no longer counts
    if (h.gen !== gen || this.hooks.get(rec.id) !== h || this.closed) {
      // what its new generation queued while this attempt was out could not be made ready then: it is now
      if (this.hooks.get(rec.id) === h && !this.closed) this.makeReady(h);
      return;
    }
    const outcome = result.verdict === 'delivered' ? 'delivered' : result.verdict === 'retry' && attempt < this.opts.limits.maxAttempts ? 'retry' : 'paused';
    this.record(h, item, attempt, result, outcome);
    if (outcome === 'delivered') {
      h.queue.shift();
      this.queuedBytes -= item.bytes;
      h.attempts = 0;
      h.woken = false;
      h.delivered++;
      h.lagSeconds = (performance.now() - item.at) / 1000;
      observeWebhookLag(h.lagSeconds);
      if (cursor !== undefined) h.rec.cursor = cursor;
      h.rec.failedAttempts = 0;
      if (cursor !== undefined || attempt > 1) this.markDirty(h);
      if (h.state === 'behind' && h.queue.length <= this.opts.limits.queueEvents >> 1) this.schedulePass(0);
      this.makeReady(h);
      this.originBack(origin);
      return;
    }
    h.failed++;
    if (outcome === 'paused') return this.pause(h, result.error ?? 'refused', cursor ?? null, attempt);
    h.attempts = attempt;
    h.rec.failedAttempts = attempt;
    h.rec.lastError = result.error ?? null;
    this.markDirty(h);
    const wait = result.retryAfterMs !== undefined ? Math.min(MAX_RETRY_AFTER_MS, result.retryAfterMs) : backoffMs(this.opts.limits, attempt);
    h.wakeable = result.status === null && result.retryAfterMs === undefined && !h.woken;
    h.woken = false;
    h.timer = setTimeout(() => {
      this.unwait(h);
      this.makeReady(h);
    }, wait);
    h.timer.unref();
    let waiting = this.backingOff.get(h.origin);
    if (!waiting) this.backingOff.set(h.origin, (waiting = new Set()));
    waiting.add(h);
  }

  /** Events it watches never reached the gateway: said on the webhook (`last_error`) and in the log; delivery goes on. */
  lost(h: Hook, message: string): void {
    h.rec.lastError = message;
    this.markDirty(h);
    this.opts.log.warn({ webhook: h.rec.id, error: message }, 'webhooks: the live feed lost events a webhook watches');
  }

  /** Stops it until its owner changes it; the reason stays on it. */
  private pause(h: Hook, error: string, failedCursor: string | null, attempts: number): void {
    this.stop(h);
    h.rec.paused = true;
    h.rec.failedCursor = failedCursor;
    h.rec.failedAttempts = attempts;
    h.rec.lastError = error;
    this.markDirty(h);
    this.opts.log.warn({ webhook: h.rec.id, attempts, error }, 'webhooks: a webhook is paused');
  }

  private record(h: Hook, item: Item, attempt: number, r: Attempt, outcome: DeliveryEntry['outcome']): void {
    this.logged.push({
      id: h.rec.id,
      entry: {
        at: Date.now(),
        event_id: eventIdOf(item.payload),
        cursor: item.payload.cursor ?? null,
        ...kindOf(item.payload),
        attempt,
        status: r.status,
        outcome,
        latency_ms: r.latencyMs,
        ...(r.error ? { error: r.error } : {}),
        ...(r.response ? { response: r.response } : {}),
      },
    });
    this.scheduleFlush();
  }

  // ---- writing state ----

  private markDirty(h: Hook): void {
    this.dirty.add(h);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, FLUSH_MS);
  }

  private async flush(): Promise<void> {
    const dirty = [...this.dirty];
    this.dirty.clear();
    // a webhook deleted meanwhile keeps no log
    const logged = this.logged.filter((l) => this.hooks.has(l.id));
    this.logged = [];
    const updates = dirty.map((h) => {
      const { paused, cursor, failedCursor, failedAttempts, lastError } = h.rec;
      const progress: WebhookProgress = { paused, cursor, failedCursor, failedAttempts, lastError, updatedAt: Date.now() };
      const fence = this.opts.delivering?.fence(h.rec.id);
      return { id: h.rec.id, rev: h.rec.rev, progress, ...(fence ? { fence } : {}) };
    });
    try {
      if (updates.length) await this.opts.store.progress(updates);
      if (logged.length) await this.opts.store.logDeliveries(logged, this.opts.limits.deliveryLog);
    } catch (e) {
      // kept for the next write: state is only ever written forward, so writing it late loses nothing
      for (const h of dirty) if (this.hooks.get(h.rec.id) === h) this.dirty.add(h);
      this.logged = [...logged, ...this.logged].slice(-10_000);
      this.opts.log.warn({ err: { message: (e as Error).message } }, 'webhooks: writing delivery state failed; retrying');
      this.scheduleFlush();
    }
  }

  private *series(): Iterable<WebhookSeries> {
    for (const h of this.hooks.values()) {
      if (h.delivered === 0 && h.failed === 0 && h.queue.length === 0 && !h.rec.paused) continue;
      yield {
        id: h.rec.id,
        delivered: h.delivered,
        failed: h.failed,
        queued: h.queue.length,
        failedAttempts: h.attempts,
        paused: h.rec.paused,
        behind: h.state === 'behind',
        ...(h.lagSeconds !== undefined ? { lagSeconds: h.lagSeconds } : {}),
      };
    }
  }
}
