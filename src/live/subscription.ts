/**
 * A Streaming API v2 subscription (../shared/reference/streaming-v2.md §2, §4): the SSE body and the WebSocket
 * `subscribe` / `unsubscribe` fields read, validated in the reference's order with its texts, and normalised
 * (addresses to raw upper-case `0:ABCD…`, deduplicated; action type shortcuts expanded).
 */
import { FINALITY_RANK, type Finality, type LiveEventType } from './feed.js';
import { parseAddressAny, rawUpper } from '../model/address.js';
import { parseHash } from '../model/hash.js';
import { expandActionTypes } from '../model/v3/index.js';

export const EVENT_TYPES: readonly LiveEventType[] = ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change'];

/** What the hub routes one client's events by. */
export interface Subscription {
  types: Set<LiveEventType>;
  /** raw upper-case */
  addresses: Set<string>;
  traceHashes: Set<string>;
  minFinality: Finality;
  includeAddressBook: boolean;
  includeMetadata: boolean;
  /** empty: no filter */
  actionTypes: Set<string>;
  /** `supported_action_types` expanded */
  supported: Set<string>;
  /** `msg_body_hash` in standard base64: transactions events keep only transactions whose in-message body has it */
  msgBodyHash?: string;
  /** `replay_existing`: matching events still held are sent before live ones (toncenter-newer.md §9) */
  replayExisting?: boolean;
}

export function emptySubscription(actionsVersion: string | undefined): Subscription {
  return {
    types: new Set(),
    addresses: new Set(),
    traceHashes: new Set(),
    minFinality: 'finalized',
    includeAddressBook: false,
    includeMetadata: false,
    actionTypes: new Set(),
    supported: expandActionTypes(actionsVersion ? [actionsVersion] : undefined),
  };
}

/** The fields as sent, each checked for its JSON type (Go's decoder refuses the whole body on a wrong one). */
interface Fields {
  id?: string;
  types?: string[];
  addresses?: string[];
  trace_external_hash_norms?: string[];
  min_finality?: Finality;
  include_address_book?: boolean;
  include_metadata?: boolean;
  action_types?: string[];
  supported_action_types?: string[];
  msg_body_hash?: string;
  replay_existing?: boolean;
}

export class SubscriptionError extends Error {}

/** Every field of a subscription request (§2, toncenter-newer.md §9); a Record so a field added to Fields must be named here. */
const FIELD_NAMES: Record<keyof Fields, true> = {
  id: true,
  types: true,
  addresses: true,
  trace_external_hash_norms: true,
  min_finality: true,
  include_address_book: true,
  include_metadata: true,
  action_types: true,
  supported_action_types: true,
  msg_body_hash: true,
  replay_existing: true,
};
/** The fields as an SSE body and a WebSocket `subscribe` carry them. */
export const SUBSCRIPTION_FIELDS = Object.keys(FIELD_NAMES) as readonly (keyof Fields)[];

const STRING_LISTS = ['types', 'addresses', 'trace_external_hash_norms', 'action_types', 'supported_action_types'] as const;
const BOOLS = ['include_address_book', 'include_metadata', 'replay_existing'] as const;

/** Reads the fields of a decoded JSON object; throws the decode error's text (without the surface's prefix). */
export function readFields(body: unknown): Fields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SubscriptionError('expected a JSON object');
  const o = body as Record<string, unknown>;
  const out: Fields = {};
  if (o.id !== undefined && o.id !== null) {
    if (typeof o.id !== 'string') throw new SubscriptionError('id must be a string');
    out.id = o.id;
  }
  for (const k of STRING_LISTS) {
    const v = o[k];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new SubscriptionError(`${k} must be an array of strings`);
    out[k] = v as string[];
  }
  for (const k of BOOLS) {
    const v = o[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw new SubscriptionError(`${k} must be a boolean`);
    out[k] = v;
  }
  if (o.msg_body_hash !== undefined && o.msg_body_hash !== null) {
    if (typeof o.msg_body_hash !== 'string') throw new SubscriptionError('msg_body_hash must be a string');
    out.msg_body_hash = o.msg_body_hash;
  }
  if (o.min_finality !== undefined && o.min_finality !== null) {
    if (typeof o.min_finality !== 'string' || !(o.min_finality in FINALITY_RANK)) throw new SubscriptionError(`unknown finality state: ${String(o.min_finality)}`);
    out.min_finality = o.min_finality as Finality;
  }
  return out;
}

/** An address already in the form the hub keys by: nothing to parse. */
const RAW_UPPER = /^(?:0|-1):[0-9A-F]{64}$/;

/** Raw upper-case forms of the given addresses, deduplicated; throws `invalid address: <a>`. */
export function normaliseAddresses(given: readonly string[]): string[] {
  const out = new Set<string>();
  for (const a of given) {
    if (RAW_UPPER.test(a)) {
      out.add(a);
      continue;
    }
    const parsed = parseAddressAny(a.trim());
    if (!parsed) throw new SubscriptionError(`invalid address: ${a}`);
    out.add(rawUpper(parsed.address));
  }
  return [...out];
}

/** The wording that differs between the surfaces (SSE's is longer). */
export interface Wording {
  typesRequired: string;
  addressesRequired: string;
}

export const SSE_WORDING: Wording = { typesRequired: 'types are required for subscription', addressesRequired: 'addresses are required for subscription' };
export const WS_WORDING: Wording = { typesRequired: 'types are required', addressesRequired: 'addresses are required' };

/** A 256-bit hash in any form toncenter takes, in standard base64; undefined when it is none. */
const hashNorm = (given: string): string | undefined => parseHash(given.trim())?.toString('base64');

/**
 * Trace hashes as v1.3 reads them (streaming-v2.md §2, toncenter-newer.md §9): each parsed as a hash in any form
 * and kept in standard base64, deduplicated; any unparsable one is worded as empty.
 */
export function normaliseTraceHashes(given: readonly string[]): string[] {
  const out = new Set<string>();
  for (const h of given) {
    const norm = hashNorm(h);
    if (norm === undefined) throw new SubscriptionError('trace_external_hash_norms contains empty value');
    out.add(norm);
  }
  return [...out];
}

/**
 * The checks of §2 in their order, then toncenter-newer.md §9's (`msg_body_hash` after the addresses); returns
 * the types, addresses, hashes (normalised to standard base64, deduplicated) and body hash of a valid request.
 */
export function validate(
  f: Fields,
  wording: Wording,
): { types: LiveEventType[]; addresses: string[]; traceHashes: string[]; msgBodyHash: string | undefined } {
  if (!f.types?.length) throw new SubscriptionError(wording.typesRequired);
  for (const t of f.types) if (!(EVENT_TYPES as readonly string[]).includes(t)) throw new SubscriptionError(`invalid event type: ${t}`);
  const types = [...new Set(f.types as LiveEventType[])];
  const addresses = normaliseAddresses(f.addresses ?? []);
  const hashes = normaliseTraceHashes(f.trace_external_hash_norms ?? []);
  const wantsTrace = types.includes('trace');
  if (hashes.length > 0 && !wantsTrace) throw new SubscriptionError('trace_external_hash_norms requires type "trace"');
  if (wantsTrace && hashes.length === 0) throw new SubscriptionError('trace_external_hash_norms are required for trace subscription');
  if (addresses.length === 0 && types.some((t) => t !== 'trace')) throw new SubscriptionError(wording.addressesRequired);
  let msgBodyHash: string | undefined;
  if (f.msg_body_hash !== undefined && f.msg_body_hash !== '') {
    if (addresses.length === 0 || !types.includes('transactions')) throw new SubscriptionError('msg_body_hash requires addresses and type "transactions"');
    msgBodyHash = hashNorm(f.msg_body_hash);
    if (msgBodyHash === undefined) throw new SubscriptionError('invalid msg_body_hash');
  }
  return { types, addresses, traceHashes: hashes, msgBodyHash };
}

/**
 * A subscription made from a request: new for SSE, or the client's previous one with the request applied (WS
 * `subscribe`: the snapshot of types, addresses and hashes replaced; `min_finality` and the include flags kept
 * when absent; action type lists kept when empty, as the reference's server does).
 */
export function applyRequest(prev: Subscription, f: Fields, v: ReturnType<typeof validate>): Subscription {
  return {
    types: new Set(v.types),
    addresses: new Set(v.addresses),
    traceHashes: new Set(v.traceHashes),
    minFinality: f.min_finality ?? prev.minFinality,
    includeAddressBook: f.include_address_book ?? prev.includeAddressBook,
    includeMetadata: f.include_metadata ?? prev.includeMetadata,
    actionTypes: f.action_types?.length ? new Set(f.action_types) : prev.actionTypes,
    supported: f.supported_action_types?.length ? expandActionTypes(f.supported_action_types) : prev.supported,
    // every subscribe sets or clears it (toncenter-newer.md §9)
    ...(v.msgBodyHash !== undefined ? { msgBodyHash: v.msgBodyHash } : {}),
    ...(f.replay_existing ? { replayExisting: true } : {}),
  };
}
