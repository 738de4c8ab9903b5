/**
 * A webhook as its owner writes it and reads it back: a Streaming API v2 subscription (the SSE body's fields,
 * read and checked as live/subscription.ts reads them, in the reference's order and words) plus the receiver's
 * `url` and the `secret` its deliveries are signed with; what delivery has reached (`last_delivered`, the cursor
 * of the last event the receiver acknowledged) and why it stopped, if it did.
 */
import { randomBytes } from 'node:crypto';
import { expandActionTypes } from '../../model/v3/index.js';
import type { Finality, LiveEventType } from '../feed.js';
import { applyRequest, emptySubscription, readFields, SSE_WORDING, SubscriptionError, validate, type Subscription } from '../subscription.js';
import { checkTargetUrl } from './target.js';

/** What a webhook's owner may set of its limits and behaviour (the Config's `webhooks`). */
export interface WebhookLimits {
  /** webhooks one API key (or all keyless clients together) may hold */
  maxPerKey: number;
  /** addresses one webhook may watch */
  maxAddresses: number;
  /** events waiting for one webhook in memory; past it the webhook reads the rest from the event log */
  queueEvents: number;
  /** bytes of events waiting in memory for every webhook together; past it the same */
  queueBytes: number;
  /** failed attempts at one event before the webhook is paused */
  maxAttempts: number;
  /** ms one POST may take, its answer included */
  timeoutMs: number;
  /** POSTs in flight at once over every webhook */
  concurrency: number;
  /** POSTs in flight at once to one origin (scheme, host and port) */
  perOrigin: number;
  /** first retry delay in ms, doubled per failed attempt up to maxBackoffMs, with jitter */
  backoffMs: number;
  maxBackoffMs: number;
  /** deliveries kept per webhook for `GET .../deliveries` */
  deliveryLog: number;
}

export const WEBHOOK_DEFAULTS: WebhookLimits = {
  maxPerKey: 100,
  maxAddresses: 100_000,
  queueEvents: 1_000,
  queueBytes: 64 * 1024 * 1024,
  maxAttempts: 100,
  timeoutMs: 10_000,
  concurrency: 64,
  perOrigin: 8,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
  deliveryLog: 100,
};

/** Bytes of a receiver's answer read (the rest is discarded); the log keeps the first RESPONSE_SNIPPET of them. */
export const MAX_RESPONSE_BYTES = 4096;
export const RESPONSE_SNIPPET = 256;
/** Shortest and longest secret accepted. */
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;
/** Bytes of a create or change request: room for the most addresses in any spelling. */
export const bodyLimit = (limits: Pick<WebhookLimits, 'maxAddresses'>): number => 64 * 1024 + limits.maxAddresses * 80;

/** The subscription as stored and answered: Streaming v2's field names, addresses in raw upper-case form. */
export interface WebhookFilter {
  types: LiveEventType[];
  addresses: string[];
  trace_external_hash_norms: string[];
  min_finality: Finality;
  include_address_book: boolean;
  include_metadata: boolean;
  action_types: string[];
  /** as given; empty: `latest` */
  supported_action_types: string[];
  /** standard base64; only transactions whose in-message body has this hash (toncenter-newer.md §9) */
  msg_body_hash?: string;
}

/** One webhook as the store keeps it. */
export interface WebhookRecord {
  id: string;
  /** the API key's digest (ownerOf), `keyless` for keyless clients */
  owner: string;
  url: string;
  secret: string;
  filter: WebhookFilter;
  paused: boolean;
  /** the cursor of the last finalized event the receiver acknowledged (at creation: the feed's newest) */
  cursor: string | null;
  /** the cursor of the event whose attempts paused it (null below finalized or while not paused) */
  failedCursor: string | null;
  /** failed attempts at the event now being delivered (or the one that paused it) */
  failedAttempts: number;
  lastError: string | null;
  /** unix ms */
  createdAt: number;
  updatedAt: number;
  /** bumped by every change its owner makes: delivery state written for an older one is dropped */
  rev: number;
}

/** Delivery state, written as delivery goes. */
export type WebhookProgress = Pick<WebhookRecord, 'paused' | 'cursor' | 'failedCursor' | 'failedAttempts' | 'lastError' | 'updatedAt'>;

/** One attempt at a delivery, as `GET .../deliveries` lists it. */
export interface DeliveryEntry {
  /** unix ms when the attempt ended */
  at: number;
  event_id: string;
  cursor: string | null;
  type: string;
  finality: Finality | null;
  attempt: number;
  /** the receiver's HTTP status; null when there was none (timeout, network error, refused target) */
  status: number | null;
  outcome: 'delivered' | 'retry' | 'paused';
  latency_ms: number;
  error?: string;
  /** the first bytes of the receiver's answer */
  response?: string;
}

export class WebhookInputError extends Error {}

const FILTER_KEYS = ['types', 'addresses', 'trace_external_hash_norms', 'min_finality', 'include_address_book', 'include_metadata', 'action_types', 'supported_action_types', 'msg_body_hash'] as const;
const CREATE_KEYS = new Set<string>(['url', 'secret', ...FILTER_KEYS]);
const CHANGE_KEYS = new Set<string>([...CREATE_KEYS, 'paused', 'cursor']);

/** The digest a key is known by; nothing keeps or shows the key itself. */
export const KEYLESS = 'keyless';

/** A fresh id: `wh_` and 16 random bytes, URL-safe. */
export const newWebhookId = (): string => `wh_${randomBytes(16).toString('base64url')}`;
const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * The set of each distinct small list (event types, action types, the expanded `supported_action_types`), made
 * once and shared read-only by every webhook that gives it: ten thousand webhooks hold a handful of these.
 */
const sharedSets = new Map<string, Set<string>>();
function sharedSet(kind: string, list: readonly string[], make: () => Set<string>): Set<string> {
  const key = `${kind}:${list.join(',')}`;
  let set = sharedSets.get(key);
  if (!set) {
    // a client can name any strings: the table stays bounded by forgetting the oldest lists
    if (sharedSets.size >= 4096) sharedSets.delete(sharedSets.keys().next().value!);
    sharedSets.set(key, (set = make()));
  }
  return set;
}

/** What the hub routes and trims a webhook's events by (the hub only reads it). */
export function subscriptionOf(f: WebhookFilter): Subscription {
  const plain = (kind: string, list: readonly string[]) => sharedSet(kind, list, () => new Set(list));
  return {
    types: plain('types', f.types) as Set<LiveEventType>,
    addresses: new Set(f.addresses),
    traceHashes: f.trace_external_hash_norms.length ? new Set(f.trace_external_hash_norms) : plain('hashes', []),
    minFinality: f.min_finality,
    includeAddressBook: f.include_address_book,
    includeMetadata: f.include_metadata,
    actionTypes: plain('actions', f.action_types),
    supported: sharedSet('supported', f.supported_action_types, () => expandActionTypes(f.supported_action_types.length ? f.supported_action_types : undefined)),
    ...(f.msg_body_hash ? { msgBodyHash: f.msg_body_hash } : {}),
  };
}

function objectOf(body: unknown, allowed: ReadonlySet<string>): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new WebhookInputError('expected a JSON object');
  const o = body as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!allowed.has(k)) throw new WebhookInputError(`unknown field: ${k}`);
  return o;
}

/** The subscription fields of a body, checked in Streaming v2's order and words; the address count against the limit. */
function filterOf(o: Record<string, unknown>, maxAddresses: number): WebhookFilter {
  let sub: Subscription;
  let fields: ReturnType<typeof readFields>;
  try {
    fields = readFields(o);
    sub = applyRequest(emptySubscription(undefined), fields, validate(fields, SSE_WORDING));
  } catch (e) {
    if (e instanceof SubscriptionError) throw new WebhookInputError(e.message);
    throw e;
  }
  if (sub.addresses.size > maxAddresses) throw new WebhookInputError(`too many addresses: ${sub.addresses.size} > max ${maxAddresses}`);
  return {
    types: [...sub.types],
    addresses: [...sub.addresses],
    trace_external_hash_norms: [...sub.traceHashes],
    min_finality: sub.minFinality,
    include_address_book: sub.includeAddressBook,
    include_metadata: sub.includeMetadata,
    action_types: [...sub.actionTypes],
    supported_action_types: fields.supported_action_types ?? [],
    ...(sub.msgBodyHash ? { msg_body_hash: sub.msgBodyHash } : {}),
  };
}

function secretOf(v: unknown): string {
  if (typeof v !== 'string') throw new WebhookInputError('secret must be a string');
  if (v.length < MIN_SECRET_LENGTH || v.length > MAX_SECRET_LENGTH) {
    throw new WebhookInputError(`secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`);
  }
  return v;
}

function urlOf(v: unknown, allowPrivate: boolean): string {
  if (typeof v !== 'string') throw new WebhookInputError('url must be a string');
  const problem = checkTargetUrl(v, allowPrivate);
  if (problem) throw new WebhookInputError(problem);
  return v;
}

/** A new webhook from a create request's body (its secret made when none is given). */
export function readCreate(
  body: unknown,
  opts: { owner: string; allowPrivate: boolean; maxAddresses: number; cursor: string | null; now: number },
): WebhookRecord {
  const o = objectOf(body, CREATE_KEYS);
  if (o.url === undefined) throw new WebhookInputError('url is required');
  const url = urlOf(o.url, opts.allowPrivate);
  const secret = o.secret === undefined ? newSecret() : secretOf(o.secret);
  return {
    id: newWebhookId(),
    owner: opts.owner,
    url,
    secret,
    filter: filterOf(o, opts.maxAddresses),
    paused: false,
    cursor: opts.cursor,
    failedCursor: null,
    failedAttempts: 0,
    lastError: null,
    createdAt: opts.now,
    updatedAt: opts.now,
    rev: 1,
  };
}

/** Cursors are a feed's own (digits, letters and `-`); anything else is refused before it reaches a feed. */
const CURSOR = /^[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;

/**
 * A webhook changed by a change request's body: any field of the create body (the subscription checked again as
 * a whole, given fields over the current ones), `paused`, and `cursor` (where delivery resumes: the cursor of
 * the last event to count as delivered; null for "from now"). A change resumes a paused webhook unless it says
 * `paused: true`.
 */
export function readChange(
  current: WebhookRecord,
  body: unknown,
  opts: { allowPrivate: boolean; maxAddresses: number; now: number; head: () => string | null },
): WebhookRecord {
  const o = objectOf(body, CHANGE_KEYS);
  const next: WebhookRecord = { ...current, filter: current.filter, rev: current.rev + 1, updatedAt: opts.now };
  if (o.url !== undefined) next.url = urlOf(o.url, opts.allowPrivate);
  if (o.secret !== undefined) next.secret = secretOf(o.secret);
  if (FILTER_KEYS.some((k) => o[k] !== undefined)) {
    const merged: Record<string, unknown> = { ...current.filter };
    for (const k of FILTER_KEYS) if (o[k] !== undefined) merged[k] = o[k];
    // an empty list given replaces the current one (unlike a WebSocket subscribe, which keeps it)
    next.filter = filterOf(merged, opts.maxAddresses);
  }
  if (o.paused !== undefined && typeof o.paused !== 'boolean') throw new WebhookInputError('paused must be a boolean');
  next.paused = o.paused === true;
  if (o.cursor !== undefined) {
    if (o.cursor === null) next.cursor = opts.head();
    else if (typeof o.cursor !== 'string' || !CURSOR.test(o.cursor)) throw new WebhookInputError('cursor must be a cursor an event carried, or null');
    else next.cursor = o.cursor;
  }
  if (!next.paused) {
    next.failedCursor = null;
    next.failedAttempts = 0;
    next.lastError = null;
  }
  return next;
}

/** A webhook as its owner reads it; the secret only when it was just made. */
export function webhookJson(r: WebhookRecord, opts: { secret?: boolean; addresses?: boolean; queued?: number } = {}): Record<string, unknown> {
  const f = r.filter;
  return {
    id: r.id,
    url: r.url,
    ...(opts.secret ? { secret: r.secret } : {}),
    types: f.types,
    ...(opts.addresses === false ? { address_count: f.addresses.length } : { addresses: f.addresses }),
    ...(f.trace_external_hash_norms.length ? { trace_external_hash_norms: f.trace_external_hash_norms } : {}),
    min_finality: f.min_finality,
    include_address_book: f.include_address_book,
    include_metadata: f.include_metadata,
    action_types: f.action_types,
    supported_action_types: f.supported_action_types,
    ...(f.msg_body_hash ? { msg_body_hash: f.msg_body_hash } : {}),
    paused: r.paused,
    last_delivered: r.cursor,
    failed_cursor: r.failedCursor,
    failed_attempts: r.failedAttempts,
    last_error: r.lastError,
    ...(opts.queued !== undefined ? { queued: opts.queued } : {}),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}
