/** v3 NFTs (v3.md §2.4): collections, items and transfers. */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, LtWindow, Metadata, PageParams, SortParams, UtimeWindow, V3Options } from './common.js';
import { address, bool, list, ltParams, pageParams, required, sortParam, text, utimeParams, v3Route } from './params.js';
import { legacyOwner, transferDirection } from './tokens-common.js';

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

export type NftSaleType = 'getgems_sale' | 'getgems_auction' | 'telemint';

/** `details` of a GetGems fixed-price sale; every key is left out when null. */
export interface GetgemsSaleDetails {
  is_complete?: boolean;
  full_price?: string;
  marketplace_fee_address?: string;
  marketplace_fee?: string;
  royalty_address?: string;
  royalty_amount?: string;
}

/** `details` of a GetGems auction; every key is left out when null. */
export interface GetgemsAuctionDetails {
  end_flag?: boolean;
  end_time?: number;
  last_bid?: string;
  last_member?: string;
  min_step?: string;
  mp_fee_address?: string;
  mp_fee_factor?: string;
  mp_fee_base?: string;
  royalty_fee_address?: string;
  royalty_fee_factor?: string;
  royalty_fee_base?: string;
  max_bid?: string;
  min_bid?: string;
  last_bid_at?: number;
  is_canceled?: boolean;
}

/** `details` of a Telegram (telemint) item; every key is left out when null. */
export interface TelemintDetails {
  token_name?: string;
  bidder_address?: string;
  bid?: string;
  bid_ts?: number;
  min_bid?: string;
  end_time?: number;
  beneficiary_address?: string;
  initial_min_bid?: string;
  max_bid?: string;
  min_bid_step?: string;
  min_extend_time?: number;
  duration?: number;
  royalty_numerator?: number;
  royalty_denominator?: number;
  royalty_destination?: string;
}

export interface NftSale {
  type: NftSaleType;
  /** the sale contract, or the item for telemint */
  address: string;
  nft_address?: string;
  nft_owner_address?: string;
  marketplace_address?: string;
  created_at?: number;
  last_transaction_lt?: string;
  code_hash?: string;
  data_hash?: string;
  details: GetgemsSaleDetails | GetgemsAuctionDetails | TelemintDetails;
  nft_item?: NftItem;
}

export interface NftSalesResponse {
  nft_sales: NftSale[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface NftSalesParams extends V3Options {
  address: Address[];
}

export const NFT_SALES_MAX_ADDRESSES = 1000;

/** What a source answers for these routes. */
export interface NftsApi {
  nftSales(p: NftSalesParams): Promise<NftSalesResponse>;
  nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse>;
  nftItems(p: NftItemsParams): Promise<NftItemsResponse>;
  nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse>;
}

/** The params of the NFT lists, also the filters of GraphQL's NFT lists. */
export const NFT_COLLECTIONS_PARAMS = { collection_address: list(address()), owner_address: list(address()), ...pageParams };
export const NFT_ITEMS_PARAMS = {
  address: list(address()),
  owner_address: list(address()),
  collection_address: list(address()),
  index: list(text()),
  include_on_sale: bool(),
  sort_by_last_transaction_lt: bool(),
  ...pageParams,
};
export const NFT_TRANSFERS_PARAMS = {
  owner_address: list(address()),
  address: legacyOwner(),
  item_address: list(address()),
  collection_address: address(),
  direction: transferDirection(),
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...sortParam,
};

export const NFT_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/nft/collections',
    summary: 'NFT collections by filter',
    params: NFT_COLLECTIONS_PARAMS,
    response: 'NFTCollectionsResponse',
    top: 'nft_collections',
    cache: TTL_CACHE,
    api: 'nftCollections',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/nft/items',
    summary: 'NFT items by filter',
    params: NFT_ITEMS_PARAMS,
    response: 'NFTItemsResponse',
    top: 'nft_items',
    cache: TTL_CACHE,
    api: 'nftItems',
    options: true,
    check: (p: NftItemsParams) => {
      if ((p.collectionAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
      }
      if (p.index?.some((i) => !/^\d+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
    },
    // a query-builder error in the reference (answered 500 there, v3.md §2.4)
    lateCheck: (p: NftItemsParams) => {
      if (p.index && !p.collectionAddress) throw new ApiError(422, 'index parameter is not allowed without the collection_address');
    },
  }),

  v3Route({
    methods: ['GET'],
    path: '/nft/transfers',
    summary: 'NFT transfers by filter',
    params: NFT_TRANSFERS_PARAMS,
    response: 'NFTTransfersResponse',
    top: 'nft_transfers',
    cache: NO_CACHE,
    api: 'nftTransfers',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/nft/sales',
    summary: 'NFT sales and auctions by contract address',
    params: { address: required(list(address()), 'at least 1 address required') },
    response: 'NFTSalesResponse',
    top: 'nft_sales',
    cache: TTL_CACHE,
    api: 'nftSales',
    options: true,
    check: (p: NftSalesParams) => {
      if (p.address.length > NFT_SALES_MAX_ADDRESSES) throw new ApiError(422, `maximum ${NFT_SALES_MAX_ADDRESSES} addresses allowed`);
    },
  }),
];
