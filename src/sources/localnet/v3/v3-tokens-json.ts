/**
 * The v3 JSON of the contract index's records (v3.md §2.2 metadata, §2.3, §2.4): jetton masters and wallets,
 * NFT collections and items, their transfers and burns, and the `metadata` of token contracts.
 */
import type { Address } from '@ton/core';
import type { AddressMetadata, Metadata, TokenInfo } from '../../../api/v3/common.js';
import type { JettonBurn, JettonMaster, JettonTransfer, JettonWallet } from '../../../api/v3/jettons.js';
import type { NftCollection, NftItem, NftTransfer } from '../../../api/v3/nfts.js';
import { rawUpper } from '../../../model/address.js';
import { b64, payloadToV3 } from '../../../model/v3/index.js';
import type { Content } from '../../../model/contract-data.js';
import type { JettonMasterState, JettonWalletState, NftCollectionState, NftItemState, NftSaleState } from '../indexer/contract-state.js';
import type { ContractIndex } from '../indexer/contracts.js';
import type { EventBase, JettonBurnEvent, JettonTransferEvent, NftTransferEvent } from '../indexer/tokens.js';

/** `metadata` for raw addresses: token contracts only (v3.md §3.2); a jetton wallet brings its master along. */
export function metadataOf(index: ContractIndex, addresses: Iterable<string>): Metadata {
  const out: Metadata = {};
  const add = (raw: string, info: TokenInfo, indexed: boolean) => {
    const m: AddressMetadata = (out[raw] ??= { is_indexed: true, token_info: [] });
    m.token_info.push(info);
    m.is_indexed = m.is_indexed && indexed;
  };
  const wanted = new Set(addresses);
  for (const raw of [...wanted]) {
    const c = index.get(raw);
    if (c?.kind !== 'jetton_wallet') continue;
    add(raw, { valid: true, type: 'jetton_wallets', extra: { owner: c.owner, jetton: c.jetton, balance: c.balance.toString() } }, true);
    wanted.add(c.jetton);
  }
  for (const raw of wanted) {
    const c = index.get(raw);
    if (c?.kind === 'jetton_master') add(raw, ...tokenInfo('jetton_masters', c.content, c.onchain));
    else if (c?.kind === 'nft_collection') add(raw, ...tokenInfo('nft_collections', c.content, c.onchain));
    else if (c?.kind === 'nft_item') add(raw, ...tokenInfo('nft_items', c.content, c.onchain, c.index.toString()));
  }
  return out;
}

const TOKEN_INFO_FIELDS = ['name', 'symbol', 'description', 'image'] as const;

/**
 * One token_info entry. On-chain content is what the reference's metadata fetcher would store (valid, the four
 * fields, the other keys in `extra`); off-chain content needs that fetcher, which the local chain does not run,
 * so it stays `{type, nft_index}` with is_indexed false, the reference's answer before a fetch.
 */
function tokenInfo(type: string, content: Content | null, onchain: boolean, nftIndex?: string): [TokenInfo, boolean] {
  const idx = nftIndex === undefined ? {} : { nft_index: nftIndex };
  if (!onchain || !content) return [{ type, ...idx }, false];
  const info: TokenInfo = { valid: true, type };
  for (const f of TOKEN_INFO_FIELDS) if (content[f] !== undefined) info[f] = content[f];
  const extra = Object.fromEntries(Object.entries(content).filter(([k]) => !(TOKEN_INFO_FIELDS as readonly string[]).includes(k)));
  if (Object.keys(extra).length) info.extra = extra;
  return [{ ...info, ...idx }, true];
}
const ltStr = (v: bigint): string => v.toString();

// ---- serialisers ----

export function masterToV3(c: JettonMasterState): JettonMaster {
  return {
    address: c.raw,
    total_supply: c.totalSupply.toString(),
    mintable: c.mintable,
    admin_address: c.admin,
    jetton_content: c.content,
    jetton_wallet_code_hash: c.walletCodeHash,
    code_hash: c.codeHash,
    data_hash: c.dataHash,
    last_transaction_lt: ltStr(c.lastLt),
  };
}

export function walletToV3(c: JettonWalletState): JettonWallet {
  return {
    address: c.raw,
    balance: c.balance.toString(),
    owner: c.owner,
    jetton: c.jetton,
    last_transaction_lt: ltStr(c.lastLt),
    code_hash: c.codeHash,
    data_hash: c.dataHash,
  };
}

export function collectionToV3(c: NftCollectionState): NftCollection {
  return {
    address: c.raw,
    owner_address: c.owner,
    last_transaction_lt: ltStr(c.lastLt),
    next_item_index: c.nextItemIndex.toString(),
    collection_content: c.content,
    data_hash: c.dataHash,
    code_hash: c.codeHash,
  };
}

/**
 * The sale or auction contract that holds an item and lists it: the item's owner is a GetGems-style contract for
 * this item that is neither sold nor cancelled. Its seller is the item's real owner.
 */
export function listingOf(index: ContractIndex, c: NftItemState): NftSaleState | undefined {
  const holder = c.owner ? index.get(c.owner) : undefined;
  return holder?.kind === 'nft_sale' && holder.nft === c.raw && !holder.complete ? holder : undefined;
}

/** An item as v3 prints it, with its collection and, when a sale or auction holds it, the listing and the seller. */
export function itemToV3(index: ContractIndex, c: NftItemState): NftItem {
  const coll = c.collection ? index.get(c.collection) : undefined;
  const listing = listingOf(index, c);
  return {
    address: c.raw,
    init: c.init,
    index: c.index.toString(),
    collection_address: c.collection,
    owner_address: c.owner,
    content: c.content,
    last_transaction_lt: ltStr(c.lastLt),
    code_hash: c.codeHash,
    data_hash: c.dataHash,
    collection: coll?.kind === 'nft_collection' ? collectionToV3(coll) : null,
    on_sale: listing !== undefined,
    ...(listing?.saleType === 'getgems_sale' ? { sale_contract_address: listing.raw } : {}),
    ...(listing?.saleType === 'getgems_auction' ? { auction_contract_address: listing.raw } : {}),
    ...(listing?.owner ? { real_owner: listing.owner } : {}),
  };
}

const txFields = (e: EventBase) => ({
  transaction_hash: b64(Buffer.from(e.rec.hash, 'hex')),
  transaction_lt: ltStr(e.rec.lt),
  transaction_now: e.rec.now,
  transaction_aborted: e.aborted,
});

const traceId = (e: EventBase): string => b64(Buffer.from(e.rec.traceRootHash, 'hex'));
/** The addresses of a row that are set (not null, not addr_none), for address_book and metadata. */
export const present = (...lists: (string | null | undefined)[]): string[] => lists.filter((a): a is string => typeof a === 'string' && a !== 'addr_none');

export const addrRaw = (a: Address | null): string | null => (a ? rawUpper(a) : null);

export function jettonTransferToV3(e: JettonTransferEvent): JettonTransfer {
  const custom = payloadToV3(e.body.customPayload);
  const fwd = payloadToV3(e.body.forwardPayload);
  return {
    query_id: e.body.queryId.toString(),
    source: e.sender,
    destination: addrRaw(e.body.destination) ?? 'addr_none',
    amount: e.body.amount.toString(),
    source_wallet: e.wallet,
    jetton_master: e.master,
    ...txFields(e),
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: custom.boc,
    decoded_custom_payload: null,
    forward_ton_amount: e.body.forwardTonAmount.toString(),
    forward_payload: fwd.boc,
    decoded_forward_payload: fwd.decoded,
    trace_id: traceId(e),
  };
}

export function jettonBurnToV3(e: JettonBurnEvent): JettonBurn {
  return {
    query_id: e.body.queryId.toString(),
    owner: e.sender,
    jetton_wallet: e.wallet,
    jetton_master: e.master,
    ...txFields(e),
    amount: e.body.amount.toString(),
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: payloadToV3(e.body.customPayload).boc,
    decoded_custom_payload: null,
    trace_id: traceId(e),
  };
}

export function nftTransferToV3(e: NftTransferEvent): NftTransfer {
  const fwd = payloadToV3(e.body.forwardPayload);
  return {
    query_id: e.body.queryId.toString(),
    nft_address: e.item,
    nft_collection: e.collection,
    ...txFields(e),
    old_owner: e.sender,
    new_owner: addrRaw(e.body.newOwner) ?? 'addr_none',
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: payloadToV3(e.body.customPayload).boc,
    decoded_custom_payload: null,
    forward_amount: e.body.forwardAmount.toString(),
    forward_payload: fwd.boc,
    decoded_forward_payload: fwd.decoded,
    trace_id: traceId(e),
  };
}

