/**
 * v3 traces (v3.md §2.6): /traces, its deprecated alias /events and /pendingTraces. Params, checks and texts of
 * ton-index-go's handlers (`main.go` GetTraces, GetPendingTraces at eb9fbfa3), 422 wherever the reference
 * answers 500. A trace changes until it completes, and the upstream may reclassify it: traces named by id or hash
 * are kept for good once every one is complete (and classified, when actions were asked); other answers for the TTL.
 */
import type { Address } from '@ton/core';
import { type CachePolicy, NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { Action } from './actions.js';
import type { AddressBook, LtWindow, Metadata, PageParams, SortParams, UtimeWindow, V3Options } from './common.js';
import {
  address,
  bool,
  hash,
  int32,
  list,
  listOf,
  ltParams,
  pageParams,
  sortParam,
  supportedActionTypes,
  utimeParams,
  v3Route,
} from './params.js';
import type { Transaction } from './transactions.js';

export type TraceState = 'complete' | 'pending' | 'broken';

export type ClassificationState = 'unclassified' | 'failed' | 'ok' | 'broken';

export interface TraceMeta {
  trace_state: TraceState;
  /** external-in plus every out-message */
  messages: number;
  transactions: number;
  /** messages sent by transactions not yet in a block */
  pending_messages: number;
  classification_state: ClassificationState;
}

export interface TraceNode {
  tx_hash: string;
  in_msg_hash: string;
  /** [] without out-messages; null when none of them was received (Go nil slice) */
  children: TraceNode[] | null;
}

export interface Trace {
  /** root transaction hash; null while the root is not in a block */
  trace_id: string | null;
  /** the root transaction's inbound message hash */
  external_hash: string | null;
  /** decimal strings (typed HashType in the reference) */
  mc_seqno_start: string;
  mc_seqno_end: string;
  start_lt: string;
  start_utime: number;
  end_lt: string | null;
  end_utime: number | null;
  trace_info: TraceMeta;
  is_incomplete: boolean;
  warning?: string;
  actions?: Action[];
  trace?: TraceNode;
  /** by lt */
  transactions_order?: string[];
  transactions?: Record<string, Transaction>;
}

export interface TracesResponse {
  traces: Trace[];
  address_book: AddressBook;
  metadata: Metadata;
}

/** What /events answers: a TracesResponse with the list under `events` (v3.md §1.1). */
export interface DeprecatedEventsResponse {
  events: Trace[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface TracesParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  /** at most one of account, traceId, txHash, msgHash (checked by the surface) */
  account?: Address;
  traceId?: Buffer[];
  txHash?: Buffer[];
  /** raw or normalised message hash */
  msgHash?: Buffer[];
  /** complete traces that ended in this masterchain block; 404 when the block does not exist */
  mcSeqno?: number;
  includeActions?: boolean;
  /** raw names and shortcuts (v1…v5, latest, jettons, …); default latest */
  supportedActionTypes?: string[];
}

export interface PendingTracesParams extends V3Options {
  account?: Address;
  /** the external message hash a pending trace started from */
  extMsgHash?: Buffer[];
  supportedActionTypes?: string[];
}

/** What a source answers for these routes. */
export interface TracesApi {
  /** /traces (not `traces`: LocalV3Api keeps its trace module under that name) */
  listTraces(p: TracesParams): Promise<TracesResponse>;
  pendingTraces(p: PendingTracesParams): Promise<TracesResponse>;
}

/** The params of /traces and /events, also the filters of GraphQL's traces. */
export const TRACES_PARAMS = {
  include_actions: bool({ default: false }),
  account: address(),
  trace_id: list(hash()),
  tx_hash: list(hash()),
  msg_hash: list(hash()),
  mc_seqno: int32(),
  supported_action_types: supportedActionTypes(),
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...sortParam,
};

/** At most one selector (`GetTraces`). */
function oneSelector(p: TracesParams): void {
  const selectors = [p.account !== undefined, p.traceId !== undefined, p.txHash !== undefined, p.msgHash !== undefined];
  if (selectors.filter(Boolean).length > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
}

/** /pendingTraces and /pendingActions need an account or external message hashes. */
export function accountOrExtMsg(p: PendingTracesParams): void {
  if (p.account === undefined && p.extMsgHash === undefined) throw new ApiError(422, 'account or ext_msg_hash should be specified');
}

/** Complete (and, with actions, classified) traces never change. */
const FINISHED_TRACES = (withActions: boolean): CachePolicy => ({
  kind: 'immutable',
  keep: (v) => {
    const traces = listOf(v, 'traces') as { is_incomplete?: boolean; trace_info?: { trace_state?: string; classification_state?: string } }[];
    return (
      traces.length > 0 &&
      traces.every((t) => t.trace_info?.trace_state === 'complete' && !t.is_incomplete && (!withActions || t.trace_info.classification_state === 'ok'))
    );
  },
});

const tracesCache = (p: TracesParams): CachePolicy =>
  p.traceId?.length || p.txHash?.length || p.msgHash?.length ? FINISHED_TRACES(p.includeActions === true) : TTL_CACHE;

export const TRACE_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/traces',
    summary: 'Traces (one external message and its cascade) by filter',
    params: TRACES_PARAMS,
    response: 'TracesResponse',
    top: 'traces',
    cache: tracesCache,
    api: 'listTraces',
    options: true,
    check: oneSelector,
  }),

  v3Route({
    methods: ['GET'],
    path: '/events',
    summary: 'Traces with their actions, under the key `events` (deprecated alias of /traces)',
    params: TRACES_PARAMS,
    response: 'DeprecatedEventsResponse',
    cache: NO_CACHE,
    api: 'listTraces',
    options: true,
    check: oneSelector,
    fixed: { includeActions: true },
    answer: (r: TracesResponse): DeprecatedEventsResponse => ({ events: r.traces, address_book: r.address_book, metadata: r.metadata }),
    upstream: false,
  }),

  v3Route({
    methods: ['GET'],
    path: '/pendingTraces',
    summary: 'Traces with transactions not yet in a block',
    params: { account: address(), ext_msg_hash: list(hash()), supported_action_types: supportedActionTypes() },
    response: 'TracesResponse',
    top: 'traces',
    cache: NO_CACHE,
    api: 'pendingTraces',
    options: true,
    check: accountOrExtMsg,
  }),
];
