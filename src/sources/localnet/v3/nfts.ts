/**
 * /api/v3 NFTs over the local chain (v3.md §2.4): collections, items and transfers, read from the contract
 * index (indexer/contracts.ts) with the reference's filters and orderings.
 */
import { ApiError } from '../../../api/errors.js';
import type {
  NftCollectionsParams,
  NftCollectionsResponse,
  NftItemsParams,
  NftItemsResponse,
  NftSalesParams,
  NftSalesResponse,
  NftsApi,
  NftTransfersParams,
  NftTransfersResponse,
} from '../../../api/v3/nfts.js';
import { rawUpper } from '../../../model/address.js';
import type { NftItemState } from '../indexer/contract-state.js';
import { nftSales } from './v3-nft-sales.js';
import type { LocalV3Context } from './v3-context.js';
import { eventWindow, orderBy, pageOf, rawSet } from './v3-order.js';
import { addrRaw, collectionToV3, itemToV3, listingOf, nftTransferToV3, present } from './v3-tokens-json.js';

export function localNfts(ctx: LocalV3Context): NftsApi {
  return {
    nftSales: (p: NftSalesParams): Promise<NftSalesResponse> => nftSales(ctx, p),

    async nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse> {
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.collectionAddress);
      const owner = rawSet(p.ownerAddress);
      const list = ctx.indexer.contracts
        .list('nft_collection')
        .filter((c) => (!address || address.has(c.raw)) && (!owner || (c.owner !== null && owner.has(c.owner))));
      const nft_collections = pageOf(list, p).map(collectionToV3);
      const addrs = nft_collections.flatMap((c) => present(c.address, c.owner_address));
      return { nft_collections, ...(await ctx.enrich(addrs, p)) };
    },

    async nftItems(p: NftItemsParams): Promise<NftItemsResponse> {
      if ((p.collectionAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
      }
      if (p.index?.some((i) => !/^\d+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
      if (p.index?.length && !p.collectionAddress?.length) {
        throw new ApiError(422, 'index parameter is not allowed without the collection_address');
      }
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.address);
      const owner = rawSet(p.ownerAddress);
      // include_on_sale matches real_owner: the seller of an item a sale or auction holds, else the owner
      const contracts = ctx.indexer.contracts;
      const ownerOf = (c: NftItemState): string | null => (p.includeOnSale ? (listingOf(contracts, c)?.owner ?? c.owner) : c.owner);
      const collection = rawSet(p.collectionAddress);
      const indexes = p.index?.length ? new Set(p.index.map((i) => BigInt(i))) : undefined;
      const list = ctx.indexer.contracts
        .list('nft_item')
        .filter(
          (c) =>
            (!address || address.has(c.raw)) &&
            (!owner || owner.has(ownerOf(c) ?? '')) &&
            (!collection || (c.collection !== null && collection.has(c.collection))) &&
            (!indexes || indexes.has(c.index)),
        );
      const str = (v: string | null) => v ?? '';
      // crud_nft.go: each filter below overrides the ORDER BY of the ones before it
      let order = orderBy<NftItemState>([(c) => c.id, 'asc']);
      if (owner) order = orderBy<NftItemState>([(c) => str(ownerOf(c)), 'asc'], [(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
      if (p.collectionAddress?.length === 1) order = orderBy<NftItemState>([(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
      if (p.sortByLastTransactionLt) order = orderBy<NftItemState>([(c) => c.lastLt, 'desc']);
      const nft_items = pageOf(list.sort(order), p).map((c) => itemToV3(contracts, c));
      const addrs = nft_items.flatMap((i) => present(i.address, i.collection_address, i.owner_address, i.real_owner));
      return { nft_items, ...(await ctx.enrich(addrs, p)) };
    },

    async nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse> {
      await ctx.indexer.contracts.sync();
      const owner = rawSet(p.ownerAddress);
      const item = rawSet(p.itemAddress);
      const collection = p.collectionAddress && rawUpper(p.collectionAddress);
      const filtered = ctx.indexer.contracts.tokens.nftTransfers.filter((e) => {
        if (owner) {
          const next = addrRaw(e.body.newOwner);
          const inbound = next !== null && owner.has(next);
          const outbound = owner.has(e.sender);
          if (p.direction === 'in' ? !inbound : p.direction === 'out' ? !outbound : !inbound && !outbound) return false;
        }
        return (!item || item.has(e.item)) && (!collection || e.collection === collection);
      });
      const nft_transfers = pageOf(eventWindow(filtered, p), p).map(nftTransferToV3);
      const addrs = nft_transfers.flatMap((t) => present(t.nft_address, t.nft_collection, t.old_owner, t.new_owner, t.response_destination));
      return { nft_transfers, ...(await ctx.enrich(addrs, p)) };
    },
  };
}
