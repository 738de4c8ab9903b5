/** The v3 part-2 routes over HTTP: jettons, NFTs and /metadata, passed to the upstream with the same query. */
import type { V3TokensApi } from '../../api/v3-tokens.js';
import type { UpstreamClient } from './client.js';
import { addr, optionHeaders, q, v3Calls } from './v3.js';
import { NONE, TTL } from './wire.js';

/** Token states and transfer lists grow with every block: nothing here is cached for good. */
export function upstreamV3Tokens(client: UpstreamClient): V3TokensApi {
  const { get } = v3Calls(client);
  const page = (p: { limit?: number; offset?: number }): [string, number | undefined][] => [
    ['limit', p.limit],
    ['offset', p.offset],
  ];

  return {
    jettonMasters: (p) =>
      get(
        '/jetton/masters',
        q([['address', p.address?.map(addr)], ['admin_address', p.adminAddress?.map(addr)], ...page(p)]),
        TTL,
        'jetton_masters',
        optionHeaders(p),
      ),
    jettonWallets: (p) =>
      get(
        '/jetton/wallets',
        q([
          ['address', p.address?.map(addr)],
          ['owner_address', p.ownerAddress?.map(addr)],
          ['jetton_address', p.jettonAddress?.map(addr)],
          ['exclude_zero_balance', p.excludeZeroBalance],
          ...page(p),
          ['sort', p.sort],
        ]),
        TTL,
        'jetton_wallets',
        optionHeaders(p),
      ),
    jettonTransfers: (p) =>
      get(
        '/jetton/transfers',
        q([
          ['owner_address', p.ownerAddress?.map(addr)],
          ['jetton_wallet', p.jettonWallet?.map(addr)],
          ['jetton_master', p.jettonMaster && addr(p.jettonMaster)],
          ['direction', p.direction],
          ['start_utime', p.startUtime],
          ['end_utime', p.endUtime],
          ['start_lt', p.startLt],
          ['end_lt', p.endLt],
          ...page(p),
          ['sort', p.sort],
        ]),
        NONE,
        'jetton_transfers',
        optionHeaders(p),
      ),
    jettonBurns: (p) =>
      get(
        '/jetton/burns',
        q([
          ['owner_address', p.ownerAddress?.map(addr)],
          ['jetton_wallet', p.jettonWallet?.map(addr)],
          ['jetton_master', p.jettonMaster && addr(p.jettonMaster)],
          ['start_utime', p.startUtime],
          ['end_utime', p.endUtime],
          ['start_lt', p.startLt],
          ['end_lt', p.endLt],
          ...page(p),
          ['sort', p.sort],
        ]),
        NONE,
        'jetton_burns',
        optionHeaders(p),
      ),
    nftCollections: (p) =>
      get(
        '/nft/collections',
        q([['collection_address', p.collectionAddress?.map(addr)], ['owner_address', p.ownerAddress?.map(addr)], ...page(p)]),
        TTL,
        'nft_collections',
        optionHeaders(p),
      ),
    nftItems: (p) =>
      get(
        '/nft/items',
        q([
          ['address', p.address?.map(addr)],
          ['owner_address', p.ownerAddress?.map(addr)],
          ['collection_address', p.collectionAddress?.map(addr)],
          ['index', p.index],
          ['include_on_sale', p.includeOnSale],
          ['sort_by_last_transaction_lt', p.sortByLastTransactionLt],
          ...page(p),
        ]),
        TTL,
        'nft_items',
        optionHeaders(p),
      ),
    nftTransfers: (p) =>
      get(
        '/nft/transfers',
        q([
          ['owner_address', p.ownerAddress?.map(addr)],
          ['item_address', p.itemAddress?.map(addr)],
          ['collection_address', p.collectionAddress && addr(p.collectionAddress)],
          ['direction', p.direction],
          ['start_utime', p.startUtime],
          ['end_utime', p.endUtime],
          ['start_lt', p.startLt],
          ['end_lt', p.endLt],
          ...page(p),
          ['sort', p.sort],
        ]),
        NONE,
        'nft_transfers',
        optionHeaders(p),
      ),
    // the caller's own strings, as /addressBook sends them
    addressMetadata: (p) => get('/metadata', q([['address', p.address]]), TTL),
  };
}
