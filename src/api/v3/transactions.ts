/** v3 transactions (v3.md §2.1): by filter, by masterchain block, by message, adjacent ones, pending ones. */
import type { Address } from '@ton/core';
import { type CachePolicy, NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { BlockId } from './blocks.js';
import type {
  AccountStatus,
  AddressBook,
  BounceType,
  DescrType,
  Direction,
  ExtraCurrencies,
  Finality,
  LtWindow,
  PageParams,
  SkipReason,
  SortParams,
  StatusChange,
  UtimeWindow,
  V3Options,
} from './common.js';
import type { Message } from './messages.js';
import {
  address,
  direction,
  hash,
  int32,
  list,
  listOf,
  ltParams,
  opcode,
  pageParams,
  required,
  shard,
  sortParam,
  uint64,
  utimeParams,
  v3Route,
} from './params.js';

export interface MsgSize {
  cells: string;
  bits: string;
}

export interface StoragePhase {
  storage_fees_collected?: string;
  storage_fees_due?: string;
  status_change?: StatusChange;
}

export interface CreditPhase {
  due_fees_collected?: string;
  credit?: string;
  credit_extra_currencies?: ExtraCurrencies;
}

export interface ComputePhase {
  skipped?: boolean;
  /** only when skipped */
  reason?: SkipReason;
  success?: boolean;
  msg_state_used?: boolean;
  account_activated?: boolean;
  gas_fees?: string;
  gas_used?: string;
  gas_limit?: string;
  gas_credit?: string;
  mode?: number;
  exit_code?: number;
  exit_arg?: number;
  vm_steps?: number;
  vm_init_state_hash?: string;
  vm_final_state_hash?: string;
}

export interface ActionPhase {
  success?: boolean;
  valid?: boolean;
  no_funds?: boolean;
  status_change?: StatusChange;
  total_fwd_fees?: string;
  total_action_fees?: string;
  result_code?: number;
  result_arg?: number;
  tot_actions?: number;
  spec_actions?: number;
  skipped_actions?: number;
  msgs_created?: number;
  action_list_hash?: string;
  tot_msg_size?: MsgSize;
}

export interface BouncePhase {
  type: BounceType;
  msg_size?: MsgSize;
  req_fwd_fees?: string;
  msg_fees?: string;
  fwd_fees?: string;
}

export interface SplitInfo {
  cur_shard_pfx_len?: number;
  acc_split_depth?: number;
  this_addr?: string;
  sibling_addr?: string;
}

export interface TransactionDescr {
  type: DescrType;
  aborted?: boolean;
  destroyed?: boolean;
  credit_first?: boolean;
  is_tock?: boolean;
  installed?: boolean;
  storage_ph?: StoragePhase;
  credit_ph?: CreditPhase;
  compute_ph?: ComputePhase;
  action?: ActionPhase;
  bounce?: BouncePhase;
  split_info?: SplitInfo;
}

/** Account state as a transaction carries it (before/after). */
export interface AccountState {
  /** account state hash (the ShardAccount's account cell hash) */
  hash: string;
  balance: string | null;
  extra_currencies: ExtraCurrencies | null;
  account_status: AccountStatus | null;
  frozen_hash: string | null;
  data_hash: string | null;
  code_hash: string | null;
  data_boc?: string;
  code_boc?: string;
}

export interface Transaction {
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  /** hash of the root transaction of the trace */
  trace_id?: string;
  /** pending transactions only */
  trace_external_hash?: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  total_fees: string;
  total_fees_extra_currencies: ExtraCurrencies;
  description: TransactionDescr;
  block_ref: BlockId;
  in_msg: Message | null;
  /** ordered by created_lt */
  out_msgs: Message[];
  account_state_before: AccountState | null;
  account_state_after: AccountState | null;
  emulated: boolean;
  finality: Finality;
}

export interface TransactionsResponse {
  transactions: Transaction[];
  address_book: AddressBook;
}

/**
 * The message filters /transactions and /transactionsByMessage share (one request struct in toncenter since v1.3,
 * toncenter-newer.md §2): any of them joins the transactions' in and out messages.
 */
export interface MessageFilterParams {
  /** matches the message hash or its normalised hash */
  msgHash?: Buffer[];
  bodyHash?: Buffer;
  /** signed or unsigned 32-bit; compared as uint32; inbound or outbound messages unless `direction` says */
  opcode?: number;
  source?: Address;
  destination?: Address;
  direction?: Direction;
}

export interface TransactionsParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options, MessageFilterParams {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  account?: Address[];
  /** parsed but not applied, as in the reference (v3.md §2.1, toncenter-newer.md §2) */
  excludeAccount?: Address[];
  hash?: Buffer[];
  lt?: bigint;
}

export interface McSeqnoPageParams extends PageParams, SortParams, V3Options {
  seqno: number;
}

export interface TransactionsByMessageParams extends PageParams, V3Options, MessageFilterParams {}

export interface AdjacentTransactionsParams extends V3Options {
  hash: Buffer;
  /** absent = both */
  direction?: Direction;
}

export interface PendingTransactionsParams extends V3Options {
  /** required (the surface answers 422 without it) */
  account: Address[];
  traceId?: Buffer[];
}

/** What a source answers for these routes. */
export interface TransactionsApi {
  transactions(p: TransactionsParams): Promise<TransactionsResponse>;
  transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse>;
  transactionsByMessage(p: TransactionsByMessageParams): Promise<TransactionsResponse>;
  adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse>;
  /** 404 `emulated traces not found` when nothing is pending for the accounts */
  pendingTransactions(p: PendingTransactionsParams): Promise<TransactionsResponse>;
}

/** Found and final: pending or merely confirmed transactions can still change or vanish. */
const FINAL_TXS: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const txs = listOf(v, 'transactions');
    return txs.length > 0 && txs.every((t) => t.finality === undefined || t.finality === 'finalized');
  },
};

/** The message filters of both routes' request struct (toncenter-newer.md §2). */
const MESSAGE_FILTER_PARAMS = {
  msg_hash: list(hash()),
  body_hash: hash(),
  opcode: opcode(),
  source: address(),
  destination: address(),
  direction: direction(),
};

/** Whether a request names a message filter, which joins messages onto transactions. */
export const filtersByMessage = (p: MessageFilterParams): boolean =>
  !!p.msgHash?.length || p.bodyHash !== undefined || p.opcode !== undefined || p.source !== undefined || p.destination !== undefined || p.direction !== undefined;

/** The params of /transactions, also the filters of GraphQL's transactions. */
export const TRANSACTIONS_PARAMS = {
  workchain: int32(),
  shard: shard(),
  seqno: int32(),
  mc_seqno: int32(),
  account: list(address()),
  exclude_account: list(address()),
  hash: list(hash()),
  lt: uint64(),
  ...MESSAGE_FILTER_PARAMS,
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...sortParam,
};

export const TRANSACTION_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/transactions',
    summary: 'Transactions by filter',
    params: TRANSACTIONS_PARAMS,
    response: 'TransactionsResponse',
    top: 'transactions',
    // by hash, or a block's own (a found block's transactions never change); other lists for the TTL
    cache: (p: TransactionsParams) =>
      p.hash?.length || (p.workchain !== undefined && p.shard !== undefined && p.seqno !== undefined) ? FINAL_TXS : TTL_CACHE,
    api: 'transactions',
    options: true,
    check: (p: TransactionsParams) => {
      if (p.direction !== undefined && !p.msgHash?.length && p.opcode === undefined) {
        throw new ApiError(422, 'direction can be specified only with msg_hash or opcode');
      }
    },
  }),

  v3Route({
    methods: ['GET'],
    path: '/transactionsByMasterchainBlock',
    summary: 'Transactions of a masterchain block and its shard blocks',
    params: { seqno: required(int32(), 'seqno is required'), ...pageParams, ...sortParam },
    response: 'TransactionsResponse',
    top: 'transactions',
    cache: FINAL_TXS,
    api: 'transactionsByMasterchainBlock',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/transactionsByMessage',
    summary: 'Transactions whose in or out message matches',
    params: { ...MESSAGE_FILTER_PARAMS, ...pageParams },
    response: 'TransactionsResponse',
    top: 'transactions',
    cache: NO_CACHE,
    api: 'transactionsByMessage',
    options: true,
    check: (p: TransactionsByMessageParams) => {
      if (!p.msgHash && p.bodyHash === undefined && p.opcode === undefined) {
        throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
      }
    },
  }),

  v3Route({
    methods: ['GET'],
    path: '/adjacentTransactions',
    summary: 'Parent or child transactions of a transaction',
    // the reference checks the direction first
    params: { hash: required(hash(), 'hash is required', 422, true), direction: direction() },
    response: 'TransactionsResponse',
    top: 'transactions',
    cache: NO_CACHE,
    api: 'adjacentTransactions',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/pendingTransactions',
    summary: 'Executed transactions not yet in a block',
    params: { account: required(list(address()), 'at least 1 account address required'), trace_id: list(hash()) },
    response: 'TransactionsResponse',
    top: 'transactions',
    // pending work changes until it is sealed
    cache: NO_CACHE,
    api: 'pendingTransactions',
    options: true,
  }),
];
