/** tonlib objects shared by the v2 endpoint groups (v2.md §1.3). */

export interface BlockIdExt {
  '@type': 'ton.blockIdExt';
  workchain: number;
  /** signed 64-bit integer as a decimal string */
  shard: string;
  seqno: number;
  /** base64 */
  root_hash: string;
  /** base64 */
  file_hash: string;
}

export interface TransactionId {
  '@type': 'internal.transactionId';
  lt: string;
  /** base64 */
  hash: string;
}

export interface ExtraCurrency {
  '@type': 'extraCurrency';
  id: number;
  amount: string;
}

export interface AccountAddress {
  '@type': 'accountAddress';
  account_address: string;
}

export interface TvmCell {
  '@type': 'tvm.cell';
  bytes: string;
}

/** Optional masterchain seqno: read the state as of that masterchain block. */
export interface AtSeqno {
  seqno?: number;
}
