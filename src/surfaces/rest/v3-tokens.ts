/**
 * v3 routes, part 2: jettons, NFTs and /metadata (v3.md §2.2 metadata, §2.3, §2.4). Checks run in the
 * reference's order: the handler's own rules, then the query builder's (limit, then sort). Where the reference
 * answers a builder rule with 500 (§5), this surface answers 422 with the same text.
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import { address, bool, list, mandatory, parseAddressV3, text } from './v3-params.js';
import { defined, ltParams, nonEmpty, page, pageParams, pageSort, route, sortParam, utimeParams, timeWindow, type V3Route } from './v3-route.js';

/**
 * The transfer routes' `direction`: `both` is no direction, and like the reference (`crud_jettons.go`,
 * `crud_nft.go`) any value other than `in` selects the sending side.
 */
function transferDirection(direction: string | undefined): 'in' | 'out' | undefined {
  if (direction === undefined || direction === 'both') return undefined;
  return direction === 'in' ? 'in' : 'out';
}

/** The legacy single `address` stands for owner_address when that is absent; an unreadable one is ignored. */
function ownersOf(owners: Address[], legacy: string | undefined): Address[] | undefined {
  if (owners.length) return owners;
  const a = legacy === undefined ? undefined : parseAddressV3(legacy);
  return a ? [a] : undefined;
}

export const V3_TOKEN_ROUTES: readonly V3Route[] = [
  route({
    method: 'GET',
    path: '/jetton/masters',
    summary: 'Jetton masters by filter',
    query: { address: list(address()), admin_address: list(address()), ...pageParams },
    response: 'JettonMastersResponse',
    call: (api, q, { options }) =>
      api.jettonMasters(
        defined({ address: nonEmpty(q.address), adminAddress: nonEmpty(q.admin_address), ...page(q), ...options }),
      ),
  }),

  route({
    method: 'GET',
    path: '/jetton/wallets',
    summary: 'Jetton wallets by filter',
    query: {
      address: list(address()),
      owner_address: list(address()),
      jetton_address: list(address()),
      exclude_zero_balance: bool(),
      ...pageParams,
      ...sortParam,
    },
    response: 'JettonWalletsResponse',
    call: (api, q, { options }) => {
      if (q.jetton_address.length > 1 && q.owner_address.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
      }
      return api.jettonWallets(
        defined({
          address: nonEmpty(q.address),
          ownerAddress: nonEmpty(q.owner_address),
          jettonAddress: nonEmpty(q.jetton_address),
          excludeZeroBalance: q.exclude_zero_balance,
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/jetton/transfers',
    summary: 'Jetton transfers by filter (aborted ones left out)',
    query: {
      owner_address: list(address()),
      address: text(),
      jetton_wallet: list(address()),
      jetton_master: address(),
      direction: text(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'JettonTransfersResponse',
    call: (api, q, { options }) => {
      return api.jettonTransfers(
        defined({
          ownerAddress: ownersOf(q.owner_address, q.address),
          jettonWallet: nonEmpty(q.jetton_wallet),
          jettonMaster: q.jetton_master,
          direction: transferDirection(q.direction),
          ...timeWindow(q),
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/jetton/burns',
    summary: 'Jetton burns by filter',
    query: {
      owner_address: list(address()),
      address: text(),
      jetton_wallet: list(address()),
      jetton_master: address(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'JettonBurnsResponse',
    call: (api, q, { options }) => {
      return api.jettonBurns(
        defined({
          ownerAddress: ownersOf(q.owner_address, q.address),
          jettonWallet: nonEmpty(q.jetton_wallet),
          jettonMaster: q.jetton_master,
          ...timeWindow(q),
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/nft/collections',
    summary: 'NFT collections by filter',
    query: { collection_address: list(address()), owner_address: list(address()), ...pageParams },
    response: 'NFTCollectionsResponse',
    call: (api, q, { options }) =>
      api.nftCollections(
        defined({
          collectionAddress: nonEmpty(q.collection_address),
          ownerAddress: nonEmpty(q.owner_address),
          ...page(q),
          ...options,
        }),
      ),
  }),

  route({
    method: 'GET',
    path: '/nft/items',
    summary: 'NFT items by filter',
    query: {
      address: list(address()),
      owner_address: list(address()),
      collection_address: list(address()),
      index: list(text()),
      include_on_sale: bool(),
      sort_by_last_transaction_lt: bool(),
      ...pageParams,
    },
    response: 'NFTItemsResponse',
    call: (api, q, { options }) => {
      if (q.collection_address.length > 1 && q.owner_address.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
      }
      if (q.index.some((i) => !/^\d+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
      const { limit, offset } = page(q);
      // a builder error in the reference (answered 500 there, v3.md §2.4)
      if (q.index.length && !q.collection_address.length) {
        throw new ApiError(422, 'index parameter is not allowed without the collection_address');
      }
      return api.nftItems(
        defined({
          address: nonEmpty(q.address),
          ownerAddress: nonEmpty(q.owner_address),
          collectionAddress: nonEmpty(q.collection_address),
          index: nonEmpty(q.index),
          includeOnSale: q.include_on_sale,
          sortByLastTransactionLt: q.sort_by_last_transaction_lt,
          limit,
          offset,
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/nft/transfers',
    summary: 'NFT transfers by filter',
    query: {
      owner_address: list(address()),
      address: text(),
      item_address: list(address()),
      collection_address: address(),
      direction: text(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'NFTTransfersResponse',
    call: (api, q, { options }) => {
      return api.nftTransfers(
        defined({
          ownerAddress: ownersOf(q.owner_address, q.address),
          itemAddress: nonEmpty(q.item_address),
          collectionAddress: q.collection_address,
          direction: transferDirection(q.direction),
          ...timeWindow(q),
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/metadata',
    summary: 'Token metadata of addresses, keyed by raw address',
    query: { address: mandatory(list(text())) },
    response: 'Metadata',
    call: (api, q) => {
      if (!q.address.length) throw new ApiError(422, 'at least 1 address required');
      return api.addressMetadata({ address: q.address });
    },
  }),
];
