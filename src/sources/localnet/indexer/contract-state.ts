/**
 * What the contract index keeps (indexer/contracts.ts): the decoded state of each token, DNS, multisig and
 * vesting contract.
 */
import type { Address, Cell } from '@ton/core';
import type { Content, DnsEntry } from '../../../model/contract-data.js';

export type ContractKind = 'jetton_master' | 'jetton_wallet' | 'nft_collection' | 'nft_item' | 'nft_sale' | 'multisig' | 'multisig_order' | 'vesting';

export interface ContractBase {
  /** discovery order: the reference's `id` column */
  id: number;
  /** raw uppercase */
  raw: string;
  address: Address;
  lastLt: bigint;
  codeHash: string;
  dataHash: string;
}

export interface JettonMasterState extends ContractBase {
  kind: 'jetton_master';
  totalSupply: bigint;
  mintable: boolean;
  admin: string | null;
  content: Content | null;
  /** whether the content is on-chain (its metadata is then known without a fetcher) */
  onchain: boolean;
  walletCodeHash: string;
}

export interface JettonWalletState extends ContractBase {
  kind: 'jetton_wallet';
  balance: bigint;
  owner: string;
  jetton: string;
}

export interface NftCollectionState extends ContractBase {
  kind: 'nft_collection';
  nextItemIndex: bigint;
  owner: string | null;
  content: Content | null;
  onchain: boolean;
}

export interface NftItemState extends ContractBase {
  kind: 'nft_item';
  init: boolean;
  index: bigint;
  collection: string | null;
  owner: string | null;
  content: Content | null;
  onchain: boolean;
  dns: DnsEntry | null;
}

/** The first value of `get_sale_data`: "FIXP" for a fixed-price sale, "AUC" for an auction. */
export const SALE_MAGIC = { getgems_sale: 0x46495850n, getgems_auction: 0x415543n } as const;

/** A GetGems-style sale ("FIXP") or auction ("AUC") contract, from `get_sale_data`. */
export interface NftSaleState extends ContractBase {
  kind: 'nft_sale';
  saleType: 'getgems_sale' | 'getgems_auction';
  nft: string | null;
  /** the seller: the item's real owner while the contract holds it */
  owner: string | null;
  marketplace: string | null;
  /** the full price of a sale, the last bid of an auction (nanoton) */
  price: bigint;
  /** sold or cancelled (a sale's is_complete; an auction's end flag or is_canceled) */
  complete: boolean;
}

export interface MultisigState extends ContractBase {
  kind: 'multisig';
  nextOrderSeqno: bigint;
  threshold: number;
  signers: string[];
  proposers: string[];
}

export interface MultisigOrderState extends ContractBase {
  kind: 'multisig_order';
  multisig: string;
  orderSeqno: bigint;
  threshold: number | null;
  sentForExecution: boolean | null;
  signers: string[];
  approvalsMask: bigint | null;
  approvalsNum: number | null;
  expirationDate: number | null;
  order: Cell | null;
}

export interface VestingState extends ContractBase {
  kind: 'vesting';
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: string | null;
  owner: string | null;
  whitelist: string[];
}

export type ContractState =
  | JettonMasterState
  | JettonWalletState
  | NftCollectionState
  | NftItemState
  | NftSaleState
  | MultisigState
  | MultisigOrderState
  | VestingState;

export type StateOf<K extends ContractKind> = Extract<ContractState, { kind: K }>;
