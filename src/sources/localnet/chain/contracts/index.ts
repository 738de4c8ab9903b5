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
 *   fixed sale     is_complete:Bool created_at:uint32 marketplace nft owner:MsgAddress full_price:Coins listed:Bool
 *                  ^(fee_address:MsgAddress fee:Coins royalty_address:MsgAddress royalty:Coins)
 *   auction        end:Bool end_time:uint32 marketplace nft owner:MsgAddress
 *                  ^(last_bid:Coins last_member:MsgAddress last_bid_at:uint32 is_canceled:Bool created_at:uint32 listed:Bool)
 *                  ^(min_bid max_bid min_step:Coins) ^(mp_fee_address factor:uint32 base:uint32 royalty_address factor base)
 * Message bodies are the model/tlb schemes: TEP-74 (jettons), TEP-89 (wallet discovery), TEP-62 (NFT), TEP-66 (royalties).
 */
import { beginCell, type Builder, Cell, comment, contractAddress, Dictionary, type Address, type StateInit } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { storeSnakeBytes } from '../../../../model/tlb/comment.js';
import { COMMON_OP } from '../../../../model/tlb/common.js';
import {
  JETTON_OP,
  storeJettonBurn,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeProvideWalletAddress,
} from '../../../../model/tlb/jetton.js';
import { NFT_OP, storeNftDeployItem, storeNftQuery, storeNftTransfer } from '../../../../model/tlb/nft.js';
import { compiled } from './compiled.js';

export { compiled } from './compiled.js';

export const jettonMinterCode: Cell = Cell.fromBase64(compiled.contracts.jettonMinter.boc);
export const jettonWalletCode: Cell = Cell.fromBase64(compiled.contracts.jettonWallet.boc);
const nftCollectionCode: Cell = Cell.fromBase64(compiled.contracts.nftCollection.boc);
export const nftItemCode: Cell = Cell.fromBase64(compiled.contracts.nftItem.boc);
const nftFixpriceSaleCode: Cell = Cell.fromBase64(compiled.contracts.nftFixpriceSale.boc);
const nftAuctionCode: Cell = Cell.fromBase64(compiled.contracts.nftAuction.boc);

/** The ops the contracts speak, by the names their sources use (defined in model/tlb). */
export const Op = {
  transfer: JETTON_OP.transfer,
  internalTransfer: JETTON_OP.internalTransfer,
  transferNotification: JETTON_OP.transferNotification,
  excesses: COMMON_OP.excesses,
  burn: JETTON_OP.burn,
  burnNotification: JETTON_OP.burnNotification,
  mint: JETTON_OP.mint,
  provideWalletAddress: JETTON_OP.provideWalletAddress,
  takeWalletAddress: JETTON_OP.takeWalletAddress,
  nftTransfer: NFT_OP.transfer,
  ownershipAssigned: NFT_OP.ownershipAssigned,
  getStaticData: NFT_OP.getStaticData,
  reportStaticData: NFT_OP.reportStaticData,
  deployItem: NFT_OP.deployItem,
  getRoyaltyParams: NFT_OP.getRoyaltyParams,
  reportRoyaltyParams: NFT_OP.reportRoyaltyParams,
} as const;

// ---- TEP-64 content ----

/** Snake data after an optional prefix byte, 127 bytes to a cell (126 in the first after the prefix). */
function snake(bytes: Buffer, prefix?: number): Cell {
  const b = beginCell();
  if (prefix !== undefined) b.storeUint(prefix, 8);
  return b.store(storeSnakeBytes(bytes, prefix === undefined ? 127 : 126)).endCell();
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

function jettonMinterData(c: JettonMinterConfig): Cell {
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
function jettonWalletInit(owner: Address, master: Address, walletCode: Cell = jettonWalletCode): StateInit {
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

/** A fixed-price sale of `nft` by `owner`, waiting for the item (created_at is set when it arrives). */
export interface NftFixpriceSaleConfig {
  marketplace: Address;
  nft: Address;
  owner: Address;
  fullPrice: bigint;
  fee: { address: Address; amount: bigint };
  royalty: { address: Address; amount: bigint };
}

export function nftFixpriceSaleInit(c: NftFixpriceSaleConfig): StateInit {
  const fees = beginCell().storeAddress(c.fee.address).storeCoins(c.fee.amount).storeAddress(c.royalty.address).storeCoins(c.royalty.amount).endCell();
  const data = beginCell()
    .storeBit(false)
    .storeUint(0, 32)
    .storeAddress(c.marketplace)
    .storeAddress(c.nft)
    .storeAddress(c.owner)
    .storeCoins(c.fullPrice)
    .storeBit(false)
    .storeRef(fees)
    .endCell();
  return { code: nftFixpriceSaleCode, data };
}

/** A share of the final bid: factor/base of it. */
export interface AuctionShare {
  address: Address;
  factor: number;
  base: number;
}

/** An English auction of `nft` by `owner`, waiting for the item; maxBid 0 means no buyout. */
export interface NftAuctionConfig {
  marketplace: Address;
  nft: Address;
  owner: Address;
  endTime: number;
  minBid: bigint;
  maxBid: bigint;
  minStep: bigint;
  marketplaceFee: AuctionShare;
  royalty: AuctionShare;
}

export function nftAuctionInit(c: NftAuctionConfig): StateInit {
  const bids = beginCell().storeCoins(0n).storeAddress(null).storeUint(0, 32).storeBit(false).storeUint(0, 32).storeBit(false).endCell();
  const limits = beginCell().storeCoins(c.minBid).storeCoins(c.maxBid).storeCoins(c.minStep).endCell();
  const share = (b: Builder, x: AuctionShare) => b.storeAddress(x.address).storeUint(x.factor, 32).storeUint(x.base, 32);
  const fees = share(share(beginCell(), c.marketplaceFee), c.royalty).endCell();
  const data = beginCell()
    .storeBit(false)
    .storeUint(c.endTime, 32)
    .storeAddress(c.marketplace)
    .storeAddress(c.nft)
    .storeAddress(c.owner)
    .storeRef(bids)
    .storeRef(limits)
    .storeRef(fees)
    .endCell();
  return { code: nftAuctionCode, data };
}

/** The ops that end a listing (contracts/market.fc): anyone's finish after the auction's end, the owner's cancel. */
export const MarketOp = { finishAuction: 2, cancelListing: 3 } as const;

export function marketOpBody(op: number, queryId = 0n): Cell {
  return beginCell().storeUint(op, 32).storeUint(queryId, 64).endCell();
}

// ---- message bodies (the model/tlb schemes with the contracts' defaults) ----

/** An absent forward payload goes inline and empty. */
const forwardPayload = (payload: Cell | undefined): Cell => payload ?? Cell.EMPTY;

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

/** mint carrying the internal_transfer the minter sends to the new wallet */
export function mintBody(p: MintParams): Cell {
  const queryId = p.queryId ?? 0n;
  const masterMsg = beginCell()
    .store(
      storeJettonInternalTransfer({
        queryId,
        amount: p.jettonAmount,
        from: p.from ?? null,
        responseAddress: p.responseAddress ?? null,
        forwardTonAmount: p.forwardTonAmount ?? 0n,
        forwardPayload: forwardPayload(p.forwardPayload),
      }),
    )
    .endCell();
  return beginCell().store(storeJettonMint({ type: 'mint', queryId, toAddress: p.to, tonAmount: p.tonAmount, masterMsg })).endCell();
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

export function jettonTransferBody(p: JettonTransferParams): Cell {
  return beginCell()
    .store(
      storeJettonTransfer({
        queryId: p.queryId ?? 0n,
        amount: p.amount,
        destination: p.destination,
        responseDestination: p.responseDestination ?? null,
        customPayload: p.customPayload ?? null,
        forwardTonAmount: p.forwardTonAmount ?? 0n,
        forwardPayload: forwardPayload(p.forwardPayload),
      }),
    )
    .endCell();
}

export function jettonBurnBody(p: { queryId?: bigint; amount: bigint; responseDestination?: Address | null; customPayload?: Cell }): Cell {
  return beginCell()
    .store(storeJettonBurn({ queryId: p.queryId ?? 0n, amount: p.amount, responseDestination: p.responseDestination ?? null, customPayload: p.customPayload ?? null }))
    .endCell();
}

export function provideWalletAddressBody(p: { queryId?: bigint; owner: Address; includeAddress: boolean }): Cell {
  return beginCell().store(storeProvideWalletAddress({ queryId: p.queryId ?? 0n, ownerAddress: p.owner, includeAddress: p.includeAddress })).endCell();
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

export function nftDeployBody(p: NftDeployParams): Cell {
  return beginCell()
    .store(storeNftDeployItem({ queryId: p.queryId ?? 0n, itemIndex: p.index, amount: p.amount, owner: p.owner, individualContent: p.content }))
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

export function nftTransferBody(p: NftTransferParams): Cell {
  return beginCell()
    .store(
      storeNftTransfer({
        queryId: p.queryId ?? 0n,
        newOwner: p.newOwner,
        responseDestination: p.responseDestination ?? null,
        customPayload: p.customPayload ?? null,
        forwardAmount: p.forwardAmount ?? 0n,
        forwardPayload: forwardPayload(p.forwardPayload),
      }),
    )
    .endCell();
}

export function getStaticDataBody(queryId = 0n): Cell {
  return beginCell().store(storeNftQuery({ type: 'get_static_data', queryId })).endCell();
}

export function getRoyaltyParamsBody(queryId = 0n): Cell {
  return beginCell().store(storeNftQuery({ type: 'get_royalty_params', queryId })).endCell();
}

// ---- .ton-style DNS (contracts/dns-collection.fc, contracts/dns-item.fc) ----

const dnsCollectionCode: Cell = Cell.fromBase64(compiled.contracts.dnsCollection.boc);
export const dnsItemCode: Cell = Cell.fromBase64(compiled.contracts.dnsItem.boc);

export interface DnsCollectionConfig {
  /** TEP-64 content of the collection */
  content: Cell;
  /** seconds from an auction's first bid to its end */
  auctionDuration: number;
}

/** dns collection: content:^Cell item_code:^Cell auction_duration:uint32 */
export function dnsCollectionInit(c: DnsCollectionConfig): StateInit {
  return { code: dnsCollectionCode, data: beginCell().storeRef(c.content).storeRef(dnsItemCode).storeUint(c.auctionDuration, 32).endCell() };
}

/** The item of a domain (without ".ton"): index sha256(name), data index:uint256 collection:MsgAddress. */
export function dnsItemAddress(collection: Address, name: string): Address {
  const index = BigInt(`0x${sha256_sync(Buffer.from(name, 'utf8')).toString('hex')}`);
  return contractAddress(0, { code: dnsItemCode, data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() });
}

/** What starts a domain's auction at the collection (and what a bid to the item may carry): op 0, then the name. */
export function dnsAuctionStartBody(name: string): Cell {
  return beginCell().storeUint(0, 32).storeBuffer(Buffer.from(name, 'utf8')).endCell();
}

// ---- nominator pool (contracts/nominator-pool.fc) ----

export const nominatorPoolCode: Cell = Cell.fromBase64(compiled.contracts.nominatorPool.boc);

export interface NominatorPoolConfig {
  /** the validator's masterchain wallet */
  validator: Address;
  /** the validator's part of a reward, in 1/10000 */
  validatorRewardShare: number;
  maxNominators: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
}

/** A new pool's data: idle, no nominators, the config in a ref (the standard pool's NominatorPoolStorage). */
export function nominatorPoolInit(c: NominatorPoolConfig): StateInit {
  const config = beginCell()
    .storeBuffer(c.validator.hash)
    .storeUint(c.validatorRewardShare, 16)
    .storeUint(c.maxNominators, 16)
    .storeCoins(c.minValidatorStake)
    .storeCoins(c.minNominatorStake)
    .endCell();
  const data = beginCell()
    .storeUint(0, 8)
    .storeUint(0, 16)
    .storeCoins(0n)
    .storeCoins(0n)
    .storeRef(config)
    .storeDict(null)
    .storeDict(null)
    .storeUint(0, 32)
    .storeUint(0n, 256)
    .storeUint(0, 8)
    .storeUint(0, 32)
    .storeUint(0, 32)
    .storeDict(null)
    .endCell();
  return { code: nominatorPoolCode, data };
}

/** The validator's ops at its pool: 4 deposit, 5 withdraw (amount), 7 recover stake. */
export const PoolOp = { depositValidator: 4, withdrawValidator: 5, processNewStake: 6, recoverStake: 7 } as const;

export function poolValidatorBody(op: number, queryId = 0n, amount?: bigint): Cell {
  const b = beginCell().storeUint(op, 32).storeUint(queryId, 64);
  return (amount !== undefined ? b.storeCoins(amount) : b).endCell();
}
