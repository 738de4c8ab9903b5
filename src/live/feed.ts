/**
 * Where live events come from, whatever the source: the seam between what produces Streaming API v2 events (the
 * local chain's executor and sealer; an upstream's own streaming endpoint; a Redis relay between replicas) and
 * the one live hub that serves them on every surface (Streaming v2 over SSE and WebSocket, GraphQL
 * subscriptions).
 *
 * An event is carried in its wire form: the JSON object toncenter's Streaming API v2 sends as one SSE `data:`
 * line or one WebSocket frame (`../shared/reference/streaming-v2.md`), so a feed that consumes an upstream's
 * stream hands its events on unchanged and a feed that builds them locally builds exactly that shape.
 */

/** Finality on the wire is always a string. */
export type Finality = 'pending' | 'confirmed' | 'finalized';

export const FINALITY_RANK: Readonly<Record<Finality, number>> = { pending: 0, confirmed: 1, finalized: 2 };

/** The event types a client may ask for (`trace_invalidated` is sent without being asked). */
export type LiveEventType = 'transactions' | 'actions' | 'trace' | 'account_state_change' | 'jettons_change';

/** One Streaming API v2 notification in wire form, plus the members the hub needs to route and resume it. */
export interface LiveEvent {
  readonly type: LiveEventType | 'trace_invalidated';
  /** absent only on `trace_invalidated` */
  readonly finality?: Finality;
  readonly trace_external_hash_norm?: string;
  /**
   * Where the feed puts this event in its own order, when it keeps one: an opaque string, increasing in the
   * order events were produced. A resumable feed gives every finalized event a cursor and can replay from one.
   */
  readonly cursor?: string;
  readonly [member: string]: unknown;
}

/** The union of what every connected client watches: an upstream feed narrows its own subscription to it. */
export interface LiveInterest {
  /** raw form, `0:` followed by 64 upper-case hex digits */
  readonly addresses: ReadonlySet<string>;
  readonly traceExternalHashNorms: ReadonlySet<string>;
  readonly types: ReadonlySet<LiveEventType>;
  /** the lowest `min_finality` any client asked for */
  readonly minFinality: Finality;
  /**
   * Whether any client asked for the address book (`include_address_book`) and for metadata
   * (`include_metadata`): a feed that builds its events may leave out what nobody reads. Absent: unknown.
   */
  readonly addressBook?: boolean;
  readonly metadata?: boolean;
}

/** What one client watches, as far as resuming it is concerned: a replay is complete only if every part of it is. */
export interface LiveWant {
  readonly addresses: ReadonlySet<string>;
  readonly traceExternalHashNorms: ReadonlySet<string>;
  readonly types: ReadonlySet<LiveEventType>;
}

/**
 * Events a feed knows it did not receive and could not fetch again (its upstream connection was interrupted): of
 * these types, for these addresses and trace hashes, between two times (ms). A resume from a cursor before the
 * gap is refused from then on.
 */
export interface LiveGap extends LiveWant {
  readonly from: number;
  readonly to: number;
  /** why, in one line */
  readonly reason: string;
}

/** How much a feed can watch at once, when it is limited (an upstream's stream is; the local chain is not). */
export interface LiveCapacity {
  /** distinct addresses over every client */
  readonly addresses: number;
  /** distinct addresses one client (API key, else IP) may add */
  readonly perClient: number;
}

export interface LiveFeedStatus {
  /** e.g. `localnet`, `upstream-sse`, `upstream-ws`, `redis`, `polling` */
  readonly kind: string;
  readonly up: boolean;
  /** one line for `/health` details and the log when it is not up, or when it fell back */
  readonly detail?: string;
}

export interface LiveFeed {
  /** Starts delivering; the hub calls it once. `missed` is told of events the feed knows it lost. */
  start(deliver: (event: LiveEvent) => void, missed?: (gap: LiveGap) => void): void;
  /** What clients watch changed. A local feed may ignore it; an upstream feed resubscribes to the union. */
  setInterest(interest: LiveInterest): void;
  /**
   * Replays, in order and exactly once, every finalized event after `cursor` that this feed still holds, then
   * resolves. Rejects with a LiveCursorTooOld when the cursor is older than the oldest it can replay, or, given
   * what the client watches, older than the oldest from which it holds every event of it. `deliver` may throw to
   * end the replay early: it then rejects with what was thrown. A promise `deliver` returns is the client's
   * backpressure: a feed that awaits it before the next event reads and builds no further ahead than the client
   * reads. Absent on a feed that cannot replay.
   */
  replay?(cursor: string, deliver: (event: LiveEvent) => void | Promise<void>, want?: LiveWant): Promise<void>;
  /** Absent, or undefined: unlimited (or not known yet). */
  capacity?(): LiveCapacity | undefined;
  /**
   * The cursor of the newest finalized event this feed has delivered, or undefined before the first: where a
   * consumer made now (a webhook) resumes from after a restart. Absent on a feed that cannot replay.
   */
  head?(): string | undefined;
  status(): LiveFeedStatus;
  stop(): Promise<void>;
}

/**
 * Two cursors of one feed in the feed's order (negative, zero, positive). Every feed's cursors are runs of
 * digits or letters joined by `-` (the local log's `123`, the ring's `epoch-seq`, a Redis Stream's `ms-seq`):
 * compared part by part, digits as numbers, anything else as text.
 */
export function compareCursors(a: string, b: string): number {
  const x = a.split('-');
  const y = b.split('-');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p === q) continue;
    const numeric = /^\d+$/.test(p) && /^\d+$/.test(q);
    const u = numeric ? p.replace(/^0+(?=\d)/, '') : p;
    const v = numeric ? q.replace(/^0+(?=\d)/, '') : q;
    if (numeric && u.length !== v.length) return u.length - v.length;
    if (u !== v) return u < v ? -1 : 1;
  }
  return 0;
}

/**
 * A resume cursor older than the feed can replay; the message names the oldest cursor it can. `forWant`: the
 * feed holds older events, but not every event of what this client watches (the upstream was not subscribed to
 * all of it, or its stream was interrupted).
 */
export class LiveCursorTooOld extends Error {
  constructor(
    readonly oldest: string | undefined,
    forWant = false,
  ) {
    const scope = forWant ? ' for this subscription' : '';
    super(
      oldest === undefined
        ? `cursor is too old: nothing can be replayed${scope}${forWant ? ' yet' : ''}`
        : `cursor is too old: the oldest that can be replayed${scope} is ${oldest}`,
    );
    this.name = 'LiveCursorTooOld';
  }
}

/** A resume refused for now: the server runs all the replays it may. `retryAfter` in seconds. */
export class LiveBusy extends Error {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(`${message}; retry after ${retryAfter} s`);
    this.name = 'LiveBusy';
  }
}

/** The feed's status as a member of the /health body: `{ status: 'ok', ...liveHealth(feed) }`. */
export function liveHealth(feed: LiveFeed | undefined): { stream?: LiveFeedStatus } {
  if (!feed) return {};
  const { kind, up, detail } = feed.status();
  return { stream: { kind, up, ...(detail ? { detail } : {}) } };
}
