/** v3 transactions (v3.md §2.1): by filter, by masterchain block, by message, adjacent ones, pending ones. */
import { NO_CACHE, type CachePolicy } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { TransactionsByMessageParams, TransactionsParams } from '../v3.js';
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

/** Found and final: pending or merely confirmed transactions can still change or vanish. */
const FINAL_TXS: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const txs = listOf(v, 'transactions');
    return txs.length > 0 && txs.every((t) => t.finality === undefined || t.finality === 'finalized');
  },
};

export const TRANSACTION_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/transactions',
    summary: 'Transactions by filter',
    params: {
      workchain: int32(),
      shard: shard(),
      seqno: int32(),
      mc_seqno: int32(),
      account: list(address()),
      exclude_account: list(address()),
      hash: list(hash()),
      lt: uint64(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'TransactionsResponse',
    top: 'transactions',
    cache: (p: TransactionsParams) => (p.hash?.length ? FINAL_TXS : NO_CACHE),
    api: 'transactions',
    options: true,
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
    params: { msg_hash: list(hash()), body_hash: hash(), opcode: opcode(), direction: direction(), ...pageParams },
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
