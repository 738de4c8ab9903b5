/**
 * The v3 seam, part 2: jettons, NFTs and /metadata (v3.md §2.2 metadata, §2.3, §2.4). Shapes and params as the
 * reference answers them (`models/jetton.go`, `models/nft.go` of ton-index-go): Go pointer fields without
 * omitempty are `null` when absent, bigints are decimal strings, addresses raw uppercase, hashes base64.
 */
import type { Address } from '@ton/core';
import type { AddressBook, LtWindow, Metadata, PageParams, SortParams, UtimeWindow, V3Options } from './v3.js';

// ---- objects ----

export interface JettonMaster {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  /** TEP-64 content: on-chain keys as an object, off-chain as `{"uri": …}` */
  jetton_content: Record<string, unknown> | null;
  jetton_wallet_code_hash: string;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
}

export interface JettonWalletMintlessInfo {
  amount: string | null;
  start_from: number | null;
  expire_at: number | null;
  custom_payload_api_uri: string[] | null;
}

export interface JettonWallet {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  /** only for unclaimed mintless wallets (none on the local chain) */
  mintless_info?: JettonWalletMintlessInfo;
}

export interface JettonTransfer {
  query_id: string;
  /** owner of the sending wallet (the in-message's sender) */
  source: string;
  /** owner the jettons go to (the body's destination) */
  destination: string;
  amount: string;
  source_wallet: string;
  jetton_master: string;
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  response_destination: string | null;
  custom_payload: string | null;
  decoded_custom_payload: Record<string, unknown> | null;
  forward_ton_amount: string | null;
  forward_payload: string | null;
  decoded_forward_payload: Record<string, unknown> | null;
  trace_id: string | null;
}

export interface JettonBurn {
  query_id: string;
  owner: string;
  jetton_wallet: string;
  jetton_master: string;
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  amount: string;
  response_destination: string | null;
  custom_payload: string | null;
  decoded_custom_payload: Record<string, unknown> | null;
  trace_id: string | null;
}

export interface NftCollection {
  address: string;
  owner_address: string | null;
  last_transaction_lt: string;
  next_item_index: string;
  collection_content: Record<string, unknown> | null;
  data_hash: string;
  code_hash: string;
}

export interface NftItem {
  address: string;
  init: boolean;
  index: string;
  collection_address: string | null;
  owner_address: string | null;
  content: Record<string, unknown> | null;
  last_transaction_lt: string;
  code_hash: string;
  data_hash: string;
  collection: NftCollection | null;
  on_sale: boolean;
  sale_contract_address?: string;
  auction_contract_address?: string;
  real_owner?: string;
}

export interface NftTransfer {
  query_id: string;
  nft_address: string;
  nft_collection: string | null;
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  old_owner: string;
  new_owner: string;
  response_destination: string | null;
  custom_payload: string | null;
  decoded_custom_payload: Record<string, unknown> | null;
  forward_amount: string | null;
  forward_payload: string | null;
  decoded_forward_payload: Record<string, unknown> | null;
  trace_id: string | null;
}

// ---- responses ----

export interface JettonMastersResponse {
  jetton_masters: JettonMaster[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonWalletsResponse {
  jetton_wallets: JettonWallet[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonTransfersResponse {
  jetton_transfers: JettonTransfer[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonBurnsResponse {
  jetton_burns: JettonBurn[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface NftCollectionsResponse {
  nft_collections: NftCollection[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface NftItemsResponse {
  nft_items: NftItem[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface NftTransfersResponse {
  nft_transfers: NftTransfer[];
  address_book: AddressBook;
  metadata: Metadata;
}

// ---- parameters ----

export interface JettonMastersParams extends PageParams, V3Options {
  address?: Address[];
  adminAddress?: Address[];
}

export interface JettonWalletsParams extends PageParams, SortParams, V3Options {
  address?: Address[];
  ownerAddress?: Address[];
  /** more than one needs exactly one ownerAddress (checked by the surface) */
  jettonAddress?: Address[];
  excludeZeroBalance?: boolean;
}

export interface JettonTransfersParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  ownerAddress?: Address[];
  jettonWallet?: Address[];
  jettonMaster?: Address;
  /** with ownerAddress only: 'in' matches the destination, 'out' the source, absent either */
  direction?: 'in' | 'out';
}

export interface JettonBurnsParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  ownerAddress?: Address[];
  jettonWallet?: Address[];
  jettonMaster?: Address;
}

export interface NftCollectionsParams extends PageParams, V3Options {
  collectionAddress?: Address[];
  ownerAddress?: Address[];
}

export interface NftItemsParams extends PageParams, V3Options {
  address?: Address[];
  ownerAddress?: Address[];
  collectionAddress?: Address[];
  /** decimal item indexes; only with collectionAddress (checked by the surface) */
  index?: string[];
  includeOnSale?: boolean;
  sortByLastTransactionLt?: boolean;
}

export interface NftTransfersParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  ownerAddress?: Address[];
  itemAddress?: Address[];
  collectionAddress?: Address;
  /** with ownerAddress only: 'in' matches the new owner, 'out' the old one, absent either */
  direction?: 'in' | 'out';
}

export interface MetadataParams {
  /** the caller's strings; unparseable ones are skipped, as the reference skips them */
  address: string[];
}

export interface V3TokensApi {
  jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse>;
  jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse>;
  jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse>;
  jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse>;
  nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse>;
  nftItems(p: NftItemsParams): Promise<NftItemsResponse>;
  nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse>;
  /** GET /metadata (named so it does not clash with LocalV3Context.metadata) */
  addressMetadata(p: MetadataParams): Promise<Metadata>;
}
