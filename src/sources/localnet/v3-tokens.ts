/**
 * The v3 token answers over the local chain (v3.md §2.2 metadata, §2.3, §2.4): jetton masters and wallets,
 * NFT collections and items, their transfers and burns, read from the contract index (indexer/contracts.ts)
 * with the reference's filters and orderings.
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import { type Metadata, resolvePage, type Sort, type V3Options } from '../../api/v3/common.js';
import type { MetadataParams } from '../../api/v3/accounts.js';
import type { V3TokensApi } from '../../api/v3/index.js';
import type {
  JettonBurnsParams,
  JettonBurnsResponse,
  JettonMastersParams,
  JettonMastersResponse,
  JettonTransfersParams,
  JettonTransfersResponse,
  JettonWalletsParams,
  JettonWalletsResponse,
} from '../../api/v3/jettons.js';
import type {
  NftCollectionsParams,
  NftCollectionsResponse,
  NftItemsParams,
  NftItemsResponse,
  NftTransfersParams,
  NftTransfersResponse,
} from '../../api/v3/nfts.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import type { JettonWalletState, NftItemState } from './indexer/contract-state.js';
import type { ContractIndex } from './indexer/contracts.js';
import type { EventBase } from './indexer/tokens.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf, rawSet, type Key } from './v3-order.js';
import {
  addrRaw,
  collectionToV3,
  itemToV3,
  jettonBurnToV3,
  jettonTransferToV3,
  masterToV3,
  nftTransferToV3,
  walletToV3,
} from './v3-tokens-json.js';

/** Transfer and burn filters shared by the three event routes: lt and utime windows, the order column. */
function eventWindow<E extends EventBase>(list: E[], p: JettonBurnsParams | NftTransfersParams): E[] {
  const s: Sort = p.sort ?? 'desc';
  const byNow = p.startUtime !== undefined || p.endUtime !== undefined;
  return list
    .filter(
      (e) =>
        (p.startUtime === undefined || e.rec.now >= p.startUtime) &&
        (p.endUtime === undefined || e.rec.now <= p.endUtime) &&
        (p.startLt === undefined || e.rec.lt >= p.startLt) &&
        (p.endLt === undefined || e.rec.lt <= p.endLt),
    )
    .sort(byNow ? orderBy<E>([(e) => e.rec.now, s], [(e) => e.rec.lt, s]) : orderBy<E>([(e) => e.rec.lt, s]));
}

const present = (...lists: (string | null | undefined)[]): string[] => lists.filter((a): a is string => typeof a === 'string' && a !== 'addr_none');

// ---- the routes ----

export class LocalV3Tokens implements V3TokensApi {
  constructor(private readonly ctx: LocalV3Context) {}

  private get index(): ContractIndex {
    return this.ctx.indexer.contracts;
  }

  async jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse> {
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.address);
    const admin = rawSet(p.adminAddress);
    const list = this.index
      .list('jetton_master')
      .filter((c) => (!address || address.has(c.raw)) && (!admin || (c.admin !== null && admin.has(c.admin))));
    const jetton_masters = pageOf(list, p).map(masterToV3);
    const addrs = jetton_masters.flatMap((m) => present(m.address, m.admin_address));
    return { jetton_masters, ...(await this.enrich(addrs, p)) };
  }

  async jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse> {
    if ((p.jettonAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
      throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
    }
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.address);
    const owner = rawSet(p.ownerAddress);
    const jetton = rawSet(p.jettonAddress);
    const list = this.index
      .list('jetton_wallet')
      .filter(
        (c) =>
          (!address || address.has(c.raw)) &&
          (!owner || owner.has(c.owner)) &&
          (!jetton || jetton.has(c.jetton)) &&
          (!p.excludeZeroBalance || c.balance > 0n),
      );
    // crud_jettons.go: sort switches the column to balance; later filters override the ORDER BY
    const s: Sort = p.sort ?? 'asc';
    const col: Key<JettonWalletState> = p.sort ? (c) => c.balance : (c) => c.id;
    let order = orderBy<JettonWalletState>([col, s]);
    if (address) order = orderBy<JettonWalletState>([(c) => c.raw, 'asc']);
    if (owner) order = orderBy<JettonWalletState>([(c) => c.owner, 'asc'], [col, s]);
    if (p.jettonAddress?.length === 1) order = orderBy<JettonWalletState>([(c) => c.jetton, 'asc'], [col, s]);
    const jetton_wallets = pageOf(list.sort(order), p).map(walletToV3);
    const addrs = jetton_wallets.flatMap((w) => [w.address, w.owner, w.jetton]);
    return { jetton_wallets, ...(await this.enrich(addrs, p)) };
  }

  async jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const wallet = rawSet(p.jettonWallet);
    const master = p.jettonMaster && rawUpper(p.jettonMaster);
    const filtered = this.index.tokens.jettonTransfers.filter((e) => {
      // crud_jettons.go: always `tx_aborted is false`
      if (e.aborted) return false;
      const dest = addrRaw(e.body.destination);
      if (owner) {
        const inbound = dest !== null && owner.has(dest);
        const outbound = owner.has(e.sender);
        if (p.direction === 'in' ? !inbound : p.direction === 'out' ? !outbound : !inbound && !outbound) return false;
      }
      return (!wallet || wallet.has(e.wallet)) && (!master || e.master === master);
    });
    const jetton_transfers = pageOf(eventWindow(filtered, p), p).map(jettonTransferToV3);
    const addrs = jetton_transfers.flatMap((t) => present(t.source, t.destination, t.source_wallet, t.jetton_master, t.response_destination));
    return { jetton_transfers, ...(await this.enrich(addrs, p)) };
  }

  async jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const wallet = rawSet(p.jettonWallet);
    const master = p.jettonMaster && rawUpper(p.jettonMaster);
    const filtered = this.index.tokens.jettonBurns.filter(
      (e) => (!owner || owner.has(e.sender)) && (!wallet || wallet.has(e.wallet)) && (!master || e.master === master),
    );
    const jetton_burns = pageOf(eventWindow(filtered, p), p).map(jettonBurnToV3);
    const addrs = jetton_burns.flatMap((b) => present(b.owner, b.jetton_wallet, b.jetton_master, b.response_destination));
    return { jetton_burns, ...(await this.enrich(addrs, p)) };
  }

  async nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse> {
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.collectionAddress);
    const owner = rawSet(p.ownerAddress);
    const list = this.index
      .list('nft_collection')
      .filter((c) => (!address || address.has(c.raw)) && (!owner || (c.owner !== null && owner.has(c.owner))));
    const nft_collections = pageOf(list, p).map(collectionToV3);
    const addrs = nft_collections.flatMap((c) => present(c.address, c.owner_address));
    return { nft_collections, ...(await this.enrich(addrs, p)) };
  }

  async nftItems(p: NftItemsParams): Promise<NftItemsResponse> {
    if ((p.collectionAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
      throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
    }
    if (p.index?.some((i) => !/^\d+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
    resolvePage(p);
    if (p.index?.length && !p.collectionAddress?.length) {
      throw new ApiError(422, 'index parameter is not allowed without the collection_address');
    }
    await this.index.sync();
    const address = rawSet(p.address);
    // include_on_sale matches real_owner, which is the owner when no sale contract holds the item
    const owner = rawSet(p.ownerAddress);
    const collection = rawSet(p.collectionAddress);
    const indexes = p.index?.length ? new Set(p.index.map((i) => BigInt(i))) : undefined;
    const list = this.index
      .list('nft_item')
      .filter(
        (c) =>
          (!address || address.has(c.raw)) &&
          (!owner || (c.owner !== null && owner.has(c.owner))) &&
          (!collection || (c.collection !== null && collection.has(c.collection))) &&
          (!indexes || indexes.has(c.index)),
      );
    const str = (v: string | null) => v ?? '';
    // crud_nft.go: each filter below overrides the ORDER BY of the ones before it
    let order = orderBy<NftItemState>([(c) => c.id, 'asc']);
    if (owner) order = orderBy<NftItemState>([(c) => str(c.owner), 'asc'], [(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
    if (p.collectionAddress?.length === 1) order = orderBy<NftItemState>([(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
    if (p.sortByLastTransactionLt) order = orderBy<NftItemState>([(c) => c.lastLt, 'desc']);
    const nft_items = pageOf(list.sort(order), p).map((c) => {
      const coll = c.collection ? this.index.get(c.collection) : undefined;
      return itemToV3(c, coll?.kind === 'nft_collection' ? coll : undefined);
    });
    const addrs = nft_items.flatMap((i) => present(i.address, i.collection_address, i.owner_address));
    return { nft_items, ...(await this.enrich(addrs, p)) };
  }

  async nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const item = rawSet(p.itemAddress);
    const collection = p.collectionAddress && rawUpper(p.collectionAddress);
    const filtered = this.index.tokens.nftTransfers.filter((e) => {
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
    return { nft_transfers, ...(await this.enrich(addrs, p)) };
  }

  async addressMetadata(p: MetadataParams): Promise<Metadata> {
    if (p.address.length === 0) throw new ApiError(422, 'at least 1 address required');
    const raws = p.address.map((a) => parseAddressAny(a)?.address).filter((a): a is Address => a !== undefined);
    return this.ctx.tokenMetadata(raws.map(rawUpper));
  }

  private async enrich(addrs: string[], opts: V3Options) {
    return { address_book: this.ctx.book(addrs, opts), metadata: await this.ctx.metadata(addrs, opts) };
  }
}
