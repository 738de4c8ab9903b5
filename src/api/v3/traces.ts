/**
 * v3 traces (v3.md §2.6): /traces, its deprecated alias /events and /pendingTraces. Params, checks and texts of
 * ton-index-go's handlers (`main.go` GetTraces, GetPendingTraces at eb9fbfa3), 422 wherever the reference
 * answers 500. Nothing is cached: a trace changes until it completes, and the upstream may reclassify it.
 */
import { NO_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { PendingTracesParams, TracesParams, TracesResponse } from '../v3-traces.js';
import { address, bool, hash, int32, list, ltParams, pageParams, sortParam, supportedActionTypes, utimeParams, v3Route } from './params.js';

const traceParams = () => ({
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
});

/** At most one selector (`GetTraces`). */
function oneSelector(p: TracesParams): void {
  const selectors = [p.account !== undefined, p.traceId !== undefined, p.txHash !== undefined, p.msgHash !== undefined];
  if (selectors.filter(Boolean).length > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
}

/** /pendingTraces and /pendingActions need an account or external message hashes. */
export function accountOrExtMsg(p: PendingTracesParams): void {
  if (p.account === undefined && p.extMsgHash === undefined) throw new ApiError(422, 'account or ext_msg_hash should be specified');
}

export const TRACE_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/traces',
    summary: 'Traces (one external message and its cascade) by filter',
    params: traceParams(),
    response: 'TracesResponse',
    top: 'traces',
    cache: NO_CACHE,
    api: 'listTraces',
    options: true,
    check: oneSelector,
  }),

  v3Route({
    methods: ['GET'],
    path: '/events',
    summary: 'Traces with their actions, under the key `events` (deprecated alias of /traces)',
    params: traceParams(),
    response: 'DeprecatedEventsResponse',
    cache: NO_CACHE,
    api: 'listTraces',
    options: true,
    check: oneSelector,
    fixed: { includeActions: true },
    answer: (r: TracesResponse) => ({ events: r.traces, address_book: r.address_book, metadata: r.metadata }),
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
