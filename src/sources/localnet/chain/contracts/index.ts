/**
 * The local chain's token contracts (FunC sources in contracts/, compiled into ./compiled.ts by
 * `npm run contracts`): code cells, init data, addresses and message bodies. Uses @ton/core only.
 *
 * Storage layouts, from the sources:
 *   jetton minter  total_supply:Coins admin:MsgAddress content:^Cell wallet_code:^Cell
 *   jetton wallet  balance:Coins owner:MsgAddress master:MsgAddress wallet_code:^Cell
 *   nft collection owner:MsgAddress next_item_index:uint64 ^(collection_content:^Cell common_content:^Cell)
 *                  item_code:^Cell ^(numerator:uint16 denominator:uint16 destination:MsgAddress)
 *   nft item       index:uint64 collection:MsgAddress, then owner:MsgAddress content:^Cell once deployed
 * Message bodies follow TEP-74 (jettons), TEP-89 (wallet discovery), TEP-62 (NFT) and TEP-66 (royalties).
 */
import { beginCell, Cell, comment, contractAddress, Dictionary, type Address, type Builder, type StateInit } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { compiled } from './compiled.js';

export { compiled } from './compiled.js';

export const jettonMinterCode: Cell = Cell.fromBase64(compiled.contracts.jettonMinter.boc);
export const jettonWalletCode: Cell = Cell.fromBase64(compiled.contracts.jettonWallet.boc);
export const nftCollectionCode: Cell = Cell.fromBase64(compiled.contracts.nftCollection.boc);
export const nftItemCode: Cell = Cell.fromBase64(compiled.contracts.nftItem.boc);

/** Op-codes the contracts speak (TEP-74, TEP-89, TEP-62, TEP-66; mint and admin ops from the reference minter). */
export const Op = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  mint: 0x642b7d07,
  mintLegacy: 21,
  changeAdmin: 3,
  changeContent: 4,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
  nftTransfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
  getStaticData: 0x2fcb26a2,
  reportStaticData: 0x8b771735,
  deployItem: 1,
  changeOwner: 3,
  getRoyaltyParams: 0x693d3950,
  reportRoyaltyParams: 0xa8cb00ad,
} as const;

// ---- TEP-64 content ----

/** Snake data: the bytes split over a chain of cells, each continuing in its first ref. */
function snake(bytes: Buffer, prefix?: number): Cell {
  const first = prefix === undefined ? 127 : 126;
  const chunks: Buffer[] = [bytes.subarray(0, first)];
  for (let i = first; i < bytes.length; i += 127) chunks.push(bytes.subarray(i, i + 127));
  let tail: Cell | undefined;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const b = beginCell();
    if (i === 0 && prefix !== undefined) b.storeUint(prefix, 8);
    b.storeBuffer(chunks[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  return tail!;
}

/** On-chain content: `onchain#00 data:(HashmapE 256 ^ContentData)`, keys sha256(name), values `snake#00`. */
export function onchainContent(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [key, value] of Object.entries(fields)) dict.set(sha256_sync(key), snake(Buffer.from(value, 'utf8'), 0x00));
  return beginCell().storeUint(0x00, 8).storeDict(dict).endCell();
}

/** Off-chain content: `offchain#01 uri:Text`. */
export function offchainContent(uri: string): Cell {
  return snake(Buffer.from(uri, 'utf8'), 0x01);
}

/** A forward payload that is a text comment (op 0). */
export function commentPayload(text: string): Cell {
  return comment(text);
}

// ---- init data and addresses ----

export interface JettonMinterConfig {
  totalSupply?: bigint;
  admin: Address | null;
  content: Cell;
  walletCode?: Cell;
}

export function jettonMinterData(c: JettonMinterConfig): Cell {
  return beginCell()
    .storeCoins(c.totalSupply ?? 0n)
    .storeAddress(c.admin)
    .storeRef(c.content)
    .storeRef(c.walletCode ?? jettonWalletCode)
    .endCell();
}

export function jettonMinterInit(c: JettonMinterConfig): StateInit {
  return { code: jettonMinterCode, data: jettonMinterData(c) };
}

export interface JettonWalletConfig {
  balance?: bigint;
  owner: Address;
  master: Address;
  walletCode?: Cell;
}

export function jettonWalletData(c: JettonWalletConfig): Cell {
  const code = c.walletCode ?? jettonWalletCode;
  return beginCell().storeCoins(c.balance ?? 0n).storeAddress(c.owner).storeAddress(c.master).storeRef(code).endCell();
}

/** The StateInit the minter and other wallets deploy a wallet with (balance 0). */
export function jettonWalletInit(owner: Address, master: Address, walletCode: Cell = jettonWalletCode): StateInit {
  return { code: walletCode, data: jettonWalletData({ owner, master, walletCode }) };
}

export function jettonWalletAddress(owner: Address, master: Address, walletCode: Cell = jettonWalletCode): Address {
  return contractAddress(0, jettonWalletInit(owner, master, walletCode));
}

export interface Royalty {
  numerator: number;
  denominator: number;
  destination: Address;
}

export interface NftCollectionConfig {
  owner: Address;
  nextItemIndex?: bigint;
  /** TEP-64 content of the collection itself */
  collectionContent: Cell;
  /** the URI prefix of items whose individual content is an off-chain suffix */
  commonContent: string;
  itemCode?: Cell;
  royalty: Royalty;
}

export function nftCollectionData(c: NftCollectionConfig): Cell {
  const content = beginCell()
    .storeRef(c.collectionContent)
    .storeRef(snake(Buffer.from(c.commonContent, 'utf8')))
    .endCell();
  const royalty = beginCell()
    .storeUint(c.royalty.numerator, 16)
    .storeUint(c.royalty.denominator, 16)
    .storeAddress(c.royalty.destination)
    .endCell();
  return beginCell()
    .storeAddress(c.owner)
    .storeUint(c.nextItemIndex ?? 0n, 64)
    .storeRef(content)
    .storeRef(c.itemCode ?? nftItemCode)
    .storeRef(royalty)
    .endCell();
}

export function nftCollectionInit(c: NftCollectionConfig): StateInit {
  return { code: nftCollectionCode, data: nftCollectionData(c) };
}

export function nftItemData(index: bigint, collection: Address): Cell {
  return beginCell().storeUint(index, 64).storeAddress(collection).endCell();
}

export function nftItemAddress(collection: Address, index: bigint, itemCode: Cell = nftItemCode): Address {
  return contractAddress(0, { code: itemCode, data: nftItemData(index, collection) });
}

// ---- message bodies ----

/** `forward_payload:(Either Cell ^Cell)`: in a ref when given, else an empty inline payload. */
function storeForwardPayload(b: Builder, payload: Cell | undefined): Builder {
  return payload ? b.storeBit(1).storeRef(payload) : b.storeBit(0);
}

export interface MintParams {
  queryId?: bigint;
  to: Address;
  /** nanotons the minter sends along to the new wallet */
  tonAmount: bigint;
  jettonAmount: bigint;
  /** `from` of the internal_transfer; addr_none by default */
  from?: Address | null;
  responseAddress?: Address | null;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell;
}

/** mint#642b7d07 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^InternalTransfer */
export function mintBody(p: MintParams): Cell {
  const queryId = p.queryId ?? 0n;
  const masterMsg = storeForwardPayload(
    beginCell()
      .storeUint(Op.internalTransfer, 32)
      .storeUint(queryId, 64)
      .storeCoins(p.jettonAmount)
      .storeAddress(p.from ?? null)
      .storeAddress(p.responseAddress ?? null)
      .storeCoins(p.forwardTonAmount ?? 0n),
    p.forwardPayload,
  ).endCell();
  return beginCell().storeUint(Op.mint, 32).storeUint(queryId, 64).storeAddress(p.to).storeCoins(p.tonAmount).storeRef(masterMsg).endCell();
}

export interface JettonTransferParams {
  queryId?: bigint;
  amount: bigint;
  destination: Address;
  responseDestination?: Address | null;
  customPayload?: Cell;
  forwardTonAmount?: bigint;
  forwardPayload?: Cell;
}

/**
 * transfer#0f8a7ea5 query_id:uint64 amount:Coins destination:MsgAddress response_destination:MsgAddress
 *   custom_payload:(Maybe ^Cell) forward_ton_amount:Coins forward_payload:(Either Cell ^Cell)
 */
export function jettonTransferBody(p: JettonTransferParams): Cell {
  return storeForwardPayload(
    beginCell()
      .storeUint(Op.transfer, 32)
      .storeUint(p.queryId ?? 0n, 64)
      .storeCoins(p.amount)
      .storeAddress(p.destination)
      .storeAddress(p.responseDestination ?? null)
      .storeMaybeRef(p.customPayload)
      .storeCoins(p.forwardTonAmount ?? 0n),
    p.forwardPayload,
  ).endCell();
}

/** burn#595f07bc query_id:uint64 amount:Coins response_destination:MsgAddress custom_payload:(Maybe ^Cell) */
export function jettonBurnBody(p: { queryId?: bigint; amount: bigint; responseDestination?: Address | null; customPayload?: Cell }): Cell {
  return beginCell()
    .storeUint(Op.burn, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeCoins(p.amount)
    .storeAddress(p.responseDestination ?? null)
    .storeMaybeRef(p.customPayload)
    .endCell();
}

/** provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool (TEP-89) */
export function provideWalletAddressBody(p: { queryId?: bigint; owner: Address; includeAddress: boolean }): Cell {
  return beginCell()
    .storeUint(Op.provideWalletAddress, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeAddress(p.owner)
    .storeBit(p.includeAddress)
    .endCell();
}

export interface NftDeployParams {
  queryId?: bigint;
  index: bigint;
  /** nanotons the collection sends along to the new item */
  amount: bigint;
  owner: Address;
  /** individual content: on-chain TEP-64 content, or an off-chain suffix cell (see nftSuffixContent) */
  content: Cell;
}

/** deploy#1 query_id:uint64 item_index:uint64 amount:Coins content:^(owner:MsgAddress content:^Cell) */
export function nftDeployBody(p: NftDeployParams): Cell {
  return beginCell()
    .storeUint(Op.deployItem, 32)
    .storeUint(p.queryId ?? 0n, 64)
    .storeUint(p.index, 64)
    .storeCoins(p.amount)
    .storeRef(beginCell().storeAddress(p.owner).storeRef(p.content).endCell())
    .endCell();
}

/** An item's individual content as a URI suffix appended to the collection's common prefix. */
export function nftSuffixContent(suffix: string): Cell {
  return snake(Buffer.from(suffix, 'utf8'));
}

export interface NftTransferParams {
  queryId?: bigint;
  newOwner: Address;
  responseDestination?: Address | null;
  customPayload?: Cell;
  forwardAmount?: bigint;
  forwardPayload?: Cell;
}

/**
 * transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *   custom_payload:(Maybe ^Cell) forward_amount:Coins forward_payload:(Either Cell ^Cell)
 */
export function nftTransferBody(p: NftTransferParams): Cell {
  return storeForwardPayload(
    beginCell()
      .storeUint(Op.nftTransfer, 32)
      .storeUint(p.queryId ?? 0n, 64)
      .storeAddress(p.newOwner)
      .storeAddress(p.responseDestination ?? null)
      .storeMaybeRef(p.customPayload)
      .storeCoins(p.forwardAmount ?? 0n),
    p.forwardPayload,
  ).endCell();
}

/** get_static_data#2fcb26a2 query_id:uint64 */
export function getStaticDataBody(queryId = 0n): Cell {
  return beginCell().storeUint(Op.getStaticData, 32).storeUint(queryId, 64).endCell();
}

/** get_royalty_params#693d3950 query_id:uint64 (TEP-66) */
export function getRoyaltyParamsBody(queryId = 0n): Cell {
  return beginCell().storeUint(Op.getRoyaltyParams, 32).storeUint(queryId, 64).endCell();
}

/** change_owner#3 query_id:uint64 new_owner:MsgAddress (collection) */
export function changeOwnerBody(newOwner: Address, queryId = 0n): Cell {
  return beginCell().storeUint(Op.changeOwner, 32).storeUint(queryId, 64).storeAddress(newOwner).endCell();
}

/** change_admin#3 query_id:uint64 new_admin:MsgAddress (minter) */
export function changeAdminBody(newAdmin: Address | null, queryId = 0n): Cell {
  return beginCell().storeUint(Op.changeAdmin, 32).storeUint(queryId, 64).storeAddress(newAdmin).endCell();
}
