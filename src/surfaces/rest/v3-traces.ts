/**
 * v3 routes, part 2: traces, actions, pending work and /decode (v3.md §2.1 pendingTransactions, §2.6, §2.7 decode, §4).
 * Params, checks and texts of ton-index-go's handlers (`main.go` GetTraces, GetActions, GetPendingTransactions,
 * GetPendingTraces, GetPendingActions, GetDecode/PostDecode at eb9fbfa3), 4xx wherever the reference answers 500.
 */
import { ApiError } from '../../api/errors.js';
import type { V3CallContext } from './v3-route.js';
import { defined, ltParams, nonEmpty, page, pageParams, pageSort, route, sortParam, timeWindow, utimeParams, type V3Route } from './v3-route.js';
import { address, bool, checkSort, hash, int32, list, mandatory, text } from './v3-params.js';
import { parseOpcodeString } from '../../model/v3/decode.js';

/** `validateActionTypeFilter`: names of action types are letters, digits, `_` and `.` only. */
const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

function checkActionTypes(values: string[], param: string): string[] | undefined {
  for (const v of values) if (v !== '' && !ACTION_TYPE.test(v)) throw new ApiError(422, `${param} contains invalid characters`);
  return nonEmpty(values);
}

/** The X-Actions-Version header replaces supported_action_types (v3.md §1.1). */
function supportedTypes(values: string[], ctx: V3CallContext): string[] | undefined {
  const header = ctx.header('x-actions-version');
  return header !== undefined ? [header] : nonEmpty(values);
}

const MAX_DECODE_ITEMS = 1000;

/** /decode's limits and opcode format, checked before the source is asked (`GetDecode`, `processDecode`). */
function checkDecode(opcodes: string[], bodies: string[]): { opcodes: string[]; bodies: string[] } {
  if (opcodes.length > MAX_DECODE_ITEMS) throw new ApiError(422, `opcodes list exceeds maximum length of ${MAX_DECODE_ITEMS}`);
  if (bodies.length > MAX_DECODE_ITEMS) throw new ApiError(422, `bodies list exceeds maximum length of ${MAX_DECODE_ITEMS}`);
  opcodes.forEach((raw, i) => {
    if (parseOpcodeString(raw) === undefined) {
      throw new ApiError(422, `invalid opcode format at index ${i}: ${raw.startsWith('0x') ? raw.slice(2) : raw}`);
    }
  });
  return { opcodes, bodies };
}

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'object';

/** A `[]string` field of the DecodeRequest body; absent or null is []. Wrong JSON types get Go's unmarshal text. */
function stringList(body: Record<string, unknown>, field: string): string[] {
  const v = body[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ApiError(422, `json: cannot unmarshal ${kindOf(v)} into Go struct field DecodeRequest.${field} of type []string`);
  return v.map((item) => {
    if (typeof item !== 'string') throw new ApiError(422, `json: cannot unmarshal ${kindOf(item)} into Go struct field DecodeRequest.${field} of type string`);
    return item;
  });
}

const traceQuery = {
  include_actions: bool(),
  account: address(),
  trace_id: list(hash()),
  tx_hash: list(hash()),
  msg_hash: list(hash()),
  mc_seqno: int32(),
  supported_action_types: list(text()),
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...sortParam,
};

type TraceQuery = {
  include_actions?: boolean;
  account?: import('@ton/core').Address;
  trace_id: Buffer[];
  tx_hash: Buffer[];
  msg_hash: Buffer[];
  mc_seqno?: number;
  supported_action_types: string[];
  start_utime?: number;
  end_utime?: number;
  start_lt?: bigint;
  end_lt?: bigint;
  limit?: number;
  offset?: number;
  sort?: string;
};

/** /traces and /events: at most one selector, then paging and sort (`GetTraces`). */
function tracesParams(q: TraceQuery, ctx: V3CallContext, includeActions: boolean) {
  const selectors = [q.account !== undefined, q.trace_id.length > 0, q.tx_hash.length > 0, q.msg_hash.length > 0];
  if (selectors.filter(Boolean).length > 1) {
    throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash should be specified');
  }
  const { limit, offset } = page(q);
  return defined({
    account: q.account,
    traceId: nonEmpty(q.trace_id),
    txHash: nonEmpty(q.tx_hash),
    msgHash: nonEmpty(q.msg_hash),
    mcSeqno: q.mc_seqno,
    ...timeWindow(q),
    includeActions,
    supportedActionTypes: supportedTypes(q.supported_action_types, ctx),
    limit,
    offset,
    sort: checkSort(q.sort),
    ...ctx.options,
  });
}

export const V3_TRACE_ROUTES: readonly V3Route[] = [
  route({
    method: 'GET',
    path: '/traces',
    summary: 'Traces (one external message and its cascade) by filter',
    query: traceQuery,
    response: 'TracesResponse',
    call: (api, q, ctx) => api.listTraces(tracesParams(q, ctx, q.include_actions ?? false)),
  }),

  route({
    method: 'GET',
    path: '/events',
    summary: 'Traces with their actions, under the key `events` (deprecated alias of /traces)',
    query: traceQuery,
    response: 'DeprecatedEventsResponse',
    call: async (api, q, ctx) => {
      const r = await api.listTraces(tracesParams(q, ctx, true));
      return { events: r.traces, address_book: r.address_book, metadata: r.metadata };
    },
  }),

  route({
    method: 'GET',
    path: '/actions',
    summary: 'Actions (classified operations of traces) by filter',
    query: {
      account: address(),
      tx_hash: list(hash()),
      msg_hash: list(hash()),
      trace_id: list(hash()),
      action_id: list(hash()),
      mc_seqno: int32(),
      action_type: list(text()),
      exclude_action_type: list(text()),
      supported_action_types: list(text()),
      include_accounts: bool(),
      include_transactions: bool(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'ActionsResponse',
    call: (api, q, ctx) => {
      const actionType = checkActionTypes(q.action_type, 'action_type');
      const excludeActionType = checkActionTypes(q.exclude_action_type, 'exclude_action_type');
      return api.actions(
        defined({
          account: q.account,
          txHash: nonEmpty(q.tx_hash),
          msgHash: nonEmpty(q.msg_hash),
          traceId: nonEmpty(q.trace_id),
          actionId: nonEmpty(q.action_id),
          mcSeqno: q.mc_seqno,
          actionType,
          excludeActionType,
          supportedActionTypes: supportedTypes(q.supported_action_types, ctx),
          includeAccounts: q.include_accounts,
          includeTransactions: q.include_transactions,
          ...timeWindow(q),
          ...pageSort(q),
          ...ctx.options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/pendingTransactions',
    summary: 'Executed transactions not yet in a block',
    query: { account: mandatory(list(address())), trace_id: list(hash()) },
    response: 'TransactionsResponse',
    call: (api, q, ctx) => {
      if (!q.account.length) throw new ApiError(422, 'at least 1 account address required');
      return api.pendingTransactions(defined({ account: q.account, traceId: nonEmpty(q.trace_id), ...ctx.options }));
    },
  }),

  route({
    method: 'GET',
    path: '/pendingTraces',
    summary: 'Traces with transactions not yet in a block',
    query: { account: address(), ext_msg_hash: list(hash()), supported_action_types: list(text()) },
    response: 'TracesResponse',
    call: (api, q, ctx) => {
      if (q.account === undefined && !q.ext_msg_hash.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      return api.pendingTraces(
        defined({
          account: q.account,
          extMsgHash: nonEmpty(q.ext_msg_hash),
          supportedActionTypes: supportedTypes(q.supported_action_types, ctx),
          ...ctx.options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/pendingActions',
    summary: 'Actions of traces with transactions not yet in a block',
    query: { account: address(), ext_msg_hash: list(hash()), supported_action_types: list(text()), include_transactions: bool() },
    response: 'ActionsResponse',
    call: (api, q, ctx) => {
      if (q.account === undefined && !q.ext_msg_hash.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
      return api.pendingActions(
        defined({
          account: q.account,
          extMsgHash: nonEmpty(q.ext_msg_hash),
          supportedActionTypes: supportedTypes(q.supported_action_types, ctx),
          includeTransactions: q.include_transactions,
          ...ctx.options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/decode',
    summary: 'Names of opcodes and decoded message bodies',
    query: { opcodes: list(text()), bodies: list(text()) },
    response: 'DecodeResponse',
    call: (api, q) => api.decode(checkDecode(q.opcodes, q.bodies)),
  }),

  route({
    method: 'POST',
    path: '/decode',
    summary: 'Names of opcodes and decoded message bodies (lists in a JSON body)',
    query: {},
    body: {
      struct: 'DecodeRequest',
      fields: {
        opcodes: { type: 'array', description: 'opcodes: hex (optional 0x), decimal or signed decimal' },
        bodies: { type: 'array', description: 'message bodies: base64 or hex BoC' },
      },
    },
    response: 'DecodeResponse',
    call: (api, _q, { body }) => api.decode(checkDecode(stringList(body, 'opcodes'), stringList(body, 'bodies'))),
  }),
];
