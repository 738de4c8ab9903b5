/**
 * The v3 seam, part 2: traces, actions, pending work and /decode (v3.md §2.1 pendingTransactions, §2.6, §2.7 decode, §4).
 * Shapes and params as the reference answers them.
 *
 * Shapes follow the Go models of toncenter/ton-indexer ton-index-go (`models/traces.go`, `models/actions.go`,
 * `models/response.go`) at eb9fbfa3: `Trace` has no `external_hash_norm` (only actions carry the norm), trace tree
 * nodes print `children: null` for a transaction whose out-messages nobody received, and `accounts` /
 * `transactions_full` are omitted unless asked for. `Action` is a union discriminated by `type`: the details of
 * every reference type are in ./v3-action-details.ts.
 */
import type { Address } from '@ton/core';
import type {
  AddressBook,
  Finality,
  LtWindow,
  Metadata,
  PageParams,
  SortParams,
  Transaction,
  TransactionsResponse,
  UtimeWindow,
  V3Options,
} from './v3.js';
import type { ActionDetailsByType, ActionType } from './v3-action-details.js';

export type * from './v3-action-details.js';

// ---- traces (v3.md §2.6 "The Trace object") ----

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

// ---- actions (v3.md §4.2, §4.4) ----

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

export type Action = KnownAction | LaterAction;

export interface TracesResponse {
  traces: Trace[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface ActionsResponse {
  actions: Action[];
  address_book: AddressBook;
  metadata: Metadata;
}

/** `/decode`: names for opcodes (or "unknown"), objects for bodies (or `{"error":"unknown…"}`). */
export interface DecodeResponse {
  opcodes: string[];
  bodies: Record<string, unknown>[];
}

// ---- parameters ----

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
  /** raw names and shortcuts (v1…v4, latest, jettons, …); default latest */
  supportedActionTypes?: string[];
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

export interface PendingTransactionsParams extends V3Options {
  /** required (the surface answers 422 without it) */
  account: Address[];
  traceId?: Buffer[];
}

export interface PendingTracesParams extends V3Options {
  account?: Address;
  /** the external message hash a pending trace started from */
  extMsgHash?: Buffer[];
  supportedActionTypes?: string[];
}

export interface PendingActionsParams extends PendingTracesParams {
  includeTransactions?: boolean;
}

export interface DecodeParams {
  /** hex (optional 0x), decimal or signed decimal; at most 1000 */
  opcodes: string[];
  /** base64 ("te6…") or hex BoC; at most 1000 */
  bodies: string[];
}

export interface V3TracesApi {
  /** /traces (not `traces`: LocalV3Api keeps its trace module under that name) */
  listTraces(p: TracesParams): Promise<TracesResponse>;
  actions(p: ActionsParams): Promise<ActionsResponse>;
  /** 404 `emulated traces not found` when nothing is pending for the accounts */
  pendingTransactions(p: PendingTransactionsParams): Promise<TransactionsResponse>;
  pendingTraces(p: PendingTracesParams): Promise<TracesResponse>;
  pendingActions(p: PendingActionsParams): Promise<ActionsResponse>;
  decode(p: DecodeParams): Promise<DecodeResponse>;
}
