/**
 * v3 actions (v3.md §2.6, §4): classified operations of traces, and those of pending traces (`main.go`
 * GetActions, GetPendingActions at eb9fbfa3). Reused only for the TTL: classification follows the trace until it
 * completes; pending actions are not reused.
 */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { ActionDetailsByType, ActionType } from './action-details.js';
import type { AddressBook, Finality, LtWindow, Metadata, PageParams, SortParams, UtimeWindow, V3Options } from './common.js';
import {
  address,
  bool,
  hash,
  int32,
  list,
  ltParams,
  pageParams,
  sortParam,
  supportedActionTypes,
  text,
  utimeParams,
  v3Route,
} from './params.js';
import { accountOrExtMsg, type PendingTracesParams } from './traces.js';
import type { Transaction } from './transactions.js';

/** What every action carries besides its type and details (models.Action). */
interface ActionFields {
  trace_id: string | null;
  action_id: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  /** b64 hashes, by lt */
  transactions: string[];
  success: boolean | null;
  trace_external_hash?: string;
  trace_external_hash_norm?: string;
  /** include_accounts only */
  accounts?: string[];
  /** include_transactions only */
  transactions_full?: Transaction[];
  /** absent from indexers older than the finality field */
  finality?: Finality;
}

/** An action of type `T` with the details the reference prints for it. */
export type ActionOf<T extends ActionType> = T extends ActionType ? ActionFields & { type: T; details: ActionDetailsByType[T] } : never;

/** Every action type of the reference, discriminated by `type`. */
export type KnownAction = ActionOf<ActionType>;

/**
 * A type the reference adds after these models, or one a classifier names without a typed model: `type` is
 * any other name and the details are kept as printed. Consumers tell the two apart with a runtime check of
 * the type name, then narrow `KnownAction` by `type`.
 */
export interface LaterAction extends ActionFields {
  type: string;
  details: Record<string, unknown>;
}

/** An action: one of the reference's types with its details, or a later type with its details as printed. */
export type Action = KnownAction | LaterAction;

export interface ActionsResponse {
  actions: Action[];
  address_book: AddressBook;
  metadata: Metadata;
  /** with V3_BRANCH_FEATURES=actions-cursor only: where the next page starts (`cursor`), null after a short page */
  next_cursor?: string | null;
}

/**
 * Where a page of /actions ended, in its order (toncenter-newer.md §7, a feature branch): the last action's trace
 * end and trace id, its own end and id. The ends are lts, or utimes when a utime filter set the order.
 */
export interface ActionsCursor {
  utimeMode: boolean;
  desc: boolean;
  traceEnd: bigint;
  traceId: Buffer;
  end: bigint;
  actionId: Buffer;
}

const INVALID_CURSOR = 'invalid cursor';

/** The branch's wire form: unpadded base64url of the msgpack array [utime_mode, desc, trace_end, trace_id, end, action_id]. */
export function encodeActionsCursor(c: ActionsCursor): string {
  const int64 = (v: bigint) => {
    const b = Buffer.alloc(9);
    b[0] = 0xd3;
    b.writeBigInt64BE(v, 1);
    return b;
  };
  const bin = (h: Buffer) => Buffer.concat([Buffer.from([0xc4, h.length]), h]);
  const bool = (v: boolean) => Buffer.from([v ? 0xc3 : 0xc2]);
  return Buffer.concat([Buffer.from([0x96]), bool(c.utimeMode), bool(c.desc), int64(c.traceEnd), bin(c.traceId), int64(c.end), bin(c.actionId)]).toString('base64url');
}

/** A cursor read back, any msgpack integer form accepted; anything else is 422 `invalid cursor`. */
export function decodeActionsCursor(raw: string): ActionsCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new ApiError(422, INVALID_CURSOR);
  const b = Buffer.from(raw, 'base64url');
  let at = 0;
  const byte = (): number => {
    if (at >= b.length) throw new ApiError(422, INVALID_CURSOR);
    return b[at++]!;
  };
  const take = (n: number): Buffer => {
    if (at + n > b.length) throw new ApiError(422, INVALID_CURSOR);
    return b.subarray((at += n) - n, at);
  };
  const bool = (): boolean => {
    const t = byte();
    if (t !== 0xc2 && t !== 0xc3) throw new ApiError(422, INVALID_CURSOR);
    return t === 0xc3;
  };
  const uint = (): bigint => {
    const t = byte();
    if (t <= 0x7f) return BigInt(t);
    const width = ({ 0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8, 0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8 } as Record<number, number>)[t];
    if (width === undefined) throw new ApiError(422, INVALID_CURSOR);
    const bytes = take(width);
    const v = t >= 0xd0 ? BigInt.asIntN(width * 8, BigInt(`0x${bytes.toString('hex')}`)) : BigInt(`0x${bytes.toString('hex')}`);
    if (v < 0n) throw new ApiError(422, INVALID_CURSOR);
    return v;
  };
  const hash = (): Buffer => {
    if (byte() !== 0xc4 || byte() !== 32) throw new ApiError(422, INVALID_CURSOR);
    return Buffer.from(take(32));
  };
  if (byte() !== 0x96) throw new ApiError(422, INVALID_CURSOR);
  const c: ActionsCursor = { utimeMode: bool(), desc: bool(), traceEnd: uint(), traceId: hash(), end: uint(), actionId: hash() };
  if (at !== b.length) throw new ApiError(422, INVALID_CURSOR);
  return c;
}

export interface ActionsParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  account?: Address;
  txHash?: Buffer[];
  msgHash?: Buffer[];
  actionId?: Buffer[];
  traceId?: Buffer[];
  mcSeqno?: number;
  /** validated `^[A-Za-z0-9_.]+$` by the surface */
  actionType?: string[];
  excludeActionType?: string[];
  supportedActionTypes?: string[];
  includeAccounts?: boolean;
  includeTransactions?: boolean;
  /** actions-cursor: the page starts strictly after this */
  cursor?: ActionsCursor;
  /** actions-cursor: the answer carries `next_cursor` */
  cursorPaging?: boolean;
}

export interface PendingActionsParams extends PendingTracesParams {
  includeTransactions?: boolean;
}

/** What a source answers for these routes. */
export interface ActionsApi {
  actions(p: ActionsParams): Promise<ActionsResponse>;
  pendingActions(p: PendingActionsParams): Promise<ActionsResponse>;
}

/** `validateActionTypeFilter`: names of action types are letters, digits, `_` and `.` only. */
const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

const actionTypes = (param: string) =>
  list(
    text({
      check: (values?: string[]) => {
        for (const v of values ?? []) if (!ACTION_TYPE.test(v)) throw new ApiError(422, `${param} contains invalid characters`);
        return values;
      },
    }),
  );

/** The params of /actions, also the filters of GraphQL's actions. */
export const ACTIONS_PARAMS = {
  account: address(),
  tx_hash: list(hash()),
  msg_hash: list(hash()),
  trace_id: list(hash()),
  action_id: list(hash()),
  mc_seqno: int32(),
  action_type: actionTypes('action_type'),
  exclude_action_type: actionTypes('exclude_action_type'),
  supported_action_types: supportedActionTypes(),
  include_accounts: bool(),
  include_transactions: bool(),
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...sortParam,
  cursor: text({
    branch: 'actions-cursor',
    description: 'next_cursor of the previous page (same filters and sort, no offset)',
    check: (raw?: string) => (raw === undefined ? undefined : decodeActionsCursor(raw)),
    encode: (c: unknown) => encodeActionsCursor(c as ActionsCursor),
  }),
};

export const ACTION_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/actions',
    summary: 'Actions (classified operations of traces) by filter',
    params: ACTIONS_PARAMS,
    response: 'ActionsResponse',
    top: 'actions',
    // reused for the TTL: classification follows a trace until it completes
    cache: TTL_CACHE,
    api: 'actions',
    options: true,
    lateCheck: (p: ActionsParams) => {
      if (!p.cursor) return;
      if (p.offset > 0) throw new ApiError(422, 'use either cursor or offset, not both');
      // a cursor is only good for the order it was made in
      const utimeMode = p.startUtime !== undefined || p.endUtime !== undefined;
      if (p.cursor.utimeMode !== utimeMode || p.cursor.desc !== (p.sort === 'desc')) throw new ApiError(422, INVALID_CURSOR);
    },
    branchFixed: { 'actions-cursor': { cursorPaging: true } },
  }),

  v3Route({
    methods: ['GET'],
    path: '/pendingActions',
    summary: 'Actions of traces with transactions not yet in a block',
    params: {
      account: address(),
      ext_msg_hash: list(hash()),
      supported_action_types: supportedActionTypes(),
      include_transactions: bool(),
    },
    response: 'ActionsResponse',
    top: 'actions',
    cache: NO_CACHE,
    api: 'pendingActions',
    options: true,
    check: accountOrExtMsg,
  }),
];
