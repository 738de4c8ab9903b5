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
