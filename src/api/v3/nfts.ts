/** v3 NFTs (v3.md §2.4): collections, items and transfers. */
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { NftItemsParams } from '../v3-tokens.js';
import { address, bool, list, ltParams, pageParams, sortParam, text, utimeParams, v3Route } from './params.js';
import { legacyOwner, transferDirection } from './tokens-common.js';

export const NFT_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/nft/collections',
    summary: 'NFT collections by filter',
    params: { collection_address: list(address()), owner_address: list(address()), ...pageParams },
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
    params: {
      address: list(address()),
      owner_address: list(address()),
      collection_address: list(address()),
      index: list(text()),
      include_on_sale: bool(),
      sort_by_last_transaction_lt: bool(),
      ...pageParams,
    },
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
    params: {
      owner_address: list(address()),
      address: legacyOwner(),
      item_address: list(address()),
      collection_address: address(),
      direction: transferDirection(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'NFTTransfersResponse',
    top: 'nft_transfers',
    cache: NO_CACHE,
    api: 'nftTransfers',
    options: true,
  }),
];
