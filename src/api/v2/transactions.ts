/**
 * v2 transactions (v2.md §4.4, §9): an account's history, a block's transactions, and the transaction a message
 * caused or came from.
 */
import type { Address } from '@ton/core';
import { NO_CACHE, type CachePolicy } from '../descriptor.js';
import { ARRAY, endpoint, IMMUTABLE, object, READ, type V2Endpoint } from './endpoint.js';
import { blockParams, type BlockRefParams } from './blocks.js';
import type { AccountAddress, BlockIdExt, ExtraCurrency, TransactionId } from './objects.js';
import { accountId, address, at, bool, hash, int64, required } from './params.js';

export type MsgData =
  | { '@type': 'msg.dataRaw'; body: string; init_state: string }
  | { '@type': 'msg.dataText'; text: string }
  | { '@type': 'msg.dataDecryptedText'; text: string }
  | { '@type': 'msg.dataEncryptedText'; text: string };

/** Message as getTransactions / tryLocate* return it: addresses flattened to strings, plus `message`. */
export interface ExtMessage {
  '@type': 'ext.message';
  hash: string;
  source: string;
  destination: string;
  value: string;
  extra_currencies: ExtraCurrency[];
  fwd_fee: string;
  ihr_fee: string;
  created_lt: string;
  body_hash: string;
  msg_data: MsgData;
  message?: string;
  message_decode_error?: string;
}

/** Transaction as getTransactions / tryLocate* return it. */
export interface ExtTransaction {
  '@type': 'ext.transaction';
  address: AccountAddress;
  /** raw form "wc:HEX" */
  account: string;
  utime: number;
  data: string;
  transaction_id: TransactionId;
  fee: string;
  storage_fee: string;
  other_fee: string;
  in_msg?: ExtMessage;
  out_msgs: ExtMessage[];
}

/** Message in the std shapes (getTransactionsStd, getBlockTransactionsExt): addresses as accountAddress objects. */
export interface RawMessage {
  '@type': 'raw.message';
  hash: string;
  source: AccountAddress;
  destination: AccountAddress;
  value: string;
  extra_currencies: ExtraCurrency[];
  fwd_fee: string;
  ihr_fee: string;
  created_lt: string;
  body_hash: string;
  msg_data: MsgData;
}

export interface RawTransaction {
  '@type': 'raw.transaction';
  address: AccountAddress;
  utime: number;
  data: string;
  transaction_id: TransactionId;
  fee: string;
  storage_fee: string;
  other_fee: string;
  in_msg?: RawMessage;
  out_msgs: RawMessage[];
}

export interface RawTransactionExt extends Omit<RawTransaction, '@type'> {
  '@type': 'raw.transactionExt';
  /** raw form "wc:HEX" */
  account: string;
}

export interface TransactionsStd {
  '@type': 'raw.transactions';
  transactions: RawTransaction[];
  previous_transaction_id: TransactionId;
}

export interface ShortTxId {
  '@type': 'blocks.shortTxId';
  mode: number;
  /** raw form "wc:hex", lowercase */
  account: string;
  lt: string;
  hash: string;
}

export interface BlockTransactions {
  '@type': 'blocks.transactions';
  id: BlockIdExt;
  req_count: number;
  incomplete: boolean;
  transactions: ShortTxId[];
}

export interface BlockTransactionsExt {
  '@type': 'blocks.transactionsExt';
  id: BlockIdExt;
  req_count: number;
  incomplete: boolean;
  transactions: RawTransactionExt[];
}

export interface BlockTransactionsParams extends BlockRefParams {
  /** lt and account id of the last item of the previous page; given together or not at all */
  after?: { lt: bigint; accountHash: Buffer };
  count: number;
}

export interface TransactionsParams {
  address: Address;
  limit: number;
  /** start from this transaction (inclusive); absent = the account's last transaction */
  from?: { lt: bigint; hash: Buffer };
  /** stop at transactions with lt <= toLt (exclusive bound); 0 = no bound */
  toLt: bigint;
  archival: boolean;
}

export interface LocateTxParams {
  source: Address;
  destination: Address;
  createdLt: bigint;
}

export interface TransactionsApi {
  getBlockTransactions(p: BlockTransactionsParams): Promise<BlockTransactions>;
  getBlockTransactionsExt(p: BlockTransactionsParams): Promise<BlockTransactionsExt>;
  getTransactions(p: TransactionsParams): Promise<ExtTransaction[]>;
  getTransactionsStd(p: TransactionsParams): Promise<TransactionsStd>;
  tryLocateTx(p: LocateTxParams): Promise<ExtTransaction>;
  tryLocateResultTx(p: LocateTxParams): Promise<ExtTransaction>;
  tryLocateSourceTx(p: LocateTxParams): Promise<ExtTransaction>;
}

const blockTxParams = {
  ...blockParams,
  after_lt: at(int64(), { field: 'after.lt', min: 0, description: 'lt of the last transaction of the previous page' }),
  after_hash: at(accountId(), { field: 'after.accountHash', description: 'account of the last transaction of the previous page' }),
  count: at(int64(), { default: 40, min: 1, max: 10000, check: Number }),
};

const txParams = {
  address: required(address()),
  limit: at(int64(), { default: 10, min: 1, max: 1000, check: Number }),
  lt: at(int64(), { field: 'from.lt', min: 0, check: (lt: bigint) => (lt === 0n ? undefined : lt), description: 'start from this transaction (with hash); 0 = the last one' }),
  hash: at(hash(), { field: 'from.hash' }),
  to_lt: at(int64(), { default: 0n, min: 0 }),
  archival: at(bool(), { default: false }),
};

const locateParams = {
  source: required(address()),
  destination: required(address()),
  created_lt: required(at(int64(), { min: 0 })),
};

/** An empty list may only mean "not there yet"; keep lists that found something. */
const NON_EMPTY: CachePolicy = { kind: 'immutable', keep: (v) => !Array.isArray(v) || v.length > 0 };

const locate = (name: keyof TransactionsApi, summary: string): V2Endpoint =>
  endpoint({ name, methods: READ, category: 'Transactions', summary, params: locateParams, result: object('ext.transaction'), cache: IMMUTABLE });

export const TRANSACTIONS: readonly V2Endpoint[] = [
  endpoint({
    name: 'getBlockTransactions',
    methods: READ,
    category: 'Transactions',
    summary: 'Short transaction ids of a block, paged by after_lt/after_hash',
    params: blockTxParams,
    bareErrors: true,
    result: object('blocks.transactions'),
    cache: IMMUTABLE,
  }),
  endpoint({
    name: 'getBlockTransactionsExt',
    methods: READ,
    category: 'Transactions',
    summary: 'Full transactions of a block, paged by after_lt/after_hash',
    params: blockTxParams,
    bareErrors: true,
    result: object('blocks.transactionsExt'),
    cache: IMMUTABLE,
  }),
  // from a given transaction backwards the history is final; from "the latest" it grows
  endpoint({
    name: 'getTransactions',
    methods: READ,
    category: 'Transactions',
    summary: 'Transactions of an account, newest first',
    params: txParams,
    result: ARRAY,
    cache: (p) => (p.from ? NON_EMPTY : NO_CACHE),
  }),
  endpoint({
    name: 'getTransactionsStd',
    methods: READ,
    category: 'Transactions',
    summary: 'Transactions of an account in the raw.transactions shape',
    params: txParams,
    result: object('raw.transactions'),
    cache: (p) => (p.from ? IMMUTABLE : NO_CACHE),
  }),
  locate('tryLocateTx', 'Same as tryLocateResultTx'),
  locate('tryLocateResultTx', 'Transaction on destination caused by the message source → destination with created_lt'),
  locate('tryLocateSourceTx', 'Transaction on source that sent the message source → destination with created_lt'),
];
