/**
 * The v2 seam: one method per toncenter API v2 endpoint (../shared/reference/v2.md, C++ variant 2.1.x).
 *
 * Parameters arrive already validated and parsed by the surface (addresses as @ton/core Address,
 * hashes as 32-byte Buffers, int64 values as bigint). Results are the exact JSON shapes toncenter
 * puts in `result`, `@type` included, so a surface serialises them as they are.
 */
import type { Address } from '@ton/core';

// ---- shared tonlib objects (v2.md §1.3) ----

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

// ---- messages and transactions (v2.md §4.4, §9) ----

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

// ---- accounts (v2.md §4.2, §6, §7) ----

export type AccountStateName = 'uninitialized' | 'active' | 'frozen';

export interface FullAccountState {
  '@type': 'raw.fullAccountState';
  balance: string;
  extra_currencies: ExtraCurrency[];
  code: string;
  data: string;
  last_transaction_id: TransactionId;
  block_id: BlockIdExt;
  frozen_hash: string;
  sync_utime: number;
  state: AccountStateName;
  suspended?: boolean;
}

export type ExtendedAccountState =
  | { '@type': 'raw.accountState'; code: string; data: string; frozen_hash: string }
  | { '@type': 'wallet.v3.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'wallet.v4.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'wallet.v5.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'uninited.accountState'; frozen_hash: string };

export interface ExtendedAddressInformation {
  '@type': 'fullAccountState';
  address: AccountAddress;
  balance: string;
  extra_currencies: ExtraCurrency[];
  last_transaction_id: TransactionId;
  block_id: BlockIdExt;
  sync_utime: number;
  account_state: ExtendedAccountState;
  revision: number;
}

export type WalletType =
  | 'wallet v1 r1'
  | 'wallet v1 r2'
  | 'wallet v1 r3'
  | 'wallet v2 r1'
  | 'wallet v2 r2'
  | 'wallet v3 r1'
  | 'wallet v3 r2'
  | 'wallet v4 r1'
  | 'wallet v4 r2'
  | 'wallet v5 beta'
  | 'wallet v5 r1';

export interface WalletInformation {
  '@type': 'ext.accounts.walletInformation';
  wallet: boolean;
  balance: string;
  account_state: AccountStateName;
  last_transaction_id: TransactionId;
  wallet_type?: WalletType;
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

export type TokenContent =
  | { type: 'onchain'; data: Record<string, string> }
  | { type: 'offchain'; data: string };

export type TokenData =
  | {
      '@type': 'ext.tokens.jettonMasterData';
      contract_type: 'jetton_master';
      address: string;
      total_supply: string;
      mintable: boolean;
      admin_address?: string;
      jetton_content: TokenContent;
      jetton_wallet_code: string;
    }
  | {
      '@type': 'ext.tokens.jettonWalletData';
      contract_type: 'jetton_wallet';
      address: string;
      balance: string;
      owner: string;
      jetton: string;
      jetton_wallet_code: string;
      mintless_is_claimed?: boolean;
    }
  | {
      '@type': 'ext.tokens.nftCollectionData';
      contract_type: 'nft_collection';
      address: string;
      next_item_index: string;
      owner_address?: string;
      collection_content: TokenContent;
    }
  | {
      '@type': 'ext.tokens.nftItemData';
      contract_type: 'nft_item';
      address: string;
      init: boolean;
      index: string;
      collection_address?: string;
      owner_address?: string;
      content: TokenContent | Record<string, unknown>;
    };

// ---- blocks (v2.md §4.3, §4.4) ----

export interface MasterchainInfo {
  '@type': 'blocks.masterchainInfo';
  last: BlockIdExt;
  state_root_hash: string;
  init: BlockIdExt;
}

export interface BlockSignatures {
  '@type': 'blocks.blockSignatures';
  id: BlockIdExt;
  signatures: { '@type': 'blocks.signature'; node_id_short: string; signature: string }[];
}

export interface ShardBlockProof {
  '@type': 'blocks.shardBlockProof';
  from: BlockIdExt;
  mc_id: BlockIdExt;
  links: { '@type': 'blocks.shardBlockLink'; id: BlockIdExt; proof: string }[];
  mc_proof: {
    '@type': 'blocks.blockLinkBack';
    to_key_block: boolean;
    from: BlockIdExt;
    to: BlockIdExt;
    dest_proof: string;
    proof: string;
    state_proof: string;
  }[];
}

export interface ConsensusBlock {
  '@type': 'ext.blocks.consensusBlock';
  consensus_block: number;
  timestamp: number;
}

export interface Shards {
  '@type': 'blocks.shards';
  shards: BlockIdExt[];
}

export interface BlockHeader {
  '@type': 'blocks.header';
  id: BlockIdExt;
  global_id: number;
  version: number;
  flags: number;
  after_merge: boolean;
  after_split: boolean;
  before_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  validator_list_hash_short: number;
  catchain_seqno: number;
  min_ref_mc_seqno: number;
  is_key_block: boolean;
  prev_key_block_seqno: number;
  start_lt: string;
  end_lt: string;
  gen_utime: number;
  vert_seqno: number;
  prev_blocks: BlockIdExt[];
}

export interface OutMsgQueueSizes {
  '@type': 'blocks.outMsgQueueSizes';
  shards: { '@type': 'blocks.outMsgQueueSize'; id: BlockIdExt; size: number }[];
  ext_msg_queue_size_limit: number;
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

// ---- send, fees, get-methods (v2.md §4.5, §4.6, §5) ----

export interface Ok {
  '@type': 'ok';
}

export interface ExtMessageInfo {
  '@type': 'raw.extMessageInfo';
  hash: string;
  hash_norm: string;
}

export interface Fees {
  '@type': 'fees';
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface QueryFees {
  '@type': 'query.fees';
  source_fees: Fees;
  destination_fees: Fees[];
}

/** A legacy stack entry: ["num","0x.."], ["cell",{bytes,object}], ["tuple",{...}], ["list",{...}], ["null"]. */
export type LegacyStackEntry = [string, unknown] | [string];

export type StdStackEntry =
  | { '@type': 'tvm.stackEntryNumber'; number: { '@type': 'tvm.numberDecimal'; number: string } }
  | { '@type': 'tvm.stackEntryCell'; cell: TvmCell }
  | { '@type': 'tvm.stackEntrySlice'; slice: { '@type': 'tvm.slice'; bytes: string } }
  | { '@type': 'tvm.stackEntryTuple'; tuple: { '@type': 'tvm.tuple'; elements: StdStackEntry[] } }
  | { '@type': 'tvm.stackEntryList'; list: { '@type': 'tvm.list'; elements: StdStackEntry[] } }
  | { '@type': 'tvm.stackEntryUnsupported' };

export interface RunResult {
  '@type': 'smc.runResult';
  gas_used: number;
  stack: LegacyStackEntry[];
  exit_code: number;
  block_id: BlockIdExt;
  last_transaction_id: TransactionId;
}

export interface RunResultStd {
  '@type': 'smc.runResult';
  gas_used: number;
  stack: StdStackEntry[];
  exit_code: number;
}

// ---- utils and config (v2.md §4.7, §4.8, §8) ----

export interface DetectedAddressVariant {
  '@type': 'ext.utils.detectedAddressVariant';
  b64: string;
  b64url: string;
}

export interface DetectedAddress {
  '@type': 'ext.utils.detectedAddress';
  raw_form: string;
  bounceable: DetectedAddressVariant;
  non_bounceable: DetectedAddressVariant;
  given_type: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
  test_only: boolean;
}

export interface DetectedHash {
  '@type': 'ext.utils.detectedHash';
  b64: string;
  b64url: string;
  hex: string;
}

export interface ConfigInfo {
  '@type': 'configInfo';
  config: TvmCell;
}

export interface LibraryResult {
  '@type': 'smc.libraryResult';
  result: { '@type': 'smc.libraryEntry'; hash: string; data: string }[];
}

// ---- parameters ----

/** Optional masterchain seqno: read the state as of that masterchain block. */
export interface AtSeqno {
  seqno?: number;
}

export interface AddressParams extends AtSeqno {
  address: Address;
}

export interface BlockRefParams {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
}

export interface BlockTransactionsParams extends BlockRefParams {
  /** lt and account id of the last item of the previous page; given together or not at all */
  after?: { lt: bigint; accountHash: Buffer };
  count: number;
}

export interface LookupBlockParams {
  workchain: number;
  shard: bigint;
  /** exactly one of seqno, lt, unixtime */
  seqno?: number;
  lt?: bigint;
  unixtime?: number;
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

export interface EstimateFeeParams {
  address: Address;
  body: Buffer;
  initCode?: Buffer;
  initData?: Buffer;
  ignoreChksig: boolean;
}

export interface RunGetMethodParams extends AtSeqno {
  address: Address;
  /** method name or numeric id */
  method: string | number;
}

export interface ShardBlockProofParams {
  workchain: number;
  shard: bigint;
  seqno: number;
  fromSeqno?: number;
}

/** A get-method argument after parsing either stack format. */
export type StackArg =
  | { type: 'int'; value: bigint }
  | { type: 'cell'; boc: Buffer }
  | { type: 'slice'; boc: Buffer }
  | { type: 'builder'; boc: Buffer }
  | { type: 'null' }
  | { type: 'tuple'; items: StackArg[] };

/** The v2 interface as a data source answers it. */
export interface V2Api {
  getAddressInformation(p: AddressParams): Promise<FullAccountState>;
  getExtendedAddressInformation(p: AddressParams): Promise<ExtendedAddressInformation>;
  getWalletInformation(p: AddressParams): Promise<WalletInformation>;
  getAddressBalance(p: AddressParams): Promise<string>;
  getAddressState(p: AddressParams): Promise<AccountStateName>;
  getTokenData(p: AddressParams): Promise<TokenData>;

  getMasterchainInfo(): Promise<MasterchainInfo>;
  getMasterchainBlockSignatures(p: { seqno: number }): Promise<BlockSignatures>;
  getShardBlockProof(p: ShardBlockProofParams): Promise<ShardBlockProof>;
  getConsensusBlock(): Promise<ConsensusBlock>;
  lookupBlock(p: LookupBlockParams): Promise<BlockIdExt>;
  getShards(p: { seqno: number }): Promise<Shards>;
  getBlockHeader(p: BlockRefParams): Promise<BlockHeader>;
  getOutMsgQueueSize(): Promise<OutMsgQueueSizes>;

  getBlockTransactions(p: BlockTransactionsParams): Promise<BlockTransactions>;
  getBlockTransactionsExt(p: BlockTransactionsParams): Promise<BlockTransactionsExt>;
  getTransactions(p: TransactionsParams): Promise<ExtTransaction[]>;
  getTransactionsStd(p: TransactionsParams): Promise<TransactionsStd>;
  tryLocateTx(p: LocateTxParams): Promise<ExtTransaction>;
  tryLocateResultTx(p: LocateTxParams): Promise<ExtTransaction>;
  tryLocateSourceTx(p: LocateTxParams): Promise<ExtTransaction>;

  sendBoc(p: { boc: Buffer }): Promise<Ok>;
  sendBocReturnHash(p: { boc: Buffer }): Promise<ExtMessageInfo>;
  estimateFee(p: EstimateFeeParams): Promise<QueryFees>;

  runGetMethod(p: RunGetMethodParams & { stack: StackArg[] }): Promise<RunResult>;
  runGetMethodStd(p: RunGetMethodParams & { stack: StackArg[] }): Promise<RunResultStd>;

  detectAddress(p: { address: string }): Promise<DetectedAddress>;
  detectHash(p: { hash: string }): Promise<DetectedHash>;
  packAddress(p: { address: string }): Promise<string>;
  unpackAddress(p: { address: string }): Promise<string>;

  getConfigParam(p: AtSeqno & { configId: number }): Promise<ConfigInfo>;
  getConfigAll(p: AtSeqno): Promise<ConfigInfo>;
  getLibraries(p: { libraries: Buffer[] }): Promise<LibraryResult>;
}

export type V2Method = keyof V2Api;
