/**
 * The v3 seam: one method per toncenter Indexer API v3 route of part 1 (blocks, transactions, messages,
 * accounts and the legacy v2 proxies).
 *
 * Shapes come from ../shared/reference/v3.md (§1.3 output formats, §2.1–§2.2, §2.7, §3) which reads the Go
 * server `toncenter/ton-indexer` ton-index-go (`models/blockchain.go`, `models/v2.go`, `models/types.go`),
 * checked against ../shared/reference/v3-openapi.json (1.2.4) and the recorded testnet response in
 * test/fixtures/axelar-relayer-ton.v3_transactions.json. Where they differ v3.md wins:
 * - `opcode` is the string "0x%08x" (the openapi says integer; the recorded response has strings);
 * - Go pointer fields without `omitempty` serialise as `null` (the openapi cannot say nullable);
 * - `masterchainBlockShards`/`masterchainBlockShardState` answer `{"blocks"}` (the openapi says TransactionsResponse);
 * - `runGetMethod` answers the result object (the openapi reuses the request schema);
 * - address_book rows carry `interfaces` (absent from the openapi's AddressBookRow).
 *
 * Parameters arrive validated and parsed by the surface: addresses as @ton/core Address, hashes as 32-byte
 * Buffers, lt as bigint, sort normalised to 'asc' | 'desc'. `limit`/`offset` arrive as the integers the
 * client sent (or absent); the source applies the reference's default, clamping and 422 (`resolvePage`).
 * Results are the JSON objects the route answers, with no envelope.
 */
import type { Address } from '@ton/core';
import { ApiError } from './errors.js';
import type { StackArg, WalletType } from './v2.js';
import type { V3OtherApi } from './v3-other.js';
import type { V3TokensApi } from './v3-tokens.js';
import type { V3TracesApi } from './v3-traces.js';

// ---- enumerations (v3.md §7) ----

export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';
export type DescrType = 'ord' | 'storage' | 'tick_tock' | 'split_prepare' | 'split_install' | 'merge_prepare' | 'merge_install';
export type StatusChange = 'unchanged' | 'frozen' | 'deleted';
export type SkipReason = 'no_state' | 'bad_state' | 'no_gas' | 'suspended';
export type BounceType = 'negfunds' | 'nofunds' | 'ok';
export type Finality = 'pending' | 'confirmed' | 'finalized';
export type Sort = 'asc' | 'desc';
export type Direction = 'in' | 'out';

/** Extra currencies as v3 prints them: `{ "<currency id>": "<amount>" }`. */
export type ExtraCurrencies = Record<string, string>;

// ---- blocks (v3.md §3.0 "Block fields") ----

export interface BlockId {
  workchain: number;
  /** uppercase hex of the uint64 shard id, e.g. "8000000000000000" */
  shard: string;
  seqno: number;
}

export interface Block {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
  global_id: number;
  version: number;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  gen_utime: string;
  start_lt: string;
  end_lt: string;
  validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  vert_seqno: number;
  master_ref_seqno: number;
  rand_seed: string;
  created_by: string;
  tx_count: number;
  masterchain_block_ref: BlockId;
  prev_blocks: BlockId[];
}

export interface MasterchainInfo {
  last: Block;
  first: Block;
}

export interface BlocksResponse {
  blocks: Block[];
}

// ---- messages (v3.md §3.0 "Message") ----

export interface MessageContent {
  /** cell hash of the body (or of the StateInit for `init_state`) */
  hash: string | null;
  /** BoC, base64 */
  body: string | null;
  /** `{type:"text_comment", comment}` for op 0 text bodies, otherwise null */
  decoded: Record<string, unknown> | null;
}

export interface Message {
  hash: string;
  /** raw uppercase; null for external-in */
  source: string | null;
  /** raw uppercase; null for external-out */
  destination: string | null;
  /** internal only; null on external messages */
  value: string | null;
  value_extra_currencies: ExtraCurrencies | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  extra_flags: string | null;
  /** null on external-in */
  created_lt: string | null;
  created_at: string | null;
  /** "0x%08x" of the body's first 32 bits; null when the body is shorter */
  opcode: string | null;
  decoded_opcode: string | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /** external-in only */
  import_fee: string | null;
  /** only on /messages: the transaction that received it */
  in_msg_tx_hash?: string;
  /** only on /messages: the transaction that sent it */
  out_msg_tx_hash?: string;
  message_content: MessageContent | null;
  init_state: MessageContent | null;
  /** TEP-467 normalised hash, external-in messages only */
  hash_norm?: string;
}

// ---- transactions (v3.md §3.0 "Transaction"; phases are omitted, not null, when absent) ----

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

// ---- address_book and metadata (v3.md §3.1, §3.2) ----

export interface AddressBookRow {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[] | null;
}

/** Keyed by raw uppercase address (by the caller's input strings on /addressBook). */
export type AddressBook = Record<string, AddressBookRow>;

export interface TokenInfo {
  valid?: boolean;
  type?: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

export type Metadata = Record<string, AddressMetadata>;

// ---- responses ----

export interface TransactionsResponse {
  transactions: Transaction[];
  address_book: AddressBook;
}

export interface MessagesResponse {
  messages: Message[];
  address_book: AddressBook;
  metadata: Metadata;
}

/** v3.md §2.2 AccountStateFull. */
export interface AccountStateFull {
  address: string;
  account_state_hash: string;
  balance: string | null;
  extra_currencies: ExtraCurrencies | null;
  status: AccountStatus | null;
  frozen_hash?: string;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
  data_hash?: string;
  code_hash?: string;
  data_boc?: string;
  code_boc?: string;
  /** get-method ids found in the code, or null */
  contract_methods: number[] | null;
  interfaces: string[] | null;
}

export interface AccountStatesResponse {
  accounts: AccountStateFull[];
  address_book: AddressBook;
  metadata: Metadata;
}

/** Exact strings of v3.md §2.2 (`parse/wallet_parse.go`): the same names v2 uses. */
export type V3WalletType = WalletType;

export interface WalletState {
  address: string;
  is_wallet: boolean;
  wallet_type?: V3WalletType;
  seqno?: number;
  wallet_id?: number;
  balance?: string;
  extra_currencies?: ExtraCurrencies;
  /** v5 only */
  is_signature_allowed?: boolean;
  status?: AccountStatus;
  code_hash?: string;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
}

export interface WalletStatesResponse {
  wallets: WalletState[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface AccountBalance {
  account: string;
  balance: string;
}

// ---- legacy v2 proxies (v3.md §2.7; `models/v2.go`) ----

export interface V2AddressInformation {
  balance: string;
  code: string | null;
  data: string | null;
  last_transaction_lt: string | null;
  last_transaction_hash: string | null;
  frozen_hash: string | null;
  /** v3 path: uninit|active|frozen|nonexist; use_v2 path: v2's uninitialized|active|frozen */
  status: string;
}

export interface V2WalletInformation {
  balance: string;
  wallet_type?: V3WalletType;
  seqno?: number;
  wallet_id?: number;
  last_transaction_lt: string;
  last_transaction_hash: string;
  status: string;
}

export interface V2SendMessageResult {
  message_hash: string;
  message_hash_norm?: string;
}

/** A result stack entry: numbers as "0x…" hex (negative as "-0x…"), cells and slices as BoC base64. */
export type V3StackEntry =
  | { type: 'num'; value: string }
  | { type: 'cell'; value: string }
  | { type: 'slice'; value: string }
  | { type: 'tuple'; value: V3StackEntry[] }
  | { type: 'list'; value: V3StackEntry[] };

export interface V2RunGetMethodResult {
  gas_used: number;
  exit_code: number;
  stack: V3StackEntry[];
}

export interface V2EstimatedFee {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface V2EstimateFeeResult {
  source_fees: V2EstimatedFee;
  destination_fees: V2EstimatedFee[];
}

// ---- parameters ----

/** Per-request switches (X-No-Address-Book / X-No-Metadata, v3.md §1.1): the key is then `{}`. */
export interface V3Options {
  noAddressBook?: boolean;
  noMetadata?: boolean;
}

/** Raw paging input; see `resolvePage` for the rules. */
export interface PageParams {
  limit?: number;
  offset?: number;
}

export interface SortParams {
  /** absent = the route's default (desc everywhere except /blocks, which then has no order) */
  sort?: Sort;
}

export interface UtimeWindow {
  startUtime?: number;
  endUtime?: number;
}

export interface LtWindow {
  startLt?: bigint;
  endLt?: bigint;
}

export interface BlocksParams extends PageParams, SortParams, UtimeWindow, LtWindow {
  workchain?: number;
  /** 64-bit shard id in any representation (signed or unsigned); compared modulo 2^64 */
  shard?: bigint;
  seqno?: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
  /** filters the masterchain block that committed the block */
  mcSeqno?: number;
}

export interface TransactionsParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  workchain?: number;
  shard?: bigint;
  seqno?: number;
  mcSeqno?: number;
  account?: Address[];
  /** parsed but not applied, as in the reference (v3.md §2.1) */
  excludeAccount?: Address[];
  hash?: Buffer[];
  lt?: bigint;
}

export interface McSeqnoPageParams extends PageParams, SortParams, V3Options {
  seqno: number;
}

export interface TransactionsByMessageParams extends PageParams, V3Options {
  /** matches the message hash or its normalised hash */
  msgHash?: Buffer[];
  bodyHash?: Buffer;
  /** signed or unsigned 32-bit; compared as uint32 */
  opcode?: number;
  direction?: Direction;
}

export interface AdjacentTransactionsParams extends V3Options {
  hash: Buffer;
  /** absent = both */
  direction?: Direction;
}

export interface MessagesParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  /** `msg_hash[]` plus the legacy single `hash`; matches either the hash or the normalised hash */
  msgHash?: Buffer[];
  bodyHash?: Buffer;
  /** null = external-in only (source IS NULL) */
  source?: Address | null;
  /** null = external-out only (destination IS NULL) */
  destination?: Address | null;
  opcode?: number;
  direction?: Direction;
  excludeExternals?: boolean;
  onlyExternals?: boolean;
}

export interface AccountStatesParams extends V3Options {
  address: Address[];
  /** default true */
  includeBoc?: boolean;
  codeHash?: Buffer[];
}

export interface WalletStatesParams extends V3Options {
  address: Address[];
}

export interface AddressBookParams {
  /** the caller's strings, unparsed: the answer is keyed by them and unparseable ones get user_friendly null */
  address: string[];
}

export interface LegacyAccountParams {
  address: Address;
  /** default false: read the indexed state; true: go through the v2 interface */
  useV2?: boolean;
}

export interface V3RunGetMethodParams {
  address: Address;
  /** method name or numeric id */
  method: string | number;
  stack: StackArg[];
}

export interface V3EstimateFeeParams {
  address: Address;
  body: Buffer;
  initCode?: Buffer;
  initData?: Buffer;
  ignoreChksig: boolean;
}

/** The v3 interface, part 1, as a data source answers it. */
export interface V3CoreApi {
  masterchainInfo(): Promise<MasterchainInfo>;
  blocks(p: BlocksParams): Promise<BlocksResponse>;
  /** every block committed by masterchain block `seqno`; 404 `blocks not found` */
  masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse>;
  /** the shard tops of masterchain block `seqno`; 404 `blocks not found` */
  masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse>;

  transactions(p: TransactionsParams): Promise<TransactionsResponse>;
  transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse>;
  transactionsByMessage(p: TransactionsByMessageParams): Promise<TransactionsResponse>;
  adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse>;
  messages(p: MessagesParams): Promise<MessagesResponse>;

  accountStates(p: AccountStatesParams): Promise<AccountStatesResponse>;
  walletStates(p: WalletStatesParams): Promise<WalletStatesResponse>;
  addressBook(p: AddressBookParams): Promise<AddressBook>;
  topAccountsByBalance(p: PageParams): Promise<AccountBalance[]>;

  addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation>;
  walletInformation(p: LegacyAccountParams): Promise<V2WalletInformation>;
  message(p: { boc: Buffer }): Promise<V2SendMessageResult>;
  runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult>;
  estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult>;
}

/** The whole v3 interface: part 1 plus the token, trace and other routes of part 2. */
export interface V3Api extends V3CoreApi, V3TokensApi, V3TracesApi, V3OtherApi {}

// ---- paging rules shared by surface and source (v3.md §1.4) ----

export const V3_DEFAULT_LIMIT = 100;
export const V3_MAX_LIMIT = 1000;

/** Default 100, values < 1 raised to 1, > 1000 a 422, negative offsets clamped to 0. */
export function resolvePage(p: PageParams, defaultLimit = V3_DEFAULT_LIMIT): { limit: number; offset: number } {
  let limit = p.limit ?? defaultLimit;
  if (limit > V3_MAX_LIMIT) throw new ApiError(422, `limit is not allowed: ${limit} > ${V3_MAX_LIMIT}`);
  if (limit < 1) limit = 1;
  const offset = Math.max(0, p.offset ?? 0);
  return { limit, offset };
}
